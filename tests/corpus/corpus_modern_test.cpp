// The corpus's modern files (tests/corpus/manifest.json), each kernel run as its project's host
// code runs it, on random inputs, against a plain C++ reference.
#include "corpus.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>

namespace kjit::test {
namespace {

unsigned ceil_div(std::size_t n, std::size_t d) {
  return static_cast<unsigned>((n + d - 1) / d);
}

/// floatX of the llm.c files that define ENABLE_BF16: __nv_bfloat16.
std::vector<bfloat16> to_bf16(const std::vector<float>& v) {
  std::vector<bfloat16> h;
  h.reserve(v.size());
  for (const float x : v) {
    h.push_back(bfloat16(x));
  }
  return h;
}

std::vector<float> to_float(const std::vector<bfloat16>& v) {
  std::vector<float> f;
  f.reserve(v.size());
  for (const bfloat16 x : v) {
    f.push_back(x.to_float());
  }
  return f;
}

/// A buffer of bf16 NaNs.
DeviceBuffer<bfloat16> poisoned_bf16(Corpus& t, std::size_t n) {
  return t.device.upload(std::vector<bfloat16>(n, bfloat16::from_bits(0x7fc0)));
}

constexpr unsigned kBlockSizes[] = {32, 64, 128, 256, 512, 1024};  // main's block_sizes[]

// ==== llm.c (dev/cuda) ===========================================================================

// ---- adamw --------------------------------------------------------------------------------------

TEST_F(Corpus, LlmC_AdamW) {
  const Program p = corpus_program("llm.c/dev/cuda/adamw.cu");
  constexpr long num_parameters = 10000;  // main: 1048576; not a multiple of the block
  constexpr int t = 10;
  constexpr float learning_rate = 1e-3f;
  constexpr float beta1 = 0.9f;
  constexpr float beta2 = 0.999f;
  constexpr float eps = 1e-8f;
  constexpr float weight_decay = 0.01f;  // main: 0.0f; nonzero so that its term is checked
  const auto params = random_vector<float>(num_parameters, -1.0f, 1.0f);
  const auto grads = random_vector<float>(num_parameters, -1.0f, 1.0f);
  const auto m = random_vector<float>(num_parameters, -1.0f, 1.0f);
  const auto v = random_vector<float>(num_parameters, 0.0f, 1.0f);
  // adamw_cpu
  std::vector<float> want_params(params), want_m(num_parameters), want_v(num_parameters);
  for (long i = 0; i < num_parameters; i++) {
    const float mi = beta1 * m[i] + (1.0f - beta1) * grads[i];
    const float vi = beta2 * v[i] + (1.0f - beta2) * grads[i] * grads[i];
    const float m_hat = mi / (1.0f - std::pow(beta1, static_cast<float>(t)));
    const float v_hat = vi / (1.0f - std::pow(beta2, static_cast<float>(t)));
    want_m[i] = mi;
    want_v[i] = vi;
    want_params[i] -= learning_rate * (m_hat / (std::sqrt(v_hat) + eps) + weight_decay * params[i]);
  }
  // adamw(): the corrections once on the host
  const float beta1_correction = 1.0f - std::pow(beta1, static_cast<float>(t));
  const float beta2_correction = 1.0f - std::pow(beta2, static_cast<float>(t));
  for (const char* name : {"adamw_kernel1", "adamw_kernel2"}) {
    auto d_params = device.upload(params);
    auto d_m = device.upload(m);
    auto d_v = device.upload(v);
    constexpr unsigned block_size = 512;  // adamw_dispatch1/2
    p.kernel<float*, const float*, float*, float*, long, float, float, float, float, float, float,
             float>(name, device)
        .launch(LaunchConfig{.grid = {ceil_div(num_parameters, block_size)}, .block = {block_size}},
                d_params, device.upload(grads), d_m, d_v, num_parameters, learning_rate, beta1,
                beta2, beta1_correction, beta2_correction, eps, weight_decay);
    // kernel2's lerp (two fmas) rounds differently from the reference's formula by an ulp or so
    expect_all_near(d_params.download(), want_params, 1e-5, 1e-6, std::string(name) + " params");
    expect_all_near(d_m.download(), want_m, 1e-5, 1e-7, std::string(name) + " m");
    expect_all_near(d_v.download(), want_v, 1e-5, 1e-7, std::string(name) + " v");
  }
}

// ---- crossentropy_forward -----------------------------------------------------------------------

TEST_F(Corpus, LlmC_CrossentropyForward) {
  const Program p = corpus_program("llm.c/dev/cuda/crossentropy_forward.cu");
  constexpr int B = 4;  // main: B = 8, T = 1024, V = 50257
  constexpr int T = 50;
  constexpr int V = 1000;
  const auto probs = random_vector<float>(std::size_t{B} * T * V, 1e-6f, 1.0f);
  const auto targets = random_vector<int>(std::size_t{B} * T, 0, V - 1);
  std::vector<double> want(std::size_t{B} * T);  // crossentropy_forward_cpu
  for (int i = 0; i < B * T; i++) {
    want[i] = -std::log(static_cast<double>(probs[std::size_t{1} * i * V + targets[i]]));
  }
  auto d_probs = device.upload(probs);
  auto d_targets = device.upload(targets);
  const auto k = p.kernel<float*, const float*, const int*, int, int, int>(
      "crossentropy_forward_kernel1", device);
  for (const unsigned block_size : kBlockSizes) {
    auto d_out = poisoned<float>(std::size_t{B} * T);
    k.launch(LaunchConfig{.grid = {ceil_div(B * T, block_size)}, .block = {block_size}}, d_out,
             d_probs, d_targets, B, T, V);
    expect_all_near(d_out.download(), want, 1e-6, 1e-6,
                    "crossentropy_forward_kernel1 block " + std::to_string(block_size));
  }
}

// ---- encoder_forward ----------------------------------------------------------------------------

TEST_F(Corpus, LlmC_EncoderForward) {
  const Program p = corpus_program("llm.c/dev/cuda/encoder_forward.cu");  // floatX: bf16
  constexpr int B = 2;  // main: B = 8, T = 1024, C = 768, V = 50257
  constexpr int T = 16;
  constexpr int C = 768;
  constexpr int V = 300;
  const auto inp = random_vector<int>(std::size_t{B} * T, 0, V - 1);
  const auto wte = to_bf16(random_vector<float>(std::size_t{V} * C, -1.0f, 1.0f));
  const auto wpe = to_bf16(random_vector<float>(std::size_t{T} * C, -1.0f, 1.0f));
  std::vector<float> want(std::size_t{B} * T * C);  // encoder_forward_cpu, on the bf16 inputs
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      for (int i = 0; i < C; i++) {
        want[(std::size_t{1} * b * T + t) * C + i] =
            wte[std::size_t{1} * inp[b * T + t] * C + i].to_float() +
            wpe[std::size_t{1} * t * C + i].to_float();
      }
    }
  }
  auto d_inp = device.upload(inp);
  auto d_wte = device.upload(wte);
  auto d_wpe = device.upload(wpe);
  const std::size_t N = std::size_t{B} * T * C;
  const struct {
    const char* name;
    std::size_t threads;  // what each launcher covers with its grid
  } kernels[] = {{"encoder_forward_kernel1", std::size_t{B} * T},
                 {"encoder_forward_kernel2", N},
                 {"encoder_forward_kernel3", N / 8}};  // x128::size bf16 per thread
  for (const auto& [name, threads] : kernels) {
    const auto k = p.kernel<bfloat16*, const int*, const bfloat16*, const bfloat16*, int, int, int>(
        name, device);
    for (const unsigned block_size : kBlockSizes) {
      auto d_out = poisoned_bf16(*this, N);
      k.launch(LaunchConfig{.grid = {ceil_div(threads, block_size)}, .block = {block_size}}, d_out,
               d_inp, d_wte, d_wpe, B, T, C);
      // bf16 output: one rounding, 2^-9 relative (main: 1e-2 + 0.079 |ref|)
      expect_all_near(to_float(d_out.download()), want, 1e-2, 1e-6,
                      std::string(name) + " block " + std::to_string(block_size));
    }
  }
}

// ---- gelu_forward -------------------------------------------------------------------------------

TEST_F(Corpus, LlmC_GeluForward) {
  const Program p = corpus_program("llm.c/dev/cuda/gelu_forward.cu");  // floatX: bf16
  constexpr int N = 2 * 16 * 768;  // main: B * T * C = 8 * 1024 * 768
  const auto inp = to_bf16(random_vector<float>(N, -4.0f, 4.0f));
  std::vector<double> want(N);  // gelu_forward_cpu, on the bf16 input
  for (int i = 0; i < N; i++) {
    const double x = inp[i].to_float();
    want[i] = 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
  }
  auto d_inp = device.upload(inp);
  const struct {
    const char* name;
    int per_thread;
  } kernels[] = {{"gelu_forward_kernel1", 1}, {"gelu_forward_kernel2", 8}};
  for (const auto& [name, per_thread] : kernels) {
    const auto k = p.kernel<bfloat16*, const bfloat16*, int>(name, device);
    for (const unsigned block_size : kBlockSizes) {
      auto d_out = poisoned_bf16(*this, N);
      k.launch(LaunchConfig{.grid = {ceil_div(N, block_size * per_thread)}, .block = {block_size}},
               d_out, d_inp, N);
      // bf16 output: one rounding, 2^-9 relative
      expect_all_near(to_float(d_out.download()), want, 1e-2, 1e-6,
                      std::string(name) + " block " + std::to_string(block_size));
    }
  }
}

// ---- layernorm_forward --------------------------------------------------------------------------

TEST_F(Corpus, LlmC_LayernormForward) {
  const Program p = corpus_program("llm.c/dev/cuda/layernorm_forward.cu");
  constexpr int B = 2;  // main: B = 8, T = 1024, C = 768
  constexpr int T = 12;
  constexpr int C = 768;
  constexpr int N = B * T;
  const auto inp = random_vector<float>(std::size_t{N} * C, -1.0f, 1.0f);
  const auto weight = random_vector<float>(C, -1.0f, 1.0f);
  const auto bias = random_vector<float>(C, -1.0f, 1.0f);
  std::vector<double> out(std::size_t{N} * C), mean(std::size_t{N}), rstd(std::size_t{N});
  for (int r = 0; r < N; r++) {  // layernorm_forward_cpu, in double
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
  using Layernorm =
      Kernel<float*, float*, float*, const float*, const float*, const float*, int, int>;
  auto layernorm = [&](const char* name) {
    return p.kernel<float*, float*, float*, const float*, const float*, const float*, int, int>(
        name, device);
  };
  const Layernorm kernel1 = layernorm("layernorm_forward_kernel1");
  const Layernorm kernel3 = layernorm("layernorm_forward_kernel3");
  const Layernorm kernel4 = layernorm("layernorm_forward_kernel4");
  const Layernorm kernel6 = layernorm("layernorm_forward_kernel6");
  const auto mean_kernel = p.kernel<float*, const float*, int, int, int>("mean_kernel", device);
  const auto rstd_kernel =
      p.kernel<float*, const float*, const float*, int, int, int>("rstd_kernel", device);
  const auto normalization_kernel =
      p.kernel<float*, const float*, float*, float*, const float*, const float*, int, int, int>(
          "normalization_kernel", device);
  // layernorm_forward_kernel5 is left out: every lane of a warp stores the warp's sums in
  // shared_sum[warp_id] and shared_sum2[warp_id] ("we could have lane_id == 0 guard but not
  // needed"), writes to one place with nothing ordering them, which the checked mode reports.
  for (const int kernel_num : {1, 2, 3, 4, 6}) {
    for (const unsigned block_size : kBlockSizes) {
      const std::string what =
          "kernel " + std::to_string(kernel_num) + " block " + std::to_string(block_size);
      auto d_out = poisoned<float>(std::size_t{N} * C);
      auto d_mean = poisoned<float>(N);
      auto d_rstd = poisoned<float>(N);
      switch (kernel_num) {  // layernorm_forward()
        case 1:
          kernel1.launch(LaunchConfig{.grid = {ceil_div(N, block_size)}, .block = {block_size}},
                         d_out, d_mean, d_rstd, d_inp, d_weight, d_bias, N, C);
          break;
        case 2: {
          const LaunchConfig rows{
              .grid = {N}, .block = {block_size}, .shared_bytes = block_size * sizeof(float)};
          mean_kernel.launch(rows, d_mean, d_inp, N, C, static_cast<int>(block_size));
          rstd_kernel.launch(rows, d_rstd, d_inp, d_mean, N, C, static_cast<int>(block_size));
          normalization_kernel.launch(
              LaunchConfig{.grid = {ceil_div(std::size_t{N} * C, 256)}, .block = {256}}, d_out,
              d_inp, d_mean, d_rstd, d_weight, d_bias, B, T, C);
          break;
        }
        case 3:
        case 4:
          (kernel_num == 3 ? kernel3 : kernel4)
              .launch(LaunchConfig{.grid = {ceil_div(std::size_t{N} * 32, block_size)},
                                   .block = {block_size}},
                      d_out, d_mean, d_rstd, d_inp, d_weight, d_bias, N, C);
          break;
        case 6: {
          const unsigned block_y = block_size / 32;
          const std::size_t smem = (2 + block_y) * C * sizeof(float);
          if (smem > device.info().max_shared_bytes) {
            // cudaFuncSetAttribute refuses it: main falls back to kernel 5, left out (above)
            continue;
          }
          kernel6.launch(
              LaunchConfig{
                  .grid = {ceil_div(N, block_y)}, .block = {32, block_y}, .shared_bytes = smem},
              d_out, d_mean, d_rstd, d_inp, d_weight, d_bias, N, C);
          break;
        }
        default:
          break;
      }
      // main: 1e-5 + FLT_EPSILON |ref| against a float reference
      expect_all_near(d_out.download(), out, 1e-4, 1e-5, what + " out");
      expect_all_near(d_mean.download(), mean, 1e-4, 1e-6, what + " mean");
      expect_all_near(d_rstd.download(), rstd, 1e-4, 1e-6, what + " rstd");
    }
  }
}

// ---- matmul_forward -----------------------------------------------------------------------------

TEST_F(Corpus, LlmC_MatmulForward) {
  const Program p = corpus_program("llm.c/dev/cuda/matmul_forward.cu");
  constexpr int B = 2;   // main: B = 32, T = 1024, C = 768, OC = 3072
  constexpr int T = 64;  // kernel 4: B * T and OC multiples of 128, C of 32
  constexpr int C = 96;
  constexpr int OC = 256;
  constexpr int BT = B * T;
  const auto inp = random_vector<float>(std::size_t{BT} * C, -1.0f, 1.0f);
  const auto weight = random_vector<float>(std::size_t{OC} * C, -1.0f, 1.0f);
  const auto bias = random_vector<float>(OC, -1.0f, 1.0f);
  std::vector<double> want(std::size_t{BT} * OC);  // matmul_forward_cpu
  for (int bt = 0; bt < BT; bt++) {
    for (int o = 0; o < OC; o++) {
      double val = bias[o];
      for (int i = 0; i < C; i++) {
        val += static_cast<double>(inp[std::size_t{1} * bt * C + i]) *
               weight[std::size_t{1} * o * C + i];
      }
      want[std::size_t{1} * bt * OC + o] = val;
    }
  }
  auto d_inp = device.upload(inp);
  auto d_weight = device.upload(weight);
  auto d_bias = device.upload(bias);
  const auto kernel1 = p.kernel<float*, const float*, const float*, const float*, int, int, int>(
      "matmul_forward_kernel1", device);
  for (const unsigned s : {4U, 8U, 16U, 32U}) {  // main's sqrt_block_sizes[]
    auto d_out = poisoned<float>(std::size_t{BT} * OC);
    kernel1.launch(LaunchConfig{.grid = {ceil_div(BT, s), ceil_div(OC, s)}, .block = {s, s}}, d_out,
                   d_inp, d_weight, d_bias, BT, C, OC);
    // main: 1e-1 + FLT_EPSILON |ref|; sums of 96 products of [-1, 1] in float
    expect_all_near(d_out.download(), want, 1e-5, 1e-5,
                    "matmul_forward_kernel1 " + std::to_string(s) + "x" + std::to_string(s));
  }
  {
    auto d_out = poisoned<float>(std::size_t{BT} * OC);  // matmul_forward4: 16 x 16 always
    p.kernel<float*, const float*, const float*, const float*, int, int>("matmul_forward_kernel4",
                                                                         device)
        .launch(
            LaunchConfig{.grid = {ceil_div(BT, 8 * 16), ceil_div(OC, 8 * 16)}, .block = {16, 16}},
            d_out, d_inp, d_weight, d_bias, C, OC);
    expect_all_near(d_out.download(), want, 1e-5, 1e-5, "matmul_forward_kernel4");
  }
  {
    // add_bias, which matmul_forward2 runs after cuBLAS's product: out += bias, grid-stride
    const auto product = random_vector<float>(std::size_t{BT} * OC, -10.0f, 10.0f);
    std::vector<float> biased(product);
    for (std::size_t i = 0; i < biased.size(); ++i) {
      biased[i] += bias[i % OC];
    }
    for (const unsigned s : {4U, 32U}) {
      auto d_out = device.upload(product);
      const unsigned block_size = s * s;
      p.kernel<float*, const float*, int, int, int>("add_bias", device)
          .launch(LaunchConfig{.grid = {ceil_div(std::size_t{OC} * BT, block_size)},
                               .block = {block_size}},
                  d_out, d_bias, B, T, OC);
      expect_all_near(d_out.download(), biased, 0, 0, "add_bias " + std::to_string(block_size));
    }
  }
}

// ---- permute ------------------------------------------------------------------------------------

TEST_F(Corpus, LlmC_Permute) {
  const Program p = corpus_program("llm.c/dev/cuda/permute.cu");
  constexpr int dim1 = 6;  // main: 24 x 42 x 20 x 32
  constexpr int dim2 = 7;
  constexpr int dim3 = 5;
  constexpr int dim4 = 9;
  constexpr int total = dim1 * dim2 * dim3 * dim4;
  const auto matrix = random_vector<float>(total, -1.0f, 1.0f);
  std::vector<float> want(total);  // permute_cpu
  for (int idx = 0; idx < total; idx++) {
    const int i1 = (idx / (dim2 * dim3 * dim4)) % dim1;
    const int i2 = (idx / (dim3 * dim4)) % dim2;
    const int i3 = (idx / dim4) % dim3;
    const int i4 = idx % dim4;
    want[i4 * (dim3 * dim1 * dim2) + i3 * (dim1 * dim2) + i1 * dim2 + i2] = matrix[idx];
  }
  auto d_out = poisoned<float>(total);
  constexpr unsigned blockSize = 256;
  p.kernel<const float*, float*, int, int, int, int>("permute_kernel", device)
      .launch(LaunchConfig{.grid = {ceil_div(total, blockSize)}, .block = {blockSize}},
              device.upload(matrix), d_out, dim1, dim2, dim3, dim4);
  EXPECT_EQ(d_out.download(), want);
}

// ---- residual_forward ---------------------------------------------------------------------------

TEST_F(Corpus, LlmC_ResidualForward) {
  const Program p = corpus_program("llm.c/dev/cuda/residual_forward.cu");  // floatX: bf16
  constexpr int N = 2 * 16 * 768;                                          // main: 8 * 1024 * 768
  const auto inp1 = to_bf16(random_vector<float>(N, -1.0f, 1.0f));
  const auto inp2 = to_bf16(random_vector<float>(N, -1.0f, 1.0f));
  std::vector<float> want(N);  // residual_forward_cpu, on the bf16 inputs
  for (int i = 0; i < N; i++) {
    want[i] = inp1[i].to_float() + inp2[i].to_float();
  }
  auto d_inp1 = device.upload(inp1);
  auto d_inp2 = device.upload(inp2);
  const struct {
    const char* name;
    int per_thread;
  } kernels[] = {{"residual_forward_kernel1", 1}, {"residual_forward_kernel2", 8}};
  for (const auto& [name, per_thread] : kernels) {
    const auto k = p.kernel<bfloat16*, const bfloat16*, const bfloat16*, int>(name, device);
    for (const unsigned block_size : kBlockSizes) {
      auto d_out = poisoned_bf16(*this, N);
      k.launch(LaunchConfig{.grid = {ceil_div(N, block_size * per_thread)}, .block = {block_size}},
               d_out, d_inp1, d_inp2, N);
      // bf16 output: one rounding, 2^-9 relative; sums near 0 lose nothing more than that
      expect_all_near(to_float(d_out.download()), want, 1e-2, 1e-6,
                      std::string(name) + " block " + std::to_string(block_size));
    }
  }
}

// ---- softmax_forward ----------------------------------------------------------------------------

TEST_F(Corpus, LlmC_SoftmaxForward) {
  const Program p = corpus_program("llm.c/dev/cuda/softmax_forward.cu");
  constexpr int N = 2 * 8;  // main: B * T = 8 * 1024 rows of V = 50257
  constexpr int V = 2000;   // at least the largest block: kernels 7 and 8 return threads past C
  std::vector<float> inp = random_vector<float>(std::size_t{N} * V, -1.0f, 1.0f);
  for (int k = 0; k < 3; ++k) {  // main's outliers, so that some probabilities are not tiny
    for (int j = 0; j < N; ++j) {
      inp[std::size_t{1} * j * V + rng() % V] *= 20;
    }
  }
  std::vector<double> want(std::size_t{N} * V);  // softmax_forward_cpu, in double
  for (int i = 0; i < N; i++) {
    const float* row = inp.data() + std::size_t{1} * i * V;
    const double maxval = *std::max_element(row, row + V);
    double sum = 0.0;
    for (int j = 0; j < V; j++) {
      sum += std::exp(row[j] - maxval);
    }
    for (int j = 0; j < V; j++) {
      want[std::size_t{1} * i * V + j] = std::exp(row[j] - maxval) / sum;
    }
  }
  auto d_inp = device.upload(inp);
  using Softmax = Kernel<float*, const float*, int, int>;
  auto softmax = [&](const char* name) {
    return p.kernel<float*, const float*, int, int>(name, device);
  };
  // softmax_forward_kernel4 is left out: its threads read the block's max from
  // max_or_sum_storage[0] and, with no barrier after, lane 0 of warp 0 writes its sum there: a
  // race in shared memory.
  const struct {
    int kernel_num;
    Softmax kernel;
  } kernels[] = {{1, softmax("softmax_forward_kernel1")},
                 {2, softmax("softmax_forward_kernel2")},
                 {3, softmax("softmax_forward_kernel3")},
                 {5, softmax("softmax_forward_online_kernel1")},
                 {6, softmax("softmax_forward_online_kernel2")},
                 {7, softmax("softmax_forward_kernel7")},
                 {8, softmax("softmax_forward_online_kernel8")}};
  for (const auto& [kernel_num, kernel] : kernels) {
    for (const unsigned block_size : kBlockSizes) {
      LaunchConfig config;  // softmax_forward()
      switch (kernel_num) {
        case 1:
        case 5:
          config = {.grid = {ceil_div(N, block_size)}, .block = {block_size}};
          break;
        case 2:
          config = {.grid = {N}, .block = {block_size}, .shared_bytes = block_size * sizeof(float)};
          break;
        case 3:  // block size 32 always
          config = {.grid = {N}, .block = {32}, .shared_bytes = 32 * sizeof(float)};
          break;
        case 6:
        case 8:
          config = {.grid = {ceil_div(std::size_t{N} * 32, block_size)}, .block = {block_size}};
          break;
        case 7:
          config = {.grid = {N},
                    .block = {block_size},
                    .shared_bytes = 2 * block_size / 32 * sizeof(float)};
          break;
        default:
          break;
      }
      auto d_out = poisoned<float>(std::size_t{N} * V);
      kernel.launch(config, d_out, d_inp, N, V);
      // main: 1e-4 + FLT_EPSILON |ref|; float sums of 2000 terms stay within 1e-5 relative
      expect_all_near(
          d_out.download(), want, 1e-5, 1e-9,
          "kernel " + std::to_string(kernel_num) + " block " + std::to_string(block_size));
    }
  }
}

// ==== SGEMM_CUDA (siboehm) =======================================================================

TEST_F(Corpus, Sgemm_SimplestKernel) {
  const Program p = corpus_program("sgemm/simplest_kernel.cu");
  constexpr unsigned SIZE = 4;
  auto Xs = poisoned<unsigned>(SIZE * SIZE);
  auto Ys = poisoned<unsigned>(SIZE * SIZE);
  p.kernel<unsigned*, unsigned*, int>("kernel", device)
      .launch(LaunchConfig{.grid = {1, 1, 1}, .block = {4 * 4}}, Xs, Ys, 4);
  std::vector<unsigned> x(SIZE * SIZE), y(SIZE * SIZE);
  for (unsigned t = 0; t < 16; ++t) {
    x[t / 4 * 4 + t % 4] = t / 4;
    y[t / 4 * 4 + t % 4] = t % 4;
  }
  EXPECT_EQ(Xs.download(), x);
  EXPECT_EQ(Ys.download(), y);
}

/// One SGEMM of sgemm.cu's: C = alpha * A @ B + beta * C (row-major, alpha 0.5, beta 3.0) with
/// the kernel `name` of `file` on the grid and block its run_* function in runner.cu gives,
/// checked against a plain product (sgemm.cu's verify_matrix: |diff| <= 0.01).
template <class APtr>
void check_sgemm(Corpus& t, const std::string& file, const std::string& name, int M, int N, int K,
                 Dim3 grid, Dim3 block) {
  SCOPED_TRACE(name + " " + std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K));
  const Program p = corpus_program(file);
  constexpr float alpha = 0.5f;
  constexpr float beta = 3.0f;
  const auto A = t.random_vector<float>(std::size_t{1} * M * K, -1.0f, 1.0f);
  const auto B = t.random_vector<float>(std::size_t{1} * K * N, -1.0f, 1.0f);
  const auto C = t.random_vector<float>(std::size_t{1} * M * N, -1.0f, 1.0f);
  std::vector<double> want(C.size());
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double acc = 0;
      for (int k = 0; k < K; ++k) {
        acc += static_cast<double>(A[std::size_t{1} * i * K + k]) * B[std::size_t{1} * k * N + j];
      }
      want[std::size_t{1} * i * N + j] = alpha * acc + beta * C[std::size_t{1} * i * N + j];
    }
  }
  auto dA = t.device.upload(A);
  auto dB = t.device.upload(B);
  auto dC = t.device.upload(C);
  p.kernel<int, int, int, float, APtr, APtr, float, float*>(name, t.device)
      .launch(LaunchConfig{.grid = grid, .block = block}, M, N, K, alpha, dA, dB, beta, dC);
  expect_all_near(dC.download(), want, 1e-5, 1e-4, name);
}

unsigned cdiv(int a, int b) {
  return static_cast<unsigned>((a + b - 1) / b);
}

TEST_F(Corpus, Sgemm_Naive) {
  for (const auto& [M, N, K] : {std::array{128, 128, 128}, std::array{100, 70, 45}}) {
    check_sgemm<const float*>(*this, "sgemm/src/kernels/1_naive.cuh", "sgemm_naive", M, N, K,
                              {cdiv(M, 32), cdiv(N, 32)}, {32, 32});
  }
}

TEST_F(Corpus, Sgemm_GlobalMemCoalesce) {
  for (const auto& [M, N, K] : {std::array{128, 128, 128}, std::array{100, 70, 45}}) {
    check_sgemm<const float*>(*this, "sgemm/src/kernels/2_kernel_global_mem_coalesce.cuh",
                              "sgemm_global_mem_coalesce<32>", M, N, K, {cdiv(M, 32), cdiv(N, 32)},
                              {32 * 32});
  }
}

TEST_F(Corpus, Sgemm_SharedMemBlocking) {
  constexpr int S = 128;  // sgemm.cu's smallest SIZE; the kernel has no bounds checks
  check_sgemm<const float*>(*this, "sgemm/src/kernels/3_kernel_shared_mem_blocking.cuh",
                            "sgemm_shared_mem_block<32>", S, S, S, {cdiv(S, 32), cdiv(S, 32)},
                            {32 * 32});
}

TEST_F(Corpus, Sgemm_1DBlocktiling) {
  constexpr int S = 128;
  check_sgemm<const float*>(*this, "sgemm/src/kernels/4_kernel_1D_blocktiling.cuh",
                            "sgemm1DBlocktiling<64, 64, 8, 8>", S, S, S, {cdiv(S, 64), cdiv(S, 64)},
                            {(64 * 64) / 8});
}

/// The 128 x 128 tiles, which runner.cu picks for M, N >= 128 (sgemm.cu's sizes are 128 and up).
template <class APtr>
void check_2d_tiled(Corpus& t, const std::string& file, const std::string& kernel) {
  check_sgemm<APtr>(t, file, kernel + "<128, 128, 8, 8, 8>", 128, 128, 128, {1, 1},
                    {(128 * 128) / (8 * 8)});
  check_sgemm<APtr>(t, file, kernel + "<128, 128, 8, 8, 8>", 256, 128, 64, {1, 2},
                    {(128 * 128) / (8 * 8)});
}

TEST_F(Corpus, Sgemm_2DBlocktiling) {
  const std::string file = "sgemm/src/kernels/5_kernel_2D_blocktiling.cuh";
  check_2d_tiled<const float*>(*this, file, "sgemm2DBlocktiling");
  // and the 64 x 64 tiles runner.cu picks below 128. Kernels 6 to 8 have them too, but their
  // <64, 64, 8, 8, 8> is wrong as written: one float4 per thread of 64 loads only half of the
  // 64 x 8 tile of A (and of the 8 x 64 tile of B), so the rest of the shared tiles is never
  // written; sgemm.cu never runs them (its sizes start at 128).
  check_sgemm<const float*>(*this, file, "sgemm2DBlocktiling<64, 64, 8, 8, 8>", 64, 64, 64, {1, 1},
                            {(64 * 64) / (8 * 8)});
}

TEST_F(Corpus, Sgemm_Vectorize) {
  check_2d_tiled<float*>(*this, "sgemm/src/kernels/6_kernel_vectorize.cuh", "sgemmVectorize");
}

TEST_F(Corpus, Sgemm_ResolveBankConflicts) {
  check_2d_tiled<float*>(*this, "sgemm/src/kernels/7_kernel_resolve_bank_conflicts.cuh",
                         "sgemmResolveBankConflicts");
}

TEST_F(Corpus, Sgemm_BankExtraCol) {
  check_2d_tiled<float*>(*this, "sgemm/src/kernels/8_kernel_bank_extra_col.cuh",
                         "sgemmResolveBankExtraCol");
}

TEST_F(Corpus, Sgemm_Autotuned) {
  constexpr int S = 128;
  check_sgemm<float*>(*this, "sgemm/src/kernels/9_kernel_autotuned.cuh",
                      "sgemmAutotuned<128, 128, 16, 8, 8>", S, S, S, {cdiv(S, 128), cdiv(S, 128)},
                      {256});  // K9_NUM_THREADS
}

TEST_F(Corpus, Sgemm_Warptiling) {
  constexpr int S = 128;
  check_sgemm<float*>(*this, "sgemm/src/kernels/10_kernel_warptiling.cuh",
                      "sgemmWarptiling<128, 128, 16, 64, 64, 4, 8, 4, 128>", S, S, S,
                      {cdiv(S, 128), cdiv(S, 128)}, {128});
}

TEST_F(Corpus, Sgemm_DoubleBuffering) {
  constexpr int S = 256;  // BN = 256: no bounds checks, so N a multiple of 256
  check_sgemm<float*>(*this, "sgemm/src/kernels/11_kernel_double_buffering.cuh",
                      "sgemmDoubleBuffering<128, 256, 16, 128, 32, 1, 8, 8, 256>", S, S, S,
                      {cdiv(S, 256), cdiv(S, 128)}, {256});
}

TEST_F(Corpus, Sgemm_DoubleBuffering2NeedsLibcuxxWhichKjitLacks) {
  // runSgemmDoubleBuffering2 waits on cuda::barrier and copies with cuda::memcpy_async
  // (<cuda/barrier>, libcu++), which kjit does not provide: an error at the first use, with a
  // note that names the header.
  const Program p = corpus_program("sgemm/src/kernels/12_kernel_double_buffering.cuh");
  auto e = expect_throw<CompileError>([&] {
    (void)p.kernel<int, int, int, float, float*, float*, float, float*>(
        "runSgemmDoubleBuffering2<128, 128, 16, 64, 64, 4, 8, 4, 128>", device);
  });
  EXPECT_TRUE(contains(e.file(), "12_kernel_double_buffering.cuh")) << e.what();
  EXPECT_TRUE(contains(e.what(), "cuda")) << e.what();
  EXPECT_TRUE(contains(e.what(), "note: kjit found no 'cuda/barrier'")) << e.what();
}

}  // namespace
}  // namespace kjit::test
