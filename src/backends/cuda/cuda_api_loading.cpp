// Opens libcuda.so.1 and libnvrtc once per process and fills their symbol tables.
#include "backends/cuda/cuda_driver_api.hpp"
#include "backends/cuda/nvrtc_api.hpp"
#include "support/dynamic_library.hpp"

#include <memory>
#include <mutex>

namespace kjit::cuda {

namespace {

template <class Api>
struct Loaded {
  std::unique_ptr<backend::DynamicLibrary> library;
  std::unique_ptr<Api> api;
  std::string why;
};

}  // namespace

const DriverApi* driver_api(std::string& why) {
  static const Loaded<DriverApi>* const loaded = [] {
    auto* l = new Loaded<DriverApi>();  // kept for the process's lifetime
    l->library = backend::DynamicLibrary::open({"libcuda.so.1"}, l->why);
    if (!l->library) {
      l->why = "no NVIDIA driver (" + l->why + ")";
      return l;
    }
    auto api = std::make_unique<DriverApi>();
    std::vector<backend::SymbolEntry> entries;
#define KJIT_CUDA_DRIVER_ENTRY(member, symbol, fallback, required, result, params) \
  entries.push_back({symbol, fallback, reinterpret_cast<void**>(&api->member), required});
    KJIT_CUDA_DRIVER_FUNCTIONS(KJIT_CUDA_DRIVER_ENTRY)
#undef KJIT_CUDA_DRIVER_ENTRY
    if (backend::load_symbols(*l->library, entries, l->why)) {
      l->api = std::move(api);
    }
    return l;
  }();
  why = loaded->why;
  return loaded->api.get();
}

const std::vector<std::string>& nvrtc_library_names() {
  static const std::vector<std::string> names{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
  return names;
}

const NvrtcApi* nvrtc_api(std::string& why) {
  static const Loaded<NvrtcApi>* const loaded = [] {
    auto* l = new Loaded<NvrtcApi>();
    l->library = backend::DynamicLibrary::open(nvrtc_library_names(), l->why);
    if (!l->library) {
      l->why = "NVRTC is not installed (" + l->why + ")";
      return l;
    }
    auto api = std::make_unique<NvrtcApi>();
    std::vector<backend::SymbolEntry> entries;
#define KJIT_NVRTC_ENTRY(member, required, result, params) \
  entries.push_back({#member, nullptr, reinterpret_cast<void**>(&api->member), required});
    KJIT_NVRTC_FUNCTIONS(KJIT_NVRTC_ENTRY)
#undef KJIT_NVRTC_ENTRY
    if (backend::load_symbols(*l->library, entries, l->why)) {
      api->library = l->library->name();
      api->build = l->library->file_identity();
      api->file = l->library->checked_file();
      api->nvrtcVersion(&api->major, &api->minor);
      l->api = std::move(api);
    }
    return l;
  }();
  why = loaded->why;
  return loaded->api.get();
}

}  // namespace kjit::cuda
