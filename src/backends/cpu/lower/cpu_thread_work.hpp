// What a range entry runs (cpu_thread_ranges.hpp), recognised in a copy of a kernel's thread
// entry: the guard, index, bound and blocks of its grid-stride loop or of its one element per
// thread, and, for a loop, whether its accesses allow it to run flat.
#pragma once

#include <llvm/IR/InstrTypes.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class BasicBlock;
class Function;
class PHINode;
}  // namespace llvm

namespace kjit::cpu::thread_ranges {

using llvm::BasicBlock;
using llvm::Value;

// The thread entry's parameters.
constexpr unsigned kArgs = 0;
constexpr unsigned kBlock = 1;
constexpr unsigned kX = 2;
constexpr unsigned kY = 3;
constexpr unsigned kZ = 4;
// Byte offsets of kjit_cpu_block's fields: block_idx[3], block_dim[3], grid_dim[3].
constexpr std::int64_t kBlockIdxX = 0;
constexpr std::int64_t kBlockIdxY = 4;
constexpr std::int64_t kBlockDimX = 12;
constexpr std::int64_t kBlockDimY = 16;
constexpr std::int64_t kDimsEnd = 36;  // block_dim and grid_dim end here

/// The field of the block record that a 32-bit load `v` of `block` reads, as a byte offset.
std::optional<std::int64_t> block_field(const Value* v, const Value* block);

/// `value pred limit`: when a branch goes on into a loop. `also`: a further condition of the
/// branch (`if (j < m && i < n)`), which must be the same in every thread of a row; null if none.
struct Bound {
  llvm::CmpInst::Predicate pred = llvm::CmpInst::BAD_ICMP_PREDICATE;
  Value* limit = nullptr;
  Value* also = nullptr;
};

/// A load or store of a grid-stride loop's iteration, for flattening: at `base + i * size` (an
/// array indexed by the loop's index) or, with `indexed` clear, at `base` itself (`size` bytes).
struct MemoryAccess {
  Value* base = nullptr;
  std::uint64_t size = 0;
  bool indexed = false;
  bool store = false;
};

/// The work of a kernel that runs as ranges, found in the copy: a guard that goes `into` the work
/// when the thread's first index `start` is within `bound`, and the work's blocks, which leave
/// to `exit`. Either a grid-stride loop (`index` its header's phi) or, with no loop, the one
/// element a thread works on (`if (i < n) ...`).
struct Work {
  BasicBlock* guard = nullptr;
  BasicBlock* into = nullptr;  // the loop's preheader, or the element's first block
  BasicBlock* exit = nullptr;
  Value* start = nullptr;
  Bound bound;
  std::vector<BasicBlock*> body;  // the loop's or element's blocks, and paths that never return
  std::vector<std::pair<Value*, bool>> narrowed;
  // One element's work only: other values of the thread's index plus values a row shares (such as
  // `i - 1` kept from before the `+ 1` of `i`), which the element reads; each is the index plus
  // its difference from `start`.
  std::vector<Value*> derived;
  // A grid-stride loop only:
  llvm::PHINode* index = nullptr;
  BasicBlock* header = nullptr;
  BasicBlock* latch = nullptr;
  Value* step = nullptr;
  // When every access of the loop's iterations is to element `i` of an array, or to one address
  // every iteration shares (saxpy), the memory each access can touch; empty when any other
  // access keeps iterations from being flattened (flat_accesses).
  std::vector<MemoryAccess> accesses;
};

/// Finds the work of `f` (a copy of a thread entry, void(args, block, x, y, z)) that can run as
/// ranges, or says why there is none.
std::string find_work(llvm::Function& f, Work& out);

}  // namespace kjit::cpu::thread_ranges
