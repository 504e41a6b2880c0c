// The corpus's sorting and scan files (tests/corpus/README.md): cuda-samples' sorting networks,
// merge sort and scan, each driven as its own host code drives it (the same kernels, grids and
// passes), on random keys, checked against std::sort and a plain prefix sum.
#include "corpus.hpp"

#include <algorithm>
#include <numeric>

namespace kjit::test {
namespace {

using uint = unsigned int;
constexpr uint kSharedSizeLimit = 1024;  // SHARED_SIZE_LIMIT of both sorting samples

/// Keys and their values (each key's index), as the sorting samples make them.
struct KeyValues {
  std::vector<uint> keys;
  std::vector<uint> values;
};

KeyValues random_keys(Corpus& t, std::size_t n, uint range) {
  KeyValues kv{t.random_vector<uint>(n, 0, range - 1), std::vector<uint>(n)};
  std::iota(kv.values.begin(), kv.values.end(), 0U);
  return kv;
}

/// The samples' validateSortedKeys and validateValues: each batch sorted in `dir` (1: ascending),
/// holding the same keys, and every value still naming its key's place in the input.
void expect_sorted(const KeyValues& in, const std::vector<uint>& keys,
                   const std::vector<uint>& values, uint batch, uint length, uint dir) {
  for (uint b = 0; b < batch; ++b) {
    std::vector<uint> want(in.keys.begin() + b * length, in.keys.begin() + (b + 1) * length);
    std::sort(want.begin(), want.end());
    if (dir == 0) {
      std::reverse(want.begin(), want.end());
    }
    const std::vector<uint> got(keys.begin() + b * length, keys.begin() + (b + 1) * length);
    ASSERT_EQ(got, want) << "batch " << b << " of " << length << " keys";
  }
  for (std::size_t i = 0; i < keys.size(); ++i) {
    ASSERT_LT(values[i], in.keys.size()) << i;
    ASSERT_EQ(in.keys[values[i]], keys[i]) << "value " << i << " lost its key";
  }
}

// ---- sortingNetworks ---------------------------------------------------------------------------

const char* const kBitonic = "2_Concepts_and_Techniques/sortingNetworks/bitonicSort.cu";
const char* const kOddEven = "2_Concepts_and_Techniques/sortingNetworks/oddEvenMergeSort.cu";

using Sort6 = Kernel<uint*, uint*, uint*, uint*, uint, uint>;
using Merge8 = Kernel<uint*, uint*, uint*, uint*, uint, uint, uint, uint>;

/// The sample's bitonicSort(): one shared-memory pass for short arrays; else sorted tiles merged
/// through global and shared memory.
void bitonic_sort(Corpus& t, const Program& p, DeviceBuffer<uint>& dk, DeviceBuffer<uint>& dv,
                  DeviceBuffer<uint>& sk, DeviceBuffer<uint>& sv, uint batch, uint length,
                  uint dir) {
  const uint blocks = batch * length / kSharedSizeLimit;
  const uint threads = kSharedSizeLimit / 2;
  if (length <= kSharedSizeLimit) {
    p.kernel<uint*, uint*, uint*, uint*, uint, uint>("bitonicSortShared", t.device)
        .launch(LaunchConfig{.grid = {blocks}, .block = {threads}}, dk, dv, sk, sv, length, dir);
    return;
  }
  p.kernel<uint*, uint*, uint*, uint*>("bitonicSortShared1", t.device)
      .launch(LaunchConfig{.grid = {blocks}, .block = {threads}}, dk, dv, sk, sv);
  const Merge8 global =
      p.kernel<uint*, uint*, uint*, uint*, uint, uint, uint, uint>("bitonicMergeGlobal", t.device);
  const auto shared =
      p.kernel<uint*, uint*, uint*, uint*, uint, uint, uint>("bitonicMergeShared", t.device);
  for (uint size = 2 * kSharedSizeLimit; size <= length; size <<= 1) {
    for (uint stride = size / 2; stride > 0; stride >>= 1) {
      if (stride >= kSharedSizeLimit) {
        global.launch(LaunchConfig{.grid = {batch * length / 512}, .block = {256}}, dk, dv, dk, dv,
                      length, size, stride, dir);
      } else {
        shared.launch(LaunchConfig{.grid = {blocks}, .block = {threads}}, dk, dv, dk, dv, length,
                      size, dir);
        break;
      }
    }
  }
}

/// The sample's oddEvenMergeSort().
void odd_even_merge_sort(Corpus& t, const Program& p, DeviceBuffer<uint>& dk,
                         DeviceBuffer<uint>& dv, DeviceBuffer<uint>& sk, DeviceBuffer<uint>& sv,
                         uint batch, uint length, uint dir) {
  const uint blocks = batch * length / kSharedSizeLimit;
  const uint threads = kSharedSizeLimit / 2;
  const Sort6 shared =
      p.kernel<uint*, uint*, uint*, uint*, uint, uint>("oddEvenMergeSortShared", t.device);
  shared.launch(LaunchConfig{.grid = {blocks}, .block = {threads}}, dk, dv, sk, sv,
                std::min(length, kSharedSizeLimit), dir);
  const Merge8 global =
      p.kernel<uint*, uint*, uint*, uint*, uint, uint, uint, uint>("oddEvenMergeGlobal", t.device);
  for (uint size = 2 * kSharedSizeLimit; size <= length; size <<= 1) {
    for (uint stride = size / 2; stride > 0; stride >>= 1) {
      global.launch(LaunchConfig{.grid = {batch * length / 512}, .block = {256}}, dk, dv, dk, dv,
                    length, size, stride, dir);
    }
  }
}

template <class Sort>
void check_network(Corpus& t, const Program& p, Sort sort) {
  constexpr uint n = 1U << 16;
  const KeyValues in = random_keys(t, n, 65536);
  for (const uint length : {64U, 1024U, 16384U, n}) {  // the sample tries 64 .. 2^16, both ways
    for (const uint dir : {0U, 1U}) {
      SCOPED_TRACE("length " + std::to_string(length) + ", dir " + std::to_string(dir));
      auto sk = t.device.upload(in.keys);
      auto sv = t.device.upload(in.values);
      auto dk = t.poisoned<uint>(n);
      auto dv = t.poisoned<uint>(n);
      sort(t, p, dk, dv, sk, sv, n / length, length, dir);
      expect_sorted(in, dk.download(), dv.download(), n / length, length, dir);
    }
  }
}

TEST_F(Corpus, BitonicSortNetwork) {
  check_network(*this, sample(kBitonic), bitonic_sort);
}

TEST_F(Corpus, OddEvenMergeSortNetwork) {
  check_network(*this, sample(kOddEven), odd_even_merge_sort);
}

// ---- mergeSort ---------------------------------------------------------------------------------

constexpr uint kSampleStride = 128;  // SAMPLE_STRIDE

uint div_up(uint a, uint b) {
  return (a + b - 1) / b;
}

/// The sample's mergeSort(): sorted tiles of 1024 keys, then per pass sample ranks, their merge
/// into limits, and the merge of elementary intervals. N is a multiple of every pass's 2 * stride,
/// so no pass leaves a tail to copy.
TEST_F(Corpus, MergeSort) {
  const Program p = sample("0_Introduction/mergeSort/mergeSort.cu");
  constexpr uint n = 1U << 17;
  const KeyValues in = random_keys(*this, n, 1U << 20);
  for (const uint dir : {1U, 0U}) {
    SCOPED_TRACE("dir " + std::to_string(dir));
    const std::string d = std::to_string(dir) + "U";
    auto src_k = device.upload(in.keys);
    auto src_v = device.upload(in.values);
    auto dst_k = poisoned<uint>(n);
    auto dst_v = poisoned<uint>(n);
    auto buf_k = poisoned<uint>(n);
    auto buf_v = poisoned<uint>(n);
    const uint max_samples = n / kSampleStride;
    auto ranks_a = poisoned<uint>(max_samples);
    auto ranks_b = poisoned<uint>(max_samples);
    auto limits_a = poisoned<uint>(max_samples);
    auto limits_b = poisoned<uint>(max_samples);

    uint stages = 0;
    for (uint stride = kSharedSizeLimit; stride < n; stride <<= 1) {
      ++stages;
    }
    DeviceBuffer<uint>* ik = (stages & 1) != 0 ? &buf_k : &dst_k;
    DeviceBuffer<uint>* iv = (stages & 1) != 0 ? &buf_v : &dst_v;
    DeviceBuffer<uint>* ok = (stages & 1) != 0 ? &dst_k : &buf_k;
    DeviceBuffer<uint>* ov = (stages & 1) != 0 ? &dst_v : &buf_v;

    p.kernel<uint*, uint*, uint*, uint*, uint>("mergeSortSharedKernel<" + d + ">", device)
        .launch(LaunchConfig{.grid = {n / kSharedSizeLimit}, .block = {kSharedSizeLimit / 2}}, *ik,
                *iv, src_k, src_v, kSharedSizeLimit);
    const auto ranks = p.kernel<uint*, uint*, uint*, uint, uint, uint>(
        "generateSampleRanksKernel<" + d + ">", device);
    const auto limits =
        p.kernel<uint*, uint*, uint, uint, uint>("mergeRanksAndIndicesKernel", device);
    const auto merge = p.kernel<uint*, uint*, uint*, uint*, uint*, uint*, uint, uint>(
        "mergeElementaryIntervalsKernel<" + d + ">", device);
    for (uint stride = kSharedSizeLimit; stride < n; stride <<= 1) {
      ASSERT_EQ(n % (2 * stride), 0U);
      const uint threads = n / (2 * kSampleStride);
      const LaunchConfig per_sample{.grid = {div_up(threads, 256)}, .block = {256}};
      ranks.launch(per_sample, ranks_a, ranks_b, *ik, stride, n, threads);
      limits.launch(per_sample, limits_a, ranks_a, stride, n, threads);
      limits.launch(per_sample, limits_b, ranks_b, stride, n, threads);
      merge.launch(LaunchConfig{.grid = {n / kSampleStride}, .block = {kSampleStride}}, *ok, *ov,
                   *ik, *iv, limits_a, limits_b, stride, n);
      std::swap(ik, ok);
      std::swap(iv, ov);
    }
    expect_sorted(in, dst_k.download(), dst_v.download(), 1, n, dir);
  }
}

/// bitonic.cu: the sample's other way to sort the 1024-key tiles.
TEST_F(Corpus, MergeSortBitonicTiles) {
  const Program p = sample("0_Introduction/mergeSort/bitonic.cu");
  constexpr uint n = 1U << 15;
  const KeyValues in = random_keys(*this, n, 1U << 20);
  for (const uint length : {256U, kSharedSizeLimit}) {
    SCOPED_TRACE("length " + std::to_string(length));
    auto sk = device.upload(in.keys);
    auto sv = device.upload(in.values);
    auto dk = poisoned<uint>(n);
    auto dv = poisoned<uint>(n);
    // bitonicSortShared(): blocks of SHARED_SIZE_LIMIT keys, each sorting its arrays.
    p.kernel<uint*, uint*, uint*, uint*, uint, uint>("bitonicSortSharedKernel", device)
        .launch(LaunchConfig{.grid = {n / kSharedSizeLimit}, .block = {kSharedSizeLimit / 2}}, dk,
                dv, sk, sv, length, 1U);
    expect_sorted(in, dk.download(), dv.download(), n / length, length, 1);
  }
}

// ---- scan --------------------------------------------------------------------------------------

constexpr uint kScanBlock = 256;  // THREADBLOCK_SIZE

/// The sample's exclusive scans of `batch` arrays of `length` keys: scanExclusiveShort for up
/// to 1024 keys, scanExclusiveLarge (three kernels) above.
TEST_F(Corpus, ScanExclusiveShortAndLarge) {
  const Program p = sample("2_Concepts_and_Techniques/scan/scan.cu");
  constexpr uint n = 1U << 18;
  const auto in = random_vector<uint>(n, 0, 1023);
  auto d_in = device.upload(in);
  auto buf = poisoned<uint>(n / (4 * kScanBlock));
  const auto shared = p.kernel<uint*, uint*, uint>("scanExclusiveShared", device);  // uint4*
  for (const uint length : {4U, 64U, 1024U, 2048U, 16384U, n}) {
    SCOPED_TRACE("length " + std::to_string(length));
    const uint batch = n / length;
    auto out = poisoned<uint>(n);
    const LaunchConfig tiles{.grid = {n / (4 * kScanBlock)}, .block = {kScanBlock}};
    if (length <= 4 * kScanBlock) {
      shared.launch(tiles, out, d_in, length);
    } else {
      shared.launch(tiles, out, d_in, 4 * kScanBlock);
      p.kernel<uint*, uint*, uint*, uint, uint>("scanExclusiveShared2", device)
          .launch(LaunchConfig{.grid = {div_up(n / (4 * kScanBlock), kScanBlock)},
                               .block = {kScanBlock}},
                  buf, out, d_in, n / (4 * kScanBlock), length / (4 * kScanBlock));
      p.kernel<uint*, uint*>("uniformUpdate", device).launch(tiles, out, buf);
    }
    const auto got = out.download();
    for (uint b = 0; b < batch; ++b) {  // the sample's scanExclusiveHost
      uint sum = 0;
      for (uint i = b * length; i < (b + 1) * length; ++i) {
        ASSERT_EQ(got[i], sum) << "element " << i;
        sum += in[i];
      }
    }
  }
}

}  // namespace
}  // namespace kjit::test
