#include "backends/kit/program_sources.hpp"

#include "source/jit_annotations.hpp"
#include "support/file_text.hpp"
#include "support/logging.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kjit::backend {

namespace {

bool is_kjit_header(std::string_view name) {
  const auto headers = source::kernel_headers();
  return std::any_of(headers.begin(), headers.end(),
                     [&](const source::KernelHeader& h) { return h.name == name; });
}

bool is_given(const CompileRequest& request, std::string_view name) {
  return std::any_of(request.headers.begin(), request.headers.end(),
                     [&](const auto& h) { return h.first == name; });
}

/// What the host asks for by name: each kernel's name expression and, in parentheses, its
/// parameter types.
std::vector<std::string> host_names(const CompileRequest& request) {
  std::vector<std::string> names = request.kernel_names;
  for (const std::optional<std::string>& s : request.kernel_signatures) {
    if (s) {
      names.push_back("(" + *s + ")");
    }
  }
  return names;
}

}  // namespace

ProgramSources::ProgramSources(const CompileRequest& request,
                               const std::function<bool(std::string_view)>& compiler_has)
    : ProgramSources(request, compiler_has,
                     request.input == InputKind::source ? source::scan_includes(request.files())
                                                        : source::IncludeScan{}) {}

ProgramSources::ProgramSources(const CompileRequest& request,
                               const std::function<bool(std::string_view)>& compiler_has,
                               const source::IncludeScan& scan)
    : disk_(read_disk_headers(request, scan)),
      filter_(texts_of(request, disk_), host_names(request)) {
  main_ = filter_.erase(request.source);
  // Headers lose Proteus's annotations as the main file does (the core reads them; NVRTC would
  // warn of an attribute it does not know).
  memory_.reserve(request.headers.size());
  for (const auto& [name, text] : request.headers) {
    memory_.emplace_back(name, source::without_jit_annotations(filter_.erase(text)));
  }
  for (DiskHeader& h : disk_) {
    h.text = source::without_jit_annotations(filter_.erase(h.text));
  }
  for (const source::IncludeScan::Missing& m : scan.missing) {
    if (is_kjit_header(m.name) || (compiler_has && compiler_has(m.name)) ||
        m.name.find("..") != std::string::npos) {
      continue;
    }
    // <chrono>, <random>: a standard header by its form (no extension, no folder).
    const bool standard = !m.quoted && m.name.find_first_of("./") == std::string::npos;
    stand_ins_.emplace_back(m.name, standard ? kStandardStandIn : kStandIn);
    detail::log().debug("'{}': {}:{} includes {}, which nothing answers: compiled with a stand-in",
                        request.program_name, m.where, m.line, m.name);
    stand_in_places_.push_back(m);
  }

  for (const auto& [name, text] : memory_) {
    texts_.push_back(text.c_str());
    names_.push_back(name.c_str());
  }
  for (const DiskHeader& h : disk_) {
    texts_.push_back(h.text.c_str());
    names_.push_back(h.name.c_str());
  }
  for (const auto& [name, text] : stand_ins_) {
    texts_.push_back(text);
    names_.push_back(name.c_str());
  }
  // kjit's: NUL-terminated string literals, as the compilers need.
  for (const source::KernelHeader& h : source::kernel_headers_besides(request.headers)) {
    texts_.push_back(h.text.data());
    names_.push_back(h.name.data());
  }
}

std::vector<ProgramSources::DiskHeader> ProgramSources::read_disk_headers(
    const CompileRequest& request, const source::IncludeScan& scan) {
  std::vector<DiskHeader> found;
  for (const auto& [name, path] : scan.found) {
    if (is_given(request, name) || is_kjit_header(name)) {
      continue;
    }
    if (std::optional<std::string> text = detail::read_file(path)) {
      found.push_back({name, path, std::move(*text)});
    }
  }
  return found;
}

std::vector<std::string_view> ProgramSources::texts_of(const CompileRequest& request,
                                                       const std::vector<DiskHeader>& disk) {
  std::vector<std::string_view> texts{request.source};
  for (const auto& [name, text] : request.headers) {
    texts.emplace_back(text);
  }
  for (const DiskHeader& h : disk) {
    texts.emplace_back(h.text);
  }
  return texts;
}

std::optional<std::filesystem::path> ProgramSources::disk_path(std::string_view file) const {
  const std::optional<std::string_view> name = source::named_header_of(file);
  if (!name) {
    return std::nullopt;
  }
  const auto found = std::find_if(disk_.begin(), disk_.end(),
                                  [&](const DiskHeader& h) { return h.name == *name; });
  if (found == disk_.end()) {
    return std::nullopt;
  }
  return found->path.lexically_normal();
}

std::vector<Diagnostic> ProgramSources::missing_notes() const {
  std::vector<Diagnostic> notes;
  for (std::size_t i = 0; i < stand_in_places_.size(); ++i) {
    const source::IncludeScan::Missing& m = stand_in_places_[i];
    const bool standard = stand_ins_[i].second == kStandardStandIn;
    notes.push_back({m.where, static_cast<unsigned>(m.line), 1, Diagnostic::Severity::note,
                     fmt::format("kjit found no '{}' (not beside the file, in the include dirs or "
                                 "among kjit's headers) and compiled {}; if the errors need it, "
                                 "add its folder to CompileOptions::include_dirs",
                                 m.name,
                                 standard ? "the standard library's common core in its place"
                                          : "it as empty")});
  }
  return notes;
}

}  // namespace kjit::backend
