#include "core/repro_bundle.hpp"

#include "core/cache/cache_key.hpp"
#include "core/tooling/manifest.hpp"
#include "source/include_scan.hpp"
#include "support/file_text.hpp"
#include "support/logging.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <stdexcept>

namespace kjit::detail {

namespace {

/// The request with its headers from disk taken into memory: the bundle then compiles anywhere.
backend::CompileRequest self_contained(const backend::CompileRequest& request) {
  backend::CompileRequest r = request;
  if (r.input == backend::InputKind::source) {
    for (const auto& [name, path] : kjit::source::scan_includes(request.files()).found) {
      const bool given = std::any_of(r.headers.begin(), r.headers.end(),
                                     [&](const auto& h) { return h.first == name; });
      if (!given) {
        if (std::optional<std::string> text = read_file(path)) {
          r.headers.emplace_back(name, std::move(*text));
        }
      }
    }
  }
  r.source_path.reset();  // the text goes in the manifest
  r.include_dirs.clear();
  return r;
}

/// A name for a folder or file made of `name`'s last part, without characters that need quoting.
std::string plain(const std::string& name) {
  std::string last = std::filesystem::path(name).filename().string();
  for (char& c : last) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '.' && c != '-' && c != '_') {
      c = '_';
    }
  }
  return last.empty() || last == "." || last == ".." ? std::string("program") : last;
}

void write(const std::filesystem::path& path, const std::string& text) {
  if (const auto problem = write_file_atomically(path, text)) {
    throw std::runtime_error(*problem);
  }
}

}  // namespace

std::optional<std::filesystem::path> write_repro_bundle(const std::filesystem::path& root,
                                                        const backend::CompileRequest& request,
                                                        const backend::TargetIdentity& identity,
                                                        const std::string& error) noexcept {
  try {
    static std::atomic<unsigned> counter{0};
    const auto now = std::chrono::system_clock::now();
    std::filesystem::path dir =
        root / fmt::format("{}-{:%Y%m%d-%H%M%S}-{}-{}", plain(request.program_name),
                           std::chrono::floor<std::chrono::seconds>(now), ::getpid(),
                           counter.fetch_add(1));
    std::filesystem::create_directories(dir);
    const backend::CompileRequest whole = self_contained(request);
    write(dir / "build.json", manifest_text({{whole, identity.target, false}}));
    // The same texts as plain files, for reading.
    if (whole.input == backend::InputKind::source) {
      write(dir / plain(request.program_name), whole.source);
      for (const auto& [name, text] : whole.headers) {
        std::filesystem::create_directories(dir / "headers");
        write(dir / "headers" / plain(name), text);
      }
    }
    write(dir / "error.txt", error + "\n");
    std::string versions = fmt::format("kjit {} sources {}\ntarget {}\n", KJIT_VERSION,
                                       cache::source_fingerprint(), identity.target);
    for (const auto& [name, value] : identity.facts) {
      versions += fmt::format("{} {}\n", name, value);
    }
    write(dir / "versions.txt", versions);
    write(dir / "README.txt",
          fmt::format("A compile of '{}' for {} failed; error.txt says how. To reproduce it, on a "
                      "machine with kjit (the compiler's version in versions.txt):\n\n"
                      "  kjit-warm --cache-dir \"$(mktemp -d)\" build.json\n\n"
                      "build.json holds the program and every header it includes; {} and "
                      "headers/ are the same texts as files.\n",
                      request.program_name, identity.target, plain(request.program_name)));
    log().warn("kjit: the failed compile of '{}' is reproducible from {}", request.program_name,
               dir.string());
    return dir;
  } catch (const std::exception& e) {
    try {
      log().warn("kjit: KJIT_REPRO_DIR: cannot write a bundle for '{}' under {}: {}",
                 request.program_name, root.string(), e.what());
    } catch (...) {  // NOLINT(bugprone-empty-catch): logging must not hide the compile's error
    }
    return std::nullopt;
  }
}

}  // namespace kjit::detail
