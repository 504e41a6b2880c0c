// What the checked-mode catalogues (memory_check_test.cpp, race_check_test.cpp) share: a fixture
// that runs only where the check is on, and the line a marker comment names in a kernel source.
#pragma once

#include "test_support.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace kjit::test {

/// The 1-based line of `source` that ends with the comment `marker` ("// BUG:end_write").
inline int line_of_marker(const std::string& source, const std::string& marker) {
  const auto at = source.find(marker + "\n");
  EXPECT_NE(at, std::string::npos) << marker;
  return 1 + static_cast<int>(std::count(source.begin(), source.begin() + at, '\n'));
}

/// A device test that skips, saying why, unless the device is the CPU and KJIT_CHECK names
/// `check` ("memory" or "race"; CTest sets KJIT_CHECK=memory,race for these programs).
class CheckedTest : public DeviceTest {
 protected:
  void require_check(const std::string& check) {
    const char* checks = std::getenv("KJIT_CHECK");
    if (device.info().backend != BackendKind::cpu || checks == nullptr ||
        std::string(checks).find(check) == std::string::npos) {
      GTEST_SKIP() << "checked mode is the CPU backend's, with KJIT_CHECK=" << check
                   << " (CTest sets it)";
    }
  }
};

}  // namespace kjit::test
