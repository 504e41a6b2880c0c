#include "backends/cpu/compile/cpu_compiler.hpp"

#include "backends/cpu/compile/cpu_bitcode.hpp"
#include "backends/cpu/compile/cpu_codegen.hpp"
#include "backends/cpu/compile/cpu_frontend.hpp"
#include "backends/cpu/lower/cpu_kernel_lowering.hpp"
#include "backends/cpu/lower/cpu_warp_lanes.hpp"
#include "backends/cpu/prelude/cpu_abi.h"
#include "backends/llvm/llvm_setup.hpp"
#include "support/environment.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <llvm/Config/llvm-config.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>

namespace kjit::cpu {

namespace {

/// KJIT_DUMP_DIR: where each CPU compile leaves its IR (after lowering, after O3) and object,
/// for debugging. Never fails a compile: problems are logged.
class CompileDump {
 public:
  explicit CompileDump(const std::string& program) {
    const auto dir = detail::environment::get("KJIT_DUMP_DIR");
    if (!dir || dir->empty()) {
      return;
    }
    static std::atomic<unsigned> counter{0};
    std::string stem = std::filesystem::path(program).filename().string();
    stem = fmt::format("{}.{}", stem.empty() ? "program" : stem, counter.fetch_add(1));
    std::error_code ec;
    std::filesystem::create_directories(*dir, ec);
    base_ = std::filesystem::path(*dir) / stem;
  }

  void module(const llvm::Module& m, const char* suffix) const {
    if (base_.empty()) {
      return;
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    m.print(os, nullptr);
    write(suffix, text.data(), text.size());
  }

  void bytes(const std::vector<std::uint8_t>& data, const char* suffix) const {
    if (!base_.empty()) {
      write(suffix, data.data(), data.size());
    }
  }

 private:
  void write(const char* suffix, const void* data, std::size_t size) const {
    const std::filesystem::path path = base_.string() + suffix;
    std::ofstream out(path, std::ios::binary);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
    if (!out) {
      detail::log().warn("KJIT_DUMP_DIR: cannot write {}", path.string());
    } else {
      detail::log().info("KJIT_DUMP_DIR: wrote {}", path.string());
    }
  }

  std::filesystem::path base_;
};

/// A compile that LLVM stopped: `why` is the whole story, with no place in the user's files.
[[noreturn]] void throw_llvm_failure(const std::string& program, const std::string& device,
                                     const std::string& why) {
  Diagnostic d;
  d.message = why;
  throw CompileError(program, device, {d}, why);
}

/// LLVM's code generator could not finish (it reported errors through the context).
[[noreturn]] void throw_codegen_errors(const std::string& program, const std::string& device,
                                       const std::vector<std::string>& errors) {
  const bool assembly = std::any_of(errors.begin(), errors.end(), [](const std::string& e) {
    return e.find("inline asm") != std::string::npos;
  });
  std::string why = fmt::format("LLVM's code generator failed: {}", fmt::join(errors, "\n"));
  while (!why.empty() && why.back() == '\n') {
    why.pop_back();
  }
  if (assembly) {
    why += "\ninline assembly (PTX) is not supported by kjit's CPU backend";
  }
  throw_llvm_failure(program, device, why);
}

/// The lowering refused the program with `error`, which names no place: the compile had no
/// line tables (only checked and debug compiles do). The front end runs again with them, and the
/// lowering's error comes at the user's line if that places it, else as it was. A refused
/// program is rare, and this costs only it.
[[noreturn]] void throw_located(const backend::CompileRequest& request, const HostTarget& target,
                                const std::string& device, const LoweringRequest& lowering,
                                const CompileError& error) {
  std::optional<CompileError> located;
  try {
    llvm::LLVMContext context;
    FrontendOutput front = compile_to_ir(request, target, context, device, /*line_tables=*/true);
    LoweringRequest again = lowering;
    again.dynamic_shared = std::move(front.dynamic_shared);
    lower_kernels(*front.module, again);
  } catch (const CompileError& e) {
    if (!e.file().empty()) {
      located = e;
    }
  } catch (const Error&) {  // NOLINT(bugprone-empty-catch): the first error is the one to give
  }
  if (located) {
    throw *located;
  }
  throw error;
}

}  // namespace

namespace {

backend::Binary compile_once(const backend::CompileRequest& request, const HostTarget& target,
                             const std::string& device, bool split_barriers, bool lanes_in_step) {
  using clock = std::chrono::steady_clock;
  using ms = std::chrono::duration<double, std::milli>;
  const auto t0 = clock::now();
  llvm::LLVMContext context;
  FrontendOutput front = request.input == backend::InputKind::bitcode
                             ? bitcode_to_ir(request, target, context, device)
                             : compile_to_ir(request, target, context, device);
  const auto t1 = clock::now();
  const llvm_setup::ContextErrors codegen_errors(context);

  // A debugger wants each thread's variables where the source put them: on fibers, every thread
  // runs the kernel's own code on its own stack (regions would keep them in a shared frame).
  // Checked mode too: its checks name the thread, which runs of many threads do not keep.
  LoweringRequest lowering{request.program_name,
                           device,
                           request.kernel_names,
                           std::move(front.dynamic_shared),
                           split_barriers && !request.debug && !request.check_memory,
                           request.debug,
                           request.check_memory,
                           request.fast_math,
                           lanes_in_step};
  try {
    lower_kernels(*front.module, lowering);
  } catch (const CompileError& e) {
    if (!e.file().empty() || request.input != backend::InputKind::source || request.debug ||
        request.check_memory) {
      throw;
    }
    throw_located(request, target, device, lowering, e);
  }
  const auto t2 = clock::now();
  const CompileDump dump(request.program_name);
  dump.module(*front.module, ".lowered.ll");

  const CodegenRequest codegen{request.program_name, device,
                               request.fast_math,    request.debug,
                               request.check_memory, std::move(front.host_calls)};
  optimize(*front.module, target, codegen);
  dump.module(*front.module, ".opt.ll");
  backend::Binary binary;
  binary.program = request.program_name;
  binary.format = "cpu-elf-object";
  binary.bytes = emit_object(*front.module, target, codegen);
  dump.bytes(binary.bytes, ".o");
  if (!codegen_errors.errors().empty()) {
    throw_codegen_errors(request.program_name, device, codegen_errors.errors());
  }
  binary.log = std::move(front.warnings);
  for (std::size_t i = 0; i < request.kernel_names.size(); ++i) {
    binary.kernel_symbols.push_back(std::to_string(i));
  }
  const auto t3 = clock::now();
  detail::log().debug(
      "cpu compile of '{}': front end {:.1f} ms, lowering {:.1f} ms, O3 + codegen "
      "{:.1f} ms, {} bytes",
      request.program_name, ms(t1 - t0).count(), ms(t2 - t1).count(), ms(t3 - t2).count(),
      binary.bytes.size());
  return binary;
}

}  // namespace

backend::Binary compile_program(const backend::CompileRequest& request, const HostTarget& target,
                                const std::string& device, const CpuModes& modes) {
  try {
    return compile_once(request, target, device, modes.split_barriers, modes.warps_as_vectors);
  } catch (const LanesNotVectorised&) {
    detail::log().debug(
        "kjit: '{}' has a warp's lanes in step in code LLVM did not vectorise; compiled again "
        "with its warps meeting through memory",
        request.program_name);
  }
  return compile_once(request, target, device, modes.split_barriers, false);
}

const CpuModes& CpuCompiler::modes() {
  // A ConfigError leaves the modes unset: the next call reports it again.
  std::call_once(modes_once_, [this] {
    modes_ = {detail::environment::cpu_split_barriers(),
              detail::environment::cpu_warps_as_vectors()};
  });
  return modes_;
}

backend::TargetIdentity CpuCompiler::identity() {
  const HostTarget& t = host_target();
  return {"cpu",
          {{"llvm", LLVM_VERSION_STRING},
           {"triple", t.triple},
           {"cpu", t.cpu},
           {"features", t.feature_string()},
           {"abi", std::to_string(KJIT_CPU_ABI_VERSION)},
           {"barriers", modes().split_barriers ? "regions" : "fibers"},
           {"warps", modes().warps_as_vectors ? "vectors" : "meetings"}}};
}

backend::Binary CpuCompiler::compile(const backend::CompileRequest& request) {
  llvm_setup::initialize_targets();  // before the frontend's first statistic
  const HostTarget& target = host_target();
  const CpuModes run_modes = modes();
  backend::Binary binary;
  const std::optional<std::string> fatal = llvm_setup::run_recovering(
      [&] { binary = compile_program(request, target, label_, run_modes); });
  if (fatal) {
    throw_llvm_failure(
        request.program_name, label_,
        fmt::format("LLVM stopped with a fatal error: {}\nkjit abandoned the compile (what it held "
                    "is not freed); KJIT_COMPILE_ISOLATION=process runs compiles in a child "
                    "process, where such an error costs nothing",
                    *fatal));
  }
  return binary;
}

}  // namespace kjit::cpu
