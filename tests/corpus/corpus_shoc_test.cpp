// The corpus's shoc files (tests/corpus/manifest.json), each kernel run as its project's host code
// runs it, on random inputs, against a plain C++ reference.
#include "corpus.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>

namespace kjit::test {
namespace {

LaunchConfig launch(unsigned grid, unsigned block, std::size_t shared_bytes = 0) {
  return LaunchConfig{.grid = {grid}, .block = {block}, .shared_bytes = shared_bytes};
}

/// SHOC's smallest problem size (prob_sizes[0] = 1 MiB) in elements of T.
template <class T>
constexpr int kOneMiB = static_cast<int>((1 * 1024 * 1024) / sizeof(T));

// ---- Reduction ---------------------------------------------------------------------------------

/// Reduction.cu RunTest<T>: 64 blocks of 256 threads each sum their share of the input (the tail
/// of the kernel is warp-synchronous on volatile shared memory), the host adds the 64 partial sums
/// and compares with reduceCPU. On integer-valued random data every sum is exact, so SHOC's own
/// criterion (|gpu - cpu| < 1e-6) holds; on random reals the partial sums are compared with a
/// tolerance for the order of the additions.
template <class T>
void check_reduction(Corpus& t, const Program& p, const std::string& kernel) {
  SCOPED_TRACE(kernel);
  constexpr int kBlocks = 64;
  constexpr int kThreads = 256;
  const int size = kOneMiB<T>;
  auto reduce = p.kernel<const T*, T*, unsigned>(kernel, t.device);
  for (const bool integers : {true, false}) {
    std::vector<T> in = t.random_vector<T>(size, integers ? 0 : -1, integers ? 9 : 1);
    if (integers) {
      for (T& x : in) {
        x = std::round(x);
      }
    }
    auto d_in = t.device.upload(in);
    auto d_out = t.poisoned<T>(kBlocks);
    reduce.launch(launch(kBlocks, kThreads, kThreads * sizeof(T)), d_in, d_out,
                  static_cast<unsigned>(size));
    const auto partial = d_out.download();
    // Block b sums elements b*512 + k*gridSize + [0, 512).
    std::vector<double> want(kBlocks, 0.0);
    double abs_sum = 0;
    for (int i = 0; i < size; ++i) {
      want[(i / (2 * kThreads)) % kBlocks] += in[i];
      abs_sum += std::fabs(static_cast<double>(in[i]));
    }
    if (integers) {
      expect_all_near(partial, want, 0, 0, "g_odata");
      T dev_result = 0;
      for (const T x : partial) {
        dev_result += x;
      }
      T cpu_result = 0;  // reduceCPU
      for (const T x : in) {
        cpu_result += x;
      }
      EXPECT_LT(std::fabs(dev_result - cpu_result), 1.0e-6);
    } else {
      // Each partial sums 4096 (float) or 2048 (double) values of [-1, 1].
      const double eps = std::numeric_limits<T>::epsilon();
      expect_all_near(partial, want, 0, 8 * eps * abs_sum / kBlocks, "g_odata (reals)");
    }
  }
}

TEST_F(Corpus, Shoc_Reduction) {
  const Program p = corpus_program("shoc/src/cuda/level1/reduction/Reduction.cu");
  check_reduction<float>(*this, p, "reduce<float, 256>");
  check_reduction<double>(*this, p, "reduce<double, 256>");
}

// ---- Scan --------------------------------------------------------------------------------------

/// Scan.cu RunTest<T, vecT>: reduce (64 block sums), scan_single_block (their exclusive scan in one
/// block), bottom_scan (each block's share scanned four at a time, seeded by its block's sum), then
/// scanCPU, which wants the inclusive scan exactly. The data are random small integers, so every
/// partial sum is exact in T and SHOC's exact comparison applies.
template <class T>
void check_scan(Corpus& t, const Program& p, const std::string& type, const std::string& vec) {
  SCOPED_TRACE(type);
  constexpr int kBlocks = 64;
  constexpr int kThreads = 256;
  const int size = kOneMiB<T>;
  const std::size_t smem = sizeof(T) * kThreads;
  std::vector<T> in = t.random_vector<T>(size, 0, 3);
  for (T& x : in) {
    x = std::round(x);
  }
  auto d_in = t.device.upload(in);
  auto d_out = t.poisoned<T>(size);
  auto d_block_sums = t.poisoned<T>(kBlocks);
  const std::string args = "<" + type + ", 256>";
  p.kernel<const T*, T*, int>("reduce" + args, t.device)
      .launch(launch(kBlocks, kThreads, smem), d_in, d_block_sums, size);
  // Block b's region: (size / 4 / 64) * 4 elements, the last block up to the end.
  const int region = ((size / 4) / kBlocks) * 4;
  std::vector<T> sums(kBlocks, 0);
  for (int i = 0; i < size; ++i) {
    sums[std::min(i / region, kBlocks - 1)] += in[i];
  }
  EXPECT_EQ(d_block_sums.download(), sums);

  p.kernel<T*, int>("scan_single_block" + args, t.device)
      .launch(launch(1, kThreads, 2 * smem), d_block_sums, kBlocks);
  std::vector<T> scanned(kBlocks, 0);
  std::exclusive_scan(sums.begin(), sums.end(), scanned.begin(), T{0});
  EXPECT_EQ(d_block_sums.download(), scanned);

  p.kernel<const T*, T*, const T*, int>("bottom_scan<" + type + ", " + vec + ", 256>", t.device)
      .launch(launch(kBlocks, kThreads, 2 * smem), d_in, d_out, d_block_sums, size);
  std::vector<T> reference(size);  // scanCPU
  T last = 0;
  for (int i = 0; i < size; ++i) {
    reference[i] = in[i] + last;
    last = reference[i];
  }
  EXPECT_EQ(d_out.download(), reference);
}

TEST_F(Corpus, Shoc_Scan) {
  const Program p = corpus_program("shoc/src/cuda/level1/scan/Scan.cu");
  check_scan<float>(*this, p, "float", "float4");
  check_scan<double>(*this, p, "double", "double4");
}

// ---- Sort --------------------------------------------------------------------------------------

struct Uint2 {
  unsigned x, y;
};
struct alignas(16) Uint4 {
  unsigned x, y, z, w;
};

/// A buffer of uints seen as uint2 or uint4, as Sort.cu casts its pointers.
template <class V>
DevicePtr<V> as(const Device& device, DeviceBuffer<unsigned>& b) {
  return DevicePtr<V>::from_address(device, b.ptr().address(),
                                    b.size() * sizeof(unsigned) / sizeof(V));
}

/// Sort.cu RunBenchmark (its host code is upstream's, not in the corpus): 8 radixSortSteps of 4
/// bits, each radixSortBlocks (every 512 keys sorted on the digit), findRadixOffsets (per block
/// digit counts and starts), scanArrayRecursive (scan of the counts: scan, the recursive scan of
/// the block sums, vectorAddUniform4) and reorderData (the global scatter). The first step's
/// intermediate arrays are checked against their definitions, the result against a stable sort
/// (the radix sort is stable, so values must follow their keys in order).
TEST_F(Corpus, Shoc_Sort) {
  const Program p = corpus_program("shoc/src/cuda/level1/sort/sort_kernel.cu");
  constexpr unsigned kSortBlock = 128;  // SORT_BLOCK_SIZE
  constexpr unsigned kScanBlock = 256;  // SCAN_BLOCK_SIZE
  constexpr unsigned kWarp = 32;        // WARP_SIZE
  constexpr unsigned kSortBits = 32;    // SORT_BITS
  // 48K keys (a multiple of 1024): 96 groups, so the 1536 counters take two scan blocks, the
  // second partly full, and the recursion and vectorAddUniform4 run.
  const unsigned size = 48 * 1024;
  const auto keys = random_vector<unsigned>(size, 0, 0xffffffffU);
  const auto vals = random_vector<unsigned>(size, 0, 0xffffffffU);

  // The block sums of each scan level, as RunBenchmark allocates them.
  std::vector<DeviceBuffer<unsigned>> block_sums;
  unsigned num_scan_elts = size;
  do {
    const unsigned num_blocks = std::max(
        1, static_cast<int>(std::ceil(static_cast<float>(num_scan_elts) / (4 * kScanBlock))));
    if (num_blocks > 1) {
      block_sums.push_back(poisoned<unsigned>(num_blocks));
    }
    num_scan_elts = num_blocks;
  } while (num_scan_elts > 1);
  block_sums.push_back(poisoned<unsigned>(1));

  auto d_keys = device.upload(keys);
  auto d_vals = device.upload(vals);
  auto d_temp_keys = poisoned<unsigned>(size);
  auto d_temp_vals = poisoned<unsigned>(size);
  const std::size_t num_sort_groups = size / (4 * kSortBlock);
  auto d_counters = poisoned<unsigned>(kWarp * num_sort_groups);
  auto d_counter_sums = poisoned<unsigned>(kWarp * num_sort_groups);
  auto d_block_offsets = poisoned<unsigned>(kWarp * num_sort_groups);

  auto radix_sort_blocks =
      p.kernel<unsigned, unsigned, Uint4*, Uint4*, Uint4*, Uint4*>("radixSortBlocks", device);
  auto find_radix_offsets = p.kernel<Uint2*, unsigned*, unsigned*, unsigned, unsigned, unsigned>(
      "findRadixOffsets", device);
  auto reorder_data = p.kernel<unsigned, unsigned*, unsigned*, Uint2*, Uint2*, unsigned*, unsigned*,
                               unsigned*, unsigned>("reorderData", device);
  auto scan = p.kernel<unsigned*, unsigned*, unsigned*, int, bool, bool>("scan", device);
  auto add_uniform = p.kernel<unsigned*, const unsigned*, int>("vectorAddUniform4", device);

  // scanArrayRecursive
  const auto scan_array = [&](auto& self, DevicePtr<unsigned> out, DevicePtr<unsigned> in,
                              int num_elements, std::size_t level) -> void {
    const unsigned num_blocks = std::max(
        1U,
        static_cast<unsigned>(std::ceil(static_cast<float>(num_elements) / (4.f * kScanBlock))));
    const std::size_t shared = sizeof(unsigned) * kScanBlock * 2;
    const bool full_block = (static_cast<unsigned>(num_elements) == num_blocks * 4 * kScanBlock);
    scan.launch(launch(num_blocks, kScanBlock, shared), out, in, block_sums[level].ptr(),
                num_elements, full_block, num_blocks > 1);
    if (num_blocks > 1) {
      self(self, block_sums[level].ptr(), block_sums[level].ptr(), static_cast<int>(num_blocks),
           level + 1);
      add_uniform.launch(launch(num_blocks, kScanBlock), out, block_sums[level].ptr(),
                         num_elements);
    }
  };
  // radixSortStep
  const auto radix_sort_step = [&](unsigned nbits, unsigned startbit) {
    const unsigned radix_blocks = (size / 4) / kSortBlock;
    const unsigned find_blocks = (size / 2) / kScanBlock;
    const unsigned reorder_blocks = (size / 2) / kScanBlock;
    radix_sort_blocks.launch(launch(radix_blocks, kSortBlock, 4 * sizeof(unsigned) * kSortBlock),
                             nbits, startbit, as<Uint4>(device, d_temp_keys),
                             as<Uint4>(device, d_temp_vals), as<Uint4>(device, d_keys),
                             as<Uint4>(device, d_vals));
    find_radix_offsets.launch(launch(find_blocks, kScanBlock, 2 * kScanBlock * sizeof(unsigned)),
                              as<Uint2>(device, d_temp_keys), d_counters, d_block_offsets, startbit,
                              size, find_blocks);
    scan_array(scan_array, d_counter_sums.ptr(), d_counters.ptr(),
               static_cast<int>(16 * reorder_blocks), 0);
    reorder_data.launch(launch(reorder_blocks, kScanBlock), startbit, d_keys, d_vals,
                        as<Uint2>(device, d_temp_keys), as<Uint2>(device, d_temp_vals),
                        d_block_offsets, d_counter_sums, d_counters, reorder_blocks);
  };

  for (unsigned bit = 0; bit < kSortBits; bit += 4) {
    radix_sort_step(4, bit);
    if (bit != 0) {
      continue;
    }
    // The first step's intermediates: every 512 keys stably sorted on digit 0 ...
    const auto temp_keys = d_temp_keys.download();
    const auto temp_vals = d_temp_vals.download();
    const unsigned groups = size / 512;
    std::vector<unsigned> counters(16 * groups, 0);
    std::vector<unsigned> offsets(16 * groups, 0);
    for (unsigned g = 0; g < groups; ++g) {
      std::vector<std::pair<unsigned, unsigned>> block;
      for (unsigned i = g * 512; i < (g + 1) * 512; ++i) {
        block.emplace_back(keys[i], vals[i]);
      }
      std::stable_sort(block.begin(), block.end(), [](const auto& a, const auto& b) {
        return (a.first & 15) < (b.first & 15);
      });
      for (unsigned i = 0; i < 512; ++i) {
        ASSERT_EQ(temp_keys[g * 512 + i], block[i].first) << "block " << g << " key " << i;
        ASSERT_EQ(temp_vals[g * 512 + i], block[i].second) << "block " << g << " value " << i;
      }
      for (unsigned i = 0; i < 512; ++i) {
        const unsigned digit = block[i].first & 15;
        if (counters[digit * groups + g]++ == 0) {
          offsets[g * 16 + digit] = i;
        }
      }
    }
    // ... their digit counts and starts (a digit absent from a block keeps start 0) ...
    const auto got_counters = d_counters.download();
    const auto got_offsets = d_block_offsets.download();
    EXPECT_EQ(std::vector<unsigned>(got_counters.begin(), got_counters.begin() + 16 * groups),
              counters);
    EXPECT_EQ(std::vector<unsigned>(got_offsets.begin(), got_offsets.begin() + 16 * groups),
              offsets);
    // ... and the exclusive scan of the counts, in digit-major order.
    std::vector<unsigned> sums(16 * groups);
    std::exclusive_scan(counters.begin(), counters.end(), sums.begin(), 0U);
    const auto got_sums = d_counter_sums.download();
    EXPECT_EQ(std::vector<unsigned>(got_sums.begin(), got_sums.begin() + 16 * groups), sums);
  }

  std::vector<std::pair<unsigned, unsigned>> want(size);
  for (unsigned i = 0; i < size; ++i) {
    want[i] = {keys[i], vals[i]};
  }
  std::stable_sort(want.begin(), want.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  const auto got_keys = d_keys.download();
  const auto got_vals = d_vals.download();
  int bad = 0;
  for (unsigned i = 0; i < size && bad < 5; ++i) {
    if (got_keys[i] != want[i].first || got_vals[i] != want[i].second) {
      ADD_FAILURE() << "at " << i << ": (" << got_keys[i] << ", " << got_vals[i] << "), want ("
                    << want[i].first << ", " << want[i].second << ")";
      ++bad;
    }
  }
  EXPECT_TRUE(std::is_sorted(got_keys.begin(), got_keys.end()));  // verifySort
}

// ---- FFT ---------------------------------------------------------------------------------------

template <class T>
struct alignas(2 * sizeof(T)) Complex {  // float2, double2
  T x, y;
};

/// fftlib.cu (FFT.cu's RunTest drives it): forward (FFT512_device, one 512-point FFT per block of
/// 64 threads), inverse (IFFT512_device, normalised) and check (chk512_device, whose flag says
/// whether the second half of the FFTs differs from the first), on data whose two halves are
/// equal, as FFT.cu fills them. The forward transform is also compared with a direct DFT and the
/// inverse with the input. The codelets' twiddles come from __sinf/__cosf of a float angle and
/// float constants (for double2 too), so both precisions are checked to float accuracy: on a GPU
/// __sinf/__cosf err by up to some 1e-6, times the transform's magnitude (sqrt(512) for inputs in
/// [-1, 1]), over three stages.
template <class T>
void check_fft(Corpus& t, const Program& p, const std::string& t2, const std::string& type) {
  SCOPED_TRACE(t2);
  using C = Complex<T>;
  const int n_ffts = 16;
  const int half_n_ffts = n_ffts / 2;
  const int n = 512 * n_ffts;
  const int half_n_cmplx = n / 2;
  std::vector<C> source(n);
  const auto r = t.random_vector<T>(2 * half_n_cmplx, -1, 1);
  for (int i = 0; i < half_n_cmplx; ++i) {
    source[i] = {r[2 * i], r[2 * i + 1]};
    source[i + half_n_cmplx] = source[i];
  }
  auto work = t.device.upload(source);
  const LaunchConfig cfg = launch(n_ffts, 64);  // grid2D(n_ffts): n_ffts x 1
  p.kernel<C*>("FFT512_device<" + t2 + ", " + type + ">", t.device).launch(cfg, work);
  const auto spectrum = work.download();
  std::vector<double> got, want;
  const double pi = 3.14159265358979323846;
  for (int f = 0; f < n_ffts; ++f) {
    for (int k = 0; k < 512; ++k) {
      double re = 0;
      double im = 0;
      for (int j = 0; j < 512; ++j) {
        const C& x = source[f * 512 + j];
        const double phi = -2 * pi * ((static_cast<long>(j) * k) % 512) / 512;
        re += x.x * std::cos(phi) - x.y * std::sin(phi);
        im += x.x * std::sin(phi) + x.y * std::cos(phi);
      }
      want.insert(want.end(), {re, im});
      got.insert(got.end(), {spectrum[f * 512 + k].x, spectrum[f * 512 + k].y});
    }
  }
  expect_all_near(got, want, 0, 2e-4, "forward");

  p.kernel<C*>("IFFT512_device<" + t2 + ", " + type + ">", t.device).launch(cfg, work);
  const auto back = work.download();
  got.clear();
  want.clear();
  for (int i = 0; i < n; ++i) {
    got.insert(got.end(), {back[i].x, back[i].y});
    want.insert(want.end(), {source[i].x, source[i].y});
  }
  expect_all_near(got, want, 0, 1e-5, "inverse");

  auto fail = t.device.upload(std::vector<char>(1, 0));
  p.kernel<const C*, int, char*>("chk512_device<" + t2 + ">", t.device)
      .launch(launch(half_n_ffts, 64), work, half_n_cmplx, fail);
  EXPECT_EQ(fail.download()[0], 0) << "chk512_device";
}

TEST_F(Corpus, Shoc_Fft) {
  const Program p = corpus_program("shoc/src/cuda/level1/fft/fftlib.cu");
  check_fft<float>(*this, p, "float2", "float");
  check_fft<double>(*this, p, "double2", "double");
}

// ---- MaxFlops ----------------------------------------------------------------------------------

/// MaxFlops.cu RunTest<T>: blocks of 128 threads over a buffer whose second half mirrors its first,
/// each kernel run nIters = 2 times its unrolled body (realRepeats' floor). SHOC checks that the
/// halves still mirror each other; the additions and the contracting multiply-adds are also
/// checked against the same loop on the host. MulMAdd's map s = (3.75 - 0.355 s) s is chaotic (a
/// logistic map with r = 3.75), so a contracted multiply-add changes its result at once: it gets
/// SHOC's check only. `all_kernels`: Add4 and MulMAdd2 as well as Add1 and MAdd1.
template <class T>
void check_max_flops(Corpus& t, const Program& p, const std::string& type, bool all_kernels) {
  SCOPED_TRACE(type);
  const int half = 8192;  // halfNumFloats, 1M in SHOC
  const int num = 2 * half;
  const int repeats = 2;
  const LaunchConfig cfg = launch(num / 128, 128);
  std::vector<T> host(num);
  const auto fresh = [&] {
    const auto r = t.random_vector<double>(half, 0.0, 10.0);  // drand48() * 10.0
    for (int j = 0; j < half; ++j) {
      host[j] = host[num - j - 1] = static_cast<T>(r[j]);
    }
    return t.device.upload(host);
  };
  const auto mirrored = [&](const std::vector<T>& got, const std::string& what) {
    for (int j = 0; j < half; ++j) {
      if (!(got[j] == got[num - j - 1])) {
        ADD_FAILURE() << what << "[" << j << "] = " << got[j] << " differs from its twin "
                      << got[num - j - 1];
        return;
      }
    }
  };
  const T v = 10.0;  // Add's v
  {
    auto d = fresh();
    p.kernel<T*, int, T>("Add1<" + type + ">", t.device).launch(cfg, d, repeats, v);
    const auto got = d.download();
    mirrored(got, "Add1");
    std::vector<T> want(host);
    for (T& s : want) {
      for (int k = 0; k < repeats * 240; ++k) {
        s = v - s;
      }
    }
    EXPECT_EQ(got, want) << "Add1";
  }
  if (all_kernels) {
    auto d = fresh();
    p.kernel<T*, int, T>("Add4<" + type + ">", t.device).launch(cfg, d, repeats, v);
    const auto got = d.download();
    mirrored(got, "Add4");
    std::vector<T> want(host);
    for (T& x : want) {
      T s = x, s2 = T(10.0f) - s, s3 = T(9.0f) - s, s4 = T(9.0f) - s2;
      for (int k = 0; k < repeats * 60; ++k) {
        s = v - s;
        s2 = v - s2;
        s3 = v - s3;
        s4 = v - s4;
      }
      x = (s + s2) + (s3 + s4);
    }
    EXPECT_EQ(got, want) << "Add4";
  }
  const T v1 = 10.0;  // MAdd's v1, v2
  const T v2 = 0.9899;
  {
    auto d = fresh();
    p.kernel<T*, int, T, T>("MAdd1<" + type + ">", t.device).launch(cfg, d, repeats, v1, v2);
    const auto got = d.download();
    mirrored(got, "MAdd1");
    std::vector<T> want(host);
    for (T& s : want) {
      for (int k = 0; k < repeats * 240; ++k) {
        s = v1 - s * v2;
      }
    }
    // s -> 10 - 0.9899 s contracts: a fused multiply-add's rounding fades instead of growing.
    expect_all_near(got, want, 1e-5, 0, "MAdd1");
  }
  if (all_kernels) {
    auto d = fresh();
    p.kernel<T*, int, T, T>("MulMAdd2<" + type + ">", t.device)
        .launch(cfg, d, repeats, T(3.75), T(0.355));
    const auto got = d.download();
    mirrored(got, "MulMAdd2");
    for (const T x : got) {
      ASSERT_TRUE(std::isfinite(x)) << "MulMAdd2";
    }
  }
}

TEST_F(Corpus, Shoc_MaxFlops) {
  const Program p = corpus_program("shoc/src/cuda/level0/MaxFlops.cu");
  check_max_flops<float>(*this, p, "float", true);
  // Add1 and MAdd1 only in double: each kernel is a compile of its own (about 0.3 s here).
  check_max_flops<double>(*this, p, "double", false);
}

}  // namespace
}  // namespace kjit::test
