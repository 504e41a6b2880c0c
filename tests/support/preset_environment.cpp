// Sets environment variables before main() for a test binary whose every run needs them:
// KJIT_TEST_PRESET is "NAME=VALUE NAME=VALUE" (values without spaces). Tests found by
// gtest_discover_tests cannot be given more than one variable through CTest (its PROPERTIES are a
// flat list, split at every ';').
#include <cstdlib>
#include <sstream>
#include <string>

namespace {

const bool kPreset = [] {
  std::istringstream list(KJIT_TEST_PRESET);
  for (std::string item; list >> item;) {
    const auto eq = item.find('=');
    if (eq != std::string::npos) {
      setenv(item.substr(0, eq).c_str(), item.substr(eq + 1).c_str(), 1);
    }
  }
  return true;
}();

}  // namespace
