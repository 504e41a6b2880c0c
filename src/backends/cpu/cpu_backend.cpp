#include "backends/cpu/cpu_backend.hpp"

#include "backends/cpu/compile/cpu_compiler.hpp"
#include "backends/cpu/compile/cpu_host_target.hpp"
#include "backends/cpu/run/cpu_device.hpp"
#include "support/environment.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <fstream>
#include <string>

namespace kjit::cpu {

namespace {

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos && colon + 2 <= line.size()) {
        return line.substr(colon + 2);
      }
    }
  }
  return "CPU";
}

// Limits: CUDA's, so that a launch that works on the CPU also works on a GPU. 48 KiB of shared
// memory is what CUDA gives a block without an opt-in.
DeviceInfo describe_cpu(unsigned threads) {
  DeviceInfo info;
  info.backend = BackendKind::cpu;
  info.ordinal = 0;
  info.name = fmt::format("{} ({} threads)", cpu_model_name(), threads);
  info.arch = host_target().cpu;
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  info.total_memory = pages > 0 && page > 0 ? std::size_t(pages) * std::size_t(page) : 0;
  info.compute_units = threads;
  info.max_threads_per_block = 1024;
  info.max_block = {1024, 1024, 64};
  info.max_grid = {2147483647U, 65535, 65535};
  info.max_shared_bytes = std::size_t{48} * 1024;
  return info;
}

class CpuBackend : public backend::Backend {
 public:
  [[nodiscard]] BackendKind kind() const override { return BackendKind::cpu; }

  std::vector<DeviceInfo> enumerate() override {
    threads_ = detail::environment::cpu_threads();  // ConfigError for a malformed value
    perf_map_ = detail::environment::perf_map();    // the same
    pin_ = detail::environment::cpu_pin();          // the same
    return {describe_cpu(threads_)};
  }

  [[nodiscard]] std::string unavailable_reason() const override { return {}; }

  std::unique_ptr<backend::Device> open(int ordinal) override {
    if (ordinal != 0) {
      throw DeviceError(fmt::format("kjit: there is no cpu:{}; the CPU is cpu:0", ordinal));
    }
    return std::make_unique<CpuDevice>(describe_cpu(threads_), threads_, perf_map_, pin_);
  }

  std::unique_ptr<backend::Compiler> offline_compiler(const std::string& arch) override {
    if (!arch.empty() && arch != "native") {
      throw ConfigError(fmt::format(
          "kjit: the CPU backend compiles for this host only; target 'cpu:{}' is not supported "
          "(use 'cpu')",
          arch));
    }
    return std::make_unique<CpuCompiler>("cpu");
  }

  std::unique_ptr<backend::Compiler> offline_bitcode_compiler(const std::string& arch) override {
    return offline_compiler(arch);  // one compiler reads both
  }

 private:
  unsigned threads_ = 1;
  bool perf_map_ = false;  // KJIT_PERF_MAP
  bool pin_ = false;       // KJIT_CPU_PIN
};

}  // namespace

std::unique_ptr<backend::Backend> create_backend() {
  return std::make_unique<CpuBackend>();
}

}  // namespace kjit::cpu
