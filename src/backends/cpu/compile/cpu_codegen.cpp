#include "backends/cpu/compile/cpu_codegen.hpp"

#include "backends/cpu/lower/cpu_prefetch.hpp"
#include "backends/cpu/lower/cpu_range_checks.hpp"
#include "backends/cpu/lower/cpu_warp_lanes.hpp"
#include "backends/cpu/run/cpu_runtime_symbols.hpp"
#include "backends/llvm/llvm_setup.hpp"
#include "source/host_code.hpp"

#include <kjit/error.hpp>

#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <fmt/format.h>

#include <memory>

namespace kjit::cpu {

namespace {

std::unique_ptr<llvm::TargetMachine> target_machine(const HostTarget& target,
                                                    const CodegenRequest& request) {
  std::string error;
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget(target.triple, error);
  if (t == nullptr) {
    throw BackendError(fmt::format("kjit: LLVM has no target for {}: {}", target.triple, error));
  }
  llvm::TargetOptions options;
  options.AllowFPOpFusion = llvm::FPOpFusion::Fast;  // as the front end's -ffp-contract=fast
  if (request.fast_math) {
    options.UnsafeFPMath = true;
    options.NoInfsFPMath = true;
    options.NoNaNsFPMath = true;
    options.NoSignedZerosFPMath = true;
    options.ApproxFuncFPMath = true;
  }
  std::unique_ptr<llvm::TargetMachine> tm(t->createTargetMachine(
      target.triple, target.cpu, target.feature_string(), options, llvm::Reloc::PIC_,
      llvm::CodeModel::Small,
      request.unoptimised() ? llvm::CodeGenOptLevel::None : llvm::CodeGenOptLevel::Aggressive));
  if (!tm) {
    throw BackendError(
        fmt::format("kjit: LLVM cannot generate code for {} ({})", target.triple, target.cpu));
  }
  return tm;
}

void check_externals(const llvm::Module& module, const CodegenRequest& request) {
  std::vector<std::string> missing;
  std::vector<Diagnostic> host_calls;  // located, where the missing names are host functions
  const auto note = [&](const std::string& name) {
    for (const HostCall& call : request.host_calls) {
      if (source::is_host_callee(name, call.function)) {
        host_calls.push_back(call.where);
      }
    }
  };
  for (const llvm::Function& f : module) {
    if (f.isDeclaration() && !f.isIntrinsic() && !f.use_empty() &&
        !is_allowed_external(f.getName())) {
      const std::string name = llvm::demangle(f.getName().str());
      missing.push_back(fmt::format("'{}'", name));
      note(name);
    }
  }
  for (const llvm::GlobalVariable& g : module.globals()) {
    if (g.isDeclaration() && !g.use_empty()) {
      const std::string name = llvm::demangle(g.getName().str());
      missing.push_back(fmt::format("variable '{}'", name));
      note(name);
    }
  }
  if (missing.empty()) {
    return;
  }
  if (!host_calls.empty()) {
    std::string log;
    for (const Diagnostic& d : host_calls) {
      log += d.to_string() + "\n";
    }
    throw CompileError(request.program, request.device, std::move(host_calls), log);
  }
  const std::string message = fmt::format(
      "device code uses {}, which the program does not define (kernels may call only functions "
      "of their own program, CUDA's device functions, and printf/malloc/free/memcpy/memset)",
      fmt::join(missing, ", "));
  Diagnostic d;
  d.message = message;
  throw CompileError(request.program, request.device, {d}, message);
}

}  // namespace

void optimize(llvm::Module& module, const HostTarget& target, const CodegenRequest& request) {
  llvm_setup::initialize_targets();
  const std::unique_ptr<llvm::TargetMachine> tm = target_machine(target, request);
  module.setDataLayout(tm->createDataLayout());
  module.setTargetTriple(target.triple);
  if (request.unoptimised()) {
    llvm_setup::run_o0(module, *tm);
  } else {
    llvm_setup::run_o3(module, *tm, [](llvm::PassBuilder& builder) {
      add_range_check_splits(builder);
      add_lane_inlining(builder);
    });
  }
  if (calls_lanes_alone(module)) {
    throw LanesNotVectorised{};
  }
  lower_prefetches(module);
  check_externals(module, request);
}

std::vector<std::uint8_t> emit_object(llvm::Module& module, const HostTarget& target,
                                      const CodegenRequest& request) {
  llvm_setup::initialize_targets();
  const std::unique_ptr<llvm::TargetMachine> tm = target_machine(target, request);
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream out(object);
  llvm::legacy::PassManager codegen;
  if (tm->addPassesToEmitFile(codegen, out, nullptr, llvm::CodeGenFileType::ObjectFile)) {
    throw BackendError("kjit: LLVM cannot emit an object file for this target");
  }
  codegen.run(module);
  return {object.begin(), object.end()};
}

}  // namespace kjit::cpu
