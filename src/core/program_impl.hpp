// The core of Program and Kernel: per-device builds of a program's source, compiled once however
// many threads ask, and the kernels looked up in them.
#pragma once

#include "backends/kit/backend.hpp"
#include "core/device_impl.hpp"
#include "core/file_watch.hpp"
#include "core/specialization.hpp"
#include "source/jit_annotations.hpp"

#include <kjit/detail/arguments.hpp>
#include <kjit/program.hpp>

#include <atomic>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <future>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kjit::detail {

/// A kernel as a build knows it: its name, and the parameter types that resolved it when the
/// name alone did not (a template or an overload set).
struct KernelKey {
  std::string name;
  std::optional<std::string> signature;

  [[nodiscard]] std::string describe() const {
    return signature ? name + "(" + *signature + ")" : name;
  }
  friend bool operator==(const KernelKey&, const KernelKey&) = default;
};

/// A program compiled and loaded for one device, with the kernels it was built for.
struct LoadedBuild {
  std::shared_ptr<DeviceImpl> device;
  std::vector<KernelKey> kernels;
  std::vector<std::string> symbols;  // symbols[i] is kernels[i]
  std::unique_ptr<backend::Module> module;

  /// The module's device variables, asked of it once.
  const std::vector<backend::Variable>& variables();
  /// The variable `name`, or nullptr.
  const backend::Variable* variable(std::string_view name);

 private:
  std::once_flag variables_once_;
  std::vector<backend::Variable> variables_;
};

class ProgramImpl;

class KernelImpl : public std::enable_shared_from_this<KernelImpl> {
 public:
  /// Kernel `key` of `program`, or its variant `spec` (then `function` is the variant's kernel).
  KernelImpl(std::shared_ptr<LoadedBuild> build, std::unique_ptr<backend::Function> function,
             std::shared_ptr<ProgramImpl> program, KernelKey key, Specialization spec = {});
  [[nodiscard]] DeviceImpl& device() const noexcept { return *build_->device; }
  [[nodiscard]] backend::Function& function() const noexcept { return *function_; }
  [[nodiscard]] const std::string& name() const noexcept { return key_.name; }
  [[nodiscard]] const KernelKey& key() const noexcept { return key_; }
  [[nodiscard]] ProgramImpl& program() const noexcept { return *program_; }
  /// What this kernel fixes of the program's kernel `key()` (nothing, unless a variant).
  [[nodiscard]] const Specialization& specialization() const noexcept { return spec_; }
  /// "kernel 'saxpy<float>' of 'saxpy.cu' on cpu:0", and a variant's fixed values
  [[nodiscard]] std::string describe() const;

  /// A parameter that the kernel's annotation (annotate("jit", ...)) folds at each launch.
  struct FoldedParameter {
    std::size_t position = 0;
    Constant::Kind kind = Constant::Kind::signed_integer;
    std::size_t size = 0;
  };
  /// Makes each launch of this kernel run its variant for the values of `folded`, and for the
  /// launch's block and grid where `geometry` (set once, before the kernel is handed out).
  void fold_at_launch(std::vector<FoldedParameter> folded, bool geometry) {
    folded_ = std::move(folded);
    folds_geometry_ = geometry;
  }
  [[nodiscard]] const std::vector<FoldedParameter>& folded() const noexcept { return folded_; }
  [[nodiscard]] bool folds_geometry() const noexcept { return folds_geometry_; }
  /// The variant fixing `constants` (the folded parameters' values, in their order) and the
  /// geometry `block` and `grid` (when folded), from this kernel's own table of the variants it
  /// launched, else from the program (program_variants.cpp). nullptr while the variant compiles
  /// in the background, or when its compile failed: the launch runs this kernel itself, with every
  /// argument. With CompileOptions::launch_waits_for_variants, waits for the compile (and throws
  /// its error).
  [[nodiscard]] std::shared_ptr<KernelImpl> launch_variant(std::span<const Constant> constants,
                                                           std::optional<Dim3> block,
                                                           std::optional<Dim3> grid) const;
  /// Waits until the variants compiling in the background for launches of this kernel are
  /// ready or have failed.
  void wait_for_variants() const;

 private:
  std::shared_ptr<LoadedBuild> build_;  // declared first: outlives the function below
  std::unique_ptr<backend::Function> function_;
  std::shared_ptr<ProgramImpl> program_;
  KernelKey key_;
  Specialization spec_;
  std::vector<FoldedParameter> folded_;
  bool folds_geometry_ = false;
  /// A variant that launches asked for: ready, or compiling in the background (the compile's
  /// task shares it, so that it outlives the table's entry, the kernel and the program), or
  /// failed (launches with its values then run the kernel itself).
  struct VariantSlot {
    enum State : int { compiling, ready, failed };
    std::atomic<int> state{compiling};
    std::shared_ptr<KernelImpl> kernel;  // written once, before state becomes ready (release)
    std::promise<void> done;             // set when state leaves compiling
    std::shared_future<void> finished = done.get_future().share();
  };
  /// Compiles (or loads) the variant of `kernel` for `values` and the geometry into `to`, which
  /// then holds it, or the failure (logged); on the launching thread or the background queue.
  static void compile_into(const std::shared_ptr<KernelImpl>& kernel, VariantSlot& to,
                           std::span<const Constant> values, std::optional<Dim3> block,
                           std::optional<Dim3> grid);
  /// The variants launches asked for, most recent first, each with its folded values' bits; at
  /// most the program's max_variants of them.
  struct LaunchVariant {
    std::vector<std::uint64_t> bits;
    std::shared_ptr<VariantSlot> slot;
  };
  mutable std::mutex launch_variants_mutex_;
  mutable std::list<LaunchVariant> launch_variants_;
};

/// Checks launch arguments against `kernel`'s parameters (LaunchError naming the argument) and
/// points values[i] at the bytes of argument i.
void check_arguments(const KernelImpl& kernel, const KernelArg* args, std::size_t count,
                     const void** values);

class ProgramImpl : public std::enable_shared_from_this<ProgramImpl> {
 public:
  ProgramImpl(std::string name, backend::InputKind input, std::string source,
              std::optional<std::filesystem::path> path, CompileOptions options);
  ~ProgramImpl();
  ProgramImpl(const ProgramImpl&) = delete;
  ProgramImpl& operator=(const ProgramImpl&) = delete;

  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] std::size_t max_variants() const noexcept { return options_.max_variants; }
  [[nodiscard]] bool launch_waits_for_variants() const noexcept {
    return options_.launch_waits_for_variants;
  }
  /// The kernel `name` for `device`, its parameters checked against `param_sizes`.
  /// `spellings` gives the parameter types as C++ text, for resolving a plain name by type.
  std::shared_ptr<KernelImpl> kernel(std::string_view name_text, DeviceImpl& device,
                                     std::span<const std::size_t> param_sizes,
                                     ParameterSpellings spellings);
  /// Builds the declared kernels (options.kernels) for `device`; UsageError when there are none.
  void build_declared(DeviceImpl& device);
  /// A variant of `kernel` with `more` constants (positions among its parameters) and, when
  /// set, a fixed `block` (program_variants.cpp): compiled once per device and values, kept in
  /// memory up to options.max_variants per kernel.
  std::shared_ptr<KernelImpl> variant(const std::shared_ptr<KernelImpl>& kernel,
                                      std::span<const Constant> more, std::optional<Dim3> block,
                                      std::optional<Dim3> grid = std::nullopt,
                                      std::span<const ArrayConstant> arrays = {});

  /// Program::symbol's work (program_variables.cpp). The size of variable `name` on `device`,
  /// building the declared kernels when the device has no build; UsageError for an unknown name.
  std::size_t variable_size(std::string_view name, DeviceImpl& device);
  /// Copies into variable `name` in every build on `device` (see RawSymbol::write), and records
  /// the bytes for builds made later.
  void write_variable(std::string_view name, DeviceImpl& device, std::size_t offset,
                      const void* src, std::size_t bytes, const Stream* stream);
  void read_variable(std::string_view name, DeviceImpl& device, std::size_t offset, void* dst,
                     std::size_t bytes, const Stream* stream);
  /// Where variable `name` lives on `device`: its one build's copy (UsageError for several).
  backend::Variable variable_place(std::string_view name, DeviceImpl& device);

 private:
  struct Build {
    std::vector<KernelKey> kernels;
    std::shared_future<std::shared_ptr<LoadedBuild>> result;
  };
  /// The build among `builds` that has `key`, or nullptr; call with mutex_ held.
  static const Build* containing(const std::vector<Build>& builds, const KernelKey& key);
  /// The build that has `key`, compiling one (once, whoever asks) when none has it.
  std::shared_ptr<LoadedBuild> build_containing(const KernelKey& key, DeviceImpl& device);
  /// A finished or running build that has `key`, if any.
  std::optional<std::shared_future<std::shared_ptr<LoadedBuild>>> find_build(const KernelKey& key,
                                                                             DeviceImpl& device);
  /// `label` names the build in the log; empty: its kernels do.
  std::shared_ptr<LoadedBuild> compile_and_load(std::vector<KernelKey> kernels, DeviceImpl& device,
                                                const std::string& source,
                                                std::string_view label = {}) const;
  /// The build of variant `spec` of kernel `key` on `device`, from the table or compiled;
  /// `max_threads`: the kernel's own limit on a block's threads, if it has one.
  std::shared_ptr<LoadedBuild> variant_build(const KernelKey& key, const Specialization& spec,
                                             std::size_t count, DeviceImpl& device,
                                             std::optional<std::size_t> max_threads);
  /// The annotations of the program's text (as it is now), read once per text; nullptr for
  /// bitcode.
  std::shared_ptr<const source::JitAnnotations> annotations();
  /// CompileError, at the annotation, when kernel `kernel`'s annotation cannot be honoured.
  void check_annotation(std::string_view kernel, const DeviceImpl& device,
                        const source::JitAnnotations& all) const;
  /// Makes `kernel` fold the parameters its annotation in `all` (nullptr: none) and
  /// CompileOptions::specialize_arguments name (CompileError, resp. UsageError, where the host's
  /// types cannot be folded); `spellings` give the parameters' host types.
  void fold_annotated(KernelImpl& kernel, const source::JitAnnotations* all,
                      std::span<const std::size_t> param_sizes, ParameterSpellings spellings) const;
  /// CompileOptions::specialize_arguments' entry for kernel `kernel` (as asked for or as
  /// declared), or nullptr.
  [[nodiscard]] const std::vector<std::size_t>* specialized_arguments(
      std::string_view kernel) const;
  /// An error about kernel `kernel`'s annotation, at line:column of `file` (empty: the
  /// program's text).
  [[nodiscard]] Diagnostic annotation_diagnostic(std::string_view kernel, std::string_view file,
                                                 unsigned line, unsigned column,
                                                 std::string_view message) const;
  /// The texts of the headers `source` includes (from disk, or given in memory), each with the
  /// name messages give it; none when its includes cannot be followed.
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> included_texts(
      const std::string& source) const;
  /// What the backend is asked to compile: `kernels` of `source` with this program's options.
  [[nodiscard]] backend::CompileRequest request_for(const std::vector<KernelKey>& kernels,
                                                    const std::string& source) const;

  /// Hot reload (program_reload.cpp). When a watched file changed: recompiles the kernels built
  /// on `device` from the files' new text and, when that succeeds, makes it the program's text
  /// (other devices' builds are dropped, to be made again); reports either outcome.
  void reload_if_changed(DeviceImpl& device);
  /// reload_if_changed's work, with reload_mutex_ held: the failure, or null.
  std::exception_ptr reload(DeviceImpl& device);
  /// Watches the main file and the headers `source` includes from disk.
  void watch_files(const std::string& source);
  /// Gives a new build the variable writes made so far, then lets later writes reach it (a
  /// variant's build while it lives: the program does not keep it).
  void adopt(const std::shared_ptr<LoadedBuild>& build, DeviceImpl& device, bool variant = false);

  /// Bytes written into a variable, replayed into builds made after the write.
  struct VariableWrite {
    std::string name;
    std::size_t offset;
    std::vector<unsigned char> bytes;
  };
  /// Variable `name` in each build of `device` that holds it; call with variables_mutex_ held.
  /// UsageError, listing the variables there are, when none has it.
  std::vector<backend::Variable> holders(std::string_view name, DeviceImpl& device);
  /// Makes sure `device` has a build (the declared kernels'); call without variables_mutex_.
  void ensure_built(DeviceImpl& device);
  /// The backend stream of `stream` (the default one for nullptr); UsageError when it belongs to
  /// another device than variable `name`'s.
  backend::Stream* stream_for(std::string_view name, DeviceImpl& device, const Stream* stream,
                              const char* what) const;
  /// Checks [offset, offset + bytes) against a variable of `size` bytes.
  void check_variable_range(std::string_view name, std::size_t size, std::size_t offset,
                            std::size_t bytes, const char* what) const;

  std::string name_;
  backend::InputKind input_;
  std::shared_ptr<const std::string> source_;  // text, or the bitcode's bytes; read under mutex_
  std::optional<std::filesystem::path> path_;
  CompileOptions options_;
  std::mutex mutex_;
  std::map<const DeviceImpl*, std::vector<Build>> builds_;
  /// A variant's build, by Specialization::key().
  struct Variant {
    std::string key;
    std::shared_future<std::shared_ptr<LoadedBuild>> result;
  };
  /// Per device and kernel (KernelKey::describe()): its variants, most recently asked for first.
  std::map<const DeviceImpl*, std::map<std::string, std::list<Variant>, std::less<>>> variants_;

  std::mutex variables_mutex_;  // never held together with mutex_
  std::map<const DeviceImpl*, std::vector<std::shared_ptr<LoadedBuild>>> loaded_;
  std::map<const DeviceImpl*, std::vector<VariableWrite>> written_;
  std::map<const DeviceImpl*, std::vector<std::weak_ptr<LoadedBuild>>> loaded_variants_;

  /// The annotations of the text annotated_text_ (one text at a time) and of the headers it
  /// includes, the texts of those that hold `__global__` kept for the variants (where a kernel
  /// they call may be declared), and the program's defines with the macros those headers define
  /// (for the conditionals around a kernel's declaration); guarded by mutex_.
  std::shared_ptr<const std::string> annotated_text_;
  std::shared_ptr<const source::JitAnnotations> annotations_;
  std::shared_ptr<const std::vector<std::string>> header_texts_;
  std::shared_ptr<const std::map<std::string, std::string, std::less<>>> header_defines_;

  std::unique_ptr<FileWatch> watch_;  // set when the program reloads on changes
  std::mutex reload_mutex_;           // one reload at a time; taken before mutex_
};

}  // namespace kjit::detail
