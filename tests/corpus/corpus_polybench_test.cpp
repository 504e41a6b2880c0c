// The corpus's polybench files (tests/corpus/manifest.json), each kernel run as its project's host
// code runs it, on random inputs, against a plain C++ reference.
//
// PolyBench/GPU sizes are compile-time macros of each .cuh, which defines them only "if the user
// does not define the size" (`#if !defined(NI) && !defined(NJ) ...`): each test defines all of
// its file's sizes, small enough for the CPU, and passes the same values to the kernels' size
// parameters, as the suite's main() does. The references port the suite's CPU loops (in float,
// DATA_TYPE's type) where they agree with what the GPU launch computes, and model the launch
// where the suite's own GPU code computes something else (noted at each test).
#include "corpus.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace kjit::test {
namespace {

using Defines = std::map<std::string, std::string, std::less<>>;

/// A PolyBench file as its Makefile builds it (utilities/ on the include path), with its problem
/// sizes defined, compiling its kernels together.
Program polybench(const std::string& file, Defines sizes, std::vector<std::string> kernels) {
  CompileOptions options;
  options.include_dirs = {corpus_dir() / "polybench/CUDA/utilities"};
  options.defines = std::move(sizes);
  options.kernels = std::move(kernels);
  record_corpus_file("polybench/CUDA/" + file);
  return Program::from_file(corpus_dir() / "polybench/CUDA" / file, std::move(options));
}

/// The suite's `(size_t)ceil((float)n / (float)block)`.
unsigned ceil_blocks(int n, unsigned block) {
  return static_cast<unsigned>(std::ceil(static_cast<float>(n) / static_cast<float>(block)));
}

/// The suite's `(size_t)(ceil((float)n) / (float)block)` (correlation, covariance, gemver): the
/// ceiling is taken before the division, so the count truncates.
unsigned truncated_blocks(int n, unsigned block) {
  return static_cast<unsigned>(std::ceil(static_cast<float>(n)) / static_cast<float>(block));
}

/// expect_all_near with an absolute slack of `rel` times the largest magnitude of `want`: the
/// kernels accumulate in float in their own order, so an element that cancels to near zero is
/// only as exact as the terms it summed.
void expect_near_scaled(const std::vector<float>& got, const std::vector<float>& want, double rel,
                        const std::string& what) {
  double scale = 0;
  for (const float w : want) {
    scale = std::max(scale, static_cast<double>(std::fabs(w)));
  }
  expect_all_near(got, want, rel, rel * scale, what);
}

std::string str(int v) {
  return std::to_string(v);
}

// ---- datamining ---------------------------------------------------------------------------------

TEST_F(Corpus, PolyBench_Correlation) {
  constexpr int m =
      256;  // columns; the grids truncate M / 256 (the suite's formula), so a multiple
  constexpr int n = 128;  // rows
  const Program p =
      polybench("datamining/correlation/correlation.cu", {{"M", str(m)}, {"N", str(n)}},
                {"mean_kernel", "std_kernel", "reduce_kernel", "corr_kernel"});
  constexpr float float_n = 3214212.01f;  // the file's FLOAT_N and EPS
  constexpr float eps = 0.005f;
  // Odd columns spread wide (their deviation passes EPS), even ones narrow (set to 1.0 by EPS).
  std::vector<float> data = random_vector<float>(static_cast<std::size_t>(n) * m, 0.0f, 1.0f);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) {
      data[i * m + j] *= (j % 2 != 0) ? 100.0f : 0.5f;
    }
  }
  auto d_data = device.upload(data);
  auto d_mean = poisoned<float>(m);
  auto d_std = poisoned<float>(m);
  auto d_symmat = poisoned<float>(static_cast<std::size_t>(m) * m);
  p.kernel<int, int, float*, float*>("mean_kernel", device)
      .launch(LaunchConfig{.grid = {truncated_blocks(m, 256), 1}, .block = {256, 1}}, m, n, d_mean,
              d_data);
  p.kernel<int, int, float*, float*, float*>("std_kernel", device)
      .launch(LaunchConfig{.grid = {truncated_blocks(m, 256), 1}, .block = {256, 1}}, m, n, d_mean,
              d_std, d_data);
  p.kernel<int, int, float*, float*, float*>("reduce_kernel", device)
      .launch(
          LaunchConfig{.grid = {truncated_blocks(m, 32), truncated_blocks(n, 8)}, .block = {32, 8}},
          m, n, d_mean, d_std, d_data);
  p.kernel<int, int, float*, float*>("corr_kernel", device)
      .launch(LaunchConfig{.grid = {truncated_blocks(m, 256), 1}, .block = {256, 1}}, m, n,
              d_symmat, d_data);
  std::vector<float> symmat = d_symmat.download();
  symmat[(m - 1) * m + (m - 1)] = 1.0f;  // the host's cudaMemcpy of the last diagonal element

  // correlation() of the file.
  std::vector<float> mean(m);
  std::vector<float> stddev(m);
  std::vector<float> ref_symmat(static_cast<std::size_t>(m) * m);
  for (int j = 0; j < m; ++j) {
    mean[j] = 0.0f;
    for (int i = 0; i < n; ++i) {
      mean[j] += data[i * m + j];
    }
    mean[j] /= float_n;
  }
  for (int j = 0; j < m; ++j) {
    stddev[j] = 0.0f;
    for (int i = 0; i < n; ++i) {
      stddev[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
    }
    stddev[j] /= float_n;
    stddev[j] = std::sqrt(stddev[j]);
    stddev[j] = stddev[j] <= eps ? 1.0f : stddev[j];
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j) {
      data[i * m + j] -= mean[j];
      data[i * m + j] /= std::sqrt(float_n) * stddev[j];
    }
  }
  for (int j1 = 0; j1 < m - 1; ++j1) {
    ref_symmat[j1 * m + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < m; ++j2) {
      float sum = 0.0f;
      for (int i = 0; i < n; ++i) {
        sum += data[i * m + j1] * data[i * m + j2];
      }
      ref_symmat[j1 * m + j2] = sum;
      ref_symmat[j2 * m + j1] = sum;
    }
  }
  ref_symmat[(m - 1) * m + (m - 1)] = 1.0f;
  expect_near_scaled(d_mean.download(), mean, 1e-4, "mean");
  expect_near_scaled(d_std.download(), stddev, 1e-4, "std");
  expect_near_scaled(d_data.download(), data, 1e-4, "data");
  expect_near_scaled(symmat, ref_symmat, 1e-4, "symmat");
}

TEST_F(Corpus, PolyBench_Covariance) {
  constexpr int m = 256;  // the grids truncate M / 256 and N / 32 (the suite's formula)
  constexpr int n = 128;
  const Program p = polybench("datamining/covariance/covariance.cu", {{"M", str(m)}, {"N", str(n)}},
                              {"mean_kernel", "reduce_kernel", "covar_kernel"});
  constexpr double float_n = 3214212.01;  // the file's FLOAT_N (a double here)
  // Positive data: the means (sums divided by FLOAT_N) are small, but not lost in the rounding.
  std::vector<float> data = random_vector<float>(static_cast<std::size_t>(n) * m, 0.0f, 1.0f);
  auto d_data = device.upload(data);
  auto d_mean = poisoned<float>(m);
  auto d_symmat = poisoned<float>(static_cast<std::size_t>(m) * m);
  p.kernel<int, int, float*, float*>("mean_kernel", device)
      .launch(LaunchConfig{.grid = {truncated_blocks(m, 256), 1}, .block = {256, 1}}, m, n, d_mean,
              d_data);
  // The suite divides N by DIM_THREAD_BLOCK_KERNEL_2_X (32) for blocks of 8 rows: only the first
  // N / 4 rows are centered. The reference models that launch, not covariance()'s loop.
  const unsigned rows_blocks = truncated_blocks(n, 32);
  p.kernel<int, int, float*, float*>("reduce_kernel", device)
      .launch(LaunchConfig{.grid = {truncated_blocks(m, 32), rows_blocks}, .block = {32, 8}}, m, n,
              d_mean, d_data);
  p.kernel<int, int, float*, float*>("covar_kernel", device)
      .launch(LaunchConfig{.grid = {truncated_blocks(m, 256), 1}, .block = {256, 1}}, m, n,
              d_symmat, d_data);

  std::vector<float> mean(m);
  std::vector<float> symmat(static_cast<std::size_t>(m) * m);
  for (int j = 0; j < m; ++j) {
    mean[j] = 0.0f;
    for (int i = 0; i < n; ++i) {
      mean[j] += data[i * m + j];
    }
    mean[j] /= static_cast<float>(float_n);
  }
  const int centered = std::min<int>(n, static_cast<int>(rows_blocks) * 8);
  for (int i = 0; i < centered; ++i) {
    for (int j = 0; j < m; ++j) {
      data[i * m + j] -= mean[j];
    }
  }
  for (int j1 = 0; j1 < m; ++j1) {
    for (int j2 = j1; j2 < m; ++j2) {
      float sum = 0.0f;
      for (int i = 0; i < n; ++i) {
        sum += data[i * m + j1] * data[i * m + j2];
      }
      symmat[j1 * m + j2] = sum;
      symmat[j2 * m + j1] = sum;
    }
  }
  // The means and centered data are a float sum and a subtraction in the kernel's own order, so
  // they are held to 1e-6: centering changes an element by only ~1e-5 of itself.
  expect_all_near(d_mean.download(), mean, 1e-6, 0, "mean");
  expect_all_near(d_data.download(), data, 1e-6, 0, "data");
  expect_near_scaled(d_symmat.download(), symmat, 1e-4, "symmat");
}

// ---- linear-algebra/kernels ---------------------------------------------------------------------

TEST_F(Corpus, PolyBench_2mm) {
  constexpr int ni = 48, nj = 72, nk = 40, nl = 56;
  const Program p = polybench("linear-algebra/kernels/2mm/2mm.cu",
                              {{"NI", str(ni)}, {"NJ", str(nj)}, {"NK", str(nk)}, {"NL", str(nl)}},
                              {"mm2_kernel1", "mm2_kernel2"});
  constexpr float alpha = 32412;  // init()'s
  constexpr float beta = 2123;
  const auto a = random_vector<float>(ni * nk, -1.0f, 1.0f);
  const auto b = random_vector<float>(nk * nj, -1.0f, 1.0f);
  const auto c = random_vector<float>(nj * nl, -1.0f, 1.0f);
  std::vector<float> d = random_vector<float>(ni * nl, -1.0f, 1.0f);
  auto d_tmp = poisoned<float>(ni * nj);
  auto d_a = device.upload(a);
  auto d_b = device.upload(b);
  auto d_c = device.upload(c);
  auto d_d = device.upload(d);
  p.kernel<int, int, int, int, float, float, float*, float*, float*>("mm2_kernel1", device)
      .launch(LaunchConfig{.grid = {ceil_blocks(nj, 32), ceil_blocks(ni, 8)}, .block = {32, 8}}, ni,
              nj, nk, nl, alpha, beta, d_tmp, d_a, d_b);
  p.kernel<int, int, int, int, float, float, float*, float*, float*>("mm2_kernel2", device)
      .launch(LaunchConfig{.grid = {ceil_blocks(nl, 32), ceil_blocks(ni, 8)}, .block = {32, 8}}, ni,
              nj, nk, nl, alpha, beta, d_tmp, d_c, d_d);
  // mm2_cpu()
  std::vector<float> tmp(ni * nj);
  for (int i = 0; i < ni; ++i) {
    for (int j = 0; j < nj; ++j) {
      tmp[i * nj + j] = 0;
      for (int k = 0; k < nk; ++k) {
        tmp[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
      }
    }
  }
  for (int i = 0; i < ni; ++i) {
    for (int j = 0; j < nl; ++j) {
      d[i * nl + j] *= beta;
      for (int k = 0; k < nj; ++k) {
        d[i * nl + j] += tmp[i * nj + k] * c[k * nl + j];
      }
    }
  }
  expect_near_scaled(d_tmp.download(), tmp, 1e-4, "tmp");
  expect_near_scaled(d_d.download(), d, 1e-4, "D");
}

TEST_F(Corpus, PolyBench_3mm) {
  constexpr int ni = 48, nj = 72, nk = 40, nl = 56, nm = 36;
  const Program p = polybench(
      "linear-algebra/kernels/3mm/3mm.cu",
      {{"NI", str(ni)}, {"NJ", str(nj)}, {"NK", str(nk)}, {"NL", str(nl)}, {"NM", str(nm)}},
      {"mm3_kernel1", "mm3_kernel2", "mm3_kernel3"});
  const auto a = random_vector<float>(ni * nk, -1.0f, 1.0f);
  const auto b = random_vector<float>(nk * nj, -1.0f, 1.0f);
  const auto c = random_vector<float>(nj * nm, -1.0f, 1.0f);
  const auto d = random_vector<float>(nm * nl, -1.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_b = device.upload(b);
  auto d_c = device.upload(c);
  auto d_d = device.upload(d);
  auto d_e = poisoned<float>(ni * nj);
  auto d_f = poisoned<float>(nj * nl);
  auto d_g = poisoned<float>(ni * nl);
  const auto mm = [&](const char* name, unsigned gx, unsigned gy, DeviceBuffer<float>& x,
                      DeviceBuffer<float>& y, DeviceBuffer<float>& out) {
    p.kernel<int, int, int, int, int, float*, float*, float*>(name, device)
        .launch(LaunchConfig{.grid = {gx, gy}, .block = {32, 8}}, ni, nj, nk, nl, nm, x, y, out);
  };
  mm("mm3_kernel1", ceil_blocks(nj, 32), ceil_blocks(ni, 8), d_a, d_b, d_e);
  mm("mm3_kernel2", ceil_blocks(nl, 32), ceil_blocks(nj, 8), d_c, d_d, d_f);
  mm("mm3_kernel3", ceil_blocks(nl, 32), ceil_blocks(ni, 8), d_e, d_f, d_g);
  // mm3_cpu()
  const auto product = [](const std::vector<float>& x, const std::vector<float>& y, int rows,
                          int inner, int cols) {
    std::vector<float> out(static_cast<std::size_t>(rows) * cols);
    for (int i = 0; i < rows; ++i) {
      for (int j = 0; j < cols; ++j) {
        out[i * cols + j] = 0;
        for (int k = 0; k < inner; ++k) {
          out[i * cols + j] += x[i * inner + k] * y[k * cols + j];
        }
      }
    }
    return out;
  };
  const auto e = product(a, b, ni, nk, nj);
  const auto f = product(c, d, nj, nm, nl);
  expect_near_scaled(d_e.download(), e, 1e-4, "E");
  expect_near_scaled(d_f.download(), f, 1e-4, "F");
  expect_near_scaled(d_g.download(), product(e, f, ni, nj, nl), 1e-4, "G");
}

TEST_F(Corpus, PolyBench_Atax) {
  constexpr int nx = 300, ny = 200;
  const Program p = polybench("linear-algebra/kernels/atax/atax.cu",
                              {{"NX", str(nx)}, {"NY", str(ny)}}, {"atax_kernel1", "atax_kernel2"});
  const auto a = random_vector<float>(nx * ny, -1.0f, 1.0f);
  const auto x = random_vector<float>(ny, -1.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_x = device.upload(x);
  auto d_y = poisoned<float>(ny);
  auto d_tmp = poisoned<float>(nx);
  // The suite launches blocks of (32, 8) but the kernels index by threadIdx.x alone: the 8 rows of
  // a block race on the same element (tmp[i] = 0; tmp[i] += ...), which CUDA leaves undefined.
  // Blocks of (32, 1), with the suite's grids, compute each element once: what the suite means.
  constexpr unsigned bx = 32;
  p.kernel<int, int, float*, float*, float*>("atax_kernel1", device)
      .launch(LaunchConfig{.grid = {ceil_blocks(nx, bx), 1}, .block = {bx, 1}}, nx, ny, d_a, d_x,
              d_tmp);
  p.kernel<int, int, float*, float*, float*>("atax_kernel2", device)
      .launch(LaunchConfig{.grid = {ceil_blocks(ny, bx), 1}, .block = {bx, 1}}, nx, ny, d_a, d_y,
              d_tmp);
  // atax_cpu()
  std::vector<float> y(ny, 0.0f);
  std::vector<float> tmp(nx);
  for (int i = 0; i < nx; ++i) {
    tmp[i] = 0;
    for (int j = 0; j < ny; ++j) {
      tmp[i] = tmp[i] + a[i * ny + j] * x[j];
    }
    for (int j = 0; j < ny; ++j) {
      y[j] = y[j] + a[i * ny + j] * tmp[i];
    }
  }
  expect_near_scaled(d_tmp.download(), tmp, 1e-4, "tmp");
  expect_near_scaled(d_y.download(), y, 1e-4, "y");
}

TEST_F(Corpus, PolyBench_Bicg) {
  constexpr int nx = 300, ny = 200;
  const Program p = polybench("linear-algebra/kernels/bicg/bicg.cu",
                              {{"NX", str(nx)}, {"NY", str(ny)}}, {"bicg_kernel1", "bicg_kernel2"});
  const auto a = random_vector<float>(nx * ny, -1.0f, 1.0f);
  const auto r = random_vector<float>(nx, -1.0f, 1.0f);
  const auto pv = random_vector<float>(ny, -1.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_r = device.upload(r);
  auto d_p = device.upload(pv);
  auto d_s = poisoned<float>(ny);
  auto d_q = poisoned<float>(nx);
  p.kernel<int, int, float*, float*, float*>("bicg_kernel1", device)
      .launch(LaunchConfig{.grid = {ceil_blocks(ny, 256), 1}, .block = {256, 1}}, nx, ny, d_a, d_r,
              d_s);
  p.kernel<int, int, float*, float*, float*>("bicg_kernel2", device)
      .launch(LaunchConfig{.grid = {ceil_blocks(nx, 256), 1}, .block = {256, 1}}, nx, ny, d_a, d_p,
              d_q);
  // bicg_cpu()
  std::vector<float> s(ny, 0.0f);
  std::vector<float> q(nx);
  for (int i = 0; i < nx; ++i) {
    q[i] = 0.0f;
    for (int j = 0; j < ny; ++j) {
      s[j] = s[j] + r[i] * a[i * ny + j];
      q[i] = q[i] + a[i * ny + j] * pv[j];
    }
  }
  expect_near_scaled(d_s.download(), s, 1e-4, "s");
  expect_near_scaled(d_q.download(), q, 1e-4, "q");
}

TEST_F(Corpus, PolyBench_Doitgen) {
  // The grid's y covers NR rows of blocks for the q index (the suite's formula): NR == NQ.
  constexpr int nr = 24, nq = 24, np = 40;
  const Program p = polybench("linear-algebra/kernels/doitgen/doitgen.cu",
                              {{"NR", str(nr)}, {"NQ", str(nq)}, {"NP", str(np)}},
                              {"doitgen_kernel1", "doitgen_kernel2"});
  std::vector<float> a = random_vector<float>(nr * nq * np, -1.0f, 1.0f);
  const auto c4 = random_vector<float>(np * np, -1.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_c4 = device.upload(c4);
  auto d_sum = poisoned<float>(nr * nq * np);
  const auto k1 = p.kernel<int, int, int, float*, float*, float*, int>("doitgen_kernel1", device);
  const auto k2 = p.kernel<int, int, int, float*, float*, float*, int>("doitgen_kernel2", device);
  const LaunchConfig cfg{.grid = {ceil_blocks(np, 32), ceil_blocks(nr, 8)}, .block = {32, 8}};
  for (int r = 0; r < nr; ++r) {
    k1.launch(cfg, nr, nq, np, d_sum, d_a, d_c4, r);
    k2.launch(cfg, nr, nq, np, d_sum, d_a, d_c4, r);
  }
  // kernel_doitgenCpu(), whose copy-back loop runs p to NR where the kernels run it to NP.
  std::vector<float> sum(nr * nq * np);
  for (int r = 0; r < nr; ++r) {
    for (int q = 0; q < nq; ++q) {
      for (int pp = 0; pp < np; ++pp) {
        float acc = 0;
        for (int s = 0; s < np; ++s) {
          acc = acc + a[(r * nq + q) * np + s] * c4[s * np + pp];
        }
        sum[(r * nq + q) * np + pp] = acc;
      }
      for (int pp = 0; pp < np; ++pp) {
        a[(r * nq + q) * np + pp] = sum[(r * nq + q) * np + pp];
      }
    }
  }
  expect_near_scaled(d_sum.download(), sum, 1e-4, "sum");
  expect_near_scaled(d_a.download(), a, 1e-4, "A");
}

TEST_F(Corpus, PolyBench_Gemm) {
  // The grid's x runs over NI for the column index j (the suite's formula): NI == NJ.
  constexpr int ni = 72, nj = 72, nk = 40;
  const Program p = polybench("linear-algebra/kernels/gemm/gemm.cu",
                              {{"NI", str(ni)}, {"NJ", str(nj)}, {"NK", str(nk)}}, {"gemm_kernel"});
  constexpr float alpha = 32412;  // init()'s
  constexpr float beta = 2123;
  const auto a = random_vector<float>(ni * nk, -1.0f, 1.0f);
  const auto b = random_vector<float>(nk * nj, -1.0f, 1.0f);
  std::vector<float> c = random_vector<float>(ni * nj, -1.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_b = device.upload(b);
  auto d_c = device.upload(c);
  p.kernel<int, int, int, float, float, float*, float*, float*>("gemm_kernel", device)
      .launch(LaunchConfig{.grid = {ceil_blocks(ni, 32), ceil_blocks(nj, 8)}, .block = {32, 8}}, ni,
              nj, nk, alpha, beta, d_a, d_b, d_c);
  // gemm()
  for (int i = 0; i < ni; ++i) {
    for (int j = 0; j < nj; ++j) {
      c[i * nj + j] *= beta;
      for (int k = 0; k < nk; ++k) {
        c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
      }
    }
  }
  expect_near_scaled(d_c.download(), c, 1e-4, "C");
}

TEST_F(Corpus, PolyBench_Gemver) {
  constexpr int n = 256;  // the grids truncate N / 256 (the suite's formula)
  const Program p = polybench("linear-algebra/kernels/gemver/gemver.cu", {{"N", str(n)}},
                              {"gemver_kernel1", "gemver_kernel2", "gemver_kernel3"});
  constexpr float alpha = 43532;  // init()'s
  constexpr float beta = 12313;
  std::vector<float> a = random_vector<float>(n * n, -1.0f, 1.0f);
  const auto u1 = random_vector<float>(n, -1.0f, 1.0f);
  const auto v1 = random_vector<float>(n, -1.0f, 1.0f);
  const auto u2 = random_vector<float>(n, -1.0f, 1.0f);
  const auto v2 = random_vector<float>(n, -1.0f, 1.0f);
  std::vector<float> x = random_vector<float>(n, -1.0f, 1.0f);
  const auto y = random_vector<float>(n, -1.0f, 1.0f);
  const auto z = random_vector<float>(n, -1.0f, 1.0f);
  std::vector<float> w = random_vector<float>(n, -1.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_u1 = device.upload(u1);
  auto d_v1 = device.upload(v1);
  auto d_u2 = device.upload(u2);
  auto d_v2 = device.upload(v2);
  auto d_x = device.upload(x);
  auto d_y = device.upload(y);
  auto d_z = device.upload(z);
  auto d_w = device.upload(w);
  p.kernel<int, float, float, float*, float*, float*, float*, float*>("gemver_kernel1", device)
      .launch(
          LaunchConfig{.grid = {truncated_blocks(n, 32), truncated_blocks(n, 8)}, .block = {32, 8}},
          n, alpha, beta, d_a, d_v1, d_v2, d_u1, d_u2);
  p.kernel<int, float, float, float*, float*, float*, float*>("gemver_kernel2", device)
      .launch(LaunchConfig{.grid = {truncated_blocks(n, 256), 1}, .block = {256, 1}}, n, alpha,
              beta, d_a, d_x, d_y, d_z);
  p.kernel<int, float, float, float*, float*, float*>("gemver_kernel3", device)
      .launch(LaunchConfig{.grid = {truncated_blocks(n, 256), 1}, .block = {256, 1}}, n, alpha,
              beta, d_a, d_x, d_w);
  // gemver()
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      a[i * n + j] = a[i * n + j] + u1[i] * v1[j] + u2[i] * v2[j];
    }
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      x[i] = x[i] + beta * a[j * n + i] * y[j];
    }
  }
  for (int i = 0; i < n; ++i) {
    x[i] = x[i] + z[i];
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      w[i] = w[i] + alpha * a[i * n + j] * x[j];
    }
  }
  expect_near_scaled(d_a.download(), a, 1e-4, "A");
  expect_near_scaled(d_x.download(), x, 1e-4, "x");
  expect_near_scaled(d_w.download(), w, 1e-4, "w");
}

TEST_F(Corpus, PolyBench_Gesummv) {
  constexpr int n = 300;
  const Program p =
      polybench("linear-algebra/kernels/gesummv/gesummv.cu", {{"N", str(n)}}, {"gesummv_kernel"});
  constexpr float alpha = 43532;  // init()'s
  constexpr float beta = 12313;
  const auto a = random_vector<float>(n * n, -1.0f, 1.0f);
  const auto b = random_vector<float>(n * n, -1.0f, 1.0f);
  const auto x = random_vector<float>(n, -1.0f, 1.0f);
  // The kernel accumulates into tmp and y as the host copied them in (it never zeroes them).
  std::vector<float> tmp = random_vector<float>(n, -1.0f, 1.0f);
  std::vector<float> y = random_vector<float>(n, -1.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_b = device.upload(b);
  auto d_tmp = device.upload(tmp);
  auto d_x = device.upload(x);
  auto d_y = device.upload(y);
  p.kernel<int, float, float, float*, float*, float*, float*, float*>("gesummv_kernel", device)
      .launch(LaunchConfig{.grid = {ceil_blocks(n, 256), 1}, .block = {256, 1}}, n, alpha, beta,
              d_a, d_b, d_tmp, d_x, d_y);
  for (int i = 0; i < n; ++i) {  // gesummv(), from the values the kernel starts from
    for (int j = 0; j < n; ++j) {
      tmp[i] = a[i * n + j] * x[j] + tmp[i];
      y[i] = b[i * n + j] * x[j] + y[i];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
  expect_near_scaled(d_tmp.download(), tmp, 1e-4, "tmp");
  expect_near_scaled(d_y.download(), y, 1e-4, "y");
}

TEST_F(Corpus, PolyBench_Mvt) {
  constexpr int n = 200;
  const Program p = polybench("linear-algebra/kernels/mvt/mvt.cu", {{"N", str(n)}},
                              {"mvt_kernel1", "mvt_kernel2"});
  const auto a = random_vector<float>(n * n, -1.0f, 1.0f);
  std::vector<float> x1 = random_vector<float>(n, -1.0f, 1.0f);
  std::vector<float> x2 = random_vector<float>(n, -1.0f, 1.0f);
  const auto y1 = random_vector<float>(n, -1.0f, 1.0f);
  const auto y2 = random_vector<float>(n, -1.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_x1 = device.upload(x1);
  auto d_x2 = device.upload(x2);
  auto d_y1 = device.upload(y1);
  auto d_y2 = device.upload(y2);
  // As in atax: the suite's (32, 8) blocks index by threadIdx.x alone, so 8 threads race on each
  // x1[i] += ...; blocks of (32, 1) with the suite's grid compute each element once.
  const LaunchConfig cfg{.grid = {ceil_blocks(n, 32), 1}, .block = {32, 1}};
  p.kernel<int, float*, float*, float*>("mvt_kernel1", device).launch(cfg, n, d_a, d_x1, d_y1);
  p.kernel<int, float*, float*, float*>("mvt_kernel2", device).launch(cfg, n, d_a, d_x2, d_y2);
  for (int i = 0; i < n; ++i) {  // runMvt()
    for (int j = 0; j < n; ++j) {
      x1[i] = x1[i] + a[i * n + j] * y1[j];
    }
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      x2[i] = x2[i] + a[j * n + i] * y2[j];
    }
  }
  expect_near_scaled(d_x1.download(), x1, 1e-4, "x1");
  expect_near_scaled(d_x2.download(), x2, 1e-4, "x2");
}

TEST_F(Corpus, PolyBench_Syr2k) {
  constexpr int ni = 72, nj = 40;
  const Program p = polybench("linear-algebra/kernels/syr2k/syr2k.cu",
                              {{"NI", str(ni)}, {"NJ", str(nj)}}, {"syr2k_kernel"});
  constexpr float alpha = 32412;  // init_arrays()'s
  constexpr float beta = 2123;
  const auto a = random_vector<float>(ni * nj, -1.0f, 1.0f);
  const auto b = random_vector<float>(ni * nj, -1.0f, 1.0f);
  std::vector<float> c = random_vector<float>(ni * ni, -1.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_b = device.upload(b);
  auto d_c = device.upload(c);
  p.kernel<int, int, float, float, float*, float*, float*>("syr2k_kernel", device)
      .launch(LaunchConfig{.grid = {ceil_blocks(ni, 32), ceil_blocks(ni, 8)}, .block = {32, 8}}, ni,
              nj, alpha, beta, d_a, d_b, d_c);
  for (int i = 0; i < ni; ++i) {  // syr2kCpu()
    for (int j = 0; j < ni; ++j) {
      c[i * ni + j] *= beta;
    }
  }
  for (int i = 0; i < ni; ++i) {
    for (int j = 0; j < ni; ++j) {
      for (int k = 0; k < nj; ++k) {
        c[i * ni + j] += alpha * a[i * nj + k] * b[j * nj + k];
        c[i * ni + j] += alpha * b[i * nj + k] * a[j * nj + k];
      }
    }
  }
  expect_near_scaled(d_c.download(), c, 1e-4, "C");
}

TEST_F(Corpus, PolyBench_Syrk) {
  constexpr int ni = 72, nj = 40;
  const Program p = polybench("linear-algebra/kernels/syrk/syrk.cu",
                              {{"NI", str(ni)}, {"NJ", str(nj)}}, {"syrk_kernel"});
  constexpr float alpha = 32412;  // init_arrays()'s
  constexpr float beta = 2123;
  const auto a = random_vector<float>(ni * nj, -1.0f, 1.0f);
  std::vector<float> c = random_vector<float>(ni * ni, -1.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_c = device.upload(c);
  p.kernel<int, int, float, float, float*, float*>("syrk_kernel", device)
      .launch(LaunchConfig{.grid = {ceil_blocks(ni, 32), ceil_blocks(ni, 8)}, .block = {32, 8}}, ni,
              nj, alpha, beta, d_a, d_c);
  for (int i = 0; i < ni; ++i) {  // syrk()
    for (int j = 0; j < ni; ++j) {
      c[i * ni + j] *= beta;
    }
  }
  for (int i = 0; i < ni; ++i) {
    for (int j = 0; j < ni; ++j) {
      for (int k = 0; k < nj; ++k) {
        c[i * ni + j] += alpha * a[i * nj + k] * a[j * nj + k];
      }
    }
  }
  expect_near_scaled(d_c.download(), c, 1e-4, "C");
}

// ---- linear-algebra/solvers ---------------------------------------------------------------------

TEST_F(Corpus, PolyBench_Gramschmidt) {
  // gridKernel2 covers NJ threads for the row index i (the suite's formula): NI == NJ.
  constexpr int ni = 64, nj = 64;
  const Program p = polybench(
      "linear-algebra/solvers/gramschmidt/gramschmidt.cu", {{"NI", str(ni)}, {"NJ", str(nj)}},
      {"gramschmidt_kernel1", "gramschmidt_kernel2", "gramschmidt_kernel3"});
  // A well-conditioned matrix, so that float Gram-Schmidt stays accurate over all the columns.
  std::vector<float> a = random_vector<float>(ni * nj, -1.0f, 1.0f);
  for (int i = 0; i < std::min(ni, nj); ++i) {
    a[i * nj + i] += 8.0f;
  }
  auto d_a = device.upload(a);
  auto d_r = poisoned<float>(nj * nj);  // the suite allocates R and Q without copying to them
  auto d_q = poisoned<float>(ni * nj);
  using K = Kernel<int, int, float*, float*, float*, int>;
  const K k1 = p.kernel<int, int, float*, float*, float*, int>("gramschmidt_kernel1", device);
  const K k2 = p.kernel<int, int, float*, float*, float*, int>("gramschmidt_kernel2", device);
  const K k3 = p.kernel<int, int, float*, float*, float*, int>("gramschmidt_kernel3", device);
  const LaunchConfig one{.grid = {1, 1}, .block = {256, 1}};
  const LaunchConfig all{.grid = {ceil_blocks(nj, 256), 1}, .block = {256, 1}};
  for (int k = 0; k < nj; ++k) {
    k1.launch(one, ni, nj, d_a, d_r, d_q, k);
    k2.launch(all, ni, nj, d_a, d_r, d_q, k);
    k3.launch(all, ni, nj, d_a, d_r, d_q, k);
  }
  // gramschmidt()
  std::vector<float> r(nj * nj);
  std::vector<float> q(ni * nj);
  for (int k = 0; k < nj; ++k) {
    float nrm = 0;
    for (int i = 0; i < ni; ++i) {
      nrm += a[i * nj + k] * a[i * nj + k];
    }
    r[k * nj + k] = std::sqrt(nrm);
    for (int i = 0; i < ni; ++i) {
      q[i * nj + k] = a[i * nj + k] / r[k * nj + k];
    }
    for (int j = k + 1; j < nj; ++j) {
      r[k * nj + j] = 0;
      for (int i = 0; i < ni; ++i) {
        r[k * nj + j] += q[i * nj + k] * a[i * nj + j];
      }
      for (int i = 0; i < ni; ++i) {
        a[i * nj + j] = a[i * nj + j] - q[i * nj + k] * r[k * nj + j];
      }
    }
  }
  expect_near_scaled(d_a.download(), a, 1e-4, "A");
  expect_near_scaled(d_q.download(), q, 1e-4, "Q");
  std::vector<float> got_r = d_r.download();  // only the upper triangle is written
  std::vector<float> upper;
  std::vector<float> want_upper;
  for (int k = 0; k < nj; ++k) {
    for (int j = k; j < nj; ++j) {
      upper.push_back(got_r[k * nj + j]);
      want_upper.push_back(r[k * nj + j]);
    }
  }
  expect_near_scaled(upper, want_upper, 1e-4, "R");
}

TEST_F(Corpus, PolyBench_Lu) {
  constexpr int n = 64;
  const Program p =
      polybench("linear-algebra/solvers/lu/lu.cu", {{"N", str(n)}}, {"lu_kernel1", "lu_kernel2"});
  // Diagonally dominant, as elimination without pivoting wants.
  std::vector<float> a = random_vector<float>(n * n, -1.0f, 1.0f);
  for (int i = 0; i < n; ++i) {
    a[i * n + i] += static_cast<float>(n);
  }
  auto d_a = device.upload(a);
  const auto k1 = p.kernel<int, float*, int>("lu_kernel1", device);
  const auto k2 = p.kernel<int, float*, int>("lu_kernel2", device);
  // luCuda(): the grids shrink with k, cover N-(k+1) threads from index 0, and the kernels skip
  // the indices <= k, so step k updates only the columns and rows below the grids' reach: the
  // suite's GPU result is not lu()'s (manifest note). The reference models these launches.
  for (int k = 0; k < n; ++k) {
    const unsigned g1 = ceil_blocks(n - (k + 1), 256);
    const unsigned g2x = ceil_blocks(n - (k + 1), 32);
    const unsigned g2y = ceil_blocks(n - (k + 1), 8);
    if (g1 == 0) {
      break;  // k == N-1: CUDA refuses a grid of 0 blocks (the suite ignores the error)
    }
    k1.launch(LaunchConfig{.grid = {g1, 1, 1}, .block = {256, 1}}, n, d_a, k);
    k2.launch(LaunchConfig{.grid = {g2x, g2y, 1}, .block = {32, 8}}, n, d_a, k);
    const int j1_end = std::min<int>(n, static_cast<int>(g1) * 256);
    for (int j = k + 1; j < j1_end; ++j) {
      a[k * n + j] = a[k * n + j] / a[k * n + k];
    }
    const int i_end = std::min<int>(n, static_cast<int>(g2y) * 8);
    const int j_end = std::min<int>(n, static_cast<int>(g2x) * 32);
    for (int i = k + 1; i < i_end; ++i) {
      for (int j = k + 1; j < j_end; ++j) {
        a[i * n + j] = a[i * n + j] - a[i * n + k] * a[k * n + j];
      }
    }
  }
  expect_near_scaled(d_a.download(), a, 1e-4, "A");
}

// ---- stencils -----------------------------------------------------------------------------------

TEST_F(Corpus, PolyBench_Adi) {
  constexpr int n = 64;
  constexpr int tsteps = 1;  // the suite's
  const Program p = polybench(
      "stencils/adi/adi.cu", {{"N", str(n)}, {"TSTEPS", str(tsteps)}},
      {"adi_kernel1", "adi_kernel2", "adi_kernel3", "adi_kernel4", "adi_kernel5", "adi_kernel6"});
  // B well away from zero, as the suite's init_array() makes it: every step divides by B.
  const auto a = random_vector<float>(n * n, 0.0f, 1.0f);
  std::vector<float> b = random_vector<float>(n * n, 4.0f, 5.0f);
  std::vector<float> x = random_vector<float>(n * n, -1.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_b = device.upload(b);
  auto d_x = device.upload(x);
  using K3 = Kernel<int, float*, float*, float*>;
  using K4 = Kernel<int, float*, float*, float*, int>;
  const K3 k1 = p.kernel<int, float*, float*, float*>("adi_kernel1", device);
  const K3 k2 = p.kernel<int, float*, float*, float*>("adi_kernel2", device);
  const K3 k3 = p.kernel<int, float*, float*, float*>("adi_kernel3", device);
  const K4 k4 = p.kernel<int, float*, float*, float*, int>("adi_kernel4", device);
  const K3 k5 = p.kernel<int, float*, float*, float*>("adi_kernel5", device);
  const K4 k6 = p.kernel<int, float*, float*, float*, int>("adi_kernel6", device);
  const LaunchConfig cfg{.grid = {ceil_blocks(n, 256), 1, 1}, .block = {256, 1, 1}};
  for (int t = 0; t < tsteps; ++t) {
    k1.launch(cfg, n, d_a, d_b, d_x);
    k2.launch(cfg, n, d_a, d_b, d_x);
    k3.launch(cfg, n, d_a, d_b, d_x);
    for (int i1 = 1; i1 < n; ++i1) {
      k4.launch(cfg, n, d_a, d_b, d_x, i1);
    }
    k5.launch(cfg, n, d_a, d_b, d_x);
    for (int i1 = 0; i1 < n - 2; ++i1) {
      k6.launch(cfg, n, d_a, d_b, d_x, i1);
    }
  }
  const auto at = [&](std::vector<float>& v, int i, int j) -> float& { return v[i * n + j]; };
  const auto ac = [&](int i, int j) { return a[i * n + j]; };
  for (int t = 0; t < tsteps; ++t) {  // adi()
    for (int i1 = 0; i1 < n; ++i1) {
      for (int i2 = 1; i2 < n; ++i2) {
        at(x, i1, i2) = at(x, i1, i2) - at(x, i1, i2 - 1) * ac(i1, i2) / at(b, i1, i2 - 1);
        at(b, i1, i2) = at(b, i1, i2) - ac(i1, i2) * ac(i1, i2) / at(b, i1, i2 - 1);
      }
    }
    for (int i1 = 0; i1 < n; ++i1) {
      at(x, i1, n - 1) = at(x, i1, n - 1) / at(b, i1, n - 1);
    }
    for (int i1 = 0; i1 < n; ++i1) {
      for (int i2 = 0; i2 < n - 2; ++i2) {
        at(x, i1, n - i2 - 2) =
            (at(x, i1, n - 2 - i2) - at(x, i1, n - 2 - i2 - 1) * ac(i1, n - i2 - 3)) /
            at(b, i1, n - 3 - i2);
      }
    }
    for (int i1 = 1; i1 < n; ++i1) {
      for (int i2 = 0; i2 < n; ++i2) {
        at(x, i1, i2) = at(x, i1, i2) - at(x, i1 - 1, i2) * ac(i1, i2) / at(b, i1 - 1, i2);
        at(b, i1, i2) = at(b, i1, i2) - ac(i1, i2) * ac(i1, i2) / at(b, i1 - 1, i2);
      }
    }
    for (int i2 = 0; i2 < n; ++i2) {
      at(x, n - 1, i2) = at(x, n - 1, i2) / at(b, n - 1, i2);
    }
    for (int i1 = 0; i1 < n - 2; ++i1) {
      for (int i2 = 0; i2 < n; ++i2) {
        at(x, n - 2 - i1, i2) =
            (at(x, n - 2 - i1, i2) - at(x, n - i1 - 3, i2) * ac(n - 3 - i1, i2)) /
            at(b, n - 2 - i1, i2);
      }
    }
  }
  expect_near_scaled(d_b.download(), b, 1e-4, "B");
  expect_near_scaled(d_x.download(), x, 1e-4, "X");
}

TEST_F(Corpus, PolyBench_Convolution2D) {
  // The grid's x runs over NI for the column index j (the suite's formula): NI == NJ.
  constexpr int ni = 100, nj = 100;
  const Program p = polybench("stencils/convolution-2d/2DConvolution.cu",
                              {{"NI", str(ni)}, {"NJ", str(nj)}}, {"convolution2D_kernel"});
  const auto a = random_vector<float>(ni * nj, 0.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_b = poisoned<float>(ni * nj);  // the host never sets B: its border stays undefined
  p.kernel<int, int, float*, float*>("convolution2D_kernel", device)
      .launch(LaunchConfig{.grid = {ceil_blocks(ni, 32), ceil_blocks(nj, 8)}, .block = {32, 8}}, ni,
              nj, d_a, d_b);
  const float c11 = +0.2f, c21 = +0.5f, c31 = -0.8f;  // conv2D()
  const float c12 = -0.3f, c22 = +0.6f, c32 = -0.9f;
  const float c13 = +0.4f, c23 = +0.7f, c33 = +0.10f;
  const auto got = d_b.download();
  std::vector<float> interior;
  std::vector<float> want;
  for (int i = 1; i < ni - 1; ++i) {
    for (int j = 1; j < nj - 1; ++j) {
      const auto at = [&](int di, int dj) { return a[(i + di) * nj + (j + dj)]; };
      want.push_back(c11 * at(-1, -1) + c12 * at(0, -1) + c13 * at(1, -1) + c21 * at(-1, 0) +
                     c22 * at(0, 0) + c23 * at(1, 0) + c31 * at(-1, 1) + c32 * at(0, 1) +
                     c33 * at(1, 1));
      interior.push_back(got[i * nj + j]);
    }
  }
  expect_near_scaled(interior, want, 1e-5, "B");
}

TEST_F(Corpus, PolyBench_Convolution3D) {
  constexpr int ni = 16, nj = 40, nk = 48;
  const Program p =
      polybench("stencils/convolution-3d/3DConvolution.cu",
                {{"NI", str(ni)}, {"NJ", str(nj)}, {"NK", str(nk)}}, {"convolution3D_kernel"});
  const auto a = random_vector<float>(ni * nj * nk, -1.0f, 1.0f);
  std::vector<float> b = random_vector<float>(ni * nj * nk, -1.0f, 1.0f);  // copied in by the host
  auto d_a = device.upload(a);
  auto d_b = device.upload(b);
  const auto k = p.kernel<int, int, int, float*, float*, int>("convolution3D_kernel", device);
  const LaunchConfig cfg{.grid = {ceil_blocks(nk, 32), ceil_blocks(nj, 8)}, .block = {32, 8}};
  for (int i = 1; i < ni - 1; ++i) {
    k.launch(cfg, ni, nj, nk, d_a, d_b, i);
  }
  const float c11 = +2, c21 = +5, c31 = -8;  // conv3D()
  const float c12 = -3, c22 = +6, c32 = -9;
  const float c13 = +4, c23 = +7, c33 = +10;
  for (int i = 1; i < ni - 1; ++i) {
    for (int j = 1; j < nj - 1; ++j) {
      for (int kk = 1; kk < nk - 1; ++kk) {
        const auto at = [&](int di, int dj, int dk) {
          return a[((i + di) * nj + (j + dj)) * nk + (kk + dk)];
        };
        b[(i * nj + j) * nk + kk] =
            c11 * at(-1, -1, -1) + c13 * at(1, -1, -1) + c21 * at(-1, -1, -1) +
            c23 * at(1, -1, -1) + c31 * at(-1, -1, -1) + c33 * at(1, -1, -1) + c12 * at(0, -1, 0) +
            c22 * at(0, 0, 0) + c32 * at(0, 1, 0) + c11 * at(-1, -1, 1) + c13 * at(1, -1, 1) +
            c21 * at(-1, 0, 1) + c23 * at(1, 0, 1) + c31 * at(-1, 1, 1) + c33 * at(1, 1, 1);
      }
    }
  }
  expect_near_scaled(d_b.download(), b, 1e-5, "B");
}

TEST_F(Corpus, PolyBench_Fdtd2d) {
  constexpr int tmax = 10, nx = 40, ny = 56;
  const Program p = polybench("stencils/fdtd-2d/fdtd2d.cu",
                              {{"TMAX", str(tmax)}, {"NX", str(nx)}, {"NY", str(ny)}},
                              {"fdtd_step1_kernel", "fdtd_step2_kernel", "fdtd_step3_kernel"});
  const auto fict = random_vector<float>(tmax, -1.0f, 1.0f);
  std::vector<float> ex = random_vector<float>(nx * ny, -1.0f, 1.0f);
  std::vector<float> ey = random_vector<float>(nx * ny, -1.0f, 1.0f);
  std::vector<float> hz = random_vector<float>(nx * ny, -1.0f, 1.0f);
  auto d_fict = device.upload(fict);
  auto d_ex = device.upload(ex);
  auto d_ey = device.upload(ey);
  auto d_hz = device.upload(hz);
  const auto k1 =
      p.kernel<int, int, float*, float*, float*, float*, int>("fdtd_step1_kernel", device);
  const auto k2 = p.kernel<int, int, float*, float*, float*, int>("fdtd_step2_kernel", device);
  const auto k3 = p.kernel<int, int, float*, float*, float*, int>("fdtd_step3_kernel", device);
  const LaunchConfig cfg{.grid = {ceil_blocks(ny, 32), ceil_blocks(nx, 8)}, .block = {32, 8}};
  for (int t = 0; t < tmax; ++t) {
    k1.launch(cfg, nx, ny, d_fict, d_ex, d_ey, d_hz, t);
    k2.launch(cfg, nx, ny, d_ex, d_ey, d_hz, t);
    k3.launch(cfg, nx, ny, d_ex, d_ey, d_hz, t);
  }
  for (int t = 0; t < tmax; ++t) {  // runFdtd(), with the kernels' float constants
    for (int j = 0; j < ny; ++j) {
      ey[j] = fict[t];
    }
    for (int i = 1; i < nx; ++i) {
      for (int j = 0; j < ny; ++j) {
        ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
      }
    }
    for (int i = 0; i < nx; ++i) {
      for (int j = 1; j < ny; ++j) {
        ex[i * ny + j] = ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
      }
    }
    for (int i = 0; i < nx - 1; ++i) {
      for (int j = 0; j < ny - 1; ++j) {
        hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * ny + (j + 1)] - ex[i * ny + j] +
                                                  ey[(i + 1) * ny + j] - ey[i * ny + j]);
      }
    }
  }
  expect_near_scaled(d_ex.download(), ex, 1e-4, "ex");
  expect_near_scaled(d_ey.download(), ey, 1e-4, "ey");
  expect_near_scaled(d_hz.download(), hz, 1e-4, "hz");
}

TEST_F(Corpus, PolyBench_Jacobi1D) {
  constexpr int n = 1000, tsteps = 20;
  const Program p =
      polybench("stencils/jacobi-1d-imper/jacobi1D.cu", {{"N", str(n)}, {"TSTEPS", str(tsteps)}},
                {"runJacobiCUDA_kernel1", "runJacobiCUDA_kernel2"});
  std::vector<float> a = random_vector<float>(n, -1.0f, 1.0f);
  std::vector<float> b = random_vector<float>(n, -1.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_b = device.upload(b);
  const auto k1 = p.kernel<int, float*, float*>("runJacobiCUDA_kernel1", device);
  const auto k2 = p.kernel<int, float*, float*>("runJacobiCUDA_kernel2", device);
  const LaunchConfig cfg{.grid = {ceil_blocks(n, 256), 1}, .block = {256, 1}};
  for (int t = 0; t < tsteps; ++t) {
    k1.launch(cfg, n, d_a, d_b);
    k2.launch(cfg, n, d_a, d_b);
  }
  for (int t = 0; t < tsteps; ++t) {  // runJacobi1DCpu(), with the kernel's 0.33333f
    for (int i = 2; i < n - 1; ++i) {
      b[i] = 0.33333f * (a[i - 1] + a[i] + a[i + 1]);
    }
    for (int j = 2; j < n - 1; ++j) {
      a[j] = b[j];
    }
  }
  expect_near_scaled(d_a.download(), a, 1e-5, "A");
  expect_near_scaled(d_b.download(), b, 1e-5, "B");
}

TEST_F(Corpus, PolyBench_Jacobi2D) {
  constexpr int n = 66, tsteps = 10;
  const Program p =
      polybench("stencils/jacobi-2d-imper/jacobi2D.cu", {{"N", str(n)}, {"TSTEPS", str(tsteps)}},
                {"runJacobiCUDA_kernel1", "runJacobiCUDA_kernel2"});
  std::vector<float> a = random_vector<float>(n * n, -1.0f, 1.0f);
  std::vector<float> b = random_vector<float>(n * n, -1.0f, 1.0f);
  auto d_a = device.upload(a);
  auto d_b = device.upload(b);
  const auto k1 = p.kernel<int, float*, float*>("runJacobiCUDA_kernel1", device);
  const auto k2 = p.kernel<int, float*, float*>("runJacobiCUDA_kernel2", device);
  const LaunchConfig cfg{.grid = {ceil_blocks(n, 32), ceil_blocks(n, 8)}, .block = {32, 8}};
  for (int t = 0; t < tsteps; ++t) {
    k1.launch(cfg, n, d_a, d_b);
    k2.launch(cfg, n, d_a, d_b);
  }
  for (int t = 0; t < tsteps; ++t) {  // runJacobi2DCpu()
    for (int i = 1; i < n - 1; ++i) {
      for (int j = 1; j < n - 1; ++j) {
        b[i * n + j] = 0.2f * (a[i * n + j] + a[i * n + (j - 1)] + a[i * n + (1 + j)] +
                               a[(1 + i) * n + j] + a[(i - 1) * n + j]);
      }
    }
    for (int i = 1; i < n - 1; ++i) {
      for (int j = 1; j < n - 1; ++j) {
        a[i * n + j] = b[i * n + j];
      }
    }
  }
  expect_near_scaled(d_a.download(), a, 1e-5, "A");
  expect_near_scaled(d_b.download(), b, 1e-5, "B");
}

}  // namespace
}  // namespace kjit::test
