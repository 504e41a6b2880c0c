// __syncthreads() in the shapes real kernels use it, against host references: threads that leave
// early, barriers in both arms of a branch, state kept across barriers (scalars, private arrays,
// pointers), 3-D blocks, barriers reached through calls and through recursion. On the CPU these
// exercise both ways of running a barrier kernel: loops from barrier to barrier, and fibers (CTest
// runs this suite again with KJIT_CPU_BARRIERS=fibers).
#include "test_support.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

namespace kjit::test {
namespace {

class Barriers : public DeviceTest {};

TEST_F(Barriers, ThreadsThatReturnEarlyDoNotHoldTheOthers) {
  // The last block is partly past the end: its extra threads return before the barrier, as in
  // CUDA, where exited threads no longer count at a barrier.
  auto k = Program::from_source("early_exit.cu", R"(
    __global__ void neighbours(const int* in, int* out, int n) {
      __shared__ int s[256];
      const int t = threadIdx.x;
      const int i = blockIdx.x * blockDim.x + t;
      if (i >= n) return;
      s[t] = 2 * in[i];
      __syncthreads();
      const int live = min((int)blockDim.x, n - (int)(blockIdx.x * blockDim.x));
      out[i] = s[t] + s[(t + 1) % live];
    })")
               .kernel<const int*, int*, int>("neighbours", device);
  for (const int n : {1, 200, 256, 1000, 4097}) {
    const auto in = random_vector<int>(static_cast<std::size_t>(n), -1000, 1000);
    auto out = poisoned<int>(in.size());
    k.launch(LaunchConfig::for_elements(static_cast<std::uint64_t>(n), 256), device.upload(in), out,
             n);
    const auto o = out.download();
    for (int i = 0; i < n; ++i) {
      const int base = i / 256 * 256;
      const int live = std::min(256, n - base);
      const int partner = base + (i - base + 1) % live;
      ASSERT_EQ(o[i], 2 * in[i] + 2 * in[partner]) << "n=" << n << " i=" << i;
    }
  }
}

TEST_F(Barriers, BarriersInBothArmsOfABranchActAsOne) {
  // Odd and even threads wait at different __syncthreads() calls; every round, each reads what
  // its neighbour published before the barrier.
  auto k = Program::from_source("two_sites.cu", R"(
    __global__ void swap_rounds(const int* in, int* out, int rounds) {
      __shared__ int s[512];
      const unsigned t = threadIdx.x;
      int v = in[blockIdx.x * blockDim.x + t];
      for (int r = 0; r < rounds; ++r) {
        if (t % 2 == 1) {
          s[t] = v + 1;
          __syncthreads();
          v = s[t - 1];
        } else {
          s[t] = v * 3;
          __syncthreads();
          v = s[t + 1];
        }
        __syncthreads();
      }
      out[blockIdx.x * blockDim.x + t] = v;
    })")
               .kernel<const int*, int*, int>("swap_rounds", device);
  const unsigned blocks = 3;
  const unsigned n = 512;
  const int rounds = 5;
  const auto in = random_vector<int>(std::size_t{n} * blocks, -1000, 1000);
  auto out = poisoned<int>(in.size());
  k.launch(LaunchConfig{.grid = {blocks}, .block = {n}}, device.upload(in), out, rounds);
  std::vector<int> expect = in;
  for (int r = 0; r < rounds; ++r) {
    std::vector<int> next(expect.size());
    for (std::size_t i = 0; i < expect.size(); ++i) {
      next[i] = i % 2 == 1 ? expect[i - 1] * 3 : expect[i + 1] + 1;
    }
    expect = next;
  }
  EXPECT_EQ(out.download(), expect);
}

TEST_F(Barriers, StateKeptAcrossBarriers) {
  // A private array indexed at run time, a double, a pointer chosen per thread and a struct all
  // live across two barriers.
  auto k = Program::from_source("kept.cu", R"(
    struct Pair { int a; double b; };
    __global__ void kept(const int* x, const int* y, double* out) {
      __shared__ double s[128];
      const int t = threadIdx.x;
      int priv[8];
      for (int j = 0; j < 8; ++j) priv[j] = x[blockIdx.x * 128 + t] * (j + 1);
      const int* p = (t & 1) ? x : y;
      Pair pair{t * 7, 0.5 * t};
      double acc = p[blockIdx.x * 128 + t] * 0.25;
      s[t] = acc;
      __syncthreads();
      acc += s[127 - t];
      __syncthreads();
      s[t] = priv[t % 8] + pair.b;
      __syncthreads();
      out[blockIdx.x * 128 + t] = acc + s[(t + 3) % 128] + pair.a + p[blockIdx.x * 128 + t];
    })")
               .kernel<const int*, const int*, double*>("kept", device);
  const unsigned blocks = 6;
  const auto x = random_vector<int>(std::size_t{128} * blocks, -50, 50);
  const auto y = random_vector<int>(std::size_t{128} * blocks, -50, 50);
  auto out = poisoned<double>(x.size());
  k.launch(LaunchConfig{.grid = {blocks}, .block = {128}}, device.upload(x), device.upload(y), out);
  const auto o = out.download();
  for (unsigned b = 0; b < blocks; ++b) {
    const auto at = [&](int t) { return b * 128 + static_cast<unsigned>(t); };
    for (int t = 0; t < 128; ++t) {
      const auto& p = (t & 1) != 0 ? x : y;
      const int u = 127 - t;
      const double acc = p[at(t)] * 0.25 + ((u & 1) != 0 ? x : y)[at(u)] * 0.25;
      const int w = (t + 3) % 128;
      const double later = x[at(w)] * (w % 8 + 1) + 0.5 * w;
      ASSERT_EQ(o[at(t)], acc + later + t * 7 + p[at(t)]) << "block " << b << " thread " << t;
    }
  }
}

TEST_F(Barriers, NestedLoopsWhoseInnerCountFollowsTheOuter) {
  // A bitonic sort in shared memory: the barrier is in an inner loop that starts from the outer
  // loop's counter, which each thread keeps and updates after the barrier. (On the CPU with
  // barrier regions, threads once read a counter another thread of the same pass had already
  // advanced, and the block never finished.)
  auto k = Program::from_source("bitonic.cu", R"(
    __global__ void sort(unsigned* keys, unsigned length) {
      __shared__ unsigned s[512];
      const unsigned t = threadIdx.x;
      s[t] = keys[blockIdx.x * 512 + t];
      s[t + 256] = keys[blockIdx.x * 512 + t + 256];
      for (unsigned size = 2; size <= length; size <<= 1) {
        const unsigned down = (t & (size / 2)) != 0;
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
          __syncthreads();
          const unsigned pos = 2 * t - (t & (stride - 1));
          if ((s[pos] > s[pos + stride]) != down) {
            const unsigned x = s[pos];
            s[pos] = s[pos + stride];
            s[pos + stride] = x;
          }
        }
      }
      __syncthreads();
      keys[blockIdx.x * 512 + t] = s[t];
      keys[blockIdx.x * 512 + t + 256] = s[t + 256];
    })")
               .kernel<unsigned*, unsigned>("sort", device);
  const unsigned blocks = 4;
  const auto in = random_vector<unsigned>(512 * blocks, 0, 1000000);
  for (const unsigned length : {4U, 64U, 512U}) {
    auto keys = device.upload(in);
    k.launch(LaunchConfig{.grid = {blocks}, .block = {256}}, keys, length);
    const auto out = keys.download();
    // Runs of `length` keys, sorted up and down in turn (the full sort when length is 512).
    for (std::size_t run = 0; run < in.size() / length; ++run) {
      std::vector<unsigned> want(in.begin() + run * length, in.begin() + (run + 1) * length);
      std::sort(want.begin(), want.end());
      if (length < 512 && run % 2 == 1) {
        std::reverse(want.begin(), want.end());
      }
      ASSERT_TRUE(std::equal(want.begin(), want.end(), out.begin() + run * length))
          << "length " << length << ", run " << run;
    }
  }
}

TEST_F(Barriers, LoopsBetweenBarriersWhateverEachThreadsTripCount) {
  // On the CPU, loops that walk memory other than element by element run in step across the
  // threads (a pass over the threads per iteration) until some thread leaves them. These give
  // each thread its own trip count: a grid-stride loop with a tail, a walk down a column as long
  // as the thread wants, a chase through a table that breaks early, next to threads that
  // returned at once; then thread 0 alone walks shared memory in a given order.
  auto k = Program::from_source("walks.cu", R"(
    __global__ void walks(const int* in, int n, const int* m, int rows, const int* next,
                          const int* order, int live, int* out, int* totals) {
      __shared__ int s[256];
      const int t = threadIdx.x;
      if (t >= live) return;
      int acc = 0;
      for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) acc += in[i];
      int col = 0;
      for (int c = 0; c <= (t * 7 + (int)blockIdx.x) % 37; ++c) col += m[c * rows + t];
      int v = in[t], hops = 0;
      while (hops < 1000) {
        v = next[v & 1023];
        ++hops;
        if (v % 17 == 0) break;
      }
      s[t] = acc + 3 * col + 1000 * hops;
      __syncthreads();
      out[blockIdx.x * blockDim.x + t] = s[t];
      if (t == 0) {
        int total = 0;
        for (int j = 0; j < live; ++j) total += s[order[j]] * (j % 5 + 1);
        totals[blockIdx.x] = total;
      }
    })")
               .kernel<const int*, int, const int*, int, const int*, const int*, int, int*, int*>(
                   "walks", device);
  const int blocks = 3;
  const int threads = 256;
  const int n = 5000;  // not a multiple of the grid's 768 threads
  const int rows = threads;
  const auto in = random_vector<int>(n, 0, 100);
  const auto m = random_vector<int>(std::size_t{37} * rows, -100, 100);
  const auto next = random_vector<int>(1024, 0, 100000);
  const auto in_d = device.upload(in);
  const auto m_d = device.upload(m);
  const auto next_d = device.upload(next);
  for (const int live : {256, 200, 1}) {
    SCOPED_TRACE(live);
    std::vector<int> order(static_cast<std::size_t>(live));
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    auto out = poisoned<int>(std::size_t{blocks} * threads);
    auto totals = poisoned<int>(blocks);
    k.launch(LaunchConfig{.grid = {blocks}, .block = {threads}}, in_d, n, m_d, rows, next_d,
             device.upload(order), live, out, totals);
    const auto o = out.download();
    const auto tot = totals.download();
    for (int b = 0; b < blocks; ++b) {
      std::vector<int> s(static_cast<std::size_t>(live));
      for (int t = 0; t < live; ++t) {
        int acc = 0;
        for (int i = b * threads + t; i < n; i += blocks * threads) {
          acc += in[static_cast<std::size_t>(i)];
        }
        int col = 0;
        for (int c = 0; c <= (t * 7 + b) % 37; ++c) {
          col += m[(static_cast<std::size_t>(c) * static_cast<std::size_t>(rows)) +
                   static_cast<std::size_t>(t)];
        }
        int v = in[static_cast<std::size_t>(t)];
        int hops = 0;
        while (hops < 1000) {
          v = next[static_cast<std::size_t>(v & 1023)];
          ++hops;
          if (v % 17 == 0) {
            break;
          }
        }
        s[static_cast<std::size_t>(t)] = acc + 3 * col + 1000 * hops;
        ASSERT_EQ(o[static_cast<std::size_t>(b * threads + t)], s[static_cast<std::size_t>(t)])
            << "block " << b << " thread " << t;
      }
      int total = 0;
      for (int j = 0; j < live; ++j) {
        total += s[static_cast<std::size_t>(order[static_cast<std::size_t>(j)])] * (j % 5 + 1);
      }
      ASSERT_EQ(tot[static_cast<std::size_t>(b)], total) << "block " << b;
    }
  }
}

TEST_F(Barriers, BlocksTakingTurnsKeepTheirOwnSharedMemoryAndState) {
  // On the CPU, the blocks of a kernel with a loop in step take turns on a worker, an iteration
  // each, and a block that ends gives its place to the next. Here each block walks a column as
  // long as its own (none for some), keeping a sum in a register, while its shared memory holds
  // what it wrote before the loop, which the other blocks on the worker must not touch.
  auto k = Program::from_source("turns.cu", R"(
    __global__ void turns(const int* in, const int* lengths, int stride, int* out) {
      __shared__ int s[256];
      const int t = threadIdx.x;
      s[t] = (int)blockIdx.x * 1000 + t;
      int acc = 0;
      const int len = lengths[blockIdx.x];
      for (int r = 0; r < len; ++r) {
        acc += in[r * stride + t] * (r + 1);
      }
      __syncthreads();
      out[blockIdx.x * blockDim.x + t] = acc - 3 * s[blockDim.x - 1 - t];
    })")
               .kernel<const int*, const int*, int, int*>("turns", device);
  for (const auto& [blocks, threads] : {std::pair{200, 128}, std::pair{3, 256}, std::pair{9, 64}}) {
    SCOPED_TRACE(testing::Message() << blocks << " blocks of " << threads);
    const int rows = 40;
    const auto in = random_vector<int>(std::size_t{rows} * threads, -1000, 1000);
    const auto lengths = random_vector<int>(std::size_t(blocks), 0, rows);
    auto out = poisoned<int>(std::size_t(blocks) * threads);
    k.launch(LaunchConfig{.grid = {unsigned(blocks)}, .block = {unsigned(threads)}},
             device.upload(in), device.upload(lengths), threads, out);
    const auto o = out.download();
    for (int b = 0; b < blocks; ++b) {
      const int len = lengths[std::size_t(b)];
      for (int t = 0; t < threads; ++t) {
        int acc = 0;
        for (int r = 0; r < len; ++r) {
          acc += in[std::size_t(r) * threads + t] * (r + 1);
        }
        ASSERT_EQ(o[std::size_t(b) * threads + t], acc - 3 * (b * 1000 + threads - 1 - t))
            << "block " << b << " (length " << len << ") thread " << t;
      }
    }
  }
}

TEST_F(Barriers, ConditionsOnTheThreadIndexAgainstABlockWideBound) {
  // `if (t < bound)` with a bound the same in every thread: from an argument (negative, zero, or
  // past the block), from a value kept across barriers (a reduction tree's stride), signed and
  // unsigned, <, <=, > and >=, either side. On the CPU such a region runs as two loops, the
  // threads below the bound and those above it, each with the condition made constant.
  auto k = Program::from_source("guards.cu", R"(
    __global__ void guarded(const int* in, int* out, int k, unsigned uk) {
      __shared__ int s[256];
      const unsigned t = threadIdx.x;
      const int ti = threadIdx.x;
      const int i = blockIdx.x * blockDim.x + t;
      int v = in[i];
      s[t] = v;
      __syncthreads();
      if (t < uk) v += s[(t + 1) % blockDim.x];
      __syncthreads();
      if (ti <= k) v -= 3 * s[blockDim.x - 1 - t];
      __syncthreads();
      if (k - 7 < ti) v *= 2;
      __syncthreads();
      if (uk >= t) v ^= 5;
      __syncthreads();
      if (ti >= k + 1) v += 11;
      __syncthreads();
      for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
      }
      out[i] = v + s[0];
    })")
               .kernel<const int*, int*, int, unsigned>("guarded", device);
  const unsigned blocks = 3;
  for (const unsigned threads : {256U, 64U}) {
    const auto in = random_vector<int>(std::size_t{blocks} * threads, -1000, 1000);
    const auto in_d = device.upload(in);
    for (const int kk : {-5, 0, 1, 37, 64, 255, 300}) {
      for (const unsigned uk : {0U, 1U, 63U, 200U, 256U, 0xffffffffU}) {
        SCOPED_TRACE(testing::Message() << threads << " threads, k=" << kk << ", uk=" << uk);
        auto out = poisoned<int>(in.size());
        k.launch(LaunchConfig{.grid = {blocks}, .block = {threads}}, in_d, out, kk, uk);
        const auto o = out.download();
        for (unsigned b = 0; b < blocks; ++b) {
          const auto at = [&](unsigned t) { return std::size_t{b} * threads + t; };
          long total = 0;
          for (unsigned t = 0; t < threads; ++t) {
            total += in[at(t)];
          }
          for (unsigned t = 0; t < threads; ++t) {
            const int ti = static_cast<int>(t);
            int v = in[at(t)];
            if (t < uk) {
              v += in[at((t + 1) % threads)];
            }
            if (ti <= kk) {
              v -= 3 * in[at(threads - 1 - t)];
            }
            if (kk - 7 < ti) {
              v *= 2;
            }
            if (uk >= t) {
              v ^= 5;
            }
            if (ti >= kk + 1) {
              v += 11;
            }
            ASSERT_EQ(o[at(t)], v + total) << "block " << b << " thread " << t;
          }
        }
      }
    }
  }
}

TEST_F(Barriers, BlockWideValuesReachThreadsThatPartAtDifferentBarriers) {
  // A loop counter, the same in every thread, lives across the barriers of a loop that all
  // threads run together; then odd and even warps wait at different barriers and each thread
  // goes on alone, reading the counter. On the CPU the passes over all threads keep such a value
  // once, and every thread must see it when they part. (The branch is the same across each warp:
  // an H100 gave wrong results for some threads when it split a warp here.)
  auto k = Program::from_source("part.cu", R"(
    __global__ void part(const int* in, int* out, int rounds) {
      __shared__ int s[256];
      const unsigned t = threadIdx.x;
      int v = in[blockIdx.x * blockDim.x + t];
      int r = 0;
      for (; r < rounds; ++r) {
        s[t] = v;
        __syncthreads();
        v += s[(t + 1) % blockDim.x] % 7 + r;
        __syncthreads();
      }
      if (t / 32 % 2 == 1) {
        s[t] = v + r;
        __syncthreads();
        v = s[t - 32] * r;
      } else {
        s[t] = v - r;
        __syncthreads();
        v = s[t + 32] + 2 * r;
      }
      out[blockIdx.x * blockDim.x + t] = v + r;
    })")
               .kernel<const int*, int*, int>("part", device);
  const unsigned blocks = 4;
  const unsigned threads = 256;
  const auto in = random_vector<int>(std::size_t{blocks} * threads, -1000, 1000);
  for (const int rounds : {0, 1, 5}) {
    SCOPED_TRACE(rounds);
    auto out = poisoned<int>(in.size());
    k.launch(LaunchConfig{.grid = {blocks}, .block = {threads}}, device.upload(in), out, rounds);
    const auto o = out.download();
    for (unsigned b = 0; b < blocks; ++b) {
      std::vector<int> v(threads);
      std::vector<int> next(threads);
      for (unsigned t = 0; t < threads; ++t) {
        v[t] = in[std::size_t{b} * threads + t];
      }
      for (int r = 0; r < rounds; ++r) {
        for (unsigned t = 0; t < threads; ++t) {
          next[t] = v[t] + v[(t + 1) % threads] % 7 + r;
        }
        v.swap(next);
      }
      for (unsigned t = 0; t < threads; ++t) {
        const int expect =
            t / 32 % 2 == 1 ? (v[t - 32] - rounds) * rounds : v[t + 32] + rounds + 2 * rounds;
        ASSERT_EQ(o[std::size_t{b} * threads + t], expect + rounds)
            << "block " << b << " thread " << t;
      }
    }
  }
}

TEST_F(Barriers, ThreeDimensionalBlocks) {
  auto k = Program::from_source("cube.cu", R"(
    __global__ void mirror(int* out) {
      __shared__ int s[4][8][16];
      const unsigned x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
      s[z][y][x] = (int)(((blockIdx.x * 4 + z) * 8 + y) * 16 + x);
      __syncthreads();
      const int v = s[blockDim.z - 1 - z][blockDim.y - 1 - y][blockDim.x - 1 - x];
      out[((blockIdx.x * 4 + z) * 8 + y) * 16 + x] = v;
    })")
               .kernel<int*>("mirror", device);
  const unsigned blocks = 3;
  auto out = poisoned<int>(std::size_t{blocks} * 4 * 8 * 16);
  k.launch(LaunchConfig{.grid = {blocks}, .block = {16, 8, 4}}, out);
  const auto o = out.download();
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned z = 0; z < 4; ++z) {
      for (unsigned y = 0; y < 8; ++y) {
        for (unsigned x = 0; x < 16; ++x) {
          const auto index = [&](unsigned zz, unsigned yy, unsigned xx) {
            return static_cast<int>(((b * 4 + zz) * 8 + yy) * 16 + xx);
          };
          ASSERT_EQ(o[static_cast<std::size_t>(index(z, y, x))], index(3 - z, 7 - y, 15 - x));
        }
      }
    }
  }
}

TEST_F(Barriers, ThreadIndicesThatWrapPastTheLargestInt) {
  // `offset + threadIdx.x` is unsigned arithmetic made an int: past INT_MAX it wraps to negative
  // numbers, as in CUDA. The CPU backend runs a pass over threads as vectors only where no
  // thread's index can wrap, and must give the wrapped values where some can.
  auto k = Program::from_source("wrap.cu", R"(
    __global__ void wrap(const int* in, int* out, int offset) {
      __shared__ int s[256];
      __shared__ long long wide[256];  // -1 in the high half where i wrapped
      const unsigned t = threadIdx.x;
      const int i = offset + t;
      s[t] = i % 1000 + in[t];
      wide[t] = i;
      __syncthreads();
      const unsigned m = blockDim.x - 1 - t;
      out[blockIdx.x * blockDim.x + t] = (int)(wide[m] >> 32) * 7 + s[m];
    })")
               .kernel<const int*, int*, int>("wrap", device);
  const unsigned n = 256;
  const auto in = random_vector<int>(n, -1000, 1000);
  for (const int offset :
       {0, 5, std::numeric_limits<int>::max() - 100, std::numeric_limits<int>::max() - 255, -50,
        std::numeric_limits<int>::min()}) {
    auto out = poisoned<int>(std::size_t{2} * n);
    k.launch(LaunchConfig{.grid = {2}, .block = {n}}, device.upload(in), out, offset);
    const auto o = out.download();
    for (unsigned b = 0; b < 2; ++b) {
      for (unsigned t = 0; t < n; ++t) {
        const unsigned mirror = n - 1 - t;
        const auto i = static_cast<int>(static_cast<unsigned>(offset) + mirror);
        const int expect = (i < 0 ? -7 : 0) + i % 1000 + in[mirror];
        ASSERT_EQ(o[std::size_t{b} * n + t], expect) << "offset " << offset << " thread " << t;
      }
    }
  }
}

TEST_F(Barriers, LoopIndicesInStepThatWrapPastTheLargestInt) {
  // A loop run in step (its reads jump) keeps each thread's index at its stop. When every kept
  // index is the first thread's plus the thread's own, the CPU backend runs a copy of the pass
  // that computes the indices so, as sums that do not wrap: it may take that copy only where no
  // thread's sum passes INT_MAX, and must give the wrapped values elsewhere, as CUDA does.
  auto k = Program::from_source("wrap_loop.cu", R"(
    __global__ void wrap_loop(const int* table, long long* out, int offset, int trips) {
      __shared__ long long s[256];
      const unsigned t = threadIdx.x;
      long long acc = 0;
      int i = (int)((unsigned)offset + t);
      for (int k = 0; k < trips; ++k) {
        acc += (long long)i * 3 + table[(unsigned)i % 97u];
        i = (int)((unsigned)i + blockDim.x);
      }
      s[t] = acc;
      __syncthreads();
      out[blockIdx.x * blockDim.x + t] = s[blockDim.x - 1 - t];
    })")
               .kernel<const int*, long long*, int, int>("wrap_loop", device);
  const unsigned n = 256;
  const int trips = 40;
  const auto table = random_vector<int>(97, -1000, 1000);
  auto dtable = device.upload(table);
  for (const int offset :
       {0, std::numeric_limits<int>::max() - 100, std::numeric_limits<int>::max() - 255 - 256 * 5,
        std::numeric_limits<int>::max() - 255, -50, std::numeric_limits<int>::min()}) {
    auto out = poisoned<long long>(n);
    k.launch(LaunchConfig{.grid = {1}, .block = {n}}, dtable, out, offset, trips);
    const auto o = out.download();
    for (unsigned t = 0; t < n; ++t) {
      const unsigned mirror = n - 1 - t;
      long long expect = 0;
      unsigned i = static_cast<unsigned>(offset) + mirror;
      for (int k2 = 0; k2 < trips; ++k2, i += n) {
        expect += static_cast<long long>(static_cast<int>(i)) * 3 + table[i % 97U];
      }
      ASSERT_EQ(o[t], expect) << "offset " << offset << " thread " << t;
    }
  }
}

TEST_F(Barriers, ThreadsLeaveALoopInStepAtEveryIterationOfAPass) {
  // The CPU backend runs several iterations of a loop in step per pass over the block's threads
  // (four copies of its body, each with its own exit test): the threads of a block must leave the
  // loop at whichever copy their last iteration falls on, each with its own count and sum.
  auto k = Program::from_source("strided_sums.cu", R"(
    __global__ void strided_sums(const int* in, long long* out, int n) {
      __shared__ long long s[128];
      long long acc = 0;
      int trips = 0;
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        acc += (long long)in[i] * (trips + 1);
        ++trips;
      }
      s[threadIdx.x] = acc * 1000 + trips;
      __syncthreads();
      out[blockIdx.x * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
    })")
               .kernel<const int*, long long*, int>("strided_sums", device);
  KJIT_SEED_TRACE();
  constexpr unsigned kGrid = 3;
  constexpr unsigned kBlock = 128;
  constexpr int kStride = static_cast<int>(kGrid * kBlock);
  const int most = kStride * 13;
  const auto in = random_vector<int>(static_cast<std::size_t>(most), -100, 100);
  auto din = device.upload(in);
  // Whole passes, and each remainder of one to three iterations, with a partial stride.
  for (const int n : {1, kStride - 1, kStride * 4, kStride * 4 + 5, kStride * 5 + 200,
                      kStride * 6 + kStride - 1, kStride * 7 + 1, most}) {
    auto out = poisoned<long long>(kGrid * kBlock);
    k.launch(LaunchConfig{.grid = {kGrid}, .block = {kBlock}}, din, out, n);
    const auto o = out.download();
    for (unsigned b = 0; b < kGrid; ++b) {
      for (unsigned t = 0; t < kBlock; ++t) {
        const unsigned mirror = kBlock - 1 - t;
        long long acc = 0;
        int trips = 0;
        for (int i = static_cast<int>(b * kBlock + mirror); i < n; i += kStride) {
          acc += static_cast<long long>(in[static_cast<std::size_t>(i)]) * (trips + 1);
          ++trips;
        }
        ASSERT_EQ(o[b * kBlock + t], acc * 1000 + trips)
            << "n " << n << " block " << b << " thread " << t;
      }
    }
  }
}

TEST_F(Barriers, BarriersInCalledAndRecursiveFunctions) {
  // A barrier inside a __noinline__ function, and one inside a (uniformly) recursive function:
  // the CPU backend inlines the first and runs the second on fibers.
  auto k = Program::from_source("called.cu", R"(
    __device__ __noinline__ int exchange(int* s, int v) {
      const unsigned t = threadIdx.x;
      s[t] = v;
      __syncthreads();
      const int w = s[blockDim.x - 1 - t];
      __syncthreads();
      return w;
    }
    __device__ int steps(int* s, int v, int depth) {
      if (depth == 0) return v;
      return steps(s, exchange(s, v) + 1, depth - 1);
    }
    __global__ void called(const int* in, int* out, int depth) {
      __shared__ int s[256];
      const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
      out[2 * i] = exchange(s, in[i]);
      out[2 * i + 1] = steps(s, in[i], depth);
    })")
               .kernel<const int*, int*, int>("called", device);
  const unsigned blocks = 4;
  const unsigned n = 256;
  const int depth = 5;
  const auto in = random_vector<int>(std::size_t{n} * blocks, -1000, 1000);
  auto out = poisoned<int>(2 * in.size());
  k.launch(LaunchConfig{.grid = {blocks}, .block = {n}}, device.upload(in), out, depth);
  const auto o = out.download();
  for (unsigned b = 0; b < blocks; ++b) {
    for (unsigned t = 0; t < n; ++t) {
      const unsigned i = b * n + t;
      const unsigned mirror = b * n + n - 1 - t;
      ASSERT_EQ(o[std::size_t{2} * i], in[mirror]) << i;
      // Each step swaps with the mirror thread and adds one: an odd depth ends mirrored.
      ASSERT_EQ(o[2 * i + 1], (depth % 2 == 1 ? in[mirror] : in[i]) + depth) << i;
    }
  }
}

}  // namespace
}  // namespace kjit::test
