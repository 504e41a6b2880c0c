// The registry of what kjit_add_kernels() embedded: kernel files, the headers embedded with them,
// and precompiled cache entries; and Program::from_embedded().
#include "core/embedded_entries.hpp"
#include "support/logging.hpp"

#include <kjit/embedded.hpp>
#include <kjit/error.hpp>
#include <kjit/program.hpp>

#include <fmt/format.h>

#include <map>
#include <memory>
#include <mutex>
#include <set>

namespace kjit {

namespace {

using Texts = std::map<std::string, std::string, std::less<>>;

struct EmbeddedProgram {
  std::string source;
  std::shared_ptr<const Texts> headers;  // those of its kjit_add_kernels() call
};

struct Registry {
  std::mutex mutex;
  std::map<std::string, EmbeddedProgram, std::less<>> programs;
  Texts entries;  // key -> entry bytes
  Texts aliases;  // key without the compiler's identity -> key
  /// Names embedded twice with different texts, not yet warned about. Registration runs before
  /// main(), where logging could throw, so the warning waits for from_embedded().
  std::set<std::string, std::less<>> ambiguous;
};

Registry& registry() {
  static auto* r = new Registry();  // kept: registrations may run from static constructors
  return *r;
}

std::vector<std::string> program_names(const Registry& r) {
  std::vector<std::string> names;
  names.reserve(r.programs.size());
  for (const auto& [name, program] : r.programs) {
    names.push_back(name);
  }
  return names;
}

}  // namespace

EmbeddedKernels::EmbeddedKernels(std::span<const EmbeddedFile> programs,
                                 std::span<const EmbeddedFile> headers,
                                 std::span<const EmbeddedEntry> precompiled) {
  auto texts = std::make_shared<Texts>();
  for (const EmbeddedFile& h : headers) {
    texts->insert_or_assign(h.name, std::string(h.text, h.size));
  }
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  for (const EmbeddedFile& p : programs) {
    std::string source(p.text, p.size);
    const auto known = r.programs.find(p.name);
    if (known != r.programs.end() && known->second.source != source) {
      r.ambiguous.insert(p.name);
    }
    r.programs.insert_or_assign(p.name, EmbeddedProgram{std::move(source), texts});
  }
  for (const EmbeddedEntry& e : precompiled) {
    r.entries.insert_or_assign(e.key, std::string(e.bytes, e.size));
    if (e.precompiled_key != nullptr) {
      r.aliases.insert_or_assign(e.precompiled_key, e.key);
    }
  }
}

std::vector<std::string> embedded_programs() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  return program_names(r);
}

namespace detail {

std::optional<EmbeddedEntryBytes> embedded_entry(std::string_view key) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  const auto alias = r.aliases.find(key);
  const std::string_view own = alias == r.aliases.end() ? key : std::string_view(alias->second);
  const auto found = r.entries.find(own);
  if (found == r.entries.end()) {
    return std::nullopt;
  }
  return EmbeddedEntryBytes{found->first, found->second};
}

void drop_embedded_entry(std::string_view key) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  if (const auto found = r.entries.find(key); found != r.entries.end()) {
    r.entries.erase(found);
  }
}

std::size_t embedded_entry_count() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  return r.entries.size();
}

}  // namespace detail

Program Program::from_embedded(const std::string& name, CompileOptions options) {
  std::string source;
  {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    const auto found = r.programs.find(name);
    if (found == r.programs.end()) {
      const std::vector<std::string> names = program_names(r);
      throw UsageError(fmt::format(
          "kjit: no embedded program '{}'; embedded: {} (kjit_add_kernels() embeds them)", name,
          names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
    }
    source = found->second.source;
    for (const auto& [header, text] : *found->second.headers) {
      options.headers.try_emplace(header, text);
    }
    if (const auto twice = r.ambiguous.find(name); twice != r.ambiguous.end()) {
      r.ambiguous.erase(twice);
      detail::log().warn(
          "kjit: two different programs are embedded as '{}' (kjit_add_kernels() calls of one "
          "binary); loading the one registered last",
          name);
    }
  }
  return from_source(name, std::move(source), std::move(options));
}

}  // namespace kjit
