#include "backends/cpu/lower/cpu_barrier_regions.hpp"

#include "backends/cpu/lower/cpu_barrier_regions_internal.hpp"
#include "backends/cpu/lower/cpu_loop_stops.hpp"
#include "backends/cpu/lower/cpu_thread_guards.hpp"
#include "backends/cpu/lower/cpu_thread_ranges.hpp"
#include "backends/llvm/llvm_setup.hpp"

#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <fmt/format.h>

#include <cstddef>
#include <optional>
#include <vector>

// The split's steps, in order: the thread entry readied (its calls inlined, simplified), its
// waits found, the values kept across them placed in the frame, the regions made, then the
// block entry that runs them. The files of cpu_barrier_regions_internal.hpp make each step.

namespace kjit::cpu {

namespace barrier_split {

namespace {

using llvm::AllocaInst;
using llvm::BasicBlock;
using llvm::Function;
using llvm::Instruction;
using llvm::Value;

constexpr unsigned kMaxInlineRounds = 64;

/// Inlines every call on the way to a barrier into `f`, so that `f` calls the barrier itself, and
/// the small and always-inline functions it calls (the builtins' accessors, the argument
/// unpacking), so that the thread's context and arguments become registers.
/// With `everything`, inlines every call that is not recursive, so that the loops of the kernel
/// and of the functions it calls are in `f`.
bool inline_calls(Function& f, const std::set<Function*>& barrier_users, bool everything,
                  std::string& why) {
  constexpr std::size_t kSmallFunction = 64;  // instructions
  const auto calls_itself = [](Function* g) {
    return llvm::any_of(llvm::instructions(*g), [g](Instruction& i) {
      auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
      return call != nullptr && call->getCalledFunction() == g;
    });
  };
  std::set<llvm::CallBase*> refused;
  const auto wanted = [&](llvm::CallBase* call) {
    Function* callee = call->getCalledFunction();
    if (callee == nullptr || callee->isDeclaration() || callee == &f || refused.count(call) != 0) {
      return false;
    }
    return barrier_users.count(callee) != 0 ||
           ((everything || callee->hasFnAttribute(llvm::Attribute::AlwaysInline) ||
             callee->getInstructionCount() <= kSmallFunction) &&
            !calls_itself(callee));
  };
  for (unsigned round = 0; round < kMaxInlineRounds; ++round) {
    std::vector<llvm::CallBase*> calls;
    for (Instruction& i : llvm::instructions(f)) {
      if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i); call != nullptr && wanted(call)) {
        calls.push_back(call);
      }
    }
    if (calls.empty()) {
      return true;
    }
    for (llvm::CallBase* call : calls) {
      Function* callee = call->getCalledFunction();
      llvm::InlineFunctionInfo info;
      if (llvm::InlineFunction(*call, info).isSuccess()) {
        continue;
      }
      refused.insert(call);
      if (barrier_users.count(callee) != 0) {
        why = fmt::format(
            "'{}', which reaches __syncthreads() or a warp-level operation, cannot be "
            "inlined",
            llvm::demangle(callee->getName().str()));
        return false;
      }
    }
  }
  for (Instruction& i : llvm::instructions(f)) {
    if (auto* call = llvm::dyn_cast<llvm::CallBase>(&i);
        call != nullptr && call->getCalledFunction() != nullptr &&
        barrier_users.count(call->getCalledFunction()) != 0) {
      why = "recursion reaches __syncthreads() or a warp-level operation";
      return false;
    }
  }
  return true;
}

/// Caps the unroll count that `#pragma unroll N` asks for, in a kernel about to be split: each of
/// its regions is copied into several passes and runs inside a loop over the threads, so that a
/// large count multiplies the code the optimiser and the code generator work through (nbody's
/// `#pragma unroll 128` took seconds to compile) without making the loop over threads faster.
void limit_unrolling(Function& f) {
  constexpr std::uint64_t kMaxUnroll = 8;
  llvm::LLVMContext& ctx = f.getContext();
  for (BasicBlock& b : f) {
    Instruction* term = b.getTerminator();
    llvm::MDNode* loop = term != nullptr ? term->getMetadata(llvm::LLVMContext::MD_loop) : nullptr;
    if (loop == nullptr) {
      continue;
    }
    bool changed = false;
    llvm::SmallVector<llvm::Metadata*, 4> ops{nullptr};  // the loop ID refers to itself first
    for (unsigned i = 1; i < loop->getNumOperands(); ++i) {
      llvm::Metadata* op = loop->getOperand(i);
      auto* node = llvm::dyn_cast<llvm::MDNode>(op);
      auto* name = node != nullptr && node->getNumOperands() == 2
                       ? llvm::dyn_cast<llvm::MDString>(node->getOperand(0))
                       : nullptr;
      if (name != nullptr && name->getString() == "llvm.loop.unroll.count") {
        auto* count = llvm::mdconst::dyn_extract<llvm::ConstantInt>(node->getOperand(1));
        if (count != nullptr && count->getZExtValue() > kMaxUnroll) {
          op = llvm::MDNode::get(ctx, {name, llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                                                 count->getType(), kMaxUnroll))});
          changed = true;
        }
      }
      ops.push_back(op);
    }
    if (changed) {
      llvm::MDNode* capped = llvm::MDNode::getDistinct(ctx, ops);
      capped->replaceOperandWith(0, capped);
      term->setMetadata(llvm::LLVMContext::MD_loop, capped);
    }
  }
}

/// SROA and friends on the inlined entry: what stays in SSA registers needs no frame slot.
/// InstCombine as the optimisation pipelines run it: a textual "instcombine" asks it to verify
/// that one iteration reached a fixpoint, a fatal error where it does not (a warp shuffle's
/// lane arithmetic did).
void simplify(Function& f) {
  llvm_setup::run_function_passes(f,
                                  "sroa<modify-cfg>,early-cse<memssa>,gvn,"
                                  "instcombine<no-verify-fixpoint>,dse,sroa<modify-cfg>,"
                                  "instcombine<no-verify-fixpoint>,simplifycfg");
}

/// The construct that keeps `f` from being split, or an empty string.
std::string unsplittable(Function& f) {
  for (Instruction& i : llvm::instructions(f)) {
    if (auto* a = llvm::dyn_cast<AllocaInst>(&i)) {
      const std::optional<llvm::TypeSize> size =
          a->getAllocationSize(f.getParent()->getDataLayout());
      if (!a->isStaticAlloca() || !size || size->isScalable()) {
        return "a local variable of variable size";
      }
      if (a->getAlign().value() > kFrameAlign) {
        return fmt::format("a local variable aligned to {} bytes (the frame guarantees {})",
                           a->getAlign().value(), kFrameAlign);
      }
    }
    if (llvm::isa<llvm::InvokeInst, llvm::CallBrInst, llvm::IndirectBrInst>(&i)) {
      return fmt::format("'{}' control flow", i.getOpcodeName());
    }
  }
  return {};
}

/// Makes __syncthreads() and, where the module has them, warp meetings (`warp`) waits the
/// optimiser keeps where they are; returns them.
std::vector<Function*> mark_waits(Function& barrier, Function* warp) {
  // __syncthreads() and, where the module has them, warp meetings: none of them null (an indirect
  // call's callee is null too, and must not count as a wait).
  std::vector<Function*> waits{&barrier};
  if (warp != nullptr) {
    waits.push_back(warp);
  }
  for (Function* wait : waits) {
    wait->addFnAttr(llvm::Attribute::Convergent);
    wait->addFnAttr(llvm::Attribute::NoUnwind);
  }
  return waits;
}

/// The barriers are about to go: the thread context they take need not stay in memory.
void drop_thread_context(Function& thread_entry, const std::vector<Function*>& waits) {
  for (Function* wait : waits) {
    for (llvm::User* user : wait->users()) {
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(user);
          call != nullptr && call->getFunction() == &thread_entry) {
        call->setArgOperand(0, llvm::PoisonValue::get(call->getArgOperand(0)->getType()));
      }
    }
  }
}

/// The loop stop (cpu_loop_stops.hpp) declared in `m`, for as long as the split runs.
Function* declare_loop_stop(llvm::Module& m) {
  Function* stop =
      Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(m.getContext()), false),
                       llvm::GlobalValue::ExternalLinkage, "__kjit_loop_stop", m);
  stop->addFnAttr(llvm::Attribute::Convergent);
  stop->addFnAttr(llvm::Attribute::NoUnwind);
  return stop;
}

/// Calls `stop` in the loops of `thread_entry` to run in step, if it has any; returns whether it
/// has.
bool place_loop_stops(Function& thread_entry, const std::vector<Function*>& waits, Function* stop) {
  const std::vector<const Function*> cuts(waits.begin(), waits.end());
  if (mark_loop_stops(thread_entry, cuts, nullptr) == 0) {
    return false;
  }
  // Rotated, a loop tests whether to go on at its end, before the stop on its back edge: a
  // thread stops only to run another iteration, so a loop that each thread runs once (a
  // grid-stride loop over a grid as large as the data) costs no pass of its own. Only then:
  // rotating every loop would grow the code of kernels without a loop in step.
  llvm_setup::run_function_passes(thread_entry, "loop(loop-rotate)");
  mark_loop_stops(thread_entry, cuts, stop);
  return true;
}

/// Records of `region`, which passes run over all threads (r = 0 at the entry, else after barrier
/// r), whether its threads all return the same state, and its ThreadGuard if it has one.
void classify(Function* region, unsigned r, Regions& code) {
  // The snapshots are taken before the loop of every pass but the first.
  const GuardInputs inputs{
      region->getArg(kX),
      {region->getArg(kArgs), region->getArg(kBlock), region->getArg(kThreads)},
      r != 0 ? region->getArg(kFrame) : nullptr};
  const bool alike = returns_alike(*region);
  if (alike) {
    code.alike.insert(region);
  }
  if (std::optional<ThreadGuard> guard = find_thread_guard(*region, inputs)) {
    code.guards.emplace(region, *guard);
    if (alike) {  // a condition made constant cannot make the threads differ
      code.alike.insert({guard->below, guard->above});
    }
  }
}

/// The regions of `thread_entry`, split at `barriers`, into `code`.
void make_regions(Function& thread_entry, const std::vector<Barrier>& barriers,
                  const FrameLayout& layout, Regions& code) {
  for (unsigned r = 0; r <= barriers.size(); ++r) {
    const bool at_stop = r > 0 && barriers[r - 1].stop;
    std::vector<Value*> slot_addresses;
    code.regions.push_back(
        make_region(thread_entry, r, barriers, layout, false, {}, &slot_addresses));
    code.through.push_back(at_stop ? make_region(thread_entry, r, barriers, layout, true)
                                   : nullptr);
    AffineRegion affine;
    if (at_stop) {
      affine.slots = affine_candidates(slot_addresses, layout);
      if (!affine.slots.empty()) {
        affine.region = make_region(thread_entry, r, barriers, layout, false, affine.slots);
      }
    }
    code.affine.push_back(affine);
    if (runs_lanes_in_step(*code.regions.back())) {
      code.in_step.insert(code.regions.back());
    }
    for (Function* region : {code.regions.back(), affine.region}) {
      if (region == nullptr) {
        continue;
      }
      classify(region, r, code);
    }
  }
}

}  // namespace

}  // namespace barrier_split

RegionSplit split_at_barriers(llvm::Function& thread_entry, llvm::Function& barrier,
                              llvm::Function* warp, const std::set<llvm::Function*>& barrier_users,
                              const std::string& block_name, SplitAt what,
                              const std::string& range_name, bool lanes_in_step) {
  using namespace barrier_split;
  RegionSplit out;
  const std::vector<Function*> waits = mark_waits(barrier, warp);
  describe_warp_round(*thread_entry.getParent());
  if (!inline_calls(thread_entry, barrier_users, what == SplitAt::loops, out.why_not)) {
    return out;
  }
  out.why_not = unsplittable(thread_entry);
  if (!out.why_not.empty()) {
    return out;
  }
  drop_thread_context(thread_entry, waits);
  simplify(thread_entry);
  limit_unrolling(thread_entry);

  Function* stop = declare_loop_stop(*thread_entry.getParent());
  if (!range_name.empty()) {  // from a copy, which it rotates itself
    out.why_no_ranges = make_range_entry(thread_entry, range_name);
    out.ranges = out.why_no_ranges.empty();
  }
  if (!place_loop_stops(thread_entry, waits, stop) && what == SplitAt::loops) {
    stop->eraseFromParent();
    out.why_not = "no loop to run in step";
    return out;
  }
  std::vector<Function*> all_waits = waits;
  all_waits.push_back(stop);
  put_lanes_in_step(thread_entry, barrier, all_waits, lanes_in_step);
  const std::vector<Barrier> barriers = split_blocks_at(thread_entry, barrier, warp, *stop);
  Regions code;
  code.barriers = static_cast<unsigned>(
      llvm::count_if(barriers, [](const Barrier& x) { return !x.stop && !x.warp; }));
  code.warps =
      static_cast<unsigned>(llvm::count_if(barriers, [](const Barrier& x) { return x.warp; }));
  code.ends_apart = waits_after_divergent_ends(thread_entry, barriers);
  const std::vector<UniformSlot> uniform = keep_values_across(thread_entry, barriers);
  const MemorySpaces spaces(thread_entry, uniform);
  spaces.annotate(thread_entry);
  const FrameLayout layout = lay_out_frame(thread_entry, uniform);
  make_regions(thread_entry, barriers, layout, code);
  make_driver(thread_entry, code, layout, spaces, block_name);
  thread_entry.eraseFromParent();
  stop->eraseFromParent();
  out.split = true;
  out.frame_bytes = layout.bytes_per_thread;
  out.yields = code.has_stops();
  return out;
}

}  // namespace kjit::cpu
