#include "backends/cpu/run/cpu_module.hpp"

#include "backends/cpu/run/cpu_launch_records.hpp"
#include "backends/cpu/run/cpu_memory.hpp"
#include "backends/cpu/run/cpu_stream.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>

namespace kjit::cpu {

std::vector<backend::Variable> CpuModule::variables() {
  std::vector<backend::Variable> found;
  for (const backend::DeviceVariable& v : variables_) {
    if (void* at = code_->find(v.symbol)) {
      found.push_back({v.name, device_address(at), v.size});
    }
  }
  return found;
}

std::unique_ptr<backend::Function> CpuModule::function(const std::string& symbol,
                                                       const std::string& name) {
  const auto corrupt = [&](std::string_view why) {
    return BackendError(fmt::format("kjit: the CPU binary of '{}' is unusable for kernel '{}': {}",
                                    code_->name(), name, why));
  };
  const auto* info = static_cast<const kjit_cpu_kernel_info*>(code_->find("__kjit_info_" + symbol));
  const auto* table = static_cast<const std::uint64_t*>(code_->find("__kjit_params_" + symbol));
  if (info == nullptr || table == nullptr) {
    throw corrupt(fmt::format("entry {} is missing", symbol));
  }
  if (info->abi_version != KJIT_CPU_ABI_VERSION) {
    throw corrupt(fmt::format("it was built for CPU ABI {}, this kjit uses {}", info->abi_version,
                              KJIT_CPU_ABI_VERSION));
  }
  const std::uint64_t count = table[0];
  std::vector<backend::ParamInfo> params;
  std::size_t offset = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::size_t size = table[1 + i];
    const std::size_t align = table[1 + count + i];
    if (align == 0 || align > kCacheLine || (align & (align - 1)) != 0) {
      throw corrupt(fmt::format("parameter {} has alignment {}", i, align));
    }
    offset = align_up(offset, align);
    params.push_back({offset, size});
    offset += size;
  }
  CpuFunction::Entries entries;
  constexpr unsigned kEntryKind = KJIT_CPU_KERNEL_USES_BARRIER | KJIT_CPU_KERNEL_YIELDS;
  const bool ranges = (info->flags & KJIT_CPU_KERNEL_RANGES) != 0;
  constexpr unsigned kKnown = kEntryKind | KJIT_CPU_KERNEL_USES_WARP | KJIT_CPU_KERNEL_RANGES |
                              KJIT_CPU_KERNEL_FLUSHES_DENORMALS;
  if ((info->flags & ~kKnown) != 0 || (info->flags & kEntryKind) == kEntryKind ||
      (ranges && (info->flags & KJIT_CPU_KERNEL_USES_BARRIER) != 0)) {
    throw corrupt(fmt::format("its kernel flags {:#x} are not a valid set", info->flags));
  }
  entries.yields = (info->flags & KJIT_CPU_KERNEL_YIELDS) != 0;
  entries.warp = (info->flags & KJIT_CPU_KERNEL_USES_WARP) != 0;
  entries.flush_denormals = (info->flags & KJIT_CPU_KERNEL_FLUSHES_DENORMALS) != 0;
  if ((info->flags & KJIT_CPU_KERNEL_USES_BARRIER) != 0) {
    entries.thread = reinterpret_cast<ThreadEntry>(code_->find("__kjit_thread_" + symbol));
  } else {
    entries.block = reinterpret_cast<BlockEntry>(code_->find("__kjit_block_" + symbol));
  }
  if (ranges) {
    entries.range = reinterpret_cast<RangeEntry>(code_->find("__kjit_range_" + symbol));
    if (entries.range == nullptr) {
      throw corrupt(fmt::format("the range entry of entry {} is missing", symbol));
    }
  }
  constexpr std::uint64_t kMaxFrameBytes = std::uint64_t{1} << 24;
  if (info->frame_bytes > kMaxFrameBytes) {
    throw corrupt(fmt::format("it asks for {} bytes of state per thread", info->frame_bytes));
  }
  entries.frame_bytes_per_thread = static_cast<std::size_t>(info->frame_bytes);
  if (entries.thread == nullptr && entries.block == nullptr) {
    throw corrupt(fmt::format("the code of entry {} is missing", symbol));
  }
  auto function = std::make_unique<CpuFunction>(name, device_, std::move(params), offset,
                                                static_cast<std::size_t>(info->static_shared_bytes),
                                                entries, executor_, code_);
  // __launch_bounds__: a block past them is refused as a GPU refuses it.
  function->limit_block_threads(static_cast<std::size_t>(info->max_threads));
  return function;
}

CpuFunction::CpuFunction(std::string name, const DeviceInfo& device,
                         std::vector<backend::ParamInfo> params, std::size_t argument_bytes,
                         std::size_t static_shared, Entries entries, CpuExecutor& executor,
                         std::shared_ptr<LinkedObject> code)
    : backend::Function(std::move(name), device, std::move(params), static_shared),
      entries_(entries),
      executor_(executor) {
  CpuLaunch prototype;
  prototype.kernel = this->name();
  prototype.code = std::move(code);
  prototype.block_entry = entries_.block;
  prototype.thread_entry = entries_.thread;
  prototype.range_entry = entries_.range;
  prototype.yields = entries_.yields;
  prototype.warp = entries_.warp;
  prototype.flush_denormals = entries_.flush_denormals;
  prototype.history = std::make_shared<LaunchHistory>();
  std::vector<std::size_t> offsets;
  for (const backend::ParamInfo& p : this->params()) {
    offsets.push_back(p.offset);
  }
  records_ = std::make_shared<LaunchRecords>(executor, std::move(prototype), argument_bytes,
                                             std::move(offsets));
}

void CpuFunction::launch_impl(backend::Stream& stream, const LaunchConfig& config,
                              const void* const* args) {
  executor_.check_usable(name());  // after a fault, at once (and again when it would run)
  // A reused record: it runs after the caller's values are gone, so they are copied into it.
  QueuedLaunch& queued = records_->take();
  CpuLaunch& launch = queued.launch;
  launch.grid = config.grid;
  launch.block = config.block;
  launch.shared_bytes = static_shared_bytes() + config.shared_bytes;
  launch.frame_bytes = entries_.frame_bytes_per_thread * config.block.volume();
  const auto& ps = params();
  for (std::size_t i = 0; i < ps.size(); ++i) {
    std::memcpy(launch.argument_pointers[i], args[i], ps[i].size);
  }
  try {
    static_cast<CpuStream&>(stream).enqueue(queued);
  } catch (...) {
    queued.done();  // not queued (no dispatcher thread could start): the record goes back
    throw;
  }
}

}  // namespace kjit::cpu
