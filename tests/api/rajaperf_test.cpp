// The RAJAPerf kernels of kernels/rajaperf.cu against host references on random inputs, with
// poisoned outputs: what the benchmarks time must first be right.
#include "test_support.hpp"

#include <cmath>
#include <numbers>
#include <vector>

#include "../../kernels/rajaperf.h"

namespace kjit::test {
namespace {

class RajaPerf : public DeviceTest {
 public:
  void SetUp() override {
    DeviceTest::SetUp();
    if (!IsSkipped()) {
      program = Program::from_file(kernel_path("rajaperf.cu"));
    }
  }
  Program program;
};

template <class T>
T* raw(DeviceBuffer<T>& b) {
  return reinterpret_cast<T*>(b.ptr().address());  // NOLINT(performance-no-int-to-ptr)
}

/// |a - b| within `rel` of the larger magnitude (or of 1, near zero).
::testing::AssertionResult close(double a, double b, double rel) {
  const double scale = std::max({1.0, std::fabs(a), std::fabs(b)});
  if (std::fabs(a - b) <= rel * scale) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << a << " vs " << b;
}

TEST_F(RajaPerf, DaxpyAndTriad) {
  KJIT_SEED_TRACE();
  const int n = 100003;
  const auto x = random_vector<double>(n, -10, 10);
  const auto y = random_vector<double>(n, -10, 10);
  const double a = random_vector<double>(1, -3, 3)[0];
  auto dy = device.upload(y);
  program.kernel<double*, const double*, double, int>("daxpy", device)
      .launch(LaunchConfig::for_elements(n, 256), dy, device.upload(x), a, n);
  auto dt = poisoned<double>(n);
  program.kernel<double*, const double*, const double*, double, int>("triad", device)
      .launch(LaunchConfig::for_elements(n, 128), dt, device.upload(x), device.upload(y), a, n);
  const auto out = dy.download();
  const auto t = dt.download();
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(close(out[i], y[i] + a * x[i], 1e-15)) << "daxpy " << i;
    ASSERT_TRUE(close(t[i], x[i] + a * y[i], 1e-15)) << "triad " << i;
  }
}

TEST_F(RajaPerf, EnergyChainMatchesTheHost) {
  KJIT_SEED_TRACE();
  const int n = 50021;
  // 13 inputs; delvc straddles 0 so that both branches run.
  std::vector<std::vector<double>> in;
  in.reserve(13);
  for (int a = 0; a < 13; ++a) {
    in.push_back(random_vector<double>(n, a == 1 ? -1.0 : 0.01, 1.0));
  }
  std::vector<double> e_host(n, 0.0);
  std::vector<double> q_host(n, 0.0);
  const auto arrays = [&](double* e_new, double* q_new, const std::vector<const double*>& p) {
    return EnergyArrays{e_new, p[0], p[1], p[2], p[3],  q_new, p[4], p[5],
                        p[6],  p[7], p[8], p[9], p[10], p[11], p[12]};
  };
  std::vector<const double*> host_in;
  host_in.reserve(in.size());
  for (const auto& v : in) {
    host_in.push_back(v.data());
  }
  const EnergyConstants k{1.0, 1e-7, -1e15, 1e-7};
  const EnergyArrays h = arrays(e_host.data(), q_host.data(), host_in);
  for (int i = 0; i < n; ++i) {
    energy1_at(h, i);
  }
  for (int i = 0; i < n; ++i) {
    energy2_at(h, k, i);
  }
  for (int i = 0; i < n; ++i) {
    energy3_at(h, i);
  }
  for (int i = 0; i < n; ++i) {
    energy4_at(h, k, i);
  }
  for (int i = 0; i < n; ++i) {
    energy5_at(h, k, i);
  }
  for (int i = 0; i < n; ++i) {
    energy6_at(h, k, i);
  }

  std::vector<DeviceBuffer<double>> buffers;
  std::vector<const double*> device_in;
  buffers.reserve(in.size());
  device_in.reserve(in.size());
  for (const auto& v : in) {
    buffers.push_back(device.upload(v));
    device_in.push_back(raw(buffers.back()));
  }
  auto e = poisoned<double>(n);
  auto q = poisoned<double>(n);
  const EnergyArrays d = arrays(raw(e), raw(q), device_in);
  const auto config = LaunchConfig::for_elements(n, 256);
  program.kernel<EnergyArrays, int>("energy1", device).launch(config, d, n);
  program.kernel<EnergyArrays, EnergyConstants, int>("energy2", device).launch(config, d, k, n);
  program.kernel<EnergyArrays, int>("energy3", device).launch(config, d, n);
  program.kernel<EnergyArrays, EnergyConstants, int>("energy4", device).launch(config, d, k, n);
  program.kernel<EnergyArrays, EnergyConstants, int>("energy5", device).launch(config, d, k, n);
  program.kernel<EnergyArrays, EnergyConstants, int>("energy6", device).launch(config, d, k, n);
  const auto e_out = e.download();
  const auto q_out = q.download();
  int negative_delvc = 0;
  for (int i = 0; i < n; ++i) {
    negative_delvc += in[1][i] <= 0.0 ? 1 : 0;
    ASSERT_TRUE(close(e_out[i], e_host[i], 1e-12)) << "e_new " << i;
    ASSERT_TRUE(close(q_out[i], q_host[i], 1e-12)) << "q_new " << i;
  }
  EXPECT_GT(negative_delvc, n / 4) << "both branches ran";
}

TEST_F(RajaPerf, PiAtomicAddsEveryPoint) {
  const int n = 1 << 20;
  auto pi = device.upload(std::vector<double>{0.0});
  program.kernel<double*, double, int>("pi_atomic", device)
      .launch(LaunchConfig::for_elements(n, 256), pi, 1.0 / n, n);
  EXPECT_NEAR(4.0 * pi.download()[0], std::numbers::pi, 1e-9);
}

TEST_F(RajaPerf, FirAndJacobiMatchTheHost) {
  KJIT_SEED_TRACE();
  const int n = 70001;
  const auto in = random_vector<double>(n, -1, 1);
  const auto coeff = random_vector<double>(16, -1, 1);
  auto out = poisoned<double>(n - 15);
  program.kernel<double*, const double*, const double*, int>("fir", device)
      .launch(LaunchConfig::for_elements(n, 256), out, device.upload(in), device.upload(coeff), n);
  const auto f = out.download();
  for (int i = 0; i < n - 15; ++i) {
    double sum = 0.0;
    for (int j = 0; j < 16; ++j) {
      sum += coeff[j] * in[i + j];
    }
    ASSERT_TRUE(close(f[i], sum, 1e-13)) << "fir " << i;
  }

  const int m = 301;
  const auto a = random_vector<double>(static_cast<std::size_t>(m) * m, -1, 1);
  auto b = device.upload(std::vector<double>(a.size(), -7.0));  // the edge must stay as it is
  program.kernel<double*, const double*, int>("jacobi_2d", device)
      .launch(LaunchConfig{.grid = {(m - 2 + 15) / 16, (m - 2 + 15) / 16}, .block = {16, 16}}, b,
              device.upload(a), m);
  const auto r = b.download();
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) {
      const bool edge = i == 0 || j == 0 || i == m - 1 || j == m - 1;
      const double want = edge ? -7.0
                               : 0.2 * (a[i * m + j] + a[i * m + j - 1] + a[i * m + j + 1] +
                                        a[(i + 1) * m + j] + a[(i - 1) * m + j]);
      ASSERT_TRUE(close(r[i * m + j], want, 1e-14)) << i << "," << j;
    }
  }
}

TEST_F(RajaPerf, MatMatSharedMatchesTheHost) {
  KJIT_SEED_TRACE();
  for (const int n : {16, 37, 100}) {
    const auto a = random_vector<double>(static_cast<std::size_t>(n) * n, -1, 1);
    const auto b = random_vector<double>(static_cast<std::size_t>(n) * n, -1, 1);
    auto c = poisoned<double>(static_cast<std::size_t>(n) * n);
    const unsigned tiles = (n + 15) / 16;
    program.kernel<const double*, const double*, double*, int>("mat_mat_shared", device)
        .launch(LaunchConfig{.grid = {tiles, tiles}, .block = {16, 16}}, device.upload(a),
                device.upload(b), c, n);
    const auto out = c.download();
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        double want = 0.0;
        for (int k = 0; k < n; ++k) {
          want += a[i * n + k] * b[k * n + j];
        }
        ASSERT_TRUE(close(out[i * n + j], want, 1e-13)) << "n=" << n << " " << i << "," << j;
      }
    }
  }
}

}  // namespace
}  // namespace kjit::test
