#include "support/dynamic_library.hpp"

#include <dlfcn.h>
#include <fmt/format.h>
#include <link.h>

#include <filesystem>

namespace kjit::backend {

std::unique_ptr<DynamicLibrary> DynamicLibrary::open(const std::vector<std::string>& candidates,
                                                     std::string& why) {
  std::vector<std::string> tried;
  for (const std::string& name : candidates) {
    void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle != nullptr) {
      return std::unique_ptr<DynamicLibrary>(new DynamicLibrary(handle, name));
    }
    const char* error = dlerror();
    tried.push_back(error != nullptr ? std::string(error) : name + ": cannot be opened");
  }
  why = fmt::format("{}", fmt::join(tried, "; "));
  return nullptr;
}

std::unique_ptr<DynamicLibrary> DynamicLibrary::already_loaded(const std::string& name) {
  void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  return handle != nullptr ? std::unique_ptr<DynamicLibrary>(new DynamicLibrary(handle, name))
                           : nullptr;
}

DynamicLibrary::~DynamicLibrary() {
  dlclose(handle_);
}

void* DynamicLibrary::symbol(const char* name) const {
  return dlsym(handle_, name);
}

std::optional<std::filesystem::path> DynamicLibrary::file() const {
  link_map* map = nullptr;
  if (dlinfo(handle_, RTLD_DI_LINKMAP, static_cast<void*>(&map)) != 0 || map == nullptr ||
      map->l_name == nullptr) {
    return std::nullopt;
  }
  std::error_code ec;
  std::filesystem::path path = std::filesystem::canonical(map->l_name, ec);
  if (ec) {
    return std::nullopt;
  }
  return path;
}

std::filesystem::path DynamicLibrary::checked_file() const {
  return file().value_or("(" + name_ + ": the file loaded is unknown)");
}

std::string DynamicLibrary::file_identity() const {
  const std::optional<std::filesystem::path> path = file();
  if (!path) {
    return "unknown";
  }
  std::error_code ec;
  const auto size = std::filesystem::file_size(*path, ec);
  return ec ? path->filename().string()
            : fmt::format("{}, {} bytes", path->filename().string(), size);
}

std::filesystem::path kjit_code_directory() {
  Dl_info self{};
  std::filesystem::path here;
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): dladdr wants a code address
  if (dladdr(reinterpret_cast<const void*>(&kjit_code_directory), &self) != 0 &&
      self.dli_fname != nullptr) {
    here = self.dli_fname;
  }
  if (!here.is_absolute()) {  // kjit is linked into a program started by a relative path
    std::error_code ignored;
    here = std::filesystem::read_symlink("/proc/self/exe", ignored);
  }
  return here.parent_path();
}

bool load_symbols(const DynamicLibrary& library, const std::vector<SymbolEntry>& entries,
                  std::string& why) {
  std::vector<std::string> missing;
  for (const SymbolEntry& e : entries) {
    void* address = library.symbol(e.symbol);
    if (address == nullptr && e.fallback != nullptr) {
      address = library.symbol(e.fallback);
    }
    *e.slot = address;
    if (address == nullptr && e.required) {
      missing.emplace_back(e.symbol);
    }
  }
  if (!missing.empty()) {
    why = fmt::format("{} lacks {} (too old?)", library.name(), fmt::join(missing, ", "));
    return false;
  }
  return true;
}

}  // namespace kjit::backend
