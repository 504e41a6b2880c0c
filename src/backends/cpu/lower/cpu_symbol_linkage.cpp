// The linkage of the lowered module's symbols: what the host finds (the kept entries, their
// parameters and info records, __device__ variables) stays visible, everything else becomes
// internal, so that the optimiser may inline and drop it.
#include "backends/cpu/lower/cpu_lowering_steps.hpp"
#include "backends/kit/device_variables.hpp"

#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>

namespace kjit::cpu::lowering {

/// Keeps the namespace-scope variables a source names (__device__, __constant__) visible under
/// their symbols, so that the host can find them (Program::symbol): static ones become external.
/// Constants stay internal: the host cannot write them, and the optimizer folds their loads.
void keep_device_variables(llvm::Module& m, std::set<std::string>& keep) {
  for (llvm::GlobalVariable& g : m.globals()) {
    if (g.isDeclaration() || g.isConstant() || g.isThreadLocal() ||
        backend::device_variable_name(g.getName()).empty()) {
      continue;
    }
    if (g.hasLocalLinkage()) {
      g.setLinkage(llvm::GlobalValue::ExternalLinkage);
    }
    keep.insert(g.getName().str());
  }
}

void internalize_all_but(llvm::Module& m, const std::set<std::string>& keep) {
  for (llvm::Function& f : m) {
    if (!f.isDeclaration() && keep.count(f.getName().str()) == 0) {
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
      f.setVisibility(llvm::GlobalValue::DefaultVisibility);
      f.setComdat(nullptr);
    }
  }
  for (llvm::GlobalVariable& g : m.globals()) {
    if (!g.isDeclaration() && !g.getName().starts_with("llvm.") &&
        keep.count(g.getName().str()) == 0) {
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
      g.setVisibility(llvm::GlobalValue::DefaultVisibility);
      g.setComdat(nullptr);
    }
  }
}

}  // namespace kjit::cpu::lowering
