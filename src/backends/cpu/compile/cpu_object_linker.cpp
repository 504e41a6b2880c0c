#include "backends/cpu/compile/cpu_object_linker.hpp"

#include "backends/cpu/check/cpu_fault_signals.hpp"
#include "backends/cpu/run/cpu_runtime_symbols.hpp"
#include "backends/llvm/llvm_setup.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <llvm/DebugInfo/DIContext.h>
#include <llvm/DebugInfo/DWARF/DWARFContext.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/DebugObjectManagerPlugin.h>
#include <llvm/ExecutionEngine/Orc/EPCDebugObjectRegistrar.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/ExecutionEngine/Orc/TargetProcess/JITLoaderGDB.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include <unistd.h>

// libLLVM's list of the objects registered with gdb (JITLoaderGDB.cpp), where gdb reads them.
extern "C" jit_descriptor __jit_debug_descriptor;  // NOLINT(bugprone-reserved-identifier)

namespace kjit::cpu {

namespace {

std::string message_of(llvm::Error error) {
  return llvm::toString(std::move(error));
}

/// Appends "address size name" for every function of each linked object to /tmp/perf-<pid>.map,
/// the file where Linux perf looks up JIT-compiled code (KJIT_PERF_MAP=1). Lines are never
/// removed: perf reads the file after the process has ended.
class PerfMapPlugin : public llvm::orc::ObjectLinkingLayer::Plugin {
 public:
  void modifyPassConfig(llvm::orc::MaterializationResponsibility& /*mr*/,
                        llvm::jitlink::LinkGraph& /*graph*/,
                        llvm::jitlink::PassConfiguration& config) override {
    config.PostFixupPasses.emplace_back([](llvm::jitlink::LinkGraph& graph) {
      write(graph);
      return llvm::Error::success();
    });
  }
  llvm::Error notifyFailed(llvm::orc::MaterializationResponsibility& /*mr*/) override {
    return llvm::Error::success();
  }
  llvm::Error notifyRemovingResources(llvm::orc::JITDylib& /*dylib*/,
                                      llvm::orc::ResourceKey /*key*/) override {
    return llvm::Error::success();
  }
  void notifyTransferringResources(llvm::orc::JITDylib& /*dylib*/, llvm::orc::ResourceKey /*dst*/,
                                   llvm::orc::ResourceKey /*src*/) override {}

 private:
  static void write(llvm::jitlink::LinkGraph& graph) {
    static std::mutex mutex;
    const std::lock_guard lock(mutex);
    const std::string path = fmt::format("/tmp/perf-{}.map", ::getpid());
    std::FILE* file = std::fopen(path.c_str(), "a");
    if (file == nullptr) {
      detail::log().warn("KJIT_PERF_MAP: cannot write {}", path);
      return;
    }
    for (const llvm::jitlink::Symbol* symbol : graph.defined_symbols()) {
      if (symbol->isCallable() && symbol->hasName() && symbol->getSize() > 0) {
        fmt::print(file, "{:x} {:x} kjit:{}:{}\n", symbol->getAddress().getValue(),
                   symbol->getSize(), graph.getName(), symbol->getName().str());
      }
    }
    std::fclose(file);
  }
};

/// Tells the fault handler where each object's code lies (cpu_fault_signals.hpp): one range per
/// object, from its first to its last executable byte (JITLink places an object's segments in
/// one allocation).
class KernelCodePlugin : public llvm::orc::ObjectLinkingLayer::Plugin {
 public:
  void modifyPassConfig(llvm::orc::MaterializationResponsibility& mr,
                        llvm::jitlink::LinkGraph& /*graph*/,
                        llvm::jitlink::PassConfiguration& config) override {
    llvm::orc::ResourceKey key = 0;
    llvm::consumeError(mr.withResourceKeyDo([&](llvm::orc::ResourceKey k) { key = k; }));
    config.PostFixupPasses.emplace_back([this, key](llvm::jitlink::LinkGraph& graph) {
      add(key, graph);
      return llvm::Error::success();
    });
  }
  llvm::Error notifyFailed(llvm::orc::MaterializationResponsibility& mr) override {
    return mr.withResourceKeyDo([&](llvm::orc::ResourceKey key) { remove(key); });
  }
  llvm::Error notifyRemovingResources(llvm::orc::JITDylib& /*dylib*/,
                                      llvm::orc::ResourceKey key) override {
    remove(key);
    return llvm::Error::success();
  }
  void notifyTransferringResources(llvm::orc::JITDylib& /*dylib*/, llvm::orc::ResourceKey dst,
                                   llvm::orc::ResourceKey src) override {
    const std::lock_guard lock(mutex_);
    auto moved = ranges_.extract(src);
    if (!moved.empty()) {
      auto& to = ranges_[dst];
      to.insert(to.end(), moved.mapped().begin(), moved.mapped().end());
    }
  }

 private:
  void add(llvm::orc::ResourceKey key, llvm::jitlink::LinkGraph& graph) {
    std::uintptr_t begin = UINTPTR_MAX;
    std::uintptr_t end = 0;
    for (llvm::jitlink::Section& section : graph.sections()) {
      if ((static_cast<unsigned>(section.getMemProt()) &
           static_cast<unsigned>(llvm::orc::MemProt::Exec)) == 0) {
        continue;
      }
      for (const llvm::jitlink::Block* block : section.blocks()) {
        const std::uintptr_t at = block->getAddress().getValue();
        begin = std::min(begin, at);
        end = std::max(end, at + block->getSize());
      }
    }
    if (begin >= end) {
      return;
    }
    if (!add_kernel_code(begin, end)) {
      detail::log().warn(
          "more kernel objects are loaded than the fault handler can tell apart; "
          "a fault in '{}' will end the process",
          graph.getName());
      return;
    }
    const std::lock_guard lock(mutex_);
    ranges_[key].emplace_back(begin, end);
  }

  void remove(llvm::orc::ResourceKey key) {
    const std::lock_guard lock(mutex_);
    auto found = ranges_.find(key);
    if (found == ranges_.end()) {
      return;
    }
    for (const auto& [begin, end] : found->second) {
      remove_kernel_code(begin, end);
    }
    ranges_.erase(found);
  }

  std::mutex mutex_;
  std::map<llvm::orc::ResourceKey, std::vector<std::pair<std::uintptr_t, std::uintptr_t>>> ranges_;
};

}  // namespace

/// Registers objects that carry debug information (CompileOptions::debug) with gdb through its JIT
/// interface (__jit_debug_register_code, which libLLVM defines), so that gdb can stop in kernels
/// and name their lines. Objects without it cost nothing: LLVM's plugin would copy each one first.
class DebuggerPlugin : public llvm::orc::ObjectLinkingLayer::Plugin {
 public:
  explicit DebuggerPlugin(llvm::orc::ExecutionSession& session)
      : registrar_(
            session,
            std::make_unique<llvm::orc::EPCDebugObjectRegistrar>(
                session, llvm::orc::ExecutorAddr::fromPtr(&llvm_orc_registerJITLoaderGDBWrapper)),
            /*RequireDebugSections=*/true, /*AutoRegisterCode=*/true) {}

  /// Whether `dylib` holds an object gdb was told of: such objects stay loaded while the device
  /// lives, as gdb cannot be told that they left and would name new code at their addresses
  /// after them.
  bool registered(const llvm::orc::JITDylib& dylib) const {
    const std::lock_guard lock(mutex_);
    return dylibs_.count(&dylib) != 0;
  }

  void notifyMaterializing(llvm::orc::MaterializationResponsibility& mr,
                           llvm::jitlink::LinkGraph& graph, llvm::jitlink::JITLinkContext& context,
                           llvm::MemoryBufferRef object) override {
    if (graph.findSectionByName(".debug_info") == nullptr) {
      return;
    }
    {
      const std::lock_guard lock(mutex_);
      dylibs_.insert(&mr.getTargetJITDylib());
    }
    registrar_.notifyMaterializing(mr, graph, context, object);
  }
  void modifyPassConfig(llvm::orc::MaterializationResponsibility& mr,
                        llvm::jitlink::LinkGraph& graph,
                        llvm::jitlink::PassConfiguration& config) override {
    registrar_.modifyPassConfig(mr, graph, config);
  }
  llvm::Error notifyEmitted(llvm::orc::MaterializationResponsibility& mr) override {
    return registrar_.notifyEmitted(mr);
  }
  llvm::Error notifyFailed(llvm::orc::MaterializationResponsibility& mr) override {
    return registrar_.notifyFailed(mr);
  }
  llvm::Error notifyRemovingResources(llvm::orc::JITDylib& dylib,
                                      llvm::orc::ResourceKey key) override {
    return registrar_.notifyRemovingResources(dylib, key);
  }
  void notifyTransferringResources(llvm::orc::JITDylib& dylib, llvm::orc::ResourceKey dst,
                                   llvm::orc::ResourceKey src) override {
    registrar_.notifyTransferringResources(dylib, dst, src);
  }

 private:
  llvm::orc::DebugObjectManagerPlugin registrar_;
  mutable std::mutex mutex_;
  std::set<const llvm::orc::JITDylib*> dylibs_;
};

ObjectLinker::ObjectLinker(bool perf_map) {
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
  auto* layer = llvm::dyn_cast<llvm::orc::ObjectLinkingLayer>(&jit_->getObjLinkingLayer());
  if (layer != nullptr) {
    layer->addPlugin(std::make_unique<KernelCodePlugin>());
    auto debugger = std::make_unique<DebuggerPlugin>(jit_->getExecutionSession());
    debugger_ = debugger.get();
    layer->addPlugin(std::move(debugger));
  } else {
    detail::log().warn(
        "this LLVM links kernels without JITLink: a fault in a CPU kernel will end "
        "the process");
  }
  if (perf_map) {
    if (layer == nullptr) {
      throw BackendError(
          "kjit: KJIT_PERF_MAP=1 needs LLVM's JITLink, which this LLVM does not "
          "use for this host");
    }
    layer->addPlugin(std::make_unique<PerfMapPlugin>());
  }
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

std::optional<std::string> source_line_of(std::uintptr_t pc) {
  // The registered objects are ELF images with their sections at their load addresses; entries
  // are only ever added at the head, and kjit never removes its own (DebuggerPlugin).
  for (const jit_code_entry* entry = __jit_debug_descriptor.first_entry; entry != nullptr;
       entry = entry->next_entry) {
    const llvm::MemoryBufferRef image(llvm::StringRef(entry->symfile_addr, entry->symfile_size),
                                      "kjit-debug-object");
    auto object = llvm::object::ObjectFile::createObjectFile(image);
    if (!object) {
      llvm::consumeError(object.takeError());
      continue;
    }
    for (const llvm::object::SectionRef& section : (*object)->sections()) {
      if (!section.isText() || pc < section.getAddress() ||
          pc >= section.getAddress() + section.getSize()) {
        continue;
      }
      const auto dwarf = llvm::DWARFContext::create(**object);
      const llvm::DILineInfo line = dwarf->getLineInfoForAddress(
          {pc, section.getIndex()},
          llvm::DILineInfoSpecifier(llvm::DILineInfoSpecifier::FileLineInfoKind::RawValue,
                                    llvm::DILineInfoSpecifier::FunctionNameKind::ShortName));
      if (line.Line == 0) {
        return std::nullopt;
      }
      return fmt::format("{}:{} in {}", line.FileName, line.Line, line.FunctionName);
    }
  }
  return std::nullopt;
}

LinkedObject::LinkedObject(ObjectLinker& linker, llvm::orc::JITDylib& dylib, std::string name)
    : linker_(linker), dylib_(dylib), name_(std::move(name)) {}

LinkedObject::~LinkedObject() {
  if (linker_.debugger_ != nullptr && linker_.debugger_->registered(dylib_)) {
    detail::log().debug("'{}' stays loaded: gdb knows its code", name_);
    return;
  }
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
