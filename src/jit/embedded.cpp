// The registry of kernel files that kjit_add_kernels() embedded, and Program::from_embedded().
#include <kjit/embedded.hpp>
#include <kjit/error.hpp>
#include <kjit/program.hpp>

#include <fmt/format.h>

#include <map>
#include <mutex>

namespace kjit {

namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, std::string, std::less<>> programs;
  std::map<std::string, std::string, std::less<>> headers;
};

Registry& registry() {
  static auto* r = new Registry();  // kept: registrations may run from static constructors
  return *r;
}

void add(std::map<std::string, std::string, std::less<>>& files,
         std::span<const EmbeddedFile> embedded) {
  for (const EmbeddedFile& f : embedded) {
    files.insert_or_assign(f.name, std::string(f.text, f.size));
  }
}

std::vector<std::string> names_of(const std::map<std::string, std::string, std::less<>>& files) {
  std::vector<std::string> names;
  names.reserve(files.size());
  for (const auto& [name, text] : files) {
    names.push_back(name);
  }
  return names;
}

}  // namespace

EmbeddedKernels::EmbeddedKernels(std::span<const EmbeddedFile> programs,
                                 std::span<const EmbeddedFile> headers) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  add(r.programs, programs);
  add(r.headers, headers);
}

std::vector<std::string> embedded_programs() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  return names_of(r.programs);
}

Program Program::from_embedded(const std::string& name, CompileOptions options) {
  std::string source;
  {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    const auto found = r.programs.find(name);
    if (found == r.programs.end()) {
      const std::vector<std::string> names = names_of(r.programs);
      throw UsageError(fmt::format(
          "kjit: no embedded program '{}'; embedded: {} (kjit_add_kernels() embeds them)", name,
          names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
    }
    source = found->second;
    for (const auto& [header, text] : r.headers) {
      options.headers.try_emplace(header, text);
    }
  }
  return from_source(name, std::move(source), std::move(options));
}

}  // namespace kjit
