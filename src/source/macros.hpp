// The macros a kernel file defines (#define), as the host-code analysis (device_reach.hpp) needs
// them: a macro that device code uses keeps what its replacement names, and a macro that spells
// an execution space (`#define DEVICE __host__ __device__`) marks the declarations that use it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kjit::source {

struct MacroDefinition {
  std::string_view name;
  std::string replacement;     // continued lines joined; comments left in
  bool function_like = false;  // NAME(params) replacement
};

/// Every #define of `text`, in every branch of its #ifs, in order.
std::vector<MacroDefinition> macro_definitions(std::string_view text);

}  // namespace kjit::source
