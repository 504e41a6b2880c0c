// The disk cache's files: verified reads that heal, tiers, permissions, eviction, locks, and
// writers killed halfway.
#include "core/cache/disk_cache.hpp"
#include "core/cache/cache_counters.hpp"
#include "core/cache/cache_entry.hpp"
#include "support/file_text.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>
#include <vector>

namespace kjit::detail::cache {
namespace {

namespace fs = std::filesystem;
using environment::CacheMode;

CacheKey key_of(int i) {
  CacheKey k;
  k.hex = fmt::format("{:032x}", 0x1234567 + i * 977);
  k.components = {{"test", std::to_string(i)}};
  return k;
}

backend::Binary binary_of(int i, std::size_t size = 1000) {
  backend::Binary b;
  b.program = fmt::format("p{}.cu", i);
  b.format = "cpu-elf-object";
  b.kernel_symbols = {"k"};
  b.bytes.assign(size, static_cast<std::uint8_t>(i));
  return b;
}

/// The temporary files of interrupted or failed writes under `dir`.
std::vector<fs::path> temporary_files(const fs::path& dir) {
  std::vector<fs::path> found;
  for (const auto& f : fs::recursive_directory_iterator(dir)) {
    if (f.path().filename().string().find(kTempFileMark) != std::string::npos) {
      found.push_back(f.path());
    }
  }
  return found;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

class DiskCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            fmt::format("kjit-disk-{}-{}", getpid(),
                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(root_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(root_, ec);
  }

  CacheSettings settings(CacheMode mode = CacheMode::read_write) {
    CacheSettings s;
    s.mode = mode;
    s.user_dir = root_ / "user";
    return s;
  }

  fs::path root_;
};

TEST_F(DiskCacheTest, StoresPrivatelyAndFindsAgain) {
  DiskCache cache(settings());
  ASSERT_TRUE(cache.writable());
  EXPECT_FALSE(cache.lookup(key_of(1)));
  cache.store(key_of(1), binary_of(1), {"p1.cu", 12.5});
  const auto found = cache.lookup(key_of(1));
  ASSERT_TRUE(found);
  EXPECT_EQ(found->binary.bytes, binary_of(1).bytes);
  EXPECT_TRUE(found->user_tier);
  struct stat st {};
  ASSERT_EQ(stat((root_ / "user").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700U) << "the user tier must be private";
  const std::string notes =
      slurp(DiskCache::entry_path(root_ / "user", key_of(1).hex).replace_extension(".json"));
  EXPECT_NE(notes.find("\"p1.cu\""), std::string::npos) << notes;
  EXPECT_NE(notes.find("\"test\""), std::string::npos) << "the key's components: " << notes;
  EXPECT_TRUE(fs::exists(root_ / "user" / "CACHEDIR.TAG"));
}

TEST_F(DiskCacheTest, EveryKindOfCorruptEntryIsRemovedAndMisses) {
  DiskCache cache(settings());
  const fs::path file = DiskCache::entry_path(root_ / "user", key_of(1).hex);
  const std::string good = encode_entry(key_of(1).hex, binary_of(1));
  const std::string other_key = encode_entry(key_of(2).hex, binary_of(1));
  std::string flipped = good;
  flipped[good.size() / 2] = static_cast<char>(flipped[good.size() / 2] ^ 1);
  std::string magic = good;
  magic[1] = '?';
  const std::vector<std::pair<std::string, std::string>> kinds = {
      {"truncated", good.substr(0, good.size() - 10)},
      {"header only", good.substr(0, kHeaderBytes)},
      {"empty", ""},
      {"flipped byte", flipped},
      {"wrong magic", magic},
      {"wrong key", other_key},
  };
  for (const auto& [kind, bytes] : kinds) {
    cache.store(key_of(1), binary_of(1), {});
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
    const auto rejected = counters().rejected.load();
    EXPECT_FALSE(cache.lookup(key_of(1))) << kind;
    EXPECT_FALSE(fs::exists(file)) << kind << ": the bad entry must be removed";
    EXPECT_EQ(counters().rejected.load(), rejected + 1) << kind;
    cache.store(key_of(1), binary_of(1), {});
    EXPECT_TRUE(cache.lookup(key_of(1))) << kind << ": rebuilt";
  }
}

TEST_F(DiskCacheTest, AnUnloadableEntryIsDiscarded) {
  DiskCache cache(settings());
  cache.store(key_of(3), binary_of(3), {});
  const auto found = cache.lookup(key_of(3));
  ASSERT_TRUE(found);
  cache.discard(*found, "the loader refused it");
  EXPECT_FALSE(fs::exists(found->file));
  EXPECT_FALSE(cache.lookup(key_of(3)));
}

TEST_F(DiskCacheTest, ReadOnlyModeReadsButNeverWrites) {
  DiskCache(settings()).store(key_of(1), binary_of(1), {});
  DiskCache ro(settings(CacheMode::read_only));
  EXPECT_FALSE(ro.writable());
  EXPECT_TRUE(ro.lookup(key_of(1)));
  ro.store(key_of(2), binary_of(2), {});
  EXPECT_FALSE(fs::exists(DiskCache::entry_path(root_ / "user", key_of(2).hex)));
  EXPECT_FALSE(ro.lock(key_of(2)));
  // A corrupt entry is a miss, but a read-only cache leaves it where it is.
  const fs::path file = DiskCache::entry_path(root_ / "user", key_of(1).hex);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << "junk";
  EXPECT_FALSE(ro.lookup(key_of(1)));
  EXPECT_TRUE(fs::exists(file));
}

TEST_F(DiskCacheTest, OffModeTouchesNothing) {
  DiskCache off(settings(CacheMode::off));
  EXPECT_FALSE(off.enabled());
  off.store(key_of(1), binary_of(1), {});
  EXPECT_FALSE(off.lookup(key_of(1)));
  EXPECT_FALSE(fs::exists(root_ / "user"));
}

TEST_F(DiskCacheTest, ACacheDirThatIsAFileOrCannotBeCreatedIsNotUsed) {
  std::ofstream(root_ / "user") << "a file";
  DiskCache file_dir(settings());
  EXPECT_FALSE(file_dir.writable());
  file_dir.store(key_of(1), binary_of(1), {});  // a warning, no throw
  EXPECT_FALSE(file_dir.lookup(key_of(1)));

  CacheSettings proc = settings();
  proc.user_dir = "/proc/kjit-cannot-be-created";
  DiskCache impossible(proc);
  EXPECT_FALSE(impossible.writable());
  impossible.store(key_of(1), binary_of(1), {});
  EXPECT_FALSE(impossible.lookup(key_of(1)));
}

TEST_F(DiskCacheTest, AnUnwritableDirIsUsedReadOnly) {
  DiskCache(settings()).store(key_of(1), binary_of(1), {});
  // Root ignores permission bits: check as an unprivileged user in a child process.
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (geteuid() == 0) {
      // NOLINTNEXTLINE: the child owns the tree as `nobody`, then the directory loses its w bit
      if (chown(root_.c_str(), 65534, 65534) != 0 || setgid(65534) != 0 || setuid(65534) != 0) {
        _exit(3);
      }
    }
    const fs::path user = root_ / "user2";
    CacheSettings s = settings();
    s.user_dir = user;
    { DiskCache(s).store(key_of(1), binary_of(1), {}); }
    chmod(user.c_str(), 0500);
    DiskCache ro(s);
    const bool ok = !ro.writable() && ro.lookup(key_of(1)).has_value();
    ro.store(key_of(2), binary_of(2), {});
    const bool untouched = !fs::exists(DiskCache::entry_path(user, key_of(2).hex));
    chmod(user.c_str(), 0700);
    _exit(ok && untouched ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_NE(WEXITSTATUS(status), 3) << "could not become an unprivileged user";
  EXPECT_EQ(WEXITSTATUS(status), 0)
      << "an unwritable cache directory must be read, and never written";
}

// A disk that fills up while an entry is written: the process's file size limit makes the
// kernel refuse the write part way through (EFBIG where a full disk says ENOSPC), at the same
// write() call. The store is dropped with a warning, no part of it stays behind, and entries
// written before are untouched and still load.
TEST_F(DiskCacheTest, ADiskThatFillsUpMidWriteLeavesNoPartialEntry) {
  DiskCache(settings()).store(key_of(1), binary_of(1, 1000), {});
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    signal(SIGXFSZ, SIG_IGN);  // the limit then fails the write instead of killing the process
    const rlimit limit{50000, 50000};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) {
      _exit(3);
    }
    DiskCache cache(settings());
    // Larger than the limit: the first write() takes 50000 bytes, the next one fails.
    cache.store(key_of(2), binary_of(2, 200000), {});
    _exit(cache.lookup(key_of(2)) ? 1 : 0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "a write past the limit must fail, not kill";
  ASSERT_NE(WEXITSTATUS(status), 3) << "could not set a file size limit";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "a store that could not be written must not be found";
  const fs::path entry = DiskCache::entry_path(root_ / "user", key_of(2).hex);
  EXPECT_FALSE(fs::exists(entry)) << "a partial entry was left";
  EXPECT_EQ(temporary_files(root_), std::vector<fs::path>{}) << "temporary files left behind";
  DiskCache cache(settings());
  const auto earlier = cache.lookup(key_of(1));
  ASSERT_TRUE(earlier) << "an entry written before the disk filled up must still load";
  EXPECT_EQ(earlier->binary.bytes, binary_of(1, 1000).bytes);
  cache.store(key_of(2), binary_of(2, 200000), {});
  const auto later = cache.lookup(key_of(2));
  ASSERT_TRUE(later) << "once there is room, the same entry is stored";
  EXPECT_EQ(later->binary.bytes, binary_of(2, 200000).bytes);
}

TEST_F(DiskCacheTest, EntriesOrDirectoriesOthersCouldWriteAreNotLoaded) {
  DiskCache cache(settings());
  cache.store(key_of(1), binary_of(1), {});
  const fs::path file = DiskCache::entry_path(root_ / "user", key_of(1).hex);
  chmod(file.c_str(), 0664);
  EXPECT_FALSE(cache.lookup(key_of(1))) << "group-writable entry";
  chmod(file.c_str(), 0646);
  EXPECT_FALSE(cache.lookup(key_of(1))) << "world-writable entry";
  chmod(file.c_str(), 0644);
  ASSERT_TRUE(cache.lookup(key_of(1)));
  chmod(file.parent_path().c_str(), 0777);
  EXPECT_FALSE(cache.lookup(key_of(1))) << "world-writable directory";
  chmod(file.parent_path().c_str(), 0700);
  ASSERT_TRUE(cache.lookup(key_of(1)));
  if (geteuid() == 0) {
    ASSERT_EQ(chown(file.c_str(), 65534, 65534), 0);
    EXPECT_FALSE(cache.lookup(key_of(1))) << "an entry owned by another user";
  }
  EXPECT_TRUE(fs::exists(file)) << "another user's file is refused, not deleted";
  // A user tier that others may write is not used at all.
  chmod((root_ / "user").c_str(), 0777);
  DiskCache open_dir(settings());
  EXPECT_FALSE(open_dir.writable());
}

TEST_F(DiskCacheTest, ReadOnlyTiersComeFirstAndAreNeverWritten) {
  CacheSettings system = settings();
  system.user_dir = root_ / "system";
  DiskCache(system).store(key_of(1), binary_of(1, 10), {});
  CacheSettings s = settings();
  s.read_only_dirs = {root_ / "missing", root_ / "system"};
  DiskCache cache(s);
  cache.store(key_of(1), binary_of(1, 20), {});  // the user tier has its own copy
  const auto found = cache.lookup(key_of(1));
  ASSERT_TRUE(found);
  EXPECT_FALSE(found->user_tier);
  EXPECT_EQ(found->binary.bytes.size(), 10U) << "the read-only tier is searched first";
  std::ofstream(DiskCache::entry_path(root_ / "system", key_of(1).hex),
                std::ios::binary | std::ios::trunc)
      << "corrupt";
  const auto fallback = cache.lookup(key_of(1));
  ASSERT_TRUE(fallback) << "a corrupt read-only entry falls through to the user tier";
  EXPECT_TRUE(fallback->user_tier);
  EXPECT_TRUE(fs::exists(DiskCache::entry_path(root_ / "system", key_of(1).hex)));
}

TEST_F(DiskCacheTest, EvictionRemovesTheLeastRecentlyUsedAndSparesEntriesInUse) {
  {
    DiskCache writer(settings());
    for (int i = 0; i < 6; ++i) {
      writer.store(key_of(i), binary_of(i, 4000), {});
      // Distinct, ordered use times without sleeping.
      const fs::path f = DiskCache::entry_path(root_ / "user", key_of(i).hex);
      fs::last_write_time(f, fs::file_time_type::clock::now() - std::chrono::hours(10 - i));
    }
  }
  DiskCache cache(settings());
  ASSERT_TRUE(cache.lookup(key_of(0)));  // the oldest, but now used by this process
  std::uint64_t one = 0;
  for (const EntryFile& e : cache.entries(false)) {
    one = std::max(one, e.bytes);
  }
  const std::size_t removed = cache.evict_to(3 * one);
  EXPECT_EQ(removed, 3U);
  for (int i : {1, 2, 3}) {
    EXPECT_FALSE(fs::exists(DiskCache::entry_path(root_ / "user", key_of(i).hex))) << i;
  }
  for (int i : {0, 4, 5}) {
    EXPECT_TRUE(fs::exists(DiskCache::entry_path(root_ / "user", key_of(i).hex))) << i;
  }
  // With a cap set, storing evicts by itself.
  CacheSettings capped = settings();
  capped.max_bytes = 2 * one;
  DiskCache small(capped);
  small.store(key_of(9), binary_of(9, 4000), {});
  std::uint64_t total = 0;
  for (const EntryFile& e : small.entries(false)) {
    total += e.bytes;
  }
  EXPECT_LE(total, 2 * one);
  EXPECT_TRUE(small.lookup(key_of(9))) << "the entry just stored is in use";
}

TEST_F(DiskCacheTest, TheKeyLockExcludesOtherHolders) {
  DiskCache cache(settings());
  std::optional<KeyLock> first = cache.lock(key_of(1));
  ASSERT_TRUE(first);
  std::atomic<bool> second_holds{false};
  std::thread other([&] {
    DiskCache another(settings());  // as another process would: its own descriptor
    auto second = another.lock(key_of(1));
    second_holds = second.has_value();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(second_holds) << "two holders of one key";
  first.reset();
  other.join();
  EXPECT_TRUE(second_holds);
  EXPECT_FALSE(fs::exists(root_ / "user" / key_of(1).hex.substr(0, 2) / (key_of(1).hex + ".lock")))
      << "released locks leave no file";
}

TEST_F(DiskCacheTest, ALockWhoseHolderDiedIsTakenOver) {
  DiskCache cache(settings());
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    DiskCache c(settings());
    auto held = c.lock(key_of(1));
    kill(getpid(), SIGKILL);  // dies holding it
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  CacheSettings s = settings();
  s.lock_timeout = std::chrono::seconds(10);
  DiskCache after(s);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(after.lock(key_of(1)));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST_F(DiskCacheTest, AWriterKilledMidWriteLeavesNoLoadableHalfEntry) {
  std::mt19937 rng(std::random_device{}());
  for (int trial = 0; trial < 100; ++trial) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      DiskCache c(settings());
      for (int i = 0;; ++i) {
        c.store(key_of(i % 50), binary_of(i % 50, 200000), {});
      }
    }
    std::this_thread::sleep_for(std::chrono::microseconds(rng() % 20000));
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
  }
  DiskCache cache(settings());
  int loaded = 0;
  for (int i = 0; i < 50; ++i) {
    if (const auto found = cache.lookup(key_of(i))) {
      EXPECT_EQ(found->binary.bytes, binary_of(i, 200000).bytes) << "entry " << i;
      ++loaded;
    }
  }
  EXPECT_GT(loaded, 0) << "no writer got far enough to publish: the test proved nothing";
  // Not only rejected on read: no half-written file ever sits under an entry's name.
  for (const EntryFile& e : cache.entries(false)) {
    EXPECT_TRUE(decode_entry(slurp(e.file), e.key).binary) << e.file;
  }
  cache.remove_stale_temporaries(std::chrono::seconds(0));
  EXPECT_EQ(temporary_files(root_ / "user"), std::vector<fs::path>{});
}

}  // namespace
}  // namespace kjit::detail::cache
