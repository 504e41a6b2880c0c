// What the corpus's drivers share (tests/corpus/README.md): where the files are, how their
// project builds them, and the fixture that runs them on the device the test was given.
#pragma once

#include "test_support.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace kjit::test {

inline const std::filesystem::path& samples_dir() {
  static const std::filesystem::path dir = source_dir() / "tests/corpus/cuda-samples";
  return dir;
}

/// A cuda-samples file as its project builds it: Common/ on the include path.
inline Program sample(const std::string& path, std::vector<std::string> kernels = {},
                      std::map<std::string, std::string, std::less<>> defines = {}) {
  CompileOptions options;
  options.include_dirs = {samples_dir() / "Common"};
  options.kernels = std::move(kernels);
  options.defines = std::move(defines);
  return Program::from_file(samples_dir() / "Samples" / path, std::move(options));
}

class Corpus : public DeviceTest {
 public:
  [[nodiscard]] bool on_cpu() const { return device.info().backend == BackendKind::cpu; }
};

/// Checks the error of a file that needs what a backend lacks: at `line` of the file named `file`,
/// saying `why`.
inline void expect_located(const CompileError& e, const std::string& file, unsigned line,
                           const std::string& why) {
  EXPECT_TRUE(e.file().ends_with(file)) << e.what();
  EXPECT_EQ(e.line(), line) << e.what();
  EXPECT_TRUE(contains(e.what(), why)) << e.what();
}

}  // namespace kjit::test
