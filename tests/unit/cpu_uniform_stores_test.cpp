// A pass's loop over threads in which some threads store a value the same for all of them into
// the frame (cpu_uniform_stores.hpp): the store leaves the loop, made once if any thread made it,
// and only where nothing else in the loop can see the difference.
#include "backends/cpu/lower/cpu_uniform_stores.hpp"

#include <gtest/gtest.h>

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <memory>
#include <string>

namespace kjit {
namespace {

// A loop over threads as make_pass builds one: the threads whose element is negative store 16
// into the frame (@BODY@ is replaced by each test). Its id lists parallel accesses.
constexpr const char* kPass = R"(
define void @pass(ptr %frame, ptr %other, i64 %n) {
entry:
  %slot = getelementptr inbounds i8, ptr %frame, i64 64
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %p = getelementptr inbounds i32, ptr %other, i64 %i
  %x = load i32, ptr %p, !llvm.access.group !1
  %c = icmp slt i32 %x, 0
  br i1 %c, label %leave, label %latch
leave:
  @BODY@
  br label %latch
latch:
  %i.next = add nuw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !0
exit:
  ret void
}
!0 = distinct !{!0, !2}
!1 = distinct !{}
!2 = !{!"llvm.loop.parallel_accesses", !1}
)";

struct Result {
  unsigned moved = 0;
  unsigned stores_of_16_in_loop = 0;
  unsigned stores_of_16_after = 0;
  std::string ir;
};

/// Runs sink_uniform_stores on kPass with `body`, and counts where the stores of 16 are.
Result sink(const std::string& body, const char* loop_id = ", !llvm.loop !0") {
  std::string text = kPass;
  text.replace(text.find("@BODY@"), 6, body);
  text.replace(text.find(", !llvm.loop !0"), 15, loop_id);
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(text, error, context);
  EXPECT_NE(m, nullptr) << error.getMessage().str();
  if (m == nullptr) {
    return {};
  }
  llvm::Function& pass = *m->getFunction("pass");
  Result r;
  r.moved = cpu::sink_uniform_stores(pass, pass.getArg(0));
  std::string verify;
  llvm::raw_string_ostream out(verify);
  EXPECT_FALSE(llvm::verifyFunction(pass, &out)) << out.str();
  for (llvm::BasicBlock& block : pass) {
    const bool in_loop =
        block.getName() == "loop" || block.getName() == "leave" || block.getName() == "latch";
    for (llvm::Instruction& i : block) {
      const auto* store = llvm::dyn_cast<llvm::StoreInst>(&i);
      const auto* value =
          store != nullptr ? llvm::dyn_cast<llvm::ConstantInt>(store->getValueOperand()) : nullptr;
      if (value != nullptr && value->getBitWidth() == 32 && value->getZExtValue() == 16) {
        ++(in_loop ? r.stores_of_16_in_loop : r.stores_of_16_after);
      }
    }
  }
  llvm::raw_string_ostream printed(r.ir);
  pass.print(printed);
  return r;
}

TEST(CpuUniformStores, AStoreOfOneValueIntoTheFrameLeavesTheLoop) {
  const Result r = sink("store i32 16, ptr %slot, !llvm.access.group !1");
  EXPECT_EQ(r.moved, 1U) << r.ir;
  EXPECT_EQ(r.stores_of_16_in_loop, 0U) << r.ir;
  EXPECT_EQ(r.stores_of_16_after, 1U) << r.ir;
  // Made only if a thread made it: behind a test after the loop.
  EXPECT_NE(r.ir.find("kjit.any_stored"), std::string::npos) << r.ir;
}

TEST(CpuUniformStores, AStoreTheLoopAlsoReadsStays) {
  const Result r = sink(
      "store i32 16, ptr %slot, !llvm.access.group !1\n"
      "  %back = load volatile i32, ptr %slot");
  EXPECT_EQ(r.moved, 0U) << r.ir;
  EXPECT_EQ(r.stores_of_16_in_loop, 1U) << r.ir;
}

TEST(CpuUniformStores, AStoreOfAValueThatChangesStays) {
  const Result r = sink("store i32 %x, ptr %slot, !llvm.access.group !1");
  EXPECT_EQ(r.moved, 0U) << r.ir;
}

TEST(CpuUniformStores, AStoreOutsideTheFrameStays) {
  // Through a pointer of the kernel's: another block's threads may be reading it.
  const Result r = sink("store i32 16, ptr %other, !llvm.access.group !1");
  EXPECT_EQ(r.moved, 0U) << r.ir;
  EXPECT_EQ(r.stores_of_16_in_loop, 1U) << r.ir;
}

TEST(CpuUniformStores, AStoreTheLoopAlsoMakesWithAnotherValueStays) {
  const Result r = sink(
      "store i32 16, ptr %slot, !llvm.access.group !1\n"
      "  store i32 8, ptr %slot, !llvm.access.group !1");
  EXPECT_EQ(r.moved, 0U) << r.ir;
}

TEST(CpuUniformStores, ALoopThatIsNotOverThreadsIsLeftAlone) {
  const Result r = sink("store i32 16, ptr %slot", "");
  EXPECT_EQ(r.moved, 0U) << r.ir;
  EXPECT_EQ(r.stores_of_16_in_loop, 1U) << r.ir;
}

}  // namespace
}  // namespace kjit
