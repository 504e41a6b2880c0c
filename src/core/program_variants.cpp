// Kernel::specialize: variants of a program's kernels with arguments fixed, compiled from the
// program's text (specialization.hpp), kept per kernel and device in a table with a cap.
#include "core/program_impl.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace kjit::detail {

std::shared_ptr<KernelImpl> specialize_kernel(const std::shared_ptr<KernelImpl>& kernel,
                                              std::span<const Constant> constants,
                                              std::optional<Dim3> block) {
  return kernel->program().variant(kernel, constants, block);
}

std::shared_ptr<KernelImpl> ProgramImpl::variant(const std::shared_ptr<KernelImpl>& kernel,
                                                 std::span<const Constant> more,
                                                 std::optional<Dim3> block) {
  const KernelImpl& base = *kernel;
  if (input_ != backend::InputKind::source) {
    throw UsageError(fmt::format(
        "kjit: {}: a program from bitcode cannot be specialised (kjit specialises the source)",
        base.describe()));
  }
  const Specialization& had = base.specialization();
  const std::size_t count = base.function().params().size() + had.constants.size();
  const Specialization spec = had.with(more, block, count);  // first: "fixed already"
  if (const std::optional<std::string> problem =
          block ? base.function().block_problem(*block) : std::nullopt) {
    throw UsageError(fmt::format("kjit: {}: specialize_block: {}", base.describe(), *problem));
  }
  if (more.empty() && spec.block == had.block) {
    return kernel;  // nothing new (the same block again): the same kernel
  }
  DeviceImpl& device = base.device();
  std::shared_ptr<LoadedBuild> build =
      variant_build(base.key(), spec, count, device, base.function().max_block_threads());
  std::unique_ptr<backend::Function> function =
      build->module->function(build->symbols.at(0), base.name());
  if (const std::optional<std::size_t> limit = base.function().max_block_threads()) {
    function->limit_block_threads(*limit);  // where the bounds were not written (prelude)
  }
  const std::size_t expected = count - spec.constants.size();
  if (function->params().size() != expected) {
    throw LaunchError(fmt::format("kjit: {}: the variant with {} takes {} parameters, not {}",
                                  base.describe(), spec.describe(), function->params().size(),
                                  expected));
  }
  return std::make_shared<KernelImpl>(std::move(build), std::move(function), shared_from_this(),
                                      base.key(), spec);
}

std::shared_ptr<LoadedBuild> ProgramImpl::variant_build(const KernelKey& key,
                                                        const Specialization& spec,
                                                        std::size_t count, DeviceImpl& device,
                                                        std::optional<std::size_t> max_threads) {
  const std::string kernel = key.describe();
  const std::string spec_key = spec.key();
  std::promise<std::shared_ptr<LoadedBuild>> promise;
  std::shared_future<std::shared_ptr<LoadedBuild>> result;
  std::shared_ptr<const std::string> source;
  bool compile = false;
  {
    const std::lock_guard lock(mutex_);
    source = source_;
    std::list<Variant>& table = variants_[&device][kernel];
    const auto it = std::find_if(table.begin(), table.end(),
                                 [&](const Variant& v) { return v.key == spec_key; });
    if (it != table.end()) {
      table.splice(table.begin(), table, it);  // most recently asked for
      result = it->result;
    } else {
      compile = true;
      result = promise.get_future().share();
      table.push_front({spec_key, result});
      if (table.size() > options_.max_variants) {
        log().warn(
            "kernel '{}' of '{}' on {} has more than {} specialised variants "
            "(CompileOptions::max_variants): forgetting the least recently asked for; asking "
            "for it again loads it from the disk cache",
            kernel, name_, device.info().id(), options_.max_variants);
        table.pop_back();
      }
    }
  }
  if (!compile) {
    return result.get();
  }
  try {
    const std::string text =
        variant_source(*source, key.name, backend::kernel_address(key.name, key.signature), count,
                       spec, max_threads);
    std::shared_ptr<LoadedBuild> build =
        compile_and_load({KernelKey{std::string(kVariantKernel), std::nullopt}}, device, text,
                         fmt::format("{} with {}", kernel, spec.describe()));
    adopt(build, device, /*variant=*/true);
    promise.set_value(std::move(build));
  } catch (...) {
    promise.set_exception(std::current_exception());
    // Forget the failure so that a later call tries again (and reports afresh).
    const std::lock_guard lock(mutex_);
    std::list<Variant>& table = variants_[&device][kernel];
    table.remove_if([&](const Variant& v) { return v.key == spec_key; });
  }
  return result.get();
}

}  // namespace kjit::detail
