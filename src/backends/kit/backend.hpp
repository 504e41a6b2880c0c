// The one interface every backend (cpu, cuda, hip) implements. The core (src/jit) talks to
// devices only through these classes and never includes a vendor header.
//
// Shape: a Backend enumerates devices cheaply and opens them; a Device compiles source to a
// Binary, loads a Binary as a Module, owns memory and streams; a Module yields Functions;
// a Function launches on a Stream. Checks every backend needs (launch geometry against the
// device's limits) live once here, in non-virtual methods that call a virtual *_impl hook.
#pragma once

#include "source/include_scan.hpp"

#include <kjit/types.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kjit::backend {

/// What a program is made of.
enum class InputKind {
  source,   // CUDA-dialect C++ text
  bitcode,  // LLVM bitcode for one target (host, nvptx64 or amdgcn): no preprocessor, no includes
};

/// Everything a backend needs to compile one program.
struct CompileRequest {
  std::string program_name;  // the name messages use ("saxpy.cu")
  InputKind input = InputKind::source;
  std::string source;  // text of the main file, or the bitcode's bytes
  /// Absolute path of the main file when it came from disk (relative includes resolve there).
  std::optional<std::filesystem::path> source_path;
  std::vector<std::filesystem::path> include_dirs;
  std::vector<std::pair<std::string, std::string>> headers;  // in-memory: include name -> text
  std::vector<std::pair<std::string, std::string>> defines;  // NAME -> value ("" means 1)
  std::vector<std::string> kernel_names;  // name expressions, already validated by the core
  /// Per kernel name, when set: its parameter types ("float, const float*"), to instantiate a
  /// template or pick an overload that the name alone does not resolve.
  std::vector<std::optional<std::string>> kernel_signatures;
  bool fast_math = false;
  bool debug = false;         // CompileOptions::debug, or KJIT_DEBUG for a program from source
  bool check_memory = false;  // KJIT_CHECK set: CPU kernels check their accesses

  /// Kernel i's parameter types, if it has them.
  [[nodiscard]] const std::optional<std::string>& signature(std::size_t i) const;
  /// "saxpy" or "saxpy(float, const float*)": kernel i as messages and cache keys name it.
  [[nodiscard]] std::string kernel_label(std::size_t i) const;
  /// A C++ expression for kernel i's address: "&saxpy<float>", or a cast to its function type
  /// ("static_cast<void (*)(float, const float*)>(&saxpy)") that picks an instantiation or
  /// overload, as a call would.
  [[nodiscard]] std::string kernel_address(std::size_t i) const;
  /// The program's files, as the include scan follows them.
  [[nodiscard]] source::ProgramFiles files() const {
    return {program_name, source, source_path, include_dirs, headers};
  }
};

/// A C++ expression for the address of kernel `name` ("&saxpy<float>"), cast to its function type
/// when `signature` gives its parameter types, to pick an instantiation or overload.
[[nodiscard]] std::string kernel_address(const std::string& name,
                                         const std::optional<std::string>& signature);

/// A compiled program, as it would be stored in the disk cache.
struct Binary {
  std::string program;  // the program's name, for messages
  std::string format;   // "cpu-elf-object", "cubin", "ptx", "hsaco"
  std::vector<std::uint8_t> bytes;
  std::vector<std::string> kernel_symbols;  // one per CompileRequest::kernel_names, same order
  std::string log;                          // the compiler's warnings, if any
};

/// Everything about a compiler, besides the request, that changes the bytes it produces: the
/// target half of a disk cache key.
struct TargetIdentity {
  std::string target;  // as kjit-warm's --target spells it: "cpu", "cuda:sm_90"
  /// Ordered facts: ("nvrtc", "13.0 libnvrtc.so.13.0.88"), ("cpu", "znver4"), ...
  std::vector<std::pair<std::string, std::string>> facts;
  /// Not in the key: files (the compiler's library) whose stamps must not have changed for an
  /// identity remembered under Compiler::identity_probe() to still hold.
  std::vector<std::filesystem::path> files{};
};

/// Source to Binary for one target. Needs no device, so that kjit-warm can fill a cache for
/// hardware it does not have. Thread-safe.
class Compiler {
 public:
  Compiler() = default;
  Compiler(const Compiler&) = delete;
  Compiler& operator=(const Compiler&) = delete;
  virtual ~Compiler();
  /// May load the compiler's libraries; throws BackendError when they cannot be used.
  virtual TargetIdentity identity() = 0;
  /// For a compiler whose identity() loads a large library: a text, made without loading
  /// anything, that changes whenever identity() could (given unchanged `files`). The disk cache
  /// remembers identity() under it, so that a start that finds every program cached never loads
  /// the compiler. nullopt (the default): identity() is cheap, or there is no such text.
  virtual std::optional<std::string> identity_probe() { return std::nullopt; }
  /// The targets (kjit-warm's names) whose binaries this compiler's device loads, known without
  /// loading the compiler: what a binary precompiled into the program may be built for when the
  /// compiler cannot be loaded (kjit_add_kernels' PRECOMPILE). Empty (the default): none.
  virtual std::vector<std::string> loadable_targets() { return {}; }
  /// Throws CompileError / KernelNotFoundError.
  virtual Binary compile(const CompileRequest& request) = 0;
  /// The library this compiler runs in process when it compiles one program at a time there,
  /// however many threads call it ("nvrtc"); nullptr (the default) when compiles on several
  /// threads run at once. Concurrent compiles of a named library run in forked processes
  /// (core/forked_compiles.hpp), which then share none of its locks.
  virtual const char* serial_library() const { return nullptr; }
};

/// Where one kernel parameter lives in the kernel's argument block.
struct ParamInfo {
  std::size_t offset = 0;
  std::size_t size = 0;
};

class Event {
 public:
  Event() = default;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  virtual ~Event();
  virtual void synchronize() = 0;
  virtual bool ready() = 0;
  /// Milliseconds from `start` to this event; both must have completed.
  virtual double elapsed_ms_since(Event& start) = 0;
};

class Stream;
class Function;

/// Work recorded from a stream (Stream::begin_recording), replayed as one unit.
class Graph {
 public:
  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  virtual ~Graph();
  /// Enqueues the recorded work on `stream`, a stream of the same device; replays of one graph
  /// run one after another.
  virtual void launch(Stream& stream) = 0;
  /// The operations recorded (kernel launches and copies).
  [[nodiscard]] virtual std::size_t size() const = 0;
  /// Gives recorded kernel launch `launch` (0-based, counting launches only, in the order they
  /// were enqueued) new arguments: args[i] points to the bytes of parameter i of `function`, the
  /// kernel that launch runs (the caller checks). Replays enqueued from now on pass them; those
  /// enqueued before keep what they had.
  virtual void set_arguments(std::size_t launch, const Function& function,
                             const void* const* args) = 0;
};

/// An in-order queue. Copies are asynchronous: host memory must stay valid until synchronize().
class Stream {
 public:
  Stream() = default;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  virtual ~Stream();
  virtual void copy_to_device(std::uint64_t dst, const void* src, std::size_t bytes) = 0;
  virtual void copy_to_host(void* dst, std::uint64_t src, std::size_t bytes) = 0;
  virtual void copy_on_device(std::uint64_t dst, std::uint64_t src, std::size_t bytes) = 0;
  /// Copies that return when the data has arrived (after the stream's earlier work). A backend
  /// may stage large ones through pinned memory; by default: the copy above, then synchronize().
  virtual void copy_to_device_now(std::uint64_t dst, const void* src, std::size_t bytes);
  virtual void copy_to_host_now(void* dst, std::uint64_t src, std::size_t bytes);
  virtual std::unique_ptr<Event> record() = 0;
  virtual void wait(Event& event) = 0;
  /// Waits for the queue; throws the first error its work hit (then forgets it).
  virtual void synchronize() = 0;
  virtual void* native_handle() = 0;
  /// From now on, launches and copies enqueued here are recorded instead of run, until
  /// end_recording() returns them as a graph (which the caller drops to abandon them). The core
  /// keeps synchronising and host copies away from a recording stream. record() on a recording
  /// stream (or one that joined) gives an event that marks a point of the recording; wait()
  /// there gets only such events of the same recording, and orders the recorded work.
  virtual void begin_recording() = 0;
  /// Ends the recording; the core has checked that every stream that joined it was joined back
  /// (the recording stream waited for an event recorded on it after its last work).
  virtual std::unique_ptr<Graph> end_recording() = 0;
  /// Makes this stream (not recording, of the same device) wait for `event`, recorded on a stream
  /// of `origin`'s recording, and record what it is given from now on into that recording, as
  /// work that follows the event (CUDA's fork of a stream capture).
  virtual void join_recording(Stream& origin, Event& event) = 0;
  /// After the recording this stream joined ended (or was dropped): it runs what it is given
  /// again.
  virtual void leave_recording() = 0;
};

/// Why blocks of `block` threads cannot run on `device` ("block (0, 1, 1) has a zero dimension",
/// or that it exceeds the device's limits), or nullopt when they can.
[[nodiscard]] std::optional<std::string> block_problem(const DeviceInfo& device, const Dim3& block);

/// A kernel in a loaded module.
class Function {
 public:
  Function(std::string name, const DeviceInfo& device, std::vector<ParamInfo> params,
           std::size_t static_shared_bytes);
  Function(const Function&) = delete;
  Function& operator=(const Function&) = delete;
  virtual ~Function();

  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] const std::vector<ParamInfo>& params() const noexcept { return params_; }
  [[nodiscard]] std::size_t static_shared_bytes() const noexcept { return static_shared_bytes_; }
  /// The most threads a block of this kernel may have as it was compiled (its __launch_bounds__,
  /// or on CUDA the registers it uses), where the backend knows it and it is below the device's
  /// limit; nullopt otherwise.
  [[nodiscard]] std::optional<std::size_t> max_block_threads() const noexcept {
    return max_block_threads_;
  }
  /// Why blocks of `block` threads cannot run this kernel (the device's limits, then its own), or
  /// nullopt.
  [[nodiscard]] std::optional<std::string> block_problem(const Dim3& block) const;
  /// Lowers the kernel's own limit to `threads` (at or above the device's limit, or 0: no
  /// change). Backends set what the code says at load; a variant takes its kernel's.
  void limit_block_threads(std::size_t threads);

  /// Checks the geometry against the device's limits (LaunchError), then enqueues.
  /// args[i] points to the bytes of parameter i (params()[i].size of them).
  void launch(Stream& stream, const LaunchConfig& config, const void* const* args);

 protected:
  virtual void launch_impl(Stream& stream, const LaunchConfig& config, const void* const* args) = 0;

 private:
  void check_geometry(const LaunchConfig& config) const;
  std::string name_;
  const DeviceInfo& device_;
  std::vector<ParamInfo> params_;
  std::size_t static_shared_bytes_;
  std::optional<std::size_t> max_block_threads_;
};

/// A namespace-scope __device__ or __constant__ variable of a loaded module, where it lives.
struct Variable {
  std::string name;  // as the source spells it: "c_Kernel", "ns::table"
  std::uint64_t address = 0;
  std::size_t size = 0;
};

class Module {
 public:
  Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  virtual ~Module();
  /// The kernel at `symbol` (from Binary::kernel_symbols); `name` is what messages call it.
  virtual std::unique_ptr<Function> function(const std::string& symbol,
                                             const std::string& name) = 0;
  /// The module's device variables, in the order of its binary; the same list every call.
  /// Throws BackendError when the device cannot say where one is.
  virtual std::vector<Variable> variables() = 0;
};

class Device {
 public:
  Device() = default;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  virtual ~Device();

  [[nodiscard]] virtual const DeviceInfo& info() const = 0;
  /// The compiler for this device's exact target.
  virtual Compiler& compiler() = 0;
  /// The compiler of LLVM bitcode for this device's exact target (LLVM's own code generator).
  /// BackendError when kjit was built without LLVM.
  virtual Compiler& bitcode_compiler() = 0;
  /// compiler() or bitcode_compiler(), as `request` needs.
  Compiler& compiler_for(const CompileRequest& request);
  /// Loads a binary made by compiler() (or read from a cache) for this device. Throws
  /// BackendError when the binary cannot be loaded.
  virtual std::unique_ptr<Module> load(const Binary& binary) = 0;

  /// Device memory; 0 bytes gives address 0 without allocating.
  std::uint64_t allocate(std::size_t bytes);
  /// Frees an address from allocate(); 0 is ignored. Never throws.
  void free(std::uint64_t address) noexcept;
  /// Host memory the device copies to and from at full speed (page-locked on a GPU); 0 bytes
  /// gives nullptr. Throws BackendError when none can be had.
  void* allocate_host(std::size_t bytes);
  void free_host(void* pointer) noexcept;
  /// Managed memory: one address that the host and this device's kernels both use (the memory
  /// moves on demand where the hardware pages it). Freed with free(); 0 bytes gives 0. Throws
  /// BackendError when the device has none.
  std::uint64_t allocate_managed(std::size_t bytes);
  /// Moves managed memory to the device or to the host ahead of use, ordered on `stream`; a
  /// backend whose managed memory never moves does nothing.
  virtual void prefetch_managed(std::uint64_t address, std::size_t bytes, ManagedPlace to,
                                Stream& stream) = 0;
  /// Tells the driver how managed memory will be used; nothing where there is no such hint.
  virtual void advise_managed(std::uint64_t address, std::size_t bytes, ManagedAdvice advice) = 0;

  virtual std::unique_ptr<Stream> create_stream() = 0;
  /// Why the device can run nothing more (a kernel faulted on the CPU), or empty.
  [[nodiscard]] virtual std::string unusable_reason() const { return {}; }
  /// Waits for every stream of the device; throws the first error their work hit.
  virtual void synchronize() = 0;
  virtual void* native_handle() = 0;

 protected:
  virtual std::uint64_t allocate_impl(std::size_t bytes) = 0;
  virtual void free_impl(std::uint64_t address) noexcept = 0;
  virtual void* allocate_host_impl(std::size_t bytes) = 0;
  virtual void free_host_impl(void* pointer) noexcept = 0;
  virtual std::uint64_t allocate_managed_impl(std::size_t bytes) = 0;
};

class Backend {
 public:
  Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  virtual ~Backend();

  [[nodiscard]] virtual BackendKind kind() const = 0;
  /// The devices this backend can open. Cheap. A backend whose libraries or driver are missing
  /// returns none and says why in unavailable_reason(); only a malformed setting (ConfigError)
  /// makes it throw.
  virtual std::vector<DeviceInfo> enumerate() = 0;
  [[nodiscard]] virtual std::string unavailable_reason() const = 0;
  /// Opens device `ordinal` (one of enumerate()'s); throws DeviceError.
  virtual std::unique_ptr<Device> open(int ordinal) = 0;
  /// A compiler for `arch` ("sm_90"; "" for the CPU, which compiles for this host) that needs
  /// no device. ConfigError for an arch the backend does not know, BackendError when its
  /// compiler cannot be loaded.
  virtual std::unique_ptr<Compiler> offline_compiler(const std::string& arch) = 0;
  /// The same for LLVM bitcode (LLVM's code generator instead of the vendor's compiler).
  virtual std::unique_ptr<Compiler> offline_bitcode_compiler(const std::string& arch) = 0;
};

}  // namespace kjit::backend
