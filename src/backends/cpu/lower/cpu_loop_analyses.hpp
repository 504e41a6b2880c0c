// The analyses the CPU backend's loop transforms ask of one function (dominators, loops,
// scalar evolution and what they need), computed afresh: each transform changes the function,
// so none is kept across them.
#pragma once

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/TargetParser/Triple.h>

namespace kjit::cpu {

struct LoopAnalyses {
  explicit LoopAnalyses(llvm::Function& f)
      : dt(f),
        loops(dt),
        library(llvm::Triple(f.getParent()->getTargetTriple())),
        tli(library, &f),
        ac(f),
        se(f, tli, ac, dt, loops) {}

  llvm::DominatorTree dt;
  llvm::LoopInfo loops;
  llvm::TargetLibraryInfoImpl library;
  llvm::TargetLibraryInfo tli;
  llvm::AssumptionCache ac;
  llvm::ScalarEvolution se;
};

}  // namespace kjit::cpu
