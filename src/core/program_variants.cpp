// Kernel::specialize: variants of a program's kernels with arguments fixed, compiled from the
// program's text (specialization.hpp), kept per kernel and device in a table with a cap. Kernels
// annotated for it (annotate("jit", ...)) get the variant for their arguments' values at launch.
#include "core/child_compile.hpp"
#include "core/program_impl.hpp"
#include "source/conditionals.hpp"
#include "source/include_scan.hpp"
#include "support/file_text.hpp"
#include "support/hash.hpp"
#include "support/logging.hpp"
#include "support/short_list.hpp"
#include "support/thread_pool.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <type_traits>

namespace kjit::detail {

namespace {

/// The kind of constant a parameter of host type `type` ("const int") folds into, if it folds.
std::optional<Constant::Kind> constant_kind(std::string_view type) {
  if (type.starts_with("const ")) {
    type.remove_prefix(6);
  }
  using Kind = Constant::Kind;
  if (type == "bool") {
    return Kind::boolean;
  }
  if (type == "float" || type == "double") {
    return Kind::floating;
  }
  if (type == "char") {
    return std::is_signed_v<char> ? Kind::signed_integer : Kind::unsigned_integer;
  }
  for (const std::string_view s : {"signed char", "short", "int", "long", "long long"}) {
    if (type == s) {
      return Kind::signed_integer;
    }
  }
  for (const std::string_view u :
       {"unsigned char", "unsigned short", "unsigned int", "unsigned long", "unsigned long long"}) {
    if (type == u) {
      return Kind::unsigned_integer;
    }
  }
  return std::nullopt;
}

}  // namespace

std::shared_ptr<const source::JitAnnotations> ProgramImpl::annotations() {
  if (input_ != backend::InputKind::source) {
    return nullptr;
  }
  const std::lock_guard lock(mutex_);
  if (annotated_text_ != source_) {
    // A kernel may be annotated in a header the program includes (upstream's main.cu of wsm5
    // includes kernel.h): each is read too, and kept for the variants.
    // The macros the headers define count as the program's (lulesh.h's DOUBLE_PRECISION picks
    // lulesh.cu's launch bounds): those of a header included after a kernel count too.
    std::vector<std::pair<std::string, std::string>> included = included_texts(*source_);
    auto defines =
        std::make_shared<std::map<std::string, std::string, std::less<>>>(options_.defines);
    for (const auto& [file, text] : included) {
      *defines = source::defines_after(text, *defines);
    }
    source::JitAnnotations all = source::read_jit_annotations(*source_, *defines);
    auto headers = std::make_shared<std::vector<std::string>>();
    for (auto& [file, text] : included) {
      source::JitAnnotations more = source::read_jit_annotations(text, options_.defines);
      for (source::JitAnnotation& a : more.kernels) {
        a.file = file;
        all.kernels.push_back(std::move(a));
      }
      for (source::JitAnnotationProblem& p : more.problems) {
        p.file = file;
        all.problems.push_back(std::move(p));
      }
      if (text.find("__global__") != std::string::npos) {
        headers->push_back(std::move(text));  // may declare a kernel a variant calls
      }
    }
    annotations_ = std::make_shared<const source::JitAnnotations>(std::move(all));
    header_texts_ = std::move(headers);
    header_defines_ = std::move(defines);
    annotated_text_ = source_;
  }
  return annotations_;
}

std::vector<std::pair<std::string, std::string>> ProgramImpl::included_texts(
    const std::string& source) const {
  std::vector<std::pair<std::string, std::string>> texts;
  const backend::CompileRequest request = request_for({}, source);
  try {
    for (const auto& [name, path] : source::scan_includes(request.files()).found) {
      if (std::optional<std::string> text = read_file(path)) {
        texts.emplace_back(path.string(), std::move(*text));
      }
    }
  } catch (const Error& e) {
    // The compile reports what is wrong with the includes; the program's own text still counts.
    log().debug("'{}': its headers are not read for annotations: {}", name_, e.what());
  }
  for (const auto& [name, text] : request.headers) {
    texts.emplace_back(name, text);
  }
  return texts;
}

Diagnostic ProgramImpl::annotation_diagnostic(std::string_view kernel, std::string_view file,
                                              unsigned line, unsigned column,
                                              std::string_view message) const {
  return Diagnostic{file.empty() ? name_ : std::string(file), line, column,
                    Diagnostic::Severity::error,
                    fmt::format("kernel '{}': annotate(\"jit\", ...): {}", kernel, message)};
}

void ProgramImpl::check_annotation(std::string_view kernel, const DeviceImpl& device,
                                   const source::JitAnnotations& all) const {
  std::vector<Diagnostic> refused;
  for (const source::JitAnnotationProblem& p : all.problems_of(kernel)) {
    refused.push_back(annotation_diagnostic(kernel, p.file, p.line, p.column, p.message));
  }
  if (!refused.empty()) {
    throw CompileError(name_, device.info().id(), std::move(refused), {});
  }
}

const std::vector<std::size_t>* ProgramImpl::specialized_arguments(std::string_view kernel) const {
  const auto& named = options_.specialize_arguments;
  auto it = named.find(kernel);
  if (it == named.end()) {
    it = named.find(source::declared_name(kernel));
  }
  return it == named.end() ? nullptr : &it->second;
}

void ProgramImpl::fold_annotated(KernelImpl& kernel, const source::JitAnnotations* all,
                                 std::span<const std::size_t> param_sizes,
                                 ParameterSpellings spellings) const {
  const std::string target = kernel.device().info().id();
  const source::JitAnnotation* a = all != nullptr ? all->find(kernel.name()) : nullptr;
  const auto diagnostic = [&](unsigned line, unsigned column, std::string_view message) {
    return annotation_diagnostic(kernel.name(), a != nullptr ? a->file : "", line, column, message);
  };
  const std::vector<std::size_t>* named = specialized_arguments(kernel.name());
  if (a == nullptr && named == nullptr) {
    return;
  }
  const std::string option =
      fmt::format("CompileOptions::specialize_arguments of kernel '{}'", kernel.name());
  if (input_ != backend::InputKind::source) {
    throw UsageError(fmt::format(
        "kjit: {}: a program from bitcode cannot be specialised (kjit specialises the source)",
        option));
  }
  if (a != nullptr && a->parameters != param_sizes.size()) {
    throw CompileError(
        name_, target,
        {diagnostic(a->line, a->column,
                    fmt::format("the kernel is declared with {} parameters here, but it takes {} "
                                "as compiled",
                                a->parameters, param_sizes.size()))},
        {});
  }
  std::vector<std::size_t> positions = a != nullptr ? a->positions : std::vector<std::size_t>{};
  if (named != nullptr) {
    for (const std::size_t p : *named) {
      if (p >= param_sizes.size()) {
        throw UsageError(fmt::format("kjit: {}: parameter {} does not exist; the kernel takes {}",
                                     option, p, param_sizes.size()));
      }
      positions.push_back(p);
    }
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  }
  const std::vector<std::string> types =
      spellings != nullptr ? spellings() : std::vector<std::string>{};
  std::vector<KernelImpl::FoldedParameter> folded;
  for (const std::size_t p : positions) {
    const std::string type = p < types.size() ? types[p] : std::string();
    const std::optional<Constant::Kind> kind = constant_kind(type);
    if (!kind) {
      const std::string what = fmt::format(
          "is {} on the host, which kjit cannot fold: it folds bool, integer, float "
          "and double arguments",
          type.empty() ? "a class or enum" : "'" + type + "'");
      const bool annotated = a != nullptr && std::find(a->positions.begin(), a->positions.end(),
                                                       p) != a->positions.end();
      if (!annotated) {
        throw UsageError(fmt::format("kjit: {}: parameter {} {}", option, p, what));
      }
      throw CompileError(
          name_, target,
          {diagnostic(a->line, a->column, fmt::format("argument position {} {}", p + 1, what))},
          {});
    }
    folded.push_back({p, *kind, param_sizes[p]});
  }
  kernel.fold_at_launch(std::move(folded), options_.fold_launch_geometry);
}

namespace {

/// What tells a launch's variant from another: the folded values' bits and the geometry. Up to
/// 32 values and the geometry in place: a launch whose variant is ready allocates nothing.
using LaunchBits = ShortList<std::uint64_t, 38>;

std::size_t count_bits(std::span<const Constant> constants, std::optional<Dim3> block,
                       std::optional<Dim3> grid) {
  return constants.size() + (block ? 3 : 0) + (grid ? 3 : 0);
}

void fill_bits(std::span<const Constant> constants, std::optional<Dim3> block,
               std::optional<Dim3> grid, std::span<std::uint64_t> bits) {
  std::size_t n = 0;
  for (const Constant& c : constants) {
    bits[n++] = c.bits;
  }
  for (const std::optional<Dim3>& d : {block, grid}) {
    if (d) {  // the lengths tell a variant with folded geometry from one without
      bits[n++] = d->x;
      bits[n++] = d->y;
      bits[n++] = d->z;
    }
  }
}

}  // namespace

void KernelImpl::compile_into(const std::shared_ptr<KernelImpl>& kernel, VariantSlot& to,
                              std::span<const Constant> values, std::optional<Dim3> block,
                              std::optional<Dim3> grid) {
  try {
    to.kernel = kernel->program().variant(kernel, values, block, grid);
    to.state.store(VariantSlot::ready, std::memory_order_release);
  } catch (const std::exception& e) {
    Specialization failed;
    failed.constants.assign(values.begin(), values.end());
    failed.block = block;
    failed.grid = grid;
    log().warn(
        "{}: the variant with {} did not compile; launches with these values run the kernel "
        "unspecialised: {}",
        kernel->describe(), failed.describe(), e.what());
    to.state.store(VariantSlot::failed, std::memory_order_release);
  }
  to.done.set_value();
}

std::shared_ptr<KernelImpl> KernelImpl::launch_variant(std::span<const Constant> constants,
                                                       std::optional<Dim3> block,
                                                       std::optional<Dim3> grid) const {
  LaunchBits bits(count_bits(constants, block, grid));
  fill_bits(constants, block, grid, bits.span());
  const auto same = [&](const LaunchVariant& v) { return std::ranges::equal(v.bits, bits.span()); };
  // What a launch makes of a slot: its variant once ready, else the kernel itself (nullptr).
  const auto usable = [](const VariantSlot& slot) {
    return slot.state.load(std::memory_order_acquire) == VariantSlot::ready ? slot.kernel : nullptr;
  };
  const auto remember = [&](std::shared_ptr<VariantSlot> slot) {  // with the mutex held
    launch_variants_.push_front({{bits.span().begin(), bits.span().end()}, std::move(slot)});
    if (launch_variants_.size() > program_->max_variants()) {
      launch_variants_.pop_back();  // a compile still running keeps its slot, then drops it
    }
  };
  const bool wait = program_->launch_waits_for_variants();
  std::shared_ptr<VariantSlot> slot;
  {
    const std::lock_guard lock(launch_variants_mutex_);
    if (const auto it = std::find_if(launch_variants_.begin(), launch_variants_.end(), same);
        it != launch_variants_.end()) {
      launch_variants_.splice(launch_variants_.begin(), launch_variants_, it);
      if (!wait || it->slot->state.load(std::memory_order_acquire) == VariantSlot::ready) {
        return usable(*it->slot);
      }
    } else if (!wait) {
      slot = std::make_shared<VariantSlot>();
      remember(slot);
    }
  }
  auto self = std::const_pointer_cast<KernelImpl>(shared_from_this());
  if (wait) {
    // Compiled (or loaded from the disk cache) outside the lock; the program's table makes sure
    // that threads asking at once compile it once.
    std::shared_ptr<KernelImpl> variant = program_->variant(self, constants, block, grid);
    auto ready = std::make_shared<VariantSlot>();
    ready->kernel = variant;
    ready->state.store(VariantSlot::ready, std::memory_order_release);
    ready->done.set_value();
    const std::lock_guard lock(launch_variants_mutex_);
    if (const auto it = std::find_if(launch_variants_.begin(), launch_variants_.end(), same);
        it != launch_variants_.end()) {
      it->slot = std::move(ready);  // replaces a failed one
    } else {
      remember(std::move(ready));
    }
    return variant;
  }
  // The compiler's first compile in the process makes its static objects, which exit destroys
  // in the reverse order of their making: made on a background thread that exit found still
  // compiling, they were destroyed under it (a pure virtual call in Clang's option table). So
  // that compile runs here, and exit then stops the background queue before they go (once the
  // compiler has compiled here: a variant from the disk cache made no statics).
  const backend::Compiler& compiler = device().backend().compiler();
  if (first_compile_here(compiler)) {
    compile_into(self, *slot, constants, block, grid);
    if (!first_compile_here(compiler)) {
      stop_background_compiles_at_exit();
    }
    return usable(*slot);
  }
  // The compile runs on the background queue and owns what it uses: this kernel (hence its
  // program and build) and the slot, so that either may be dropped meanwhile.
  background_compiles().post([self = std::move(self), slot,
                              constants = std::vector(constants.begin(), constants.end()), block,
                              grid] { compile_into(self, *slot, constants, block, grid); });
  return nullptr;
}

void KernelImpl::wait_for_variants() const {
  std::vector<std::shared_future<void>> compiling;
  {
    const std::lock_guard lock(launch_variants_mutex_);
    for (const LaunchVariant& v : launch_variants_) {
      compiling.push_back(v.slot->finished);
    }
  }
  for (const std::shared_future<void>& f : compiling) {
    f.wait();
  }
}

std::shared_ptr<KernelImpl> specialize_kernel(const std::shared_ptr<KernelImpl>& kernel,
                                              std::span<const Constant> constants,
                                              std::optional<Dim3> block) {
  return kernel->program().variant(kernel, constants, block);
}

std::shared_ptr<KernelImpl> specialize_kernel_array(const std::shared_ptr<KernelImpl>& kernel,
                                                    const ConstantArray& array) {
  const KernelImpl& base = *kernel;
  if (array.bytes.empty()) {
    throw UsageError(fmt::format(
        "kjit: {}: specialize_array<{}>: the contents are empty; a variant needs at least one "
        "element",
        base.describe(), array.position));
  }
  const std::size_t total = base.specialization().array_bytes() + array.bytes.size();
  if (total > kMaxConstantArrayBytes) {
    throw UsageError(fmt::format(
        "kjit: {}: specialize_array<{}>: {} bytes of arrays in one variant; at most {} (they go "
        "to the GPUs' constant memory): pass a larger table as an argument",
        base.describe(), array.position, total, kMaxConstantArrayBytes));
  }
  auto bytes = std::make_shared<const std::string>(
      reinterpret_cast<const char*>(array.bytes.data()), array.bytes.size());
  const std::uint64_t hash = hash64(*bytes);
  const ArrayConstant folded{array.position, array.element_size, std::move(bytes), hash};
  return kernel->program().variant(kernel, {}, std::nullopt, std::nullopt, {&folded, 1});
}

std::shared_ptr<KernelImpl> ProgramImpl::variant(const std::shared_ptr<KernelImpl>& kernel,
                                                 std::span<const Constant> more,
                                                 std::optional<Dim3> block,
                                                 std::optional<Dim3> grid,
                                                 std::span<const ArrayConstant> arrays) {
  const KernelImpl& base = *kernel;
  if (input_ != backend::InputKind::source) {
    throw UsageError(fmt::format(
        "kjit: {}: a program from bitcode cannot be specialised (kjit specialises the source)",
        base.describe()));
  }
  const Specialization& had = base.specialization();
  const std::size_t count =
      base.function().params().size() + had.constants.size() + had.arrays.size();
  const Specialization spec = had.with(more, block, count, grid, arrays);  // first: "fixed already"
  if (const std::optional<std::string> problem =
          block ? base.function().block_problem(*block) : std::nullopt) {
    throw UsageError(fmt::format("kjit: {}: specialize_block: {}", base.describe(), *problem));
  }
  if (more.empty() && arrays.empty() && spec.block == had.block && spec.grid == had.grid) {
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
  const std::size_t expected = count - spec.constants.size() - spec.arrays.size();
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
  annotations();  // reads the headers the text includes, which the variant's source needs
  std::promise<std::shared_ptr<LoadedBuild>> promise;
  std::shared_future<std::shared_ptr<LoadedBuild>> result;
  std::shared_ptr<const std::string> source;
  std::shared_ptr<const std::vector<std::string>> headers;
  std::shared_ptr<const std::map<std::string, std::string, std::less<>>> defines;
  bool compile = false;
  {
    const std::lock_guard lock(mutex_);
    source = source_;
    if (annotated_text_ == source_) {
      headers = header_texts_;  // read with the annotations, for this text
      defines = header_defines_;
    }
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
    const std::string text = variant_source(
        *source, key.name, backend::kernel_address(key.name, key.signature), count, spec,
        max_threads,
        headers ? std::span<const std::string>(*headers) : std::span<const std::string>(),
        defines ? *defines : options_.defines);
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
