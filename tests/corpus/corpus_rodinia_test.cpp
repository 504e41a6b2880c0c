// The corpus's rodinia files (tests/corpus/manifest.json), each kernel run as its project's host
// code runs it, on random inputs, against a plain C++ reference.
#include "corpus.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>

namespace kjit::test {
namespace {

Dim3 dim3(long x, long y = 1, long z = 1) {
  return Dim3{static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y),
              static_cast<std::uint32_t>(z)};
}

LaunchConfig launch(Dim3 grid, Dim3 block, std::size_t shared_bytes = 0) {
  return LaunchConfig{.grid = grid, .block = block, .shared_bytes = shared_bytes};
}

// ---- backprop ----------------------------------------------------------------------------------

/// backprop_cuda.cu's bpnn_train_cuda: the forward pass of the input layer (partial sums per block
/// of 16 input units, which the host then adds), then the momentum update of the input weights
/// (the CPU's bpnn_adjust_weights), each with threads (16, 16) and grid (1, in / 16).
TEST_F(Corpus, Rodinia_Backprop) {
  const Program p = corpus_program("rodinia/cuda/backprop/backprop_cuda_kernel.cu");
  constexpr int kHeight = 16;  // HEIGHT = WIDTH in backprop.h
  constexpr double kEta = 0.3;
  constexpr double kMomentum = 0.3;
  const int in = 8 * kHeight;  // the layer size, a multiple of 16 as backprop requires
  const int hid = 16;          // backprop's hidden layer size (and the block width)
  const int num_blocks = in / kHeight;
  const int row = hid + 1;
  const LaunchConfig cfg = launch(dim3(1, num_blocks), dim3(16, 16));

  const auto input = random_vector<float>(in + 1, 0.0f, 1.0f);
  const auto weights = random_vector<float>(static_cast<std::size_t>(in + 1) * row, -1.0f, 1.0f);
  auto d_input = device.upload(input);
  auto d_output_hidden = poisoned<float>(hid + 1);  // a parameter the kernel does not use
  auto d_weights = device.upload(weights);
  auto d_partial = poisoned<float>(static_cast<std::size_t>(num_blocks) * hid);
  p.kernel<float*, float*, float*, float*, int, int>("bpnn_layerforward_CUDA", device)
      .launch(cfg, d_input, d_output_hidden, d_weights, d_partial, in, hid);
  std::vector<double> partial_ref(static_cast<std::size_t>(num_blocks) * hid);
  for (int by = 0; by < num_blocks; ++by) {
    for (int j = 0; j < hid; ++j) {
      double sum = 0;
      for (int ty = 0; ty < kHeight; ++ty) {
        const int r = kHeight * by + ty + 1;
        sum += static_cast<double>(weights[r * row + j + 1]) * input[r];
      }
      partial_ref[by * hid + j] = sum;
    }
  }
  // A tree sum of 16 products in float against the exact sum.
  expect_all_near(d_partial.download(), partial_ref, 1e-5, 1e-5, "hidden_partial_sum");

  // The host re-uploads the weights, then the hidden deltas and previous weight changes.
  const auto delta = random_vector<float>(hid + 1, -0.5f, 0.5f);
  const auto prev = random_vector<float>(static_cast<std::size_t>(in + 1) * row, -0.1f, 0.1f);
  d_weights.upload(weights);
  auto d_delta = device.upload(delta);
  auto d_prev = device.upload(prev);
  p.kernel<float*, int, float*, int, float*, float*>("bpnn_adjust_weights_cuda", device)
      .launch(cfg, d_delta, hid, d_input, in, d_weights, d_prev);
  std::vector<float> w_ref = weights;
  std::vector<float> prev_ref = prev;
  const auto adjust = [&](int index, double ly, int j) {
    const double change = kEta * delta[j] * ly + kMomentum * prev[index];
    w_ref[index] = static_cast<float>(w_ref[index] + change);
    prev_ref[index] = static_cast<float>(change);
  };
  for (int r = 1; r <= in; ++r) {
    for (int j = 1; j <= hid; ++j) {
      adjust(r * row + j, input[r], j);
    }
  }
  for (int j = 1; j <= hid; ++j) {  // the bias row, which row 0 of block 0 updates
    adjust(j, 1.0, j);
  }
  // Double arithmetic rounded to float: only a contracted multiply-add may differ.
  expect_all_near(d_weights.download(), w_ref, 1e-6, 1e-7, "w");
  expect_all_near(d_prev.download(), prev_ref, 1e-6, 1e-7, "oldw");
}

// ---- cfd ---------------------------------------------------------------------------------------

struct Float3 {
  float x, y, z;
};

namespace cfd {

constexpr int kBlock = 192;  // BLOCK_SIZE_0 .. BLOCK_SIZE_4
constexpr int kNdim = 3;
constexpr int kNnb = 4;
constexpr int kRk = 3;
constexpr int kNvar = 5;  // density, momentum x/y/z, density energy
constexpr float kGamma = 1.4f;

void flux_contribution(float density_energy, const Float3& momentum, float pressure,
                       const Float3& velocity, Float3& fc_x, Float3& fc_y, Float3& fc_z,
                       Float3& fc_e) {
  fc_x.x = velocity.x * momentum.x + pressure;
  fc_x.y = velocity.x * momentum.y;
  fc_x.z = velocity.x * momentum.z;
  fc_y.x = fc_x.y;
  fc_y.y = velocity.y * momentum.y + pressure;
  fc_y.z = velocity.y * momentum.z;
  fc_z.x = fc_x.z;
  fc_z.y = fc_y.z;
  fc_z.z = velocity.z * momentum.z + pressure;
  const float de_p = density_energy + pressure;
  fc_e.x = velocity.x * de_p;
  fc_e.y = velocity.y * de_p;
  fc_e.z = velocity.z * de_p;
}

struct Cell {
  float density;
  Float3 momentum;
  float density_energy;
  Float3 velocity;
  float speed_sqd;
  float pressure;
  float speed_of_sound;
};

Cell cell(const std::vector<float>& v, int i, int nelr) {
  Cell c{};
  c.density = v[i];
  c.momentum = {v[i + nelr], v[i + 2 * nelr], v[i + 3 * nelr]};
  c.density_energy = v[i + 4 * nelr];
  c.velocity = {c.momentum.x / c.density, c.momentum.y / c.density, c.momentum.z / c.density};
  c.speed_sqd =
      c.velocity.x * c.velocity.x + c.velocity.y * c.velocity.y + c.velocity.z * c.velocity.z;
  c.pressure = (kGamma - 1.0f) * (c.density_energy - 0.5f * c.density * c.speed_sqd);
  c.speed_of_sound = std::sqrt(kGamma * c.pressure / c.density);
  return c;
}

/// The far field (euler3d.cu main): ff_variable and the four flux contributions.
struct FarField {
  float variable[kNvar];
  Float3 momentum_x[1], momentum_y[1], momentum_z[1], density_energy[1];
};

FarField far_field() {
  FarField ff{};
  const float angle_of_attack = float(3.1415926535897931 / 180.0f) * 0.0f;
  ff.variable[0] = 1.4f;
  const float ff_pressure = 1.0f;
  const float ff_speed_of_sound = std::sqrt(kGamma * ff_pressure / ff.variable[0]);
  const float ff_speed = 1.2f * ff_speed_of_sound;  // ff_mach
  const Float3 ff_velocity{ff_speed * std::cos(angle_of_attack),
                           ff_speed * std::sin(angle_of_attack), 0.0f};
  ff.variable[1] = ff.variable[0] * ff_velocity.x;
  ff.variable[2] = ff.variable[0] * ff_velocity.y;
  ff.variable[3] = ff.variable[0] * ff_velocity.z;
  ff.variable[4] =
      ff.variable[0] * (0.5f * (ff_speed * ff_speed)) + (ff_pressure / float(kGamma - 1.0f));
  const Float3 momentum{ff.variable[1], ff.variable[2], ff.variable[3]};
  flux_contribution(ff.variable[4], momentum, ff_pressure, ff_velocity, ff.momentum_x[0],
                    ff.momentum_y[0], ff.momentum_z[0], ff.density_energy[0]);
  return ff;
}

void step_factor(int nelr, const std::vector<float>& v, const std::vector<float>& areas,
                 std::vector<float>& step) {
  for (int i = 0; i < nelr; ++i) {
    const Cell c = cell(v, i, nelr);
    step[i] = 0.5f / (std::sqrt(areas[i]) * (std::sqrt(c.speed_sqd) + c.speed_of_sound));
  }
}

void flux(int nelr, const std::vector<int>& ese, const std::vector<float>& normals,
          const std::vector<float>& v, const FarField& ff, std::vector<float>& fluxes) {
  const float smoothing_coefficient = 0.2f;
  for (int i = 0; i < nelr; ++i) {
    const Cell ci = cell(v, i, nelr);
    const float speed_i = std::sqrt(ci.speed_sqd);
    Float3 fx_i{}, fy_i{}, fz_i{}, fe_i{};
    flux_contribution(ci.density_energy, ci.momentum, ci.pressure, ci.velocity, fx_i, fy_i, fz_i,
                      fe_i);
    float f_density = 0.0f;
    Float3 f_momentum{0.0f, 0.0f, 0.0f};
    float f_energy = 0.0f;
    for (int j = 0; j < kNnb; ++j) {
      const int nb = ese[i + j * nelr];
      const Float3 normal{normals[i + (j + 0 * kNnb) * nelr], normals[i + (j + 1 * kNnb) * nelr],
                          normals[i + (j + 2 * kNnb) * nelr]};
      const float normal_len =
          std::sqrt(normal.x * normal.x + normal.y * normal.y + normal.z * normal.z);
      if (nb >= 0) {
        const Cell cn = cell(v, nb, nelr);
        Float3 fx{}, fy{}, fz{}, fe{};
        flux_contribution(cn.density_energy, cn.momentum, cn.pressure, cn.velocity, fx, fy, fz, fe);
        float factor = -normal_len * smoothing_coefficient * 0.5f *
                       (speed_i + std::sqrt(cn.speed_sqd) + ci.speed_of_sound + cn.speed_of_sound);
        f_density += factor * (ci.density - cn.density);
        f_energy += factor * (ci.density_energy - cn.density_energy);
        f_momentum.x += factor * (ci.momentum.x - cn.momentum.x);
        f_momentum.y += factor * (ci.momentum.y - cn.momentum.y);
        f_momentum.z += factor * (ci.momentum.z - cn.momentum.z);

        factor = 0.5f * normal.x;
        f_density += factor * (cn.momentum.x + ci.momentum.x);
        f_energy += factor * (fe.x + fe_i.x);
        f_momentum.x += factor * (fx.x + fx_i.x);
        f_momentum.y += factor * (fy.x + fy_i.x);
        f_momentum.z += factor * (fz.x + fz_i.x);

        factor = 0.5f * normal.y;
        f_density += factor * (cn.momentum.y + ci.momentum.y);
        f_energy += factor * (fe.y + fe_i.y);
        f_momentum.x += factor * (fx.y + fx_i.y);
        f_momentum.y += factor * (fy.y + fy_i.y);
        f_momentum.z += factor * (fz.y + fz_i.y);

        factor = 0.5f * normal.z;
        f_density += factor * (cn.momentum.z + ci.momentum.z);
        f_energy += factor * (fe.z + fe_i.z);
        f_momentum.x += factor * (fx.z + fx_i.z);
        f_momentum.y += factor * (fy.z + fy_i.z);
        f_momentum.z += factor * (fz.z + fz_i.z);
      } else if (nb == -1) {  // a wing boundary
        f_momentum.x += normal.x * ci.pressure;
        f_momentum.y += normal.y * ci.pressure;
        f_momentum.z += normal.z * ci.pressure;
      } else if (nb == -2) {  // a far field boundary
        float factor = 0.5f * normal.x;
        f_density += factor * (ff.variable[1] + ci.momentum.x);
        f_energy += factor * (ff.density_energy[0].x + fe_i.x);
        f_momentum.x += factor * (ff.momentum_x[0].x + fx_i.x);
        f_momentum.y += factor * (ff.momentum_y[0].x + fy_i.x);
        f_momentum.z += factor * (ff.momentum_z[0].x + fz_i.x);

        factor = 0.5f * normal.y;
        f_density += factor * (ff.variable[2] + ci.momentum.y);
        f_energy += factor * (ff.density_energy[0].y + fe_i.y);
        f_momentum.x += factor * (ff.momentum_x[0].y + fx_i.y);
        f_momentum.y += factor * (ff.momentum_y[0].y + fy_i.y);
        f_momentum.z += factor * (ff.momentum_z[0].y + fz_i.y);

        factor = 0.5f * normal.z;
        f_density += factor * (ff.variable[3] + ci.momentum.z);
        f_energy += factor * (ff.density_energy[0].z + fe_i.z);
        f_momentum.x += factor * (ff.momentum_x[0].z + fx_i.z);
        f_momentum.y += factor * (ff.momentum_y[0].z + fy_i.z);
        f_momentum.z += factor * (ff.momentum_z[0].z + fz_i.z);
      }
    }
    fluxes[i] = f_density;
    fluxes[i + nelr] = f_momentum.x;
    fluxes[i + 2 * nelr] = f_momentum.y;
    fluxes[i + 3 * nelr] = f_momentum.z;
    fluxes[i + 4 * nelr] = f_energy;
  }
}

void time_step(int j, int nelr, const std::vector<float>& old_v, std::vector<float>& v,
               const std::vector<float>& step, const std::vector<float>& fluxes) {
  for (int i = 0; i < nelr; ++i) {
    const float factor = step[i] / float(kRk + 1 - j);
    for (int k = 0; k < kNvar; ++k) {
      v[i + k * nelr] = old_v[i + k * nelr] + factor * fluxes[i + k * nelr];
    }
  }
}

}  // namespace cfd

/// euler3d.cu main: the far field into __constant__ memory, the state set to it, then the solver's
/// iterations (step factor, then RK stages of flux and time step) on a random unstructured mesh.
TEST_F(Corpus, Rodinia_Cfd) {
  using namespace cfd;
  const Program p = corpus_program("rodinia/cuda/cfd/euler3d.cu");
  auto initialize = p.kernel<int, float*>("cuda_initialize_variables", device);
  auto compute_step_factor =
      p.kernel<int, float*, float*, float*>("cuda_compute_step_factor", device);
  auto compute_flux = p.kernel<int, int*, float*, float*, float*>("cuda_compute_flux", device);
  auto time_step_k = p.kernel<int, int, float*, float*, float*, float*>("cuda_time_step", device);
  const FarField ff = far_field();  // cudaMemcpyToSymbol
  p.symbol<float[kNvar]>("ff_variable", device).write(ff.variable);
  p.symbol<Float3[1]>("ff_flux_contribution_momentum_x", device).write(ff.momentum_x);
  p.symbol<Float3[1]>("ff_flux_contribution_momentum_y", device).write(ff.momentum_y);
  p.symbol<Float3[1]>("ff_flux_contribution_momentum_z", device).write(ff.momentum_z);
  p.symbol<Float3[1]>("ff_flux_contribution_density_energy", device).write(ff.density_energy);

  const int nel = 500;
  const int nelr = kBlock * ((nel / kBlock) + std::min(1, nel % kBlock));
  // The mesh as main reads it: neighbours (-1 a wing, -2 the far field), the padding elements
  // copies of the last one.
  auto areas = random_vector<float>(nelr, 0.5f, 1.5f);
  std::vector<int> ese(static_cast<std::size_t>(nelr) * kNnb);
  for (int i = 0; i < nel; ++i) {
    for (int j = 0; j < kNnb; ++j) {
      const int kind = static_cast<int>(rng() % 10);
      ese[i + j * nelr] = kind == 0 ? -1 : kind == 1 ? -2 : static_cast<int>(rng() % nel);
    }
  }
  for (int i = nel; i < nelr; ++i) {
    areas[i] = areas[nel - 1];
    for (int j = 0; j < kNnb; ++j) {
      ese[i + j * nelr] = ese[nel - 1 + j * nelr];
    }
  }
  const auto normals =
      random_vector<float>(static_cast<std::size_t>(nelr) * kNdim * kNnb, -0.05f, 0.05f);
  auto d_areas = device.upload(areas);
  auto d_ese = device.upload(ese);
  auto d_normals = device.upload(normals);

  const std::size_t nstate = static_cast<std::size_t>(nelr) * kNvar;
  auto d_variables = poisoned<float>(nstate);
  auto d_old = poisoned<float>(nstate);
  auto d_fluxes = poisoned<float>(nstate);
  auto d_step = device.upload(std::vector<float>(nelr, 0.0f));  // cudaMemset
  const LaunchConfig cfg = launch(dim3(nelr / kBlock), dim3(kBlock));
  initialize.launch(cfg, nelr, d_variables);
  initialize.launch(cfg, nelr, d_old);
  initialize.launch(cfg, nelr, d_fluxes);
  std::vector<float> v_ref(nstate);
  for (int k = 0; k < kNvar; ++k) {
    std::fill_n(v_ref.begin() + static_cast<long>(k) * nelr, nelr, ff.variable[k]);
  }
  EXPECT_EQ(d_variables.download(), v_ref);
  EXPECT_EQ(d_fluxes.download(), v_ref);

  std::vector<float> old_ref(nstate);
  std::vector<float> step_ref(nelr);
  std::vector<float> flux_ref(nstate);
  for (int it = 0; it < 2; ++it) {
    d_old.copy_from(d_variables);
    compute_step_factor.launch(cfg, nelr, d_variables, d_areas, d_step);
    old_ref = v_ref;
    step_factor(nelr, v_ref, areas, step_ref);
    for (int j = 0; j < kRk; ++j) {
      compute_flux.launch(cfg, nelr, d_ese, d_normals, d_variables, d_fluxes);
      time_step_k.launch(cfg, j, nelr, d_old, d_variables, d_step, d_fluxes);
      flux(nelr, ese, normals, v_ref, ff, flux_ref);
      time_step(j, nelr, old_ref, v_ref, step_ref, flux_ref);
    }
  }
  // Float square roots and divisions over two iterations of three stages; the reference rounds
  // the same operations, so only contracted multiply-adds differ.
  expect_all_near(d_step.download(), step_ref, 1e-5, 1e-6, "step_factors");
  expect_all_near(d_fluxes.download(), flux_ref, 1e-4, 1e-5, "fluxes");
  expect_all_near(d_variables.download(), v_ref, 1e-5, 1e-5, "variables");
}

// ---- gaussian ----------------------------------------------------------------------------------

/// gaussian.cu ForwardSub: for each t, Fan1 computes the multipliers of column t and Fan2
/// eliminates it from a and b; then the host's BackSub solves the system.
TEST_F(Corpus, Rodinia_Gaussian) {
  const Program p = corpus_program("rodinia/cuda/gaussian/gaussian.cu");
  const int size = 50;
  auto a = random_vector<float>(static_cast<std::size_t>(size) * size, -1.0f, 1.0f);
  for (int i = 0; i < size; ++i) {
    a[i * size + i] += static_cast<float>(size);  // no pivoting: keep it diagonally dominant
  }
  auto b = random_vector<float>(size, -1.0f, 1.0f);
  const std::vector<float> m(static_cast<std::size_t>(size) * size, 0.0f);  // InitPerRun
  auto d_m = device.upload(m);
  auto d_a = device.upload(a);
  auto d_b = device.upload(b);
  const int block_size = 512;  // MAXBLOCKSIZE
  const int grid_size = (size / block_size) + (!(size % block_size) ? 0 : 1);
  const int block_xy = 4;  // BLOCK_SIZE_XY
  const int grid_xy = (size / block_xy) + (!(size % block_xy) ? 0 : 1);
  auto fan1 = p.kernel<float*, float*, int, int>("Fan1", device);
  auto fan2 = p.kernel<float*, float*, float*, int, int, int>("Fan2", device);
  for (int t = 0; t < size - 1; ++t) {
    fan1.launch(launch(dim3(grid_size), dim3(block_size)), d_m, d_a, size, t);
    fan2.launch(launch(dim3(grid_xy, grid_xy), dim3(block_xy, block_xy)), d_m, d_a, d_b, size,
                size - t, t);
  }
  const std::vector<float> a0 = a;
  const std::vector<float> b0 = b;
  std::vector<float> m_ref = m;
  for (int t = 0; t < size - 1; ++t) {
    for (int i = t + 1; i < size; ++i) {
      m_ref[i * size + t] = a[i * size + t] / a[t * size + t];
    }
    for (int i = t + 1; i < size; ++i) {
      for (int j = t; j < size; ++j) {
        a[i * size + j] -= m_ref[i * size + t] * a[t * size + j];
      }
      b[i] -= m_ref[i * size + t] * b[t];
    }
  }
  const auto got_a = d_a.download();
  const auto got_b = d_b.download();
  // Float elimination in the same order; contracted multiply-adds may round differently.
  expect_all_near(d_m.download(), m_ref, 1e-5, 1e-6, "m");
  expect_all_near(got_a, a, 1e-4, 1e-5, "a");
  expect_all_near(got_b, b, 1e-4, 1e-5, "b");
  // BackSub on the device's triangle solves the original system.
  std::vector<double> x(size);
  for (int i = size - 1; i >= 0; --i) {
    double s = got_b[i];
    for (int j = i + 1; j < size; ++j) {
      s -= static_cast<double>(got_a[i * size + j]) * x[j];
    }
    x[i] = s / got_a[i * size + i];
  }
  for (int i = 0; i < size; ++i) {
    double s = 0;
    for (int j = 0; j < size; ++j) {
      s += static_cast<double>(a0[i * size + j]) * x[j];
    }
    EXPECT_NEAR(s, b0[i], 1e-4) << "row " << i;
  }
}

// ---- hotspot -----------------------------------------------------------------------------------

/// hotspot.cu compute_tran_temp: total_iterations steps of the 2-D thermal stencil, pyramid_height
/// of them per launch in shared memory, with the buffers swapped between launches.
TEST_F(Corpus, Rodinia_Hotspot) {
  const Program p = corpus_program("rodinia/cuda/hotspot/hotspot.cu");
  constexpr int kBlock = 16;  // BLOCK_SIZE
  const int rows = 50;
  const int cols = 50;
  const int pyramid_height = 2;
  const int total_iterations = 5;
  const int border = pyramid_height;  // pyramid_height * EXPAND_RATE / 2
  const int small_block = kBlock - pyramid_height * 2;
  const int block_cols = cols / small_block + ((cols % small_block == 0) ? 0 : 1);
  const int block_rows = rows / small_block + ((rows % small_block == 0) ? 0 : 1);

  // The chip parameters of hotspot.cu, rounded as it rounds them.
  const float t_chip = 0.0005f;
  const float chip_height = 0.016f;
  const float chip_width = 0.016f;
  const float grid_height = chip_height / rows;
  const float grid_width = chip_width / cols;
  const float cap = 0.5 * 1.75e6 * t_chip * grid_width * grid_height;
  const float rx = grid_width / (2.0 * 100 * t_chip * grid_height);
  const float ry = grid_height / (2.0 * 100 * t_chip * grid_width);
  const float rz = t_chip / (100 * grid_height * grid_width);
  const float max_slope = 3.0e6 / (0.5 * t_chip * 1.75e6);
  const float step = 0.001 / max_slope;
  const float time_elapsed = 0.001f;

  const auto temp = random_vector<float>(static_cast<std::size_t>(rows) * cols, 320.0f, 340.0f);
  const auto power = random_vector<float>(static_cast<std::size_t>(rows) * cols, 0.0f, 0.01f);
  auto d_power = device.upload(power);
  DeviceBuffer<float> d_temp[2] = {device.upload(temp), poisoned<float>(temp.size())};
  auto k = p.kernel<int, float*, float*, float*, int, int, int, int, float, float, float, float,
                    float, float>("calculate_temp", device);
  int src = 1;
  int dst = 0;
  for (int t = 0; t < total_iterations; t += pyramid_height) {
    std::swap(src, dst);
    k.launch(launch(dim3(block_cols, block_rows), dim3(kBlock, kBlock)),
             std::min(pyramid_height, total_iterations - t), d_power, d_temp[src], d_temp[dst],
             cols, rows, border, border, cap, rx, ry, rz, step, time_elapsed);
  }

  // Each step on the whole grid, neighbours clamped at the borders, in the kernel's arithmetic.
  const float step_div_cap = step / cap;
  const float rx_1 = 1 / rx;
  const float ry_1 = 1 / ry;
  const float rz_1 = 1 / rz;
  const float amb_temp = 80.0f;
  std::vector<float> t_ref = temp;
  std::vector<float> next(t_ref.size());
  for (int it = 0; it < total_iterations; ++it) {
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        const float tc = t_ref[r * cols + c];
        const float n = t_ref[std::max(r - 1, 0) * cols + c];
        const float s = t_ref[std::min(r + 1, rows - 1) * cols + c];
        const float w = t_ref[r * cols + std::max(c - 1, 0)];
        const float e = t_ref[r * cols + std::min(c + 1, cols - 1)];
        next[r * cols + c] = static_cast<float>(
            tc + step_div_cap * (power[r * cols + c] + (s + n - 2.0 * tc) * ry_1 +
                                 (e + w - 2.0 * tc) * rx_1 + (amb_temp - tc) * rz_1));
      }
    }
    t_ref.swap(next);
  }
  expect_all_near(d_temp[dst].download(), t_ref, 1e-6, 1e-4, "temperature");
}

// ---- hotspot3D ---------------------------------------------------------------------------------

/// 3D.cu hotspot_opt1: numiter launches of the 3-D stencil with tIn and tOut swapped, against the
/// file's own computeTempCPU.
TEST_F(Corpus, Rodinia_Hotspot3D) {
  const Program p = corpus_program("rodinia/cuda/hotspot3D/3D.cu");
  const int nx = 64;  // numCols = numRows
  const int ny = 64;
  const int nz = 4;  // layers
  const int numiter = 4;
  const std::size_t size = static_cast<std::size_t>(nx) * ny * nz;
  const float t_chip = 0.0005f;
  const float chip_height = 0.016f;
  const float chip_width = 0.016f;
  const float amb_temp = 80.0f;
  const float dx = chip_height / ny;
  const float dy = chip_width / nx;
  const float dz = t_chip / nz;
  const float cap = 0.5 * 1.75e6 * t_chip * dx * dy;
  const float rx = dy / (2.0 * 100 * t_chip * dx);
  const float ry = dx / (2.0 * 100 * t_chip * dy);
  const float rz = dz / (100 * dx * dy);
  const float max_slope = 3.0e6 / (0.5 * t_chip * 1.75e6);
  const float dt = 0.001 / max_slope;
  const float step_div_cap = dt / cap;
  const float ce = step_div_cap / rx;
  const float cn = step_div_cap / ry;
  const float ct = step_div_cap / rz;
  const float cc = 1.0 - (2.0 * ce + 2.0 * cn + 3.0 * ct);

  const auto power = random_vector<float>(size, 0.0f, 0.01f);
  const auto temp = random_vector<float>(size, 320.0f, 340.0f);
  auto d_power = device.upload(power);
  auto d_in = device.upload(temp);
  auto d_out = poisoned<float>(size);
  auto k = p.kernel<float*, float*, float*, float, int, int, int, float, float, float, float, float,
                    float, float>("hotspotOpt1", device);
  DeviceBuffer<float>* t_in = &d_in;
  DeviceBuffer<float>* t_out = &d_out;
  for (int i = 0; i < numiter; ++i) {
    k.launch(launch(dim3(nx / 64, ny / 4), dim3(64, 4)), d_power, *t_in, *t_out, step_div_cap, nx,
             ny, nz, ce, ce, cn, cn, ct, ct, cc);
    std::swap(t_in, t_out);
  }

  // computeTempCPU (3D.cu:86-120).
  std::vector<float> in = temp;
  std::vector<float> out(size);
  for (int i = 0; i < numiter; ++i) {
    for (int z = 0; z < nz; ++z) {
      for (int y = 0; y < ny; ++y) {
        for (int x = 0; x < nx; ++x) {
          const int c = x + y * nx + z * nx * ny;
          const int w = (x == 0) ? c : c - 1;
          const int e = (x == nx - 1) ? c : c + 1;
          const int n = (y == 0) ? c : c - nx;
          const int s = (y == ny - 1) ? c : c + nx;
          const int b = (z == 0) ? c : c - nx * ny;
          const int t = (z == nz - 1) ? c : c + nx * ny;
          out[c] = in[c] * cc + in[n] * cn + in[s] * cn + in[e] * ce + in[w] * ce + in[t] * ct +
                   in[b] * ct + (dt / cap) * power[c] + ct * amb_temp;
        }
      }
    }
    in.swap(out);
  }
  // The kernel adds the same terms in another order.
  expect_all_near(t_in->download(), in, 1e-6, 1e-3, "tOut");
}

// ---- lud ---------------------------------------------------------------------------------------

/// lud_kernel.cu lud_cuda: for each 16-wide step the diagonal block, the perimeter and the
/// trailing update, then the last diagonal block; checked as lud_verify checks it (L * U gives the
/// matrix back) and against an in-place Doolittle factorisation.
TEST_F(Corpus, Rodinia_Lud) {
  const Program p = corpus_program("rodinia/cuda/lud/cuda/lud_kernel.cu");
  constexpr int kBlock = 16;
  const int n = 4 * kBlock;  // matrix_dim, a multiple of BLOCK_SIZE
  auto a = random_vector<float>(static_cast<std::size_t>(n) * n, 0.0f, 1.0f);
  for (int i = 0; i < n; ++i) {
    a[i * n + i] += static_cast<float>(n);  // no pivoting: keep it diagonally dominant
  }
  auto d_m = device.upload(a);
  auto diagonal = p.kernel<float*, int, int>("lud_diagonal", device);
  auto perimeter = p.kernel<float*, int, int>("lud_perimeter", device);
  auto internal = p.kernel<float*, int, int>("lud_internal", device);
  int i = 0;
  for (i = 0; i < n - kBlock; i += kBlock) {
    diagonal.launch(launch(dim3(1), dim3(kBlock)), d_m, n, i);
    perimeter.launch(launch(dim3((n - i) / kBlock - 1), dim3(kBlock * 2)), d_m, n, i);
    const int g = (n - i) / kBlock - 1;
    internal.launch(launch(dim3(g, g), dim3(kBlock, kBlock)), d_m, n, i);
  }
  diagonal.launch(launch(dim3(1), dim3(kBlock)), d_m, n, i);
  const auto lu = d_m.download();

  std::vector<double> ref(a.begin(), a.end());
  for (int k = 0; k < n; ++k) {
    for (int r = k + 1; r < n; ++r) {
      ref[r * n + k] /= ref[k * n + k];
      for (int c = k + 1; c < n; ++c) {
        ref[r * n + c] -= ref[r * n + k] * ref[k * n + c];
      }
    }
  }
  // Float factorisation against a double one.
  expect_all_near(lu, ref, 1e-4, 1e-5, "lu");
  // lud_verify (common.c): L (unit lower) times U.
  std::vector<double> prod(static_cast<std::size_t>(n) * n);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      double sum = 0;
      for (int k = 0; k <= std::min(r, c); ++k) {
        const double l = (k == r) ? 1.0 : lu[r * n + k];
        sum += l * lu[k * n + c];
      }
      prod[r * n + c] = sum;
    }
  }
  expect_all_near(a, prod, 1e-4, 1e-5, "L*U");
}

// ---- nn ----------------------------------------------------------------------------------------

struct LatLong {
  float lat;
  float lng;
};

/// nn_cuda.cu main: the distance of every record to the target, blocks of 256 over a grid of
/// gridX * gridY blocks that the kernel linearises.
TEST_F(Corpus, Rodinia_NearestNeighbor) {
  const Program p = corpus_program("rodinia/cuda/nn/nn_cuda.cu");
  const int num_records = 1000;
  std::vector<LatLong> locations(num_records);
  for (LatLong& l : locations) {
    l.lat = random_vector<float>(1, 0.0f, 90.0f)[0];
    l.lng = random_vector<float>(1, 0.0f, 180.0f)[0];
  }
  const float lat = 30.0f + random_vector<float>(1, 0.0f, 10.0f)[0];
  const float lng = 90.0f + random_vector<float>(1, 0.0f, 10.0f)[0];
  std::vector<float> want(num_records);
  for (int i = 0; i < num_records; ++i) {
    const float dlat = lat - locations[i].lat;
    const float dlng = lng - locations[i].lng;
    want[i] = std::sqrt(dlat * dlat + dlng * dlng);
  }
  auto d_locations = device.upload(locations);
  auto euclid = p.kernel<LatLong*, float*, int, float, float>("euclid", device);
  // maxGridSize[0] of a device, then of one small enough that the grid takes two dimensions.
  for (const unsigned long max_grid_x : {65535UL, 3UL}) {
    const unsigned long threads = std::min(1024UL, 256UL);  // min(maxThreadsPerBlock, 256)
    const unsigned long blocks = (num_records + threads - 1) / threads;
    const unsigned long grid_y = (blocks + max_grid_x - 1) / max_grid_x;
    const unsigned long grid_x = (blocks + grid_y - 1) / grid_y;
    auto d_distances = poisoned<float>(num_records);
    euclid.launch(launch(dim3(static_cast<long>(grid_x), static_cast<long>(grid_y)),
                         dim3(static_cast<long>(threads))),
                  d_locations, d_distances, num_records, lat, lng);
    const auto got = d_distances.download();
    expect_all_near(got, want, 1e-6, 1e-6, "distances");
    // findLowest: the 10 nearest records.
    std::vector<int> order(num_records);
    std::iota(order.begin(), order.end(), 0);
    std::vector<int> order_ref = order;
    const auto by = [](const std::vector<float>& d) {
      return [&d](int x, int y) { return d[x] < d[y] || (d[x] == d[y] && x < y); };
    };
    std::partial_sort(order.begin(), order.begin() + 10, order.end(), by(got));
    std::partial_sort(order_ref.begin(), order_ref.begin() + 10, order_ref.end(), by(want));
    for (int r = 0; r < 10; ++r) {
      EXPECT_EQ(order[r], order_ref[r]) << "nearest #" << r;
    }
  }
}

// ---- nw ----------------------------------------------------------------------------------------

/// needle.cu runTest: Needleman-Wunsch scores by 16x16 blocks along anti-diagonals, the upper-left
/// triangle of blocks (needle_cuda_shared_1) then the lower-right one (needle_cuda_shared_2).
TEST_F(Corpus, Rodinia_NeedlemanWunsch) {
  const Program p = corpus_program("rodinia/cuda/nw/needle_kernel.cu");
  constexpr int kBlock = 16;
  const int max_rows = 6 * kBlock + 1;
  const int max_cols = max_rows;
  const int penalty = 10;
  const std::size_t size = static_cast<std::size_t>(max_rows) * max_cols;
  const auto reference = random_vector<int>(size, -4, 11);  // blosum62's range
  std::vector<int> items(size, 0);
  for (int i = 1; i < max_rows; ++i) {
    items[i * max_cols] = -i * penalty;
  }
  for (int j = 1; j < max_cols; ++j) {
    items[j] = -j * penalty;
  }
  auto d_reference = device.upload(reference);
  auto d_matrix = device.upload(items);
  const int block_width = (max_cols - 1) / kBlock;
  auto shared_1 = p.kernel<int*, int*, int, int, int, int>("needle_cuda_shared_1", device);
  auto shared_2 = p.kernel<int*, int*, int, int, int, int>("needle_cuda_shared_2", device);
  for (int i = 1; i <= block_width; ++i) {
    shared_1.launch(launch(dim3(i), dim3(kBlock)), d_reference, d_matrix, max_cols, penalty, i,
                    block_width);
  }
  for (int i = block_width - 1; i >= 1; --i) {
    shared_2.launch(launch(dim3(i), dim3(kBlock)), d_reference, d_matrix, max_cols, penalty, i,
                    block_width);
  }
  std::vector<int> want = items;
  for (int i = 1; i < max_rows; ++i) {
    for (int j = 1; j < max_cols; ++j) {
      want[i * max_cols + j] =
          std::max({want[(i - 1) * max_cols + j - 1] + reference[i * max_cols + j],
                    want[i * max_cols + j - 1] - penalty, want[(i - 1) * max_cols + j] - penalty});
    }
  }
  EXPECT_EQ(d_matrix.download(), want);
}

// ---- pathfinder --------------------------------------------------------------------------------

/// pathfinder.cu calc_path: the minimum-cost path down a wall, pyramid_height rows per launch in
/// shared memory, with the result buffers swapped between launches.
TEST_F(Corpus, Rodinia_Pathfinder) {
  const Program p = corpus_program("rodinia/cuda/pathfinder/pathfinder.cu");
  constexpr int kBlock = 256;  // BLOCK_SIZE
  constexpr int kHalo = 1;
  const int cols = 1000;
  const int rows = 20;
  const int pyramid_height = 3;
  const auto data = random_vector<int>(static_cast<std::size_t>(rows) * cols, 0, 9);
  const int border_cols = pyramid_height * kHalo;
  const int small_block_col = kBlock - pyramid_height * kHalo * 2;
  const int block_cols = cols / small_block_col + ((cols % small_block_col == 0) ? 0 : 1);
  DeviceBuffer<int> d_result[2] = {
      device.upload(std::vector<int>(data.begin(), data.begin() + cols)), poisoned<int>(cols)};
  auto d_wall = device.upload(std::vector<int>(data.begin() + cols, data.end()));
  auto k = p.kernel<int, int*, int*, int*, int, int, int, int>("dynproc_kernel", device);
  int src = 1;
  int dst = 0;
  for (int t = 0; t < rows - 1; t += pyramid_height) {
    std::swap(src, dst);
    k.launch(launch(dim3(block_cols), dim3(kBlock)), std::min(pyramid_height, rows - t - 1), d_wall,
             d_result[src], d_result[dst], cols, rows, t, border_cols);
  }
  std::vector<int> want(data.begin(), data.begin() + cols);
  for (int r = 1; r < rows; ++r) {
    std::vector<int> next(cols);
    for (int c = 0; c < cols; ++c) {
      const int best =
          std::min({want[std::max(c - 1, 0)], want[c], want[std::min(c + 1, cols - 1)]});
      next[c] = best + data[r * cols + c];
    }
    want.swap(next);
  }
  EXPECT_EQ(d_result[dst].download(), want);
}

// ---- srad_v1 -----------------------------------------------------------------------------------

/// srad_v1 main.cu: extract, then per iteration prepare, the reduction passes of the ROI sums,
/// srad and srad2 (the host computing q0sqr from the sums in between), then compress.
TEST_F(Corpus, Rodinia_SradV1) {
  const Program p = corpus_program("rodinia/cuda/srad/srad_v1/main.cu");
  constexpr int kThreads = 512;  // NUMBER_THREADS
  const int nr = 50;
  const int nc = 76;
  const long ne = static_cast<long>(nr) * nc;  // 3800: 8 blocks, the last one partly full
  const int niter = 2;
  const float lambda = 0.5f;
  const auto image = random_vector<float>(ne, 0.0f, 255.0f);
  std::vector<int> i_n(nr), i_s(nr), j_w(nc), j_e(nc);
  for (int i = 0; i < nr; ++i) {
    i_n[i] = i - 1;
    i_s[i] = i + 1;
  }
  for (int j = 0; j < nc; ++j) {
    j_w[j] = j - 1;
    j_e[j] = j + 1;
  }
  i_n[0] = 0;
  i_s[nr - 1] = nr - 1;
  j_w[0] = 0;
  j_e[nc - 1] = nc - 1;
  auto d_in = device.upload(i_n);
  auto d_is = device.upload(i_s);
  auto d_je = device.upload(j_e);
  auto d_jw = device.upload(j_w);
  auto d_i = device.upload(image);
  auto d_sums = poisoned<float>(ne);
  auto d_sums2 = poisoned<float>(ne);
  auto d_dn = poisoned<float>(ne);
  auto d_ds = poisoned<float>(ne);
  auto d_dw = poisoned<float>(ne);
  auto d_de = poisoned<float>(ne);
  auto d_c = poisoned<float>(ne);
  const long blocks_x = ne / kThreads + (ne % kThreads != 0 ? 1 : 0);
  const LaunchConfig cfg = launch(dim3(blocks_x), dim3(kThreads));

  auto extract = p.kernel<long, float*>("extract", device);
  auto prepare = p.kernel<long, float*, float*, float*>("prepare", device);
  auto reduce = p.kernel<long, int, int, float*, float*>("reduce", device);
  auto srad = p.kernel<float, int, int, long, int*, int*, int*, int*, float*, float*, float*,
                       float*, float, float*, float*>("srad", device);
  auto srad2 = p.kernel<float, int, int, long, int*, int*, int*, int*, float*, float*, float*,
                        float*, float*, float*>("srad2", device);
  auto compress = p.kernel<long, float*>("compress", device);

  std::vector<float> ref(image);
  extract.launch(cfg, ne, d_i);
  for (float& x : ref) {
    x = std::exp(x / 255);
  }
  // exp of the same float: at most an ulp or two from another libm.
  expect_all_near(d_i.download(), ref, 1e-6, 0, "extract");

  std::vector<float> dn(ne), ds(ne), dw(ne), de(ne), c(ne);
  for (int iter = 0; iter < niter; ++iter) {
    prepare.launch(cfg, ne, d_i, d_sums, d_sums2);
    if (iter == 0) {
      const auto image_now = d_i.download();
      std::vector<float> squares(ne);
      std::transform(image_now.begin(), image_now.end(), squares.begin(),
                     [](float x) { return x * x; });
      EXPECT_EQ(d_sums.download(), image_now);
      EXPECT_EQ(d_sums2.download(), squares);
    }
    long blocks2 = blocks_x;
    int no = static_cast<int>(ne);
    int mul = 1;
    while (blocks2 != 0) {
      reduce.launch(launch(dim3(blocks2), dim3(kThreads)), ne, no, mul, d_sums, d_sums2);
      no = static_cast<int>(blocks2);
      if (blocks2 == 1) {
        blocks2 = 0;
      } else {
        mul *= kThreads;
        blocks2 = blocks2 / kThreads + (blocks2 % kThreads != 0 ? 1 : 0);
      }
    }
    const float total = d_sums.download()[0];
    const float total2 = d_sums2.download()[0];
    double sum_ref = 0;
    double sum2_ref = 0;
    for (const float x : ref) {
      sum_ref += x;
      sum2_ref += static_cast<double>(x) * x;
    }
    // A float tree sum of 3800 values in [1, e] against a double one.
    EXPECT_NEAR(total, sum_ref, 1e-5 * sum_ref) << "iteration " << iter;
    EXPECT_NEAR(total2, sum2_ref, 1e-5 * sum2_ref) << "iteration " << iter;
    const auto q0sqr_of = [&](float t, float t2) {
      const float mean = t / float(ne);
      const float mean2 = mean * mean;
      const float var = (t2 / float(ne)) - mean2;
      return var / mean2;
    };
    const float q0sqr = q0sqr_of(total, total2);
    const float q0sqr_ref = q0sqr_of(static_cast<float>(sum_ref), static_cast<float>(sum2_ref));
    srad.launch(cfg, lambda, nr, nc, ne, d_in, d_is, d_je, d_jw, d_dn, d_ds, d_dw, d_de, q0sqr, d_c,
                d_i);
    srad2.launch(cfg, lambda, nr, nc, ne, d_in, d_is, d_je, d_jw, d_dn, d_ds, d_dw, d_de, d_c, d_i);
    // srad then srad2 (column-major image), in the kernels' mixed float/double arithmetic.
    for (long ei = 0; ei < ne; ++ei) {
      const int row = static_cast<int>(ei % nr);
      const int col = static_cast<int>(ei / nr);
      const float jc = ref[ei];
      dn[ei] = ref[i_n[row] + nr * col] - jc;
      ds[ei] = ref[i_s[row] + nr * col] - jc;
      dw[ei] = ref[row + nr * j_w[col]] - jc;
      de[ei] = ref[row + nr * j_e[col]] - jc;
      const float g2 =
          (dn[ei] * dn[ei] + ds[ei] * ds[ei] + dw[ei] * dw[ei] + de[ei] * de[ei]) / (jc * jc);
      const float l = (dn[ei] + ds[ei] + dw[ei] + de[ei]) / jc;
      const float num = (0.5 * g2) - ((1.0 / 16.0) * (l * l));
      float den = 1 + (0.25 * l);
      const float qsqr = num / (den * den);
      den = (qsqr - q0sqr_ref) / (q0sqr_ref * (1 + q0sqr_ref));
      float c_loc = 1.0 / (1.0 + den);
      c[ei] = c_loc < 0 ? 0 : c_loc > 1 ? 1 : c_loc;
    }
    for (long ei = 0; ei < ne; ++ei) {
      const int row = static_cast<int>(ei % nr);
      const int col = static_cast<int>(ei / nr);
      const float d = c[ei] * dn[ei] + c[i_s[row] + nr * col] * ds[ei] + c[ei] * dw[ei] +
                      c[row + nr * j_e[col]] * de[ei];
      ref[ei] = ref[ei] + 0.25 * lambda * d;
    }
    // The coefficients depend on q0sqr, which the host computes from the float sums.
    expect_all_near(d_c.download(), c, 1e-4, 1e-5, "c");
    expect_all_near(d_i.download(), ref, 1e-5, 1e-5, "image");
  }
  compress.launch(cfg, ne, d_i);
  for (float& x : ref) {
    x = std::log(x) * 255;
  }
  // log(I) * 255 of an image that carries the q0sqr differences above.
  expect_all_near(d_i.download(), ref, 1e-5, 2e-3, "compress");
}

// ---- srad_v2 -----------------------------------------------------------------------------------

/// srad_v2 srad.cu: per iteration the host takes the ROI statistics, then srad_cuda_1 (derivatives
/// and diffusion coefficient) and srad_cuda_2 (the image update) over 16x16 blocks. The kernels
/// read a row before the image (index_n in the first block row) and a row after it (index_s,
/// index_e in the last) before replacing those values with clamped ones, so the image and the
/// coefficient live here one row inside larger allocations: those reads stay in memory the
/// program owns, as on a GPU where they happen to land in mapped memory.
TEST_F(Corpus, Rodinia_SradV2) {
  const Program p = corpus_program("rodinia/cuda/srad/srad_v2/srad_kernel.cu");
  constexpr int kBlock = 16;
  const int rows = 64;
  const int cols = 64;
  const int r1 = 0, r2 = 31, c1 = 0, c2 = 31;  // the ROI
  const float lambda = 0.5f;
  const int niter = 2;
  const std::size_t size = static_cast<std::size_t>(rows) * cols;
  const auto image = random_vector<float>(size, 0.0f, 1.0f);
  std::vector<float> j_host(size);
  std::transform(image.begin(), image.end(), j_host.begin(), [](float x) { return std::exp(x); });
  std::vector<float> ref = j_host;

  std::vector<float> padded(size + 2 * cols, 1.0f);
  auto d_j_alloc = device.upload(padded);
  auto d_c_alloc = device.upload(padded);
  const DevicePtr<float> d_j = d_j_alloc.ptr() + cols;
  const DevicePtr<float> d_c = d_c_alloc.ptr() + cols;
  auto d_e = poisoned<float>(size);
  auto d_w = poisoned<float>(size);
  auto d_n = poisoned<float>(size);
  auto d_s = poisoned<float>(size);
  auto k1 = p.kernel<float*, float*, float*, float*, float*, float*, int, int, float>("srad_cuda_1",
                                                                                      device);
  auto k2 = p.kernel<float*, float*, float*, float*, float*, float*, int, int, float, float>(
      "srad_cuda_2", device);
  const LaunchConfig cfg = launch(dim3(cols / kBlock, rows / kBlock), dim3(kBlock, kBlock));
  const int size_r = (r2 - r1 + 1) * (c2 - c1 + 1);
  const auto q0sqr_of = [&](const std::vector<float>& j) {
    float sum = 0;
    float sum2 = 0;
    for (int i = r1; i <= r2; ++i) {
      for (int k = c1; k <= c2; ++k) {
        const float tmp = j[i * cols + k];
        sum += tmp;
        sum2 += tmp * tmp;
      }
    }
    const float mean = sum / size_r;
    const float var = (sum2 / size_r) - mean * mean;
    return var / (mean * mean);
  };
  const auto at = [&](const std::vector<float>& v, int r, int c) {
    return v[std::clamp(r, 0, rows - 1) * cols + std::clamp(c, 0, cols - 1)];
  };
  std::vector<float> n(size), s(size), w(size), e(size), c(size);
  for (int iter = 0; iter < niter; ++iter) {
    const float q0sqr = q0sqr_of(j_host);
    const float q0sqr_ref = q0sqr_of(ref);
    std::vector<float> whole(padded);  // the row before and after, and the image
    std::copy(j_host.begin(), j_host.end(), whole.begin() + cols);
    d_j_alloc.upload(whole);
    k1.launch(cfg, d_e, d_w, d_n, d_s, d_j, d_c, cols, rows, q0sqr);
    k2.launch(cfg, d_e, d_w, d_n, d_s, d_j, d_c, cols, rows, lambda, q0sqr);
    const auto got = d_j_alloc.download();
    j_host.assign(got.begin() + cols, got.begin() + cols + static_cast<long>(size));

    for (int r = 0; r < rows; ++r) {
      for (int col = 0; col < cols; ++col) {
        const std::size_t i = static_cast<std::size_t>(r) * cols + col;
        const float jc = ref[i];
        n[i] = at(ref, r - 1, col) - jc;
        s[i] = at(ref, r + 1, col) - jc;
        w[i] = at(ref, r, col - 1) - jc;
        e[i] = at(ref, r, col + 1) - jc;
        const float g2 = (n[i] * n[i] + s[i] * s[i] + w[i] * w[i] + e[i] * e[i]) / (jc * jc);
        const float l = (n[i] + s[i] + w[i] + e[i]) / jc;
        const float num = (0.5 * g2) - ((1.0 / 16.0) * (l * l));
        float den = 1 + (.25 * l);
        const float qsqr = num / (den * den);
        den = (qsqr - q0sqr_ref) / (q0sqr_ref * (1 + q0sqr_ref));
        const float cv = 1.0 / (1.0 + den);
        c[i] = cv < 0 ? 0 : cv > 1 ? 1 : cv;
      }
    }
    for (int r = 0; r < rows; ++r) {
      for (int col = 0; col < cols; ++col) {
        const std::size_t i = static_cast<std::size_t>(r) * cols + col;
        const float d_sum =
            c[i] * n[i] + at(c, r + 1, col) * s[i] + c[i] * w[i] + at(c, r, col + 1) * e[i];
        ref[i] = ref[i] + 0.25 * lambda * d_sum;
      }
    }
    const auto got_c = d_c_alloc.download();
    // The host's float sums of the ROI round differently on the two images after iteration 0.
    expect_all_near(std::vector<float>(got_c.begin() + cols, got_c.end() - cols), c, 1e-4, 1e-5,
                    "C_cuda");
    expect_all_near(d_n.download(), n, 1e-5, 1e-5, "N_C");
    expect_all_near(d_s.download(), s, 1e-5, 1e-5, "S_C");
    expect_all_near(d_w.download(), w, 1e-5, 1e-5, "W_C");
    expect_all_near(d_e.download(), e, 1e-5, 1e-5, "E_C");
    expect_all_near(j_host, ref, 1e-5, 1e-5, "J_cuda");
  }
}

// ---- streamcluster -----------------------------------------------------------------------------

struct ScPoint {  // Point in streamcluster_header.cu
  float weight;
  float* coord;
  long assign;
  float cost;
};

/// streamcluster_cuda.cu pgain: the cost of opening a center at point x, for every point at once,
/// into work_mem (one row of K + 1 per point) and switch_membership, which the host then adds up.
TEST_F(Corpus, Rodinia_Streamcluster) {
  const Program p = corpus_program("rodinia/cuda/streamcluster/streamcluster_cuda.cu");
  constexpr int kThreads = 512;      // THREADS_PER_BLOCK
  constexpr int kMaxBlocks = 65536;  // MAXBLOCKS
  const int num = 1000;
  const int dim = 8;
  const int k_centers = 6;
  const int stride = k_centers + 1;
  const long x = static_cast<long>(rng() % num);
  const auto coord = random_vector<float>(static_cast<std::size_t>(num) * dim, 0.0f, 1.0f);
  std::vector<int> centers(num);
  std::iota(centers.begin(), centers.end(), 0);
  std::shuffle(centers.begin(), centers.end(), rng);
  centers.resize(k_centers);
  std::vector<int> center_table(num, 0);
  std::vector<bool> is_center(num, false);
  for (const int c : centers) {
    is_center[c] = true;
  }
  int count = 0;
  for (int i = 0; i < num; ++i) {  // the host numbers the centers in point order
    if (is_center[i]) {
      center_table[i] = count++;
    }
  }
  std::vector<ScPoint> points(num);
  for (ScPoint& pt : points) {
    pt.weight = random_vector<float>(1, 0.5f, 2.0f)[0];
    pt.coord = nullptr;  // a host pointer the kernel never reads
    pt.assign = centers[rng() % k_centers];
    pt.cost = random_vector<float>(1, 0.0f, 4.0f)[0];
  }
  auto d_coord = device.upload(coord);
  auto d_points = device.upload(points);
  auto d_center_table = device.upload(center_table);
  auto d_switch = device.upload(std::vector<bool>(num, false));
  auto d_work = device.upload(std::vector<float>(static_cast<std::size_t>(stride) * (num + 1), 0));
  const int num_blocks = (int)((float)(num + kThreads - 1) / (float)kThreads);
  const int num_blocks_y = (int)((float)(num_blocks + kMaxBlocks - 1) / (float)kMaxBlocks);
  const int num_blocks_x = (int)((float)(num_blocks + num_blocks_y - 1) / (float)num_blocks_y);
  p.kernel<int, int, long, ScPoint*, int, int, float*, float*, int*, bool*>("kernel_compute_cost",
                                                                            device)
      .launch(launch(dim3(num_blocks_x, num_blocks_y), dim3(kThreads)), num, dim, x, d_points,
              k_centers, stride, d_coord, d_work, d_center_table, d_switch);

  std::vector<float> work(static_cast<std::size_t>(stride) * (num + 1), 0.0f);
  std::vector<bool> switch_ref(num, false);
  for (int tid = 0; tid < num; ++tid) {
    float dist = 0;
    for (int i = 0; i < dim; ++i) {
      const float t = coord[i * num + tid] - coord[i * num + x];
      dist += t * t;
    }
    const float x_cost = dist * points[tid].weight;
    float* lower = &work[static_cast<std::size_t>(tid) * stride];
    if (x_cost < points[tid].cost) {
      switch_ref[tid] = true;
      lower[k_centers] += x_cost - points[tid].cost;
    } else {
      lower[center_table[points[tid].assign]] += points[tid].cost - x_cost;
    }
  }
  // A float sum of 8 squares: only contracted multiply-adds differ.
  expect_all_near(d_work.download(), work, 1e-5, 1e-5, "work_mem");
  const auto got_switch = d_switch.download();
  int differ = 0;
  for (int i = 0; i < num; ++i) {
    differ += got_switch[i] != switch_ref[i];
  }
  EXPECT_EQ(differ, 0) << "switch_membership";
}

// ---- b+tree ------------------------------------------------------------------------------------

namespace btree {

constexpr int kOrder = 256;  // DEFAULT_ORDER

struct Record {
  int value;
};

struct Knode {  // knode in common.h
  int location;
  int indices[kOrder + 1];
  int keys[kOrder + 1];
  bool is_leaf;
  int num_keys;
};

/// A tree in the layout b+tree's transform_to_cuda gives: a root of 3 nodes of 4 leaves of 100
/// keys each, keys 0, 2, 4, ... (so odd ones are missing), record i holding key 2i.
struct Tree {
  std::vector<Knode> nodes;
  std::vector<Record> records;
  long height = 2;
};

Tree make_tree(std::mt19937_64& rng) {
  constexpr int kFan = 3;
  constexpr int kLeaves = 4;
  constexpr int kPerLeaf = 100;
  Tree t;
  const int n = kFan * kLeaves * kPerLeaf;
  t.records.resize(n);
  for (Record& r : t.records) {
    r.value = static_cast<int>(rng() % 1000000);
  }
  const auto blank = [](int location, bool leaf) {
    Knode k{};
    k.location = location;
    std::fill(std::begin(k.keys), std::end(k.keys), INT_MAX);
    std::fill(std::begin(k.indices), std::end(k.indices), 0);
    k.is_leaf = leaf;
    return k;
  };
  // Nodes: 0 the root, 1..3 the middle level, 4..15 the leaves.
  t.nodes.resize(1 + kFan + kFan * kLeaves);
  t.nodes[0] = blank(0, false);
  for (int m = 0; m < kFan; ++m) {
    t.nodes[0].keys[m] = m == 0 ? INT_MIN : 2 * m * kLeaves * kPerLeaf;
    t.nodes[0].indices[m] = 1 + m;
    Knode& mid = t.nodes[1 + m];
    mid = blank(1 + m, false);
    for (int l = 0; l < kLeaves; ++l) {
      const int leaf_index = 1 + kFan + m * kLeaves + l;
      const int first = (m * kLeaves + l) * kPerLeaf;
      mid.keys[l] = l == 0 ? t.nodes[0].keys[m] : 2 * first;
      mid.indices[l] = leaf_index;
      Knode& leaf = t.nodes[leaf_index];
      leaf = blank(leaf_index, true);
      for (int e = 0; e < kPerLeaf; ++e) {
        leaf.keys[e] = 2 * (first + e);
        leaf.indices[e] = first + e;
      }
      leaf.num_keys = kPerLeaf;
    }
    mid.num_keys = kLeaves;
  }
  t.nodes[0].num_keys = kFan;
  return t;
}

}  // namespace btree

/// kernel_gpu_cuda_wrapper.cu: findK, one block of `order` threads per query walking the tree
/// level by level, the answers' records written where a leaf holds the key.
TEST_F(Corpus, Rodinia_BPlusTreeFindK) {
  using namespace btree;
  const Program p = corpus_program("rodinia/cuda/b+tree/kernel/kernel_gpu_cuda_wrapper.cu");
  const Tree t = make_tree(rng);
  const int count = 64;
  const auto keys = random_vector<int>(count, 0, 2 * static_cast<int>(t.records.size()) + 10);
  auto d_records = device.upload(t.records);
  auto d_knodes = device.upload(t.nodes);
  auto d_curr = device.upload(std::vector<long>(count, 0));
  auto d_offset = device.upload(std::vector<long>(count, 0));
  auto d_keys = device.upload(keys);
  auto d_ans = device.upload(std::vector<Record>(count, Record{-1}));
  const int threads = kOrder < 1024 ? kOrder : 1024;
  p.kernel<long, Knode*, long, Record*, long*, long*, int*, Record*>("findK", device)
      .launch(launch(dim3(count), dim3(threads)), t.height, d_knodes,
              static_cast<long>(t.nodes.size()), d_records, d_curr, d_offset, d_keys, d_ans);
  const auto ans = d_ans.download();
  for (int q = 0; q < count; ++q) {
    const int key = keys[q];
    const bool found = key % 2 == 0 && key / 2 < static_cast<int>(t.records.size());
    EXPECT_EQ(ans[q].value, found ? t.records[key / 2].value : -1) << "key " << key;
  }
}

/// kernel_gpu_cuda_wrapper_2.cu: findRangeK, the first record and the length of each range
/// [start, end] found by walking to both ends' leaves.
TEST_F(Corpus, Rodinia_BPlusTreeFindRangeK) {
  using namespace btree;
  const Program p = corpus_program("rodinia/cuda/b+tree/kernel/kernel_gpu_cuda_wrapper_2.cu");
  const Tree t = make_tree(rng);
  const int count = 64;
  const int n = static_cast<int>(t.records.size());
  std::vector<int> start(count), end(count);
  for (int q = 0; q < count; ++q) {
    start[q] = static_cast<int>(rng() % (2 * n - 100));
    end[q] = start[q] + static_cast<int>(rng() % 100);
  }
  auto d_knodes = device.upload(t.nodes);
  auto d_curr = device.upload(std::vector<long>(count, 0));
  auto d_offset = device.upload(std::vector<long>(count, 0));
  auto d_last = device.upload(std::vector<long>(count, 0));
  auto d_offset2 = device.upload(std::vector<long>(count, 0));
  auto d_start = device.upload(start);
  auto d_end = device.upload(end);
  auto d_rec_start = device.upload(std::vector<int>(count, 0));
  auto d_rec_len = device.upload(std::vector<int>(count, 0));
  const int threads = kOrder < 1024 ? kOrder : 1024;
  p.kernel<long, Knode*, long, long*, long*, long*, long*, int*, int*, int*, int*>("findRangeK",
                                                                                   device)
      .launch(launch(dim3(count), dim3(threads)), t.height, d_knodes,
              static_cast<long>(t.nodes.size()), d_curr, d_offset, d_last, d_offset2, d_start,
              d_end, d_rec_start, d_rec_len);
  const auto rec_start = d_rec_start.download();
  const auto rec_len = d_rec_len.download();
  for (int q = 0; q < count; ++q) {
    // The record of a key present in a leaf; the outputs keep their initial 0 otherwise.
    const int want_start = start[q] % 2 == 0 ? start[q] / 2 : 0;
    const int want_len = end[q] % 2 == 0 ? end[q] / 2 - want_start + 1 : 0;
    EXPECT_EQ(rec_start[q], want_start) << "query " << q;
    EXPECT_EQ(rec_len[q], want_len) << "query " << q;
  }
}

// ---- lavaMD ------------------------------------------------------------------------------------

namespace lavamd {

constexpr int kParPerBox = 100;  // NUMBER_PAR_PER_BOX
constexpr int kThreads = 128;    // NUMBER_THREADS

struct FourVector {
  double v, x, y, z;
};
struct Nei {
  int x, y, z;
  int number;
  long offset;
};
struct Box {
  int x, y, z;
  int number;
  long offset;
  int nn;
  Nei nei[26];
};
struct Par {
  double alpha;
};
struct Dim {
  int cur_arg;
  int arch_arg;
  int cores_arg;
  int boxes1d_arg;
  long number_boxes;
  long box_mem;
  long space_elem;
  long space_mem;
  long space_mem2;
};

}  // namespace lavamd

/// lavaMD main.c + kernel_gpu_cuda_wrapper.cu: the boxes and their neighbours as main builds them,
/// one block per box computing the potential and forces of its particles from those of its own
/// and neighbouring boxes (the port of kernel_cpu.c's loop is the reference).
TEST_F(Corpus, Rodinia_LavaMD) {
  using namespace lavamd;
  const Program p = corpus_program("rodinia/cuda/lavaMD/kernel/kernel_gpu_cuda_wrapper.cu");
  const int boxes1d = 2;
  Par par{0.5};
  Dim dim{};
  dim.boxes1d_arg = boxes1d;
  dim.number_boxes = static_cast<long>(boxes1d) * boxes1d * boxes1d;
  dim.space_elem = dim.number_boxes * kParPerBox;
  dim.space_mem = dim.space_elem * static_cast<long>(sizeof(FourVector));
  dim.space_mem2 = dim.space_elem * static_cast<long>(sizeof(double));
  dim.box_mem = dim.number_boxes * static_cast<long>(sizeof(Box));
  std::vector<Box> boxes(dim.number_boxes);
  int nh = 0;
  for (int i = 0; i < boxes1d; ++i) {
    for (int j = 0; j < boxes1d; ++j) {
      for (int k = 0; k < boxes1d; ++k) {
        Box& b = boxes[nh];
        b = Box{};
        b.x = k;
        b.y = j;
        b.z = i;
        b.number = nh;
        b.offset = static_cast<long>(nh) * kParPerBox;
        b.nn = 0;
        for (int l = -1; l < 2; ++l) {
          for (int m = -1; m < 2; ++m) {
            for (int n = -1; n < 2; ++n) {
              const bool inside = i + l >= 0 && j + m >= 0 && k + n >= 0 && i + l < boxes1d &&
                                  j + m < boxes1d && k + n < boxes1d;
              if (inside && !(l == 0 && m == 0 && n == 0)) {
                Nei& e = b.nei[b.nn];
                e.x = k + n;
                e.y = j + m;
                e.z = i + l;
                e.number = (e.z * boxes1d * boxes1d) + (e.y * boxes1d) + e.x;
                e.offset = static_cast<long>(e.number) * kParPerBox;
                b.nn = b.nn + 1;
              }
            }
          }
        }
        nh = nh + 1;
      }
    }
  }
  std::vector<FourVector> rv(dim.space_elem);
  std::vector<double> qv(dim.space_elem);
  for (long i = 0; i < dim.space_elem; ++i) {  // (rand() % 10 + 1) / 10.0, as main draws them
    const auto r = random_vector<int>(5, 1, 10);
    rv[i] = {r[0] / 10.0, r[1] / 10.0, r[2] / 10.0, r[3] / 10.0};
    qv[i] = r[4] / 10.0;
  }
  auto d_box = device.upload(boxes);
  auto d_rv = device.upload(rv);
  auto d_qv = device.upload(qv);
  auto d_fv = device.upload(std::vector<FourVector>(dim.space_elem, FourVector{0, 0, 0, 0}));
  p.kernel<Par, Dim, Box*, FourVector*, double*, FourVector*>("kernel_gpu_cuda", device)
      .launch(launch(dim3(dim.number_boxes), dim3(kThreads)), par, dim, d_box, d_rv, d_qv, d_fv);

  std::vector<FourVector> fv(dim.space_elem, FourVector{0, 0, 0, 0});
  const double a2 = 2.0 * par.alpha * par.alpha;
  for (long bx = 0; bx < dim.number_boxes; ++bx) {
    const long first_i = boxes[bx].offset;
    for (int k = 0; k < 1 + boxes[bx].nn; ++k) {
      const int pointer = k == 0 ? static_cast<int>(bx) : boxes[bx].nei[k - 1].number;
      const long first_j = boxes[pointer].offset;
      for (int i = 0; i < kParPerBox; ++i) {
        const FourVector& ra = rv[first_i + i];
        FourVector& fa = fv[first_i + i];
        for (int j = 0; j < kParPerBox; ++j) {
          const FourVector& rb = rv[first_j + j];
          const double r2 = ra.v + rb.v - (ra.x * rb.x + ra.y * rb.y + ra.z * rb.z);
          const double vij = std::exp(-(a2 * r2));
          const double fs = 2 * vij;
          const double q = qv[first_j + j];
          fa.v += q * vij;
          fa.x += q * (fs * (ra.x - rb.x));
          fa.y += q * (fs * (ra.y - rb.y));
          fa.z += q * (fs * (ra.z - rb.z));
        }
      }
    }
  }
  const auto got = d_fv.download();
  std::vector<double> got_flat, want_flat;
  for (long i = 0; i < dim.space_elem; ++i) {
    got_flat.insert(got_flat.end(), {got[i].v, got[i].x, got[i].y, got[i].z});
    want_flat.insert(want_flat.end(), {fv[i].v, fv[i].x, fv[i].y, fv[i].z});
  }
  // The same double sums in the same order; exp and contracted multiply-adds may differ by ulps.
  expect_all_near(got_flat, want_flat, 1e-10, 1e-10, "fv");
}

// ---- particlefilter ----------------------------------------------------------------------------

namespace pf {

/// d_randu: the LCG with GCC's constants (two's complement wrap-around, as on a GPU).
double randu(std::vector<int>& seed, int index) {
  const int m = INT_MAX;
  const auto num = static_cast<int>(1103515245U * static_cast<unsigned>(seed[index]) + 12345U);
  seed[index] = num % m;
  return std::fabs(seed[index] / static_cast<double>(m));
}

double randn(std::vector<int>& seed, int index) {
  const double pi = 3.14159265358979323846;
  const double u = randu(seed, index);
  const double v = randu(seed, index);
  const double cosine = std::cos(2 * pi * v);
  const double rt = -2 * std::log(u);
  return std::sqrt(rt) * cosine;
}

/// dev_round_double: its `return newValue++` returns the truncated value either way.
double round_double(double value) {
  return static_cast<int>(value);
}

}  // namespace pf

/// ex_particle_CUDA_float_seq.cu particleFilter: for each frame, likelihood_kernel (move the
/// particles, weigh them against the image, per-block sums), sum_kernel, normalize_weights_kernel
/// (weights, CDF and the systematic-resampling points) and find_index_kernel (resample). Each
/// stage is checked against the reference run on the state the device left before it, so a
/// rounding difference in one frame does not grow through the resampling of the next. The
/// particles fit one block of 512, as normalize_weights_kernel needs: its thread 0 builds the CDF
/// from the weights every block normalises, which races across blocks.
TEST_F(Corpus, Rodinia_ParticleFilter) {
  const Program p = corpus_program("rodinia/cuda/particlefilter/ex_particle_CUDA_float_seq.cu");
  constexpr int kThreads = 512;  // threads_per_block
  const int isz_x = 64;
  const int isz_y = 64;
  const int nfr = 3;
  const int n = 400;  // Nparticles
  const int max_size = isz_x * isz_y * nfr;
  const auto image = random_vector<unsigned char>(max_size, 0, 255);
  // strelDisk and getneighbors with radius 5.
  const int radius = 5;
  const int diameter = radius * 2 - 1;
  std::vector<int> objxy;
  for (int x = 0; x < diameter; ++x) {
    for (int y = 0; y < diameter; ++y) {
      const double distance = std::sqrt(std::pow(static_cast<double>(x - radius + 1), 2) +
                                        std::pow(static_cast<double>(y - radius + 1), 2));
      if (distance < radius) {
        objxy.push_back(y - (radius - 1));
        objxy.push_back(x - (radius - 1));
      }
    }
  }
  const int count_ones = static_cast<int>(objxy.size() / 2);
  const double xe = static_cast<int>(isz_y / 2.0);  // roundDouble
  const double ye = static_cast<int>(isz_x / 2.0);
  const auto seed0 = random_vector<int>(n, 1, INT_MAX);

  auto d_array_x = poisoned<double>(n);
  auto d_array_y = poisoned<double>(n);
  auto d_xj = device.upload(std::vector<double>(n, xe));
  auto d_yj = device.upload(std::vector<double>(n, ye));
  auto d_cdf = poisoned<double>(n);
  auto d_u = poisoned<double>(n);
  auto d_likelihood = device.upload(std::vector<double>(n, 0.0));
  auto d_weights = device.upload(std::vector<double>(n, 1 / static_cast<double>(n)));
  auto d_image = device.upload(image);
  auto d_objxy = device.upload(objxy);
  auto d_ind = poisoned<int>(static_cast<std::size_t>(count_ones) * n);
  auto d_seed = device.upload(seed0);
  auto d_partial = poisoned<double>(n);
  auto likelihood_k =
      p.kernel<double*, double*, double*, double*, double*, int*, int*, double*, unsigned char*,
               double*, double*, int, int, int, int, int, int, int*, double*>("likelihood_kernel",
                                                                              device);
  auto sum_k = p.kernel<double*, int>("sum_kernel", device);
  auto normalize_k =
      p.kernel<double*, int, double*, double*, double*, int*>("normalize_weights_kernel", device);
  auto find_index_k = p.kernel<double*, double*, double*, double*, double*, double*, double*, int>(
      "find_index_kernel", device);
  const int num_blocks = static_cast<int>(std::ceil(static_cast<double>(n) / kThreads));
  const LaunchConfig cfg = launch(dim3(num_blocks), dim3(kThreads));
  // Values from the reference's own libm: doubles agree to a few ulps.
  constexpr double kRel = 1e-12;

  for (int k = 1; k < nfr; ++k) {
    SCOPED_TRACE("frame " + std::to_string(k));
    // likelihood_kernel
    const auto xj = d_xj.download();
    const auto yj = d_yj.download();
    auto seed = d_seed.download();
    likelihood_k.launch(cfg, d_array_x, d_array_y, d_xj, d_yj, d_cdf, d_ind, d_objxy, d_likelihood,
                        d_image, d_u, d_weights, n, count_ones, max_size, k, isz_y, nfr, d_seed,
                        d_partial);
    std::vector<double> ax(n), ay(n), lik(n), w(n);
    std::vector<int> ind(static_cast<std::size_t>(count_ones) * n);
    double weight_sum = 0;
    for (int i = 0; i < n; ++i) {
      ax[i] = xj[i] + 1.0 + 5.0 * pf::randn(seed, i);
      ay[i] = yj[i] - 2.0 + 2.0 * pf::randn(seed, i);
      double sum = 0;
      for (int y = 0; y < count_ones; ++y) {
        const int ind_x = static_cast<int>(pf::round_double(ax[i])) + objxy[y * 2 + 1];
        const int ind_y = static_cast<int>(pf::round_double(ay[i])) + objxy[y * 2];
        int& at = ind[static_cast<std::size_t>(i) * count_ones + y];
        at = std::abs(ind_x * isz_y * nfr + ind_y * nfr + k);
        if (at >= max_size) {
          at = 0;
        }
        sum += (std::pow(static_cast<double>(image[at] - 100), 2) -
                std::pow(static_cast<double>(image[at] - 228), 2)) /
               50.0;
      }
      lik[i] = sum / count_ones;
      w[i] = 1 / static_cast<double>(n) * std::exp(lik[i]);
      weight_sum += w[i];
    }
    EXPECT_EQ(d_seed.download(), seed);
    expect_all_near(d_array_x.download(), ax, kRel, 0, "arrayX");
    expect_all_near(d_array_y.download(), ay, kRel, 0, "arrayY");
    EXPECT_EQ(d_ind.download(), ind);
    expect_all_near(d_likelihood.download(), lik, kRel, 1e-12, "likelihood");
    expect_all_near(d_weights.download(), w, 1e-11, 0, "weights");
    EXPECT_NEAR(d_partial.download()[0], weight_sum, 1e-11 * weight_sum) << "partial_sums";

    // sum_kernel: the one block's partial sum is the total.
    const double partial0 = d_partial.download()[0];
    sum_k.launch(cfg, d_partial, n);
    EXPECT_EQ(d_partial.download()[0], partial0);

    // normalize_weights_kernel
    const auto weights = d_weights.download();
    seed = d_seed.download();
    normalize_k.launch(cfg, d_weights, n, d_partial, d_cdf, d_u, d_seed);
    std::vector<double> wn(n), cdf(n), u(n);
    for (int i = 0; i < n; ++i) {
      wn[i] = weights[i] / partial0;
    }
    cdf[0] = wn[0];
    for (int x = 1; x < n; ++x) {
      cdf[x] = wn[x] + cdf[x - 1];
    }
    const double u1 = (1 / static_cast<double>(n)) * pf::randu(seed, 0);
    for (int i = 0; i < n; ++i) {
      u[i] = u1 + i / static_cast<double>(n);
    }
    expect_all_near(d_weights.download(), wn, kRel, 0, "normalized weights");
    expect_all_near(d_cdf.download(), cdf, kRel, 0, "CDF");
    expect_all_near(d_u.download(), u, kRel, 0, "u");
    EXPECT_EQ(d_seed.download(), seed);

    // find_index_kernel, on the device's CDF and u: the resampled particles exactly.
    const auto got_cdf = d_cdf.download();
    const auto got_u = d_u.download();
    const auto got_x = d_array_x.download();
    const auto got_y = d_array_y.download();
    find_index_k.launch(cfg, d_array_x, d_array_y, d_cdf, d_u, d_xj, d_yj, d_weights, n);
    std::vector<double> xj_ref(n), yj_ref(n);
    for (int i = 0; i < n; ++i) {
      int index = -1;
      for (int x = 0; x < n; ++x) {
        if (got_cdf[x] >= got_u[i]) {
          index = x;
          break;
        }
      }
      if (index == -1) {
        index = n - 1;
      }
      xj_ref[i] = got_x[index];
      yj_ref[i] = got_y[index];
    }
    EXPECT_EQ(d_xj.download(), xj_ref);
    EXPECT_EQ(d_yj.download(), yj_ref);
  }
}

}  // namespace
}  // namespace kjit::test
