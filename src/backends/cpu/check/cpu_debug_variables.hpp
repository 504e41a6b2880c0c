// For a module compiled for a debugger (CompileOptions::debug): CUDA's builtins as variables gdb
// can read. The prelude's threadIdx is an empty object whose members are properties, which DWARF
// cannot describe; here each function that takes the running thread's context gets locals named
// threadIdx, blockIdx, blockDim and gridDim holding its values, so that `print threadIdx.x` and
// `break saxpy.cu:5 if threadIdx.x == 3` read the thread gdb stopped in.
#pragma once

#include <memory>

namespace llvm {
class DIBuilder;
class DICompositeType;
class Function;
class Module;
class Value;
}  // namespace llvm

namespace kjit::cpu {

class DebugThreadVariables {
 public:
  explicit DebugThreadVariables(llvm::Module& module);
  ~DebugThreadVariables();
  DebugThreadVariables(const DebugThreadVariables&) = delete;
  DebugThreadVariables& operator=(const DebugThreadVariables&) = delete;

  /// Adds the locals at the start of `function` (which has debug information; others are left
  /// alone), read from `context`: its kjit_cpu_thread, an argument.
  void add(llvm::Function& function, llvm::Value* context);

 private:
  llvm::DICompositeType* vector_type(const char* name);

  llvm::Module& module_;
  std::unique_ptr<llvm::DIBuilder> builder_;
  llvm::DICompositeType* uint3_ = nullptr;
  llvm::DICompositeType* dim3_ = nullptr;
};

}  // namespace kjit::cpu
