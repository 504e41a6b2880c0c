// Opens libcuda.so.1 and libnvrtc once per process and fills their symbol tables.
#include "backends/cuda/cuda_driver_api.hpp"
#include "backends/cuda/nvrtc_api.hpp"
#include "backends/gpu/gpu_api_loading.hpp"
#include "support/dynamic_library.hpp"

#include <string>
#include <vector>

namespace kjit::cuda {

const DriverApi* driver_api(std::string& why) {
  static const auto* const loaded =
      gpu::load_api<DriverApi>({"libcuda.so.1"}, "no NVIDIA driver", [](DriverApi& api) {
#define KJIT_CUDA_DRIVER_ENTRY(member, symbol, fallback, required, result, params) \
  backend::SymbolEntry{symbol, fallback, reinterpret_cast<void**>(&api.member), required},
        return std::vector{KJIT_CUDA_DRIVER_FUNCTIONS(KJIT_CUDA_DRIVER_ENTRY)};
#undef KJIT_CUDA_DRIVER_ENTRY
      });
  return loaded->get(why);
}

const std::vector<std::string>& nvrtc_library_names() {
  static const std::vector<std::string> names{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
  return names;
}

const NvrtcApi* nvrtc_api(std::string& why) {
  static const auto* const loaded = gpu::load_api<NvrtcApi>(
      nvrtc_library_names(), "NVRTC is not installed",
      [](NvrtcApi& api) {
#define KJIT_NVRTC_ENTRY(member, required, result, params) \
  backend::SymbolEntry{#member, nullptr, reinterpret_cast<void**>(&api.member), required},
        return std::vector{KJIT_NVRTC_FUNCTIONS(KJIT_NVRTC_ENTRY)};
#undef KJIT_NVRTC_ENTRY
      },
      [](gpu::LoadedApi<NvrtcApi>& opened, NvrtcApi& api) {
        // Which NVRTC this is, for cache keys.
        api.library = opened.library->name();
        api.build = opened.library->file_identity();
        api.file = opened.library->checked_file();
        api.nvrtcVersion(&api.major, &api.minor);
        return true;
      });
  return loaded->get(why);
}

}  // namespace kjit::cuda
