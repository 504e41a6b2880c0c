// A compiler's identity remembered in the disk cache: a later process gets it without loading the
// compiler, and anything that could make it wrong (another probe, a replaced library file, a
// corrupt memo, the cache off) makes it ask the compiler again.
#include "core/cache/identity_memo.hpp"
#include "core/cache/disk_cache.hpp"
#include "support/library_search.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace kjit::detail::cache {
namespace {

namespace fs = std::filesystem;

/// A compiler whose identity() counts its calls, as loading a library would cost.
class FakeCompiler : public backend::Compiler {
 public:
  explicit FakeCompiler(fs::path library) : library_(std::move(library)) {}
  backend::TargetIdentity identity() override {
    ++identity_calls;
    return {"fake:" + version, {{"version", version}, {"target", "t1"}}, {library_}};
  }
  std::optional<std::string> identity_probe() override { return probe; }
  backend::Binary compile(const backend::CompileRequest& /*request*/) override { return {}; }

  int identity_calls = 0;
  std::string version = "1.0";
  std::optional<std::string> probe = "fake library search: /opt/fake";

 private:
  fs::path library_;
};

void write(const fs::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

class IdentityMemoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("kjit-identity-" + std::to_string(getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
    library_ = root_ / "libfake.so.1";
    write(library_, "version one");
    forget_remembered_identities();
  }
  void TearDown() override {
    forget_remembered_identities();
    fs::remove_all(root_);
  }

  CacheSettings settings(environment::CacheMode mode = environment::CacheMode::read_write) {
    CacheSettings s;
    s.mode = mode;
    s.user_dir = root_ / "cache";
    return s;
  }

  /// remembered_identity as a new process would see it: nothing remembered in memory.
  backend::TargetIdentity fresh(FakeCompiler& compiler, DiskCache& cache) {
    forget_remembered_identities();
    return remembered_identity(compiler, cache);
  }

  fs::path root_;
  fs::path library_;
};

TEST_F(IdentityMemoTest, ALaterProcessGetsTheIdentityWithoutAskingTheCompiler) {
  DiskCache cache(settings());
  FakeCompiler compiler(library_);
  const backend::TargetIdentity first = fresh(compiler, cache);
  EXPECT_EQ(compiler.identity_calls, 1);
  EXPECT_EQ(first.target, "fake:1.0");

  compiler.version = "2.0";  // would show if identity() were asked again
  const backend::TargetIdentity second = fresh(compiler, cache);
  EXPECT_EQ(compiler.identity_calls, 1);
  EXPECT_EQ(second.target, "fake:1.0");
  EXPECT_EQ(second.facts, first.facts);
  ASSERT_EQ(second.files.size(), 1U);
  EXPECT_EQ(second.files[0], library_);

  // In one process it is asked once, whatever the calls.
  remembered_identity(compiler, cache);
  remembered_identity(compiler, cache);
  EXPECT_EQ(compiler.identity_calls, 1);
}

TEST_F(IdentityMemoTest, AReplacedLibraryFileMakesItAskAgain) {
  DiskCache cache(settings());
  FakeCompiler compiler(library_);
  fresh(compiler, cache);
  write(library_, "version two, a longer file");
  compiler.version = "2.0";
  EXPECT_EQ(fresh(compiler, cache).target, "fake:2.0");
  EXPECT_EQ(compiler.identity_calls, 2);
  // ... and the new identity is the one remembered from then on.
  EXPECT_EQ(fresh(compiler, cache).target, "fake:2.0");
  EXPECT_EQ(compiler.identity_calls, 2);
}

TEST_F(IdentityMemoTest, AnotherProbeMakesItAskAgain) {
  DiskCache cache(settings());
  FakeCompiler compiler(library_);
  fresh(compiler, cache);
  compiler.probe = "fake library search: /opt/other";
  compiler.version = "3.0";
  EXPECT_EQ(fresh(compiler, cache).target, "fake:3.0");
  EXPECT_EQ(compiler.identity_calls, 2);
}

TEST_F(IdentityMemoTest, WithoutAProbeOrACacheNothingIsRemembered) {
  DiskCache off(settings(environment::CacheMode::off));
  FakeCompiler compiler(library_);
  fresh(compiler, off);
  fresh(compiler, off);
  EXPECT_EQ(compiler.identity_calls, 2);
  EXPECT_FALSE(fs::exists(root_ / "cache"));

  DiskCache cache(settings());
  compiler.probe.reset();
  fresh(compiler, cache);
  fresh(compiler, cache);
  EXPECT_EQ(compiler.identity_calls, 4);
  EXPECT_TRUE(cache.entries(false).empty());
}

TEST_F(IdentityMemoTest, AnIdentityWhoseFileCannotBeCheckedIsNotRemembered) {
  DiskCache cache(settings());
  FakeCompiler compiler(root_ / "no-such-library.so");
  fresh(compiler, cache);
  fresh(compiler, cache);
  EXPECT_EQ(compiler.identity_calls, 2);
  EXPECT_TRUE(cache.entries(false).empty());
}

TEST_F(IdentityMemoTest, ACorruptMemoIsReplaced) {
  DiskCache cache(settings());
  FakeCompiler compiler(library_);
  backend::Binary garbage;
  garbage.program = "compiler identity";
  garbage.format = "compiler-identity";
  const std::string text = "{\"target\": 7}";
  garbage.bytes.assign(text.begin(), text.end());
  cache.store(identity_memo_key(*compiler.probe), garbage, {"compiler identity", 0, false});

  EXPECT_EQ(fresh(compiler, cache).target, "fake:1.0");
  EXPECT_EQ(compiler.identity_calls, 1);
  EXPECT_EQ(fresh(compiler, cache).target, "fake:1.0");
  EXPECT_EQ(compiler.identity_calls, 1);
}

TEST(LibrarySearch, DescribesLoadedCopiesSearchDirectoriesAndFileStamps) {
  const std::optional<std::string> libc = backend::describe_library_search({"libc.so.6"});
  ASSERT_TRUE(libc);
  EXPECT_NE(libc->find("search path:"), std::string::npos) << *libc;
  EXPECT_NE(libc->find("loaded libc.so.6 from "), std::string::npos) << *libc;
  EXPECT_NE(libc->find("/etc/ld.so.cache: "), std::string::npos) << *libc;

  const fs::path file = fs::temp_directory_path() / ("kjit-stamp-" + std::to_string(getpid()));
  write(file, "one");
  const auto before = backend::describe_library_search({file.string()});
  ASSERT_TRUE(before);
  EXPECT_NE(before->find(file.string() + ": "), std::string::npos) << *before;
  write(file, "three");
  EXPECT_NE(backend::describe_library_search({file.string()}), before);
  fs::remove(file);
  const auto gone = backend::describe_library_search({file.string()});
  ASSERT_TRUE(gone);
  EXPECT_NE(gone->find(file.string() + ": absent"), std::string::npos) << *gone;
  EXPECT_FALSE(backend::file_stamp(file));
}

}  // namespace
}  // namespace kjit::detail::cache
