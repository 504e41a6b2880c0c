// saxpy (y = a*x + y) over 2^24 floats in chunks, each chunk's upload, kernel and download queued
// on one of several streams from page-locked host memory, so that one chunk's copies overlap
// another's kernel on a GPU. A last stream waits on every stream's end event; events time the
// whole. Runs once on one stream and once on the chosen number, checks every value against the
// host, and prints the device, the build and both times.
#include <kjit/kjit.hpp>

#include <CLI/CLI.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "../common/report.hpp"

namespace {

struct Run {
  double ms = 0;
  std::size_t wrong = 0;
};

Run run(const kjit::Device& device, const kjit::Kernel<float, const float*, float*, int>& saxpy,
        const std::vector<float>& x, const std::vector<float>& y, float a, int streams,
        int chunks) {
  const std::size_t n = x.size();
  const std::size_t chunk = n / static_cast<std::size_t>(chunks);
  kjit::HostBuffer<float> hx = device.alloc_host<float>(n);
  kjit::HostBuffer<float> hy = device.alloc_host<float>(n);
  std::copy(x.begin(), x.end(), hx.data());
  std::copy(y.begin(), y.end(), hy.data());

  std::vector<kjit::Stream> queues;
  std::vector<kjit::DeviceBuffer<float>> dx;
  std::vector<kjit::DeviceBuffer<float>> dy;
  for (int s = 0; s < streams; ++s) {
    queues.push_back(device.create_stream());
    dx.push_back(device.alloc<float>(chunk));  // reused by the stream's chunks, in its order
    dy.push_back(device.alloc<float>(chunk));
  }
  const kjit::Stream joined = device.create_stream();
  const kjit::Event start = joined.record();
  for (const kjit::Stream& q : queues) {
    q.wait(start);
  }
  for (int c = 0; c < chunks; ++c) {
    const auto s = static_cast<std::size_t>(c % streams);
    const std::size_t offset = static_cast<std::size_t>(c) * chunk;
    dx[s].upload(std::span<const float>(hx.data() + offset, chunk), queues[s]);
    dy[s].upload(std::span<const float>(hy.data() + offset, chunk), queues[s]);
    saxpy.launch(queues[s], kjit::LaunchConfig::for_elements(chunk), a, dx[s], dy[s],
                 static_cast<int>(chunk));
    dy[s].download(std::span<float>(hy.data() + offset, chunk), queues[s]);
  }
  for (const kjit::Stream& q : queues) {
    joined.wait(q.record());  // the joined stream goes on once every stream is done
  }
  const kjit::Event end = joined.record();
  end.synchronize();
  Run r;
  r.ms = kjit::Event::elapsed_ms(start, end);
  for (std::size_t i = 0; i < n; ++i) {
    const float want = a * x[i] + y[i];
    r.wrong += std::fabs(hy.data()[i] - want) > 1e-5F * (1.0F + std::fabs(want)) ? 1 : 0;
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"saxpy in chunks on several streams with kjit, timed with events."};
  int log2_n = 24;
  int streams = 4;
  int chunks = 16;
  std::string device_spec;
  app.add_option("--log2-n", log2_n, "2^N elements")->check(CLI::Range(4, 28));
  app.add_option("--streams", streams, "streams to spread the chunks over")
      ->check(CLI::Range(1, 32));
  app.add_option("--chunks", chunks, "chunks (a power of two)")->check(CLI::Range(1, 1024));
  app.add_option("--device", device_spec, examples::kDeviceHelp);
  CLI11_PARSE(app, argc, argv);
  if ((chunks & (chunks - 1)) != 0 || chunks > (1 << log2_n)) {
    std::fprintf(stderr, "saxpy_streams: --chunks must be a power of two, at most 2^N\n");
    return 2;
  }
  try {
    const kjit::Device device = examples::select_device(device_spec);
    auto saxpy = kjit::Program::from_embedded("saxpy.cu")
                     .kernel<float, const float*, float*, int>("saxpy", device);
    examples::print_builds();
    const std::size_t n = std::size_t{1} << log2_n;
    std::mt19937 random(7);
    std::uniform_real_distribution<float> value(-100.0F, 100.0F);
    std::vector<float> x(n);
    std::vector<float> y(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = value(random);
      y[i] = value(random);
    }
    const Run one = run(device, saxpy, x, y, 2.5F, 1, chunks);
    const Run many = run(device, saxpy, x, y, 2.5F, streams, chunks);
    std::printf(
        "saxpy:    2^%d floats in %d chunks: 1 stream %.2f ms, %d streams %.2f ms (%.2fx)\n",
        log2_n, chunks, one.ms, streams, many.ms, one.ms / many.ms);
    const bool right = one.wrong == 0 && many.wrong == 0;
    std::printf("verify:   %s (%zu and %zu values wrong)\n",
                right ? "every value equals the host's" : "MISMATCH", one.wrong, many.wrong);
    return right ? 0 : 1;
  } catch (const kjit::Error& e) {
    std::fprintf(stderr, "saxpy_streams: %s\n", e.what());
    return 1;
  }
}
