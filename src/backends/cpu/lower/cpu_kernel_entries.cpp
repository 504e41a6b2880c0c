// Each kernel's entries: the function entry N was generated for, the entry its synchronisation
// needs (the block entry's one loop over the threads, loops between its barriers or its loop
// stops, a range entry, or the thread entry on fibers), and the __kjit_info_N record that tells
// the runtime how to run it (cpu_abi.h).
#include "backends/cpu/lower/cpu_barrier_regions.hpp"
#include "backends/cpu/lower/cpu_lowering_steps.hpp"
#include "backends/cpu/prelude/cpu_abi.h"
#include "backends/cpu/run/cpu_runtime_symbols.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>

#include <fmt/format.h>

#include <cstddef>
#include <initializer_list>
#include <string_view>

namespace kjit::cpu::lowering {

namespace {

using llvm::Function;
using llvm::GlobalVariable;

/// The function that entry N was generated for (from __kjit_fn_N, which is then removed).
std::vector<Function*> take_entry_targets(llvm::Module& m, const LoweringRequest& request) {
  std::vector<Function*> targets;
  for (std::size_t n = 0; n < request.kernel_names.size(); ++n) {
    const std::string name = fmt::format("__kjit_fn_{}", n);
    GlobalVariable* g = m.getNamedGlobal(name);
    Function* f = g != nullptr && g->hasInitializer()
                      ? llvm::dyn_cast<Function>(g->getInitializer()->stripPointerCasts())
                      : nullptr;
    if (f == nullptr) {
      throw BackendError(
          fmt::format("kjit: internal error: entry {} of '{}' has no target", n, request.program));
    }
    g->eraseFromParent();
    targets.push_back(f);
  }
  return targets;
}

/// Functions that may reach one of `symbols` (__syncthreads(), a warp meeting), through any chain
/// of calls.
std::set<Function*> users_of(llvm::Module& m, std::initializer_list<std::string_view> symbols) {
  std::set<Function*> reach;
  std::vector<Function*> work;
  for (const std::string_view symbol : symbols) {
    for (Function* f : callers_of(m.getFunction(symbol))) {
      if (reach.insert(f).second) {
        work.push_back(f);
      }
    }
  }
  while (!work.empty()) {
    Function* f = work.back();
    work.pop_back();
    for (Function* caller : callers_of(f)) {
      if (reach.insert(caller).second) {
        work.push_back(caller);
      }
    }
  }
  return reach;
}

/// What each entry's lowering reads of the module as a whole.
struct Synchronisation {
  std::set<Function*> barrier;     // functions that may reach a barrier or a warp meeting
  std::set<Function*> warp_users;  // functions that may reach a warp meeting
  Function* warp_wait = nullptr;
};

/// Entry N's functions, as the prelude generated them.
struct Entry {
  std::size_t n = 0;
  const std::string& kernel;   // its name, for messages
  Function* block = nullptr;   // __kjit_block_N: a loop over the block's threads
  Function* thread = nullptr;  // __kjit_thread_N: one thread
  Function* wait = nullptr;    // the barrier the splitter cuts at; null when it does not split
};

/// Entry N; throws BackendError when the prelude generated none.
Entry entry_of(llvm::Module& m, const LoweringRequest& request, std::size_t n) {
  Function* block_entry = m.getFunction(fmt::format("__kjit_block_{}", n));
  Function* thread_entry = m.getFunction(fmt::format("__kjit_thread_{}", n));
  if (block_entry == nullptr || thread_entry == nullptr) {
    throw BackendError(
        fmt::format("kjit: internal error: entry {} of '{}' is missing", n, request.program));
  }
  llvm::LLVMContext& ctx = m.getContext();
  // The barrier the splitter cuts at, declared if this module has none (a kernel split at its
  // loop stops alone); dropped again (lower_entry) when nothing calls it.
  Function* wait = request.split_barriers
                       ? llvm::cast<Function>(m.getOrInsertFunction(kBarrierWaitSymbol,
                                                                    llvm::Type::getVoidTy(ctx),
                                                                    llvm::PointerType::get(ctx, 0))
                                                  .getCallee())
                       : nullptr;
  return Entry{n, request.kernel_names[n], block_entry, thread_entry, wait};
}

/// A kernel that synchronises: its threads run in loops between its barriers where it can be
/// split, on fibers otherwise. Returns whether they run on fibers.
bool lower_synchronising(const LoweringRequest& request, const Entry& e,
                         const Synchronisation& sync, RegionSplit& split) {
  e.block->eraseFromParent();
  if (!request.split_barriers) {
    detail::log().debug("kjit: kernel '{}' of '{}' runs its threads on fibers ({})", e.kernel,
                        request.program,
                        request.debug ? "compiled for a debugger" : "KJIT_CPU_BARRIERS=fibers");
    return true;
  }
  split = split_at_barriers(*e.thread, *e.wait, sync.warp_wait, sync.barrier,
                            fmt::format("__kjit_block_{}", e.n), SplitAt::barriers, {},
                            request.lanes_in_step);
  if (!split.split) {
    detail::log().info("kjit: kernel '{}' of '{}' runs its threads on fibers: {}", e.kernel,
                       request.program, split.why_not);
    return true;
  }
  detail::log().debug(
      "kjit: kernel '{}' of '{}' runs its threads in loops between its "
      "barriers ({} bytes of frame per thread)",
      e.kernel, request.program, split.frame_bytes);
  return false;
}

/// A kernel without barriers, split only at the stops of loops that should run in step (a
/// grid-stride loop); otherwise its threads run as the block entry's one loop. Adds a range entry
/// it gets to `keep`.
RegionSplit lower_unsynchronised(const LoweringRequest& request, const Entry& e,
                                 const Synchronisation& sync, std::set<std::string>& keep) {
  const std::string name = e.block->getName().str();
  e.block->setName(name + ".unsplit");
  const std::string range_name = fmt::format("__kjit_range_{}", e.n);
  RegionSplit split = split_at_barriers(*e.thread, *e.wait, sync.warp_wait, sync.barrier, name,
                                        SplitAt::loops, range_name);
  if (split.split) {
    e.block->eraseFromParent();
  } else {
    e.thread->eraseFromParent();
    e.block->setName(name);
  }
  if (split.ranges) {
    keep.insert(range_name);
    detail::log().debug(
        "kjit: kernel '{}' of '{}' runs over ranges of threads on 1-D and 2-D launches", e.kernel,
        request.program);
  } else {
    detail::log().debug("kjit: kernel '{}' of '{}' runs block by block: {}", e.kernel,
                        request.program,
                        split.why_no_ranges.empty() ? split.why_not : split.why_no_ranges);
  }
  return split;
}

/// Entry N's __kjit_info_N record (cpu_abi.h's kjit_cpu_kernel_info); returns its name.
std::string add_info(llvm::Module& m, std::size_t n, std::uint32_t flags,
                     std::uint64_t static_shared_bytes, std::uint64_t frame_bytes,
                     std::uint64_t max_threads) {
  llvm::LLVMContext& ctx = m.getContext();
  auto* i32 = llvm::Type::getInt32Ty(ctx);
  auto* i64 = llvm::Type::getInt64Ty(ctx);
  auto* info_type = llvm::StructType::get(ctx, {i32, i32, i64, i64, i64});
  const std::string info_name = fmt::format("__kjit_info_{}", n);
  auto* info = llvm::ConstantStruct::get(
      info_type,
      {llvm::ConstantInt::get(i32, KJIT_CPU_ABI_VERSION), llvm::ConstantInt::get(i32, flags),
       llvm::ConstantInt::get(i64, static_shared_bytes), llvm::ConstantInt::get(i64, frame_bytes),
       llvm::ConstantInt::get(i64, max_threads)});
  new GlobalVariable(m, info_type, /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage, info,
                     info_name);
  return info_name;
}

/// Lowers entry N: keeps the entry its synchronisation needs, and its parameters and info record,
/// in `keep`.
void lower_entry(llvm::Module& m, const LoweringRequest& request, const Synchronisation& sync,
                 const Entry& e, std::uint64_t static_shared_bytes, std::uint64_t max_threads,
                 std::set<std::string>& keep) {
  bool on_fibers = sync.barrier.count(e.block) != 0;
  const bool uses_warp = sync.warp_users.count(e.block) != 0;
  RegionSplit split;
  if (on_fibers) {
    on_fibers = lower_synchronising(request, e, sync, split);
  } else if (request.split_barriers) {
    split = lower_unsynchronised(request, e, sync, keep);
  } else {
    e.thread->eraseFromParent();
  }
  if (e.wait != nullptr && e.wait->use_empty()) {
    e.wait->eraseFromParent();
  }
  const std::size_t n = e.n;
  keep.insert(on_fibers ? fmt::format("__kjit_thread_{}", n) : fmt::format("__kjit_block_{}", n));
  keep.insert(fmt::format("__kjit_params_{}", n));
  const std::uint32_t flags = (on_fibers      ? KJIT_CPU_KERNEL_USES_BARRIER
                               : split.yields ? KJIT_CPU_KERNEL_YIELDS
                                              : 0U) |
                              (uses_warp ? KJIT_CPU_KERNEL_USES_WARP : 0U) |
                              (split.ranges ? KJIT_CPU_KERNEL_RANGES : 0U) |
                              (request.flush_denormals ? KJIT_CPU_KERNEL_FLUSHES_DENORMALS : 0U);
  keep.insert(add_info(m, n, flags, static_shared_bytes, split.frame_bytes, max_threads));
}

}  // namespace

std::vector<Function*> take_kernel_targets(llvm::Module& m, const LoweringRequest& request,
                                           const std::set<Function*>& kernels) {
  const std::vector<Function*> targets = take_entry_targets(m, request);
  for (std::size_t n = 0; n < targets.size(); ++n) {
    if (kernels.count(targets[n]) == 0) {
      throw KernelNotFoundError(fmt::format(
          "kjit: '{}' in program '{}' is not a __global__ function (it is '{}'); only kernels "
          "can be launched",
          request.kernel_names[n], request.program, readable(targets[n]->getName())));
    }
  }
  return targets;
}

std::set<std::string> lower_entries(llvm::Module& m, const LoweringRequest& request,
                                    const std::vector<std::uint64_t>& static_shared_bytes,
                                    const std::vector<std::uint64_t>& max_threads) {
  Synchronisation sync;
  sync.barrier = users_of(m, {kBarrierWaitSymbol, kWarpWaitSymbol});
  sync.warp_users = users_of(m, {kWarpWaitSymbol});
  sync.warp_wait = m.getFunction(kWarpWaitSymbol);
  std::set<std::string> keep;
  for (std::size_t n = 0; n < request.kernel_names.size(); ++n) {
    lower_entry(m, request, sync, entry_of(m, request, n), static_shared_bytes[n], max_threads[n],
                keep);
  }
  return keep;
}

}  // namespace kjit::cpu::lowering
