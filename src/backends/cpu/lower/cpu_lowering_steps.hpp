// The steps of lower_kernels (cpu_kernel_lowering.hpp), each in a file of its own, and what they
// share. Internal to the lowering: cpu_kernel_lowering.cpp runs them in order.
//  - cpu_kernel_annotations.cpp: kjit's annotations (__global__, __shared__, launch bounds);
//  - cpu_shared_memory.cpp: __shared__ variables and the dynamic area as offsets in the block's
//    shared area;
//  - cpu_warp_synchronous.cpp: legacy warp-synchronous code's volatile stores kept in lockstep;
//  - cpu_thread_context.cpp: threadIdx & co. and shared slots read from the thread's context,
//    which is passed down from the entries to every function that needs it;
//  - cpu_kernel_entries.cpp: each kernel's entry (a loop over its threads, loops between its
//    barriers, ranges, or fibers) and its info record;
//  - cpu_symbol_linkage.cpp: what stays visible to the host, __device__ variables included.
#pragma once

#include "backends/cpu/lower/cpu_kernel_lowering.hpp"

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class AllocaInst;
class Function;
class GlobalVariable;
class Module;
}  // namespace llvm

namespace kjit::cpu::lowering {

inline constexpr const char* kContextFn = "__kjit_ctx";
inline constexpr const char* kBindFn = "__kjit_bind_ctx";
inline constexpr const char* kSlotFn = "__kjit_shared_slot";  // exists only during lowering

/// An IR name as the source spells it, for messages.
std::string readable(llvm::StringRef ir_name);

/// A compile error for code the CPU backend cannot run; `message` names the construct.
[[noreturn]] void unsupported(const LoweringRequest& request, const std::string& message);

/// The functions that call `f` (none for null).
std::set<llvm::Function*> callers_of(llvm::Function* f);

// cpu_kernel_annotations.cpp

struct Annotated {
  std::set<llvm::Function*> kernels;
  std::vector<llvm::GlobalVariable*> shared;
  std::map<llvm::Function*, std::uint64_t> max_threads;  // __launch_bounds__' first argument
};

/// kjit's annotations: which functions are __global__ (and with what launch bounds), which
/// variables __shared__.
Annotated read_global_annotations(llvm::Module& m);

/// Reads kjit's annotations and removes llvm.global.annotations, whose references would
/// otherwise look like functions whose address is taken.
Annotated take_global_annotations(llvm::Module& m);

/// The allocas of function-local __shared__ variables; removes every llvm.var.annotation.
std::vector<llvm::AllocaInst*> take_shared_allocas(llvm::Module& m);

// cpu_shared_memory.cpp

struct SharedMemory {
  llvm::Function* slot_fn = nullptr;        // __kjit_shared_slot(offset), until context threading
  std::vector<std::uint64_t> static_bytes;  // per kernel: where its dynamic area starts
};

/// Places every __shared__ variable (`shared`, the namespace-scope ones; the function-local ones,
/// taken from their annotations; the extern ones, request.dynamic_shared) in the block's shared
/// area; `reach`: what each kernel may run.
SharedMemory lay_out_shared_memory(llvm::Module& m, const LoweringRequest& request,
                                   const std::vector<std::set<llvm::Function*>>& reach,
                                   const std::vector<llvm::GlobalVariable*>& shared);

// cpu_warp_synchronous.cpp

/// A warp meeting around each volatile store to memory that may be shared.
void keep_volatile_stores_in_lockstep(llvm::Module& m);

// cpu_thread_context.cpp

/// Gives every function that needs the thread context (directly, or through a callee) an extra
/// trailing parameter carrying it, starting from the entries that bind it; resolves context
/// reads and the shared slots of `slot_fn`, and removes the lowering's own functions.
void pass_thread_context(llvm::Module& m, const LoweringRequest& request, llvm::Function* slot_fn);

// cpu_kernel_entries.cpp

/// The function that entry N was generated for (from __kjit_fn_N, which is then removed); throws
/// KernelNotFoundError for one that is not among `kernels`.
std::vector<llvm::Function*> take_kernel_targets(llvm::Module& m, const LoweringRequest& request,
                                                 const std::set<llvm::Function*>& kernels);

/// Keeps each kernel's entry that its synchronisation needs and adds its __kjit_info_N record
/// (`static_shared_bytes` and `max_threads`: entry N's). Returns the names to keep visible.
std::set<std::string> lower_entries(llvm::Module& m, const LoweringRequest& request,
                                    const std::vector<std::uint64_t>& static_shared_bytes,
                                    const std::vector<std::uint64_t>& max_threads);

// cpu_symbol_linkage.cpp

/// Adds the __device__ variables the host can find to `keep`.
void keep_device_variables(llvm::Module& m, std::set<std::string>& keep);

/// Makes every definition not in `keep` internal.
void internalize_all_but(llvm::Module& m, const std::set<std::string>& keep);

}  // namespace kjit::cpu::lowering
