// Sorts 2^24 random 32-bit keys on the selected device with a bitonic sort (kernels/
// bitonic_sort.cu, one launch per compare-and-swap step), checks the result against std::sort of
// the same keys, and prints the device, the build, and both times.
#include <kjit/kjit.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "../common/report.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Bitonic sort of random keys with kjit, checked against std::sort."};
  int log2_keys = 24;
  std::string device_spec;
  app.add_option("--log2-keys", log2_keys, "sort 2^N keys")->check(CLI::Range(1, 28));
  app.add_option("--device", device_spec, examples::kDeviceHelp);
  CLI11_PARSE(app, argc, argv);
  try {
    const kjit::Device device = examples::select_device(device_spec);
    const int n = 1 << log2_keys;
    std::mt19937 random(2026);
    std::vector<std::uint32_t> keys(static_cast<std::size_t>(n));
    for (auto& k : keys) {
      k = random();
    }

    auto step = kjit::Program::from_embedded("bitonic_sort.cu")
                    .kernel<std::uint32_t*, int, int, int>("bitonic_step", device);
    examples::print_builds();
    kjit::DeviceBuffer<std::uint32_t> d_keys = device.upload(keys);
    const kjit::Stream stream = device.create_stream();
    const kjit::LaunchConfig config = kjit::LaunchConfig::for_elements(static_cast<std::size_t>(n));
    const kjit::Event start = stream.record();
    int launches = 0;
    for (int k = 2; k <= n; k *= 2) {
      for (int j = k / 2; j > 0; j /= 2) {
        step.launch(stream, config, d_keys, n, j, k);
        ++launches;
      }
    }
    const kjit::Event end = stream.record();
    end.synchronize();
    const double device_ms = kjit::Event::elapsed_ms(start, end);
    const std::vector<std::uint32_t> sorted = d_keys.download();

    const auto host_start = std::chrono::steady_clock::now();
    std::sort(keys.begin(), keys.end());
    const double host_ms = examples::ms_since(host_start);
    const bool equal = sorted == keys;
    std::printf(
        "sort:     2^%d keys, %d launches in %.1f ms on %s; std::sort %.1f ms on the host\n",
        log2_keys, launches, device_ms, device.info().id().c_str(), host_ms);
    std::printf("verify:   %s\n",
                equal ? "the keys equal std::sort's" : "MISMATCH against std::sort");
    return equal ? 0 : 1;
  } catch (const kjit::Error& e) {
    std::fprintf(stderr, "bitonic_sort: %s\n", e.what());
    return 1;
  }
}
