// A pipeline of four kernels from three sources on one stream, timed stage by stage with events:
//   1. heat diffusion on a square plate, its top edge held at 100 degrees: Jacobi steps
//      (kernels/stencil2d.cu), ping-ponging between two buffers;
//   2. the total heat (reduce_sum<float>, kernels/reduction.cu: shared memory, barriers, atomics);
//   3. temperatures quantized to bytes (examples/pipeline/quantize.cu);
//   4. their 256-bin histogram (histogram256, kernels/reduction.cu).
// Each stage is checked on the host: the plate against the same steps run on the host, the sum
// and the histogram against the host's of the device's plate.
#include <kjit/kjit.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

#include "../common/report.hpp"

namespace {

/// The same Jacobi steps on the host.
std::vector<float> host_plate(std::vector<float> a, int side, int steps) {
  std::vector<float> b = a;
  for (int s = 0; s < steps; ++s) {
    for (int y = 0; y < side; ++y) {
      for (int x = 0; x < side; ++x) {
        const int i = y * side + x;
        b[i] = (x == 0 || y == 0 || x == side - 1 || y == side - 1)
                   ? a[i]
                   : 0.25F * (a[i - 1] + a[i + 1] + a[i - side] + a[i + side]);
      }
    }
    std::swap(a, b);
  }
  return a;
}

unsigned char host_quantize(float t) {
  const int q = static_cast<int>(t * 2.55F);
  return static_cast<unsigned char>(std::clamp(q, 0, 255));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"A four-kernel pipeline with kjit: diffusion, sum, quantization, histogram."};
  int side = 1024;
  int steps = 500;
  std::string device_spec;
  app.add_option("--side", side, "the plate is side x side points")->check(CLI::Range(16, 8192));
  app.add_option("--steps", steps, "Jacobi steps")->check(CLI::Range(1, 100000));
  app.add_option("--device", device_spec, examples::kDeviceHelp);
  CLI11_PARSE(app, argc, argv);
  try {
    const kjit::Device device = examples::select_device(device_spec);
    const kjit::Program stencil = kjit::Program::from_embedded("stencil2d.cu");
    const kjit::Program reduction = kjit::Program::from_embedded("reduction.cu");
    auto jacobi = stencil.kernel<const float*, float*, int, int>("jacobi2d", device);
    auto sum = reduction.kernel<const float*, float*, int>("reduce_sum", device);
    auto histogram =
        reduction.kernel<const unsigned char*, int, unsigned int*>("histogram256", device);
    auto quantize = kjit::Program::from_embedded("quantize.cu")
                        .kernel<const float*, unsigned char*, int>("quantize", device);
    examples::print_builds();

    const int n = side * side;
    std::vector<float> plate(static_cast<std::size_t>(n), 0.0F);
    std::fill(plate.begin(), plate.begin() + side, 100.0F);  // the hot top edge
    const kjit::Stream stream = device.create_stream();
    kjit::DeviceBuffer<float> a = device.upload(plate);
    kjit::DeviceBuffer<float> b = device.upload(plate);
    kjit::DeviceBuffer<float> total = device.upload(std::vector<float>{0.0F});
    kjit::DeviceBuffer<unsigned char> bytes = device.alloc<unsigned char>(n);
    kjit::DeviceBuffer<unsigned int> bins = device.upload(std::vector<unsigned int>(256, 0));

    const auto tiles = static_cast<std::uint32_t>((side + 15) / 16);
    const kjit::LaunchConfig grid2d{{tiles, tiles, 1}, {16, 16, 1}};
    const kjit::LaunchConfig elements = kjit::LaunchConfig::for_elements(n);
    std::array<kjit::Event, 5> at;
    at[0] = stream.record();
    for (int s = 0; s < steps; ++s) {
      jacobi.launch(stream, grid2d, a, b, side, side);
      std::swap(a, b);
    }
    at[1] = stream.record();
    sum.launch(stream, kjit::LaunchConfig{{128, 1, 1}, {256, 1, 1}}, a, total, n);
    at[2] = stream.record();
    quantize.launch(stream, elements, a, bytes, n);
    at[3] = stream.record();
    histogram.launch(stream, kjit::LaunchConfig{{64, 1, 1}, {256, 1, 1}}, bytes, n, bins);
    at[4] = stream.record();
    stream.synchronize();

    const std::vector<float> device_plate = a.download();
    const std::vector<float> expected = host_plate(plate, side, steps);
    float worst = 0;
    for (int i = 0; i < n; ++i) {
      worst = std::max(worst, std::fabs(device_plate[i] - expected[i]));
    }
    double heat = 0;
    std::array<unsigned int, 256> host_bins{};
    for (const float t : device_plate) {
      heat += t;
      ++host_bins[host_quantize(t)];
    }
    const float device_heat = total.download()[0];
    const std::vector<unsigned int> device_bins = bins.download();
    const bool plate_ok = worst <= 1e-4F;
    const bool heat_ok = std::fabs(device_heat - heat) <= 1e-4 * std::max(1.0, heat);
    const bool bins_ok = std::equal(host_bins.begin(), host_bins.end(), device_bins.begin());
    const char* names[] = {"diffusion", "sum", "quantize", "histogram"};
    for (int s = 0; s < 4; ++s) {
      std::printf("stage:    %-9s %8.2f ms on %s\n", names[s],
                  kjit::Event::elapsed_ms(at[s], at[s + 1]), device.info().id().c_str());
    }
    std::printf(
        "result:   %dx%d plate, %d steps: total heat %.1f, %u points above 50 degrees\n", side,
        side, steps, device_heat,
        std::accumulate(device_bins.begin() + host_quantize(50.0F) + 1, device_bins.end(), 0U));
    std::printf("verify:   plate %s (worst %.2g), sum %s, histogram %s\n",
                plate_ok ? "equals the host's" : "MISMATCH", worst, heat_ok ? "right" : "MISMATCH",
                bins_ok ? "equals the host's" : "MISMATCH");
    return plate_ok && heat_ok && bins_ok ? 0 : 1;
  } catch (const kjit::Error& e) {
    std::fprintf(stderr, "pipeline: %s\n", e.what());
    return 1;
  }
}
