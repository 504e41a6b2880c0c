// Warp shuffles with full masks that every lane reaches together (tests/kernels/warp_lanes.cu),
// on random data, on 1-D, 2-D and partial-warp blocks, against a host model of CUDA's definition.
// The CPU backend runs them with a warp's lanes as vectors; the same tests run again with
// KJIT_CPU_WARPS=meetings (cpu-warp-meetings.*), so that both ways give the same bits.
#include "test_support.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace kjit::test {
namespace {

struct Shape {
  Dim3 block;
  unsigned grid;

  [[nodiscard]] unsigned per_block() const { return block.x * block.y * block.z; }
  [[nodiscard]] std::size_t threads() const { return std::size_t{grid} * per_block(); }
  /// Whether lane j of the warp of thread t exists (a block's last warp may be partial).
  [[nodiscard]] bool exists(std::size_t t, unsigned j) const {
    const std::size_t rank = t % per_block();
    return rank / 32 * 32 + j < per_block();
  }
  /// The thread that is lane j of thread t's warp.
  [[nodiscard]] std::size_t at(std::size_t t, unsigned j) const {
    return t - t % per_block() + t % per_block() / 32 * 32 + j;
  }
};

/// Blocks of whole warps in one row, rows of whole warps, warps across rows, and (on the CPU,
/// where missing lanes are masked off) a partial warp.
const Shape kShapes[] = {{{64}, 3}, {{32, 3}, 2}, {{16, 6}, 2}, {{8, 4, 2}, 2}, {{48}, 2}};

class WarpLanes : public DeviceTest {
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

  Program program = Program::from_file(test_kernel_path("warp_lanes.cu"));
};

/// The lane whose value lane `lane` reads (CUDA C++ Programming Guide, "Warp Shuffle Functions").
int source_lane(int mode, int lane, int arg, int width) {
  const int segment = lane / width * width;
  switch (mode) {
    case 0:
      return segment + arg % width;
    case 1:
      return lane - segment >= arg ? lane - arg : lane;
    case 2:
      return lane - segment + arg < width ? lane + arg : lane;
    default: {
      const int j = lane ^ arg;
      return j >= segment + width ? lane : j;
    }
  }
}

template <class T>
void check_shuffles(WarpLanes& test, const char* name) {
  KJIT_SEED_TRACE();
  auto k = test.program.kernel<const T*, const int*, int, int, T*>(
      std::string("shuffle_full<") + name + ">", test.device);
  unsigned launch = 0;
  for (int mode = 0; mode < 4; ++mode) {
    for (const int width : {32, 16, 8, 4, 2, 1}) {
      const Shape& shape = kShapes[launch++ % std::size(kShapes)];
      if (shape.per_block() % 32 != 0 && test.device.info().backend != BackendKind::cpu) {
        continue;  // a full mask in a partial warp names lanes a GPU does not have: undefined
      }
      std::vector<T> in(shape.threads());
      for (T& x : in) {
        x = static_cast<T>(static_cast<std::int64_t>(test.rng() % 2000000) - 1000000) / T(4);
      }
      std::vector<int> arg(shape.threads());
      // Up, down and xor by one distance for all lanes, as code does; the source lane per lane.
      const int shared = static_cast<int>(test.rng() % 32);
      for (int& a : arg) {
        a = mode == 0 ? static_cast<int>(test.rng() % 64) : shared;
      }
      auto out = test.device.upload(std::vector<T>(shape.threads(), T(-7)));
      k.launch(LaunchConfig{.grid = {shape.grid}, .block = shape.block}, test.device.upload(in),
               test.device.upload(arg), mode, width, out);
      const std::vector<T> got = out.download();
      for (std::size_t t = 0; t < shape.threads(); ++t) {
        const int lane = static_cast<int>(t % shape.per_block() % 32);  // warps are per block
        const int j = source_lane(mode, lane, arg[t], width);
        SCOPED_TRACE(testing::Message() << "mode " << mode << ", width " << width << ", block "
                                        << shape.block.x << "x" << shape.block.y << "x"
                                        << shape.block.z << ", thread " << t << ", arg " << arg[t]);
        if (!shape.exists(t, static_cast<unsigned>(j))) {
          continue;  // a lane the block does not have: undefined
        }
        EXPECT_EQ(got[t], in[shape.at(t, static_cast<unsigned>(j))]);
      }
    }
  }
}

TEST_F(WarpLanes, ShufflesOfEveryKindWidthAndTypeMatchCudasDefinition) {
  check_shuffles<int>(*this, "int");
  check_shuffles<unsigned>(*this, "unsigned");
  check_shuffles<float>(*this, "float");
  check_shuffles<long long>(*this, "long long");
  check_shuffles<double>(*this, "double");
}

/// warp_sums's two reductions, in the order the shuffles add (bit for bit).
template <class T>
void check_sums(WarpLanes& test, const char* name) {
  KJIT_SEED_TRACE();
  auto k = test.program.kernel<const T*, int, T*, T*>(std::string("warp_sums<") + name + ">",
                                                      test.device);
  constexpr int kPerThread = 5;
  for (const Shape& shape : {kShapes[0], kShapes[1], kShapes[2], kShapes[3]}) {
    const std::size_t n = shape.threads();
    std::vector<T> in(n * kPerThread);
    for (T& x : in) {
      x = static_cast<T>(static_cast<std::int64_t>(test.rng() % 2000001) - 1000000) / T(1024);
    }
    auto firsts = test.device.upload(std::vector<T>(n / 32, T(-7)));
    auto all = test.device.upload(std::vector<T>(n, T(-7)));
    k.launch(LaunchConfig{.grid = {shape.grid}, .block = shape.block}, test.device.upload(in),
             kPerThread, firsts, all);
    const std::vector<T> got_firsts = firsts.download();
    const std::vector<T> got_all = all.download();
    for (std::size_t w = 0; w < n / 32; ++w) {
      std::vector<T> acc(32);
      std::vector<T> other(32);
      for (unsigned l = 0; l < 32; ++l) {
        const std::size_t t = w * 32 + l;
        acc[l] = 0;
        for (int i = 0; i < kPerThread - static_cast<int>(t % 3); ++i) {
          acc[l] += in[t * kPerThread + i];
        }
        other[l] = in[t * kPerThread] * T(3);
      }
      for (unsigned offset = 16; offset > 0; offset /= 2) {
        std::vector<T> next(32);
        for (unsigned l = 0; l < 32; ++l) {
          next[l] = acc[l] + (l + offset < 32 ? acc[l + offset] : acc[l]);
        }
        acc = next;
      }
      for (unsigned offset = 1; offset < 32; offset *= 2) {
        std::vector<T> next(32);
        for (unsigned l = 0; l < 32; ++l) {
          next[l] = other[l] + other[l ^ offset];
        }
        other = next;
      }
      SCOPED_TRACE(testing::Message() << "block " << shape.block.x << "x" << shape.block.y << "x"
                                      << shape.block.z << ", warp " << w);
      EXPECT_EQ(got_firsts[w], acc[0]);
      for (unsigned l = 0; l < 32; ++l) {
        EXPECT_EQ(got_all[w * 32 + l], other[l]) << "lane " << l;
      }
    }
  }
}

TEST_F(WarpLanes, ShuffleReductionsAddInTheOrderOfTheirShuffles) {
  check_sums<float>(*this, "float");
  check_sums<double>(*this, "double");
  check_sums<int>(*this, "int");
}

TEST_F(WarpLanes, AtomicsAfterShufflesRunOncePerLane) {
  KJIT_SEED_TRACE();
  auto k = program.kernel<const int*, int*, int*>("warp_claims", device);
  const Shape shape{{128}, 4};
  std::vector<int> in(shape.threads());
  for (int& x : in) {
    x = static_cast<int>(rng() % 2001) - 1000;
  }
  auto slots = device.upload(std::vector<int>(shape.threads() / 32, 0));
  auto total = device.upload(std::vector<int>{0});
  k.launch(LaunchConfig{.grid = {shape.grid}, .block = shape.block}, device.upload(in), slots,
           total);
  const std::vector<int> got = slots.download();
  long long sum = 0;
  for (std::size_t w = 0; w < got.size(); ++w) {
    int s = 0;
    for (unsigned l = 0; l < 32; ++l) {
      s += in[w * 32 + l];
    }
    EXPECT_EQ(got[w], s + 1) << "warp " << w;
    sum += s;
  }
  EXPECT_EQ(total.download()[0], sum);
}

TEST_F(WarpLanes, ALoopOfShufflesThatNeverRunsLeavesTheValues) {
  KJIT_SEED_TRACE();
  auto one = program.kernel<const int*, int*>("segment_sums<1>", device);
  auto four = program.kernel<const int*, int*>("segment_sums<4>", device);
  std::vector<int> in(256);
  for (int& x : in) {
    x = static_cast<int>(rng() % 2001) - 1000;
  }
  auto out = device.upload(std::vector<int>(in.size(), -7));
  one.launch(LaunchConfig{.grid = {2}, .block = {128}}, device.upload(in), out);
  EXPECT_EQ(out.download(), in);
  four.launch(LaunchConfig{.grid = {2}, .block = {128}}, device.upload(in), out);
  const std::vector<int> got = out.download();
  for (std::size_t t = 0; t < in.size(); ++t) {
    const std::size_t first = t / 4 * 4;
    EXPECT_EQ(got[t], in[first] + in[first + 1] + in[first + 2] + in[first + 3]) << t;
  }
}

/// The lanes of the warp of thread t (the first of the warp: `first`) that exist, as a mask.
unsigned existing_lanes(const Shape& shape, std::size_t first) {
  unsigned lanes = 0;
  for (unsigned j = 0; j < 32; ++j) {
    lanes |= (shape.exists(first, j) ? 1U : 0U) << j;
  }
  return lanes;
}

/// Shapes for votes and reductions: every one on the CPU, whole warps on a GPU.
std::vector<Shape> shapes_for(const Device& device) {
  std::vector<Shape> out;
  for (const Shape& shape : kShapes) {
    if (shape.per_block() % 32 == 0 || device.info().backend == BackendKind::cpu) {
      out.push_back(shape);
    }
  }
  return out;
}

TEST_F(WarpLanes, VotesOfEveryKindMatchCudasDefinition) {
  KJIT_SEED_TRACE();
  auto k = program.kernel<const int*, unsigned*>("votes_full", device);
  for (const Shape& shape : shapes_for(device)) {
    // Per warp, all predicates true, all false, or mixed: any, all and uni each both ways.
    std::vector<int> in(shape.threads());
    std::uint64_t kind = 0;
    for (std::size_t t = 0; t < in.size(); ++t) {
      kind = shape.at(t, 0) == t ? rng() % 3 : kind;  // a warp's lanes are consecutive
      const int magnitude = static_cast<int>(rng() % 1000) + 1;
      in[t] = kind == 0   ? magnitude
              : kind == 1 ? -magnitude
                          : (rng() % 2 == 0 ? 1 : -1) * magnitude;
    }
    auto out = device.upload(std::vector<unsigned>(4 * shape.threads(), 7U));
    k.launch(LaunchConfig{.grid = {shape.grid}, .block = shape.block}, device.upload(in), out);
    const std::vector<unsigned> got = out.download();
    for (std::size_t t = 0; t < shape.threads(); ++t) {
      const std::size_t first = shape.at(t, 0);
      const unsigned lanes = existing_lanes(shape, t);
      unsigned ballot = 0;
      for (unsigned j = 0; j < 32; ++j) {
        ballot |= ((lanes >> j & 1U) != 0 && in[first + j] > 0 ? 1U : 0U) << j;
      }
      SCOPED_TRACE(testing::Message() << "block " << shape.block.x << "x" << shape.block.y << "x"
                                      << shape.block.z << ", thread " << t);
      EXPECT_EQ(got[4 * t], ballot);
      EXPECT_EQ(got[4 * t + 1], ballot != 0 ? 1U : 0U);
      EXPECT_EQ(got[4 * t + 2], ballot == lanes ? 1U : 0U);
      EXPECT_EQ(got[4 * t + 3], ballot == 0 || ballot == lanes ? 1U : 0U);
    }
  }
}

TEST_F(WarpLanes, ReductionsOfEveryKindMatchCudasDefinition) {
  KJIT_SEED_TRACE();
  auto k = program.kernel<const unsigned*, unsigned*>("reductions_full", device);
  for (const Shape& shape : shapes_for(device)) {
    std::vector<unsigned> in(shape.threads());
    for (unsigned& x : in) {
      x = static_cast<unsigned>(rng());
    }
    auto out = device.upload(std::vector<unsigned>(9 * shape.threads(), 7U));
    k.launch(LaunchConfig{.grid = {shape.grid}, .block = shape.block}, device.upload(in), out);
    const std::vector<unsigned> got = out.download();
    for (std::size_t t = 0; t < shape.threads(); ++t) {
      const std::size_t first = shape.at(t, 0);
      const unsigned lanes = existing_lanes(shape, t);
      std::vector<unsigned> want = {0U, ~0U, 0U, ~0U, 0U, 0U, 0U, 0x7fffffffU, 0x80000000U};
      for (unsigned j = 0; j < 32; ++j) {
        if ((lanes >> j & 1U) == 0) {
          continue;
        }
        const unsigned v = in[first + j];
        const auto s = static_cast<int>(v);
        want[0] += v;
        want[1] = std::min(want[1], v);
        want[2] = std::max(want[2], v);
        want[3] &= v;
        want[4] |= v;
        want[5] ^= v;
        want[6] += v;  // an int add that wraps, in unsigned
        want[7] = static_cast<unsigned>(std::min(static_cast<int>(want[7]), s));
        want[8] = static_cast<unsigned>(std::max(static_cast<int>(want[8]), s));
      }
      const std::vector<unsigned> row(got.begin() + static_cast<std::ptrdiff_t>(9 * t),
                                      got.begin() + static_cast<std::ptrdiff_t>(9 * t + 9));
      EXPECT_EQ(row, want) << "block " << shape.block.x << "x" << shape.block.y << "x"
                           << shape.block.z << ", thread " << t;
    }
  }
}

TEST_F(WarpLanes, CooperativeGroupsTilesOfSixteenAndEightMatchTheirDefinition) {
  KJIT_SEED_TRACE();
  auto k = program.kernel<const int*, int*>("tiles", device);
  for (const Shape& shape : shapes_for(device)) {
    std::vector<int> in(shape.threads());
    std::uint64_t kind = 0;  // per tile of 16: all positive, all negative, or mixed
    for (std::size_t t = 0; t < in.size(); ++t) {
      kind = t % shape.per_block() % 16 == 0 ? rng() % 3 : kind;
      const int magnitude = static_cast<int>(rng() % 1000) + 1;
      in[t] = kind == 0   ? magnitude
              : kind == 1 ? -magnitude
                          : (rng() % 2 == 0 ? 1 : -1) * magnitude;
    }
    auto out = device.upload(std::vector<int>(5 * shape.threads(), 7));
    k.launch(LaunchConfig{.grid = {shape.grid}, .block = shape.block}, device.upload(in), out);
    const std::vector<int> got = out.download();
    for (std::size_t t = 0; t < shape.threads(); ++t) {
      const std::size_t rank = t % shape.per_block();
      const std::size_t first16 = t - rank % 16;
      if (rank - rank % 16 + 16 > shape.per_block()) {
        continue;  // a tile the block does not fill: undefined
      }
      int sum = 0;
      unsigned ballot = 0;
      for (unsigned r = 0; r < 16; ++r) {
        sum += in[first16 + r];
        ballot |= (in[first16 + r] > 0 ? 1U : 0U) << r;
      }
      const std::size_t first8 = t - rank % 8;
      const std::size_t down = rank % 8 + 3 < 8 ? first8 + rank % 8 + 3 : t;
      SCOPED_TRACE(testing::Message() << "block " << shape.block.x << "x" << shape.block.y << "x"
                                      << shape.block.z << ", thread " << t);
      EXPECT_EQ(got[5 * t], sum);
      EXPECT_EQ(got[5 * t + 1], in[down]);
      EXPECT_EQ(static_cast<unsigned>(got[5 * t + 2]), ballot);
      EXPECT_EQ(got[5 * t + 3], ballot != 0 ? 1 : 0);
      EXPECT_EQ(got[5 * t + 4], ballot == 0xffffU ? 1 : 0);
    }
  }
}

TEST_F(WarpLanes, AFirstWarpsShufflesAfterALoopOfBarriersAddInTheirOrder) {
  KJIT_SEED_TRACE();
  auto k = program.kernel<const float*, float*>("tree_then_warp", device);
  constexpr unsigned kBlocks = 6;
  constexpr unsigned kBlock = 256;
  std::vector<float> in(std::size_t{kBlocks} * kBlock);
  for (float& x : in) {
    x = static_cast<float>(static_cast<int>(rng() % 2000001) - 1000000) / 1024.0f;
  }
  auto out = device.upload(std::vector<float>(kBlocks, -7.0f));
  k.launch(LaunchConfig{.grid = {kBlocks}, .block = {kBlock}}, device.upload(in), out);
  const std::vector<float> got = out.download();
  for (unsigned b = 0; b < kBlocks; ++b) {
    const auto first = static_cast<std::ptrdiff_t>(std::size_t{b} * kBlock);
    std::vector<float> s(in.begin() + first, in.begin() + first + kBlock);
    for (unsigned stride = kBlock / 2; stride > 32; stride >>= 1) {
      for (unsigned t = 0; t < stride; ++t) {
        s[t] = s[t] + s[t + stride];
      }
    }
    std::vector<float> lanes(32);
    for (unsigned l = 0; l < 32; ++l) {
      lanes[l] = s[l] + s[l + 32];
    }
    for (unsigned offset = 16; offset > 0; offset /= 2) {
      std::vector<float> next(32);
      for (unsigned l = 0; l < 32; ++l) {
        next[l] = lanes[l] + (l + offset < 32 ? lanes[l + offset] : lanes[l]);
      }
      lanes = next;
    }
    EXPECT_EQ(got[b], lanes[0]) << "block " << b;
  }
}

}  // namespace
}  // namespace kjit::test
