// The kernel language: builtins, atomics, math, structs by value, shared memory in all its forms,
// barrier semantics, templates and names, includes and defines, and the clear error for what a
// backend cannot run.
#include "test_support.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "../kernels/atomics.h"  // shared with the kernel

namespace kjit::test {
namespace {

class Dialect : public DeviceTest {};

/// This thread's floating-point mode bits (MXCSR on x86; 0 elsewhere).
unsigned fp_mode() {
#if defined(__x86_64__) || defined(__i386__)
  return _mm_getcsr();
#else
  return 0;
#endif
}

TEST_F(Dialect, BuiltinVariablesAreThreeDimensional) {
  auto k = Program::from_source("builtins.cu", R"(
    __global__ void where(unsigned* out) {
      const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
      const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
      unsigned* o = out + 12 * (block * blockDim.x * blockDim.y * blockDim.z + thread);
      const uint3 t = threadIdx;
      const dim3 b = blockDim;
      o[0] = t.x; o[1] = t.y; o[2] = t.z;
      o[3] = blockIdx.x; o[4] = blockIdx.y; o[5] = blockIdx.z;
      o[6] = b.x; o[7] = b.y; o[8] = b.z;
      o[9] = gridDim.x; o[10] = gridDim.y; o[11] = gridDim.z;
    })")
               .kernel<unsigned*>("where", device);
  const Dim3 grid{3, 2, 2};
  const Dim3 block{4, 3, 2};
  const std::size_t threads = grid.volume() * block.volume();
  auto out = poisoned<unsigned>(threads * 12);
  k.launch(LaunchConfig{.grid = grid, .block = block}, out);
  const auto v = out.download();
  std::size_t at = 0;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx)
        for (unsigned tz = 0; tz < block.z; ++tz)
          for (unsigned ty = 0; ty < block.y; ++ty)
            for (unsigned tx = 0; tx < block.x; ++tx, at += 12) {
              const std::vector<unsigned> expected{
                  tx, ty, tz, bx, by, bz, block.x, block.y, block.z, grid.x, grid.y, grid.z};
              ASSERT_EQ(std::vector<unsigned>(v.begin() + at, v.begin() + at + 12), expected);
            }
}

TEST_F(Dialect, AtomicsAreAtomicAcrossBlocks) {
  auto k = Program::from_file(test_kernel_path("atomics.cu"))
               .kernel<AtomicResults*, int>("all_atomics", device);
  const int n = 64 * 257;  // many blocks, all contending
  AtomicResults init{};
  init.sub_i = 0;
  init.sub_u = 5u * n;
  init.min_i = std::numeric_limits<int>::max();
  init.max_i = std::numeric_limits<int>::min();
  init.min_u = ~0u;
  init.min_ull = ~0ull;
  init.min_ll = std::numeric_limits<long long>::max();
  init.max_ll = std::numeric_limits<long long>::min();
  init.and_u = ~0u;
  init.and_i = -1;
  init.and_ull = ~0ull;
  init.dec = 3;
  auto r = device.upload(std::vector<AtomicResults>{init});
  k.launch(LaunchConfig{.grid = {257}, .block = {64}}, r, n);
  const AtomicResults got = r.download()[0];

  long long add = 0;
  unsigned xor_u = 0;
  int xor_i = 0;
  unsigned long long xor_ull = 0;
  for (int i = 0; i < n; ++i) {
    add += i - n / 2;
    xor_u ^= static_cast<unsigned>(i);
    xor_i ^= i;
    xor_ull ^= static_cast<unsigned long long>(i) << 20;
  }
  EXPECT_EQ(got.add_i, add);
  EXPECT_EQ(got.add_u, 3u * n);
  EXPECT_EQ(got.add_ull, (1ull << 33) * n);
  EXPECT_EQ(got.add_f, 0.5f * n);  // exact: every partial sum is representable
  EXPECT_EQ(got.add_d, 0.25 * n);
  EXPECT_EQ(got.sub_i, -2 * n);
  EXPECT_EQ(got.sub_u, 4u * n);
  EXPECT_EQ(got.min_i, -n / 2);
  EXPECT_EQ(got.max_i, n - 1 - n / 2);
  EXPECT_EQ(got.min_u, 5u);
  EXPECT_EQ(got.max_u, static_cast<unsigned>(n - 1) + 5u);
  EXPECT_EQ(got.min_ull, 0ull);
  EXPECT_EQ(got.max_ull, static_cast<unsigned long long>(n - 1) << 40);
  EXPECT_EQ(got.min_ll, static_cast<long long>(-n / 2) * (1LL << 35));
  EXPECT_EQ(got.max_ll, static_cast<long long>(n - 1 - n / 2) * (1LL << 35));
  EXPECT_EQ(got.and_u, 0u);
  EXPECT_EQ(got.or_u, ~0u);
  EXPECT_EQ(got.xor_u, xor_u);
  EXPECT_EQ(got.and_i, static_cast<int>(0x80000000u));
  EXPECT_EQ(got.or_i, 0x7fffffff);
  EXPECT_EQ(got.xor_i, xor_i);
  EXPECT_EQ(got.and_ull, 0ull);
  EXPECT_EQ(got.or_ull, ~0ull);
  EXPECT_EQ(got.xor_ull, xor_ull);
  EXPECT_EQ(got.cas_counter, n);
  EXPECT_EQ(got.cas_counter_ull, 7ull * n);
  EXPECT_EQ(got.inc, static_cast<unsigned>(n % 10));
  EXPECT_EQ(got.dec, static_cast<unsigned>(((3 - n) % 10 + 10) % 10));
  EXPECT_EQ(got.exch_i, 42);
  EXPECT_EQ(got.exch_u, 43u);
  EXPECT_EQ(got.exch_ull, 44ull);
  EXPECT_EQ(got.exch_f, 45.5f);
}

// Distance in units in the last place between two floats of the same sign.
long ulps(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b) ? 0 : 1L << 30;
  std::int32_t ia = 0;
  std::int32_t ib = 0;
  std::memcpy(&ia, &a, 4);
  std::memcpy(&ib, &b, 4);
  if (ia < 0)
    ia = std::numeric_limits<std::int32_t>::min() - ia;
  if (ib < 0)
    ib = std::numeric_limits<std::int32_t>::min() - ib;
  return std::labs(static_cast<long>(ia) - static_cast<long>(ib));
}

TEST_F(Dialect, MathFunctionsAreWithinCudasErrorBounds) {
  KJIT_SEED_TRACE();
  auto k = Program::from_source("math.cu", R"(
    __global__ void math(const float* x, const float* y, float* out, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const float a = x[i], b = y[i];
      float* o = out + 20 * i;
      o[0] = sqrtf(a); o[1] = expf(b); o[2] = logf(a); o[3] = sinf(b); o[4] = cosf(b);
      o[5] = powf(a, b); o[6] = fmaf(a, b, 1.0f); o[7] = rsqrtf(a); o[8] = __fdividef(b, a);
      o[9] = fabsf(b); o[10] = floorf(b); o[11] = ceilf(b); o[12] = fminf(a, b); o[13] = fmaxf(a, b);
      o[14] = tanhf(b); o[15] = atan2f(b, a); o[16] = exp2f(b); o[17] = log2f(a);
      o[18] = sqrt(a); o[19] = min(a, b);
    })")
               .kernel<const float*, const float*, float*, int>("math", device);
  const int n = 4096;
  const auto x = random_vector<float>(n, 0.01f, 100.0f);
  const auto y = random_vector<float>(n, -8.0f, 8.0f);
  auto out = poisoned<float>(20 * n);
  k.launch(LaunchConfig::for_elements(n, 128), device.upload(x), device.upload(y), out, n);
  const auto o = out.download();
  // CUDA's documented maximum errors, in ulps (exact functions 0).
  const long bound[20] = {0, 2, 1, 2, 2, 4, 0, 2, 2, 0, 0, 0, 0, 0, 2, 3, 2, 1, 0, 0};
  for (int i = 0; i < n; ++i) {
    const float a = x[i];
    const float b = y[i];
    // Correctly rounded references: the double-precision result, rounded once to float.
    const double da = a;
    const double db = b;
    const float expected[20] = {float(std::sqrt(da)),
                                float(std::exp(db)),
                                float(std::log(da)),
                                float(std::sin(db)),
                                float(std::cos(db)),
                                float(std::pow(da, db)),
                                float(std::fma(da, db, 1.0)),
                                float(1.0 / std::sqrt(da)),
                                float(db / da),
                                std::fabs(b),
                                std::floor(b),
                                std::ceil(b),
                                std::fmin(a, b),
                                std::fmax(a, b),
                                float(std::tanh(db)),
                                float(std::atan2(db, da)),
                                float(std::exp2(db)),
                                float(std::log2(da)),
                                float(std::sqrt(da)),
                                std::fmin(a, b)};
    for (int f = 0; f < 20; ++f) {
      ASSERT_LE(ulps(o[20 * i + f], expected[f]), bound[f])
          << "function #" << f << " of x=" << a << " y=" << b << ": " << o[20 * i + f] << " vs "
          << expected[f];
    }
  }
}

struct Params {
  float scale;
  int offset;
  double bias;
  char tag;
};
struct alignas(16) Wide {
  float v[4];
};

TEST_F(Dialect, StructsPassByValue) {
  auto k = Program::from_source("structs.cu", R"(
    struct Params { float scale; int offset; double bias; char tag; };
    struct __align__(16) Wide { float v[4]; };
    __global__ void apply(Params p, const float* in, double* out, Wide w, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[i] = p.scale * in[i] + p.offset + p.bias + p.tag + w.v[i % 4];
    })")
               .kernel<Params, const float*, double*, Wide, int>("apply", device);
  const int n = 1000;
  const auto in = random_vector<float>(n, -1.0f, 1.0f);
  const Params p{2.5f, -7, 0.125, 'A'};
  const Wide w{{1.0f, 2.0f, 3.0f, 4.0f}};
  auto out = poisoned<double>(n);
  k.launch(LaunchConfig::for_elements(n, 64), p, device.upload(in), out, w, n);
  const auto o = out.download();
  for (int i = 0; i < n; ++i) {
    const double expected = p.scale * in[i] + p.offset + p.bias + p.tag + w.v[i % 4];
    ASSERT_NEAR(o[i], expected, 1e-5) << i;
  }
}

TEST_F(Dialect, SharedMemoryInEveryForm) {
  // Namespace-scope, function-local, static local, in a __device__ function, and two extern
  // arrays (which alias the same dynamic area, as in CUDA).
  auto k = Program::from_source("shared.cu", R"(
    __shared__ int ns_scope[64];
    __device__ int helper_sum(int t) {
      __shared__ int scratch[64];
      scratch[t] = t * 3;
      __syncthreads();
      return scratch[63 - t];
    }
    __global__ void shared_forms(int* out) {
      const int t = threadIdx.x;
      __shared__ int local[64];
      static __shared__ int stat[64];
      extern __shared__ int dyn_a[];
      extern __shared__ int dyn_b[];
      ns_scope[t] = t + blockIdx.x * 1000;
      local[t] = 2 * t;
      stat[t] = 5 * t;
      dyn_a[t] = 7 * t + (int)blockIdx.x;
      __syncthreads();
      const int h = helper_sum(t);
      int* o = out + 6 * (blockIdx.x * 64 + t);
      o[0] = ns_scope[63 - t]; o[1] = local[63 - t]; o[2] = stat[63 - t];
      o[3] = dyn_b[63 - t]; o[4] = h; o[5] = dyn_a[t + 64];
    })")
               .kernel<int*>("shared_forms", device);
  const unsigned blocks = 9;
  auto out = poisoned<int>(6 * 64 * blocks);
  k.launch(LaunchConfig{.grid = {blocks}, .block = {64}, .shared_bytes = 128 * sizeof(int)}, out);
  const auto o = out.download();
  for (unsigned b = 0; b < blocks; ++b) {
    for (int t = 0; t < 64; ++t) {
      const int* v = o.data() + 6 * (b * 64 + t);
      const int r = 63 - t;
      EXPECT_EQ(v[0], r + static_cast<int>(b) * 1000) << b << "," << t;
      EXPECT_EQ(v[1], 2 * r);
      EXPECT_EQ(v[2], 5 * r);
      EXPECT_EQ(v[3], 7 * r + static_cast<int>(b));
      EXPECT_EQ(v[4], 3 * r);
      (void)v[5];  // uninitialised dynamic memory: only its address had to be valid
    }
  }
}

TEST_F(Dialect, BarriersInsideLoopsOrderEveryRound) {
  // Each round, every thread publishes its value and then reads its neighbour's: correct only if
  // no thread starts a round before all finished the previous one.
  auto k = Program::from_source("rotate.cu", R"(
    __global__ void rotate(const int* in, int* out, int rounds) {
      __shared__ int s[1024];
      const unsigned t = threadIdx.x;
      const unsigned n = blockDim.x;
      int v = in[blockIdx.x * n + t];
      for (int r = 0; r < rounds; ++r) {
        s[t] = v;
        __syncthreads();
        v = s[(t + 1) % n];
        __syncthreads();
      }
      out[blockIdx.x * n + t] = v;
    })")
               .kernel<const int*, int*, int>("rotate", device);
  for (const unsigned n : {1U, 7U, 256U, 1024U}) {
    const unsigned blocks = 5;
    const auto in = random_vector<int>(n * blocks, -100000, 100000);
    auto out = poisoned<int>(in.size());
    const int rounds = 13;
    k.launch(LaunchConfig{.grid = {blocks}, .block = {n}}, device.upload(in), out, rounds);
    const auto o = out.download();
    for (unsigned b = 0; b < blocks; ++b) {
      for (unsigned t = 0; t < n; ++t) {
        ASSERT_EQ(o[b * n + t], in[b * n + (t + rounds) % n]) << "n=" << n << " t=" << t;
      }
    }
  }
}

TEST_F(Dialect, TemplatesNamespacesAndSeveralKernelsOfOneProgram) {
  const Program program = Program::from_source("names.cu", R"(
    namespace ops {
    template <typename T, int Factor>
    __global__ void scale(T* v, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) v[i] *= Factor;
    }
    }
    __global__ void add_one(int* v, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) v[i] += 1;
    })",
                                               {.kernels = {"ops::scale<int, 3>", "add_one"}});
  auto scale3 = program.kernel<int*, int>("ops::scale<int, 3>", device);
  auto scale_neg = program.kernel<int*, int>("ops::scale<int, -2>", device);
  auto add_one = program.kernel<int*, int>("add_one", device);
  const int n = 300;
  const auto in = random_vector<int>(n, -1000, 1000);
  auto v = device.upload(in);
  const auto config = LaunchConfig::for_elements(n, 64);
  scale3.launch(config, v, n);
  add_one.launch(config, v, n);
  scale_neg.launch(config, v, n);
  const auto o = v.download();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(o[i], (in[i] * 3 + 1) * -2);
  }
  EXPECT_EQ(scale3.name(), "ops::scale<int, 3>");
  EXPECT_EQ(scale3.device(), device);
}

TEST_F(Dialect, PlainNamesOfTemplatesAndOverloadsResolveByParameterTypes) {
  // As DESIGN.md writes it: "saxpy" names a template; the parameter types instantiate it.
  const Program saxpy_program = Program::from_file(kernel_path("saxpy.cu"));
  auto saxpy_f = saxpy_program.kernel<float, const float*, float*, int>("saxpy", device);
  auto saxpy_d = saxpy_program.kernel<double, const double*, double*, int>("saxpy", device);
  auto xf = device.upload(std::vector<float>{1, 2, 3});
  auto yf = device.upload(std::vector<float>{1, 1, 1});
  auto xd = device.upload(std::vector<double>{0.5, 0.25, 0.125});
  auto yd = device.upload(std::vector<double>{0, 0, 0});
  saxpy_f.launch(LaunchConfig{.grid = {1}, .block = {3}}, 2.0f, xf, yf, 3);
  saxpy_d.launch(LaunchConfig{.grid = {1}, .block = {3}}, 4.0, xd, yd, 3);
  EXPECT_EQ(yf.download(), (std::vector<float>{3, 5, 7}));
  EXPECT_EQ(yd.download(), (std::vector<double>{2, 1, 0.5}));
  // Asking again reuses the build that the types resolved (no failed attempt in between).
  (void)saxpy_program.kernel<float, const float*, float*, int>("saxpy", device);

  const Program overloads = Program::from_source("overloads.cu", R"(
    __global__ void scale(float* v, float f) { v[threadIdx.x] *= f; }
    __global__ void scale(int* v, int f) { v[threadIdx.x] *= 10 * f; })");
  auto scale_f = overloads.kernel<float*, float>("scale", device);
  auto scale_i = overloads.kernel<int*, int>("scale", device);
  auto vf = device.upload(std::vector<float>{1.5f});
  auto vi = device.upload(std::vector<int>{3});
  scale_f.launch(LaunchConfig{}, vf, 2.0f);
  scale_i.launch(LaunchConfig{}, vi, 2);
  EXPECT_EQ(vf.download()[0], 3.0f);
  EXPECT_EQ(vi.download()[0], 60);

  try {
    (void)overloads.kernel<double*, double>("scale", device);
    ADD_FAILURE() << "no overload takes (double*, double)";
  } catch (const KernelNotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("'scale'"), std::string::npos) << e.what();
  }
}

TEST_F(Dialect, IncludesResolveLikeACompilers) {
  // A file that includes a sibling by a relative path, a header found through include_dirs,
  // an in-memory header, and a define.
  const auto dir = std::filesystem::temp_directory_path() /
                   ("kjit_includes_" + std::to_string(test_seed()) + "_" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::create_directories(dir / "src" / "detail");
  std::filesystem::create_directories(dir / "inc");
  std::ofstream(dir / "src" / "detail" / "twice.h")
      << "__device__ inline int twice(int x) { return 2 * x; }\n";
  std::ofstream(dir / "inc" / "offset.h") << "#define OFFSET 1000\n";
  std::ofstream(dir / "src" / "k.cu")
      << "#include \"detail/twice.h\"\n#include \"offset.h\"\n#include \"memory.h\"\n"
         "__global__ void f(int* v) { v[threadIdx.x] = twice(v[threadIdx.x]) + OFFSET + "
         "FROM_MEMORY + EXTRA; }\n";
  CompileOptions options;
  options.include_dirs.push_back(dir / "inc");
  options.headers["memory.h"] = "#define FROM_MEMORY 20000\n";
  options.defines["EXTRA"] = "300000";
  auto f = Program::from_file(dir / "src" / "k.cu", options).kernel<int*>("f", device);
  auto v = device.upload(std::vector<int>{1, 2, 3});
  f.launch(LaunchConfig{.grid = {1}, .block = {3}}, v);
  EXPECT_EQ(v.download(), (std::vector<int>{321002, 321004, 321006}));
  std::filesystem::remove_all(dir);
}

TEST_F(Dialect, VectorTypesAndIntrinsics) {
  struct F4 {
    float x, y, z, w;
  };
  auto typed = Program::from_source("vectors.cu", R"(
    __global__ void vec(const float4* in, float4* out, unsigned* bits, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n) return;
      const float4 a = __ldg(&in[i]);
      out[i] = make_float4(a.w, a.z, a.y, a.x);
      bits[3 * i] = __popc((unsigned)i);
      bits[3 * i + 1] = __float_as_uint(a.x);
      bits[3 * i + 2] = __brev((unsigned)i);
    })")
                   .kernel<const F4*, F4*, unsigned*, int>("vec", device);
  const int n = 100;
  std::vector<F4> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = {float(i), float(2 * i), float(3 * i), float(4 * i)};
  auto out = device.alloc<F4>(n);
  auto bits = poisoned<unsigned>(3 * n);
  typed.launch(LaunchConfig::for_elements(n, 32), device.upload(in), out, bits, n);
  const auto o = out.download();
  const auto b = bits.download();
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(o[i].x, in[i].w);
    EXPECT_EQ(o[i].w, in[i].x);
    EXPECT_EQ(b[3 * i], static_cast<unsigned>(__builtin_popcount(i)));
    unsigned xb = 0;
    std::memcpy(&xb, &in[i].x, 4);
    EXPECT_EQ(b[3 * i + 1], xb);
    unsigned r = 0;
    for (int bit = 0; bit < 32; ++bit)
      r |= ((static_cast<unsigned>(i) >> bit) & 1U) << (31 - bit);
    EXPECT_EQ(b[3 * i + 2], r);
  }
}

TEST_F(Dialect, FastMathCompilesAndStaysClose) {
  auto k = Program::from_source("fast.cu", R"(
    __global__ void f(const float* x, float* y, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) y[i] = expf(x[i]) / (1.0f + x[i] * x[i]);
    })",
                                {.fast_math = true})
               .kernel<const float*, float*, int>("f", device);
  const int n = 512;
  const auto x = random_vector<float>(n, -3.0f, 3.0f);
  auto y = poisoned<float>(n);
  k.launch(LaunchConfig::for_elements(n), device.upload(x), y, n);
  const auto o = y.download();
  for (int i = 0; i < n; ++i) {
    const float e = std::exp(x[i]) / (1.0f + x[i] * x[i]);
    ASSERT_NEAR(o[i], e, 1e-4f * std::fabs(e) + 1e-6f);
  }
}

/// `x * scale` as a GPU computes it with fast math (nvcc --use_fast_math, -ftz=true): a denormal
/// input reads as zero and a denormal result is zero. Plain math keeps both.
float multiplied(float x, float scale, bool flushed) {
  const auto tiny = [](float v) { return std::fpclassify(v) == FP_SUBNORMAL; };
  if (flushed && tiny(x)) {
    x = std::copysign(0.0f, x);
  }
  const float product = x * scale;
  return flushed && tiny(product) ? std::copysign(0.0f, product) : product;
}

TEST_F(Dialect, FastMathFlushesDenormalsToZeroAndPlainMathKeepsThem) {
  const char* source = R"(
    __global__ void scale(const float* x, float* y, float s, int n) {
      const int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) y[i] = x[i] * s;
    })";
  const int n = 1024;
  // Half the inputs are denormal themselves; the rest give denormal products, some of them.
  auto x = random_vector<float>(n, 1.0f, 100.0f);
  for (int i = 0; i < n; ++i) {
    x[i] *= i % 2 == 0 ? 1e-40f : 1e-36f;
  }
  const float s = 0.01f;
  const unsigned before = fp_mode();
  for (const bool fast : {true, false}) {
    CompileOptions options;
    options.fast_math = fast;
    auto k = Program::from_source(fast ? "flushed.cu" : "kept.cu", source, options)
                 .kernel<const float*, float*, float, int>("scale", device);
    auto y = poisoned<float>(n);
    k.launch(LaunchConfig::for_elements(n, 64), device.upload(x), y, s, n);
    const auto o = y.download();
    int denormal = 0;
    for (int i = 0; i < n; ++i) {
      const float e = multiplied(x[i], s, fast);
      ASSERT_EQ(std::bit_cast<std::uint32_t>(o[i]), std::bit_cast<std::uint32_t>(e))
          << (fast ? "fast" : "plain") << " math, x = " << x[i] << ": got " << o[i];
      denormal += std::fpclassify(o[i]) == FP_SUBNORMAL ? 1 : 0;
    }
    EXPECT_EQ(denormal > 0, !fast);  // the inputs do reach denormals, and fast math drops them
  }
  EXPECT_EQ(fp_mode(), before);  // this thread, which may have run blocks, keeps its own mode
}

}  // namespace
}  // namespace kjit::test
