// Grid-stride loops (tests/kernels/grid_stride.cu) on every backend, on random data, over grids
// smaller and larger than the data, with tails, and on 2-D launches. On the CPU, 1-D launches of
// the loops that read the thread's identity only through their index run over ranges of threads,
// row by row; the checks below hold whichever way a launch runs.
#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <utility>

namespace kjit::test {
namespace {

class GridStride : public DeviceTest {
 protected:
  Program program() { return Program::from_file(test_kernel_path("grid_stride.cu")); }
};

struct Shape {
  int n;
  Dim3 grid;
  Dim3 block;
};

// One block, a grid smaller than a block's worth of elements, tails, more threads than elements,
// nothing to do, blocks that are not multiples of a vector.
const Shape kShapes[] = {{1000, {1}, {1}},    {100000, {1}, {256}}, {100000, {3}, {96}},
                         {12345, {8}, {256}}, {50, {4}, {64}},      {0, {2}, {32}},
                         {77777, {13}, {33}}, {4096, {64}, {64}},   {5000, {40}, {128}}};

std::string describe(const Shape& s) {
  return "n=" + std::to_string(s.n) + " grid=" + std::to_string(s.grid.x) + "x" +
         std::to_string(s.grid.y) + " block=" + std::to_string(s.block.x) + "x" +
         std::to_string(s.block.y);
}

TEST_F(GridStride, EveryElementIsVisitedOnceOnA1DLaunch) {
  auto k = program().kernel<unsigned*, int>("count_visits", device);
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(describe(s));
    auto visits = device.upload(std::vector<unsigned>(static_cast<std::size_t>(s.n), 0U));
    k.launch(LaunchConfig{.grid = s.grid, .block = s.block}, visits, s.n);
    const std::vector<unsigned> got = visits.download();
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], 1U) << i;
    }
  }
}

TEST_F(GridStride, A2DLaunchRunsEveryThreadOfEveryRow) {
  // The loop reads only x: the threads and blocks of other rows walk the same elements again.
  auto k = program().kernel<unsigned*, int>("count_visits", device);
  for (const auto& [grid, block] :
       {std::pair{Dim3{3, 2}, Dim3{32, 2}}, {Dim3{2, 1, 3}, Dim3{64}}, {Dim3{5}, Dim3{16, 3}}}) {
    const int n = 3001;
    auto visits = device.upload(std::vector<unsigned>(n, 0U));
    k.launch(LaunchConfig{.grid = grid, .block = block}, visits, n);
    const unsigned rows = grid.y * grid.z * block.y * block.z;
    const std::vector<unsigned> got = visits.download();
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], rows) << i;
    }
  }
}

TEST_F(GridStride, OneElementPerThreadVisitsTheElementsOfItsThreads) {
  // Each thread below n visits its element once; elements past the grid's threads are not
  // visited; on a 2-D launch every row of threads visits them again.
  auto k = program().kernel<unsigned*, int>("visit_element", device);
  for (const auto& [n, grid, block] : {std::tuple{1000, Dim3{4}, Dim3{256}},
                                       {1000, Dim3{3}, Dim3{100}},
                                       {77, Dim3{1}, Dim3{1}},
                                       {5000, Dim3{7}, Dim3{33}},
                                       {3001, Dim3{3, 2}, Dim3{32, 2}},
                                       {600, Dim3{2, 1, 3}, Dim3{64}}}) {
    SCOPED_TRACE("n=" + std::to_string(n) + " grid=" + std::to_string(grid.x) + "x" +
                 std::to_string(grid.y) + "x" + std::to_string(grid.z));
    auto visits = device.upload(std::vector<unsigned>(static_cast<std::size_t>(n), 0U));
    k.launch(LaunchConfig{.grid = grid, .block = block}, visits, n);
    const std::size_t threads = std::size_t{grid.x} * block.x;
    const unsigned rows = grid.y * grid.z * block.y * block.z;
    const std::vector<unsigned> got = visits.download();
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], i < threads ? rows : 0U) << i;
    }
  }
}

TEST_F(GridStride, AStencilOverRowsOfThreadsMatchesTheHost) {
  // 2-D blocks of several shapes over grids that do and do not cover the interior exactly; the
  // border and anything past the grid's threads keep their poison.
  KJIT_SEED_TRACE();
  auto k = program().kernel<const double*, double*, int, int>("stencil_interior", device);
  for (const auto& [m, n, block] : {std::tuple{66, 130, Dim3{16, 16}},
                                    {37, 501, Dim3{32, 4}},
                                    {9, 9, Dim3{1, 7}},
                                    {200, 17, Dim3{8, 2}}}) {
    SCOPED_TRACE("m=" + std::to_string(m) + " n=" + std::to_string(n));
    const auto cells = static_cast<std::size_t>(m) * static_cast<std::size_t>(n);
    const auto a = random_vector<double>(cells, -100.0, 100.0);
    // Cover the interior, then one grid a block short in y: its last rows stay poisoned.
    const Dim3 grid{(static_cast<unsigned>(n) - 2 + block.x - 1) / block.x,
                    (static_cast<unsigned>(m) - 2 + block.y - 1) / block.y};
    for (const unsigned rows : {grid.y, grid.y > 1 ? grid.y - 1 : 1U}) {
      auto out = poisoned<double>(cells);
      k.launch(LaunchConfig{.grid = {grid.x, rows}, .block = block}, device.upload(a), out, m, n);
      const std::vector<double> got = out.download();
      const auto covered_rows = static_cast<int>(rows * block.y);
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
          const auto at = static_cast<std::size_t>(i) * static_cast<std::size_t>(n) +
                          static_cast<std::size_t>(j);
          if (i == 0 || j == 0 || i == m - 1 || j == n - 1 || i > covered_rows) {
            ASSERT_TRUE(std::isnan(got[at])) << i << "," << j;
            continue;
          }
          const double want =
              0.5 * a[at] + 0.125 * (a[at - 1] + a[at + 1] + a[at - static_cast<std::size_t>(n)] +
                                     a[at + static_cast<std::size_t>(n)]);
          ASSERT_NEAR(got[at], want, 1e-12 * (1.0 + std::fabs(want))) << i << "," << j;
        }
      }
    }
  }
}

TEST_F(GridStride, SizeTIndexAddsEveryElement) {
  KJIT_SEED_TRACE();
  auto k = program().kernel<const int*, const int*, int*, std::size_t>("add_size_t", device);
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(describe(s));
    const auto n = static_cast<std::size_t>(s.n);
    const auto a = random_vector<int>(n, -1000000, 1000000);
    const auto b = random_vector<int>(n, -1000000, 1000000);
    auto c = poisoned<int>(n);
    k.launch(LaunchConfig{.grid = s.grid, .block = s.block}, device.upload(a), device.upload(b), c,
             n);
    const std::vector<int> got = c.download();
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], a[i] + b[i]) << i;
    }
  }
}

TEST_F(GridStride, AnOffsetAndAnInclusiveBoundCopyTheWindow) {
  KJIT_SEED_TRACE();
  auto k = program().kernel<const int*, int*, unsigned, unsigned>("copy_window", device);
  const auto in = random_vector<int>(20000, -1000, 1000);
  auto din = device.upload(in);
  for (const auto& [first, last, grid] :
       {std::tuple{0U, 19999U, 4U}, {17U, 17U, 2U}, {1234U, 15000U, 7U}, {19000U, 19998U, 1U}}) {
    SCOPED_TRACE("first=" + std::to_string(first) + " last=" + std::to_string(last));
    auto out = poisoned<int>(last - first + 2);
    k.launch(LaunchConfig{.grid = {grid}, .block = {96}}, din, out, first, last);
    const std::vector<int> got = out.download();
    for (unsigned i = first; i <= last; ++i) {
      ASSERT_EQ(got[i - first], in[i]) << i;
    }
    const int poison = got.back();  // one past the window: never written
    std::vector<int> untouched(1);
    std::memset(untouched.data(), 0xA5, sizeof(int));
    EXPECT_EQ(poison, untouched[0]);
  }
}

TEST_F(GridStride, EachThreadRunsItsIterationsInOrder) {
  // y[i] += y[i - stride]: every element becomes the running sum of its thread's elements, which
  // only holds if each thread's iterations run one after another, in order.
  KJIT_SEED_TRACE();
  auto k = program().kernel<long long*, int>("running_sums", device);
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(describe(s));
    const auto n = static_cast<std::size_t>(s.n);
    const auto y = random_vector<long long>(n, -1000000, 1000000);
    auto dy = device.upload(y);
    k.launch(LaunchConfig{.grid = s.grid, .block = s.block}, dy, s.n);
    const std::size_t stride = std::size_t{s.grid.x} * s.block.x;
    std::vector<long long> want = y;
    for (std::size_t i = stride; i < n; ++i) {
      want[i] += want[i - stride];
    }
    EXPECT_EQ(dy.download(), want);
  }
}

TEST_F(GridStride, ArraysThatOverlapByTheStrideKeepEachThreadsOrder) {
  // x = y + stride: iteration i reads y[i + stride] before the same thread's next iteration
  // writes it. On the CPU, element-for-element loops over separate arrays may run as one flat
  // loop; overlapping ones must not.
  KJIT_SEED_TRACE();
  auto k = program().kernel<const float*, float*, int>("add_one", device);
  // The shapes above, and one long enough that several workers run at once on a CPU: a few blocks
  // walking 2^22 elements (run out of order, a worker would overwrite what another reads later).
  std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
  shapes.push_back({1 << 22, {4}, {128}});
  for (const Shape& s : shapes) {
    SCOPED_TRACE(describe(s));
    const std::size_t stride = std::size_t{s.grid.x} * s.block.x;
    const auto n = static_cast<std::size_t>(s.n);
    const auto y = random_vector<float>(n + stride, -1000.0f, 1000.0f);
    auto dy = device.upload(y);
    k.launch(LaunchConfig{.grid = s.grid, .block = s.block}, dy.ptr() + stride, dy.ptr(), s.n);
    const std::vector<float> got = dy.download();
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], y[i + stride] + 1.0f) << i;
    }
    for (std::size_t i = n; i < n + stride; ++i) {
      ASSERT_EQ(got[i], y[i]) << i;  // past the bound: untouched
    }
    // Separate arrays, and the same array in place (x == y).
    const auto x = random_vector<float>(n, -1000.0f, 1000.0f);
    auto separate = poisoned<float>(n);
    k.launch(LaunchConfig{.grid = s.grid, .block = s.block}, device.upload(x), separate, s.n);
    const std::vector<float> out = separate.download();
    auto same = device.upload(x);
    k.launch(LaunchConfig{.grid = s.grid, .block = s.block}, same.ptr(), same.ptr(), s.n);
    const std::vector<float> in_place = same.download();
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[i], x[i] + 1.0f) << i;
      ASSERT_EQ(in_place[i], x[i] + 1.0f) << i;
    }
  }
}

TEST_F(GridStride, ABodyWithItsOwnLoopMatchesTheHost) {
  KJIT_SEED_TRACE();
  auto k = program().kernel<const float*, const float*, int, float*, long long>("horner", device);
  const int degree = 5;
  const auto coeffs = random_vector<float>(degree + 1, -2.0f, 2.0f);
  auto dcoeffs = device.upload(coeffs);
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(describe(s));
    const auto n = static_cast<std::size_t>(s.n);
    const auto x = random_vector<float>(n, -1.5f, 1.5f);
    auto out = poisoned<float>(n);
    k.launch(LaunchConfig{.grid = s.grid, .block = s.block}, device.upload(x), dcoeffs, degree, out,
             static_cast<long long>(n));
    const std::vector<float> got = out.download();
    for (std::size_t i = 0; i < n; ++i) {
      double acc = 0.0;
      for (int d = degree; d >= 0; --d) {
        acc = acc * x[i] + coeffs[static_cast<std::size_t>(d)];
      }
      const double want = x[i] < 0.0f ? -acc : acc;
      // Float Horner, fused or not: a few units in the last place of the terms' magnitude.
      ASSERT_NEAR(got[i], want, 1e-4 * (1.0 + std::fabs(want))) << i;
    }
  }
}

TEST_F(GridStride, ALoopThatReadsThreadIdxStillSeesItsOwnThread) {
  auto k = program().kernel<int*, int>("tag_with_thread", device);
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(describe(s));
    auto out = poisoned<int>(static_cast<std::size_t>(s.n));
    k.launch(LaunchConfig{.grid = s.grid, .block = s.block}, out, s.n);
    const std::vector<int> got = out.download();
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], static_cast<int>(i) * 1024 + static_cast<int>(i % s.block.x)) << i;
    }
  }
}

}  // namespace
}  // namespace kjit::test
