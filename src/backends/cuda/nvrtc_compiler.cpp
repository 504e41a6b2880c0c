#include "backends/cuda/nvrtc_compiler.hpp"

#include "backends/cuda/cuda_errors.hpp"
#include "backends/cuda/nvrtc_api.hpp"
#include "backends/cuda/nvrtc_log.hpp"
#include "backends/gpu/gpu_rtc_program.hpp"
#include "backends/kit/compile_failure.hpp"
#include "backends/kit/program_sources.hpp"
#include "source/host_code.hpp"
#include "source/kernel_headers.hpp"
#include "support/library_search.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <memory>

extern const char kjit_cuda_prelude_text[];  // prelude/cuda_prelude.h, embedded at build time

namespace kjit::cuda {

namespace {

constexpr const char* kPreludeName = "kjit_cuda_prelude.h";
constexpr const char* kNameMapFile = "__nv_name_map";  // where NVRTC puts name expressions

/// The name expression for kernel i: the name, or a cast that picks an instantiation or overload.
std::string expression(const backend::CompileRequest& request, std::size_t i) {
  return request.signature(i) ? request.kernel_address(i) : request.kernel_names[i];
}

std::vector<std::string> options_for(const backend::CompileRequest& request,
                                     const NvrtcTarget& target) {
  std::vector<std::string> options = {
      "--gpu-architecture=" + target.name(),
      "-std=c++20",
      std::string("--pre-include=") + kPreludeName,
      "-lineinfo",
      // Functions and namespace-scope variables without __host__/__device__ are compiled for the
      // device (NVRTC refuses them otherwise): declarations of host functions in a shared header,
      // and host variables, then load. Host function bodies in the program are erased before.
      "--device-as-default-execution-space",
  };
  if (request.fast_math) {
    options.emplace_back("--use_fast_math");
  }
  if (request.debug) {
    options.emplace_back("-G");  // device debug information for cuda-gdb; no optimisation
  }
  gpu::add_includes_and_defines(options, request);
  return options;
}

using Program = gpu::RtcProgram<NvrtcApi, nvrtcProgram, &NvrtcApi::nvrtcDestroyProgram,
                                &NvrtcApi::nvrtcGetProgramLogSize, &NvrtcApi::nvrtcGetProgramLog,
                                NVRTC_SUCCESS>;

/// How a diagnostic names a file: the main file by the program's name, kjit's headers as
/// "<kjit>/name", others as NVRTC does.
std::string display_name(const std::string& file, const std::string& main_name,
                         const backend::CompileRequest& request) {
  if (file == main_name) {
    return request.program_name;
  }
  return source::kernel_header_display(file, request.headers).value_or(file);
}

/// Places each diagnostic for throw_compile_failure: in the user's files, about a kernel name
/// (NVRTC echoes "#pragma nv_mangled_name <expression>"), or elsewhere. An error at the end of
/// the source with a "to match this" note moves to that note's place, in the user's file.
std::vector<backend::LocatedDiagnostic> locate(const std::vector<NvrtcDiagnostic>& parsed,
                                               const backend::CompileRequest& request,
                                               const std::string& main_name,
                                               bool unresolved_functions) {
  std::vector<std::string> expressions;
  expressions.reserve(request.kernel_names.size());
  for (std::size_t i = 0; i < request.kernel_names.size(); ++i) {
    expressions.push_back(expression(request, i));
  }
  std::vector<backend::LocatedDiagnostic> out;
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    const NvrtcDiagnostic& p = parsed[i];
    backend::LocatedDiagnostic d;
    d.diagnostic = {display_name(p.file, main_name, request), p.line, p.column, p.severity,
                    p.message};
    d.in_user_file = !p.file.empty() && p.file != kNameMapFile && p.file != kPreludeName &&
                     !source::kernel_header_display(p.file, request.headers);
    if (p.severity == Diagnostic::Severity::note && !out.empty() && i > 0 &&
        source::host_only_callee(parsed[i - 1].message)) {
      continue;  // "because of a deprecated attribute": the mark, in kjit's header
    }
    if (const std::optional<std::string> callee = source::host_only_callee(p.message)) {
      // A use of a host-only function (host_code.hpp): NVRTC only warns; it is the error when
      // the device code could not be linked for want of such a function.
      if (!unresolved_functions) {
        continue;
      }
      d.diagnostic.severity = Diagnostic::Severity::error;
      d.diagnostic.message = source::host_call_message(*callee);
    }
    if (p.file == kNameMapFile) {
      const std::string pragma = "nv_mangled_name ";
      const auto at = p.source_line.find(pragma);
      if (at != std::string::npos) {
        const std::string text = p.source_line.substr(at + pragma.size());
        const auto it = std::find(expressions.begin(), expressions.end(), text);
        if (it != expressions.end()) {
          d.kernel = static_cast<std::size_t>(it - expressions.begin());
          if (d.diagnostic.message.find("non-__global__ function") != std::string::npos) {
            d.diagnostic.message =
                fmt::format("'{}' is not a __global__ function; only kernels can be launched",
                            request.kernel_names[*d.kernel]);
          }
        }
      }
    }
    if (p.at_end_of_source) {  // without a note: the end of the program's own text
      d.diagnostic.file = request.program_name;
      d.diagnostic.line =
          static_cast<unsigned>(std::count(request.source.begin(), request.source.end(), '\n') + 1);
      d.in_user_file = true;
    }
    if (p.at_end_of_source && i + 1 < parsed.size() &&
        parsed[i + 1].severity == Diagnostic::Severity::note &&
        parsed[i + 1].message.rfind("to match this", 0) == 0) {
      const NvrtcDiagnostic& note = parsed[i + 1];
      d.diagnostic = {display_name(note.file, main_name, request), note.line, note.column,
                      p.severity, p.message + " (" + note.message + ")"};
      d.in_user_file = true;
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<std::uint8_t> output(const NvrtcApi& api, const Program& program, bool cubin,
                                 const std::string& context) {
  std::size_t size = 0;
  nvrtcResult r = cubin ? api.nvrtcGetCUBINSize(program.get(), &size)
                        : api.nvrtcGetPTXSize(program.get(), &size);
  if (r != NVRTC_SUCCESS) {
    throw_nvrtc_error(api, cubin ? "nvrtcGetCUBINSize" : "nvrtcGetPTXSize", r, context);
  }
  if (size == 0) {  // after a compute_XX build the CUBIN size is 0 with success (TOOLCHAIN.md)
    throw BackendError(
        fmt::format("kjit: NVRTC produced an empty {} ({})", cubin ? "CUBIN" : "PTX", context));
  }
  std::vector<std::uint8_t> bytes(size);
  r = cubin ? api.nvrtcGetCUBIN(program.get(), reinterpret_cast<char*>(bytes.data()))
            : api.nvrtcGetPTX(program.get(), reinterpret_cast<char*>(bytes.data()));
  if (r != NVRTC_SUCCESS) {
    throw_nvrtc_error(api, cubin ? "nvrtcGetCUBIN" : "nvrtcGetPTX", r, context);
  }
  return bytes;  // PTX keeps its terminating NUL: the driver wants a C string
}

}  // namespace

std::string NvrtcTarget::name() const {
  return fmt::format("{}_{}", cubin ? "sm" : "compute", arch);
}

std::string nvrtc_identity(const NvrtcApi& api) {
  return fmt::format("NVRTC {}.{}", api.major, api.minor);
}

namespace {

std::vector<int> supported_archs(const NvrtcApi& api) {
  int count = 0;
  api.nvrtcGetNumSupportedArchs(&count);
  std::vector<int> archs(static_cast<std::size_t>(std::max(count, 0)));
  if (count > 0) {
    api.nvrtcGetSupportedArchs(archs.data());
  }
  return archs;
}

}  // namespace

NvrtcTarget target_for_device(const NvrtcApi& api, int arch) {
  const std::vector<int> archs = supported_archs(api);
  if (std::find(archs.begin(), archs.end(), arch) != archs.end()) {
    return {arch, true};
  }
  int best = 0;
  for (const int a : archs) {
    if (a <= arch) {
      best = std::max(best, a);
    }
  }
  if (best == 0) {
    throw BackendError(fmt::format("kjit: {} cannot compile for sm_{}: it supports {}",
                                   nvrtc_identity(api), arch, fmt::join(archs, ", ")));
  }
  detail::log().info(
      "{} does not know sm_{}; compiling PTX for compute_{}, which the driver "
      "finishes",
      nvrtc_identity(api), arch, best);
  return {best, false};
}

NvrtcTarget parse_target(const NvrtcApi& api, const std::string& text) {
  NvrtcTarget target;
  std::string_view digits = text;
  if (digits.starts_with("sm_")) {
    digits.remove_prefix(3);
  } else if (digits.starts_with("compute_")) {
    digits.remove_prefix(8);
    target.cubin = false;
  } else {
    digits = {};
  }
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), target.arch);
  const std::vector<int> archs = supported_archs(api);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
    throw ConfigError(fmt::format(
        "kjit: 'cuda:{}' is not a CUDA target; use cuda:sm_XX (a CUBIN) or cuda:compute_XX "
        "(PTX), with XX one of {}",
        text, fmt::join(archs, ", ")));
  }
  if (std::find(archs.begin(), archs.end(), target.arch) == archs.end()) {
    throw ConfigError(fmt::format("kjit: {} cannot compile for 'cuda:{}': it supports {}",
                                  nvrtc_identity(api), text, fmt::join(archs, ", ")));
  }
  return target;
}

NvrtcCompiler::NvrtcCompiler(ApiSource api, TargetChoice choose, std::string label,
                             std::string probe, std::vector<std::string> loadable)
    : api_(std::move(api)),
      choose_(std::move(choose)),
      label_(std::move(label)),
      probe_(std::move(probe)),
      loadable_(std::move(loadable)) {}

const NvrtcTarget& NvrtcCompiler::target(const NvrtcApi& api) {
  std::call_once(target_once_, [&] { target_ = choose_(api); });
  return target_;
}

backend::TargetIdentity NvrtcCompiler::identity() {
  const NvrtcApi& api = api_();
  const NvrtcTarget& t = target(api);
  return {"cuda:" + t.name(),
          {{"nvrtc", fmt::format("{}.{} ({})", api.major, api.minor, api.build)},
           {"target", t.name()},
           {"format", t.cubin ? "cubin" : "ptx"}},
          {api.file}};
}

std::optional<std::string> NvrtcCompiler::identity_probe() {
  if (probe_.empty()) {
    return std::nullopt;
  }
  std::optional<std::string> search = backend::describe_library_search(nvrtc_library_names());
  if (!search) {
    return std::nullopt;
  }
  return "NVRTC for " + probe_ + "\n" + *search;
}

backend::Binary NvrtcCompiler::compile(const backend::CompileRequest& request) {
  const NvrtcApi& api = api_();
  return compile_with_nvrtc(api, request, target(api), label_);
}

namespace {

/// A compile NVRTC refused, as kjit's CompileError: located in the user's files (a header from disk
/// by its path, as NVRTC would name it), with a note for each include compiled as a stand-in.
[[noreturn]] void throw_compile_failure(const backend::CompileRequest& request,
                                        const std::string& device,
                                        const backend::ProgramSources& sources,
                                        const std::string& main_name, const std::string& log) {
  // ptxas: "Unresolved extern function '_Z6launchPf'": device code calls a function that has
  // no definition, such as a host function kept as a declaration.
  const bool unresolved = log.find("Unresolved extern function") != std::string::npos;
  std::vector<NvrtcDiagnostic> parsed = parse_nvrtc_log(log);
  for (NvrtcDiagnostic& p : parsed) {
    if (const std::optional<std::filesystem::path> path = sources.disk_path(p.file)) {
      p.file = path->string();
    }
  }
  backend::throw_compile_failure(request, device, locate(parsed, request, main_name, unresolved),
                                 log, sources.missing_notes());
}

/// The warnings of a compile's log about the user's code, one a line; not those about kjit's
/// headers, nor the notes on host functions kept as declarations.
std::string warnings_of(const std::string& log, const backend::CompileRequest& request,
                        const std::string& main_name) {
  std::string out;
  for (const NvrtcDiagnostic& d : parse_nvrtc_log(log)) {
    if (d.severity == Diagnostic::Severity::warning && !source::host_only_callee(d.message) &&
        !source::kernel_header_display(d.file, request.headers)) {
      out += Diagnostic{display_name(d.file, main_name, request), d.line, d.column, d.severity,
                        d.message}
                 .to_string() +
             "\n";
    }
  }
  return out;
}

}  // namespace

backend::Binary compile_with_nvrtc(const NvrtcApi& api, const backend::CompileRequest& request,
                                   const NvrtcTarget& target, const std::string& device) {
  const auto start = std::chrono::steady_clock::now();
  const std::string main_name =
      request.source_path ? request.source_path->lexically_normal().string() : request.program_name;
  const std::string context = fmt::format("'{}' for {}", request.program_name, device);

  // Host code erased (program_sources.hpp), in the program and the headers it includes, in
  // memory and from disk (NVRTC takes a named header before its search path); then kjit's
  // (<stdio.h>, <cuda_fp16.h> ...), after the prelude.
  const backend::ProgramSources sources(request);
  std::vector<const char*> headers{kjit_cuda_prelude_text};
  std::vector<const char*> names{kPreludeName};
  headers.insert(headers.end(), sources.header_texts().begin(), sources.header_texts().end());
  names.insert(names.end(), sources.header_names().begin(), sources.header_names().end());
  nvrtcProgram raw = nullptr;
  nvrtcResult r =
      api.nvrtcCreateProgram(&raw, sources.main().c_str(), main_name.c_str(),
                             static_cast<int>(headers.size()), headers.data(), names.data());
  if (r != NVRTC_SUCCESS) {
    throw_nvrtc_error(api, "nvrtcCreateProgram", r, context);
  }
  const Program program(api, raw);

  std::vector<std::string> expressions;
  for (std::size_t i = 0; i < request.kernel_names.size(); ++i) {
    expressions.push_back(expression(request, i));
    r = api.nvrtcAddNameExpression(program.get(), expressions.back().c_str());
    if (r != NVRTC_SUCCESS) {
      throw_nvrtc_error(api, "nvrtcAddNameExpression", r, context);
    }
  }
  const std::vector<std::string> options = options_for(request, target);
  const std::vector<const char*> argv = gpu::option_pointers(options);
  r = api.nvrtcCompileProgram(program.get(), static_cast<int>(argv.size()), argv.data());
  const std::string log = program.log();
  if (r == NVRTC_ERROR_COMPILATION) {
    throw_compile_failure(request, device, sources, main_name, log);
  }
  if (r != NVRTC_SUCCESS) {
    throw BackendError(
        fmt::format("kjit: NVRTC failed on {}: {}\n{}", context, api.nvrtcGetErrorString(r), log));
  }

  backend::Binary binary;
  binary.program = request.program_name;
  binary.format = target.cubin ? "cubin" : "ptx";
  binary.bytes = output(api, program, target.cubin, context);
  for (const std::string& e : expressions) {
    const char* lowered = nullptr;
    r = api.nvrtcGetLoweredName(program.get(), e.c_str(), &lowered);
    if (r != NVRTC_SUCCESS || lowered == nullptr) {
      throw_nvrtc_error(api, "nvrtcGetLoweredName", r, context);
    }
    binary.kernel_symbols.emplace_back(lowered);
  }
  binary.log = warnings_of(log, request, main_name);
  detail::log().debug(
      "nvrtc compile of {}: {:.1f} ms, {} bytes of {}", context,
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(),
      binary.bytes.size(), binary.format);
  return binary;
}

}  // namespace kjit::cuda
