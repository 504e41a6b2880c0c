// A vendor library's table of functions (the CUDA driver, NVRTC, the HIP runtime, hipRTC), opened
// once per process: the first library of a list that loads, its symbols, and what the vendor
// reads from it afterwards. Each vendor's <vendor>_api_loading.cpp names its libraries and
// symbols.
#pragma once

#include "support/dynamic_library.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::gpu {

/// A loaded table, or why there is none. Made once and never freed: the vendor's functions stay
/// callable until the process ends.
template <class Api>
struct LoadedApi {
  std::unique_ptr<backend::DynamicLibrary> library;
  std::unique_ptr<backend::DynamicLibrary> helper;  // a second library some need (comgr)
  std::unique_ptr<Api> api;
  std::string why;

  /// The table, or nullptr and `why_not` says why.
  const Api* get(std::string& why_not) const {
    why_not = why;
    return api.get();
  }
};

/// Opens the first of `names` that loads and fills a new Api: `symbols(api)` lists its entries
/// (SymbolEntry), then `finish(opened, api)` reads what else the table keeps; false when the
/// library cannot be used, with `opened.why` saying why. `absent` says what is missing when no
/// name loads: "no NVIDIA driver".
template <class Api, class Symbols, class Finish>
const LoadedApi<Api>* load_api(const std::vector<std::string>& names, std::string_view absent,
                               Symbols symbols, Finish finish) {
  auto* loaded = new LoadedApi<Api>();  // kept for the process's lifetime
  loaded->library = backend::DynamicLibrary::open(names, loaded->why);
  if (!loaded->library) {
    loaded->why = std::string(absent) + " (" + loaded->why + ")";
    return loaded;
  }
  auto api = std::make_unique<Api>();
  if (backend::load_symbols(*loaded->library, symbols(*api), loaded->why) &&
      finish(*loaded, *api)) {
    loaded->api = std::move(api);
  }
  return loaded;
}

/// The same for a table that needs nothing more than its symbols.
template <class Api, class Symbols>
const LoadedApi<Api>* load_api(const std::vector<std::string>& names, std::string_view absent,
                               Symbols symbols) {
  return load_api<Api>(names, absent, symbols, [](LoadedApi<Api>&, Api&) { return true; });
}

}  // namespace kjit::gpu
