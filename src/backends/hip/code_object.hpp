// AMD GPU code objects (ELF64, EM_AMDGPU, HSA code object v4 or later): checked and described
// without a GPU, from the ELF symbol table and the AMDGPU metadata note. The HIP backend takes a
// kernel's parameter layout from here (HIP has no call that reports it), and tests use it to
// check what hipRTC and LLVM produce.
#pragma once

#include "backends/kit/backend.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace kjit::hip {

struct CodeObjectKernel {
  std::string name;                        // "_Z4vaddPKfS0_Pfi"
  std::string symbol;                      // its kernel descriptor, "_Z4vaddPKfS0_Pfi.kd"
  std::vector<backend::ParamInfo> params;  // the kernel's own, without the hidden arguments
  std::size_t static_shared_bytes = 0;     // .group_segment_fixed_size
  std::size_t max_threads_per_block = 0;   // .max_flat_workgroup_size
};

struct CodeObject {
  std::string target;                 // "amdgcn-amd-amdhsa--gfx90a"
  std::vector<int> metadata_version;  // amdhsa.version: {1, 1} is code object v4, {1, 2} v5
  std::vector<std::string> symbols;   // every defined symbol
  std::vector<CodeObjectKernel> kernels;
  /// Pointer variables and the function each holds, from the dynamic relocations: how kjit
  /// learns the mangled name of the kernel a name expression resolved to.
  std::vector<std::pair<std::string, std::string>> pointers;

  /// The function the 8-byte variable `variable` points to; "" when none.
  [[nodiscard]] std::string pointee(const std::string& variable) const;

  [[nodiscard]] const CodeObjectKernel* kernel(const std::string& name) const;
  /// 4, 5 ...: the code object version amdhsa.version stands for.
  [[nodiscard]] int code_object_version() const;
};

inline constexpr std::uint16_t kEmAmdgpu = 224;

/// Reads a code object. BackendError naming `what` and the fault for anything that is not a
/// well-formed AMDGPU ELF with msgpack metadata.
CodeObject read_code_object(std::span<const std::uint8_t> bytes, const std::string& what);

}  // namespace kjit::hip
