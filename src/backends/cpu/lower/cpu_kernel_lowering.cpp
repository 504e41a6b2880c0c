// lower_kernels: the lowering's steps in their order (cpu_lowering_steps.hpp names the file of
// each), and what every step shares.
#include "backends/cpu/lower/cpu_kernel_lowering.hpp"

#include "backends/cpu/check/cpu_access_checks.hpp"
#include "backends/cpu/lower/cpu_lowering_steps.hpp"
#include "backends/cpu/lower/cpu_pass_versions.hpp"
#include "backends/cpu/lower/cpu_warp_lanes.hpp"
#include "backends/cpu/run/cpu_runtime_symbols.hpp"

#include <kjit/error.hpp>

#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>

namespace kjit::cpu {

namespace lowering {

using llvm::Function;

std::string readable(llvm::StringRef ir_name) {
  return llvm::demangle(ir_name.str());
}

[[noreturn]] void unsupported(const LoweringRequest& request, const std::string& message) {
  Diagnostic d;
  d.severity = Diagnostic::Severity::error;
  d.message = message;
  throw CompileError(request.program, request.device, {d}, message);
}

std::set<Function*> callers_of(Function* f) {
  std::set<Function*> out;
  if (f == nullptr) {
    return out;
  }
  for (llvm::User* u : f->users()) {
    if (auto* call = llvm::dyn_cast<llvm::CallBase>(u)) {
      out.insert(call->getFunction());
    }
  }
  return out;
}

}  // namespace lowering

namespace {

using llvm::Function;
using namespace lowering;  // NOLINT(google-build-using-namespace): the lowering's own steps

/// The functions each kernel may run: those it calls, directly or through others, and, where one
/// of them calls through a pointer, every function whose address is taken.
std::vector<std::set<Function*>> kernel_reach(llvm::Module& m,
                                              const std::vector<Function*>& kernels) {
  std::vector<Function*> address_taken;
  for (Function& f : m) {
    if (f.hasAddressTaken()) {
      address_taken.push_back(&f);
    }
  }
  std::vector<std::set<Function*>> reach;
  for (Function* kernel : kernels) {
    std::set<Function*> seen{kernel};
    std::vector<Function*> work{kernel};
    const auto visit = [&](Function* f) {
      if (f != nullptr && seen.insert(f).second) {
        work.push_back(f);
      }
    };
    while (!work.empty()) {
      Function* f = work.back();
      work.pop_back();
      for (llvm::Instruction& i : llvm::instructions(*f)) {
        if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
            call != nullptr && call->isIndirectCall()) {
          for (Function* taken : address_taken) {
            visit(taken);
          }
        }
        for (llvm::Value* operand : i.operands()) {
          visit(llvm::dyn_cast<Function>(operand->stripPointerCasts()));
        }
      }
    }
    reach.push_back(std::move(seen));
  }
  return reach;
}

/// Inlines the calls that the source marks [[clang::always_inline]] (a specialised variant's call
/// of the kernel it fixes, core/specialization.cpp), so that the lowering's analyses see the
/// kernel's own code in the entry.
void inline_marked_calls(llvm::Module& m, const LoweringRequest& request) {
  std::vector<llvm::CallBase*> marked;
  for (Function& f : m) {
    for (llvm::Instruction& inst : llvm::instructions(f)) {
      auto* call = llvm::dyn_cast<llvm::CallBase>(&inst);
      if (call != nullptr && call->getAttributes().hasFnAttr(llvm::Attribute::AlwaysInline) &&
          call->getCalledFunction() != nullptr && !call->getCalledFunction()->isDeclaration()) {
        marked.push_back(call);
      }
    }
  }
  for (llvm::CallBase* call : marked) {
    const std::string callee = readable(call->getCalledFunction()->getName());
    llvm::InlineFunctionInfo info;
    const llvm::InlineResult result = llvm::InlineFunction(*call, info);
    if (!result.isSuccess()) {
      throw BackendError(fmt::format("kjit: cannot inline '{}' in '{}': {}", callee,
                                     request.program, result.getFailureReason()));
    }
  }
}

/// A fixed block's blockDim (the prelude's __kjit_fixed_dim(read, fixed)): the fixed value where
/// the kernel synchronises (its threads run on fibers or in loops between barriers, where a
/// constant block unrolls and simplifies them), the read elsewhere (its threads may run as
/// ranges, which recognise the read and not a constant). `reach`: what each kernel calls.
void resolve_fixed_dims(llvm::Module& m, const std::vector<std::set<Function*>>& reach) {
  Function* fixed_dim = m.getFunction(kFixedDimSymbol);
  if (fixed_dim == nullptr) {
    return;
  }
  const auto reached = [&](Function* f) {
    return std::any_of(reach.begin(), reach.end(),
                       [&](const std::set<Function*>& r) { return r.count(f) != 0; });
  };
  bool synchronises = false;
  for (const std::string_view symbol : {kBarrierWaitSymbol, kWarpWaitSymbol}) {
    if (Function* wait = m.getFunction(symbol)) {
      for (llvm::User* user : wait->users()) {
        auto* call = llvm::dyn_cast<llvm::CallInst>(user);
        synchronises = synchronises || (call != nullptr && reached(call->getFunction()));
      }
    }
  }
  for (llvm::User* user : llvm::make_early_inc_range(fixed_dim->users())) {
    auto* call = llvm::cast<llvm::CallInst>(user);
    call->replaceAllUsesWith(call->getArgOperand(synchronises ? 1 : 0));
    call->eraseFromParent();
  }
  fixed_dim->eraseFromParent();
}

/// Each kernel's __launch_bounds__ (its first argument; 0 for none).
std::vector<std::uint64_t> max_threads_of(const Annotated& annotated,
                                          const std::vector<Function*>& kernels) {
  std::vector<std::uint64_t> out;
  for (Function* kernel : kernels) {
    const auto it = annotated.max_threads.find(kernel);
    out.push_back(it != annotated.max_threads.end() ? it->second : 0);
  }
  return out;
}

/// Throws BackendError when the lowering has left invalid IR.
void verify(llvm::Module& m, const LoweringRequest& request) {
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(m, &os)) {
    throw BackendError(
        fmt::format("kjit: internal error: the CPU lowering of '{}' produced "
                    "invalid IR: {}",
                    request.program, os.str()));
  }
}

}  // namespace

void lower_kernels(llvm::Module& m, const LoweringRequest& request) {
  inline_marked_calls(m, request);
  const Annotated annotated = take_global_annotations(m);
  const std::vector<Function*> targets = take_kernel_targets(m, request, annotated.kernels);
  const std::vector<std::uint64_t> max_threads = max_threads_of(annotated, targets);

  const std::vector<std::set<Function*>> reach = kernel_reach(m, targets);
  resolve_fixed_dims(m, reach);
  const SharedMemory shared = lay_out_shared_memory(m, request, reach, annotated.shared);

  keep_volatile_stores_in_lockstep(m);
  if (request.check_memory) {
    add_access_checks(m);
  }
  pass_thread_context(m, request, shared.slot_fn);

  std::set<std::string> keep = lower_entries(m, request, shared.static_bytes, max_threads);
  lower_warp_rounds(m);
  finish_lanes_in_step(m);
  keep_device_variables(m, keep);
  internalize_all_but(m, keep);
  verify(m, request);
}

}  // namespace kjit::cpu
