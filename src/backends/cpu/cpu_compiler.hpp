// The CPU backend's compile pipeline: Clang front end -> kjit lowering -> O3 -> object file.
#pragma once

#include "backends/backend.hpp"
#include "backends/cpu/cpu_host_target.hpp"

#include <string>

namespace kjit::cpu {

/// Compiles a program for `target`; `device` names the device in messages.
backend::Binary compile_program(const backend::CompileRequest& request, const HostTarget& target,
                                const std::string& device);

}  // namespace kjit::cpu
