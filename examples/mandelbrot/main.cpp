// kjit's main demo: renders the Mandelbrot set with one kernel source on the selected device
// (KJIT_DEVICE or --device), writes a PNG, and prints the device, the compile time and the
// kernel time. --verify checks every pixel against the same function run on the host.
#include <kjit/kjit.hpp>

#include <png.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "mandelbrot.h"  // kernels/mandelbrot.h, shared with the kernel

namespace {

struct Rgb {
  unsigned char r, g, b;
};

Rgb colour(int iterations, int max_iterations) {
  if (iterations >= max_iterations) {
    return {0, 0, 0};
  }
  const double t = std::sqrt(static_cast<double>(iterations) / max_iterations);
  const auto channel = [](double x) {
    return static_cast<unsigned char>(255.0 * std::clamp(x, 0.0, 1.0));
  };
  return {channel(9 * (1 - t) * t * t * t), channel(15 * (1 - t) * (1 - t) * t * t),
          channel(8.5 * (1 - t) * (1 - t) * (1 - t) * t)};
}

bool write_png(const std::string& path, const std::vector<int>& iterations,
               const MandelbrotView& v) {
  FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    return false;
  }
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
  if (info == nullptr || setjmp(png_jmpbuf(png))) {  // libpng reports errors by longjmp
    png_destroy_write_struct(&png, &info);
    std::fclose(file);
    return false;
  }
  png_init_io(png, file);
  png_set_IHDR(png, info, static_cast<png_uint_32>(v.width), static_cast<png_uint_32>(v.height), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  std::vector<Rgb> row(static_cast<std::size_t>(v.width));
  for (int y = 0; y < v.height; ++y) {
    for (int x = 0; x < v.width; ++x) {
      row[x] = colour(iterations[static_cast<std::size_t>(y) * v.width + x], v.max_iterations);
    }
    png_write_row(png, reinterpret_cast<png_const_bytep>(row.data()));
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return std::fclose(file) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Renders the Mandelbrot set with kjit on the selected device."};
  std::string out = "mandelbrot.png";
  std::string device_spec;
  std::string kernels_dir = KJIT_KERNELS_DIR;
  int width = 1920;
  int height = 1080;
  int max_iterations = 1000;
  bool verify = false;
  app.add_option("-o,--out", out, "PNG file to write");
  app.add_option("-d,--device", device_spec, "device, as KJIT_DEVICE (cpu, cuda:0, ...)");
  app.add_option("--kernels", kernels_dir, "folder holding mandelbrot.cu")
      ->check(CLI::ExistingDirectory);
  app.add_option("--width", width, "image width")->check(CLI::Range(1, 32768));
  app.add_option("--height", height, "image height")->check(CLI::Range(1, 32768));
  app.add_option("--iterations", max_iterations, "iteration limit")->check(CLI::Range(1, 1000000));
  app.add_flag("--verify", verify, "compare every pixel with the host-computed image");
  CLI11_PARSE(app, argc, argv);

  try {
    using clock = std::chrono::steady_clock;
    using ms = std::chrono::duration<double, std::milli>;
    const kjit::Device device =
        device_spec.empty() ? kjit::Device::select() : kjit::Device::select(device_spec);
    const kjit::DeviceInfo& info = device.info();
    std::printf("device:       %s  %s (%s)\n", info.id().c_str(), info.name.c_str(),
                info.arch.c_str());

    const auto t0 = clock::now();
    const auto program =
        kjit::Program::from_file(std::filesystem::path(kernels_dir) / "mandelbrot.cu");
    auto mandelbrot = program.kernel<MandelbrotView, int*>("mandelbrot", device);
    const auto t1 = clock::now();
    std::printf("compile:      %.1f ms\n", ms(t1 - t0).count());

    const float span = 3.0f;  // the whole set, centred
    const MandelbrotView view{
        -2.1f,
        -span * 0.5f * static_cast<float>(height) / static_cast<float>(width) - 0.0f,
        span / static_cast<float>(width),
        width,
        height,
        max_iterations};
    auto image = device.alloc<int>(static_cast<std::size_t>(width) * height);
    const kjit::LaunchConfig config{.grid = {(width + 15U) / 16U, (height + 15U) / 16U, 1},
                                    .block = {16, 16, 1}};
    kjit::Stream stream = device.default_stream();
    mandelbrot.launch(config, view, image);  // the first launch also warms caches and threads
    stream.synchronize();
    const kjit::Event start = stream.record();
    mandelbrot.launch(config, view, image);
    const kjit::Event stop = stream.record();
    stop.synchronize();
    std::printf("kernel:       %.2f ms for %dx%d pixels, %d iterations at most\n",
                kjit::Event::elapsed_ms(start, stop), width, height, max_iterations);

    const std::vector<int> iterations = image.download();
    if (!write_png(out, iterations, view)) {
      std::fprintf(stderr, "cannot write %s\n", out.c_str());
      return 1;
    }
    std::printf("image:        %s\n", out.c_str());

    if (verify) {
      std::size_t wrong = 0;
      for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
          wrong += iterations[static_cast<std::size_t>(y) * width + x] !=
                   mandelbrot_iterations(view, x, y);
        }
      }
      if (wrong != 0) {
        std::printf("verify:       FAILED, %zu of %zu pixels differ from the host image\n", wrong,
                    iterations.size());
        return 1;
      }
      std::printf("verify:       the image equals the host-computed image, all %zu pixels\n",
                  iterations.size());
    }
    return 0;
  } catch (const kjit::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
