// The cache key changes with everything that changes the binary, and with nothing else.
#include "core/cache/cache_key.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace kjit::detail::cache {
namespace {

namespace fs = std::filesystem;

class CacheKeyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("kjit-key-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "inc");
    write("main.cu",
          "#include \"local.h\"  // beside the source\n"
          "#include <shared.h>\n"
          "// #include \"commented.h\"\n"
          "/* #include \"commented.h\" */\n"
          "__global__ void k(int* p) { p[0] = LOCAL + SHARED; }\n");
    write("local.h", "#define LOCAL 1\n#include \"nested.h\"\n");
    write("nested.h", "#define NESTED 3\n");
    write("inc/shared.h", "#define SHARED 2\n");
    write("commented.h", "#define COMMENTED 4\n");
    write("unrelated.h", "#define UNRELATED 5\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary | std::ios::trunc) << text;
  }

  backend::CompileRequest request() {
    backend::CompileRequest r;
    r.program_name = "main.cu";
    std::ifstream in(dir_ / "main.cu");
    r.source.assign(std::istreambuf_iterator<char>(in), {});
    r.source_path = dir_ / "main.cu";
    r.include_dirs = {dir_ / "inc"};
    r.kernel_names = {"k"};
    r.kernel_signatures = {std::nullopt};
    return r;
  }

  static backend::TargetIdentity target() {
    return {"cuda:sm_90", {{"nvrtc", "13.0 (libnvrtc.so.13.0.48, 1 bytes)"}, {"format", "cubin"}}};
  }

  std::string key(const backend::CompileRequest& r, const backend::TargetIdentity& t = target()) {
    const KeyResult k = make_key(r, t);
    EXPECT_TRUE(k.key) << k.uncacheable;
    return k.key ? k.key->hex : std::string();
  }

  fs::path dir_;
};

TEST_F(CacheKeyTest, IsStableAndHex) {
  const std::string a = key(request());
  EXPECT_EQ(a, key(request()));
  EXPECT_EQ(a.size(), 32U);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST_F(CacheKeyTest, EveryIncludedHeaderIsPartOfTheKey) {
  for (const char* header : {"local.h", "nested.h", "inc/shared.h"}) {
    const std::string before = key(request());
    std::ifstream in(dir_ / header);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    write(header, text + "#define ONE_MORE_LINE 1\n");
    EXPECT_NE(key(request()), before) << header << " changed but the key did not";
  }
}

TEST_F(CacheKeyTest, UnrelatedAndCommentedOutFilesAreNot) {
  const std::string before = key(request());
  write("unrelated.h", "#define UNRELATED 6\n");
  write("commented.h", "#define COMMENTED 7\n");
  EXPECT_EQ(key(request()), before);
}

TEST_F(CacheKeyTest, SourceOptionsKernelsAndTargetChangeTheKey) {
  const std::string base = key(request());
  auto r = request();
  r.source += " ";
  EXPECT_NE(key(r), base) << "source";
  r = request();
  r.defines = {{"N", "4"}};
  EXPECT_NE(key(r), base) << "define";
  r = request();
  r.fast_math = true;
  EXPECT_NE(key(r), base) << "fast math";
  r = request();
  r.debug = true;
  EXPECT_NE(key(r), base) << "debug";
  r = request();
  r.check_memory = true;
  EXPECT_NE(key(r), base) << "checked mode";
  r = request();
  r.kernel_names = {"k2"};
  EXPECT_NE(key(r), base) << "kernel name";
  r = request();
  r.kernel_signatures = {std::string("int*")};
  EXPECT_NE(key(r), base) << "kernel signature";
  r = request();
  r.headers = {{"mem.h", "#define M 1"}};
  const std::string with_header = key(r);
  EXPECT_NE(with_header, base) << "in-memory header";
  r.headers = {{"mem.h", "#define M 2"}};
  EXPECT_NE(key(r), with_header) << "in-memory header text";

  auto t = target();
  t.target = "cuda:sm_80";
  EXPECT_NE(key(request(), t), base) << "arch";
  t = target();
  t.facts[0].second = "13.1 (libnvrtc.so.13.1.0, 1 bytes)";
  EXPECT_NE(key(request(), t), base) << "compiler version";
}

TEST_F(CacheKeyTest, TheProgramNameAndTheTreesLocationAreNot) {
  const std::string base = key(request());
  auto r = request();
  r.program_name = "other-name.cu";
  EXPECT_EQ(key(r), base);
  const fs::path moved = dir_.string() + "-moved";
  fs::remove_all(moved);
  fs::rename(dir_, moved);
  r = request();  // reads from the old path: rebuild it from the moved tree
  dir_ = moved;
  EXPECT_EQ(key(request()), base) << "a relocated tree with the same contents";
}

TEST_F(CacheKeyTest, AComputedIncludeMakesTheProgramUncacheable) {
  auto r = request();
  r.source = "#define H \"local.h\"\n#include H\n__global__ void k() {}\n";
  const KeyResult k = make_key(r, target());
  EXPECT_FALSE(k.key);
  EXPECT_NE(k.uncacheable.find("main.cu:2"), std::string::npos) << k.uncacheable;
}

TEST_F(CacheKeyTest, IncludeCyclesTerminate) {
  write("local.h", "#include \"nested.h\"\n");
  write("nested.h", "#include \"local.h\"\n");
  EXPECT_FALSE(key(request()).empty());
}

}  // namespace
}  // namespace kjit::detail::cache
