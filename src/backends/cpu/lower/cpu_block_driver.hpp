// The builder of a split kernel's block entry (make_driver, cpu_barrier_regions_internal.hpp),
// internal to the barrier split: cpu_block_driver.cpp builds the entry, and
// cpu_warp_meetings_lowering.cpp its part for the warp meetings.
#pragma once

#include "backends/cpu/lower/cpu_barrier_regions_internal.hpp"
#include "backends/cpu/lower/cpu_ir_loops.hpp"

#include <llvm/IR/IRBuilder.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace kjit::cpu::barrier_split {

/// The block entry: region 0 for every thread, then, while any thread waits at a barrier, the
/// region after it (all threads at one barrier or stop, the common case); otherwise, the threads
/// at loop stops run on to their next barrier, then those at warp meetings (while any is), and
/// only then each thread its own region: a thread at a __syncthreads() waits until every thread
/// of the block is at one or has ended.
/// A kernel with loop stops can take turns with other blocks (kjit_cpu_block.yield): after a pass
/// that leaves every thread at one stop, it keeps the pass's outcome in the block record and
/// returns; called with `resume` set, it goes on from that outcome.
class BlockDriver {
 public:
  BlockDriver(llvm::Function& f, const Regions& code, const FrameLayout& layout,
              const MemorySpaces& spaces);

  llvm::Function* build(const std::string& name);

 private:
  // cpu_block_driver.cpp
  llvm::Value* field(llvm::Type* t, std::size_t offset, const char* what);
  void emit_entry(const std::string& name);
  void resume_or_start();
  void read_states();
  void yield_or_check();
  void share_uniform(llvm::Value* skip);
  llvm::Function* pass(unsigned r, PassMode mode, bool over_live = false);
  void call_pass(unsigned r, PassMode mode);
  void passes_by_state();
  void finish();
  void keep_large_passes_apart();
  // cpu_warp_meetings_lowering.cpp
  void next_round(PassMode mode);
  void pass_over_live_threads();
  Carried live_range();
  void to_warp_meetings();

  // After a pass in which each thread keeps its own uniform values: no thread holds them alone.
  static constexpr std::uint64_t kNoHolder = std::numeric_limits<std::uint64_t>::max();

  llvm::Function& f_;
  const Regions& code_;
  const FrameLayout& layout_;
  const MemorySpaces& spaces_;
  const unsigned barriers_;  // the states below the stops
  llvm::LLVMContext& ctx_;
  llvm::PointerType* ptr_;
  llvm::IntegerType* i32_;
  llvm::IntegerType* i64_;
  llvm::IRBuilder<> b_;
  llvm::Function* driver_ = nullptr;
  llvm::Value* args_ = nullptr;
  llvm::Value* block_ = nullptr;
  llvm::Value* nx_ = nullptr;
  llvm::Value* ny_ = nullptr;
  llvm::Value* nz_ = nullptr;
  llvm::Value* frame_ = nullptr;
  llvm::Value* warp_area_ = nullptr;
  llvm::Value* threads_ = nullptr;
  llvm::BasicBlock* start_ = nullptr;
  llvm::BasicBlock* loop_ = nullptr;
  llvm::BasicBlock* done_ = nullptr;
  bool can_yield_ = false;
  llvm::StructType* states_type_ = nullptr;
  llvm::Value* resume_flag_ = nullptr;
  llvm::Value* saved_states_ = nullptr;
  llvm::BasicBlock* resume_ = nullptr;
  llvm::BasicBlock* first_ = nullptr;
  // (block, states, whether the driver may yield after them, the thread whose slots alone keep
  // the uniform values after a pass over all threads (thread 0) or over the live ones (the first
  // of them), kNoHolder after passes in which each thread keeps its own)
  std::vector<std::tuple<llvm::BasicBlock*, llvm::Value*, bool, llvm::Value*>> incoming_;
  std::vector<llvm::Function*> passes_;  // those it calls (make_pass), each once
  llvm::BasicBlock* check_ = nullptr;
  llvm::BasicBlock* same_ = nullptr;
  llvm::BasicBlock* mixed_ = nullptr;
  llvm::BasicBlock* through_ = nullptr;
  llvm::BasicBlock* any_ = nullptr;
  llvm::PHINode* result_ = nullptr;
  llvm::PHINode* may_yield_ = nullptr;
  llvm::PHINode* holder_ = nullptr;
  llvm::Value* min_all_ = nullptr;
  llvm::Value* min_live_ = nullptr;
  llvm::Value* max_ = nullptr;
};

}  // namespace kjit::cpu::barrier_split
