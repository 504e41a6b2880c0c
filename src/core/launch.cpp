// The run-time half of Kernel::launch: argument checks that need the devices, and staging of
// host spans.
#include "core/device_impl.hpp"
#include "core/graph_recording.hpp"
#include "core/program_impl.hpp"
#include "support/short_list.hpp"

#include <kjit/error.hpp>
#include <kjit/kernel.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace kjit::detail {

namespace {

/// Launches of up to this many arguments build their lists in place (no allocation).
constexpr std::size_t kInlineArguments = 32;

StreamImpl& launch_stream(const KernelImpl& kernel, const Stream* stream) {
  StreamImpl* s = kernel.device().stream_impl(stream);
  if (s == nullptr) {
    throw LaunchError(fmt::format("kjit: {} cannot be launched on a stream of {}",
                                  kernel.describe(), stream->impl()->device().info().id()));
  }
  return *s;
}

void check_argument(const KernelImpl& kernel, const KernelArg& arg, std::size_t position) {
  switch (arg.kind) {
    case KernelArg::Kind::moved_from_buffer:
      throw LaunchError(
          fmt::format("kjit: {}: argument {} is an empty DeviceBuffer "
                      "(default-constructed or moved-from)",
                      kernel.describe(), position));
    case KernelArg::Kind::device_address:
      if (arg.device != &kernel.device()) {
        throw LaunchError(fmt::format(
            "kjit: {}: argument {} points to memory of {}; copy it to {} first", kernel.describe(),
            position,
            arg.device != nullptr ? arg.device->info().id() : std::string("an unknown device"),
            kernel.device().info().id()));
      }
      break;
    case KernelArg::Kind::value:
    case KernelArg::Kind::null_pointer:
      break;
  }
  const auto& params = kernel.function().params();
  if (arg.size != params[position].size) {
    throw LaunchError(fmt::format("kjit: {}: argument {} has {} bytes, the parameter {}",
                                  kernel.describe(), position, arg.size, params[position].size));
  }
}

void launch_plain(const KernelImpl& kernel, const Stream* stream, const LaunchConfig& config,
                  const KernelArg* args, std::size_t count);

/// A launch of a kernel whose annotation folds some of its parameters: the variant for the
/// arguments' values runs, with the other arguments; while it compiles in the background (or
/// when it failed to), the kernel itself runs, with every argument.
void launch_folded(const KernelImpl& kernel, const Stream* stream, const LaunchConfig& config,
                   const KernelArg* args, std::size_t count) {
  if (count != kernel.function().params().size()) {
    throw LaunchError(fmt::format("kjit: {} takes {} arguments, launch() gave {}",
                                  kernel.describe(), kernel.function().params().size(), count));
  }
  ShortList<Constant, kInlineArguments> constants(kernel.folded().size());
  std::size_t n = 0;
  for (const KernelImpl::FoldedParameter& f : kernel.folded()) {
    const KernelArg& arg = args[f.position];
    check_argument(kernel, arg, f.position);
    std::uint64_t bits = 0;
    std::memcpy(&bits, arg.value, std::min(f.size, sizeof bits));
    if (f.kind == Constant::Kind::boolean) {
      bits = bits != 0 ? 1 : 0;
    } else if (f.kind == Constant::Kind::signed_integer && f.size < sizeof bits) {
      const auto shift = static_cast<unsigned>(64 - 8 * f.size);  // sign-extend to 64 bits
      bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(bits << shift) >> shift);
    }
    constants[n++] = {f.position, f.kind, f.size, bits};
  }
  // The geometry is folded where the kernel can run such blocks (else the launch below fails
  // with the kernel's own error).
  const bool geometry =
      kernel.folds_geometry() && !kernel.function().block_problem(config.block).has_value();
  const std::shared_ptr<KernelImpl> variant =
      kernel.launch_variant(constants.span(), geometry ? std::optional(config.block) : std::nullopt,
                            geometry ? std::optional(config.grid) : std::nullopt);
  if (!variant) {
    launch_plain(kernel, stream, config, args, count);
    return;
  }
  ShortList<KernelArg, kInlineArguments> kept(count - kernel.folded().size());
  auto folded = kernel.folded().begin();
  for (std::size_t i = 0, k = 0; i < count; ++i) {
    if (folded != kernel.folded().end() && folded->position == i) {
      ++folded;
    } else {
      kept[k++] = args[i];
    }
  }
  launch_kernel(*variant, stream, config, kept.data(), kept.size());
}

/// A launch of `kernel` itself, with every argument.
void launch_plain(const KernelImpl& kernel, const Stream* stream, const LaunchConfig& config,
                  const KernelArg* args, std::size_t count) {
  backend::Function& function = kernel.function();
  if (const std::optional<Dim3>& block = kernel.specialization().block;
      block && *block != config.block) {
    throw LaunchError(fmt::format("kjit: {} cannot be launched with blocks of ({}, {}, {})",
                                  kernel.describe(), config.block.x, config.block.y,
                                  config.block.z));
  }
  if (count != function.params().size()) {
    throw LaunchError(fmt::format("kjit: {} takes {} arguments, launch() gave {}",
                                  kernel.describe(), function.params().size(), count));
  }
  ShortList<const void*, kInlineArguments> pointers(count);
  const void** values = pointers.data();
  check_arguments(kernel, args, count, values);
  StreamImpl& s = launch_stream(kernel, stream);
  if (Recording* recording = s.recording()) {
    recording->launch(s, kernel, args, count,
                      [&] { function.launch(s.backend(), config, values); });
  } else {
    function.launch(s.backend(), config, values);
  }
}

}  // namespace

void launch_kernel(const KernelImpl& kernel, const Stream* stream, const LaunchConfig& config,
                   const KernelArg* args, std::size_t count) {
  if (kernel.folded().empty()) {
    launch_plain(kernel, stream, config, args, count);
  } else {
    launch_folded(kernel, stream, config, args, count);
  }
}

void wait_for_variants(const KernelImpl& kernel) {
  kernel.wait_for_variants();
}

void check_arguments(const KernelImpl& kernel, const KernelArg* args, std::size_t count,
                     const void** values) {
  for (std::size_t i = 0; i < count; ++i) {
    check_argument(kernel, args[i], i);
    values[i] = args[i].value;
  }
}

StagingContext::StagingContext(const KernelImpl& kernel, const Stream* stream)
    : kernel_(kernel), stream_(stream) {}

Stream StagingContext::stream() const {
  return stream_ != nullptr ? *stream_ : Stream(kernel_.device().default_stream());
}

RawBuffer StagingContext::stage_in(const void* host, std::size_t bytes) const {
  if (StreamImpl* s = kernel_.device().stream_impl(stream_); s != nullptr && s->recording()) {
    throw UsageError(fmt::format(
        "kjit: {}: a host span argument cannot be recorded in a graph (it is copied in and out "
        "at each launch); pass a DeviceBuffer",
        kernel_.describe()));
  }
  RawBuffer staged(Device(kernel_.device().shared_from_this()), bytes);
  const Stream s = stream();
  staged.write(0, host, bytes, &s);
  return staged;
}

void StagingContext::stage_out(const RawBuffer& staged, void* host, std::size_t bytes) const {
  const Stream s = stream();
  staged.read(0, host, bytes, &s);
}

void StagingContext::finish() const {
  stream().synchronize();
}

}  // namespace kjit::detail
