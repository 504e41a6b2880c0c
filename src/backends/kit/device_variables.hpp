// The namespace-scope device variables (__device__, __constant__) a compiled program holds,
// read from its binary: what Program::symbol looks up by the name the source gives them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::backend {

struct DeviceVariable {
  std::string symbol;  // as the binary spells it: "c_Kernel", "_ZN2ns5tableE", "_ZL4bias"
  std::string name;    // as the source spells it: "c_Kernel", "ns::table", "bias"
  std::size_t size = 0;
};

/// The defined data objects of an ELF64 file (a host object, a cubin, a code object), less
/// those no source names (compiler-made, kjit's own, function-local statics, type info).
/// Empty when `bytes` are not an ELF64 file.
std::vector<DeviceVariable> elf_device_variables(std::span<const std::uint8_t> bytes);

/// The same from PTX text: its .global and .const variables, sized by their declarations.
std::vector<DeviceVariable> ptx_device_variables(std::string_view ptx);

/// The source's spelling of a variable symbol: demangled, without the anonymous or internal
/// namespaces a static variable is given. Empty for a symbol no source names.
std::string device_variable_name(std::string_view symbol);

}  // namespace kjit::backend
