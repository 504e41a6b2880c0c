// Kernel names as users write them: "vadd", "ns::scale", "saxpy<float>", "tile<16, float>".
// Backends paste them into generated source, so they are checked here first.
#pragma once

#include <string>
#include <string_view>

namespace kjit::detail {

/// The name with surrounding blanks removed; UsageError when it is empty, too long, or holds
/// characters that cannot appear in a C++ id-expression with template arguments.
std::string validate_kernel_name(std::string_view name);

}  // namespace kjit::detail
