// Opens the HIP runtime, hipRTC and comgr once per process and fills their symbol tables.
#include "backends/gpu/gpu_api_loading.hpp"
#include "backends/hip/hip_runtime_api.hpp"
#include "backends/hip/hiprtc_api.hpp"
#include "support/dynamic_library.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::hip {

namespace {

using ComgrIsaCount = amd_comgr_status_t (*)(size_t*);
using ComgrIsaName = amd_comgr_status_t (*)(size_t, const char**);
using ComgrVersion = void (*)(size_t*, size_t*);

/// The ISAs comgr knows, as "gfx90a" (without "amdgcn-amd-amdhsa--" and without features).
bool read_isas(const backend::DynamicLibrary& comgr, HiprtcApi& api, std::string& why) {
  auto* count = reinterpret_cast<ComgrIsaCount>(comgr.symbol("amd_comgr_get_isa_count"));
  auto* name = reinterpret_cast<ComgrIsaName>(comgr.symbol("amd_comgr_get_isa_name"));
  auto* version = reinterpret_cast<ComgrVersion>(comgr.symbol("amd_comgr_get_version"));
  if (count == nullptr || name == nullptr) {
    why = comgr.name() + " lacks amd_comgr_get_isa_count or amd_comgr_get_isa_name";
    return false;
  }
  size_t n = 0;
  if (count(&n) != AMD_COMGR_STATUS_SUCCESS) {
    why = "amd_comgr_get_isa_count failed";
    return false;
  }
  constexpr std::string_view prefix = "amdgcn-amd-amdhsa--";
  for (size_t i = 0; i < n; ++i) {
    const char* text = nullptr;
    if (name(i, &text) != AMD_COMGR_STATUS_SUCCESS || text == nullptr) {
      continue;
    }
    std::string_view isa = text;
    if (!isa.starts_with(prefix)) {
      continue;
    }
    isa.remove_prefix(prefix.size());
    isa = isa.substr(0, isa.find(':'));
    if (std::find(api.isas.begin(), api.isas.end(), isa) == api.isas.end()) {
      api.isas.emplace_back(isa);
    }
  }
  size_t major = 0;
  size_t minor = 0;
  if (version != nullptr) {
    version(&major, &minor);
  }
  api.comgr = fmt::format("{} {}.{}", comgr.name(), major, minor);
  return true;
}

/// The comgr hipRTC already loaded (same soname, so the same copy), else the newest installed.
std::unique_ptr<backend::DynamicLibrary> open_comgr(std::string& why) {
  const std::vector<std::string>& names = comgr_library_names();
  for (const std::string& name : names) {
    if (auto loaded = backend::DynamicLibrary::already_loaded(name)) {
      return loaded;
    }
  }
  return backend::DynamicLibrary::open(names, why);
}

/// hipRTC's comgr and what it reads there (the ISAs it knows), and which hipRTC this is.
bool read_comgr(gpu::LoadedApi<HiprtcApi>& opened, HiprtcApi& api) {
  std::string comgr_why;
  opened.helper = open_comgr(comgr_why);
  if (!opened.helper) {
    opened.why = "hipRTC's compiler library comgr cannot be opened (" + comgr_why +
                 "), so kjit cannot tell which GPUs hipRTC supports";
    return false;
  }
  if (!read_isas(*opened.helper, api, opened.why)) {
    return false;
  }
  api.library = opened.library->name();
  api.build = opened.library->file_identity();
  api.files = {opened.library->checked_file(), opened.helper->checked_file()};
  api.hiprtcVersion(&api.major, &api.minor);
  return true;
}

}  // namespace

const HipApi* hip_api(std::string& why) {
  static const auto* const loaded = gpu::load_api<HipApi>(
      std::vector<std::string>(std::begin(kHipLibraries), std::end(kHipLibraries)),
      "the HIP runtime is not installed",
      [](HipApi& api) {
#define KJIT_HIP_ENTRY(member, symbol, required, result, params) \
  backend::SymbolEntry{symbol, nullptr, reinterpret_cast<void**>(&api.member), required},
        return std::vector{KJIT_HIP_FUNCTIONS(KJIT_HIP_ENTRY)};
#undef KJIT_HIP_ENTRY
      },
      [](gpu::LoadedApi<HipApi>& opened, HipApi& api) {
        if (api.hipGetDeviceProperties == nullptr && api.hipGetDevicePropertiesR0600 == nullptr) {
          opened.why = opened.library->name() +
                       " has neither hipGetDeviceProperties nor hipGetDevicePropertiesR0600";
          return false;
        }
        api.library = opened.library->name();
        return true;
      });
  return loaded->get(why);
}

const std::vector<std::string>& hiprtc_library_names() {
  // ROCm 6 and later ship hipRTC on its own; ROCm 5 has it inside the runtime.
  static const std::vector<std::string> names{"libhiprtc.so.7", "libhiprtc.so.6", "libhiprtc.so",
                                              "libamdhip64.so.5"};
  return names;
}

const std::vector<std::string>& comgr_library_names() {
  static const std::vector<std::string> names{"libamd_comgr.so.3", "libamd_comgr.so.2"};
  return names;
}

const HiprtcApi* hiprtc_api(std::string& why) {
  static const auto* const loaded = gpu::load_api<HiprtcApi>(
      hiprtc_library_names(), "hipRTC is not installed",
      [](HiprtcApi& api) {
#define KJIT_HIPRTC_ENTRY(member, required, result, params) \
  backend::SymbolEntry{#member, nullptr, reinterpret_cast<void**>(&api.member), required},
        return std::vector{KJIT_HIPRTC_FUNCTIONS(KJIT_HIPRTC_ENTRY)};
#undef KJIT_HIPRTC_ENTRY
      },
      read_comgr);
  return loaded->get(why);
}

}  // namespace kjit::hip
