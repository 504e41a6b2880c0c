#include "backends/cuda/cuda_backend.hpp"

#include "backends/cuda/cuda_device.hpp"
#include "backends/cuda/cuda_driver_api.hpp"
#include "backends/cuda/cuda_errors.hpp"
#include "backends/cuda/cuda_vendor.hpp"
#include "backends/cuda/nvrtc_api.hpp"
#include "backends/cuda/nvrtc_compiler.hpp"
#include "backends/gpu/gpu_enumeration.hpp"
#include "backends/llvm/bitcode_compilers.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <string_view>

namespace kjit::cuda {

namespace {

struct Found {
  CUdevice device = 0;
  DeviceInfo info;
  int arch = 0;
};

int attribute(const DriverApi& api, CUdevice d, CUdevice_attribute a) {
  int value = 0;
  check(api, api.cuDeviceGetAttribute(&value, a, d), "cuDeviceGetAttribute", "enumerating devices");
  return value;
}

Found describe(const DriverApi& api, int ordinal) {
  Found f;
  check(api, api.cuDeviceGet(&f.device, ordinal), "cuDeviceGet", fmt::format("cuda:{}", ordinal));
  std::array<char, 256> name{};
  check(api, api.cuDeviceGetName(name.data(), static_cast<int>(name.size()), f.device),
        "cuDeviceGetName", fmt::format("cuda:{}", ordinal));
  std::size_t memory = 0;
  check(api, api.cuDeviceTotalMem(&memory, f.device), "cuDeviceTotalMem",
        fmt::format("cuda:{}", ordinal));
  const auto u = [&](CUdevice_attribute a) {
    return static_cast<std::uint32_t>(attribute(api, f.device, a));
  };
  f.arch = 10 * attribute(api, f.device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) +
           attribute(api, f.device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  f.info = gpu::device_info<CudaVendor>(ordinal, name.data(), memory, u);
  f.info.arch = fmt::format("sm_{}", f.arch);
  // With kjit's automatic opt-in, a block may use what the device allows, not only 48 KiB.
  f.info.max_shared_bytes = std::max(u(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
                                     u(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
  return f;
}

class CudaBackend : public backend::Backend {
 public:
  [[nodiscard]] BackendKind kind() const override { return BackendKind::cuda; }

  std::vector<DeviceInfo> enumerate() override {
    devices_.clear();
    api_ = driver_api(devices_.reason());
    if (api_ == nullptr) {
      return {};
    }
    const CUresult r = api_->cuInit(0);
    if (r == CUDA_ERROR_STUB_LIBRARY) {
      devices_.reason() =
          "libcuda.so.1 is CUDA's stub library, not a driver: no NVIDIA driver is installed";
      return {};
    }
    if (r == CUDA_ERROR_NO_DEVICE) {
      devices_.reason() = "the NVIDIA driver finds no CUDA device";
      return {};
    }
    if (r != CUDA_SUCCESS) {
      devices_.reason() = "cuInit failed: " + describe_result(api_, r);
      return {};
    }
    int count = 0;
    api_->cuDeviceGetCount(&count);
    return devices_.describe_devices(
        count, [this](int i) { return describe(*api_, i); },
        "the NVIDIA driver finds no CUDA device");
  }

  [[nodiscard]] std::string unavailable_reason() const override { return devices_.reason(); }

  std::unique_ptr<backend::Device> open(int ordinal) override {
    const Found& f = devices_.at(ordinal, api_ != nullptr, "cuda");
    return std::make_unique<CudaDevice>(*api_, f.device, f.info, f.arch);
  }

  std::unique_ptr<backend::Compiler> offline_compiler(const std::string& arch) override {
    std::string why;
    const NvrtcApi* nvrtc = nvrtc_api(why);
    if (nvrtc == nullptr) {
      throw BackendError(fmt::format("kjit: cannot compile for cuda:{}: {}", arch, why));
    }
    const NvrtcTarget target = parse_target(*nvrtc, arch);  // ConfigError now, not at compile
    return std::make_unique<NvrtcCompiler>([nvrtc]() -> const NvrtcApi& { return *nvrtc; },
                                           [target](const NvrtcApi&) { return target; },
                                           "cuda:" + arch);
  }

  std::unique_ptr<backend::Compiler> offline_bitcode_compiler(const std::string& arch) override {
    // Bitcode always becomes PTX: "sm_90" and "compute_90" ask for the same.
    std::string_view digits(arch);
    if (!digits.starts_with("sm_") && !digits.starts_with("compute_")) {
      digits = {};
    } else {
      digits.remove_prefix(digits.find('_') + 1);
    }
    int number = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() ||
        number < 20) {
      throw ConfigError(fmt::format(
          "kjit: 'cuda:{}' is not a CUDA target: write sm_XY or compute_XY, e.g. cuda:sm_90",
          arch));
    }
    return bitcode::nvptx_compiler(number, "cuda:sm_" + std::string(digits), "cuda:" + arch);
  }

 private:
  const DriverApi* api_ = nullptr;
  gpu::Enumeration<Found> devices_;
};

}  // namespace

std::unique_ptr<backend::Backend> create_backend() {
  return std::make_unique<CudaBackend>();
}

}  // namespace kjit::cuda
