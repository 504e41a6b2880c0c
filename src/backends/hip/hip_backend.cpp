#include "backends/hip/hip_backend.hpp"

#include "backends/gpu/gpu_enumeration.hpp"
#include "backends/hip/amdgpu_target.hpp"
#include "backends/hip/hip_device.hpp"
#include "backends/hip/hip_errors.hpp"
#include "backends/hip/hip_runtime_api.hpp"
#include "backends/hip/hip_vendor.hpp"
#include "backends/hip/hiprtc_api.hpp"
#include "backends/hip/hiprtc_compiler.hpp"
#include "backends/llvm/bitcode_compilers.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <vector>

namespace kjit::hip {

namespace {

struct Found {
  DeviceInfo info;
  AmdgpuTarget target;
};

/// gcnArchName, read from hipDeviceProp_t in the layout of whichever call the runtime has.
std::string gcn_arch_name(const HipApi& api, int ordinal) {
  std::vector<char> props(kPropsBufferSize, 0);
  const bool r0600 = api.hipGetDevicePropertiesR0600 != nullptr;
  const hipError_t r = r0600 ? api.hipGetDevicePropertiesR0600(props.data(), ordinal)
                             : api.hipGetDeviceProperties(props.data(), ordinal);
  check(api, r, r0600 ? "hipGetDevicePropertiesR0600" : "hipGetDeviceProperties",
        fmt::format("hip:{}", ordinal));
  const char* field =
      props.data() + (r0600 ? kPropsGcnArchNameOffsetR0600 : kPropsGcnArchNameOffsetR0000);
  return {field, strnlen(field, kPropsGcnArchNameSize)};
}

Found describe(const HipApi& api, int ordinal) {
  const std::string where = fmt::format("hip:{}", ordinal);
  hipDevice_t device = 0;
  check(api, api.hipDeviceGet(&device, ordinal), "hipDeviceGet", where);
  std::array<char, 256> name{};
  check(api, api.hipDeviceGetName(name.data(), static_cast<int>(name.size()) - 1, device),
        "hipDeviceGetName", where);
  std::size_t memory = 0;
  check(api, api.hipDeviceTotalMem(&memory, device), "hipDeviceTotalMem", where);
  const auto u = [&](hipDeviceAttribute_t a) {
    int value = 0;
    check(api, api.hipDeviceGetAttribute(&value, a, ordinal), "hipDeviceGetAttribute", where);
    return static_cast<std::uint32_t>(value);
  };
  const std::string arch = gcn_arch_name(api, ordinal);
  Found f;
  f.target = device_amdgpu_target(arch);
  f.info = gpu::device_info<HipVendor>(ordinal, name.data(), memory, u);
  f.info.arch = arch;
  f.info.max_shared_bytes = u(hipDeviceAttributeMaxSharedMemoryPerBlock);
  return f;
}

class HipBackend : public backend::Backend {
 public:
  using ApiSource = const HipApi* (*)(std::string& why);
  explicit HipBackend(ApiSource source) : source_(source) {}

  [[nodiscard]] BackendKind kind() const override { return BackendKind::hip; }

  std::vector<DeviceInfo> enumerate() override {
    devices_.clear();
    api_ = source_(devices_.reason());  // the runtime is opened here, not when kjit starts
    if (api_ == nullptr) {
      return {};
    }
    const hipError_t r = api_->hipInit(0);
    if (r != hipSuccess) {
      devices_.reason() =
          fmt::format("the HIP runtime finds no AMD GPU (hipInit: {})", describe_result(*api_, r));
      return {};
    }
    int count = 0;
    const hipError_t c = api_->hipGetDeviceCount(&count);
    if (c != hipSuccess && c != hipErrorNoDevice) {
      devices_.reason() = "hipGetDeviceCount failed: " + describe_result(*api_, c);
      return {};
    }
    return devices_.describe_devices(
        count, [this](int i) { return describe(*api_, i); }, "the HIP runtime finds no AMD GPU");
  }

  [[nodiscard]] std::string unavailable_reason() const override { return devices_.reason(); }

  std::unique_ptr<backend::Device> open(int ordinal) override {
    const Found& f = devices_.at(ordinal, api_ != nullptr, "hip");
    return std::make_unique<HipDevice>(*api_, ordinal, f.info, f.target);
  }

  std::unique_ptr<backend::Compiler> offline_compiler(const std::string& arch) override {
    const AmdgpuTarget target = parse_amdgpu_target(arch);  // ConfigError
    std::string why;
    const HiprtcApi* hiprtc = hiprtc_api(why);
    if (hiprtc == nullptr) {
      throw BackendError(fmt::format("kjit: cannot compile for hip:{}: {}", arch, why));
    }
    return std::make_unique<HiprtcCompiler>(*hiprtc, target, "hip:" + target.id());
  }

  std::unique_ptr<backend::Compiler> offline_bitcode_compiler(const std::string& arch) override {
    const AmdgpuTarget target = parse_amdgpu_target(arch);  // ConfigError
    return bitcode::amdgpu_compiler({target.processor, target.sramecc, target.xnack},
                                    "hip:" + target.id(), "hip:" + target.id());
  }

 private:
  ApiSource source_;
  const HipApi* api_ = nullptr;
  gpu::Enumeration<Found> devices_;
};

}  // namespace

std::unique_ptr<backend::Backend> create_backend(const HipApi* (*api)(std::string& why)) {
  return std::make_unique<HipBackend>(api);
}

std::unique_ptr<backend::Backend> create_backend() {
  return create_backend(&hip_api);
}

}  // namespace kjit::hip
