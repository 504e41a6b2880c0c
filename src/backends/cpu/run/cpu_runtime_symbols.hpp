// What JIT-compiled kernels may call outside their own program: kjit's CPU runtime, and a short
// list of C library functions (math, memory, printf). Anything else is a compile error that
// names the function, rather than a crash or a surprise at load time.
#pragma once

#include <array>
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
/// Whether a warp-level operation's lanes run in step (cpu_prelude_warp.h): kjit's lowering
/// replaces every call (cpu_warp_lanes.cpp); no kernel object calls it.
inline constexpr std::string_view kWarpInStepSymbol = "__kjit_warp_in_step";
/// An exchange between lanes in step (a shuffle, a vote, a reduction), whose vector forms
/// (cpu_warp_lane_forms.cpp) LLVM's loop vectoriser calls instead; a compile whose optimised code
/// still calls one outside the scalar loop LLVM keeps for when its checks fail is made again
/// without lanes in step (cpu_compiler.cpp). Those of that loop stop the kernel with an error
/// (the runtime's kjit_cpu_warp_lanes_apart).
inline constexpr std::string_view kWarpShfl32Symbol = "__kjit_warp_shfl32";
inline constexpr std::string_view kWarpShfl64Symbol = "__kjit_warp_shfl64";
inline constexpr std::string_view kWarpBallotSymbol = "__kjit_warp_ballot";
inline constexpr std::string_view kWarpReduceSymbol = "__kjit_warp_reduce32";
inline constexpr std::array<std::string_view, 4> kWarpLaneExchangeSymbols = {
    kWarpShfl32Symbol, kWarpShfl64Symbol, kWarpBallotSymbol, kWarpReduceSymbol};
/// What a pass calls where a thread would run a region made for a warp's lanes in step on its
/// own: the runtime stops the kernel with an internal error.
inline constexpr std::string_view kWarpLanesApartSymbol = "__kjit_warp_lanes_apart";
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
