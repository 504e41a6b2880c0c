#include "core/cache/cached_build.hpp"

#include "core/cache/cache_counters.hpp"
#include "core/cache/cache_key.hpp"
#include "core/cache/disk_cache.hpp"
#include "core/cache/identity_memo.hpp"
#include "core/cache/remote_tier.hpp"
#include "core/child_compile.hpp"
#include "core/repro_bundle.hpp"
#include "core/tooling/manifest.hpp"
#include "support/environment.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

namespace kjit::detail::cache {

namespace {

/// The format of an entry that records "no such kernel" instead of a binary.
constexpr std::string_view kNotFoundFormat = "kernel-not-found";

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// Loads a cached binary (from any tier) on `device`, when there is one, into `out`, timed
/// from `start`, when the lookup began. The error of a binary that will not load, or nullopt.
std::optional<std::string> load_hit(const backend::Binary& binary, backend::Device* device,
                                    Clock::time_point start, CachedBuild& out) {
  try {
    if (device != nullptr) {
      out.module = device->load(binary);
    }
  } catch (const ConfigError&) {
    throw;  // the environment is wrong, not the entry
  } catch (const Error& e) {
    return e.what();
  }
  out.symbols = binary.kernel_symbols;  // a name per kernel; the binary may still be stored
  out.from_cache = true;
  out.load_ms = ms_since(start);
  Counters::add_time(counters().load_ns, Clock::now() - start);
  return std::nullopt;
}

/// Loads a verified entry; one that will not load is discarded (a miss).
bool try_entry(DiskCache& cache, const CacheKey& key, backend::Device* device, CachedBuild& out) {
  const auto start = Clock::now();
  std::optional<FoundEntry> found = cache.lookup(key);
  if (!found) {
    return false;
  }
  if (found->binary.format == kNotFoundFormat) {
    // The compiler found no such kernel before; rethrow that without running it again.
    counters().hits.fetch_add(1, std::memory_order_relaxed);
    throw KernelNotFoundError(found->binary.log);
  }
  if (const auto error = load_hit(found->binary, device, start, out)) {
    cache.discard(*found, *error);
    return false;
  }
  counters().hits.fetch_add(1, std::memory_order_relaxed);
  return true;
}

/// For a compiler that cannot be loaded: a binary precompiled into the program for one of the
/// targets the device loads, whichever compiler made it.
bool try_precompiled(DiskCache& cache, const backend::CompileRequest& request,
                     backend::Compiler& compiler, backend::Device& device, const Error& why,
                     CachedBuild& out) {
  for (const std::string& target : compiler.loadable_targets()) {
    const KeyResult made = make_precompiled_key(request, target);
    if (made.key && try_entry(cache, *made.key, &device, out)) {
      log().info(
          "kjit: '{}' loaded from the binary precompiled into the program for {}: its "
          "compiler cannot be used here ({})",
          request.program_name, target, why.what());
      return true;
    }
  }
  return false;
}

/// Ends the remote lease on compiling a key, if this process took one and has not published the
/// entry (its compile failed, or its entry went under another key), so that a waiter takes over.
/// It holds the tier that gave the lease: the destructor looks nothing up (and so cannot throw).
class RemoteLease {
 public:
  RemoteLease() = default;
  RemoteLease(const RemoteLease&) = delete;
  RemoteLease& operator=(const RemoteLease&) = delete;
  /// Left without end(): the compile failed (or never ran), and waiters should not wait on it.
  ~RemoteLease() { end(true); }
  void may_hold(RemoteTier& tier, const CacheKey& key) {
    tier_ = &tier;
    key_ = key;
  }
  /// Ends it now (no-op when this process holds none).
  void end(bool failed = false) noexcept {
    if (tier_ != nullptr && key_) {
      tier_->abandon(*key_, failed);
    }
    tier_ = nullptr;
  }

 private:
  RemoteTier* tier_ = nullptr;
  std::optional<CacheKey> key_;
};

/// The entry from the remote tier (or from the process that holds the lease on compiling it),
/// loaded as a disk entry is, then written to the disk cache for the next process here. False:
/// compile it (and this process may hold the lease, which `lease` then ends if it must).
bool try_remote(DiskCache& cache, const CacheKey& key, const std::string& program,
                backend::Device* device, RemoteLease& lease, CachedBuild& out) {
  const auto start = Clock::now();
  RemoteTier& tier = remote_tier();  // ConfigError for a malformed KJIT_CACHE_REMOTE*
  std::optional<backend::Binary> binary = tier.fetch(key);
  if (!binary) {
    lease.may_hold(tier, key);
    return false;
  }
  if (binary->format == kNotFoundFormat) {
    cache.store(key, *binary, {program, 0});
    throw KernelNotFoundError(binary->log);
  }
  if (const auto error = load_hit(*binary, device, start, out)) {
    log().warn("kjit: the remote cache's entry {} for '{}' does not load ({}); compiling it",
               key.hex, program, *error);
    return false;
  }
  cache.store(key, *binary, {program, 0});  // it loads: the next process here finds it on disk
  return true;
}

/// `key` once the compiler is loaded: the identity remembered from an earlier run must still be
/// its own, so that no entry is stored under another compiler's key; if not, its own key.
std::optional<CacheKey> key_of_loaded_compiler(const backend::CompileRequest& request,
                                               backend::Compiler& compiler,
                                               const backend::TargetIdentity& remembered,
                                               CacheKey key) {
  backend::TargetIdentity actual = compiler.identity();
  if (actual.target == remembered.target && actual.facts == remembered.facts) {
    return key;
  }
  log().warn(
      "kjit: the compiler for '{}' is not the one remembered in the cache ({}); "
      "storing its program under its own key",
      request.program_name, actual.target);
  return make_key(request, actual).key;
}

/// `key`'s entry from the disk cache (waiting for another process here that compiles it), then
/// from the remote tier (or from the process that compiles it for the fleet). False: compile it,
/// holding `lock` and perhaps a remote lease.
bool find_entry(DiskCache& cache, const CacheKey& key, const std::string& program,
                backend::Device* device, std::optional<KeyLock>& lock, RemoteLease& lease,
                CachedBuild& out) {
  if (try_entry(cache, key, device, out)) {
    return true;
  }
  lock = cache.lock(key);
  if (lock && try_entry(cache, key, device, out)) {
    return true;  // another process compiled it while we waited
  }
  counters().misses.fetch_add(1, std::memory_order_relaxed);
  return try_remote(cache, key, program, device, lease, out);
}

/// Remembers that the compiler found no such kernel, so that resolving a plain template name by
/// type (a failed plain lookup, then the typed one) costs no compile on the next run.
void store_not_found(DiskCache& cache, const CacheKey& key, const std::string& program,
                     const KernelNotFoundError& e, double compile_ms) {
  backend::Binary not_found;
  not_found.program = program;
  not_found.format = std::string(kNotFoundFormat);
  not_found.log = e.what();
  cache.store(key, not_found, {program, compile_ms});
  remote_tier().publish(key, not_found);
}

CachedBuild build(const backend::CompileRequest& request, backend::Compiler& compiler,
                  backend::Device* device) {
  DiskCache& cache = disk_cache();
  CachedBuild out;
  std::optional<CacheKey> key;
  backend::TargetIdentity identity;
  if (cache.enabled()) {
    try {
      identity = remembered_identity(compiler, cache);
    } catch (const BackendError& e) {
      if (device != nullptr && try_precompiled(cache, request, compiler, *device, e, out)) {
        return out;
      }
      throw;
    }
    KeyResult made = make_key(request, identity);
    if (!made.key) {
      log().warn("kjit: '{}' is not cached: {}", request.program_name, made.uncacheable);
    }
    key = std::move(made.key);
  }
  std::optional<KeyLock> lock;  // held until the entry is stored
  RemoteLease lease;
  if (key && find_entry(cache, *key, request.program_name, device, lock, lease, out)) {
    return out;
  }
  const auto start = Clock::now();
  const auto count_compile = [&] {
    out.compile_ms = ms_since(start);
    counters().compiles.fetch_add(1, std::memory_order_relaxed);
    Counters::add_time(counters().compile_ns, Clock::now() - start);
  };
  backend::Binary binary;
  try {
    binary = compile_as_configured(compiler, request, identity.target);
  } catch (const KernelNotFoundError& e) {
    count_compile();
    if (key) {
      store_not_found(cache, *key, request.program_name, e, out.compile_ms);
    }
    throw;
  }
  count_compile();
  if (key) {
    key = key_of_loaded_compiler(request, compiler, identity, std::move(*key));
    // Published before this process loads it: the fleet's waiters need not wait for this
    // process's device (a GPU context can take seconds when many processes start at once). A
    // binary that will not load fails alike wherever it is loaded, and is then compiled again.
    if (key) {
      remote_tier().publish(*key, binary);
    }
    lease.end();  // published, or went under another key: either way the lease is done
  }
  if (device != nullptr) {
    const auto load_start = Clock::now();
    out.module =
        device->load(binary);  // before storing: an entry that cannot load is never written
    out.load_ms = ms_since(load_start);
    Counters::add_time(counters().load_ns, Clock::now() - load_start);
  }
  if (key) {
    cache.store(*key, binary, {request.program_name, out.compile_ms});
  }
  out.symbols = std::move(binary.kernel_symbols);
  out.log = std::move(binary.log);
  return out;
}

}  // namespace

CachedBuild build_through_cache(const backend::CompileRequest& request, backend::Device& device) {
  return build_through_cache(request, device.compiler_for(request), &device);
}

namespace {

/// build(), leaving a repro bundle (KJIT_REPRO_DIR) when the compile fails (a CompileError; a
/// kernel that is not there is none: Program::kernel asks again without the signature).
CachedBuild build_or_leave_bundle(const backend::CompileRequest& request,
                                  backend::Compiler& compiler, backend::Device* device) {
  try {
    return build(request, compiler, device);
  } catch (const CompileError& e) {
    if (const auto root = environment::repro_dir()) {
      backend::TargetIdentity identity;
      try {
        identity = remembered_identity(compiler, disk_cache());
      } catch (const std::exception&) {
        identity.target = "unknown";
      }
      (void)write_repro_bundle(*root, request, identity, e.what());
    }
    throw;
  }
}

}  // namespace

CachedBuild build_through_cache(const backend::CompileRequest& request, backend::Compiler& compiler,
                                backend::Device* device) {
  if (device == nullptr || !recording_manifest()) {
    return build_or_leave_bundle(request, compiler, device);
  }
  const std::string target = remembered_identity(compiler, disk_cache()).target;
  try {
    CachedBuild out = build_or_leave_bundle(request, compiler, device);
    record_build({request, target, false});
    return out;
  } catch (const KernelNotFoundError&) {
    record_build({request, target, true});
    throw;
  }
}

}  // namespace kjit::detail::cache
