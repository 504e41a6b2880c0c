#include "support/library_search.hpp"

#include "support/dynamic_library.hpp"

#include <dlfcn.h>
#include <sys/stat.h>

#include <fmt/format.h>

#include <cstdint>
#include <memory>

namespace kjit::backend {

namespace {

/// Directories in the order the loader searches them for a dlopen made by this library (or by
/// the program kjit is linked into), ld.so.cache aside.
std::optional<std::vector<std::string>> search_dirs() {
  Dl_info self{};
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): dladdr wants a code address
  if (dladdr(reinterpret_cast<const void*>(&search_dirs), &self) == 0) {
    return std::nullopt;
  }
  void* handle =
      self.dli_fname != nullptr ? dlopen(self.dli_fname, RTLD_LAZY | RTLD_NOLOAD) : nullptr;
  if (handle == nullptr) {
    handle = dlopen(nullptr, RTLD_LAZY);  // kjit is linked into the program itself
  }
  if (handle == nullptr) {
    return std::nullopt;
  }
  const std::unique_ptr<void, int (*)(void*)> closer(handle, dlclose);
  Dl_serinfo size{};
  if (dlinfo(handle, RTLD_DI_SERINFOSIZE, &size) != 0 || size.dls_size < sizeof(Dl_serinfo)) {
    return std::nullopt;
  }
  // Dl_serinfo ends in a variable-length array: allocate it as the loader asks, aligned for it.
  std::vector<std::uint64_t> storage((size.dls_size + sizeof(std::uint64_t) - 1) /
                                     sizeof(std::uint64_t));
  auto* info = reinterpret_cast<Dl_serinfo*>(storage.data());  // NOLINT: see above
  info->dls_size = size.dls_size;
  info->dls_cnt = size.dls_cnt;
  if (dlinfo(handle, RTLD_DI_SERINFO, info) != 0) {
    return std::nullopt;
  }
  std::vector<std::string> dirs;
  for (unsigned i = 0; i < info->dls_cnt; ++i) {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-bounds-constant-array-index): sized by the loader
    const char* name = info->dls_serpath[i].dls_name;
    if (name != nullptr) {
      dirs.emplace_back(name);
    }
  }
  return dirs;
}

}  // namespace

std::optional<std::string> file_stamp(const std::filesystem::path& file) {
  struct stat s {};
  if (::stat(file.c_str(), &s) != 0) {
    return std::nullopt;
  }
  return fmt::format("{}:{}, {} bytes, modified {}.{:09}", s.st_dev, s.st_ino, s.st_size,
                     s.st_mtim.tv_sec, s.st_mtim.tv_nsec);
}

std::optional<std::string> describe_library_search(const std::vector<std::string>& candidates) {
  const std::optional<std::vector<std::string>> dirs = search_dirs();
  if (!dirs) {
    return std::nullopt;
  }
  std::string text = "search path:";
  for (const std::string& dir : *dirs) {
    text += ' ';
    text += dir;
  }
  text += '\n';
  const auto add = [&text](const std::string& what, const std::optional<std::string>& stamp) {
    text += what;
    text += ": ";
    text += stamp.value_or("absent");
    text += '\n';
  };
  for (const std::string& name : candidates) {
    if (const auto loaded = DynamicLibrary::already_loaded(name)) {
      const std::optional<std::filesystem::path> file = loaded->file();
      add("loaded " + name + " from " + (file ? file->string() : "an unknown file"),
          file ? file_stamp(*file) : std::nullopt);
    }
    if (name.find('/') != std::string::npos) {
      add(name, file_stamp(name));
      continue;
    }
    for (const std::string& dir : *dirs) {
      const std::filesystem::path file = std::filesystem::path(dir) / name;
      if (std::optional<std::string> stamp = file_stamp(file)) {
        add(file.string(), stamp);
      }
    }
  }
  add("/etc/ld.so.cache", file_stamp("/etc/ld.so.cache"));
  return text;
}

}  // namespace kjit::backend
