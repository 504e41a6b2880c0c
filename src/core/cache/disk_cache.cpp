#include "core/cache/disk_cache.hpp"

#include "core/cache/cache_counters.hpp"
#include "core/cache/cache_entry.hpp"
#include "core/embedded_entries.hpp"
#include "support/file_text.hpp"
#include "support/logging.hpp"
#include "support/text.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <thread>
#include <utility>

namespace kjit::detail::cache {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kEntrySuffix = ".kjit";
constexpr std::string_view kEmbeddedTier = "<embedded>";  // names embedded entries in messages
constexpr std::string_view kNotesSuffix = ".json";
constexpr std::string_view kLockSuffix = ".lock";

/// Owned by this user or root, and not writable by group or others: nobody else could have
/// put native code there.
std::optional<std::string> untrusted(const struct stat& st) {
  if (st.st_uid != geteuid() && st.st_uid != 0) {
    return fmt::format("it is owned by uid {}, not by this user (uid {}) or root", st.st_uid,
                       geteuid());
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return fmt::format("it is writable by {} (mode {:o})",
                       (st.st_mode & S_IWOTH) != 0 ? "everyone" : "its group", st.st_mode & 07777);
  }
  return std::nullopt;
}

std::optional<std::string> untrusted_dir(const fs::path& dir) {
  struct stat st {};
  if (lstat(dir.c_str(), &st) != 0) {
    return errno_text(errno);
  }
  if (!S_ISDIR(st.st_mode)) {
    return "it is not a directory";
  }
  return untrusted(st);
}

/// Each problem with a directory is reported once per process, not on every lookup.
void warn_once(const std::string& message) {
  static std::mutex mutex;
  static std::set<std::string> said;
  const std::lock_guard lock(mutex);
  if (said.insert(message).second) {
    log().warn("{}", message);
  }
}

std::string shard(const std::string& key) {
  return key.substr(0, 2);
}

bool is_key(std::string_view name) {
  return name.size() == 32 && std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

std::optional<std::string> make_private_dir(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    fs::create_directories(dir.parent_path(), ec);
    if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
      return fmt::format("cannot create it: {}", errno_text(errno));
    }
  }
  return untrusted_dir(dir);
}

}  // namespace

Counters& counters() {
  static Counters c;
  return c;
}

CacheSettings CacheSettings::from_environment() {
  CacheSettings s;
  s.mode = environment::cache_mode();
  if (s.mode == environment::CacheMode::off) {
    return s;
  }
  s.user_dir = environment::cache_dir();
  s.read_only_dirs = environment::cache_path();
  s.max_bytes = environment::cache_max_bytes();
  return s;
}

void KeyLock::release() noexcept {
  if (fd_ >= 0) {
    unlink(path_.c_str());  // before unlocking: a waiter then sees the file gone and retries
    close(fd_);
    fd_ = -1;
  }
}

KeyLock& KeyLock::operator=(KeyLock&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

DiskCache::DiskCache(CacheSettings settings) : settings_(std::move(settings)) {
  if (!enabled()) {
    return;
  }
  const fs::path& dir = settings_.user_dir;
  if (settings_.mode == environment::CacheMode::read_write) {
    if (const auto problem = make_private_dir(dir)) {
      warn_once(
          fmt::format("kjit: not using the cache directory '{}': {}; programs are compiled "
                      "on every run",
                      dir.string(), *problem));
      return;
    }
    if (access(dir.c_str(), W_OK | X_OK) != 0) {
      warn_once(
          fmt::format("kjit: the cache directory '{}' is not writable ({}); using it "
                      "read-only",
                      dir.string(), errno_text(errno)));
      user_readable_ = true;
      return;
    }
    writable_ = true;
    user_readable_ = true;
    const fs::path tag = dir / "CACHEDIR.TAG";
    std::error_code ec;
    if (!fs::exists(tag, ec)) {
      (void)write_file_atomically(
          tag,
          "Signature: 8a477f597d28d172789f06886806bc55\n"
          "# kjit's kernel cache: safe to delete; see `kjit-warm clear`.\n");
    }
  } else {
    std::error_code ec;
    user_readable_ = fs::exists(dir, ec);
  }
}

fs::path DiskCache::entry_path(const fs::path& dir, const std::string& key) {
  return dir / shard(key) / (key + std::string(kEntrySuffix));
}

std::vector<fs::path> DiskCache::tiers() const {
  std::vector<fs::path> all = settings_.read_only_dirs;
  if (user_readable_) {
    all.push_back(settings_.user_dir);
  }
  return all;
}

void DiskCache::note_in_use(const std::string& key) {
  const std::lock_guard lock(in_use_mutex_);
  in_use_.insert(key);
}

std::optional<FoundEntry> DiskCache::read_entry(const fs::path& dir, const CacheKey& key,
                                                bool user_tier) {
  const fs::path file = entry_path(dir, key.hex);
  const int fd = open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT && errno != ENOTDIR) {
      warn_once(
          fmt::format("kjit: cannot read cache entry '{}': {}", file.string(), errno_text(errno)));
    }
    return std::nullopt;
  }
  struct stat st {};
  std::optional<std::string> problem;
  if (fstat(fd, &st) != 0) {
    problem = errno_text(errno);
  } else if (!S_ISREG(st.st_mode)) {
    problem = "it is not a regular file";
  } else if (auto why = untrusted(st)) {
    problem = std::move(why);
  } else if (auto shard_why = untrusted_dir(file.parent_path())) {
    problem = "its directory: " + *shard_why;
  }
  if (problem) {
    close(fd);
    counters().rejected.fetch_add(1, std::memory_order_relaxed);
    warn_once(fmt::format("kjit: not loading cache entry '{}': {}", file.string(), *problem));
    return std::nullopt;
  }
  std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      break;
    }
    done += static_cast<std::size_t>(n);
  }
  bytes.resize(done);
  Decoded decoded = decode_entry(bytes, key.hex);
  if (!decoded.binary) {
    close(fd);
    counters().rejected.fetch_add(1, std::memory_order_relaxed);
    const bool remove = user_tier && writable_;
    log().warn("kjit: cache entry '{}' is corrupt ({}); {}", file.string(), decoded.problem,
               remove ? "removed it, recompiling" : "ignoring it (read-only), recompiling");
    if (remove) {
      struct stat now {};
      // Only if it is still the file we read: another process may have replaced it meanwhile.
      if (stat(file.c_str(), &now) == 0 && now.st_ino == st.st_ino && now.st_dev == st.st_dev) {
        remove_entry(file);
      }
    }
    return std::nullopt;
  }
  if (user_tier && writable_) {
    futimens(fd, nullptr);  // recently used: last to be evicted
  }
  close(fd);
  note_in_use(key.hex);
  return FoundEntry{std::move(*decoded.binary), file, user_tier};
}

std::optional<FoundEntry> DiskCache::lookup(const CacheKey& key) {
  if (!enabled()) {
    return std::nullopt;
  }
  if (const std::optional<EmbeddedEntryBytes> embedded = embedded_entry(key.hex)) {
    const fs::path name = fs::path(kEmbeddedTier) / embedded->key;
    Decoded decoded = decode_entry(embedded->bytes, embedded->key);
    if (decoded.binary) {
      return FoundEntry{std::move(*decoded.binary), name, false, true};
    }
    counters().rejected.fetch_add(1, std::memory_order_relaxed);
    drop_embedded_entry(embedded->key);
    log().warn(
        "kjit: precompiled entry '{}' embedded in this program is corrupt ({}); dropped it, "
        "recompiling",
        name.string(), decoded.problem);
  }
  for (const fs::path& dir : settings_.read_only_dirs) {
    if (const auto problem = untrusted_dir(dir)) {
      if (std::error_code ec; fs::exists(dir, ec)) {
        warn_once(fmt::format("kjit: not using the read-only cache directory '{}': {}",
                              dir.string(), *problem));
      }
      continue;
    }
    if (auto found = read_entry(dir, key, false)) {
      return found;
    }
  }
  if (user_readable_) {
    return read_entry(settings_.user_dir, key, true);
  }
  return std::nullopt;
}

void DiskCache::remove_entry(const fs::path& file) {
  std::error_code ec;
  fs::remove(file, ec);
  fs::path notes = file;
  notes.replace_extension(kNotesSuffix);
  fs::remove(notes, ec);
}

void DiskCache::discard(const FoundEntry& entry, const std::string& why) {
  counters().rejected.fetch_add(1, std::memory_order_relaxed);
  const bool remove = entry.user_tier && writable_;
  if (entry.embedded) {
    drop_embedded_entry(entry.file.filename().string());
  }
  log().warn("kjit: cache entry '{}' does not load ({}); {}", entry.file.string(), why,
             remove ? "removed it, recompiling" : "ignoring it (read-only), recompiling");
  if (remove) {
    remove_entry(entry.file);
  }
}

std::optional<KeyLock> DiskCache::lock(const CacheKey& key) {
  if (!writable_) {
    return std::nullopt;
  }
  const fs::path dir = settings_.user_dir / shard(key.hex);
  if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return std::nullopt;  // store() reports the problem
  }
  const fs::path path = dir / (key.hex + std::string(kLockSuffix));
  const auto deadline = std::chrono::steady_clock::now() + settings_.lock_timeout;
  auto pause = std::chrono::milliseconds(1);
  bool waited = false;
  for (;;) {
    const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
      return std::nullopt;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
      struct stat held {};
      struct stat named {};
      // The holder before us unlinks the file before unlocking: make sure ours is still the one
      // the path names, or every later process would lock a different file.
      if (fstat(fd, &held) == 0 && stat(path.c_str(), &named) == 0 && held.st_ino == named.st_ino &&
          held.st_dev == named.st_dev) {
        if (waited) {
          counters().waits.fetch_add(1, std::memory_order_relaxed);
        }
        return KeyLock(path, fd);
      }
      close(fd);
      continue;
    }
    const int error = errno;
    close(fd);
    if (error != EWOULDBLOCK && error != EINTR) {
      log().debug("kjit: no lock for cache key {} ({}); compiling without one", key.hex,
                  errno_text(error));
      return std::nullopt;  // e.g. ENOLCK on some network file systems: correct, maybe twice
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      log().warn("kjit: waited {} for another process to compile cache key {}; compiling here too",
                 settings_.lock_timeout, key.hex);
      return std::nullopt;
    }
    waited = true;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
}

void DiskCache::store(const CacheKey& key, const backend::Binary& binary, const EntryNotes& notes) {
  if (!writable_) {
    return;
  }
  const fs::path file = entry_path(settings_.user_dir, key.hex);
  if (mkdir(file.parent_path().c_str(), 0700) != 0 && errno != EEXIST) {
    warn_once(fmt::format("kjit: cannot create cache directory '{}': {}",
                          file.parent_path().string(), errno_text(errno)));
    return;
  }
  nlohmann::ordered_json manifest;
  manifest["key"] = key.hex;
  manifest["program"] = notes.program;
  manifest["format"] = binary.format;
  manifest["kernel_symbols"] = binary.kernel_symbols;
  manifest["compile_ms"] = notes.compile_ms;
  manifest["created"] = fmt::format("{:%FT%TZ}", fmt::gmtime(std::time(nullptr)));
  auto& components = manifest["components"] = nlohmann::ordered_json::array();
  for (const auto& [name, value] : key.components) {
    components.push_back({name, value});
  }
  fs::path notes_file = file;
  notes_file.replace_extension(kNotesSuffix);
  // The manifest first: an entry never exists without the notes that explain it. (No fsync: a
  // file torn by a crash fails verification on read and is rebuilt.)
  auto problem = write_file_atomically(notes_file, manifest.dump(2) + "\n");
  if (!problem) {
    problem = write_file_atomically(file, encode_entry(key.hex, binary));
  }
  if (problem) {
    warn_once(fmt::format("kjit: cannot store '{}' in the cache: {}", notes.program, *problem));
    return;
  }
  if (notes.counted) {
    counters().stored.fetch_add(1, std::memory_order_relaxed);
  }
  note_in_use(key.hex);
  if (settings_.max_bytes) {
    evict_to(*settings_.max_bytes);
  }
}

std::vector<EntryFile> DiskCache::entries(bool all_tiers) const {
  std::vector<EntryFile> found;
  const std::vector<fs::path> dirs =
      all_tiers
          ? tiers()
          : (user_readable_ ? std::vector<fs::path>{settings_.user_dir} : std::vector<fs::path>{});
  for (const fs::path& dir : dirs) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path& p = it->path();
      if (it.depth() > 1 || p.extension() != kEntrySuffix || !is_key(p.stem().string())) {
        continue;
      }
      EntryFile e;
      e.file = p;
      e.key = p.stem().string();
      std::error_code size_ec;
      e.bytes = fs::file_size(p, size_ec);
      fs::path notes = p;
      notes.replace_extension(kNotesSuffix);
      const auto notes_size = fs::file_size(notes, size_ec);
      e.bytes += size_ec ? 0 : notes_size;
      e.used = fs::last_write_time(p, size_ec);
      found.push_back(std::move(e));
    }
  }
  return found;
}

std::size_t DiskCache::evict_to(std::uint64_t max_bytes) {
  if (!writable_) {
    return 0;
  }
  std::vector<EntryFile> all = entries(false);
  std::uint64_t total = 0;
  for (const EntryFile& e : all) {
    total += e.bytes;
  }
  if (total <= max_bytes) {
    return 0;
  }
  std::sort(all.begin(), all.end(),
            [](const EntryFile& a, const EntryFile& b) { return a.used < b.used; });
  std::set<std::string> spared;
  {
    const std::lock_guard lock(in_use_mutex_);
    spared = in_use_;
  }
  std::size_t removed = 0;
  for (const EntryFile& e : all) {
    if (total <= max_bytes) {
      break;
    }
    if (spared.contains(e.key)) {
      continue;
    }
    remove_entry(e.file);
    total -= e.bytes;
    ++removed;
  }
  counters().evicted.fetch_add(removed, std::memory_order_relaxed);
  if (total > max_bytes) {
    log().info("kjit: the cache holds {} bytes, over its cap of {}: the rest is in use", total,
               max_bytes);
  }
  return removed;
}

std::size_t DiskCache::remove_stale_temporaries(std::chrono::seconds age) {
  if (!writable_) {
    return 0;
  }
  std::size_t removed = 0;
  const auto now = fs::file_time_type::clock::now();
  std::error_code ec;
  for (fs::recursive_directory_iterator it(settings_.user_dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.find(kTempFileMark) == std::string::npos) {
      continue;
    }
    std::error_code time_ec;
    const auto written = fs::last_write_time(it->path(), time_ec);
    if (!time_ec && now - written >= age && fs::remove(it->path(), time_ec)) {
      ++removed;
    }
  }
  return removed;
}

std::size_t DiskCache::clear() {
  std::size_t removed = 0;
  for (const EntryFile& e : entries(false)) {
    remove_entry(e.file);
    ++removed;
  }
  remove_stale_temporaries(std::chrono::seconds(0));
  return removed;
}

namespace {

std::mutex& cache_mutex() {
  static std::mutex m;
  return m;
}

// Leaked on purpose, like the device registry: kernels may be compiled during exit.
DiskCache* current_cache = nullptr;  // guarded by cache_mutex()

}  // namespace

DiskCache& disk_cache() {
  const std::lock_guard lock(cache_mutex());
  if (current_cache == nullptr) {
    current_cache = new DiskCache(CacheSettings::from_environment());  // may throw ConfigError
  }
  return *current_cache;
}

DiskCache& use_disk_cache(CacheSettings settings) {
  const std::lock_guard lock(cache_mutex());
  // The old one is kept, not freed: another thread may be using it.
  static auto* retired = new std::vector<DiskCache*>();
  if (current_cache != nullptr) {
    retired->push_back(current_cache);
  }
  current_cache = new DiskCache(std::move(settings));
  return *current_cache;
}

}  // namespace kjit::detail::cache
