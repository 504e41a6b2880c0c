// One kernel per header kjit gives kernels (src/backends/kernel_headers): it includes the header
// and uses what it declares, writing values a host computation with the real C and C++ library
// gives too. The API suite runs them on every backend; the hipRTC unit test compiles them.
#pragma once

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace kjit::test {

struct HeaderCase {
  std::string header;  // what the kernel includes, as the test's name gives it
  std::string source;  // `__global__ void check(const double* in, double* out)`, one thread
  std::vector<double> expected;  // out[i], for in = kHeaderCaseInputs
  double tolerance = 0.0;        // relative; 0: exact
};

/// Names a case by its header in test names and messages.
inline void PrintTo(const HeaderCase& c, std::ostream* os) {
  *os << c.header;
}

/// What check() reads.
inline const std::vector<double> kHeaderCaseInputs = {2.25, -3.75, 0.5, 10.0};

// Host functions in a file are fine: the kernels' files have some, as real ones do.
inline const char* const kHostFunction = R"(
void host_side(float* data, int n) {
  float* device = 0;
  cudaMalloc((void**)&device, n * sizeof(float));
  cudaMemcpy(device, data, n * sizeof(float), cudaMemcpyHostToDevice);
  check<<<1, 1>>>(0, 0);
  fprintf(stderr, "done\n");
}
)";

inline std::vector<HeaderCase> header_cases() {
  const std::vector<double>& in = kHeaderCaseInputs;
  struct S {
    char a;
    double b;
  };
  std::vector<HeaderCase> cases = {
      {"stddef.h",
       R"(
#include <stddef.h>
struct S { char a; double b; };
__global__ void check(const double* in, double* out) {
  out[0] = sizeof(size_t); out[1] = sizeof(ptrdiff_t); out[2] = offsetof(S, b);
  out[3] = NULL == 0; out[4] = alignof(max_align_t) >= 8;
})",
       {8, 8, static_cast<double>(offsetof(S, b)), 1, 1}},
      {"cstddef",
       R"(
#include <cstddef>
__global__ void check(const double* in, double* out) {
  std::byte b = std::byte{0x0f} | std::byte{0x30};
  out[0] = std::to_integer<int>(b); out[1] = sizeof(std::size_t);
  std::nullptr_t none = nullptr; out[2] = none == nullptr;
  out[3] = std::to_integer<int>(b << 2);
})",
       {0x3f, 8, 1, 0xfc}},
      {"stdint.h",
       R"(
#include <stdint.h>
__global__ void check(const double* in, double* out) {
  out[0] = INT8_MIN; out[1] = INT16_MAX; out[2] = UINT32_MAX; out[3] = (double)INT64_MIN;
  out[4] = (double)UINT64_MAX; out[5] = (double)SIZE_MAX; out[6] = sizeof(int_least16_t);
  out[7] = (double)(INT64_C(1) << 40); out[8] = sizeof(uintmax_t); out[9] = INTPTR_MAX > 0;
})",
       {INT8_MIN, INT16_MAX, UINT32_MAX, static_cast<double>(INT64_MIN),
        static_cast<double>(UINT64_MAX), static_cast<double>(SIZE_MAX), 2,
        static_cast<double>(INT64_C(1) << 40), 8, 1}},
      {"cstdint",
       R"(
#include <cstdint>
__global__ void check(const double* in, double* out) {
  std::uint8_t x = 255; x += 1; out[0] = x;
  std::int16_t y = -32768; out[1] = y; out[2] = sizeof(std::uint64_t);
  std::uintptr_t p = reinterpret_cast<std::uintptr_t>(out); out[3] = p != 0;
})",
       {0, -32768, 8, 1}},
      {"limits.h",
       R"(
#include <limits.h>
__global__ void check(const double* in, double* out) {
  out[0] = CHAR_BIT; out[1] = INT_MAX; out[2] = INT_MIN; out[3] = UINT_MAX;
  out[4] = (double)LLONG_MAX; out[5] = SHRT_MIN; out[6] = UCHAR_MAX; out[7] = (double)LONG_MAX;
  out[8] = SCHAR_MIN; out[9] = USHRT_MAX;
})",
       {CHAR_BIT, INT_MAX, INT_MIN, UINT_MAX, static_cast<double>(LLONG_MAX), SHRT_MIN, UCHAR_MAX,
        static_cast<double>(LONG_MAX), SCHAR_MIN, USHRT_MAX}},
      {"climits",
       R"(
#include <climits>
__global__ void check(const double* in, double* out) {
  out[0] = INT_MAX; out[1] = (double)ULLONG_MAX; out[2] = CHAR_MAX;
})",
       {INT_MAX, static_cast<double>(ULLONG_MAX), CHAR_MAX}},
      {"float.h",
       R"(
#include <float.h>
__global__ void check(const double* in, double* out) {
  out[0] = FLT_MAX; out[1] = FLT_EPSILON; out[2] = FLT_MIN; out[3] = DBL_MAX;
  out[4] = DBL_EPSILON; out[5] = FLT_MANT_DIG; out[6] = DBL_DIG; out[7] = FLT_TRUE_MIN;
  out[8] = DBL_MIN; out[9] = FLT_MAX_EXP;
})",
       {FLT_MAX, FLT_EPSILON, FLT_MIN, DBL_MAX, DBL_EPSILON, FLT_MANT_DIG, DBL_DIG, FLT_TRUE_MIN,
        DBL_MIN, FLT_MAX_EXP}},
      {"cfloat",
       R"(
#include <cfloat>
__global__ void check(const double* in, double* out) { out[0] = DBL_TRUE_MIN; out[1] = FLT_DIG; })",
       {DBL_TRUE_MIN, FLT_DIG}},
      {"math.h",
       R"(
#include <math.h>
__global__ void check(const double* in, double* out) {
  out[0] = M_PI; out[1] = M_E; out[2] = M_SQRT2; out[3] = isinf(HUGE_VALF); out[4] = isnan(NAN);
  out[5] = INFINITY > 1e30f; out[6] = sqrtf((float)in[0]); out[7] = isnormal(1.0f);
  out[8] = fpclassify(0.0) == FP_ZERO; out[9] = isgreater(2.0f, 1.0f); out[10] = isunordered(1.0, NAN);
  out[11] = fpclassify(1e-310) == FP_SUBNORMAL; out[12] = M_LN2;
})",
       {M_PI, M_E, M_SQRT2, 1, 1, 1, std::sqrt(static_cast<float>(in[0])), 1, 1, 1, 1, 1, M_LN2}},
      {"cmath",
       R"(
#include <cmath>
__global__ void check(const double* in, double* out) {
  const float f = (float)in[1];
  out[0] = std::sqrt(in[0]); out[1] = std::abs(-3); out[2] = std::abs(f); out[3] = std::pow(in[0], 3.0);
  out[4] = std::fma(in[0], in[1], in[2]); out[5] = std::floor(in[1]); out[6] = std::lround(in[1]);
  out[7] = std::isnan(in[0]); out[8] = std::isfinite(f); out[9] = std::hypot(in[0], in[1]);
  out[10] = std::nextafter(1.0, 2.0); int q = 0; out[11] = std::remquo(in[3], in[0], &q);
  out[12] = q; double ip = 0; out[13] = std::modf(in[1], &ip); out[14] = ip;
  out[15] = std::scalbn(in[0], 4); out[16] = std::ilogb(in[3]); out[17] = std::logb(in[3]);
  out[18] = std::copysign(in[0], in[1]); out[19] = std::fmin(in[0], in[2]); out[20] = std::exp(in[2]);
  out[21] = std::trunc(in[1]); out[22] = std::signbit(in[1]); out[23] = std::isnormal(in[0]);
})",
       {std::sqrt(in[0]),
        3,
        std::abs(static_cast<float>(in[1])),
        std::pow(in[0], 3.0),
        std::fma(in[0], in[1], in[2]),
        std::floor(in[1]),
        static_cast<double>(std::lround(in[1])),
        0,
        1,
        std::hypot(in[0], in[1]),
        std::nextafter(1.0, 2.0),
        std::remainder(in[3], in[0]),
        [&] {
          int q = 0;
          std::remquo(in[3], in[0], &q);
          return static_cast<double>(q);
        }(),
        in[1] - std::trunc(in[1]),
        std::trunc(in[1]),
        std::scalbn(in[0], 4),
        static_cast<double>(std::ilogb(in[3])),
        std::logb(in[3]),
        std::copysign(in[0], in[1]),
        std::fmin(in[0], in[2]),
        std::exp(in[2]),
        std::trunc(in[1]),
        1,
        1},
       1e-14},
      {"stdio.h",
       R"(
#include <stdio.h>
__global__ void check(const double* in, double* out) {
  if (in[0] > 1e300) printf("never %f\n", in[0]);
  out[0] = EOF; out[1] = SEEK_END;
})",
       {EOF, SEEK_END}},
      {"cstdio",
       R"(
#include <cstdio>
__global__ void check(const double* in, double* out) {
  if (in[0] > 1e300) std::printf("never\n");
  out[0] = SEEK_SET;
})",
       {SEEK_SET}},
      {"stdlib.h",
       R"(
#include <stdlib.h>
__global__ void check(const double* in, double* out) {
  out[0] = abs(-7); out[1] = (double)labs(-8L); out[2] = (double)llabs(-9LL);
  out[3] = EXIT_FAILURE; out[4] = RAND_MAX > 0;
  int* p = (int*)malloc(4 * sizeof(int));
  for (int i = 0; i < 4; ++i) p[i] = i * i;
  out[5] = p[3];
  free(p);
})",
       {7, 8, 9, EXIT_FAILURE, 1, 9}},
      {"cstdlib",
       R"(
#include <cstdlib>
__global__ void check(const double* in, double* out) { out[0] = std::abs(-4); out[1] = EXIT_SUCCESS; })",
       {4, 0}},
      {"string.h",
       R"(
#include <string.h>
__global__ void check(const double* in, double* out) {
  double local[4];
  memcpy(local, in, sizeof(local));
  out[0] = local[3];
  int zeros[3] = {1, 2, 3};
  memset(zeros, 0, sizeof(zeros));
  out[1] = zeros[0] + zeros[1] + zeros[2];
})",
       {in[3], 0}},
      {"cstring",
       R"(
#include <cstring>
__global__ void check(const double* in, double* out) {
  double v = 0; std::memcpy(&v, in + 1, sizeof(v)); out[0] = v;
})",
       {in[1]}},
      {"assert.h",
       R"(
#include <assert.h>
__global__ void check(const double* in, double* out) {
  assert(in[0] > 0);
  out[0] = 1;
}
#define NDEBUG
#include <assert.h>
__global__ void unused(const double* in) { assert(in[0] < 0); }
)",
       {1}},
      {"cassert",
       R"(
#include <cassert>
__global__ void check(const double* in, double* out) { assert(in[3] == 10.0); out[0] = 2; })",
       {2}},
      {"type_traits",
       R"(
#include <type_traits>
struct Base {}; struct Derived : Base {}; enum class E : short { a };
template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
__device__ int kind(T) { return 1; }
template <class T, typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>
__device__ int kind(T) { return 2; }
static_assert(std::is_same_v<std::remove_reference_t<int&>, int>, "");
static_assert(std::is_same_v<std::decay_t<const int[3]>, const int*>, "");
static_assert(std::is_same_v<std::make_unsigned_t<int>, unsigned>, "");
static_assert(std::is_same_v<std::common_type_t<int, double>, double>, "");
static_assert(std::is_same_v<std::underlying_type_t<E>, short>, "");
static_assert(std::is_base_of_v<Base, Derived> && !std::is_base_of_v<Derived, Base>, "");
static_assert(std::conjunction_v<std::is_integral<int>, std::is_signed<int>>, "");
static_assert(std::is_trivially_copyable<Derived>::value && std::is_empty<Base>::value, "");
static_assert(std::is_same<std::conditional_t<true, int, float>, int>::value, "");
__global__ void check(const double* in, double* out) {
  out[0] = kind(3); out[1] = kind(3.0f); out[2] = std::is_unsigned<unsigned>::value;
  out[3] = std::is_pointer<const double*>::value; out[4] = std::rank_v<int[2][3]>;
  out[5] = std::extent_v<int[2][3], 1>; out[6] = std::is_arithmetic<bool>::value;
})",
       {1, 2, 1, 1, 2, 3, 1}},
      {"limits",
       R"(
#include <limits>
__global__ void check(const double* in, double* out) {
  out[0] = std::numeric_limits<int>::max(); out[1] = std::numeric_limits<float>::epsilon();
  out[2] = std::numeric_limits<float>::infinity() > 1e38f;
  const double nan = std::numeric_limits<double>::quiet_NaN(); out[3] = nan != nan;
  out[4] = std::numeric_limits<unsigned char>::max(); out[5] = std::numeric_limits<double>::digits;
  out[6] = std::numeric_limits<float>::lowest(); out[7] = std::numeric_limits<long long>::min();
  out[8] = std::numeric_limits<double>::denorm_min(); out[9] = std::numeric_limits<int>::is_signed;
  constexpr int m = std::numeric_limits<short>::max(); out[10] = m;
})",
       {std::numeric_limits<int>::max(), std::numeric_limits<float>::epsilon(), 1, 1, 255, 53,
        std::numeric_limits<float>::lowest(),
        static_cast<double>(std::numeric_limits<long long>::min()),
        std::numeric_limits<double>::denorm_min(), 1, 32767}},
      {"utility",
       R"(
#include <utility>
template <std::size_t... I>
__device__ double sum(const double* v, std::index_sequence<I...>) { return (v[I] + ... + 0.0); }
__global__ void check(const double* in, double* out) {
  std::pair<int, double> p = std::make_pair(3, in[0]);
  out[0] = p.first; out[1] = p.second;
  int a = 1, b = 2; std::swap(a, b); out[2] = a * 10 + b;
  int c = 5; out[3] = std::exchange(c, 9); out[4] = c;
  out[5] = sum(in, std::make_index_sequence<4>{});
  double m = std::move(in[2]); out[6] = m;
})",
       {3, in[0], 21, 5, 9, in[0] + in[1] + in[2] + in[3], in[2]}},
      {"algorithm",
       R"(
#include <algorithm>
__global__ void check(const double* in, double* out) {
  out[0] = std::min(in[0], in[1]); out[1] = std::max(3, 7); out[2] = std::clamp(in[3], 0.0, 5.0);
  double v[3]; std::fill(v, v + 3, 1.5); out[3] = v[0] + v[1] + v[2];
  double w[3]; std::copy(in, in + 3, w); out[4] = w[2];
})",
       {in[1], 7, 5, 4.5, in[2]}},
      {"cuda_runtime.h",
       std::string(R"(
#include <cuda_runtime.h>
__global__ void check(const double* in, double* out) {
  dim3 d(2, 3); out[0] = d.x * d.y * d.z;
  cudaError_t e = cudaSuccess; out[1] = e; out[2] = cudaMemcpyHostToDevice;
  float4 f = make_float4(1, 2, 3, 4); out[3] = f.w; out[4] = blockDim.x;
})") + kHostFunction,
       {6, 0, 1, 4, 1}},
      {"cuda_runtime_api.h",
       R"(
#include <cuda_runtime_api.h>
__global__ void check(const double* in, double* out) {
  out[0] = CUDART_VERSION >= 12000; out[1] = cudaErrorInvalidValue; out[2] = cudaMemcpyDefault;
})",
       {1, 1, 4}},
      {"driver_types.h",
       R"(
#include <driver_types.h>
__global__ void check(const double* in, double* out) {
  out[0] = cudaMemcpyDeviceToHost; out[1] = sizeof(cudaStream_t); out[2] = cudaReadModeElementType;
})",
       {2, 8, 0}},
      {"cuda.h",
       R"(
#include <cuda.h>
__global__ void check(const double* in, double* out) {
  out[0] = CUDA_SUCCESS; out[1] = sizeof(CUdeviceptr); out[2] = CUDA_VERSION >= 12000;
})",
       {0, 8, 1}},
      {"device_launch_parameters.h",
       R"(
#include <device_launch_parameters.h>
__global__ void check(const double* in, double* out) { out[0] = threadIdx.x + blockIdx.x + gridDim.x; })",
       {1}},
      {"vector_types.h",
       R"(
#include <vector_types.h>
__global__ void check(const double* in, double* out) { double2 v; v.x = in[0]; v.y = 1; out[0] = v.x + v.y; })",
       {in[0] + 1}},
      {"vector_functions.h",
       R"(
#include <vector_functions.h>
__global__ void check(const double* in, double* out) { int2 v = make_int2(3, 4); out[0] = v.x * v.y; })",
       {12}},
      {"device_functions.h",
       R"(
#include <device_functions.h>
__global__ void check(const double* in, double* out) { out[0] = __popc(0xf0u); out[1] = __clz(1); })",
       {4, 31}},
      {"math_functions.h",
       R"(
#include <math_functions.h>
__global__ void check(const double* in, double* out) { out[0] = rsqrtf(4.0f); })",
       {0.5}},
      {"math_constants.h",
       R"(
#include <math_constants.h>
__global__ void check(const double* in, double* out) {
  out[0] = CUDART_PI; out[1] = CUDART_SQRT_2PI; out[2] = CUDART_INF_F > 1e38f;
  out[3] = CUDART_NAN_F != CUDART_NAN_F; out[4] = CUDART_LN2; out[5] = CUDART_PI_F;
})",
       {M_PI, std::sqrt(2 * M_PI), 1, 1, M_LN2, static_cast<float>(M_PI)},
       1e-15},
      {"host library headers",
       R"(
#include <string>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>
#include <stdexcept>
#include <strings.h>
#include <sys/time.h>
#include <ctime>
#include <cuda_profiler_api.h>
// Host code, as shared headers have it: declarations, and bodies kjit erases.
std::string file_name(const std::string& base);
inline bool same(const char* a, const char* b) { return strcasecmp(a, b) == 0; }
inline double seconds() { timeval t; gettimeofday(&t, 0); return t.tv_sec + 1e-6 * t.tv_usec; }
inline void report(const std::vector<float>& v) { std::cout << v.size() << std::endl; }
__global__ void check(const double* in, double* out) {
  clock_t start = clock();
  out[0] = in[0] + (clock() - start >= 0);
})",
       {in[0] + 1}},
      {"stdbool.h",
       R"(
#include <stdbool.h>
__global__ void check(const double* in, double* out) { bool b = true; out[0] = b + __bool_true_false_are_defined; })",
       {2}},
  };
  return cases;
}

}  // namespace kjit::test
