// kjit::Program: kernel source compiled on demand for each device that asks for its kernels.
#pragma once

#include <kjit/detail/type_spelling.hpp>
#include <kjit/device.hpp>
#include <kjit/export.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kjit {

namespace detail {
class ProgramImpl;
class KernelImpl;
}  // namespace detail
template <class... Params>
class Kernel;
template <class T>
class Symbol;
class Error;

/// How a program is compiled. The same options apply on every backend.
struct CompileOptions {
  /// Directories searched for `#include "..."` after the including file's own directory.
  std::vector<std::filesystem::path> include_dirs{};
  /// In-memory headers: include name -> text, found before include_dirs.
  std::map<std::string, std::string, std::less<>> headers{};
  /// Preprocessor definitions: NAME -> value; an empty value defines NAME as 1.
  std::map<std::string, std::string, std::less<>> defines{};
  /// Kernel names (or template instantiations such as "saxpy<float>") to compile together the
  /// first time any kernel of the program is asked for on a device; saves one compile per name.
  std::vector<std::string> kernels{};
  /// Allow floating-point reassociation and approximate math, and flush denormals to zero (like
  /// nvcc --use_fast_math), on every backend: on the CPU the kernel's threads run with FTZ and
  /// DAZ set (x86), the calling thread's own mode untouched.
  bool fast_math = false;
  /// Compile for a debugger (also KJIT_DEBUG=1, for every program from source): on the CPU,
  /// debug information at the program's lines, no optimisation, threads of barrier kernels on
  /// fibers, and kernels registered with gdb (docs/guide.md, "Debug a kernel on the CPU"); on CUDA,
  /// NVRTC's -G for cuda-gdb; on HIP, hipRTC's -g. Kernels run several times slower. Part of
  /// the cache key. Bitcode programs cannot take it.
  bool debug = false;
  /// Recompile when the kernel file, or a header it includes from disk, changes (also
  /// KJIT_HOT_RELOAD=1, for every Program::from_file program): the next kernel() call compiles
  /// the new text and returns a kernel of it, on the device it asks for (other devices follow at
  /// their next kernel() call). Kernel handles taken earlier keep running the old code. A change
  /// that does not compile keeps the previous kernels and is reported to the log and to
  /// on_reload. Only programs from files can be watched (UsageError otherwise).
  bool watch = false;
  /// Called after each reload of a watched program, on the thread whose kernel() call reloaded:
  /// with nullptr when the new text compiled, else with the error (the previous kernels stay).
  std::function<void(const Error* failure)> on_reload{};
  /// How many specialised variants (Kernel::specialize) of one kernel stay in memory per device;
  /// asking for more forgets the least recently asked-for one (logged as a warning), which the
  /// disk cache then loads again when asked for. At least 1.
  std::size_t max_variants = 16;
  /// For kernels annotated with annotate("jit", ...): whether the first launch with new values
  /// waits for their variant (compiled, or loaded from the disk cache) and throws its compile
  /// error. By default (false) that launch, and those after it until the variant is ready, run
  /// the kernel itself while the variant compiles in the background; a variant that fails to
  /// compile is logged once and its values keep running the kernel itself (docs/guide.md).
  bool launch_waits_for_variants = false;
  /// Kernels to specialise at each launch on some of their arguments, as annotate("jit", ...)
  /// does, without editing their file: a kernel's name (as declared, "step", or as asked for,
  /// "ns::step<float>") -> 0-based parameter indices, those of Kernel::specialize (annotate's
  /// positions are 1-based). Adds to the kernel's own annotation. Not for bitcode programs.
  std::map<std::string, std::vector<std::size_t>, std::less<>> specialize_arguments{};
  /// For kernels specialised at launch (annotated, or named in specialize_arguments): whether the
  /// launch's block and grid are folded into the variant too, as Proteus does: blockDim and
  /// gridDim become constants, and the block's size becomes launch bounds where the backend gains
  /// from them. A launch with another geometry then runs another variant.
  bool fold_launch_geometry = true;
};

/// Kernel source with its options. Compiles lazily: the first kernel() for a device compiles
/// (once, however many threads ask), later calls reuse the binary. Cheap to copy; copies share
/// their compiled binaries. Safe to use from several threads.
class KJIT_API Program {
 public:
  Program() noexcept = default;

  /// A program from text. `name` is used in messages and diagnostics, like a file name; quoted
  /// includes are looked up in options.headers, then options.include_dirs.
  [[nodiscard]] static Program from_source(std::string name, std::string source,
                                           CompileOptions options = {});
  /// A program from a file; quoted includes resolve relative to the including file first.
  /// Throws Error if the file cannot be read.
  [[nodiscard]] static Program from_file(const std::filesystem::path& path,
                                         CompileOptions options = {});
  /// A program that kjit_add_kernels() embedded into this binary, by its name (the file's path
  /// relative to BASE_DIR, such as "saxpy.cu"). The headers embedded with it (by the same
  /// kjit_add_kernels() call) are in options.headers under their names too, unless options names
  /// them already. Reads no file; binaries precompiled with it load from the binary itself. Throws
  /// UsageError when no such program is embedded; the message lists those that are.
  [[nodiscard]] static Program from_embedded(const std::string& name, CompileOptions options = {});
  /// A program from LLVM bitcode that clang (or another LLVM 19 front end) made for one target:
  ///  - x86_64 host bitcode runs on the CPU backend; it must be compiled with kjit's CPU kernel
  ///    header, whose __global__ marks the kernels (docs/bitcode.md has the recipe);
  ///  - nvptx64-nvidia-cuda bitcode runs on CUDA devices (LLVM makes PTX, the driver loads it);
  ///    kernels are the functions its nvvm.annotations mark;
  ///  - amdgcn-amd-amdhsa bitcode runs on HIP devices (LLVM and lld make the code object);
  ///    kernels are the amdgpu_kernel functions.
  /// A kernel is asked for by its symbol or by its demangled name ("vadd", "saxpy<float>").
  /// Only options.kernels and options.fast_math apply. Throws UsageError when `bytes` are not
  /// bitcode; a bitcode for another target than the device's is a CompileError when the kernel
  /// is asked for.
  [[nodiscard]] static Program from_bitcode(std::string name, std::span<const std::uint8_t> bytes,
                                            CompileOptions options = {});
  /// A program from a bitcode file (see from_bitcode). Throws Error if the file cannot be read.
  [[nodiscard]] static Program from_bitcode_file(const std::filesystem::path& path,
                                                 CompileOptions options = {});

  /// The __global__ function `name` (or a template instantiation "saxpy<float>") compiled for
  /// `device`, typed with its parameter list. Compiles on first use. A plain name that is a
  /// template or an overload set is resolved by Params, as a C++ call would (when Params are
  /// built-in types and pointers to them). Throws CompileError, KernelNotFoundError, or
  /// LaunchError when Params does not match the kernel's real parameters.
  template <class... Params>
  [[nodiscard]] Kernel<Params...> kernel(std::string_view name, const Device& device) const;

  [[nodiscard]] const std::string& name() const;

  /// The namespace-scope __constant__ or __device__ variable `name` ("c_Kernel", "ns::table")
  /// of this program on `device`, typed T as the source declares it (`float[64]`): read and
  /// write it from the host (symbol.hpp). Builds the declared kernels (options.kernels) when
  /// `device` has no build of the program yet. Throws UsageError when the program has no such
  /// variable (listing those it has) or when it is not sizeof(T) bytes, UsageError when the
  /// device has no build and none is declared, and what build() throws.
  template <class T>
  [[nodiscard]] Symbol<T> symbol(std::string_view name, const Device& device) const;

  /// Compiles (or loads from the disk cache) the kernels options.kernels declares, for `device`,
  /// now instead of at the first kernel() call; later kernel() calls for them compile nothing.
  /// Throws UsageError when the program declares no kernels, and what kernel() would throw
  /// (CompileError, KernelNotFoundError) when the build fails.
  void build(const Device& device) const;

  explicit Program(std::shared_ptr<detail::ProgramImpl> impl) noexcept : impl_(std::move(impl)) {}

 private:
  [[nodiscard]] detail::ProgramImpl& checked() const;  // UsageError for an empty Program
  [[nodiscard]] std::shared_ptr<detail::ProgramImpl> shared_impl() const;  // checked()
  [[nodiscard]] std::shared_ptr<detail::KernelImpl> find_kernel(
      std::string_view name, const Device& device, std::span<const std::size_t> param_sizes,
      detail::ParameterSpellings spellings) const;
  std::shared_ptr<detail::ProgramImpl> impl_;
};

/// Program::build for every program, several at once (on all cores): what a program that
/// registers many kernels calls at startup. Returns when all are done. When some fail, the
/// others still build; the first failure, in the order of `programs`, is thrown, and the rest
/// are logged as errors.
KJIT_API void build_all(std::span<const Program> programs, const Device& device);

}  // namespace kjit

#include <kjit/kernel.hpp>  // Program::kernel is defined there
#include <kjit/symbol.hpp>  // Program::symbol is defined there
