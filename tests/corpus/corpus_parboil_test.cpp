// The corpus's parboil files (tests/corpus/manifest.json), each kernel run as its project's host
// code runs it, on random inputs, against a plain C++ reference.
//
// Parboil's host code (main.cu) is not in the corpus; the launches below follow upstream's main.cu
// and the host functions the kernel files carry (regtileSgemm, computeQ_GPU, computeFH_GPU,
// copyatomstoconstbuf), and the references port upstream's CPU versions (benchmarks/*/src/cpu,
// src/base), computed in double.
#include "corpus.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace kjit::test {
namespace {

/// expect_all_near with an absolute slack of `rel` times the largest magnitude of `want`: the
/// kernels accumulate in float, so an element that cancels to near zero is only as exact as the
/// terms it summed.
template <class R>
void expect_near_scaled(const std::vector<float>& got, const std::vector<R>& want, double rel,
                        const std::string& what) {
  double scale = 0;
  for (const R w : want) {
    scale = std::max(scale, std::fabs(static_cast<double>(w)));
  }
  expect_all_near(got, want, rel, rel * scale, what);
}

// ---- sgemm --------------------------------------------------------------------------------------

TEST_F(Corpus, Parboil_Sgemm) {
  const Program p = corpus_program("parboil/benchmarks/sgemm/src/cuda/sgemm_kernel.cu");
  // regtileSgemm('N', 'T', ...) wants m a multiple of TILE_M (128) and n of TILE_N (16); the
  // kernel steps k by TILE_TB_HEIGHT (8) without a bound.
  constexpr int m = 256, n = 96, k = 72;
  constexpr float alpha = 1.0f;  // upstream main.cu's
  constexpr float beta = 0.0f;
  const auto a = random_vector<float>(m * k, -1.0f, 1.0f);  // column-major m x k, lda = m
  const auto b = random_vector<float>(n * k, -1.0f, 1.0f);  // column-major n x k (B^T), ldb = n
  auto d_a = device.upload(a);
  auto d_b = device.upload(b);
  auto d_c = device.upload(std::vector<float>(m * n, 0.0f));  // main.cu copies in a zeroed C
  p.kernel<const float*, int, const float*, int, float*, int, int, float, float>("mysgemmNT",
                                                                                 device)
      .launch(LaunchConfig{.grid = {m / 128, n / 16}, .block = {16, 8}}, d_a, m, d_b, n, d_c, m, k,
              alpha, beta);
  std::vector<double> c(m * n);
  for (int mm = 0; mm < m; ++mm) {  // basicSgemm('N', 'T', ...)
    for (int nn = 0; nn < n; ++nn) {
      double sum = 0;
      for (int i = 0; i < k; ++i) {
        sum += static_cast<double>(a[mm + i * m]) * b[nn + i * n];
      }
      c[mm + nn * m] = 0.0 * beta + alpha * sum;
    }
  }
  expect_near_scaled(d_c.download(), c, 1e-5, "C");
}

// ---- stencil ------------------------------------------------------------------------------------

TEST_F(Corpus, Parboil_Stencil) {
  const Program p = corpus_program("parboil/benchmarks/stencil/src/cuda/kernels.cu");
  constexpr int nx = 100, ny = 22, nz = 10;  // x and y not multiples of the block's reach
  constexpr int iterations = 4;
  constexpr float c0 = 1.0f / 6.0f;  // main.cu's
  constexpr float c1 = 1.0f / 6.0f / 6.0f;
  const auto a0 = random_vector<float>(nx * ny * nz, -1.0f, 1.0f);
  // main.cu copies A0 into both buffers, so the boundary the kernel never writes is A0's in both.
  auto d_a0 = device.upload(a0);
  auto d_anext = device.upload(a0);
  constexpr unsigned tx = 32, ty = 4;
  const LaunchConfig cfg{.grid = {(nx + tx * 2 - 1) / (tx * 2), (ny + ty - 1) / ty, 1},
                         .block = {tx, ty, 1},
                         .shared_bytes = tx * 2 * ty * sizeof(float)};
  const auto k =
      p.kernel<float, float, float*, float*, int, int, int>("block2D_hybrid_coarsen_x", device);
  DeviceBuffer<float>* in = &d_a0;
  DeviceBuffer<float>* out = &d_anext;
  for (int t = 0; t < iterations; ++t) {
    k.launch(cfg, c0, c1, *in, *out, nx, ny, nz);
    std::swap(in, out);  // main.cu swaps d_A0 and d_Anext; the result ends in d_A0
  }
  const auto at = [](int i, int j, int kk) { return i + nx * (j + ny * kk); };  // Index3D
  std::vector<double> ref_in(a0.begin(), a0.end());
  std::vector<double> ref_out = ref_in;
  for (int t = 0; t < iterations; ++t) {  // cpu_stencil()
    for (int i = 1; i < nx - 1; ++i) {
      for (int j = 1; j < ny - 1; ++j) {
        for (int kk = 1; kk < nz - 1; ++kk) {
          ref_out[at(i, j, kk)] =
              (ref_in[at(i, j, kk + 1)] + ref_in[at(i, j, kk - 1)] + ref_in[at(i, j + 1, kk)] +
               ref_in[at(i, j - 1, kk)] + ref_in[at(i + 1, j, kk)] + ref_in[at(i - 1, j, kk)]) *
                  c1 -
              ref_in[at(i, j, kk)] * c0;
        }
      }
    }
    std::swap(ref_in, ref_out);
  }
  expect_near_scaled(in->download(), ref_in, 1e-5, "A0 after the iterations");
}

// ---- mri-q --------------------------------------------------------------------------------------

struct MriQValues {  // computeQ.cu's struct kValues
  float Kx;
  float Ky;
  float Kz;
  float PhiMag;
};

/// ComputePhiMag_GPU, then ComputeQ_GPU over the K values in chunks of the __constant__ ck[1024]
/// (upstream main.cu, computePhiMag_GPU and computeQ_GPU of the file).
void check_mri_q(Corpus& t, const Program& p, int num_k, int num_x) {
  constexpr int phi_threads = 512;  // KERNEL_PHI_MAG_THREADS_PER_BLOCK
  constexpr int q_threads = 256;    // KERNEL_Q_THREADS_PER_BLOCK
  constexpr int k_per_grid = 1024;  // KERNEL_Q_K_ELEMS_PER_GRID
  const auto kx = t.random_vector<float>(num_k, -1.0f, 1.0f);
  const auto ky = t.random_vector<float>(num_k, -1.0f, 1.0f);
  const auto kz = t.random_vector<float>(num_k, -1.0f, 1.0f);
  const auto x = t.random_vector<float>(num_x, -1.0f, 1.0f);
  const auto y = t.random_vector<float>(num_x, -1.0f, 1.0f);
  const auto z = t.random_vector<float>(num_x, -1.0f, 1.0f);
  const auto phi_r = t.random_vector<float>(num_k, -1.0f, 1.0f);
  const auto phi_i = t.random_vector<float>(num_k, -1.0f, 1.0f);

  auto d_phi_r = t.device.upload(phi_r);
  auto d_phi_i = t.device.upload(phi_i);
  auto d_phi_mag = t.poisoned<float>(num_k);
  const unsigned phi_blocks = (num_k + phi_threads - 1) / phi_threads;
  p.kernel<float*, float*, float*, int>("ComputePhiMag_GPU", t.device)
      .launch(LaunchConfig{.grid = {phi_blocks, 1}, .block = {phi_threads, 1}}, d_phi_r, d_phi_i,
              d_phi_mag, num_k);
  const std::vector<float> phi_mag = d_phi_mag.download();
  std::vector<double> ref_phi_mag(num_k);
  for (int i = 0; i < num_k; ++i) {  // ComputePhiMagCPU
    ref_phi_mag[i] =
        static_cast<double>(phi_r[i]) * phi_r[i] + static_cast<double>(phi_i[i]) * phi_i[i];
  }
  expect_near_scaled(phi_mag, ref_phi_mag, 1e-6, "phiMag");

  std::vector<MriQValues> k_vals(num_k);
  for (int i = 0; i < num_k; ++i) {
    k_vals[i] = {kx[i], ky[i], kz[i], phi_mag[i]};
  }
  auto d_x = t.device.upload(x);
  auto d_y = t.device.upload(y);
  auto d_z = t.device.upload(z);
  auto d_qr = t.device.upload(std::vector<float>(num_x, 0.0f));  // main.cu's cudaMemset
  auto d_qi = t.device.upload(std::vector<float>(num_x, 0.0f));
  const auto ck = p.symbol<MriQValues[k_per_grid]>("ck", t.device);
  const auto q =
      p.kernel<int, int, float*, float*, float*, float*, float*>("ComputeQ_GPU", t.device);
  const unsigned q_blocks = (num_x + q_threads - 1) / q_threads;
  for (int base = 0; base < num_k; base += k_per_grid) {
    const int elems = std::min(k_per_grid, num_k - base);
    ck.write(std::span<const MriQValues>(k_vals.data() + base, elems));  // cudaMemcpyToSymbol
    q.launch(LaunchConfig{.grid = {q_blocks, 1}, .block = {q_threads, 1}}, num_k, base, d_x, d_y,
             d_z, d_qr, d_qi);
  }
  std::vector<double> qr(num_x, 0.0);
  std::vector<double> qi(num_x, 0.0);
  constexpr double pi_x2 = 6.2831853071795864769252867665590058;
  for (int ix = 0; ix < num_x; ++ix) {  // ComputeQCPU
    for (int ik = 0; ik < num_k; ++ik) {
      const double arg =
          pi_x2 * (static_cast<double>(kx[ik]) * x[ix] + static_cast<double>(ky[ik]) * y[ix] +
                   static_cast<double>(kz[ik]) * z[ix]);
      qr[ix] += ref_phi_mag[ik] * std::cos(arg);
      qi[ix] += ref_phi_mag[ik] * std::sin(arg);
    }
  }
  // Each term's argument is rounded to float (up to ~2e-6 absolute), so over ~1500 terms of
  // magnitude <= 2 the sums are good to ~1e-4 of their largest.
  expect_near_scaled(d_qr.download(), qr, 1e-4, "Qr (numK " + std::to_string(num_k) + ")");
  expect_near_scaled(d_qi.download(), qi, 1e-4, "Qi (numK " + std::to_string(num_k) + ")");
}

TEST_F(Corpus, Parboil_MriQ) {
  const Program p = corpus_program("parboil/benchmarks/mri-q/src/cuda/computeQ.cu");
  // numX a multiple of the block (ComputeQ_GPU has no bound on x). An even numK over two chunks
  // of ck; an odd one within one chunk takes the kernel's numK % 2 lead-in (an odd numK over
  // several chunks would read ck[1024], past the end, in the suite).
  check_mri_q(*this, p, 1500, 512);
  check_mri_q(*this, p, 301, 256);
}

// ---- mri-fhd ------------------------------------------------------------------------------------

struct MriFhdValues {  // computeFH.cu's struct kValues
  float Kx;
  float Ky;
  float Kz;
  float RhoPhiR;
  float RhoPhiI;
};

TEST_F(Corpus, Parboil_MriFhd) {
  const Program p = corpus_program("parboil/benchmarks/mri-fhd/src/cuda/computeFH.cu");
  constexpr int rho_threads = 512;  // KERNEL_RHO_PHI_THREADS_PER_BLOCK
  constexpr int fh_threads = 256;   // KERNEL_FH_THREADS_PER_BLOCK
  constexpr int k_per_grid = 512;   // KERNEL_FH_K_ELEMS_PER_GRID
  // Three chunks of c, the last of 6 (kCnt % 4 == 2 elements before the unrolled loop); numX a
  // multiple of the block (ComputeFH_GPU has no bound on x).
  constexpr int num_k = 2 * k_per_grid + 6;
  constexpr int num_x = 512;
  const auto kx = random_vector<float>(num_k, -1.0f, 1.0f);
  const auto ky = random_vector<float>(num_k, -1.0f, 1.0f);
  const auto kz = random_vector<float>(num_k, -1.0f, 1.0f);
  const auto x = random_vector<float>(num_x, -1.0f, 1.0f);
  const auto y = random_vector<float>(num_x, -1.0f, 1.0f);
  const auto z = random_vector<float>(num_x, -1.0f, 1.0f);
  const auto phi_r = random_vector<float>(num_k, -1.0f, 1.0f);
  const auto phi_i = random_vector<float>(num_k, -1.0f, 1.0f);
  const auto d_r = random_vector<float>(num_k, -1.0f, 1.0f);
  const auto d_i = random_vector<float>(num_k, -1.0f, 1.0f);

  auto dev_phi_r = device.upload(phi_r);
  auto dev_phi_i = device.upload(phi_i);
  auto dev_d_r = device.upload(d_r);
  auto dev_d_i = device.upload(d_i);
  auto dev_real = poisoned<float>(num_k);
  auto dev_imag = poisoned<float>(num_k);
  const unsigned rho_blocks = (num_k + rho_threads - 1) / rho_threads;
  p.kernel<int, float*, float*, float*, float*, float*, float*>("ComputeRhoPhiGPU", device)
      .launch(LaunchConfig{.grid = {rho_blocks, 1}, .block = {rho_threads, 1}}, num_k, dev_phi_r,
              dev_phi_i, dev_d_r, dev_d_i, dev_real, dev_imag);
  const std::vector<float> real = dev_real.download();
  const std::vector<float> imag = dev_imag.download();
  std::vector<double> ref_real(num_k);
  std::vector<double> ref_imag(num_k);
  for (int i = 0; i < num_k; ++i) {  // ComputeRhoPhiCPU
    const double pr = phi_r[i], pi = phi_i[i], dr = d_r[i], di = d_i[i];
    ref_real[i] = pr * dr + pi * di;
    ref_imag[i] = pr * di - pi * dr;
  }
  expect_near_scaled(real, ref_real, 1e-6, "realRhoPhi");
  expect_near_scaled(imag, ref_imag, 1e-6, "imagRhoPhi");

  std::vector<MriFhdValues> k_vals(num_k);
  for (int i = 0; i < num_k; ++i) {
    k_vals[i] = {kx[i], ky[i], kz[i], real[i], imag[i]};
  }
  auto dev_x = device.upload(x);
  auto dev_y = device.upload(y);
  auto dev_z = device.upload(z);
  auto dev_out_r = device.upload(std::vector<float>(num_x, 0.0f));  // calloc'd, copied in
  auto dev_out_i = device.upload(std::vector<float>(num_x, 0.0f));
  const auto c = p.symbol<MriFhdValues[k_per_grid]>("c", device);
  const auto fh =
      p.kernel<int, int, float*, float*, float*, float*, float*>("ComputeFH_GPU", device);
  for (int base = 0; base < num_k; base += k_per_grid) {  // computeFH_GPU
    const int elems = std::min(k_per_grid, num_k - base);
    c.write(std::span<const MriFhdValues>(k_vals.data() + base, elems));
    fh.launch(LaunchConfig{.grid = {num_x / fh_threads, 1}, .block = {fh_threads, 1}}, num_k, base,
              dev_x, dev_y, dev_z, dev_out_r, dev_out_i);
  }
  std::vector<double> out_r(num_x, 0.0);
  std::vector<double> out_i(num_x, 0.0);
  constexpr double pi_x2 = 6.2831853071795864769252867665590058;
  for (int ix = 0; ix < num_x; ++ix) {  // ComputeFH_CPU
    for (int ik = 0; ik < num_k; ++ik) {
      const double arg =
          pi_x2 * (static_cast<double>(kx[ik]) * x[ix] + static_cast<double>(ky[ik]) * y[ix] +
                   static_cast<double>(kz[ik]) * z[ix]);
      const double ca = std::cos(arg);
      const double sa = std::sin(arg);
      out_r[ix] += ref_real[ik] * ca - ref_imag[ik] * sa;
      out_i[ix] += ref_imag[ik] * ca + ref_real[ik] * sa;
    }
  }
  // As in mri-q: float arguments over ~1000 terms.
  expect_near_scaled(dev_out_r.download(), out_r, 1e-4, "outR");
  expect_near_scaled(dev_out_i.download(), out_i, 1e-4, "outI");
}

// ---- cp -----------------------------------------------------------------------------------------

struct alignas(16) Float4 {
  float x, y, z, w;
};

TEST_F(Corpus, Parboil_Cp) {
  const Program p = corpus_program("parboil/benchmarks/cp/src/cuda/cuenergy_pre8_coalesce.cu");
  constexpr int max_atoms = 4000;                  // MAXATOMS
  constexpr unsigned bx = 16, by = 8, unroll = 8;  // BLOCKSIZEX, BLOCKSIZEY, UNROLLX
  // A smaller lattice than VOLSIZEX x VOLSIZEY (512 x 512) with the same grid formula, and more
  // atoms than one load of the constant buffer holds, so main.cu's chunk loop runs twice.
  constexpr unsigned vol_x = 128, vol_y = 64;
  constexpr int atom_count = max_atoms + 100;
  constexpr float spacing = 0.1f;  // main.cu's gridspacing
  constexpr float zplane = 0.0f;   // main.cu's 0 * gridspacing
  // main.cu scatters atoms over the lattice's extent with charges in [-1, 1]; here they float
  // 0.05 to 0.1 above its plane, so no lattice point sits on an atom.
  std::vector<float> atoms(4 * atom_count);
  const auto ax = random_vector<float>(atom_count, 0.0f, spacing * vol_x);
  const auto ay = random_vector<float>(atom_count, 0.0f, spacing * vol_y);
  const auto az = random_vector<float>(atom_count, 0.05f, 0.1f);
  const auto aq = random_vector<float>(atom_count, -1.0f, 1.0f);
  for (int i = 0; i < atom_count; ++i) {
    atoms[4 * i] = ax[i];
    atoms[4 * i + 1] = ay[i];
    atoms[4 * i + 2] = az[i];
    atoms[4 * i + 3] = aq[i];
  }
  auto d_out = device.upload(std::vector<float>(vol_x * vol_y, 0.0f));  // main.cu's cudaMemset
  const auto k = p.kernel<int, float, float*>("cenergy", device);       // builds the program
  const auto atominfo = p.symbol<Float4[max_atoms]>("atominfo", device);
  const LaunchConfig cfg{.grid = {vol_x / (bx * unroll), vol_y / by, 1}, .block = {bx, by, 1}};
  for (int first = 0; first < atom_count; first += max_atoms) {
    const int run = std::min(max_atoms, atom_count - first);
    std::vector<Float4> pre(run);  // copyatomstoconstbuf(): z becomes dz^2
    for (int i = 0; i < run; ++i) {
      const float* a = &atoms[4 * (first + i)];
      const float dz = zplane - a[2];
      pre[i] = {a[0], a[1], dz * dz, a[3]};
    }
    atominfo.write(pre);
    k.launch(cfg, run, spacing, d_out);
  }
  std::vector<double> energy(vol_x * vol_y, 0.0);
  for (unsigned yi = 0; yi < vol_y; ++yi) {  // cenergy.c: the direct Coulomb sum
    for (unsigned xi = 0; xi < vol_x; ++xi) {
      double e = 0;
      for (int i = 0; i < atom_count; ++i) {
        const double dx = spacing * xi - ax[i];
        const double dy = spacing * yi - ay[i];
        const double dz = zplane - az[i];
        e += aq[i] / std::sqrt(dx * dx + dy * dy + dz * dz);
      }
      energy[yi * vol_x + xi] = e;
    }
  }
  // Thousands of float terms of either sign per point.
  expect_near_scaled(d_out.download(), energy, 1e-4, "energygrid");
}

// ---- sad ----------------------------------------------------------------------------------------

TEST_F(Corpus, Parboil_SadLargerBlocks) {
  const Program p = corpus_program("parboil/benchmarks/sad/src/cuda/largerBlocks.cu");
  constexpr int max_pos = 1089;               // MAX_POS: 33 x 33 search positions
  constexpr int padded = 1096;                // MAX_POS_PADDED
  constexpr int mb_width = 3, mb_height = 2;  // a 48 x 32 image
  constexpr int mbs = mb_width * mb_height;
  // The SAD array of sad.h: per macroblock, type 1 (16x16) has 1 block, types 2 and 3 (16x8,
  // 8x16) 2, type 4 (8x8) 4, types 5 and 6 (8x4, 4x8) 8, type 7 (4x4) 16, each block a vector of
  // padded search positions, at SAD_TYPE_IX(type, mbs).
  constexpr int type_ix[8] = {0, 0, 1, 3, 5, 9, 17, 25};
  constexpr int type_ct[8] = {0, 1, 2, 2, 4, 8, 8, 16};
  const auto sad = [&](std::vector<unsigned short>& v, int type, int mb, int block,
                       int pos) -> unsigned short& {
    return v[(static_cast<std::size_t>(type_ix[type]) * mbs + mb * type_ct[type] + block) * padded +
             pos];
  };
  // mb_sad_calc (sad4.cu: a texture reference, out of scope) leaves the 4x4 SADs in type 7; the
  // kernels sum them to the larger blocks. Values below 4096, so that the 16 of a macroblock sum
  // within 16 bits, as the kernels' packed adds of two positions at once need.
  std::vector<unsigned short> sads(static_cast<std::size_t>(41) * mbs * padded, 0xA5A5);
  const auto t7 =
      random_vector<unsigned short>(static_cast<std::size_t>(16) * mbs * padded, 0, 4095);
  std::copy(t7.begin(), t7.end(), sads.begin() + static_cast<std::ptrdiff_t>(25) * mbs * padded);
  auto d_sads = device.upload(sads);
  const Dim3 grid{mb_width, mb_height, 1};  // main.cu's macroblock_grid
  p.kernel<unsigned short*, int, int>("larger_sad_calc_8", device)
      .launch(LaunchConfig{.grid = grid, .block = {32, 4}}, d_sads, mb_width, mb_height);
  p.kernel<unsigned short*, int, int>("larger_sad_calc_16", device)
      .launch(LaunchConfig{.grid = grid, .block = {32, 1}}, d_sads, mb_width, mb_height);
  // The kernels cover the positions in pairs, (MAX_POS + 1) / 2 of them: the rest of the padding
  // keeps its value.
  for (int mb = 0; mb < mbs; ++mb) {
    for (int pos = 0; pos < max_pos + 1; ++pos) {
      const auto s7 = [&](int row, int col) { return sad(sads, 7, mb, row * 4 + col, pos); };
      for (int row = 0; row < 2; ++row) {  // type 6, 4x8: 2 rows of 4
        for (int col = 0; col < 4; ++col) {
          sad(sads, 6, mb, row * 4 + col, pos) = s7(2 * row, col) + s7(2 * row + 1, col);
        }
      }
      for (int row = 0; row < 4; ++row) {  // type 5, 8x4: 4 rows of 2
        for (int col = 0; col < 2; ++col) {
          sad(sads, 5, mb, row * 2 + col, pos) = s7(row, 2 * col) + s7(row, 2 * col + 1);
        }
      }
      for (int row = 0; row < 2; ++row) {  // type 4, 8x8: 2 rows of 2
        for (int col = 0; col < 2; ++col) {
          sad(sads, 4, mb, row * 2 + col, pos) = s7(2 * row, 2 * col) + s7(2 * row, 2 * col + 1) +
                                                 s7(2 * row + 1, 2 * col) +
                                                 s7(2 * row + 1, 2 * col + 1);
        }
      }
      const auto s4 = [&](int row, int col) { return sad(sads, 4, mb, row * 2 + col, pos); };
      for (int col = 0; col < 2; ++col) {  // type 3, 8x16: 1 row of 2
        sad(sads, 3, mb, col, pos) = s4(0, col) + s4(1, col);
      }
      for (int row = 0; row < 2; ++row) {  // type 2, 16x8: 2 rows of 1
        sad(sads, 2, mb, row, pos) = s4(row, 0) + s4(row, 1);
      }
      sad(sads, 1, mb, 0, pos) = s4(0, 0) + s4(0, 1) + s4(1, 0) + s4(1, 1);
    }
  }
  const std::vector<unsigned short> got = d_sads.download();
  ASSERT_EQ(got.size(), sads.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] != sads[i] && bad++ < 5) {
      ADD_FAILURE() << "sads[" << i << "] = " << got[i] << ", want " << sads[i];
    }
  }
  EXPECT_EQ(bad, 0U);
}

// ---- histo --------------------------------------------------------------------------------------

struct Uint2 {
  unsigned x, y;
};
struct Uchar4 {
  unsigned char x, y, z, w;
};

TEST_F(Corpus, Parboil_HistoIntermediates) {
  const Program p = corpus_program("parboil/benchmarks/histo/src/cuda/histo_intermediates.cu");
  constexpr unsigned unroll = 16;  // util.h's UNROLL
  constexpr unsigned kb = 24;      // KB
  // An odd width (the kernel's last thread then skips its second pixel) and UNROLL lines per
  // block. The launch is the one the kernel's indexing assumes, as upstream main.cu makes it:
  // grid (height + UNROLL - 1) / UNROLL, one thread per pixel pair, rows of (width + 1) / 2 uint2.
  constexpr unsigned width = 501, height = 32;
  constexpr unsigned pitch = (width + 1) / 2;
  const auto bins =
      random_vector<unsigned>(static_cast<std::size_t>(2) * pitch * height, 0, (1U << 20) - 1);
  std::vector<Uint2> input(static_cast<std::size_t>(pitch) * height);
  for (std::size_t i = 0; i < input.size(); ++i) {
    input[i] = {bins[2 * i], bins[2 * i + 1]};
  }
  auto d_input = device.upload(input);
  auto d_mappings = poisoned<Uchar4>(static_cast<std::size_t>(width) * height);
  p.kernel<Uint2*, unsigned, unsigned, unsigned, Uchar4*>("histo_intermediates_kernel", device)
      .launch(LaunchConfig{.grid = {(height + unroll - 1) / unroll}, .block = {pitch}}, d_input,
              height, width, pitch, d_mappings);
  const auto map = [&](unsigned bin) {  // calculateBin()
    return Uchar4{
        static_cast<unsigned char>(bin / (kb * 1024)), static_cast<unsigned char>((bin >> 10) % kb),
        static_cast<unsigned char>((bin >> 2) % 256), static_cast<unsigned char>((bin % 4) * 8)};
  };
  std::vector<Uchar4> want(static_cast<std::size_t>(width) * height);
  for (unsigned row = 0; row < height; ++row) {
    for (unsigned t = 0; t < pitch; ++t) {  // x to the first half of the row, y to the second
      want[row * width + t] = map(input[row * pitch + t].x);
      if (!(width % 2 != 0 && t == pitch - 1)) {
        want[row * width + t + pitch] = map(input[row * pitch + t].y);
      }
    }
  }
  const std::vector<Uchar4> got = d_mappings.download();
  std::size_t bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const Uchar4 g = got[i];
    const Uchar4 w = want[i];
    if ((g.x != w.x || g.y != w.y || g.z != w.z || g.w != w.w) && bad++ < 5) {
      ADD_FAILURE() << "sm_mappings[" << i << "] = (" << +g.x << ", " << +g.y << ", " << +g.z
                    << ", " << +g.w << "), want (" << +w.x << ", " << +w.y << ", " << +w.z << ", "
                    << +w.w << ")";
    }
  }
  EXPECT_EQ(bad, 0U);
}

}  // namespace
}  // namespace kjit::test
