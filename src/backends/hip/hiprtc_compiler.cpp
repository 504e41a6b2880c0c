#include "backends/hip/hiprtc_compiler.hpp"

#include "backends/gpu/gpu_rtc_program.hpp"
#include "backends/hip/clang_log.hpp"
#include "backends/hip/code_object.hpp"
#include "backends/hip/hiprtc_api.hpp"
#include "backends/kit/compile_failure.hpp"
#include "backends/kit/program_sources.hpp"
#include "source/kernel_headers.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>

extern const char kjit_hip_prelude_text[];  // prelude/hip_prelude.h, embedded at build time

namespace kjit::hip {

namespace {

// Each kernel name becomes a device variable after the source, holding the kernel's address:
//   extern "C" __device__ const void* __kjit_kernel_<i> = (const void*)(<expression>);
// The code object's relocations then say which function each one holds (hipRTC's own name
// expressions cannot lower a cast that picks an overload or instantiation). A #line directive
// puts them in a file of their own, one per line, so that an error there names its kernel.
constexpr const char* kNamesFile = "kjit-kernel-names";
constexpr const char* kNameVariable = "__kjit_kernel_";

/// ROCm 5's hipRTC and comgr are not known to be safe to call from several threads at once.
std::mutex& hiprtc_mutex() {
  static std::mutex m;
  return m;
}

std::string quoted_for_line(const std::string& name) {
  std::string out;
  for (const char c : name) {
    if (c == '"' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  return out;
}

/// The program as hipRTC sees it: the prelude, the user's text under its own name, then the
/// kernel-name variables.
std::string program_text(const backend::CompileRequest& request,
                         const backend::ProgramSources& sources) {
  // Functions without __host__/__device__ are compiled for the device as well, as NVRTC's
  // --device-as-default-execution-space does on CUDA (Clang's pragma, in its HIP mode).
  std::string text = fmt::format(
      "{}\n#pragma clang force_cuda_host_device begin\n#line 1 \"{}\"\n{}\n"
      "#pragma clang force_cuda_host_device end\n#line 1 \"{}\"\n",
      kjit_hip_prelude_text, quoted_for_line(request.program_name), sources.main(), kNamesFile);
  for (std::size_t i = 0; i < request.kernel_names.size(); ++i) {
    text += fmt::format("extern \"C\" __device__ const void* {}{} = (const void*)({});\n",
                        kNameVariable, i, request.kernel_address(i));
  }
  return text;
}

using Program = gpu::RtcProgram<HiprtcApi, hiprtcProgram, &HiprtcApi::hiprtcDestroyProgram,
                                &HiprtcApi::hiprtcGetProgramLogSize,
                                &HiprtcApi::hiprtcGetProgramLog, HIPRTC_SUCCESS>;

[[noreturn]] void fail(const HiprtcApi& api, const char* call, hiprtcResult r,
                       const std::string& context) {
  throw BackendError(
      fmt::format("kjit: {} failed ({}): {} ({})", call, context, api.hiprtcGetErrorString(r), r));
}

std::vector<backend::LocatedDiagnostic> locate(const std::vector<ClangDiagnostic>& parsed,
                                               const backend::CompileRequest& request,
                                               const backend::ProgramSources& named) {
  std::vector<backend::LocatedDiagnostic> out;
  for (const ClangDiagnostic& p : parsed) {
    backend::LocatedDiagnostic d;
    d.diagnostic = {p.file, p.line, p.column, p.severity, p.message};
    if (p.file == kNamesFile) {
      if (p.line >= 1 && p.line <= request.kernel_names.size()) {
        d.kernel = p.line - 1;  // one line per kernel name
      }
    } else if (const std::optional<std::string> kjit =
                   source::kernel_header_display(p.file, request.headers)) {
      d.diagnostic.file = *kjit;  // one of kjit's headers, not the user's
    } else if (const std::optional<std::filesystem::path> path = named.disk_path(p.file)) {
      d.diagnostic.file = path->string();  // a header from disk, not hipRTC's copy of it
      d.in_user_file = true;
    } else {
      d.in_user_file = !p.file.empty();
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<std::string> options_for(const backend::CompileRequest& request,
                                     const AmdgpuTarget& target) {
  // `register` and narrowing in braces as nvcc takes them (older kernel files use both).
  std::vector<std::string> options = {"--offload-arch=" + target.id(), "-std=c++20",
                                      request.debug ? "-O0" : "-O3", "-Wno-register",
                                      "-Wno-c++11-narrowing"};
  if (request.debug) {
    options.emplace_back("-g");  // debug information for rocgdb
  }
  if (request.fast_math) {
    options.emplace_back("-ffast-math");
    options.emplace_back("-fgpu-flush-denormals-to-zero");  // as CUDA's fast math and the CPU's
  }
  // hipRTC compiles a copy of the text in a temporary folder: a relative #include in the main
  // file is found through its own folder, searched first.
  if (request.source_path) {
    options.push_back("-I" + request.source_path->parent_path().string());
  }
  gpu::add_includes_and_defines(options, request);
  return options;
}

/// Whether the program or an in-memory header of it names cooperative groups.
bool mentions_cooperative_groups(const backend::CompileRequest& request) {
  const auto mentions = [](const std::string& source) {
    return source.find("cooperative_groups") != std::string::npos;
  };
  return mentions(request.source) || std::any_of(request.headers.begin(), request.headers.end(),
                                                 [&](const auto& h) { return mentions(h.second); });
}

/// The symbol of each kernel the request names, in its order, from the code object; a
/// KernelNotFoundError naming those that are no kernel.
std::vector<std::string> kernel_symbols(const CodeObject& code,
                                        const backend::CompileRequest& request,
                                        const std::string& label) {
  std::vector<std::string> symbols;
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < request.kernel_names.size(); ++i) {
    // A __device__ function compiles too, but is not among the code object's kernels.
    const std::string symbol = code.pointee(kNameVariable + std::to_string(i));
    if (symbol.empty() || code.kernel(symbol) == nullptr) {
      missing.push_back(fmt::format("'{}'", request.kernel_label(i)));
      continue;
    }
    symbols.push_back(symbol);
  }
  if (!missing.empty()) {
    throw KernelNotFoundError(fmt::format(
        "kjit: {} in program '{}' {} not a __global__ function (no kernel of that name in its "
        "code object for {}); only kernels can be launched",
        fmt::join(missing, ", "), request.program_name, missing.size() == 1 ? "is" : "are", label));
  }
  return symbols;
}

}  // namespace

bool has_builtin_cooperative_groups(const HiprtcApi& api, const AmdgpuTarget& target) {
  static std::mutex mutex;
  static std::map<const HiprtcApi*, bool> known;
  {
    const std::lock_guard lock(mutex);
    if (const auto it = known.find(&api); it != known.end()) {
      return it->second;
    }
  }
  constexpr const char* kProbe =
      "namespace cooperative_groups {}\n"
      "__global__ void kjit_probe() { (void)sizeof(cooperative_groups::thread_block); }\n";
  bool builtin = false;
  {
    const std::lock_guard lock(hiprtc_mutex());
    hiprtcProgram raw = nullptr;
    if (api.hiprtcCreateProgram(&raw, kProbe, "kjit_probe.cu", 0, nullptr, nullptr) ==
        HIPRTC_SUCCESS) {
      const Program program(api, raw);
      const std::string arch = "--offload-arch=" + target.id();
      const char* options[] = {arch.c_str()};
      builtin = api.hiprtcCompileProgram(program.get(), 1, options) == HIPRTC_SUCCESS;
    }
  }
  const std::lock_guard lock(mutex);
  known[&api] = builtin;
  return builtin;
}

std::string hiprtc_identity(const HiprtcApi& api) {
  return fmt::format("hipRTC {}.{} ({})", api.major, api.minor, api.library);
}

void check_hiprtc_supports(const HiprtcApi& api, const AmdgpuTarget& target,
                           const std::string& label) {
  if (!is_known(api.isas, target.processor)) {
    throw ConfigError(fmt::format("kjit: {} cannot compile for {} ({}): its compiler ({}) knows {}",
                                  hiprtc_identity(api), target.processor, label, api.comgr,
                                  fmt::join(api.isas, ", ")));
  }
}

HiprtcCompiler::HiprtcCompiler(const HiprtcApi& api, AmdgpuTarget target, std::string label)
    : api_(api), target_(std::move(target)), label_(std::move(label)) {
  check_hiprtc_supports(api_, target_, label_);
}

backend::TargetIdentity HiprtcCompiler::identity() {
  return {"hip:" + target_.id(),
          {{"hiprtc", fmt::format("{}.{} ({})", api_.major, api_.minor, api_.build)},
           {"comgr", api_.comgr},
           {"target", target_.id()},
           {"format", "hsaco"}},
          api_.files};
}

backend::Binary HiprtcCompiler::compile(const backend::CompileRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  const std::string main_name =
      request.source_path ? request.source_path->lexically_normal().string() : request.program_name;
  const std::string context = fmt::format("'{}' for {}", request.program_name, label_);
  // Host code erased (program_sources.hpp) in the headers too, those from disk included
  // (helper_string.h's std::string bodies, which hipRTC's device compile would otherwise parse):
  // hipRTC writes named headers beside the main file, which is searched before the include path.
  // It answers <hip/...> itself.
  const backend::ProgramSources named(
      request, [](std::string_view name) { return name.starts_with("hip/"); });
  const std::string text = program_text(request, named);
  std::vector<const char*> headers = named.header_texts();  // the API takes them as non-const
  std::vector<const char*> names = named.header_names();
  std::vector<std::string> options = options_for(request, target_);
  if (mentions_cooperative_groups(request) && has_builtin_cooperative_groups(api_, target_)) {
    options.emplace_back("-D__KJIT_HIP_COOPERATIVE_GROUPS=1");  // see <cooperative_groups.h>
  }
  const std::lock_guard lock(hiprtc_mutex());
  hiprtcProgram raw = nullptr;
  hiprtcResult r = api_.hiprtcCreateProgram(
      &raw, text.c_str(), main_name.c_str(), static_cast<int>(headers.size()),
      headers.empty() ? nullptr : headers.data(), names.empty() ? nullptr : names.data());
  if (r != HIPRTC_SUCCESS) {
    fail(api_, "hiprtcCreateProgram", r, context);
  }
  const Program program(api_, raw);
  const std::vector<const char*> argv = gpu::option_pointers(options);
  r = api_.hiprtcCompileProgram(program.get(), static_cast<int>(argv.size()), argv.data());
  const std::string log = program.log();
  const std::vector<ClangDiagnostic> parsed = parse_clang_log(log);
  if (r == HIPRTC_ERROR_COMPILATION) {
    backend::throw_compile_failure(request, label_, locate(parsed, request, named), log,
                                   named.missing_notes());
  }
  if (r != HIPRTC_SUCCESS) {
    throw BackendError(fmt::format("kjit: hipRTC failed on {}: {}\n{}", context,
                                   api_.hiprtcGetErrorString(r), log));
  }

  backend::Binary binary;
  binary.program = request.program_name;
  binary.format = "hsaco";
  std::size_t size = 0;
  r = api_.hiprtcGetCodeSize(program.get(), &size);
  if (r != HIPRTC_SUCCESS || size == 0) {
    fail(api_, "hiprtcGetCodeSize", r, context);
  }
  binary.bytes.resize(size);
  r = api_.hiprtcGetCode(program.get(), reinterpret_cast<char*>(binary.bytes.data()));
  if (r != HIPRTC_SUCCESS) {
    fail(api_, "hiprtcGetCode", r, context);
  }
  binary.kernel_symbols = kernel_symbols(
      read_code_object(binary.bytes, "hipRTC's output for " + context), request, label_);
  for (const ClangDiagnostic& d : parsed) {
    if (d.severity == Diagnostic::Severity::warning && d.file != kNamesFile) {
      binary.log += Diagnostic{d.file, d.line, d.column, d.severity, d.message}.to_string() + "\n";
    }
  }
  detail::log().debug(
      "hiprtc compile of {}: {:.1f} ms, {} bytes of code object", context,
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(),
      binary.bytes.size());
  return binary;
}

}  // namespace kjit::hip
