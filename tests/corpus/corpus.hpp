// What the corpus's drivers share (tests/corpus/README.md): where the files are, how their
// project builds them, and the fixture that runs them on the device the test was given.
#pragma once

#include "test_support.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace kjit::test {

inline const std::filesystem::path& samples_dir() {
  static const std::filesystem::path dir = source_dir() / "tests/corpus/cuda-samples";
  return dir;
}

/// Notes in the test's result which corpus file it loaded (docs/compatibility.md's tables are
/// made from the results: scripts/compatibility_tables.py).
inline void record_corpus_file(const std::string& file) {
  ::testing::Test::RecordProperty("corpus_file:" + file, "loaded");
}

/// A cuda-samples file as its project builds it: Common/ on the include path.
inline Program sample(const std::string& path, std::vector<std::string> kernels = {},
                      std::map<std::string, std::string, std::less<>> defines = {}) {
  record_corpus_file("cuda-samples/Samples/" + path);
  CompileOptions options;
  options.include_dirs = {samples_dir() / "Common"};
  options.kernels = std::move(kernels);
  options.defines = std::move(defines);
  return Program::from_file(samples_dir() / "Samples" / path, std::move(options));
}

inline const std::filesystem::path& corpus_dir() {
  static const std::filesystem::path dir = source_dir() / "tests/corpus";
  return dir;
}

/// A file of the corpus by its path under tests/corpus/, as its project builds it: the include
/// dirs and defines manifest.json gives it.
inline Program corpus_program(const std::string& file) {
  record_corpus_file(file);
  static const nlohmann::json manifest = [] {
    std::ifstream in(corpus_dir() / "manifest.json");
    return nlohmann::json::parse(in);
  }();
  CompileOptions options;
  for (const nlohmann::json& e : manifest) {
    if (e.at("file") != file) {
      continue;
    }
    // Named: items() refers to the object, which a temporary would not outlive.
    const nlohmann::json dirs = e.value("include_dirs", nlohmann::json::array());
    const nlohmann::json defines = e.value("defines", nlohmann::json::object());
    for (const nlohmann::json& d : dirs) {
      options.include_dirs.push_back(corpus_dir() / d.get<std::string>());
    }
    for (const auto& [name, value] : defines.items()) {
      options.defines[name] = value.is_string() ? value.get<std::string>() : value.dump();
    }
    return Program::from_file(corpus_dir() / file, std::move(options));
  }
  throw std::invalid_argument(file + " is not in tests/corpus/manifest.json");
}

/// Checks `got` against the reference `want` element by element: |got - want| <= abs + rel *
/// |want|, reporting the first few that are not.
template <class T, class R>
void expect_all_near(const std::vector<T>& got, const std::vector<R>& want, double rel, double abs,
                     const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  int reported = 0;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = static_cast<double>(got[i]);
    const double w = static_cast<double>(want[i]);
    if (!(std::abs(g - w) <= abs + rel * std::abs(w))) {  // NaN fails too
      ++bad;
      if (reported++ < 5) {
        ADD_FAILURE() << what << "[" << i << "] = " << g << ", want " << w;
      }
    }
  }
  EXPECT_EQ(bad, 0U) << what << ": " << bad << " of " << got.size() << " differ";
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
