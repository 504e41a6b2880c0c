// What JIT-compiled kernels may call outside their own program: kjit's CPU runtime, and a short
// list of C library functions (math, memory, printf). Anything else is a compile error that
// names the function, rather than a crash or a surprise at load time.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

namespace kjit::cpu {

/// The runtime function __syncthreads() calls (cpu_abi.h).
inline constexpr std::string_view kBarrierWaitSymbol = "__kjit_barrier_wait";
/// The runtime function where a warp's lanes meet, on fibers (cpu_abi.h).
inline constexpr std::string_view kWarpWaitSymbol = "__kjit_warp_wait";
/// The runtime function a block entry split at its barriers calls before the threads waiting at
/// warp meetings go on (cpu_abi.h, cpu_warp_meetings.hpp).
inline constexpr std::string_view kWarpReleaseSymbol = "__kjit_warp_release";
/// The block's round of warp meetings (cpu_prelude_warp.h): kjit's lowering replaces every call
/// (cpu_pass_versions.hpp); no kernel object calls it.
inline constexpr std::string_view kWarpRoundSymbol = "__kjit_warp_round";
/// A fixed block's blockDim in a specialised variant (cpu_prelude.h): kjit's lowering replaces
/// every call (cpu_kernel_lowering.cpp); no kernel object calls it.
inline constexpr std::string_view kFixedDimSymbol = "__kjit_fixed_dim";
/// The runtime function a failed assert() calls (cpu_launch_failure.hpp).
inline constexpr std::string_view kAssertFailedSymbol = "__kjit_assert_failed";
/// The runtime function checked kernels call before each access (cpu_memory_check.hpp).
inline constexpr std::string_view kCheckAccessSymbol = "__kjit_check_access";
/// The same for an access to a __shared__ variable the compiler knows (its bounds as well).
inline constexpr std::string_view kCheckSharedAccessSymbol = "__kjit_check_shared_access";

/// kjit's own runtime functions, by the name kernels call them.
std::vector<std::pair<std::string_view, void*>> runtime_functions();

/// True for a runtime function or an allowed C library function.
bool is_allowed_external(std::string_view name);

}  // namespace kjit::cpu
