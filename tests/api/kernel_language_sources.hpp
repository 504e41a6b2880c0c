// The kernel sources of kernel_language_test.cpp (run on every backend against host references)
// and of kernel_language_nvrtc_test.cpp (compiled for sm_90 by NVRTC, and for gfx90a by hipRTC,
// without a GPU): names nvcc's host environment makes visible without an include, loads and
// stores with a cache hint, CUDA intrinsics the CPU prelude lacked, and cooperative groups'
// reduce and shuffles of a struct.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace kjit::test::language {

/// No include at all: nvcc's implicit <cuda_runtime.h> and the C library's headers that come with
/// it give uint, ushort, ulong, std::size_t, M_PI, INFINITY, NAN, HUGE_VALF, UINT_MAX, placement
/// new, the runtime's types and host functions. The host functions
/// are a .cu file's own, which kjit ignores.
inline const char* const kImplicitNames = R"(
template <const uint B>
__global__ void implicit_names(const float* in, double* out) {
  const ushort s = (ushort)(B + 1);
  const ulong l = 1ul << 40;
  const u_int u = 7u;
  const std::size_t n = sizeof(uint) + sizeof(ushort) + sizeof(ulong);
  out[0] = B; out[1] = s; out[2] = (double)l; out[3] = u; out[4] = (double)n;
  out[5] = M_PI; out[6] = M_E; out[7] = M_SQRT2; out[8] = M_LN2; out[9] = M_PI_2;
  out[10] = isinf(INFINITY) && INFINITY > 0; out[11] = isnan(NAN);
  out[12] = HUGE_VALF == INFINITY; out[13] = isinf(HUGE_VAL);
  out[14] = std::sqrt(in[0]); out[15] = std::abs(-in[1]); out[16] = EXIT_FAILURE;
  new (out + 17) double(sizeof(std::size_t));  // placement new: nvcc's <cuda_runtime.h> has <new>
  out[18] = UINT_MAX; out[19] = SHRT_MAX; out[20] = INT_MIN;
}

// Host code as real .cu files have it: the runtime's types, enums and functions.
void query(cudaDeviceProp& p) { cudaGetDeviceProperties(&p, 0); }
int describe(const cudaDeviceProp& p) {
  return p.multiProcessorCount * p.major + p.minor + p.warpSize + p.maxThreadsPerBlock +
         (int)(p.totalGlobalMem >> 20) + (int)p.sharedMemPerBlock + p.name[0];
}
float timed(float* device_data, const float* host_data, size_t n) {
  cudaEvent_t start, stop;
  cudaStream_t stream;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaStreamCreate(&stream);
  cudaEventRecord(start, stream);
  const cudaMemcpyKind kind = cudaMemcpyHostToDevice;
  cudaMemcpyAsync(device_data, host_data, n * sizeof(float), kind, stream);
  dim3 grid(4, 2), block(128);
  implicit_names<3><<<grid, block, 0, stream>>>(device_data, (double*)device_data);
  cudaEventRecord(stop, stream);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    printf("%s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
    exit(EXIT_FAILURE);
  }
  int value = 0;
  cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, 0);
  cudaStreamDestroy(stream);
  return ms + value;
}
)";

/// Each of the C and C++ headers that give those names with an include, and then the names.
struct IncludedNames {
  std::string header;
  std::string source;  // `__global__ void included(double* out)`: out[0..3]
};

inline std::vector<IncludedNames> included_names() {
  const std::string body = R"(
__global__ void included(double* out) {
  const uint u = 3u;
  const std::size_t n = sizeof(ulong);
  out[0] = u + n; out[1] = M_PI; out[2] = isinf(INFINITY); out[3] = isnan(NAN);
})";
  std::vector<IncludedNames> out;
  for (const char* h : {"stdlib.h", "cstdlib", "math.h", "cmath", "cuda_runtime.h", "stddef.h",
                        "cstddef", "sys/types.h", "cuda.h", "new"}) {
    out.push_back({h, std::string("#include <") + h + ">\n" + body});
  }
  return out;
}

/// Every type CUDA overloads its loads and stores with a cache hint for, as kernels name them,
/// and its size.
struct CacheHintType {
  std::string name;
  std::size_t size;
};

inline const std::vector<CacheHintType>& cache_hint_types() {
  static const std::vector<CacheHintType> types{{"char", 1},
                                                {"signed char", 1},
                                                {"unsigned char", 1},
                                                {"short", 2},
                                                {"unsigned short", 2},
                                                {"int", 4},
                                                {"unsigned int", 4},
                                                {"long", 8},
                                                {"unsigned long", 8},
                                                {"long long", 8},
                                                {"unsigned long long", 8},
                                                {"float", 4},
                                                {"double", 8},
                                                {"char2", 2},
                                                {"char4", 4},
                                                {"uchar2", 2},
                                                {"uchar4", 4},
                                                {"short2", 4},
                                                {"short4", 8},
                                                {"ushort2", 4},
                                                {"ushort4", 8},
                                                {"int2", 8},
                                                {"int4", 16},
                                                {"uint2", 8},
                                                {"uint4", 16},
                                                {"longlong2", 16},
                                                {"ulonglong2", 16},
                                                {"float2", 8},
                                                {"float4", 16},
                                                {"double2", 16},
                                                {"__half", 2},
                                                {"__half2", 4},
                                                {"__nv_bfloat16", 2},
                                                {"__nv_bfloat162", 4}};
  return types;
}

/// hints<T>(in, out, n): out[10 i + k] is in[i] through load k (__ldg, __ldca, __ldcg, __ldcs,
/// __ldlu, __ldcv) or store k - 6 (__stcs, __stcg, __stwb, __stwt). Bytes in and out, so that
/// one host check serves every type.
inline const char* const kCacheHints = R"(
#include <cuda_fp16.h>
#include <cuda_bf16.h>
template <class T>
__global__ void hints(const unsigned char* in_bytes, unsigned char* out_bytes, int n) {
  const T* in = reinterpret_cast<const T*>(in_bytes);
  T* out = reinterpret_cast<T*>(out_bytes);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T* o = out + 10 * i;
  o[0] = __ldg(in + i);
  o[1] = __ldca(in + i);
  o[2] = __ldcg(in + i);
  o[3] = __ldcs(in + i);
  o[4] = __ldlu(in + i);
  o[5] = __ldcv(in + i);
  __stcs(o + 6, in[i]);
  __stcg(o + 7, __ldg(in + i));
  __stwb(o + 8, in[i]);
  __stwt(o + 9, __ldcs(in + i));
}
)";

/// Integer intrinsics: `integers(in, out, wide, n)`, three inputs a, b, c per thread; 6 results
/// in out, 10 in wide (see kernel_language_test.cpp's reference).
inline const char* const kIntegerIntrinsics = R"(
__device__ short2 as_short2(unsigned v) { short2 r; memcpy(&r, &v, 4); return r; }
__device__ ushort2 as_ushort2(unsigned v) { ushort2 r; memcpy(&r, &v, 4); return r; }
__device__ char4 as_char4(unsigned v) { char4 r; memcpy(&r, &v, 4); return r; }
__device__ uchar4 as_uchar4(unsigned v) { uchar4 r; memcpy(&r, &v, 4); return r; }

__constant__ int c_values[4];

__global__ void integers(const unsigned* in, unsigned* out, long long* wide, int n) {
  __shared__ unsigned s_values[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s_values[threadIdx.x % 256] = (unsigned)i;
  if (i >= n) return;
  const unsigned a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
  unsigned* o = out + 6 * i;
  o[0] = __fns(a, b % 32, (int)(c % 67) - 33);
  o[1] = (unsigned)__dp2a_lo(as_short2(a), as_char4(b), (int)c);
  o[2] = (unsigned)__dp2a_hi(as_short2(a), as_char4(b), (int)c);
  o[3] = __dp2a_lo(as_ushort2(a), as_uchar4(b), c);
  o[4] = __dp2a_hi(as_ushort2(a), as_uchar4(b), c);
  o[5] = __uni_sync(0xffffffffu, (a & 1) != 0) ? 1u : 0u;
  long long* w = wide + 10 * i;
  const long sa = (int)a, sb = (int)b;
  w[0] = abs(sa);
  w[1] = abs((long long)sa * 3);
  w[2] = (long long)min(sa, (unsigned long)b);
  w[3] = (long long)max((unsigned long)a, sb);
  w[4] = (long long)min((long long)sa, (unsigned long long)c);
  w[5] = (long long)max((unsigned long long)c, (long long)sb);
  w[6] = (long long)ullmin(a * 0x100000001ull, b * 3ull);
  w[7] = (long long)ullmax(a * 0x100000001ull, b * 3ull);
  // Each space's round trip, with an address of that space.
  unsigned locals[2] = {a, b};
  const void* shared = s_values + threadIdx.x % 256;
  const void* global = in + i;
  const void* local = locals + (c & 1);
  const void* constant = c_values + (c & 3);
  w[8] = (__cvta_shared_to_generic(__cvta_generic_to_shared(shared)) == shared) +
         2 * (__cvta_global_to_generic(__cvta_generic_to_global(global)) == global) +
         4 * (__cvta_local_to_generic(__cvta_generic_to_local(local)) == local) +
         8 * (__cvta_constant_to_generic(__cvta_generic_to_constant(constant)) == constant) +
         16 * (*(const unsigned*)local == (c & 1 ? b : a));
  __prof_trigger(0);
  __threadfence_cluster();
  __nanosleep(10);
  w[9] = 1;
}
)";

/// Float intrinsics and overloads: `floats(in, out, n)`, three inputs x, y, z per thread; 25
/// results each (see kernel_language_test.cpp's reference).
inline const char* const kFloatIntrinsics = R"(
__global__ void floats(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = in[3 * i], y = in[3 * i + 1], z = in[3 * i + 2];
  float* o = out + 25 * i;
  o[0] = __fmaf_ieee_rn(x, y, z);
  o[1] = __fmaf_ieee_rz(x, y, z);
  o[2] = __fmaf_ieee_ru(x, y, z);
  o[3] = __fmaf_ieee_rd(x, y, z);
  o[4] = __tanhf(x);
  sincos(x, o + 5, o + 6);
  sincospi(x, o + 7, o + 8);
  o[9] = (float)min(x, (double)y);
  o[10] = (float)max((double)x, y);
  o[11] = (float)copysign(x, (double)y);
  o[12] = (float)copysign((double)x, y);
  o[13] = __isnanf(y); o[14] = __isinff(y); o[15] = __finitef(y); o[16] = __signbitf(y) != 0;
  o[17] = __isnan((double)y); o[18] = __isinf((double)y); o[19] = __finite((double)y);
  o[20] = __signbit((double)y) != 0;
  o[21] = (float)abs((long)x);
  o[22] = (float)abs((long long)z);
  o[23] = (float)min(y, (double)x);
  o[24] = (float)max(z, (double)y);
}
)";

/// The float2 arithmetic of sm_100 (__fadd2_rn ...): `pairs(in, out, n)`, 12 results of two.
inline const char* const kFloat2Intrinsics = R"(
__global__ void pairs(const float2* in, float2* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float2 a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
  float2* o = out + 12 * i;
  o[0] = __fadd2_rn(a, b); o[1] = __fadd2_rz(a, b); o[2] = __fadd2_ru(a, b); o[3] = __fadd2_rd(a, b);
  o[4] = __fmul2_rn(a, b); o[5] = __fmul2_rz(a, b); o[6] = __fmul2_ru(a, b); o[7] = __fmul2_rd(a, b);
  o[8] = __ffma2_rn(a, b, c); o[9] = __ffma2_rz(a, b, c); o[10] = __ffma2_ru(a, b, c);
  o[11] = __ffma2_rd(a, b, c);
}
)";

/// Atomics the CPU prelude lacked: `atomics(in, bits, counts, exchanged, pairs, quads, n)`.
inline const char* const kAtomics = R"(
__global__ void atomics(const long long* in, long long* bits, unsigned* counts, float* exchanged,
                        float2* pairs, float4* quads, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const long long v = in[i];
  atomicAnd(bits + 0, v); atomicOr(bits + 1, v); atomicXor(bits + 2, v);
  atomicAnd_block(bits + 3, v); atomicOr_block(bits + 4, v); atomicXor_block(bits + 5, v);
  atomicAnd_system(bits + 6, v); atomicOr_system(bits + 7, v); atomicXor_system(bits + 8, v);
  atomicInc_block(counts + 0, 17u); atomicInc_system(counts + 1, 17u);
  atomicDec_block(counts + 2, 13u); atomicDec_system(counts + 3, 13u);
  atomicExch_block(exchanged + 0, (float)i); atomicExch_system(exchanged + 1, (float)i);
  const float2 p = make_float2(1.0f, (float)(i % 7));
  const float4 q = make_float4(1.0f, (float)(i % 5), (float)(i % 3), 2.0f);
  atomicAdd(pairs + 0, p); atomicAdd_block(pairs + 1, p); atomicAdd_system(pairs + 2, p);
  atomicAdd(quads + 0, q); atomicAdd_block(quads + 1, q); atomicAdd_system(quads + 2, q);
}
)";

/// cooperative_groups::reduce and tile shuffles of structs, over a warp and tiles of 16 and 8:
/// `structs(in, soft, stats, bytes)` (see kernel_language_test.cpp's reference).
inline const char* const kStructReduce = R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// An online softmax's running maximum and sum of exp(x - maximum).
struct MaxSum {
  float m;
  float s;
};
struct Combine {
  __device__ MaxSum operator()(const MaxSum& a, const MaxSum& b) const {
    const float m = fmaxf(a.m, b.m);
    return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
  }
};
// Three words, combined exactly.
struct Stats {
  int max;
  int min;
  unsigned sum;
};
__device__ Stats merge(const Stats& a, const Stats& b) {
  return {max(a.max, b.max), min(a.min, b.min), a.sum + b.sum};
}
// Six bytes: a word and a half.
struct Bytes {
  unsigned char b[6];
};

template <class Tile>
__device__ void tile_results(const Tile& tile, const MaxSum& v, const Stats& s, float* soft,
                             int* stats) {
  const MaxSum r = cg::reduce(tile, v, Combine());
  const Stats t = cg::reduce(tile, s, [](const Stats& a, const Stats& b) { return merge(a, b); });
  soft[0] = r.m;
  soft[1] = r.s;
  stats[0] = t.max;
  stats[1] = t.min;
  stats[2] = (int)t.sum;
}

__global__ void structs(const int* in, float* soft_out, int* stats_out, unsigned char* bytes_out) {
  cg::thread_block block = cg::this_thread_block();
  const unsigned g = blockIdx.x * blockDim.x + block.thread_rank();
  const int x = in[g];
  const MaxSum v{x / 64.0f, 1.0f};
  const Stats s{x, x, (unsigned)x};
  Bytes b;
  for (int k = 0; k < 6; ++k) {
    b.b[k] = (unsigned char)(x + 37 * k);
  }
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(block);
  float* soft = soft_out + 6 * g;
  int* stats = stats_out + 15 * g;
  tile_results(warp, v, s, soft, stats);
  tile_results(t16, v, s, soft + 2, stats + 3);
  tile_results(t8, v, s, soft + 4, stats + 6);
  const Stats down = warp.shfl_down(s, 1);
  const Stats across = t16.shfl_xor(s, 5);
  stats[9] = down.max; stats[10] = down.min; stats[11] = (int)down.sum;
  stats[12] = across.max; stats[13] = across.min; stats[14] = (int)across.sum;
  const Bytes r[4] = {t8.shfl_down(b, 1), t16.shfl_up(b, 2), warp.shfl(b, 3), warp.shfl_xor(b, 6)};
  for (int j = 0; j < 4; ++j) {
    for (int k = 0; k < 6; ++k) {
      bytes_out[24 * g + 6 * j + k] = r[j].b[k];
    }
  }
}
)";

}  // namespace kjit::test::language
