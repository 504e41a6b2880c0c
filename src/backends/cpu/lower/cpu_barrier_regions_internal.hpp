// What the files of the barrier split (cpu_barrier_regions.hpp) share, in the order a split runs:
// the waits found in the thread entry (cpu_region_discovery.cpp), the values kept across them
// (cpu_region_rematerialiser.cpp, cpu_thread_divergence.cpp), the kinds of memory a region
// touches (cpu_region_memory_spaces.cpp), the block's frame (cpu_region_frame.cpp), the regions
// (cpu_region_functions.cpp), the passes over a block's threads (cpu_block_passes.cpp, with
// the warp meetings' part in cpu_warp_meetings_lowering.cpp) and the block entry that runs them
// (cpu_block_driver.cpp). Internal to the CPU backend's lower/ folder.
#pragma once

#include "backends/cpu/lower/cpu_ir_loops.hpp"
#include "backends/cpu/lower/cpu_thread_guards.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/GlobalValue.h>
#include <llvm/IR/IRBuilder.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace kjit::cpu::barrier_split {

// The thread entry's parameters; region functions take the same, then kFrame..kUniformTid:
// the index of the thread whose slots hold the values the same in every thread (UniformSlot).
// A pass over all threads gives 0: they keep such a value once, not once per thread.
enum Param : unsigned { kArgs = 0, kBlock, kX, kY, kZ, kFrame, kThreads, kTid, kUniformTid };

// A region function returns the barrier its thread stopped at (1-based), or kEnded.
constexpr std::uint32_t kEnded = 0;
// The frame is cache-line aligned (CpuExecutor); every slot and snapshot keeps its alignment.
constexpr std::uint64_t kFrameAlign = 64;

// ---- The waits (cpu_region_discovery.cpp) ----

struct Barrier {
  llvm::BasicBlock* block;   // ends with the barrier call, then a branch to `resume`
  llvm::BasicBlock* resume;  // where the threads go on once all have arrived
  bool stop;                 // a loop stop (cpu_loop_stops.hpp), not a __syncthreads()
  bool warp;                 // where a warp's lanes meet (__kjit_warp_wait), not a __syncthreads()
};

/// The barriers, then where warps meet, then the loop stops: states 1..barriers are
/// __syncthreads(), the next `warps` states warp meetings, the states above them loop stops.
std::vector<Barrier> split_blocks_at(llvm::Function& f, llvm::Function& barrier,
                                     llvm::Function* warp, llvm::Function& stop);

/// For each wait k (index in `barriers`, state k + 1): whether a thread may have ended while
/// others wait there. A thread ends apart from the others only past a branch that may differ
/// between them, from which it reaches the kernel's end without a __syncthreads(); the others
/// can then wait at any wait that branch reaches. Elsewhere, when some threads have ended, all
/// have (cpu_region_discovery.cpp).
std::vector<bool> waits_after_divergent_ends(llvm::Function& f,
                                             const std::vector<Barrier>& barriers);

/// Decides which warp shuffles of `f` run with a warp's lanes in step (cpu_warp_lanes.cpp): those
/// with a full mask that every thread of the block reaches together, whose region LLVM can
/// vectorise; places a barrier before those whose threads come from another wait; makes every
/// other shuffle a warp meeting. `waits`: __syncthreads() (`barrier`), warp meetings, loop stops.
/// With `allowed` false, none. Returns how many run in step.
unsigned put_lanes_in_step(llvm::Function& f, llvm::Function& barrier,
                           const std::vector<llvm::Function*>& waits, bool allowed);

/// Whether region `g` holds a shuffle of lanes in step: only a pass over all threads, a warp's
/// lanes as vectors, may run it.
bool runs_lanes_in_step(const llvm::Function& g);

// ---- The values kept across barriers ----

/// A value the same in every thread, kept across a barrier: each thread stores it to its own
/// slot; a pass over the threads copies one thread's slot to the snapshot first, and the loads
/// that cannot see a store of this pass read the snapshot, which stays put during the pass.
struct UniformSlot {
  llvm::AllocaInst* slot;
  llvm::AllocaInst* snapshot;
};

/// Makes every value that crosses one of `barriers` either recomputed where it is used, or
/// stored in a stack slot (which becomes a frame slot) when it is defined and loaded where it is
/// used (cpu_region_discovery.cpp).
std::vector<UniformSlot> keep_values_across(llvm::Function& f,
                                            const std::vector<Barrier>& barriers);

/// Values every thread of a block can recompute after a barrier instead of keeping them: pure
/// arithmetic on the thread's coordinates, the block record and the kernel's arguments (which
/// no kernel can write). cpu_region_rematerialiser.cpp.
class Rematerialiser {
 public:
  explicit Rematerialiser(llvm::Function& f);

  bool can(llvm::Value* v, unsigned depth = 0);

  /// Marks the loads of memory no kernel writes as invariant, so that the optimiser may hoist
  /// them out of the loops over threads.
  void mark_invariant_loads(llvm::Function& f) const;

  /// A copy of `v`'s computation, placed before `where`.
  llvm::Value* copy_before(llvm::Value* v, llvm::Instruction* where);

 private:
  /// Memory no kernel writes: the block record, the argument pointer table, the arguments.
  bool invariant(llvm::Value* pointer) const;

  llvm::Value* args_;
  llvm::Value* block_;
  llvm::DenseMap<llvm::Instruction*, bool> known_;
};

/// What may differ between the threads of a block, conservatively: values (the thread's
/// coordinates and index, loads of memory kernels write, calls, addresses of locals, what depends
/// on them, and everything computed under a branch on them), and the blocks under such a branch,
/// up to where its arms join (where the join's phis differ too). The rest is the same in every
/// thread. In a region, a load from the frame is the same in every thread where its address is:
/// a snapshot, or thread 0's slot of a uniform value in a pass over all threads.
/// cpu_thread_divergence.cpp.
struct Divergence {
  std::set<const llvm::Value*> values;
  std::set<const llvm::BasicBlock*> blocks;
};

Divergence divergence_of(llvm::Function& f);

/// The condition `b` branches on (a conditional branch's or a switch's), or null.
const llvm::Value* branch_condition(const llvm::BasicBlock& b);

/// Whether every thread that runs `region` in a pass returns the same state: no return is under
/// a branch that may differ between threads.
bool returns_alike(llvm::Function& region);

// ---- The kinds of memory (cpu_region_memory_spaces.cpp) ----

/// Alias scopes for the kinds of memory a region touches: the block's shared memory, the frame
/// (what were the thread's locals, and their states), the frame's slots of uniform values, its
/// snapshots, and what the kernel's arguments point to. None overlaps another: a kernel argument
/// cannot point into shared memory or into kjit's frame, and the frame's parts lie apart. Without
/// them, a loop over threads that loads global memory at addresses that are not affine functions
/// of the thread, and stores shared memory or the frame, cannot be vectorised; and the one slot
/// that a pass over all threads keeps a uniform value in (kUniformTid) could be any thread's.
class MemorySpaces {
 public:
  MemorySpaces(llvm::Function& f, const std::vector<UniformSlot>& uniform);

  /// Adds scopes to every load, store and atomic of `f` whose memory is known.
  void annotate(llvm::Function& f) const;

  /// For kjit's own accesses to the threads' states.
  void annotate_frame_access(llvm::Instruction& i) const { set(i, Space::frame); }

  /// Inlining a region into its pass gives the region's scopes fresh copies; this puts the
  /// originals back, so that the pass's own accesses to the frame (the threads' states) are in
  /// the same scope as the region's, and known not to alias what the region reads elsewhere.
  void restore_after_inlining(llvm::Function& f) const;

 private:
  static constexpr const char* kDomain = "kjit.memory";

  // warp: the block's warp area (cpu_prelude_warp.h), which only warp-level operations touch.
  enum class Space { unknown, shared, frame, uniform, snapshot, warp, global };

  [[nodiscard]] llvm::MDNode* scope_of(Space space) const;
  /// The scopes of every known space but `space`.
  [[nodiscard]] llvm::MDNode* others(Space space) const;
  void set(llvm::Instruction& i, Space space) const;
  static void add(llvm::Instruction& i, llvm::MDNode* scope, llvm::MDNode* noalias);
  /// Whether `v` is a load from `base` plus a constant; its offset goes to `offset`.
  bool loaded_from(const llvm::Value* v, const llvm::Value* base, std::int64_t& offset) const;
  Space space_of(const llvm::Value* pointer) const;
  /// The original of a scope that inlining copied (restore_after_inlining), or `scope`.
  const llvm::MDNode* original(const llvm::MDNode* scope) const;

  const llvm::Value* args_;
  const llvm::Value* block_;
  const llvm::DataLayout& dl_;
  std::set<const llvm::Value*> snapshots_;
  std::set<const llvm::Value*> uniform_slots_;
  llvm::MDNode* shared_ = nullptr;
  llvm::MDNode* frame_ = nullptr;
  llvm::MDNode* uniform_ = nullptr;
  llvm::MDNode* snapshot_ = nullptr;
  llvm::MDNode* warp_ = nullptr;
};

// ---- The block's frame (cpu_region_frame.cpp) ----

/// A thread's slots: slot k of thread t is at frame + offset_k * threads + t * stride_k.
struct FrameSlot {
  llvm::AllocaInst* alloca;  // null for the thread's state
  std::uint64_t offset;
  std::uint64_t stride;
};

/// A uniform value's snapshot: one per block, after every thread's slots.
struct Snapshot {
  llvm::AllocaInst* alloca;
  std::size_t slot;  // index in FrameLayout::slots of the slot it copies
  std::uint64_t offset;
  std::uint64_t bytes;
};

struct FrameLayout {
  std::vector<FrameSlot> slots;
  FrameSlot state{};
  std::vector<Snapshot> snapshots;
  std::uint64_t thread_bytes = 0;      // per thread: the slots, then the state
  std::uint64_t bytes_per_thread = 0;  // what the executor reserves: also room for the snapshots

  /// Whether slot k keeps a value the same in every thread (it has a snapshot).
  [[nodiscard]] bool keeps_uniform(std::size_t k) const {
    return llvm::any_of(snapshots, [k](const Snapshot& s) { return s.slot == k; });
  }
};

FrameLayout lay_out_frame(llvm::Function& f, const std::vector<UniformSlot>& uniform);

llvm::Value* slot_address(llvm::IRBuilder<>& b, llvm::Value* frame, llvm::Value* threads,
                          llvm::Value* tid, const FrameSlot& slot);

llvm::Value* snapshot_address(llvm::IRBuilder<>& b, llvm::Value* frame, llvm::Value* threads,
                              const FrameLayout& layout, const Snapshot& snapshot);

// ---- The regions (cpu_region_functions.cpp) ----

/// Region r of `f`: a thread that starts at the entry (r = 0) or resumes after barrier r, and
/// runs to its next barrier (returns its number) or to its end (returns kEnded). With
/// `through_stops`, the thread goes on past loop stops, up to a barrier or its end. For each slot
/// in `affine` (indices in layout.slots), the region takes one more parameter, an i32 `base`,
/// and reads base + tid instead of what the thread kept in that slot (see AffineRegion).
/// `slots`, if given, receives the address of each of layout.slots in the region.
llvm::Function* make_region(llvm::Function& f, unsigned r, const std::vector<Barrier>& barriers,
                            const FrameLayout& layout, bool through_stops,
                            const std::vector<std::size_t>& affine = {},
                            std::vector<llvm::Value*>* slots = nullptr);

/// The slots of region r's own loads (in layout.slots) that may hold, in every thread, the
/// first thread's value plus the thread's index: a grid-stride loop's index at its stop. Only
/// i32 slots of values that differ between threads.
/// `slot_addresses` are the region's addresses of layout.slots (make_region's `slots`).
std::vector<std::size_t> affine_candidates(const std::vector<llvm::Value*>& slot_addresses,
                                           const FrameLayout& layout);

// ---- The passes over a block's threads and the block entry ----

enum class PassMode {
  all,      // every thread runs the region (inlined: the loop may be vectorised)
  any,      // each thread that has not ended runs the region it waits for (called)
  through,  // each thread at a loop stop runs on to its next barrier or its end (called)
  warp,     // each thread at a warp meeting runs on to its next barrier or its end (called)
};

/// A region that reads some kept i32 values as base + tid (make_region's `affine`), for the
/// passes in which every thread's kept value is the first thread's plus its index, checked when
/// the pass starts. In a grid-stride loop run in step, each thread's index is kept at the stop
/// as such a value: read that way, LLVM loads the threads' elements as a vector, not a gather.
struct AffineRegion {
  llvm::Function* region = nullptr;
  std::vector<std::size_t> slots;  // in FrameLayout::slots, one base parameter each
};

/// A kernel's regions: regions[r] starts at the entry (r = 0) or after barrier r; through[r],
/// for a loop stop r, goes on past stops (null for the others); affine[r], for a loop stop r,
/// as above (no region where no candidate slot is read). Of the regions that passes run over all
/// threads (those, the affine ones and the guards' copies): `guards`, those with a ThreadGuard;
/// `alike`, those whose threads all return the same state (returns_alike).
struct Regions {
  unsigned barriers = 0;  // states 1..barriers: __syncthreads()
  unsigned warps = 0;     // the next states: warp meetings; above them, loop stops
  std::vector<llvm::Function*> regions;
  std::vector<llvm::Function*> through;
  std::vector<AffineRegion> affine;
  std::map<const llvm::Function*, ThreadGuard> guards;
  std::set<const llvm::Function*> alike;
  // ends_apart[r - 1]: whether threads may have ended while others wait at state r
  // (waits_after_divergent_ends); where none may, a pass over the live threads alone never runs.
  std::vector<bool> ends_apart;
  // The regions with shuffles of lanes in step (runs_lanes_in_step).
  std::set<const llvm::Function*> in_step;

  /// Whether the kernel has a loop in step: then its blocks can take turns (cpu_abi.h).
  [[nodiscard]] bool has_stops() const {
    return llvm::any_of(through, [](const llvm::Function* g) { return g != nullptr; });
  }
};

/// The block of a pass over its threads a warp at a time (cpu_warp_passes.cpp): the pass, the
/// block's shape (x, y and z extents in i32, threads in i64), the access group of its loads and
/// stores.
struct WarpBlock {
  llvm::Function* pass;
  llvm::Value* nx;
  llvm::Value* ny;
  llvm::Value* nz;
  llvm::Value* threads;
  llvm::MDNode* accesses;
};

/// Runs `thread` (its x, y and z, the values carried) for every thread of the block, a warp's 32
/// lanes at a time in a loop LLVM vectorises 32 wide, its lanes the warp's: by rows when each row
/// holds whole warps (blockDim.x a multiple of 32, or one row), else dividing each thread's
/// coordinates out of its index. A partial last warp masks its missing lanes off.
using WarpThread = std::function<Carried(llvm::Value*, llvm::Value*, llvm::Value*, const Carried&)>;
Carried emit_warps(llvm::IRBuilder<>& b, const WarpBlock& block, const Carried& init,
                   const WarpThread& thread);

/// A new function in `f`'s module with `f`'s function attributes (target CPU and features: the
/// inliner merges only functions that agree on them). cpu_block_passes.cpp.
llvm::Function* function_like(llvm::Function& f, llvm::FunctionType* type,
                              llvm::GlobalValue::LinkageTypes linkage, const std::string& name);

/// One pass over the block's threads. Returns {min state, min state of threads that have not
/// ended, max state}; a state is the barrier a thread waits at, or kEnded. With `over_live`, the
/// pass takes two more parameters, the live threads' x: [first, end). cpu_block_passes.cpp.
llvm::Function* make_pass(llvm::Function& f, const Regions& code, unsigned r, PassMode mode,
                          const FrameLayout& layout, const MemorySpaces& spaces,
                          bool over_live = false);

/// The block entry `name`, void(args, block), that runs the passes of `code` until every thread
/// of the block has ended (cpu_block_driver.cpp).
llvm::Function* make_driver(llvm::Function& f, const Regions& code, const FrameLayout& layout,
                            const MemorySpaces& spaces, const std::string& name);

// ---- The warp meetings' part of a pass (cpu_warp_meetings_lowering.cpp) ----

/// Where a pass that runs the threads at warp meetings on finds which threads the runtime holds
/// (kjit_cpu_warp_release): their flags in the block's warp area (cpu_abi.h).
llvm::Value* emit_held_flags(llvm::IRBuilder<>& b, llvm::Value* block, llvm::Value* threads);

/// Whether a pass in `mode` runs the threads waiting in state `k` on: a warp pass holds the
/// threads at barriers (and at loop stops).
bool pass_runs_state(const Regions& code, PassMode mode, unsigned k);

/// The state a pass dispatches thread `tid` on: its `state`, or 0 (no region) where the runtime
/// holds it at its warp meeting (`held_flags`, emit_held_flags).
llvm::Value* emit_unless_held(llvm::IRBuilder<>& b, llvm::Value* held_flags, llvm::Value* tid,
                              llvm::Value* state);

/// Declares to LLVM what the warp round (__kjit_warp_round) of `m`, if any, reads.
void describe_warp_round(llvm::Module& m);

}  // namespace kjit::cpu::barrier_split
