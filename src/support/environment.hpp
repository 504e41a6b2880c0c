// The environment variables kjit reads, each parsed and validated in one place.
#pragma once

#include <spdlog/common.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::detail::environment {

/// The variable's value, or nullopt when it is unset.
std::optional<std::string> get(const char* name);

/// KJIT_LOG_LEVEL: trace, debug, info, warn, error, critical or off; unset or empty gives warn.
spdlog::level::level_enum log_level();
/// Parses a log level name; ConfigError for anything else.
spdlog::level::level_enum parse_log_level(std::string_view text);

/// KJIT_CPU_THREADS: worker threads of the CPU backend; unset or empty gives the number of cores.
std::uint32_t cpu_threads();
/// Parses a thread count from 1 to 4096; ConfigError for anything else.
std::uint32_t parse_cpu_threads(std::string_view text);

/// KJIT_CPU_BARRIERS: how the CPU backend runs the threads of kernels that call __syncthreads():
/// "regions" (loops from barrier to barrier; the default when unset or empty) gives true,
/// "fibers" false. ConfigError for anything else.
bool cpu_split_barriers();
bool parse_cpu_barriers(std::string_view text);

/// KJIT_CPU_WARPS: how the CPU backend runs warp shuffles whose lanes all reach them together:
/// "vectors" (a warp's lanes as the lanes of vectors; the default when unset or empty) gives
/// true, "meetings" (every shuffle a meeting through memory, as elsewhere) false. ConfigError
/// for anything else.
bool cpu_warps_as_vectors();
bool parse_cpu_warps(std::string_view text);

/// KJIT_PERF_MAP: "1" makes the CPU backend list the code of every kernel it loads in
/// /tmp/perf-<pid>.map, where Linux perf finds names for JIT-compiled code; "0", unset or empty:
/// off. ConfigError for anything else.
bool perf_map();
/// KJIT_CPU_PIN: '1' binds each CPU worker thread to one core, '0' leaves them to the scheduler
/// (the default; docs/cpu-backend.md says what each measured).
bool cpu_pin();
bool parse_cpu_pin(std::string_view text);
bool parse_perf_map(std::string_view text);
/// KJIT_DEBUG: '1' compiles every program from source as CompileOptions::debug does; '0', unset
/// or empty: each program's own option decides. ConfigError for anything else.
bool debug();
bool parse_debug(std::string_view text);
/// What KJIT_CHECK asks of the CPU backend: a comma-separated list of 'memory' (red zones around
/// CPU allocations, a check before each memory access: cpu_memory_check.hpp) and 'race' (two
/// threads of a block touching the same byte of shared memory between barriers, one writing:
/// cpu_race_check.hpp); 'none', unset or empty: nothing. ConfigError for anything else.
struct Checks {
  bool memory = false;
  bool race = false;
  /// Whether kernels are compiled with a check before each access (either check needs them).
  [[nodiscard]] bool any() const { return memory || race; }
  bool operator==(const Checks&) const = default;
};
Checks checks();
Checks parse_checks(std::string_view text);
/// KJIT_HOT_RELOAD: '1' makes every Program::from_file program watch its files, as
/// CompileOptions::watch does; '0', unset or empty: each program's own option decides.
bool hot_reload();
bool parse_hot_reload(std::string_view text);

/// KJIT_DEVICE, or nullopt when it is unset or blank.
std::optional<std::string> device_spec();

enum class CacheMode { read_write, read_only, off };
/// KJIT_CACHE: rw (default when unset or empty), ro or off; ConfigError for anything else.
CacheMode cache_mode();
CacheMode parse_cache_mode(std::string_view text);
/// KJIT_CACHE_DIR, else $XDG_CACHE_HOME/kjit, else $HOME/.cache/kjit. ConfigError when it is
/// relative, or when none of them is set.
std::filesystem::path cache_dir();
/// KJIT_CACHE_MAX_BYTES: a size cap ("500000000", "512M", "2G"; K, M, G, T are powers of
/// 1024); nullopt when unset or empty. ConfigError for anything else.
std::optional<std::uint64_t> cache_max_bytes();
std::uint64_t parse_byte_count(std::string_view text, const char* variable);
/// KJIT_CACHE_PATH: read-only cache directories searched before the user's, separated by ':'.
/// ConfigError for a relative one.
std::vector<std::filesystem::path> cache_path();
std::vector<std::filesystem::path> parse_cache_path(std::string_view text);
/// KJIT_RECORD_MANIFEST: where to record the programs a run compiled, or nullopt.
std::optional<std::filesystem::path> record_manifest();
/// KJIT_REPRO_DIR: where each failed compile leaves a bundle that reproduces it; unset: nowhere.
std::optional<std::filesystem::path> repro_dir();

/// How compiles run, from KJIT_COMPILE_ISOLATION and KJIT_COMPILE_TIMEOUT.
struct CompileIsolation {
  /// In a child process (the kjit-compile helper), so that a compiler that crashes, aborts or
  /// hangs cannot take the host program with it.
  bool in_child = false;
  /// How long a compile may take before its child process is killed; nullopt: no limit.
  std::optional<std::chrono::milliseconds> timeout;
};
/// KJIT_COMPILE_ISOLATION: "process", or "none" (the default when unset or empty).
/// KJIT_COMPILE_TIMEOUT: seconds ("30", "2.5"), more than 0 and at most a day; setting it runs
/// compiles in a child process, since only a process can be stopped. ConfigError for anything
/// else, and for a timeout with KJIT_COMPILE_ISOLATION=none.
CompileIsolation compile_isolation();
CompileIsolation parse_compile_isolation(std::string_view isolation, std::string_view timeout);
/// KJIT_COMPILE_FORK: "auto" (the default when unset or empty) runs concurrent compiles of a
/// compiler that compiles one program at a time in a process in forked processes; "off" keeps
/// them in this process. ConfigError for anything else.
bool compile_fork();
bool parse_compile_fork(std::string_view text);
/// KJIT_COMPILE_HELPER: the kjit-compile executable (an absolute path), or nullopt to use the
/// one installed beside libkjit. ConfigError for a relative path.
std::optional<std::filesystem::path> compile_helper();

}  // namespace kjit::detail::environment
