// Helpers shared by the test suites: the device under test, kernel paths, seeded random inputs
// and poisoned outputs.
#pragma once

#include <kjit/kjit.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>

// KJIT_TEST_SANITIZED: a build under AddressSanitizer or ThreadSanitizer (scripts/sanitize.sh);
// KJIT_TEST_THREAD_SANITIZER: under ThreadSanitizer.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define KJIT_TEST_THREAD_SANITIZER 1
#endif
#if __has_feature(address_sanitizer)
#define KJIT_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define KJIT_TEST_THREAD_SANITIZER 1
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(KJIT_TEST_THREAD_SANITIZER)
#define KJIT_TEST_SANITIZED 1
#endif
#include <vector>

namespace kjit::test {

/// The repository: KJIT_TEST_SOURCE_DIR when set (test programs carried to another machine),
/// else where they were built from.
inline std::filesystem::path source_dir() {
  const char* moved = std::getenv("KJIT_TEST_SOURCE_DIR");
  return moved != nullptr && *moved != '\0' ? moved : KJIT_SOURCE_DIR;
}

/// A file of the repository's kernels/ folder.
inline std::filesystem::path kernel_path(const std::string& name) {
  return source_dir() / "kernels" / name;
}

/// A file of tests/kernels/.
inline std::filesystem::path test_kernel_path(const std::string& name) {
  return source_dir() / "tests" / "kernels" / name;
}

/// The seed of this run: KJIT_TEST_SEED when set (to replay a failure), else a fresh one.
inline std::uint64_t test_seed() {
  static const std::uint64_t seed = [] {
    if (const char* s = std::getenv("KJIT_TEST_SEED")) {
      return static_cast<std::uint64_t>(std::strtoull(s, nullptr, 10));
    }
    return (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  }();
  return seed;
}

/// n uniform values in [lo, hi].
template <class T>
std::vector<T> random_vector(std::mt19937_64& rng, std::size_t n, T lo, T hi) {
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(lo, hi);
    for (T& x : v)
      x = d(rng);
  } else {
    std::uniform_int_distribution<long long> d(static_cast<long long>(lo),
                                               static_cast<long long>(hi));
    for (T& x : v)
      x = static_cast<T>(d(rng));
  }
  return v;
}

/// Tests that need a device: the one KJIT_DEVICE selects (CTest sets it per backend). When that
/// device does not exist the test is skipped, saying why.
class DeviceTest : public ::testing::Test {
 public:
  void SetUp() override {
    try {
      device = Device::select();
    } catch (const DeviceError& e) {
      GTEST_SKIP() << "no device to test on: " << e.what();
    }
    rng.seed(test_seed());
    RecordProperty("seed", std::to_string(test_seed()));
  }

  /// Uniform values in [lo, hi].
  template <class T>
  std::vector<T> random_vector(std::size_t n, T lo, T hi) {
    return kjit::test::random_vector<T>(rng, n, lo, hi);
  }

  /// A device buffer of n elements filled with a poison value (NaN, or 0xA5 bytes), so that an
  /// element the kernel forgets to write cannot pass for a right answer.
  template <class T>
  DeviceBuffer<T> poisoned(std::size_t n) {
    std::vector<T> host(n);
    if constexpr (std::is_floating_point_v<T>) {
      for (T& x : host)
        x = std::numeric_limits<T>::quiet_NaN();
    } else if (n > 0) {  // an empty vector's data() may be null, which memset may not take
      std::memset(host.data(), 0xA5, n * sizeof(T));
    }
    return device.upload(host);
  }

  /// The message of the LaunchError that `launch` gives by the next synchronize; a test failure
  /// (and "") when none comes.
  template <class F>
  std::string launch_error_of(F&& launch) {
    try {
      launch();
      device.synchronize();
    } catch (const LaunchError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no LaunchError";
    return {};
  }

  Device device;
  std::mt19937_64 rng;
};

/// The exception of type E that f() must throw (a test failure otherwise).
template <class E, class F>
E expect_throw(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw the wrong exception: " << e.what();
    throw;
  }
  ADD_FAILURE() << "did not throw";
  throw std::logic_error("did not throw");
}

/// The CompileError that getting kernel `k` (taking Args) of `source`, named `file`, must throw.
template <class... Args>
CompileError compile_error(const Device& device, const std::string& file,
                           const std::string& source) {
  return expect_throw<CompileError>(
      [&] { (void)Program::from_source(file, source).kernel<Args...>("k", device); });
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

#define KJIT_SEED_TRACE() \
  SCOPED_TRACE("KJIT_TEST_SEED=" + std::to_string(::kjit::test::test_seed()))

}  // namespace kjit::test
