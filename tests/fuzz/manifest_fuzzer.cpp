// libFuzzer target: the manifest reader (kjit-warm's input). Any text either gives builds or a
// kjit::Error naming the manifest; nothing else escapes, nothing crashes.
#include "core/tooling/manifest.hpp"

#include <kjit/error.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto builds = kjit::detail::parse_manifest(text, "fuzz.json");
    for (const auto& b : builds) {
      if (b.request.kernel_names.empty() ||
          b.request.kernel_names.size() != b.request.kernel_signatures.size()) {
        std::abort();  // the reader refuses builds without kernels
      }
    }
  } catch (const kjit::Error& e) {
    if (std::string(e.what()).find("fuzz.json") == std::string::npos) {
      std::abort();  // every error names the manifest
    }
  }
  return 0;
}
