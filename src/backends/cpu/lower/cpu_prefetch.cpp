#include "backends/cpu/lower/cpu_prefetch.hpp"

#include "backends/cpu/lower/cpu_loop_stops.hpp"

#include <llvm/ADT/StringRef.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kjit::cpu {

namespace {

// One family of functions per (read or write, bytes per thread): the scalar request
// "__kjit_ahead_r8" and its vector variants "__kjit_ahead_r8_L4N" (VF 4, the threads'
// addresses linear: the first lane's is passed) and "__kjit_ahead_r8_V4M" (any addresses,
// masked). LLVM's vectoriser finds them through the call's vector-function-abi-variant.
constexpr llvm::StringLiteral kPrefix = "__kjit_ahead_";
constexpr std::array<unsigned, 5> kWidths = {2, 4, 8, 16, 32};
constexpr std::array<char, 2> kMasks = {'N', 'M'};
// llvm.prefetch's locality: 3 is every level of cache (prefetcht0), 2 the second level and
// beyond (prefetcht1).
constexpr int kLocality = 2;

std::string scalar_name(bool write, std::uint64_t bytes) {
  return fmt::format("{}{}{}", kPrefix.str(), write ? 'w' : 'r', bytes);
}

/// Declares `name`, kept by llvm.compiler.used until lower_prefetches: the vectoriser looks a
/// variant up by name, and the optimiser drops unused declarations before it runs.
llvm::Function* declare(llvm::Module& m, const std::string& name, llvm::FunctionType* type) {
  if (llvm::Function* f = m.getFunction(name)) {
    return f;
  }
  llvm::Function* f = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name, m);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  f->addFnAttr(llvm::Attribute::WillReturn);
  // Not memory(none): the optimiser would delete a call whose result nobody uses.
  f->setMemoryEffects(llvm::MemoryEffects::inaccessibleMemOnly());
  llvm::appendToCompilerUsed(m, {f});
  return f;
}

/// The scalar request and its variants, and the attribute that lists them.
std::pair<llvm::Function*, std::string> request_function(llvm::Module& m, bool write,
                                                         std::uint64_t bytes) {
  llvm::LLVMContext& c = m.getContext();
  llvm::Type* ptr = llvm::PointerType::get(c, 0);
  llvm::Type* none = llvm::Type::getVoidTy(c);
  const std::string scalar = scalar_name(write, bytes);
  std::string variants;
  for (const unsigned vf : kWidths) {
    llvm::Type* mask = llvm::FixedVectorType::get(llvm::Type::getInt1Ty(c), vf);
    for (const char masked : kMasks) {
      // Linear first: the vectoriser takes the first variant whose parameters fit.
      for (const bool linear : {true, false}) {
        const std::string name = fmt::format("{}_{}{}{}", scalar, linear ? 'L' : 'V', vf, masked);
        std::vector<llvm::Type*> params{linear ? ptr : llvm::FixedVectorType::get(ptr, vf)};
        if (masked == 'M') {
          params.push_back(mask);
        }
        declare(m, name, llvm::FunctionType::get(none, params, false));
        const std::string parameter = linear ? fmt::format("l{}", bytes) : "v";
        variants += fmt::format("{}_ZGV_LLVM_{}{}{}_{}({})", variants.empty() ? "" : ",", masked,
                                vf, parameter, scalar, name);
      }
    }
  }
  return {declare(m, scalar, llvm::FunctionType::get(none, {ptr}, false)), variants};
}

struct Request {
  bool write = false;
  std::uint64_t bytes = 0;
  bool linear = false;
  unsigned lanes = 1;
};

/// What a request function's name says; nullopt for any other function.
std::optional<Request> parse(llvm::StringRef name) {
  if (!name.consume_front(kPrefix) || name.empty()) {
    return std::nullopt;
  }
  Request r;
  r.write = name.front() == 'w';
  name = name.drop_front();
  if (name.consumeInteger(10, r.bytes)) {
    return std::nullopt;
  }
  if (name.consume_front("_")) {
    r.linear = name.consume_front("L");
    if (!r.linear && !name.consume_front("V")) {
      return std::nullopt;
    }
    if (name.consumeInteger(10, r.lanes)) {
      return std::nullopt;
    }
  }
  return r;
}

}  // namespace

void prefetch_next_iteration(llvm::ScalarEvolution& se, const llvm::Loop& loop,
                             const std::vector<llvm::Instruction*>& accesses) {
  llvm::BasicBlock* preheader = loop.getLoopPreheader();
  if (preheader == nullptr) {
    return;
  }
  for (llvm::Instruction* access : accesses) {
    llvm::Module& m = *access->getModule();
    const llvm::DataLayout& dl = m.getDataLayout();
    const bool write = llvm::isa<llvm::StoreInst>(access);
    llvm::Value* pointer = llvm::getLoadStorePointerOperand(access);
    llvm::Type* type = accessed_type(*access);
    // As the loop-stop choice sees it: an index in 32-bit arithmetic counts as advancing by its
    // step (a prefetch of a wrong address costs a little time, nothing else).
    llvm::PredicatedScalarEvolution pse(se, const_cast<llvm::Loop&>(loop));  // NOLINT
    const llvm::SCEVAddRecExpr* rec = pse.getAsAddRec(pointer);
    llvm::SCEVExpander expander(se, dl, "kjit.ahead");
    if (rec == nullptr || rec->getLoop() != &loop || !rec->isAffine() ||
        !se.isLoopInvariant(rec->getStepRecurrence(se), &loop) ||
        !expander.isSafeToExpandAt(rec->getStepRecurrence(se), preheader->getTerminator())) {
      continue;
    }
    llvm::Value* step =
        expander.expandCodeFor(rec->getStepRecurrence(se), nullptr, preheader->getTerminator());
    llvm::IRBuilder<> b(access->getNextNode());
    // No inbounds: the next iteration's address may lie past the end of the array.
    llvm::Value* next =
        b.CreateGEP(b.getInt8Ty(), pointer, b.CreateSExtOrTrunc(step, b.getInt64Ty()));
    const auto [request, variants] =
        request_function(m, write, dl.getTypeStoreSize(type).getFixedValue());
    llvm::CallInst* call = b.CreateCall(request, {next});
    call->addFnAttr(llvm::Attribute::get(m.getContext(), "vector-function-abi-variant", variants));
  }
}

void lower_prefetches(llvm::Module& m) {
  std::vector<std::pair<llvm::Function*, Request>> requests;
  for (llvm::Function& f : m) {
    if (const std::optional<Request> r = parse(f.getName()); r && f.isDeclaration()) {
      requests.emplace_back(&f, *r);
    }
  }
  if (requests.empty()) {
    return;
  }
  llvm::removeFromUsedLists(m, [](llvm::Constant* c) { return c->getName().starts_with(kPrefix); });
  for (const auto& [f, r] : requests) {
    for (llvm::User* user : llvm::make_early_inc_range(f->users())) {
      auto* call = llvm::dyn_cast<llvm::CallInst>(user);
      if (call == nullptr) {
        continue;
      }
      llvm::IRBuilder<> b(call);
      llvm::Value* at = call->getArgOperand(0);
      // The first thread's line and, where the vector's elements run on past it, the line of
      // the last thread's element were the threads' addresses consecutive. Where they may not be
      // (a vector of addresses), the others go unasked: taking each lane's address from the
      // vector cost more instructions than the prefetch saved.
      llvm::Value* first =
          r.linear || r.lanes == 1 ? at : b.CreateExtractElement(at, std::uint64_t{0});
      const std::array<llvm::Value*, 2> lines{
          first, r.lanes == 1
                     ? nullptr
                     : b.CreateGEP(b.getInt8Ty(), first, b.getInt64((r.lanes - 1) * r.bytes))};
      for (llvm::Value* line : lines) {
        if (line != nullptr) {
          // Into the second level of cache and beyond (prefetcht1), as data. With the array in
          // memory, requests into the first level made the pass slower (docs/benchmarks.md): each
          // holds one of the core's few first-level miss buffers until its line arrives, which
          // likely capped how many lines a core had in flight. The pass's loads find the line in
          // the second level.
          b.CreateIntrinsic(
              llvm::Intrinsic::prefetch, {line->getType()},
              {line, b.getInt32(r.write ? 1 : 0), b.getInt32(kLocality), b.getInt32(1)});
        }
      }
      call->eraseFromParent();
    }
    f->removeDeadConstantUsers();
    if (f->use_empty()) {
      f->eraseFromParent();
    }
  }
}

}  // namespace kjit::cpu
