// kjit-warm: compiles kernels into kjit's disk cache for targets that need not be present, and
// maintains the cache (stat, verify, prune, clear, explain). README.md in this folder and
// docs/cache.md describe it.
#include "backends/kit/backend.hpp"
#include "core/tooling/cache_tools.hpp"
#include "core/tooling/offline_compilers.hpp"
#include "support/environment.hpp"
#include "tools/warm_inputs.hpp"

#include <kjit/kjit.hpp>

#include <fmt/format.h>
#include <unistd.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace kjit::warm {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

struct Job {
  const detail::ManifestBuild* build = nullptr;
  std::string target;
  // "compiled", "cached", "cached, published" (sent to the remote tier), "failed",
  // "recorded not found"
  std::string status;
  std::string message;
  double ms = 0;
  /// With --embed-base: the entry's key and its key without the compiler's identity.
  std::pair<std::string, std::string> keys;
};

std::string describe(const backend::CompileRequest& r) {
  std::vector<std::string> kernels;
  kernels.reserve(r.kernel_names.size());
  for (std::size_t i = 0; i < r.kernel_names.size(); ++i) {
    kernels.push_back(r.kernel_label(i));
  }
  return fmt::format("{} [{}]", r.program_name, fmt::join(kernels, ", "));
}

void run_job(Job& job, tooling::OfflineCompilers& targets, bool embedding, bool remote) {
  const auto start = std::chrono::steady_clock::now();
  try {
    backend::Compiler& compiler = targets.compiler(job.target, job.build->request);
    job.status = tooling::build_into_cache(job.build->request, compiler) ? "cached" : "compiled";
    if (remote && job.status == "cached" &&
        tooling::publish_to_remote(job.build->request, compiler)) {
      job.status = "cached, published";
    }
    if (embedding) {
      const backend::TargetIdentity identity = compiler.identity();
      std::string key = tooling::build_key(job.build->request, identity).hex;
      std::string precompiled = tooling::precompiled_key(job.build->request, identity.target);
      if (!key.empty() && !precompiled.empty()) {
        job.keys = {std::move(key), std::move(precompiled)};
      }
    }
  } catch (const KernelNotFoundError& e) {
    job.status = job.build->not_found ? "recorded not found" : "failed";
    job.message = e.what();
  } catch (const std::exception& e) {
    job.status = "failed";
    job.message = e.what();
  }
  job.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

struct CompileArgs {
  std::vector<std::string> inputs;
  std::vector<std::string> targets;
  bool detected = false;
  unsigned jobs = std::max(1U, std::thread::hardware_concurrency());
  std::string json;
  bool quiet = false;
  FileOptions files;
  std::vector<std::string> include_dirs;
  std::vector<std::string> defines;
  std::string embed_base;
  std::vector<std::string> embedded_headers;
  std::string remote;  // --remote URL
  bool stats = false;
};

/// The process's cache counters (--stats), the remote tier's when there is one.
void print_stats() {
  const CacheStats s = cache_stats();
  std::printf("disk: %llu hits, %llu misses, %llu compiles, %llu stored, %llu rejected\n",
              static_cast<unsigned long long>(s.hits), static_cast<unsigned long long>(s.misses),
              static_cast<unsigned long long>(s.compiles),
              static_cast<unsigned long long>(s.stored),
              static_cast<unsigned long long>(s.rejected));
  const std::string remote = tooling::remote_state();
  const auto n = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
  std::printf(
      "remote%s%s: %llu hits, %llu misses, %llu stored, %llu rejected, %llu leases taken, %llu "
      "waits, %llu takeovers, %llu failures\n",
      remote.empty() ? "" : " ", remote.empty() ? " (off)" : remote.c_str(), n(s.remote_hits),
      n(s.remote_misses), n(s.remote_stored), n(s.remote_rejected), n(s.remote_leases),
      n(s.remote_waits), n(s.remote_takeovers), n(s.remote_failures));
}

std::vector<Job> plan(const CompileArgs& args, const Inputs& inputs) {
  std::vector<std::string> targets = args.targets;
  if (args.detected) {
    for (std::string& t : tooling::detected_targets()) {
      targets.push_back(std::move(t));
    }
  }
  std::vector<Job> jobs;
  for (const detail::ManifestBuild& b : inputs.builds) {
    std::vector<std::string> for_build = targets;
    if (for_build.empty() && !b.target.empty()) {
      for_build.push_back(b.target);  // a manifest's own target when none is asked for
    }
    if (for_build.empty()) {
      throw ConfigError(
          fmt::format("kjit-warm: no target for {}: give --target (cpu, cuda:sm_90, ...) or "
                      "--detected",
                      describe(b.request)));
    }
    for (const std::string& t : for_build) {
      jobs.push_back({&b, t, {}, {}, 0, {}});
    }
  }
  return jobs;
}

FileOptions file_options(const CompileArgs& args) {
  FileOptions options = args.files;
  for (const std::string& d : args.include_dirs) {
    options.include_dirs.push_back(fs::absolute(d).lexically_normal());
  }
  if (!args.embed_base.empty()) {
    options.embed_base = fs::absolute(args.embed_base).lexically_normal();
  } else if (!args.embedded_headers.empty()) {
    throw ConfigError("kjit-warm: --embedded-header needs --embed-base");
  }
  for (const std::string& h : args.embedded_headers) {
    options.embedded_headers.emplace_back(h);
  }
  for (const std::string& d : args.defines) {
    const auto eq = d.find('=');
    options.defines.emplace_back(d.substr(0, eq), eq == std::string::npos ? "" : d.substr(eq + 1));
  }
  return options;
}

/// Runs `jobs` on `args.jobs` threads, printing their progress; the seconds it took.
double run_jobs(std::vector<Job>& jobs, tooling::OfflineCompilers& targets,
                const CompileArgs& args) {
  const bool tty = isatty(fileno(stderr)) != 0 && !args.quiet;
  const bool remote = !tooling::remote_state().empty();  // --remote or KJIT_CACHE_REMOTE
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::mutex print;
  const auto start = std::chrono::steady_clock::now();
  const auto worker = [&] {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      run_job(jobs[i], targets, !args.embed_base.empty(), remote);
      const std::size_t n = ++done;
      const std::lock_guard lock(print);
      const std::string what = describe(jobs[i].build->request);
      if (tty) {
        std::fprintf(stderr, "\r\033[K[%zu/%zu] %s %s for %s", n, jobs.size(),
                     jobs[i].status.c_str(), what.c_str(), jobs[i].target.c_str());
      } else if (!args.quiet) {
        std::fprintf(stderr, "kjit-warm: [%zu/%zu] %s %s for %s (%.0f ms)\n", n, jobs.size(),
                     jobs[i].status.c_str(), what.c_str(), jobs[i].target.c_str(), jobs[i].ms);
      }
      if (jobs[i].status == "failed") {
        std::fprintf(stderr, "%s%s\n", tty ? "\n" : "", jobs[i].message.c_str());
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::min<std::size_t>(args.jobs, jobs.size()); ++t) {
    pool.emplace_back(worker);
  }
  for (auto& t : pool) {
    t.join();
  }
  if (tty) {
    std::fprintf(stderr, "\r\033[K");
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Prints a row per target (compiled, already cached, failed); the number of failed builds.
int print_summary(const std::vector<Job>& jobs, const CompileArgs& args, double seconds) {
  struct Row {
    int compiled = 0, cached = 0, failed = 0;
    double ms = 0;
  };
  std::map<std::string, Row> rows;
  for (const Job& j : jobs) {
    Row& r = rows[j.target];
    r.ms += j.ms;
    (j.status == "failed" ? r.failed : j.status.starts_with("cached") ? r.cached : r.compiled)++;
  }
  std::printf("%-18s %9s %15s %7s %12s\n", "target", "compiled", "already cached", "failed",
              "compile ms");
  int failed = 0;
  for (const auto& [target, r] : rows) {
    std::printf("%-18s %9d %15d %7d %12.0f\n", target.c_str(), r.compiled, r.cached, r.failed,
                r.ms);
    failed += r.failed;
  }
  std::printf("%zu builds in %.2f s with %u jobs; cache %s\n", jobs.size(), seconds, args.jobs,
              tooling::cache_state().user_dir.c_str());
  return failed;
}

/// For kjit_add_kernels: each entry's second key, embedded beside it.
void write_embedded_keys(const std::vector<Job>& jobs) {
  std::ofstream keys(tooling::cache_state().user_dir / "embedded-keys.txt", std::ios::trunc);
  for (const Job& j : jobs) {
    if (!j.keys.first.empty()) {
      keys << j.keys.first << ' ' << j.keys.second << '\n';
    }
  }
}

/// The builds as JSON (--json): to standard output for "-", else to that file.
void write_json_report(const CompileArgs& args, const Inputs& inputs, const std::vector<Job>& jobs,
                       double seconds) {
  Json report{{"cache", tooling::cache_state().user_dir.string()},
              {"seconds", seconds},
              {"builds", Json::array()},
              {"notes", inputs.notes}};
  for (const Job& j : jobs) {
    report["builds"].push_back({{"program", j.build->request.program_name},
                                {"build", describe(j.build->request)},
                                {"target", j.target},
                                {"status", j.status},
                                {"ms", j.ms},
                                {"message", j.message}});
  }
  if (args.json == "-") {
    std::printf("%s\n", report.dump(2).c_str());
  } else {
    std::ofstream(args.json, std::ios::trunc) << report.dump(2) << "\n";
  }
}

int compile_command(const CompileArgs& args) {
  const tooling::CacheState cache = tooling::cache_state();
  if (!cache.writable) {
    std::fprintf(
        stderr, "kjit-warm: the cache '%s' is not writable (KJIT_CACHE=%s); nothing to warm\n",
        cache.user_dir.c_str(), cache.enabled ? "ro, or a directory kjit cannot use" : "off");
    return 2;
  }
  const Inputs inputs = collect_inputs(args.inputs, file_options(args));
  for (const std::string& note : inputs.notes) {
    std::fprintf(stderr, "kjit-warm: %s\n", note.c_str());
  }
  std::vector<Job> jobs = plan(args, inputs);
  tooling::OfflineCompilers targets;
  for (const Job& j : jobs) {
    (void)targets.compiler(j.target, j.build->request);  // an unknown target fails now
  }

  const double seconds = run_jobs(jobs, targets, args);
  const int failed = print_summary(jobs, args, seconds);
  if (args.stats) {
    print_stats();
  }
  if (!args.embed_base.empty()) {
    write_embedded_keys(jobs);
  }
  if (!args.json.empty()) {
    write_json_report(args, inputs, jobs, seconds);
  }
  return failed == 0 ? 0 : 1;
}

int stat_command() {
  const tooling::CacheState s = tooling::cache_state();
  std::printf("user cache:     %s (%s)\n", s.user_dir.c_str(),
              !s.enabled   ? "off"
              : s.writable ? "read-write"
                           : "read-only");
  for (const fs::path& d : s.read_only_dirs) {
    std::printf("read-only tier: %s\n", d.c_str());
  }
  std::printf("size cap:       %s\n",
              s.max_bytes ? fmt::format("{} bytes", *s.max_bytes).c_str() : "none");
  for (const fs::path& dir : s.tiers) {
    std::uint64_t bytes = 0;
    std::map<std::string, int> formats;
    const std::vector<tooling::Entry> entries = tooling::tier_entries(dir);
    for (const tooling::Entry& e : entries) {
      bytes += e.bytes;
      std::ifstream notes(fs::path(e.file).replace_extension(".json"));
      const Json j = Json::parse(notes, nullptr, false);
      formats[j.is_object() ? j.value("format", "?") : "?"]++;
    }
    std::printf("%s: %zu entries, %.1f MiB", dir.c_str(), entries.size(),
                static_cast<double>(bytes) / (1 << 20));
    for (const auto& [format, n] : formats) {
      std::printf(", %d %s", n, format.c_str());
    }
    std::printf("\n");
  }
  return 0;
}

int verify_command(bool fix) {
  const tooling::CacheState s = tooling::cache_state();
  int bad = 0;
  std::size_t checked = 0;
  for (const tooling::Entry& e : tooling::all_entries()) {
    const std::string problem = tooling::entry_problem(e);
    ++checked;
    if (problem.empty()) {
      continue;
    }
    ++bad;
    const bool removable = fix && s.writable && e.file.string().starts_with(s.user_dir.string());
    std::printf("bad: %s: %s%s\n", e.file.c_str(), problem.c_str(), removable ? " (removed)" : "");
    if (removable) {
      tooling::remove_entry(e.file);
    }
  }
  std::printf("%zu entries checked, %d bad\n", checked, bad);
  return bad == 0 || fix ? 0 : 1;
}

int prune_command(const std::string& max_bytes_text) {
  std::optional<std::uint64_t> cap = tooling::cache_state().max_bytes;
  if (!max_bytes_text.empty()) {
    cap = detail::environment::parse_byte_count(max_bytes_text, "--max-bytes");
  }
  const std::size_t temps = tooling::remove_stale_temporaries(std::chrono::hours(1));
  const std::size_t evicted = cap ? tooling::evict_to(*cap) : 0;
  std::printf("removed %zu entries (cap %s) and %zu stale temporary files\n", evicted,
              cap ? fmt::format("{} bytes", *cap).c_str() : "none", temps);
  return 0;
}

int clear_command() {
  const tooling::CacheState s = tooling::cache_state();
  if (!s.writable) {
    std::fprintf(stderr, "kjit-warm: the cache '%s' is not writable\n", s.user_dir.c_str());
    return 2;
  }
  std::printf("removed %zu entries from %s\n", tooling::clear_cache(), s.user_dir.c_str());
  return 0;
}

/// Why a build misses: the entry that shares most of its key, and what differs.
int explain_command(const CompileArgs& args) {
  const Inputs inputs = collect_inputs(args.inputs, file_options(args));
  const std::vector<Job> jobs = plan(args, inputs);
  tooling::OfflineCompilers targets;
  std::vector<Json> known;  // the key manifests of every tier's entries
  for (const tooling::Entry& e : tooling::all_entries()) {
    std::ifstream in(fs::path(e.file).replace_extension(".json"));
    Json j = Json::parse(in, nullptr, false);
    if (j.is_object() && j.contains("components")) {
      j["file"] = e.file.string();
      known.push_back(std::move(j));
    }
  }
  for (const Job& job : jobs) {
    const tooling::BuildKey k = tooling::build_key(
        job.build->request, targets.compiler(job.target, job.build->request).identity());
    std::printf("%s for %s:\n", describe(job.build->request).c_str(), job.target.c_str());
    if (k.hex.empty()) {
      std::printf("  not cacheable: %s\n", k.uncacheable.c_str());
      continue;
    }
    std::printf("  key %s\n", k.hex.c_str());
    const Json* best = nullptr;
    std::size_t best_score = 0;
    for (const Json& j : known) {
      if (j.value("key", "") == k.hex) {
        best = &j;
        best_score = SIZE_MAX;
        break;
      }
      std::size_t score = 0;
      for (const auto& c : j.at("components")) {
        for (const auto& [name, value] : k.components) {
          score += c.size() == 2 && c[0] == name && c[1] == value;
        }
      }
      if (score > best_score) {
        best = &j;
        best_score = score;
      }
    }
    if (best_score == SIZE_MAX) {
      std::printf("  cached: %s\n", best->value("file", "").c_str());
      continue;
    }
    if (best == nullptr) {
      std::printf("  not cached, and the cache holds nothing like it\n");
      continue;
    }
    std::printf("  not cached; the nearest entry (%s, %s) differs in:\n",
                best->value("program", "?").c_str(), best->value("key", "?").c_str());
    std::map<std::string, std::string> theirs;
    for (const auto& c : best->at("components")) {
      theirs[c[0].get<std::string>()] = c[1].get<std::string>();
    }
    std::set<std::string> ours;
    for (const auto& [name, value] : k.components) {
      ours.insert(name);
      const auto it = theirs.find(name);
      if (it == theirs.end()) {
        std::printf("    %s: %s (the entry has none)\n", name.c_str(), value.c_str());
      } else if (it->second != value) {
        std::printf("    %s: %s (the entry has %s)\n", name.c_str(), value.c_str(),
                    it->second.c_str());
      }
    }
    for (const auto& [name, value] : theirs) {
      if (!ours.contains(name)) {
        std::printf("    %s: none (the entry has %s)\n", name.c_str(), value.c_str());
      }
    }
  }
  return 0;
}

void add_build_options(CLI::App& app, CompileArgs& args) {
  app.add_option(
         "inputs", args.inputs,
         "kernel files, folders of them, bitcode (.bc, with --kernel), or manifests (.json)")
      ->required();
  // Repeatable options take one value each time: `--target cpu kernels/` is one target and one
  // input, as with compilers' -I and -D (CLI11's vectors would otherwise take every value).
  app.add_option("-t,--target", args.targets,
                 "cpu, cuda:sm_90, cuda:compute_90, hip:gfx90a (repeatable)")
      ->allow_extra_args(false);
  app.add_flag("--detected", args.detected, "also the targets of the devices present");
  app.add_option("-I,--include-dir", args.include_dirs,
                 "include folder for kernel files (repeatable)")
      ->allow_extra_args(false);
  app.add_option("-D,--define", args.defines, "NAME[=VALUE] for kernel files (repeatable)")
      ->allow_extra_args(false);
  app.add_option("-k,--kernel", args.files.kernels,
                 "a kernel of the kernel files to compile with the others named so (repeatable; "
                 "default: each alone)")
      ->allow_extra_args(false);
  app.add_flag("--fast-math", args.files.fast_math, "fast math for kernel files");
  app.add_flag("--debug", args.files.debug,
               "compile kernel files for a debugger (CompileOptions::debug)");
  app.add_option("--embed-base", args.embed_base,
                 "compile kernel files as Program::from_embedded() does, named relative to this "
                 "folder (kjit_add_kernels' PRECOMPILE)");
  app.add_option("--embedded-header", args.embedded_headers,
                 "a header embedded with them, in memory (repeatable; needs --embed-base)")
      ->allow_extra_args(false);
}

}  // namespace
}  // namespace kjit::warm

int main(int argc, char** argv) {
  using namespace kjit::warm;
  CLI::App app{
      "kjit-warm: compiles kernels into kjit's disk cache, for targets that need not be present, "
      "and maintains the cache.\nWith no subcommand: compile."};
  std::string cache_dir;
  app.add_option("--cache-dir", cache_dir, "the cache to use (default: KJIT_CACHE_DIR, ...)");
  CompileArgs args;
  add_build_options(app, args);
  app.add_option("-j,--jobs", args.jobs, "compiles at once (default: all cores)")
      ->check(CLI::PositiveNumber);
  app.add_option("--json", args.json, "write a JSON report to this file ('-': stdout)");
  app.add_option("--remote", args.remote,
                 "also fill this remote tier: redis://[[user]:password@]host[:port][/db] or "
                 "unix://... (default: KJIT_CACHE_REMOTE)");
  app.add_flag("--stats", args.stats, "print the disk and remote cache counters at the end");
  app.add_flag("-q,--quiet", args.quiet, "no progress, only the summary and failures");
  app.require_subcommand(0, 1);
  CLI::App* stat = app.add_subcommand("stat", "where the cache is, its size and entries");
  bool fix = false;
  CLI::App* verify = app.add_subcommand("verify", "check every entry; exit 1 if one is bad");
  verify->add_flag("--fix", fix, "remove the bad entries of the user tier");
  std::string max_bytes;
  CLI::App* prune =
      app.add_subcommand("prune", "evict least recently used entries down to the cap");
  prune->add_option("--max-bytes", max_bytes, "the cap (default: KJIT_CACHE_MAX_BYTES)");
  CLI::App* clear = app.add_subcommand("clear", "remove every entry of the user tier");
  CompileArgs explain_args;
  CLI::App* explain = app.add_subcommand("explain", "why a build is not cached");
  add_build_options(*explain, explain_args);
  // The inputs of the compile command are only required without a subcommand.
  app.get_option("inputs")->required(false);
  app.allow_extras(false);
  CLI11_PARSE(app, argc, argv);
  try {
    kjit::tooling::open_cache(cache_dir.empty() ? std::nullopt
                                                : std::optional<std::filesystem::path>(cache_dir));
    if (!args.remote.empty()) {
      kjit::tooling::open_remote(args.remote);
    }
    if (*stat) {
      return stat_command();
    }
    if (*verify) {
      return verify_command(fix);
    }
    if (*prune) {
      return prune_command(max_bytes);
    }
    if (*clear) {
      return clear_command();
    }
    if (*explain) {
      return explain_command(explain_args);
    }
    if (args.inputs.empty()) {
      std::fprintf(stderr,
                   "kjit-warm: nothing to compile: give kernel files, folders or "
                   "manifests (--help)\n");
      return 2;
    }
    return compile_command(args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
