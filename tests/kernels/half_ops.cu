// Half precision and bfloat16 in kernels (tests/api/half_test.cpp): conversions in every rounding
// mode, arithmetic, pairs, comparisons and atomics, each result written out for the host to check.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// Each float in[i] to binary16 in the four modes.
__global__ void float_to_half(const float* in, __half* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[4 * i + 0] = __float2half_rn(in[i]);
    out[4 * i + 1] = __float2half_rz(in[i]);
    out[4 * i + 2] = __float2half_rd(in[i]);
    out[4 * i + 3] = __float2half_ru(in[i]);
  }
}

// Every binary16 value (bits i) as a float, and as an int toward zero.
__global__ void half_to_float(float* out, int* truncated) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 65536) {
    const __half h = __ushort_as_half(static_cast<unsigned short>(i));
    out[i] = __half2float(h);
    truncated[i] = __half2int_rz(h);
  }
}

// a[i] op b[i] for +, -, *, /, fma with c, sqrt(|a|), the pair ops, and comparisons.
__global__ void half_arithmetic(const __half* a, const __half* b, const __half* c, __half* out,
                                unsigned* flags, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const __half x = a[i], y = b[i], z = c[i];
    __half* o = out + 8 * i;
    o[0] = x + y;
    o[1] = __hsub(x, y);
    o[2] = x * y;
    o[3] = __hdiv(x, y);
    o[4] = __hfma(x, y, z);
    o[5] = hsqrt(__habs(x));
    const __half2 p = __halves2half2(x, y);
    const __half2 q = __hfma2(p, __half2half2(z), __lowhigh2highlow(p));
    o[6] = __low2half(q);
    o[7] = __high2half(q);
    flags[i] = (__hlt(x, y) ? 1u : 0u) | (__heq(x, y) ? 2u : 0u) | (x >= y ? 4u : 0u) |
               (__hisnan(x) ? 8u : 0u) | (__hbgt2(p, __lowhigh2highlow(p)) ? 16u : 0u);
  }
}

// Many threads add small integers into a few half and half2 counters.
__global__ void half_atomics(__half* sums, __half2* pairs, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&sums[i % 4], __int2half_rn(i % 3));
    atomicAdd(&pairs[i % 2], __floats2half2_rn(1.0f, 0.5f));
  }
}

// bfloat16: from float in four modes, and arithmetic.
__global__ void bfloat16_ops(const float* in, const __nv_bfloat16* a, const __nv_bfloat16* b,
                             __nv_bfloat16* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __nv_bfloat16* o = out + 8 * i;
    o[0] = __float2bfloat16_rn(in[i]);
    o[1] = __float2bfloat16_rz(in[i]);
    o[2] = __float2bfloat16_rd(in[i]);
    o[3] = __float2bfloat16_ru(in[i]);
    o[4] = a[i] + b[i];
    o[5] = __hmul(a[i], b[i]);
    o[6] = __hfma(a[i], b[i], a[i]);
    o[7] = __high2bfloat16(__hmul2(make_bfloat162(a[i], b[i]), make_bfloat162(b[i], b[i])));
  }
}
