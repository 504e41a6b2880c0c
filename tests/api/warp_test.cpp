// Warp-level intrinsics (tests/kernels/warp_ops.cu) on every backend with warps: random data,
// random masks (lanes outside a mask exit), 1-D, 2-D and partial-warp blocks, against a host
// model written from the CUDA C++ Programming Guide's definitions, not from any implementation.
#include "test_support.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>

namespace kjit::test {
namespace {

constexpr unsigned kMarker = 0x5eed;  // what a lane outside its warp's mask writes

/// A launch's shape and each warp's mask.
struct Shape {
  Dim3 block;
  unsigned grid;

  [[nodiscard]] unsigned threads_per_block() const { return block.x * block.y * block.z; }
  [[nodiscard]] unsigned warps_per_block() const { return (threads_per_block() + 31) / 32; }
  [[nodiscard]] std::size_t threads() const { return std::size_t{grid} * threads_per_block(); }
  [[nodiscard]] unsigned warps() const { return grid * warps_per_block(); }
  /// The lanes that exist in warp w (the last warp of a block may be partial).
  [[nodiscard]] unsigned existing(unsigned w) const {
    const unsigned first = (w % warps_per_block()) * 32;
    const unsigned n = std::min(32U, threads_per_block() - first);
    return n == 32 ? ~0U : (1U << n) - 1;
  }
  /// The launch index of lane j of warp w.
  [[nodiscard]] std::size_t thread(unsigned w, unsigned j) const {
    const std::size_t block = w / warps_per_block();
    const std::size_t warp = w % warps_per_block();
    return block * threads_per_block() + warp * 32 + j;
  }
};

/// n elements of v from `at`.
template <class T>
std::vector<T> slice(const std::vector<T>& v, std::size_t at, std::size_t n) {
  return {v.begin() + static_cast<std::ptrdiff_t>(at),
          v.begin() + static_cast<std::ptrdiff_t>(at + n)};
}

const Shape kShapes[] = {{{64}, 3}, {{16, 6}, 2}, {{48}, 2}};

class Warp : public DeviceTest {
 public:
  void SetUp() override {
    DeviceTest::SetUp();
    if (IsSkipped()) {
      return;
    }
    if (device.info().backend == BackendKind::hip) {
      GTEST_SKIP() << "ROCm 5's HIP has no _sync warp intrinsics (wavefronts of 64 lanes)";
    }
  }

  /// A random mask per warp: a quarter of the warps whole, the others random, none empty.
  std::vector<unsigned> masks(const Shape& shape) {
    std::vector<unsigned> out(shape.warps());
    for (unsigned w = 0; w < shape.warps(); ++w) {
      const unsigned lanes = shape.existing(w);
      unsigned m = rng() % 4 == 0 ? lanes : static_cast<unsigned>(rng()) & lanes;
      out[w] = m == 0 ? 1U : m;
    }
    return out;
  }

  Program program = Program::from_file(test_kernel_path("warp_ops.cu"));
};

/// The lane whose value lane `lane` reads (CUDA C++ Programming Guide, "Warp Shuffle Functions").
int source_lane(int mode, int lane, int arg, int width) {
  const int segment = lane / width * width;
  switch (mode) {
    case 0:  // __shfl_sync: srcLane modulo width, within the lane's segment
      return segment + arg % width;
    case 1:  // __shfl_up_sync: the lowest delta lanes of a segment keep their value
      return lane - segment >= arg ? lane - arg : lane;
    case 2:  // __shfl_down_sync: the highest delta lanes of a segment keep their value
      return lane - segment + arg < width ? lane + arg : lane;
    default: {  // __shfl_xor_sync: a later segment cannot be read
      const int j = lane ^ arg;
      return j >= segment + width ? lane : j;
    }
  }
}

template <class T>
void check_shuffles(Warp& test, Program& program, const Device& device, std::mt19937_64& rng,
                    const char* name) {
  KJIT_SEED_TRACE();
  auto k = program.kernel<const T*, const int*, const unsigned*, int, int, T*>(
      std::string("shuffle<") + name + ">", device);
  unsigned launch = 0;
  for (int mode = 0; mode < 4; ++mode) {
    for (const int width : {32, 16, 8, 4, 2, 1}) {
      const Shape& shape = kShapes[launch++ % std::size(kShapes)];
      std::vector<T> in(shape.threads());
      for (T& x : in) {
        x = static_cast<T>(static_cast<std::int64_t>(rng() % 2000000) - 1000000) / T(4);
      }
      std::vector<int> arg(shape.threads());
      for (int& a : arg) {
        a = static_cast<int>(rng() % (mode == 0 ? 64 : 32));
      }
      const std::vector<unsigned> masks = test.masks(shape);
      auto out = device.upload(std::vector<T>(shape.threads(), T(-7)));
      k.launch(LaunchConfig{.grid = {shape.grid}, .block = shape.block}, device.upload(in),
               device.upload(arg), device.upload(masks), mode, width, out);
      const std::vector<T> got = out.download();
      for (unsigned w = 0; w < shape.warps(); ++w) {
        for (unsigned lane = 0; lane < 32; ++lane) {
          if ((shape.existing(w) >> lane & 1U) == 0) {
            continue;
          }
          const std::size_t t = shape.thread(w, lane);
          SCOPED_TRACE(testing::Message() << "mode " << mode << ", width " << width << ", warp "
                                          << w << ", lane " << lane << ", mask " << std::hex
                                          << masks[w] << std::dec << ", arg " << arg[t]);
          if ((masks[w] >> lane & 1U) == 0) {
            EXPECT_EQ(got[t], T(kMarker));
            continue;
          }
          const int j = source_lane(mode, static_cast<int>(lane), arg[t], width);
          if ((masks[w] >> j & 1U) == 0) {
            continue;  // reading a lane outside the mask is undefined
          }
          EXPECT_EQ(got[t], in[shape.thread(w, static_cast<unsigned>(j))]);
        }
      }
    }
  }
}

TEST_F(Warp, ShufflesOfEveryKindWidthAndType) {
  check_shuffles<int>(*this, program, device, rng, "int");
  check_shuffles<float>(*this, program, device, rng, "float");
  check_shuffles<long long>(*this, program, device, rng, "long long");
  check_shuffles<double>(*this, program, device, rng, "double");
}

TEST_F(Warp, BallotAnyAllAndActiveMask) {
  KJIT_SEED_TRACE();
  auto k = program.kernel<const int*, const unsigned*, unsigned*>("votes", device);
  for (const Shape& shape : kShapes) {
    std::vector<int> predicate(shape.threads());
    for (unsigned w = 0; w < shape.warps(); ++w) {
      const unsigned kind = rng() % 4;  // all false, all true, or mixed
      for (unsigned j = 0; j < 32; ++j) {
        if ((shape.existing(w) >> j & 1U) != 0) {
          const int values[] = {0, 1, 7, -3};
          predicate[shape.thread(w, j)] = kind == 0   ? 0
                                          : kind == 1 ? values[1 + rng() % 3]
                                                      : values[rng() % 4];
        }
      }
    }
    const std::vector<unsigned> masks = this->masks(shape);
    auto out = poisoned<unsigned>(5 * shape.threads());
    k.launch(LaunchConfig{.grid = {shape.grid}, .block = shape.block}, device.upload(predicate),
             device.upload(masks), out);
    const std::vector<unsigned> got = out.download();
    for (unsigned w = 0; w < shape.warps(); ++w) {
      unsigned ballot = 0;
      for (unsigned j = 0; j < 32; ++j) {
        if ((masks[w] >> j & 1U) != 0 && predicate[shape.thread(w, j)] != 0) {
          ballot |= 1U << j;
        }
      }
      for (unsigned lane = 0; lane < 32; ++lane) {
        if ((shape.existing(w) >> lane & 1U) == 0) {
          continue;
        }
        const std::size_t t = shape.thread(w, lane);
        const std::vector<unsigned> have = slice(got, 5 * t, 5);
        const std::vector<unsigned> want =
            (masks[w] >> lane & 1U) == 0
                ? std::vector<unsigned>(5, kMarker)
                : std::vector<unsigned>{ballot, ballot != 0, ballot == masks[w], masks[w], 32};
        EXPECT_EQ(have, want) << "block " << shape.block.x << "x" << shape.block.y << ", warp " << w
                              << ", lane " << lane << ", mask " << std::hex << masks[w];
      }
    }
  }
}

template <class T>
void check_matches(Warp& test, Program& program, const Device& device, std::mt19937_64& rng,
                   const char* name) {
  KJIT_SEED_TRACE();
  auto k = program.kernel<const T*, const unsigned*, unsigned*>(
      std::string("matches<") + name + ">", device);
  for (const Shape& shape : kShapes) {
    // Few distinct values, apart in their high bits too, and some warps all alike.
    std::vector<T> in(shape.threads());
    for (unsigned w = 0; w < shape.warps(); ++w) {
      const bool alike = rng() % 3 == 0;
      for (unsigned j = 0; j < 32; ++j) {
        if ((shape.existing(w) >> j & 1U) != 0) {
          const T pick = alike ? 2 : static_cast<T>(rng() % 3);
          in[shape.thread(w, j)] = static_cast<T>(pick << (sizeof(T) * 8 - 2)) | T(5);
        }
      }
    }
    const std::vector<unsigned> masks = test.masks(shape);
    auto out = device.upload(std::vector<unsigned>(3 * shape.threads(), 0xA5A5A5A5U));
    k.launch(LaunchConfig{.grid = {shape.grid}, .block = shape.block}, device.upload(in),
             device.upload(masks), out);
    const std::vector<unsigned> got = out.download();
    for (unsigned w = 0; w < shape.warps(); ++w) {
      for (unsigned lane = 0; lane < 32; ++lane) {
        if ((shape.existing(w) >> lane & 1U) == 0) {
          continue;
        }
        const std::size_t t = shape.thread(w, lane);
        std::vector<unsigned> want(3, kMarker);
        if ((masks[w] >> lane & 1U) != 0) {
          unsigned same = 0;
          for (unsigned j = 0; j < 32; ++j) {
            if ((masks[w] >> j & 1U) != 0 && in[shape.thread(w, j)] == in[t]) {
              same |= 1U << j;
            }
          }
          const bool all = same == masks[w];
          want = {same, all ? masks[w] : 0U, all ? 1U : 0U};
        }
        EXPECT_EQ(slice(got, 3 * t, 3), want)
            << name << ", warp " << w << ", lane " << lane << ", mask " << std::hex << masks[w];
      }
    }
  }
}

TEST_F(Warp, MatchAnyAndMatchAll) {
  check_matches<unsigned>(*this, program, device, rng, "unsigned");
  check_matches<unsigned long long>(*this, program, device, rng, "unsigned long long");
}

TEST_F(Warp, ReductionsOverTheMask) {
  KJIT_SEED_TRACE();
  auto k =
      program.kernel<const unsigned*, const int*, const unsigned*, unsigned*>("reductions", device);
  for (const Shape& shape : kShapes) {
    std::vector<unsigned> u(shape.threads());
    std::vector<int> s(shape.threads());
    for (std::size_t i = 0; i < shape.threads(); ++i) {
      u[i] = static_cast<unsigned>(rng());
      s[i] = static_cast<int>(static_cast<unsigned>(rng()));
    }
    const std::vector<unsigned> masks = this->masks(shape);
    auto out = poisoned<unsigned>(9 * shape.threads());
    k.launch(LaunchConfig{.grid = {shape.grid}, .block = shape.block}, device.upload(u),
             device.upload(s), device.upload(masks), out);
    const std::vector<unsigned> got = out.download();
    for (unsigned w = 0; w < shape.warps(); ++w) {
      unsigned add = 0;
      unsigned umin = ~0U;
      unsigned umax = 0;
      unsigned sadd = 0;
      int smin = std::numeric_limits<int>::max();
      int smax = std::numeric_limits<int>::min();
      unsigned all_and = ~0U;
      unsigned any_or = 0;
      unsigned parity = 0;
      for (unsigned j = 0; j < 32; ++j) {
        if ((masks[w] >> j & 1U) == 0) {
          continue;
        }
        const std::size_t t = shape.thread(w, j);
        add += u[t];
        umin = std::min(umin, u[t]);
        umax = std::max(umax, u[t]);
        sadd += static_cast<unsigned>(s[t]);
        smin = std::min(smin, s[t]);
        smax = std::max(smax, s[t]);
        all_and &= u[t];
        any_or |= u[t];
        parity ^= u[t];
      }
      const std::vector<unsigned> in_mask{
          add,     umin,   umax,  sadd, static_cast<unsigned>(smin), static_cast<unsigned>(smax),
          all_and, any_or, parity};
      for (unsigned lane = 0; lane < 32; ++lane) {
        if ((shape.existing(w) >> lane & 1U) == 0) {
          continue;
        }
        const std::size_t t = shape.thread(w, lane);
        EXPECT_EQ(slice(got, 9 * t, 9),
                  (masks[w] >> lane & 1U) != 0 ? in_mask : std::vector<unsigned>(9, kMarker))
            << "warp " << w << ", lane " << lane << ", mask " << std::hex << masks[w];
      }
    }
  }
}

TEST_F(Warp, SyncwarpOrdersSharedMemoryWithinAWarp) {
  KJIT_SEED_TRACE();
  auto k = program.kernel<const int*, int*>("syncwarp_exchange", device);
  constexpr unsigned kBlock = 128;
  constexpr unsigned kGrid = 3;
  constexpr std::size_t kThreads = std::size_t{kBlock} * kGrid;
  const std::vector<int> in = random_vector<int>(kThreads, -100000, 100000);
  auto out = poisoned<int>(kThreads);
  k.launch(LaunchConfig{.grid = {kGrid}, .block = {kBlock}}, device.upload(in), out);
  const std::vector<int> got = out.download();
  for (unsigned b = 0; b < kGrid; ++b) {
    for (unsigned r = 0; r < kBlock; ++r) {
      const unsigned from = (r & ~31U) | ((r + 5) & 31U);
      const int want = in[b * kBlock + (from ^ 1U)] * 3 + static_cast<int>(from);
      EXPECT_EQ(got[b * kBlock + r], want) << "block " << b << ", thread " << r;
    }
  }
}

TEST_F(Warp, ABarrierWaitsForAWarpThatIsStillShuffling) {
  KJIT_SEED_TRACE();
  auto k = program.kernel<const int*, int*>("warp_then_barrier", device);
  constexpr unsigned kBlock = 128;
  constexpr unsigned kGrid = 3;
  constexpr std::size_t kThreads = std::size_t{kBlock} * kGrid;
  const std::vector<int> in = random_vector<int>(kThreads, -1000, 1000);
  auto out = poisoned<int>(kThreads);
  k.launch(LaunchConfig{.grid = {kGrid}, .block = {kBlock}}, device.upload(in), out);
  const std::vector<int> got = out.download();
  for (unsigned b = 0; b < kGrid; ++b) {
    const int sum = std::accumulate(in.begin() + std::ptrdiff_t{b} * kBlock,
                                    in.begin() + std::ptrdiff_t{b} * kBlock + 32, 0);
    for (unsigned r = 0; r < kBlock; ++r) {
      EXPECT_EQ(got[b * kBlock + r], sum) << "block " << b << ", thread " << r;
    }
  }
}

TEST_F(Warp, WarpsWhoseOtherThreadsLeftEarly) {
  KJIT_SEED_TRACE();
  auto k = program.kernel<const int*, int*, unsigned, unsigned, unsigned>("live_warps", device);
  constexpr unsigned kBlock = 256;
  constexpr unsigned kGrid = 3;
  constexpr std::size_t kThreads = std::size_t{kBlock} * kGrid;
  const std::vector<int> in = random_vector<int>(kThreads, -1000, 1000);
  struct Live {
    unsigned first, end, every;
  };
  // Consecutive live warps from the first, from the middle, one warp; then every other warp.
  for (const Live live :
       {Live{0, 256, 1}, Live{64, 192, 1}, Live{224, 256, 1}, Live{0, 32, 1}, Live{32, 256, 2}}) {
    auto out = poisoned<int>(kThreads);
    k.launch(LaunchConfig{.grid = {kGrid}, .block = {kBlock}}, device.upload(in), out, live.first,
             live.end, live.every);
    const std::vector<int> got = out.download();
    for (unsigned b = 0; b < kGrid; ++b) {
      const int scale = in[std::size_t{b} * kBlock] % 7 + 2;
      for (unsigned w = 0; w < kBlock / 32; ++w) {
        // __shfl_down_sync: a lane whose source is past the warp gets its own value.
        std::array<int, 32> v{};
        for (unsigned l = 0; l < 32; ++l) {
          v[l] = in[std::size_t{b} * kBlock + w * 32 + l];
        }
        for (unsigned offset = 16; offset > 0; offset /= 2) {
          std::array<int, 32> next{};
          for (unsigned l = 0; l < 32; ++l) {
            next[l] = v[l] + (l + offset < 32 ? v[l + offset] : v[l]);
          }
          v = next;
        }
        for (unsigned l = 0; l < 32; ++l) {
          const unsigned r = w * 32 + l;
          const bool lives = r >= live.first && r < live.end && w % live.every == 0;
          EXPECT_EQ(got[std::size_t{b} * kBlock + r], lives ? v[l] * scale : -1)
              << "live [" << live.first << ", " << live.end << ") every " << live.every
              << ": block " << b << ", thread " << r;
        }
      }
    }
  }
}

TEST_F(Warp, BallotInAGridStrideLoop) {
  KJIT_SEED_TRACE();
  auto k = program.kernel<const int*, unsigned*, int>("count_positive", device);
  constexpr int kN = 5003;
  const std::vector<int> in = random_vector<int>(kN, -50, 50);
  auto count = device.upload(std::vector<unsigned>{0});
  k.launch(LaunchConfig{.grid = {4}, .block = {96}}, device.upload(in), count, kN);
  const auto positive =
      static_cast<unsigned>(std::count_if(in.begin(), in.end(), [](int x) { return x > 0; }));
  EXPECT_EQ(count.download(), std::vector<unsigned>{positive});
}

TEST_F(Warp, LegacyWarpSynchronousVolatileTailIsExact) {
  // Pre-Volta code that counts on lockstep: right on every backend, never a silent wrong sum.
  KJIT_SEED_TRACE();
  auto k = program.kernel<const int*, int*>("legacy_block_sum", device);
  constexpr unsigned kGrid = 9;
  const std::vector<int> in = random_vector<int>(std::size_t{256} * kGrid, -1000, 1000);
  auto out = poisoned<int>(kGrid);
  k.launch(LaunchConfig{.grid = {kGrid}, .block = {128}}, device.upload(in), out);
  std::vector<int> want(kGrid);
  for (unsigned b = 0; b < kGrid; ++b) {
    want[b] = std::accumulate(in.begin() + std::ptrdiff_t{b} * 256,
                              in.begin() + std::ptrdiff_t{b + 1} * 256, 0);
  }
  EXPECT_EQ(out.download(), want);
}

TEST_F(Warp, AWarpMeetingRightBeforeABarrier) {
  // A warp meeting (__syncwarp(), or the lockstep meetings around a volatile shared store) right
  // before a __syncthreads(), with nothing in between: split at both, the meeting's region
  // reached the barrier and crashed on it (SHOC's scan reduce).
  KJIT_SEED_TRACE();
  const Program p = Program::from_source("meeting_then_barrier.cu", R"(
    __global__ void k(const float* in, float* out, int n) {
      __syncwarp();
      __syncthreads();
      out[threadIdx.x] = in[threadIdx.x];
    }
    __global__ void rotate(const float* in, float* out, int rounds) {
      __shared__ float s[256];
      const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
      float v = in[i];
      for (int r = 0; r < rounds; ++r) {
        s[t] = v;
        __syncwarp();
        __syncthreads();
        v = s[(t + 37) % blockDim.x] + 1.0f;
        __syncwarp();
        __syncthreads();
      }
      out[i] = v;
    }
    __global__ void rotate_volatile(const float* in, float* out, int rounds) {
      __shared__ volatile float s[256];
      const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
      float v = in[i];
      for (int r = 0; r < rounds; ++r) {
        s[t] = v;
        __syncthreads();
        v = s[(t + 37) % blockDim.x] + 1.0f;
        __syncthreads();
      }
      out[i] = v;
    }
    // SHOC's scan reduce: volatile shared memory, a tree of barriers, a warp-synchronous tail.
    template <int blockSize>
    __global__ void volatile_reduce(const int* in, int* out, int per_block) {
      extern __shared__ int shared[];
      volatile int* sdata = shared;
      const int tid = threadIdx.x;
      const int start = blockIdx.x * per_block;
      int sum = 0;
      for (int i = start + tid; i < start + per_block; i += blockSize) sum += in[i];
      sdata[tid] = sum;
      __syncthreads();
      if (blockSize >= 256) { if (tid < 128) { sdata[tid] += sdata[tid + 128]; } __syncthreads(); }
      if (blockSize >= 128) { if (tid < 64) { sdata[tid] += sdata[tid + 64]; } __syncthreads(); }
      if (tid < warpSize) {
        if (blockSize >= 64) sdata[tid] += sdata[tid + 32];
        sdata[tid] += sdata[tid + 16];
        sdata[tid] += sdata[tid + 8];
        sdata[tid] += sdata[tid + 4];
        sdata[tid] += sdata[tid + 2];
        sdata[tid] += sdata[tid + 1];
      }
      if (tid == 0) out[blockIdx.x] = sdata[0];
    })");

  auto copy = p.kernel<const float*, float*, int>("k", device);
  for (const unsigned threads : {32U, 96U}) {
    const std::vector<float> in = random_vector<float>(threads, -100.0F, 100.0F);
    auto out = poisoned<float>(threads);
    copy.launch(LaunchConfig{.grid = {1}, .block = {threads}}, device.upload(in), out,
                static_cast<int>(threads));
    EXPECT_EQ(out.download(), in) << threads << " threads";
  }

  for (const char* name : {"rotate", "rotate_volatile"}) {
    auto rotate = p.kernel<const float*, float*, int>(name, device);
    struct Launch {
      unsigned threads, blocks;
    };
    for (const auto [threads, blocks] : {Launch{32, 2}, Launch{96, 3}, Launch{48, 2}}) {
      const std::size_t n = std::size_t{threads} * blocks;
      const std::vector<float> in = random_vector<float>(n, -100.0F, 100.0F);
      for (const int rounds : {1, 3}) {
        auto out = poisoned<float>(n);
        rotate.launch(LaunchConfig{.grid = {blocks}, .block = {threads}}, device.upload(in), out,
                      rounds);
        std::vector<float> want = in;
        for (int r = 0; r < rounds; ++r) {
          std::vector<float> next(n);
          for (std::size_t i = 0; i < n; ++i) {
            const std::size_t base = i / threads * threads;
            next[i] = want[base + (i - base + 37) % threads] + 1.0F;
          }
          want = next;
        }
        EXPECT_EQ(out.download(), want)
            << name << ", " << blocks << " blocks of " << threads << ", " << rounds << " rounds";
      }
    }
  }

  constexpr unsigned kBlocks = 5;
  constexpr int kPerBlock = 1000;
  const std::vector<int> in = random_vector<int>(std::size_t{kBlocks} * kPerBlock, -1000, 1000);
  std::vector<int> want(kBlocks);
  for (unsigned b = 0; b < kBlocks; ++b) {
    want[b] = std::accumulate(in.begin() + std::ptrdiff_t{b} * kPerBlock,
                              in.begin() + std::ptrdiff_t{b + 1} * kPerBlock, 0);
  }
  for (const unsigned threads : {64U, 256U}) {
    auto reduce =
        p.kernel<const int*, int*, int>("volatile_reduce<" + std::to_string(threads) + ">", device);
    auto out = poisoned<int>(kBlocks);
    reduce.launch(LaunchConfig{.grid = {kBlocks}, .block = {threads}, .shared_bytes = threads * 4},
                  device.upload(in), out, kPerBlock);
    EXPECT_EQ(out.download(), want) << "volatile_reduce<" << threads << ">";
  }
}

TEST_F(Warp, AVoteInADivergentBranchThenTheConvergedWarpMeets) {
  // Lanes that skip a warp-level operation in a branch (odd lanes, the first half, a subset that
  // depends on the data) reach the converged warp's next operation while the branch's lanes are
  // still at theirs: the converged shuffles, votes and __syncwarp() must wait for them, as on a
  // GPU, not go on with half a warp (cooperative groups' coalesced_threads() then
  // binary_partition, cuda-samples' warpAggregatedAtomicsCG and binaryPartitionCG). The branch's
  // operation is a ballot, __activemask(), __any_sync, __all_sync, a ballot over __activemask(),
  // or a ballot through a helper function that the converged ballot calls too (one call site).
  KJIT_SEED_TRACE();
  const Program p = Program::from_source("diverged_votes.cu", R"(
    __device__ unsigned vote(unsigned mask, bool p) { return __ballot_sync(mask, p); }
    __global__ void k(const int* in, int* out, int subset_kind, int op) {
      __shared__ int s[64];
      const int t = threadIdx.x;
      const int lane = t & 31;
      const int i = blockIdx.x * blockDim.x + t;
      const int v = in[i];
      int* o = out + 9 * i;
      const bool inside = subset_kind == 0 ? (lane & 1) != 0 : subset_kind == 1 ? lane < 16
                                                                                : v % 3 == 0;
      const unsigned subset = __ballot_sync(0xffffffffu, inside);
      if (inside) {
        switch (op) {
          case 0: o[0] = (int)__ballot_sync(subset, v > 50); break;
          case 1: o[0] = (int)__activemask(); break;
          case 2: o[0] = __any_sync(subset, v > 80); break;
          case 3: o[0] = __all_sync(subset, v > 20); break;
          case 4: o[0] = (int)__ballot_sync(__activemask(), v > 50); break;
          default: o[0] = (int)vote(subset, v > 50); break;
        }
      }
      s[t] = v * 3 + 1;
      __syncwarp();
      o[1] = s[t ^ 1];
      o[2] = __shfl_sync(0xffffffffu, v, (lane * 7 + 3) & 31);
      o[3] = __shfl_xor_sync(0xffffffffu, v, 1);
      o[4] = (int)vote(0xffffffffu, (v & 1) != 0);
      o[5] = __all_sync(0xffffffffu, v > 5);
      o[6] = __any_sync(0xffffffffu, v > 95);
      int r = v;
      for (int offset = 16; offset > 0; offset /= 2) r += __shfl_xor_sync(0xffffffffu, r, offset);
      o[7] = r;
      o[8] = __shfl_down_sync(0xffffffffu, v, 5);
    })");
  auto k = p.kernel<const int*, int*, int, int>("k", device);
  constexpr unsigned kBlock = 64;
  constexpr unsigned kGrid = 3;
  constexpr std::size_t kThreads = std::size_t{kBlock} * kGrid;
  constexpr int kOut = 9;
  const char* const kSubsets[] = {"odd lanes", "first half", "v % 3 == 0"};
  const char* const kOps[] = {
      "__ballot_sync",     "__activemask", "__any_sync", "__all_sync", "ballot over __activemask",
      "ballot in a helper"};
  for (int subset_kind = 0; subset_kind < 3; ++subset_kind) {
    for (int op = 0; op < 6; ++op) {
      const std::vector<int> in = random_vector<int>(kThreads, 0, 99);
      auto out = poisoned<int>(kThreads * kOut);
      k.launch(LaunchConfig{.grid = {kGrid}, .block = {kBlock}}, device.upload(in), out,
               subset_kind, op);
      const std::vector<int> got = out.download();
      for (std::size_t warp = 0; warp < kThreads; warp += 32) {
        const auto value = [&](unsigned lane) { return in[warp + lane]; };
        const auto lanes_where = [&](auto&& predicate) {
          unsigned m = 0;
          for (unsigned l = 0; l < 32; ++l) {
            m |= predicate(l) ? 1U << l : 0U;
          }
          return m;
        };
        const unsigned subset = lanes_where([&](unsigned l) {
          return subset_kind == 0 ? (l & 1U) != 0 : subset_kind == 1 ? l < 16 : value(l) % 3 == 0;
        });
        const unsigned above_50 = lanes_where([&](unsigned l) { return value(l) > 50; }) & subset;
        const bool any_above_80 =
            (lanes_where([&](unsigned l) { return value(l) > 80; }) & subset) != 0;
        const bool all_above_20 =
            (lanes_where([&](unsigned l) { return value(l) > 20; }) & subset) == subset;
        const int branch[] = {static_cast<int>(above_50), static_cast<int>(subset),
                              any_above_80 ? 1 : 0,       all_above_20 ? 1 : 0,
                              static_cast<int>(above_50), static_cast<int>(above_50)};
        int sum = 0;
        for (unsigned l = 0; l < 32; ++l) {
          sum += value(l);
        }
        for (unsigned l = 0; l < 32; ++l) {
          const int* o = got.data() + (warp + l) * kOut;
          const std::string where = std::string(kSubsets[subset_kind]) + ", " + kOps[op] +
                                    ": thread " + std::to_string(warp + l);
          if ((subset >> l & 1U) != 0) {
            EXPECT_EQ(o[0], branch[op]) << where;
          }
          EXPECT_EQ(o[1], value(l ^ 1U) * 3 + 1) << where << " (__syncwarp)";
          EXPECT_EQ(o[2], value((l * 7 + 3) & 31U)) << where << " (__shfl_sync)";
          EXPECT_EQ(o[3], value(l ^ 1U)) << where << " (__shfl_xor_sync)";
          EXPECT_EQ(static_cast<unsigned>(o[4]),
                    lanes_where([&](unsigned u) { return (value(u) & 1) != 0; }))
              << where << " (__ballot_sync)";
          EXPECT_EQ(o[5], lanes_where([&](unsigned u) { return value(u) > 5; }) == ~0U ? 1 : 0)
              << where << " (__all_sync)";
          EXPECT_EQ(o[6], lanes_where([&](unsigned u) { return value(u) > 95; }) != 0 ? 1 : 0)
              << where << " (__any_sync)";
          EXPECT_EQ(o[7], sum) << where << " (butterfly sum)";
          EXPECT_EQ(o[8], value(l + 5 < 32 ? l + 5 : l)) << where << " (__shfl_down_sync)";
        }
      }
    }
  }
}

}  // namespace
}  // namespace kjit::test
