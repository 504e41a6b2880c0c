// Loads compiled kernel objects into this process with LLVM ORC (JITLink). Each object gets its
// own JITDylib, linked only against kjit's CPU runtime and the allowed C library functions, and
// is unloaded when its last user lets go (unless gdb was told of it: CompileOptions::debug).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace llvm::orc {
class LLJIT;
class JITDylib;
}  // namespace llvm::orc

namespace kjit::cpu {

class ObjectLinker;
class DebuggerPlugin;

/// One loaded object. Its code stays mapped while this lives.
class LinkedObject {
 public:
  LinkedObject(ObjectLinker& linker, llvm::orc::JITDylib& dylib, std::string name);
  LinkedObject(const LinkedObject&) = delete;
  LinkedObject& operator=(const LinkedObject&) = delete;
  ~LinkedObject();

  /// The address of `symbol`, or nullptr when the object has none. Links the object on first
  /// use; throws BackendError when that fails (an undefined symbol, say).
  [[nodiscard]] void* find(std::string_view symbol) const;
  [[nodiscard]] const std::string& name() const noexcept { return name_; }

 private:
  ObjectLinker& linker_;
  llvm::orc::JITDylib& dylib_;
  std::string name_;
};

/// "faults.cu:7 in wild_write": the source line of the instruction at `pc`, when it lies in a
/// kernel object compiled with debug information (CompileOptions::debug); else nullopt.
std::optional<std::string> source_line_of(std::uintptr_t pc);

class ObjectLinker {
 public:
  /// perf_map: append every loaded function to /tmp/perf-<pid>.map, for Linux perf.
  explicit ObjectLinker(bool perf_map);
  ObjectLinker(const ObjectLinker&) = delete;
  ObjectLinker& operator=(const ObjectLinker&) = delete;
  ~ObjectLinker();

  /// Adds an object file; `name` (the program) is used in messages. Throws BackendError.
  std::shared_ptr<LinkedObject> load(std::span<const std::uint8_t> object, const std::string& name);

 private:
  friend class LinkedObject;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  llvm::orc::JITDylib* runtime_ = nullptr;
  DebuggerPlugin* debugger_ = nullptr;  // owned by jit_'s linking layer; null without JITLink
};

}  // namespace kjit::cpu
