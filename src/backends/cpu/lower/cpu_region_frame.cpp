// The block's frame: where the threads of a split kernel keep their values across barriers, one
// slot per value, thread-major within a slot, then the snapshots of the uniform values.
#include "backends/cpu/lower/cpu_barrier_regions_internal.hpp"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MathExtras.h>

#include <algorithm>
#include <optional>

namespace kjit::cpu::barrier_split {

using llvm::AllocaInst;
using llvm::Value;

FrameLayout lay_out_frame(llvm::Function& f, const std::vector<UniformSlot>& uniform) {
  const llvm::DataLayout& dl = f.getParent()->getDataLayout();
  FrameLayout layout;
  std::uint64_t cursor = 0;
  const auto place = [&](AllocaInst* a, std::uint64_t size, std::uint64_t align) {
    cursor = llvm::alignTo(cursor, align);
    const FrameSlot slot{a, cursor, llvm::alignTo(size, align)};
    cursor += slot.stride;
    return slot;
  };
  const auto size_of = [&](AllocaInst* a) {
    const std::optional<llvm::TypeSize> size = a->getAllocationSize(dl);
    return std::max<std::uint64_t>(size && !size->isScalable() ? size->getFixedValue() : 0, 1);
  };
  const auto is_snapshot = [&](AllocaInst* a) {
    return llvm::any_of(uniform, [a](const UniformSlot& u) { return u.snapshot == a; });
  };
  for (llvm::Instruction& i : f.getEntryBlock()) {
    if (auto* a = llvm::dyn_cast<AllocaInst>(&i); a != nullptr && !is_snapshot(a)) {
      layout.slots.push_back(place(a, size_of(a), a->getAlign().value()));
    }
  }
  layout.state = place(nullptr, sizeof(std::uint32_t), alignof(std::uint32_t));
  layout.thread_bytes = llvm::alignTo(cursor, kFrameAlign);
  cursor = 0;
  for (const UniformSlot& u : uniform) {
    const auto slot = static_cast<std::size_t>(
        llvm::find_if(layout.slots, [&](const FrameSlot& s) { return s.alloca == u.slot; }) -
        layout.slots.begin());
    const FrameSlot placed = place(u.snapshot, size_of(u.snapshot), u.snapshot->getAlign().value());
    layout.snapshots.push_back({u.snapshot, slot, placed.offset, placed.stride});
  }
  layout.bytes_per_thread = layout.thread_bytes + llvm::alignTo(cursor, kFrameAlign);
  return layout;
}

Value* slot_address(llvm::IRBuilder<>& b, Value* frame, Value* threads, Value* tid,
                    const FrameSlot& slot) {
  Value* offset = b.CreateAdd(b.CreateMul(b.getInt64(slot.offset), threads),
                              b.CreateMul(tid, b.getInt64(slot.stride)));
  return b.CreateInBoundsGEP(b.getInt8Ty(), frame, offset);
}

Value* snapshot_address(llvm::IRBuilder<>& b, Value* frame, Value* threads,
                        const FrameLayout& layout, const Snapshot& snapshot) {
  Value* offset = b.CreateAdd(b.CreateMul(b.getInt64(layout.thread_bytes), threads),
                              b.getInt64(snapshot.offset));
  return b.CreateInBoundsGEP(b.getInt8Ty(), frame, offset);
}

}  // namespace kjit::cpu::barrier_split
