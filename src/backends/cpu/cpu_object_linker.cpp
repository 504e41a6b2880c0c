#include "backends/cpu/cpu_object_linker.hpp"

#include "backends/cpu/cpu_runtime_symbols.hpp"
#include "backends/llvm/llvm_setup.hpp"
#include "jit/logging.hpp"

#include <kjit/error.hpp>

#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <fmt/format.h>

#include <atomic>

namespace kjit::cpu {

namespace {

std::string message_of(llvm::Error error) {
  return llvm::toString(std::move(error));
}

}  // namespace

ObjectLinker::ObjectLinker() {
  llvm_setup::initialize_targets();
  // No process symbols (kernels see only what runtime_ exposes) and no platform runtime: kernel
  // objects have no static initialisers or thread-locals to set up.
  auto jit = llvm::orc::LLJITBuilder()
                 .setLinkProcessSymbolsByDefault(false)
                 .setPlatformSetUp(llvm::orc::setUpInactivePlatform)
                 .create();
  if (!jit) {
    throw BackendError("kjit: cannot start LLVM ORC for the CPU backend: " +
                       message_of(jit.takeError()));
  }
  jit_ = std::move(*jit);
  jit_->getExecutionSession().setErrorReporter([](llvm::Error error) {
    detail::log().error("CPU backend linker: {}", message_of(std::move(error)));
  });

  auto runtime = jit_->getExecutionSession().createJITDylib("kjit.runtime");
  if (!runtime) {
    throw BackendError("kjit: cannot create the CPU runtime library: " +
                       message_of(runtime.takeError()));
  }
  runtime_ = &*runtime;
  llvm::orc::SymbolMap symbols;
  for (const auto& [name, address] : runtime_functions()) {
    symbols[jit_->mangleAndIntern(name)] = {
        llvm::orc::ExecutorAddr::fromPtr(address),
        llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  }
  if (auto error = runtime_->define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
    throw BackendError("kjit: cannot define the CPU runtime symbols: " +
                       message_of(std::move(error)));
  }
  auto library = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      jit_->getDataLayout().getGlobalPrefix(),
      [](const llvm::orc::SymbolStringPtr& name) { return is_allowed_external(*name); });
  if (!library) {
    throw BackendError("kjit: cannot search this process for C library symbols: " +
                       message_of(library.takeError()));
  }
  runtime_->addGenerator(std::move(*library));
}

ObjectLinker::~ObjectLinker() = default;

std::shared_ptr<LinkedObject> ObjectLinker::load(std::span<const std::uint8_t> object,
                                                 const std::string& name) {
  static std::atomic<std::uint64_t> counter{0};
  const std::string dylib_name = fmt::format("kjit.object.{}", counter.fetch_add(1));
  auto dylib = jit_->getExecutionSession().createJITDylib(dylib_name);
  if (!dylib) {
    throw BackendError(
        fmt::format("kjit: cannot load '{}' on the CPU: {}", name, message_of(dylib.takeError())));
  }
  dylib->addToLinkOrder(*runtime_);
  const llvm::StringRef bytes(reinterpret_cast<const char*>(object.data()), object.size());
  if (auto error = jit_->addObjectFile(*dylib, llvm::MemoryBuffer::getMemBufferCopy(bytes, name))) {
    const std::string why = message_of(std::move(error));
    llvm::consumeError(jit_->getExecutionSession().removeJITDylib(*dylib));
    throw BackendError(fmt::format("kjit: cannot load '{}' on the CPU: {}", name, why));
  }
  return std::make_shared<LinkedObject>(*this, *dylib, name);
}

LinkedObject::LinkedObject(ObjectLinker& linker, llvm::orc::JITDylib& dylib, std::string name)
    : linker_(linker), dylib_(dylib), name_(std::move(name)) {}

LinkedObject::~LinkedObject() {
  if (auto error = linker_.jit_->getExecutionSession().removeJITDylib(dylib_)) {
    detail::log().warn("unloading '{}' from the CPU: {}", name_, message_of(std::move(error)));
  }
}

void* LinkedObject::find(std::string_view symbol) const {
  auto address = linker_.jit_->lookup(dylib_, symbol);
  if (address) {
    return address->toPtr<void*>();
  }
  std::string why;
  bool missing = false;
  llvm::handleAllErrors(
      address.takeError(),
      [&](const llvm::orc::SymbolsNotFound& e) {
        // Our own symbol absent is a plain "no"; anything else unresolved is a link failure.
        missing = e.getSymbols().size() == 1 && (*e.getSymbols().front()).str() == symbol;
        why = e.message();
      },
      [&](const llvm::ErrorInfoBase& e) { why = e.message(); });
  if (missing) {
    return nullptr;
  }
  throw BackendError(fmt::format("kjit: cannot link '{}' on the CPU: {}", name_, why));
}

}  // namespace kjit::cpu
