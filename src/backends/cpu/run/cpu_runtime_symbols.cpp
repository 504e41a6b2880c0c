#include "backends/cpu/run/cpu_runtime_symbols.hpp"

#include "backends/cpu/check/cpu_memory_check.hpp"
#include "backends/cpu/run/cpu_fibers.hpp"
#include "backends/cpu/run/cpu_launch_failure.hpp"
#include "backends/cpu/run/cpu_warp_meetings.hpp"

#include <algorithm>
#include <array>

namespace kjit::cpu {

namespace {

// The C library functions device code may reach: those the prelude maps CUDA's math to (and
// LLVM's intrinsics lower to), memory functions the compiler emits, printf, and the helpers of
// libgcc that 128-bit arithmetic needs. Sorted, for binary search.
constexpr std::array kLibraryFunctions = std::to_array<std::string_view>({
    "__cxa_guard_abort",
    "__cxa_guard_acquire",
    "__cxa_guard_release",
    "__divti3",
    "__modti3",
    "__powidf2",
    "__powisf2",
    "__udivti3",
    "__umodti3",
    "acos",
    "acosf",
    "acosh",
    "acoshf",
    "asin",
    "asinf",
    "asinh",
    "asinhf",
    "atan",
    "atan2",
    "atan2f",
    "atanf",
    "atanh",
    "atanhf",
    "atexit",
    "calloc",
    "cbrt",
    "cbrtf",
    "ceil",
    "ceilf",
    "copysign",
    "copysignf",
    "cos",
    "cosf",
    "cosh",
    "coshf",
    "erf",
    "erfc",
    "erfcf",
    "erff",
    "exp",
    "exp10",
    "exp10f",
    "exp2",
    "exp2f",
    "expf",
    "expm1",
    "expm1f",
    "fabs",
    "fabsf",
    "fdim",
    "fdimf",
    "floor",
    "floorf",
    "fma",
    "fmaf",
    "fmax",
    "fmaxf",
    "fmin",
    "fminf",
    "fmod",
    "fmodf",
    "free",
    "frexp",
    "frexpf",
    "hypot",
    "hypotf",
    "ilogb",
    "ilogbf",
    "j0",
    "j1",
    "jn",
    "ldexp",
    "ldexpf",
    "lgamma_r",
    "lgammaf_r",
    "llrint",
    "llrintf",
    "llround",
    "llroundf",
    "log",
    "log10",
    "log10f",
    "log1p",
    "log1pf",
    "log2",
    "log2f",
    "logb",
    "logbf",
    "logf",
    "lrint",
    "lrintf",
    "lround",
    "lroundf",
    "malloc",
    "memcmp",
    "memcpy",
    "memmove",
    "memset",
    "modf",
    "modff",
    "nearbyint",
    "nearbyintf",
    "nextafter",
    "nextafterf",
    "pow",
    "powf",
    "printf",
    "putchar",
    "puts",
    "remainder",
    "remainderf",
    "remquo",
    "remquof",
    "rint",
    "rintf",
    "round",
    "roundf",
    "scalbln",
    "scalblnf",
    "scalbn",
    "scalbnf",
    "sin",
    "sincos",
    "sincosf",
    "sinf",
    "sinh",
    "sinhf",
    "sqrt",
    "sqrtf",
    "tan",
    "tanf",
    "tanh",
    "tanhf",
    "tgamma",
    "tgammaf",
    "trunc",
    "truncf",
    "y0",
    "y1",
    "yn",
});

static_assert(std::is_sorted(kLibraryFunctions.begin(), kLibraryFunctions.end()));

}  // namespace

std::vector<std::pair<std::string_view, void*>> runtime_functions() {
  std::vector<std::pair<std::string_view, void*>> out = {
      {kBarrierWaitSymbol, reinterpret_cast<void*>(&kjit_cpu_barrier_wait)},
      {kWarpWaitSymbol, reinterpret_cast<void*>(&kjit_cpu_warp_wait)},
      {kWarpReleaseSymbol, reinterpret_cast<void*>(&kjit_cpu_warp_release)},
      {kAssertFailedSymbol, reinterpret_cast<void*>(&kjit_cpu_assert_failed)},
      {kCheckAccessSymbol, reinterpret_cast<void*>(&kjit_cpu_check_access)},
      {kCheckSharedAccessSymbol, reinterpret_cast<void*>(&kjit_cpu_check_shared_access)},
      {kWarpLanesApartSymbol, reinterpret_cast<void*>(&kjit_cpu_warp_lanes_apart)}};
  // (Called with an exchange's arguments, which it ignores: it never returns.)
  for (std::string_view exchange : kWarpLaneExchangeSymbols) {
    out.emplace_back(exchange, reinterpret_cast<void*>(&kjit_cpu_warp_lanes_apart));
  }
  return out;
}

bool is_allowed_external(std::string_view name) {
  if (name == kBarrierWaitSymbol || name == kWarpWaitSymbol || name == kWarpReleaseSymbol ||
      name == kAssertFailedSymbol || name == kCheckAccessSymbol ||
      name == kCheckSharedAccessSymbol || name == kWarpLanesApartSymbol ||
      std::find(kWarpLaneExchangeSymbols.begin(), kWarpLaneExchangeSymbols.end(), name) !=
          kWarpLaneExchangeSymbols.end()) {
    return true;
  }
  return std::binary_search(kLibraryFunctions.begin(), kLibraryFunctions.end(), name);
}

}  // namespace kjit::cpu
