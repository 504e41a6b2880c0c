// The corpus's hecbench files (tests/corpus/manifest.json), each kernel run as its project's host
// code runs it, on random inputs, against a plain C++ reference.
#include "corpus.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <numeric>

namespace kjit::test {
namespace {

std::vector<half> to_half(const std::vector<float>& v) {
  std::vector<half> h;
  h.reserve(v.size());
  for (const float x : v) {
    h.push_back(half(x));
  }
  return h;
}

std::vector<float> to_float(const std::vector<half>& v) {
  std::vector<float> f;
  f.reserve(v.size());
  for (const half x : v) {
    f.push_back(x.to_float());
  }
  return f;
}

/// A __half2 as the host sees it.
struct Half2 {
  half x, y;
};

unsigned ceil_div(std::size_t n, unsigned d) {
  return static_cast<unsigned>((n + d - 1) / d);
}

// ---- atomicAggregate ----------------------------------------------------------------------------

TEST_F(Corpus, HeCBench_AtomicAggregate) {
  const Program p = corpus_program("hecbench/src/atomicAggregate-cuda/main.cu");
  auto k = p.kernel<int*, int>("k", device);
  constexpr unsigned nBlocks = 64;  // main: 65536
  constexpr unsigned blockSize = 256;
  constexpr int repeat = 2;
  for (int ds = 32; ds >= 1; ds = ds / 2) {
    SCOPED_TRACE("ds " + std::to_string(ds));
    auto d = device.upload(std::vector<int>(ds, 0));  // cudaMemset(d_d, 0, ...)
    for (int i = 0; i < repeat; i++) {
      k.launch(LaunchConfig{.grid = {nBlocks}, .block = {blockSize}}, d, ds);
    }
    EXPECT_EQ(d.download(),
              std::vector<int>(ds, static_cast<int>(blockSize) / ds * nBlocks * repeat));
  }
}

// ---- atomicReduction ----------------------------------------------------------------------------

TEST_F(Corpus, HeCBench_AtomicReduction) {
  const Program p = corpus_program("hecbench/src/atomicReduction-cuda/reduction.cu");
  constexpr int arrayLength = 1 << 16;                    // main: 52428800, a multiple of 16 too
  const auto in = random_vector<int>(arrayLength, 0, 1);  // rand() % 2
  const int checksum = std::accumulate(in.begin(), in.end(), 0);
  auto d_in = device.upload(in);
  auto reduce = [&](const char* name, unsigned grid, unsigned block) {
    auto out = device.upload(std::vector<int>{0});  // cudaMemset(out, 0, sizeof(int))
    p.kernel<int*, int*, int>(name, device)
        .launch(LaunchConfig{.grid = {grid}, .block = {block}}, d_in, out, arrayLength);
    EXPECT_EQ(out.download()[0], checksum) << name << " <<<" << grid << ", " << block << ">>>";
  };
  reduce("atomic_reduction", 2048, 256);                // the warm-up
  for (const int block_size : {128, 256, 512, 1024}) {  // block_sizes[] and the benchmark macro
    const int blocks = std::min((arrayLength + block_size - 1) / block_size, 2048);
    const auto bs = static_cast<unsigned>(block_size);
    reduce("atomic_reduction", blocks, bs);
    reduce("atomic_reduction_v2", blocks / 2, bs);
    reduce("atomic_reduction_v4", blocks / 4, bs);
    reduce("atomic_reduction_v8", blocks / 8, bs);
    reduce("atomic_reduction_v16", blocks / 16, bs);
  }
}

// ---- babelstream --------------------------------------------------------------------------------

template <class T>
void check_babelstream(Corpus& t, const Program& p, const std::string& type) {
  constexpr int TBSIZE = 256;
  constexpr int DOT_NUM_BLOCKS = 256;
  constexpr int ARRAY_SIZE = TBSIZE * 96;  // main: 2^25; a multiple of TBSIZE
  constexpr T scalar = static_cast<T>(0.4);
  const double rel = sizeof(T) == 4 ? 1e-6 : 1e-14;
  const LaunchConfig stream{.grid = {ARRAY_SIZE / TBSIZE}, .block = {TBSIZE}};
  auto da = t.poisoned<T>(ARRAY_SIZE);
  auto db = t.poisoned<T>(ARRAY_SIZE);
  auto dc = t.poisoned<T>(ARRAY_SIZE);
  // init_arrays(da, db, dc, 0.1, 0.2, 0.0)
  p.kernel<T*, T*, T*, T, T, T>("init_kernel<" + type + ">", t.device)
      .launch(stream, da, db, dc, static_cast<T>(0.1), static_cast<T>(0.2), static_cast<T>(0.0));
  EXPECT_EQ(da.download(), std::vector<T>(ARRAY_SIZE, static_cast<T>(0.1)));
  EXPECT_EQ(db.download(), std::vector<T>(ARRAY_SIZE, static_cast<T>(0.2)));
  EXPECT_EQ(dc.download(), std::vector<T>(ARRAY_SIZE, static_cast<T>(0.0)));

  // One pass of run()'s main loop on random arrays: copy, mul, add, triad, dot, nstream.
  std::vector<T> a = t.random_vector<T>(ARRAY_SIZE, -1, 1);
  std::vector<T> b = t.random_vector<T>(ARRAY_SIZE, -1, 1);
  std::vector<T> c = t.random_vector<T>(ARRAY_SIZE, -1, 1);
  da = t.device.upload(a);
  db = t.device.upload(b);
  dc = t.device.upload(c);
  p.kernel<const T*, T*>("copy_kernel<" + type + ">", t.device).launch(stream, da, dc);
  c = a;
  expect_all_near(dc.download(), c, 0, 0, "copy " + type);
  p.kernel<T*, const T*>("mul_kernel<" + type + ">", t.device).launch(stream, db, dc);
  for (int i = 0; i < ARRAY_SIZE; ++i) {
    b[i] = scalar * c[i];
  }
  expect_all_near(db.download(), b, rel, 0, "mul " + type);
  p.kernel<const T*, const T*, T*>("add_kernel<" + type + ">", t.device).launch(stream, da, db, dc);
  for (int i = 0; i < ARRAY_SIZE; ++i) {
    c[i] = a[i] + b[i];
  }
  expect_all_near(dc.download(), c, rel, rel, "add " + type);
  p.kernel<T*, const T*, const T*>("triad_kernel<" + type + ">", t.device)
      .launch(stream, da, db, dc);
  for (int i = 0; i < ARRAY_SIZE; ++i) {
    a[i] = b[i] + scalar * c[i];
  }
  expect_all_near(da.download(), a, rel, rel, "triad " + type);
  auto dsum = t.poisoned<T>(DOT_NUM_BLOCKS);
  p.kernel<const T*, const T*, T*, int>("dot_kernel<" + type + ">", t.device)
      .launch(LaunchConfig{.grid = {DOT_NUM_BLOCKS}, .block = {TBSIZE}}, da, db, dsum, ARRAY_SIZE);
  const std::vector<T> sums = dsum.download();
  T sum = 0.0;  // the host adds the partial sums
  for (int i = 0; i < DOT_NUM_BLOCKS; i++) {
    sum += sums[i];
  }
  double want = 0;
  for (int i = 0; i < ARRAY_SIZE; ++i) {
    want += static_cast<double>(a[i]) * b[i];
  }
  EXPECT_NEAR(sum, want, 1e3 * rel * (1 + std::abs(want))) << "dot " << type;
  p.kernel<T*, const T*, const T*>("nstream_kernel<" + type + ">", t.device)
      .launch(stream, da, db, dc);
  for (int i = 0; i < ARRAY_SIZE; ++i) {
    a[i] += b[i] + scalar * c[i];
  }
  expect_all_near(da.download(), a, rel, rel, "nstream " + type);
}

TEST_F(Corpus, HeCBench_BabelStream) {
  const Program p = corpus_program("hecbench/src/babelstream-cuda/main.cu");
  check_babelstream<float>(*this, p, "float");
  check_babelstream<double>(*this, p, "double");
}

// ---- bsearch ------------------------------------------------------------------------------------

TEST_F(Corpus, HeCBench_Bsearch) {
  const Program p = corpus_program("hecbench/src/bsearch-cuda/main.cu");  // Real_t = float
  constexpr std::size_t aSize = 1024;  // main: the number of elements
  constexpr std::size_t zSize =
      2 * aSize;  // a multiple of 256: kernel_BS4 returns before a barrier
  constexpr std::size_t N = aSize - 1;
  std::vector<float> a(aSize);  // strictly ascending (main: a[i] = i)
  float x = 0;
  for (float& v : a) {
    x += 0.5f + static_cast<float>(rng() % 64) * 0.25f;
    v = x;
  }
  std::vector<float> z(zSize);  // in [a[0], a[N - 1]] (main: rand() % N), some equal to an a[i]
  for (std::size_t i = 0; i < zSize; ++i) {
    z[i] = i % 3 == 0 ? a[rng() % N] : std::uniform_real_distribution<float>(a[0], a[N - 1])(rng);
  }
  std::vector<std::size_t> want(zSize);  // verify(): a[r] <= z < a[r + 1]
  for (std::size_t i = 0; i < zSize; ++i) {
    want[i] =
        static_cast<std::size_t>(std::upper_bound(a.begin(), a.begin() + N, z[i]) - a.begin()) - 1;
  }
  auto d_a = device.upload(a);
  auto d_z = device.upload(z);
  for (const char* name :
       {"kernel_BS<float>", "kernel_BS2<float>", "kernel_BS3<float>", "kernel_BS4<float>"}) {
    auto d_r = poisoned<std::size_t>(zSize);
    p.kernel<const float*, const float*, std::size_t*, std::size_t, std::size_t>(name, device)
        .launch(LaunchConfig{.grid = {ceil_div(zSize, 256)}, .block = {256}}, d_a, d_z, d_r, zSize,
                N);
    EXPECT_EQ(d_r.download(), want) << name;
  }
}

// ---- convolution1D ------------------------------------------------------------------------------

template <class T>
void check_conv1d(Corpus& t, const Program& p, const std::string& type) {
  constexpr int MAX_MASK_WIDTH = 10;
  constexpr int MAX_BLOCK_SIZE = 1024;
  constexpr int input_width = 2 * MAX_BLOCK_SIZE;  // main: a multiple of MAX_BLOCK_SIZE
  std::vector<T> a(input_width);
  for (int i = 0; i < input_width; i++) {
    a[i] = static_cast<T>(t.rng() % 256);  // rand() % 256
  }
  auto d_a = t.device.upload(a);
  const auto conv1d = p.kernel<const T*, T*, int, int>("conv1d<" + type + ">", t.device);
  const auto tiled = p.kernel<const T*, T*, int, int>("conv1d_tiled<" + type + ">", t.device);
  const auto caching =
      p.kernel<const T*, T*, int, int>("conv1d_tiled_caching<" + type + ">", t.device);
  const auto mask = p.symbol<T[MAX_MASK_WIDTH]>("mask<" + type + ">", t.device);
  for (int mask_width = 3; mask_width < MAX_MASK_WIDTH; mask_width += 2) {
    std::vector<T> h_mask(MAX_MASK_WIDTH);
    for (T& m : h_mask) {
      m = static_cast<T>(t.rng() % 4);  // main: all 1
    }
    mask.write(std::span<const T>(h_mask.data(), mask_width));  // cudaMemcpyToSymbol
    std::vector<T> want(input_width);                           // reference()
    for (int i = 0; i < input_width; i++) {
      T s = 0;
      int start = i - mask_width / 2;
      for (int j = 0; j < mask_width; j++) {
        if (start + j >= 0 && start + j < input_width) {
          s += a[start + j] * h_mask[j];
        }
      }
      want[i] = s;
    }
    for (unsigned bs = 64; bs <= MAX_BLOCK_SIZE; bs = bs * 4) {
      const std::string what =
          type + " mask " + std::to_string(mask_width) + " block " + std::to_string(bs);
      auto d_b = t.poisoned<T>(input_width);
      conv1d.launch(LaunchConfig{.grid = {input_width / bs}, .block = {bs}}, d_a, d_b, input_width,
                    mask_width);
      expect_all_near(d_b.download(), want, 1e-6, 0, "conv1d " + what);
      d_b = t.poisoned<T>(input_width);
      tiled.launch(LaunchConfig{.grid = {input_width / bs},
                                .block = {bs},
                                .shared_bytes = (bs + MAX_MASK_WIDTH - 1) * sizeof(T)},
                   d_a, d_b, input_width, mask_width);
      expect_all_near(d_b.download(), want, 1e-6, 0, "conv1d_tiled " + what);
      d_b = t.poisoned<T>(input_width);
      caching.launch(
          LaunchConfig{.grid = {input_width / bs}, .block = {bs}, .shared_bytes = bs * sizeof(T)},
          d_a, d_b, input_width, mask_width);
      expect_all_near(d_b.download(), want, 1e-6, 0, "conv1d_tiled_caching " + what);
    }
  }
}

TEST_F(Corpus, HeCBench_Convolution1D) {
  const Program p = corpus_program("hecbench/src/convolution1D-cuda/main.cu");
  check_conv1d<double>(*this, p, "double");
  check_conv1d<float>(*this, p, "float");
  check_conv1d<short>(*this, p, "short");  // int16_t: sums of at most 9 * 255 * 3 fit
}

// ---- f16max -------------------------------------------------------------------------------------

TEST_F(Corpus, HeCBench_F16Max) {
  const Program p = corpus_program("hecbench/src/f16max-cuda/main.cu");
  constexpr unsigned NUM_OF_BLOCKS = 64;  // main: 1048576
  constexpr unsigned NUM_OF_THREADS = 256;
  constexpr std::size_t size = std::size_t{NUM_OF_BLOCKS} * NUM_OF_THREADS;
  // Finite halves of both signs (main: rand() % 922021, which overflows to infinity).
  const auto fa = random_vector<float>(2 * size, -60000.0f, 60000.0f);
  auto fb = random_vector<float>(2 * size, -60000.0f, 60000.0f);
  for (std::size_t i = 0; i < fb.size(); i += 7) {
    fb[i] = fa[i];  // some equal pairs
  }
  const std::vector<half> ha = to_half(fa);
  const std::vector<half> hb = to_half(fb);
  std::vector<float> want(2 * size);
  for (std::size_t i = 0; i < want.size(); ++i) {
    want[i] = std::fmax(ha[i].to_float(), hb[i].to_float());
  }
  std::vector<Half2> a2(size), b2(size);
  for (std::size_t i = 0; i < size; ++i) {
    a2[i] = {ha[2 * i], ha[2 * i + 1]};
    b2[i] = {hb[2 * i], hb[2 * i + 1]};
  }
  const LaunchConfig config{.grid = {NUM_OF_BLOCKS}, .block = {NUM_OF_THREADS}};
  {
    auto d_a = device.upload(a2);
    auto d_b = device.upload(b2);
    auto d_r =
        device.upload(std::vector<Half2>(size, {half::from_bits(0x7e00), half::from_bits(0x7e00)}));
    p.kernel<const Half2*, const Half2*, Half2*, std::size_t>("hmax<__half2>", device)
        .launch(config, d_a, d_b, d_r, size);
    std::vector<float> got;
    for (const Half2 r : d_r.download()) {
      got.push_back(r.x.to_float());
      got.push_back(r.y.to_float());
    }
    expect_all_near(got, want, 0, 0, "hmax<__half2>");
  }
  auto d_a = device.upload(ha);
  auto d_b = device.upload(hb);
  auto d_r = device.upload(std::vector<half>(2 * size, half::from_bits(0x7e00)));
  p.kernel<const half*, const half*, half*, std::size_t>("hmax<__half>", device)
      .launch(config, d_a, d_b, d_r, 2 * size);  // the size is doubled
  expect_all_near(to_float(d_r.download()), want, 0, 0, "hmax<__half>");
}

// ---- floydwarshall ------------------------------------------------------------------------------

TEST_F(Corpus, HeCBench_FloydWarshall) {
  const Program p = corpus_program("hecbench/src/floydwarshall-cuda/main.cu");
  constexpr unsigned numNodes = 64;  // main: 1024, a multiple of the block size
  constexpr unsigned blockSize = 16;
  constexpr unsigned MAXDISTANCE = 200;
  std::vector<unsigned> dist = random_vector<unsigned>(numNodes * numNodes, 0, MAXDISTANCE);
  std::vector<unsigned> path(numNodes * numNodes);
  for (unsigned i = 0; i < numNodes; ++i) {
    dist[i * numNodes + i] = 0;
    for (unsigned j = 0; j < i; ++j) {
      path[i * numNodes + j] = i;
      path[j * numNodes + i] = j;
    }
    path[i * numNodes + i] = i;
  }
  auto d_dist = device.upload(dist);
  auto d_path = device.upload(path);
  auto pass = p.kernel<unsigned*, unsigned*, unsigned, unsigned>("floydWarshallPass", device);
  for (unsigned i = 0; i < numNodes; i += 1) {
    pass.launch(LaunchConfig{.grid = {numNodes / blockSize, numNodes / blockSize},
                             .block = {blockSize, blockSize}},
                d_dist, d_path, numNodes, i);
  }
  // floydWarshallCPUReference
  for (unsigned k = 0; k < numNodes; ++k) {
    for (unsigned y = 0; y < numNodes; ++y) {
      for (unsigned x = 0; x < numNodes; ++x) {
        const unsigned indirect = dist[y * numNodes + k] + dist[k * numNodes + x];
        if (indirect < dist[y * numNodes + x]) {
          dist[y * numNodes + x] = indirect;
          path[y * numNodes + x] = k;
        }
      }
    }
  }
  EXPECT_EQ(d_dist.download(), dist);
  EXPECT_EQ(d_path.download(), path);
}

// ---- gelu ---------------------------------------------------------------------------------------

TEST_F(Corpus, HeCBench_Gelu) {
  const Program p = corpus_program("hecbench/src/gelu-cuda/main.cu");
  constexpr int batch_size = 2;  // main: 512 x 8192 x 512 in the run
  constexpr int seq_len = 24;
  constexpr int hidden_dim = 512;
  constexpr unsigned block_size = 128;  // hidden_dim < 2048
  const std::size_t src_size = std::size_t{batch_size} * seq_len * hidden_dim;
  const std::vector<half> input = to_half(random_vector<float>(src_size, 0.0f, 1.0f));
  std::vector<half> bias(hidden_dim);
  for (half& b : bias) {
    b = half(static_cast<float>(-6 + static_cast<int>(rng() % 12)));
  }
  // gelu_bias_loop_cpu: a half add, then the tanh GELU in float, rounded to half.
  std::vector<float> want(src_size);
  for (std::size_t i = 0; i < src_size; ++i) {
    const float t = half(input[i].to_float() + bias[i % hidden_dim].to_float()).to_float();
    want[i] =
        half(0.5f * t * (1.0f + std::tanh(0.79788456f * (t + 0.044715f * t * t * t)))).to_float();
  }
  auto d_bias = device.upload(bias);
  const LaunchConfig config{.grid = {seq_len, batch_size}, .block = {block_size, 1}};
  for (const char* name : {"gelu_bias_loop_base", "gelu_bias_loop"}) {
    auto d_output = device.upload(input);
    p.kernel<half*, const half*, int, int>(name, device)
        .launch(config, d_output, d_bias, hidden_dim, seq_len);
    // One half ulp (2^-10 relative) for tanhf's last bit flipping a rounding.
    expect_all_near(to_float(d_output.download()), want, 1.0 / 1024, 1e-3, name);
  }
}

// ---- jenkins-hash -------------------------------------------------------------------------------

/// main.cu's hashlittle (lookup3), on 32-bit words.
unsigned hashlittle(const unsigned* k, std::size_t length, unsigned initval) {
  auto rot = [](unsigned x, int r) { return (x << r) | (x >> (32 - r)); };
  unsigned a, b, c;
  a = b = c = 0xdeadbeef + static_cast<unsigned>(length) + initval;
  while (length > 12) {
    a += k[0];
    b += k[1];
    c += k[2];
    a -= c;
    a ^= rot(c, 4);
    c += b;
    b -= a;
    b ^= rot(a, 6);
    a += c;
    c -= b;
    c ^= rot(b, 8);
    b += a;
    a -= c;
    a ^= rot(c, 16);
    c += b;
    b -= a;
    b ^= rot(a, 19);
    a += c;
    c -= b;
    c ^= rot(b, 4);
    b += a;
    length -= 12;
    k += 3;
  }
  if (length == 0) {
    return c;
  }
  const unsigned masks[4] = {0, 0xff, 0xffff, 0xffffff};
  unsigned w[3] = {0, 0, 0};
  for (std::size_t i = 0; i < 3 && 4 * i < length; ++i) {
    w[i] = length >= 4 * (i + 1) ? k[i] : k[i] & masks[length - 4 * i];
  }
  a += w[0];
  b += w[1];
  c += w[2];
  c ^= b;
  c -= rot(b, 14);
  a ^= c;
  a -= rot(c, 11);
  b ^= a;
  b -= rot(a, 25);
  c ^= b;
  c -= rot(b, 16);
  a ^= c;
  a -= rot(c, 4);
  b ^= a;
  b -= rot(a, 14);
  c ^= b;
  c -= rot(b, 24);
  return c;
}

TEST_F(Corpus, HeCBench_JenkinsHash) {
  const Program p = corpus_program("hecbench/src/jenkins-hash-cuda/main.cu");
  constexpr int N = 3000;  // main: the number of strings
  constexpr unsigned block_size = 256;
  // Keys of up to 60 bytes, each padded to 16 words (main: one string, repeated).
  const std::vector<unsigned> keys = random_vector<unsigned>(std::size_t{N} * 16, 0, ~0U);
  const std::vector<unsigned> lens = random_vector<unsigned>(N, 0, 60);  // rand() % 61
  const std::vector<unsigned> initvals = random_vector<unsigned>(N, 0, ~0U);
  std::vector<unsigned> want(N);
  for (int i = 0; i < N; i++) {
    want[i] = hashlittle(&keys[std::size_t{16} * i], lens[i], initvals[i]);
  }
  unsigned sample[8] = {};
  std::memcpy(sample, "Four score and seven years ago", 30);
  EXPECT_EQ(hashlittle(sample, 30, 1), 0xcd628161U);  // main's sample string and its gold hash
  auto d_out = poisoned<unsigned>(N);
  p.kernel<const unsigned*, const unsigned*, const unsigned*, unsigned*, int>("jk3_hash_kernel",
                                                                              device)
      .launch(LaunchConfig{.grid = {ceil_div(N, block_size)}, .block = {block_size}},
              device.upload(lens), device.upload(initvals), device.upload(keys), d_out, N);
  EXPECT_EQ(d_out.download(), want);
}

// ---- layernorm ----------------------------------------------------------------------------------

TEST_F(Corpus, HeCBench_LayerNorm) {
  const Program p = corpus_program("hecbench/src/layernorm-cuda/main.cu");
  constexpr int B = 2;  // main: B = 8, T = 1024, C = 768 in the run
  constexpr int T = 12;
  constexpr int C = 768;
  constexpr int N = B * T;
  const auto inp = random_vector<float>(std::size_t{N} * C, -1.0f, 1.0f);
  const auto weight = random_vector<float>(C, -1.0f, 1.0f);
  const auto bias = random_vector<float>(C, -1.0f, 1.0f);
  // layernorm_forward_cpu, in double
  std::vector<double> out(std::size_t{N} * C), mean(std::size_t{N}), rstd(std::size_t{N});
  for (int r = 0; r < N; r++) {
    const float* x = inp.data() + static_cast<std::size_t>(r) * C;
    double m = 0;
    for (int i = 0; i < C; i++) {
      m += x[i];
    }
    m /= C;
    double v = 0;
    for (int i = 0; i < C; i++) {
      v += (x[i] - m) * (x[i] - m);
    }
    v /= C;
    const double s = 1.0 / std::sqrt(v + 1e-5);
    for (int i = 0; i < C; i++) {
      out[static_cast<std::size_t>(r) * C + i] = s * (x[i] - m) * weight[i] + bias[i];
    }
    mean[r] = m;
    rstd[r] = s;
  }
  auto d_inp = device.upload(inp);
  auto d_weight = device.upload(weight);
  auto d_bias = device.upload(bias);
  // layernorm_forward_kernel0 is left out: its two BlockReduce calls share one __shared__ smem
  // with no barrier between the first call's last read of smem[0] and the second call's write of
  // it, a race the checked mode reports.
  for (const char* name : {"layernorm_forward_kernel1", "layernorm_forward_kernel2"}) {
    for (const unsigned block_size : {32U, 64U, 128U, 256U, 512U, 1024U}) {
      const std::string what = std::string(name) + " block " + std::to_string(block_size);
      auto d_out = poisoned<float>(std::size_t{N} * C);
      auto d_mean = poisoned<float>(N);
      auto d_rstd = poisoned<float>(N);
      p.kernel<float*, float*, float*, const float*, const float*, const float*, int, int>(name,
                                                                                           device)
          .launch(LaunchConfig{.grid = {ceil_div(std::size_t{N} * 32, block_size)},
                               .block = {block_size}},
                  d_out, d_mean, d_rstd, d_inp, d_weight, d_bias, N, C);
      expect_all_near(d_out.download(), out, 1e-4, 1e-5, what + " out");
      expect_all_near(d_mean.download(), mean, 1e-4, 1e-6, what + " mean");
      expect_all_near(d_rstd.download(), rstd, 1e-4, 1e-6, what + " rstd");
    }
  }
}

// ---- murmurhash3 --------------------------------------------------------------------------------

/// murmurhash3.cu's MurmurHash3_x64_128.
void murmur3_x64_128(const std::uint8_t* data, std::uint32_t len, std::uint32_t seed,
                     std::uint64_t out[2]) {
  auto rotl64 = [](std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); };
  auto fmix64 = [](std::uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
  };
  auto block = [&](std::uint32_t i) {
    std::uint64_t s = 0;
    for (std::uint32_t n = 0; n < 8; n++) {
      s |= static_cast<std::uint64_t>(data[8 * i + n]) << (n * 8);
    }
    return s;
  };
  const std::uint32_t nblocks = len / 16;
  std::uint64_t h1 = seed;
  std::uint64_t h2 = seed;
  const std::uint64_t c1 = 0x87c37b91114253d5ULL;
  const std::uint64_t c2 = 0x4cf5ad432745937fULL;
  for (std::uint32_t i = 0; i < nblocks; i++) {
    std::uint64_t k1 = block(i * 2 + 0);
    std::uint64_t k2 = block(i * 2 + 1);
    k1 *= c1;
    k1 = rotl64(k1, 31);
    k1 *= c2;
    h1 ^= k1;
    h1 = rotl64(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52dce729;
    k2 *= c2;
    k2 = rotl64(k2, 33);
    k2 *= c1;
    h2 ^= k2;
    h2 = rotl64(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495ab5;
  }
  const std::uint8_t* tail = data + nblocks * 16;
  std::uint64_t k1 = 0;
  std::uint64_t k2 = 0;
  const std::uint32_t rest = len & 15;
  for (std::uint32_t i = rest; i > 8; --i) {
    k2 ^= static_cast<std::uint64_t>(tail[i - 1]) << (8 * (i - 9));
  }
  if (rest > 8) {
    k2 *= c2;
    k2 = rotl64(k2, 33);
    k2 *= c1;
    h2 ^= k2;
  }
  for (std::uint32_t i = std::min(rest, 8U); i > 0; --i) {
    k1 ^= static_cast<std::uint64_t>(tail[i - 1]) << (8 * (i - 1));
  }
  if (rest > 0) {
    k1 *= c1;
    k1 = rotl64(k1, 31);
    k1 *= c2;
    h1 ^= k1;
  }
  h1 ^= len;
  h2 ^= len;
  h1 += h2;
  h2 += h1;
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 += h2;
  h2 += h1;
  out[0] = h1;
  out[1] = h2;
}

TEST_F(Corpus, HeCBench_Murmurhash3) {
  const Program p = corpus_program("hecbench/src/murmurhash3-cuda/murmurhash3.cu");
  constexpr std::uint32_t numKeys = 1000;  // main: the number of keys
  constexpr unsigned BLOCK_SIZE = 256;
  // Random bytes (main: c % 256) of random lengths (main: rand() % 10000), packed one after
  // another with their offsets in d_length.
  const std::vector<std::uint32_t> length = random_vector<std::uint32_t>(numKeys, 0, 300);
  std::vector<std::uint32_t> offsets(numKeys + 1, 0);
  for (std::uint32_t i = 0; i < numKeys; i++) {
    offsets[i + 1] = offsets[i] + length[i];
  }
  const std::vector<std::uint8_t> keys =
      random_vector<std::uint8_t>(std::max(offsets[numKeys], 1U), 0, 255);
  std::vector<std::uint64_t> want(2 * std::size_t{numKeys});
  for (std::uint32_t i = 0; i < numKeys; i++) {
    murmur3_x64_128(keys.data() + offsets[i], length[i], i, &want[2 * std::size_t{i}]);
  }
  auto d_out = poisoned<std::uint64_t>(want.size());
  p.kernel<const std::uint8_t*, const std::uint32_t*, const std::uint32_t*, std::uint64_t*,
           std::uint32_t>("MurmurHash3_x64_128_kernel", device)
      .launch(LaunchConfig{.grid = {ceil_div(numKeys, BLOCK_SIZE)}, .block = {BLOCK_SIZE}},
              device.upload(keys), device.upload(offsets), device.upload(length), d_out, numKeys);
  EXPECT_EQ(d_out.download(), want);
}

// ---- popcount -----------------------------------------------------------------------------------

TEST_F(Corpus, HeCBench_Popcount) {
  const Program p = corpus_program("hecbench/src/popcount-cuda/main.cu");
  constexpr int length = 10000;  // main: 16777216 in the run
  std::vector<unsigned long> data(length);
  for (unsigned long& x : data) {
    x = rng();
  }
  data[0] = 0;
  data[1] = ~0UL;
  std::vector<int> want(length);
  for (int i = 0; i < length; ++i) {
    want[i] = std::popcount(data[i]);
  }
  std::vector<unsigned char> lut(256);
  for (int i = 0; i < 256; ++i) {
    lut[i] = static_cast<unsigned char>(std::popcount(static_cast<unsigned>(i)));
  }
  auto d_data = device.upload(data);
  for (const char* name : {"pc1", "pc2", "pc3", "pc4", "pc5", "pc6"}) {
    const auto pc = p.kernel<const unsigned long*, int*, int>(name, device);
    if (std::string(name) == "pc5") {
      p.symbol<unsigned char[256]>("lut", device).write(lut);  // cudaMemcpyToSymbol(lut, a, ...)
    }
    auto d_result = poisoned<int>(length);
    pc.launch(LaunchConfig{.grid = {ceil_div(length, 256)}, .block = {256}}, d_data, d_result,
              length);
    EXPECT_EQ(d_result.download(), want) << name;
  }
}

// ---- relu ---------------------------------------------------------------------------------------

TEST_F(Corpus, HeCBench_Relu) {
  const Program p = corpus_program("hecbench/src/relu-cuda/main.cu");
  constexpr int count = 10001;  // odd and not a multiple of 8: both kernels' tails run
  constexpr unsigned kThreadInBlock = 256;
  const std::vector<half> feature = to_half(random_vector<float>(count, -1.0f, 1.0f));
  const std::vector<half> gradient = to_half(random_vector<float>(count, -4.0f, 4.0f));
  std::vector<float> backprop(count);  // ReluGrad_reference
  for (int i = 0; i < count; i++) {
    backprop[i] = feature[i].to_float() > 0 ? gradient[i].to_float() : 0.0f;
  }
  auto d_gradient = device.upload(gradient);
  auto d_feature = device.upload(feature);
  auto grad = [&](const char* name, int per_thread) {
    auto d_backprop = device.upload(std::vector<half>(count, half::from_bits(0x7e00)));
    p.kernel<const half*, const half*, half*, int>(name, device)
        .launch(LaunchConfig{.grid = {ceil_div(ceil_div(count, per_thread), kThreadInBlock)},
                             .block = {kThreadInBlock}},
                d_gradient, d_feature, d_backprop, count);
    expect_all_near(to_float(d_backprop.download()), backprop, 0, 0, name);
  };
  grad("ReluGrad_impl1", 2);
  grad("ReluGrad_impl2", 8);  // VectorSize

  std::vector<int> in(count);
  for (int& x : in) {
    x = static_cast<int>(rng());
  }
  std::vector<int> out(count);  // Relu_reference
  for (int i = 0; i < count; i++) {
    unsigned r = 0;
    for (int byte = 0; byte < 4; ++byte) {
      const auto c = static_cast<signed char>((in[i] >> (8 * byte)) & 0xFF);
      r |= static_cast<unsigned>(c > 0 ? c : 0) << (8 * byte);
    }
    out[i] = static_cast<int>(r);
  }
  auto d_in = device.upload(in);
  for (const char* name : {"Relu_impl1", "Relu_impl2"}) {
    auto d_out = poisoned<int>(count);
    p.kernel<int, const int*, int*>(name, device)
        .launch(LaunchConfig{.grid = {ceil_div(count, kThreadInBlock)}, .block = {kThreadInBlock}},
                count, d_in, d_out);
    EXPECT_EQ(d_out.download(), out) << name;
  }
}

// ---- reverse ------------------------------------------------------------------------------------

TEST_F(Corpus, HeCBench_Reverse) {
  const Program p = corpus_program("hecbench/src/reverse-cuda/main.cu");
  constexpr int len = 256;
  auto k = p.kernel<int*, int>("reverse", device);
  const std::vector<int> gold_even = random_vector<int>(len, -1000000, 1000000);
  std::vector<int> gold_odd(gold_even.rbegin(), gold_even.rend());
  for (const int count : {1, 2, 7, 10}) {
    auto d_test = device.upload(gold_even);
    for (int j = 0; j < count; j++) {
      k.launch(LaunchConfig{.grid = {1}, .block = {len}}, d_test, len);
    }
    EXPECT_EQ(d_test.download(), count % 2 == 0 ? gold_even : gold_odd) << count << " reversals";
  }
}

// ---- scan2 --------------------------------------------------------------------------------------

/// main's passes: block scans (ScanLargeArrays) down to one block, a scan of that block
/// (prefixSum), then the block sums added back (blockAddition).
void check_scan2(Corpus& t, const Program& p, unsigned length, unsigned blockSize) {
  SCOPED_TRACE("length " + std::to_string(length) + ", block size " + std::to_string(blockSize));
  // Integral values (main: fillRandom in [0, 255]) so that every sum is exact in float.
  std::vector<float> input(length);
  for (float& x : input) {
    x = static_cast<float>(t.rng() % 256);
  }
  const float tf = std::log(static_cast<float>(length)) / std::log(static_cast<float>(blockSize));
  auto pass = static_cast<unsigned>(tf);
  if (std::fabs(tf - static_cast<float>(pass)) < 1e-7) {
    pass--;
  }
  auto pow_bs = [&](unsigned i) {
    return static_cast<unsigned>(length /
                                 std::pow(static_cast<float>(blockSize), static_cast<float>(i)));
  };
  auto inputBuffer = t.device.upload(input);
  std::vector<DeviceBuffer<float>> outputBuffers, blockSumBuffers;
  for (unsigned i = 0; i < pass; i++) {
    outputBuffers.push_back(t.poisoned<float>(pow_bs(i)));
    blockSumBuffers.push_back(t.poisoned<float>(pow_bs(i + 1)));
  }
  const unsigned tempLength = pow_bs(pass);
  auto tempBuffer = t.poisoned<float>(tempLength);
  const auto scan = p.kernel<float*, const float*, unsigned, float*>("ScanLargeArrays", t.device);
  const auto prefix = p.kernel<float*, const float*, unsigned>("prefixSum", t.device);
  const auto add = p.kernel<const float*, float*>("blockAddition", t.device);
  auto bScan = [&](unsigned len, DeviceBuffer<float>& in, DeviceBuffer<float>& out,
                   DeviceBuffer<float>& sums) {
    scan.launch(LaunchConfig{.grid = {len / blockSize},
                             .block = {blockSize / 2},
                             .shared_bytes = sizeof(float) * blockSize},
                out, in, blockSize, sums);
  };
  auto bAddition = [&](unsigned len, DeviceBuffer<float>& in, DeviceBuffer<float>& out) {
    add.launch(LaunchConfig{.grid = {len / blockSize}, .block = {blockSize}}, in, out);
  };
  bScan(length, inputBuffer, outputBuffers[0], blockSumBuffers[0]);
  for (unsigned i = 1; i < pass; i++) {
    bScan(pow_bs(i), blockSumBuffers[i - 1], outputBuffers[i], blockSumBuffers[i]);
  }
  prefix.launch(
      LaunchConfig{
          .grid = {1}, .block = {tempLength / 2}, .shared_bytes = (tempLength + 1) * sizeof(float)},
      tempBuffer, blockSumBuffers[pass - 1], blockSize);
  bAddition(pow_bs(pass - 1), tempBuffer, outputBuffers[pass - 1]);
  for (unsigned i = pass - 1; i > 0; i--) {
    bAddition(pow_bs(i - 1), outputBuffers[i], outputBuffers[i - 1]);
  }
  std::vector<float> want(length);  // scanLargeArraysCPUReference
  want[0] = 0;
  for (unsigned i = 1; i < length; ++i) {
    want[i] = input[i - 1] + want[i - 1];
  }
  expect_all_near(outputBuffers[0].download(), want, 0, 0, "exclusive scan");
}

TEST_F(Corpus, HeCBench_Scan2) {
  const Program p = corpus_program("hecbench/src/scan2-cuda/main.cu");
  check_scan2(*this, p, 1U << 14, 256);  // one pass of block scans
  check_scan2(*this, p, 1U << 15, 64);   // two
}

// ---- softmax ------------------------------------------------------------------------------------

TEST_F(Corpus, HeCBench_Softmax) {
  const Program p = corpus_program("hecbench/src/softmax-cuda/main.cu");
  constexpr int BLOCK_SIZE = 256;
  constexpr int numSlice = 300;  // main: 100000 x 784 in the run
  constexpr int sliceSize = 784;
  constexpr int numElem = numSlice * sliceSize;
  std::vector<float> input(numElem);
  for (float& x : input) {
    x = static_cast<float>(rng() % 13);  // rand() % 13
  }
  std::vector<float> want(numElem);  // softMax_cpu
  for (int i = 0; i < numSlice; i++) {
    const float* src = input.data() + i * sliceSize;
    const float max_ = *std::max_element(src, src + sliceSize);
    double sum = 0;
    for (int j = 0; j < sliceSize; j++) {
      sum += std::exp(static_cast<double>(src[j]) - max_);
    }
    for (int j = 0; j < sliceSize; j++) {
      want[i * sliceSize + j] =
          static_cast<float>(std::exp(static_cast<double>(src[j]) - max_) / sum);
    }
  }
  auto d_input = device.upload(input);
  auto run = [&](const char* name, unsigned grid) {
    auto d_output = poisoned<float>(numElem);
    p.kernel<int, int, const float*, float*>(name, device)
        .launch(LaunchConfig{.grid = {grid}, .block = {BLOCK_SIZE}}, numSlice, sliceSize, d_input,
                d_output);
    // main's criterion is 1e-3 absolute; expf and the float sum stay well within 1e-5 relative
    expect_all_near(d_output.download(), want, 1e-5, 1e-7, name);
  };
  run("softMax", ceil_div(numSlice, BLOCK_SIZE));
  run("softMax2", ceil_div(numSlice, BLOCK_SIZE / 32));
}

// ---- stencil1d ----------------------------------------------------------------------------------

TEST_F(Corpus, HeCBench_Stencil1D) {
  const Program p = corpus_program("hecbench/src/stencil1d-cuda/stencil_1d.cu");
  constexpr int RADIUS = 7;
  constexpr unsigned BLOCK_SIZE = 256;
  constexpr int length = 8 * BLOCK_SIZE;  // main: 134217728 in the run
  const std::vector<int> a = random_vector<int>(length + RADIUS, -100000, 100000);  // padded
  auto d_a = device.upload(a);
  auto d_b = poisoned<int>(length);
  p.kernel<const int*, int*>("stencil_1d", device)
      .launch(LaunchConfig{.grid = {length / BLOCK_SIZE}, .block = {BLOCK_SIZE}}, d_a, d_b);
  std::vector<int> want(length);
  for (int i = 0; i < length; i++) {
    for (int j = i - RADIUS; j <= i + RADIUS; j++) {
      want[i] += j < 0 ? 0 : a[j];
    }
  }
  EXPECT_EQ(d_b.download(), want);
}

// ---- threadfence --------------------------------------------------------------------------------

TEST_F(Corpus, HeCBench_Threadfence) {
  const Program p = corpus_program("hecbench/src/threadfence-cuda/main.cu");
  constexpr int N = 10000;  // main: the array length argument
  constexpr unsigned blocks = 256;
  constexpr unsigned grids = (N + blocks - 1) / blocks;
  const auto array = random_vector<float>(N, 0.0f, 1.0f);
  const double want = std::accumulate(array.begin(), array.end(), 0.0);
  auto d_array = device.upload(array);
  auto d_count = device.upload(std::vector<unsigned>{0});  // cudaMemset(d_count, 0u, ...)
  auto d_result = poisoned<float>(grids);
  // The kernel's last parameter is a volatile float*: Kernel<..., volatile float*> takes no
  // DeviceBuffer<float> (arguments.hpp strips const, not volatile), so it is named float* here.
  auto sum = p.kernel<const float*, int, unsigned*, float*>("sum", device);
  for (int n = 0; n < 3; n++) {  // repeat: the last block resets the count for the next launch
    sum.launch(LaunchConfig{.grid = {grids}, .block = {blocks}}, d_array, N, d_count, d_result);
    // float atomicAdds in any order: a few ulps of the total
    EXPECT_NEAR(d_result.download()[0], want, 1e-5 * want) << "launch " << n;
    EXPECT_EQ(d_count.download()[0], 0U) << "launch " << n;
  }
}

// ---- vadd ---------------------------------------------------------------------------------------

TEST_F(Corpus, HeCBench_Vadd) {
  const Program p = corpus_program("hecbench/src/vadd-cuda/main.cu");
  constexpr int M = 32;  // main: 16384 x 8192 in the run; M % 16 == 0, N % 256 == 0
  constexpr int N = 512;
  constexpr std::size_t total = std::size_t{M} * N;
  const std::vector<half> a = to_half(random_vector<float>(total, -1.0f, 1.0f));
  const std::vector<half> b = to_half(random_vector<float>(total, -1.0f, 1.0f));
  std::vector<float> want(total);
  for (std::size_t i = 0; i < total; ++i) {
    want[i] = half(a[i].to_float() + b[i].to_float()).to_float();  // exact sum, rounded once
  }
  auto dA = device.upload(a);
  auto dB = device.upload(b);
  auto fresh = [&] { return device.upload(std::vector<half>(total, half::from_bits(0x7e00))); };
  constexpr unsigned TPB = 256;
  {
    auto dC = fresh();  // run_base
    p.kernel<const half*, const half*, half*, std::size_t>("base_elementwise_add_kernel", device)
        .launch(LaunchConfig{.grid = {ceil_div(total, TPB)}, .block = {TPB}}, dA, dB, dC, total);
    expect_all_near(to_float(dC.download()), want, 0, 0, "base_elementwise_add_kernel");
  }
  {
    auto dC = fresh();  // run_vectorized
    p.kernel<const half*, const half*, half*, std::size_t>("vectorized_elementwise_add_kernel",
                                                           device)
        .launch(LaunchConfig{.grid = {ceil_div(total, TPB * 8)}, .block = {TPB}}, dA, dB, dC,
                total);
    expect_all_near(to_float(dC.download()), want, 0, 0, "vectorized_elementwise_add_kernel");
  }
  {
    auto dC = fresh();  // run_tv_layout
    p.kernel<const half*, const half*, half*, int, int>("tv_elementwise_add_kernel", device)
        .launch(LaunchConfig{.grid = {N / 256, M / 16}, .block = {128}}, dA, dB, dC, M, N);
    expect_all_near(to_float(dC.download()), want, 0, 0, "tv_elementwise_add_kernel");
  }
}

}  // namespace
}  // namespace kjit::test
