#include "backends/kit/device_variables.hpp"

#include <cxxabi.h>
#include <elf.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <regex>

namespace kjit::backend {

namespace {

/// A T at `offset`, if the bytes hold one there.
template <class T>
std::optional<T> read_at(std::span<const std::uint8_t> bytes, std::uint64_t offset) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) {
    return std::nullopt;
  }
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

/// The NUL-terminated string at `offset` of a string table section.
std::string_view string_at(std::span<const std::uint8_t> bytes, const Elf64_Shdr& table,
                           std::uint64_t offset) {
  if (offset >= table.sh_size || table.sh_offset > bytes.size() ||
      bytes.size() - table.sh_offset < table.sh_size) {
    return {};
  }
  const char* begin = reinterpret_cast<const char*>(bytes.data() + table.sh_offset + offset);
  const std::size_t room = table.sh_size - offset;
  return {begin, strnlen(begin, room)};
}

bool starts_with_any(std::string_view s, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&](std::string_view p) { return s.starts_with(p); });
}

void erase_all(std::string& s, std::string_view what) {
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at)) {
    s.erase(at, what.size());
  }
}

}  // namespace

std::string device_variable_name(std::string_view symbol) {
  if (symbol.empty() || symbol.find_first_of(".$@") != std::string_view::npos ||
      symbol.starts_with("__")) {
    return {};  // compiler-made (.str, $str), or a reserved name: kjit's, the runtime's
  }
  if (!symbol.starts_with("_Z")) {
    return std::string(symbol);
  }
  // Function-local statics, type info and vtables, guard variables, thread-local wrappers.
  if (starts_with_any(symbol, {"_ZZ", "_ZT", "_ZGV", "_ZGR"})) {
    return {};
  }
  const std::string mangled(symbol);
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || demangled == nullptr) {
    return {};
  }
  std::string name(demangled.get());
  erase_all(name, "(anonymous namespace)::");
  if (name.starts_with("_INTERNAL")) {  // nvcc's namespace for a file's static variables
    const std::size_t end = name.find("::");
    name = end == std::string::npos ? std::string{} : name.substr(end + 2);
  }
  if (name.empty() || name.find('(') != std::string::npos || name.starts_with("__") ||
      name.find("::__") != std::string::npos) {
    return {};  // a function, or a reserved name
  }
  return name;
}

std::vector<DeviceVariable> elf_device_variables(std::span<const std::uint8_t> bytes) {
  std::vector<DeviceVariable> found;
  const auto header = read_at<Elf64_Ehdr>(bytes, 0);
  if (!header || std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 ||
      header->e_ident[EI_CLASS] != ELFCLASS64 || header->e_ident[EI_DATA] != ELFDATA2LSB ||
      header->e_shentsize != sizeof(Elf64_Shdr)) {
    return found;
  }
  std::vector<Elf64_Shdr> sections;
  for (std::uint64_t i = 0; i < header->e_shnum; ++i) {
    const auto s = read_at<Elf64_Shdr>(bytes, header->e_shoff + i * sizeof(Elf64_Shdr));
    if (!s) {
      return found;
    }
    sections.push_back(*s);
  }
  const auto section_name = [&](std::uint64_t index) -> std::string_view {
    if (header->e_shstrndx >= sections.size() || index >= sections.size()) {
      return {};
    }
    return string_at(bytes, sections[header->e_shstrndx], sections[index].sh_name);
  };
  for (const Elf64_Shdr& table : sections) {
    if (table.sh_type != SHT_SYMTAB || table.sh_link >= sections.size() ||
        table.sh_entsize != sizeof(Elf64_Sym)) {
      continue;
    }
    const Elf64_Shdr& strings = sections[table.sh_link];
    for (std::uint64_t at = 0; at + sizeof(Elf64_Sym) <= table.sh_size; at += sizeof(Elf64_Sym)) {
      const auto sym = read_at<Elf64_Sym>(bytes, table.sh_offset + at);
      if (!sym) {
        break;
      }
      if (ELF64_ST_TYPE(sym->st_info) != STT_OBJECT || sym->st_shndx == SHN_UNDEF ||
          sym->st_shndx >= SHN_LORESERVE || section_name(sym->st_shndx).starts_with(".nv.shared")) {
        continue;  // not data, not defined here, or a GPU's __shared__ variable
      }
      const std::string_view symbol = string_at(bytes, strings, sym->st_name);
      std::string name = device_variable_name(symbol);
      if (!name.empty()) {
        found.push_back({std::string(symbol), std::move(name), sym->st_size});
      }
    }
  }
  return found;
}

std::vector<DeviceVariable> ptx_device_variables(std::string_view ptx) {
  // ".visible .const .align 4 .b8 c_Kernel[68];", ".global .align 4 .u32 counter = 0;"
  static const std::regex declaration(
      R"(^\s*(?:\.visible\s+|\.weak\s+)?\.(?:global|const)\s+(?:\.align\s+\d+\s+)?)"
      R"(\.[a-z]+?(8|16|32|64)\s+([A-Za-z_][\w$]*)((?:\[\d+\])*)\s*[;=])");
  std::vector<DeviceVariable> found;
  std::size_t line_begin = 0;
  while (line_begin < ptx.size()) {
    std::size_t line_end = ptx.find('\n', line_begin);
    if (line_end == std::string_view::npos) {
      line_end = ptx.size();
    }
    const std::string line(ptx.substr(line_begin, line_end - line_begin));
    line_begin = line_end + 1;
    std::smatch m;
    if (!std::regex_search(line, m, declaration)) {
      continue;
    }
    std::size_t size = std::stoul(m[1].str()) / 8;
    static const std::regex dimension(R"(\[(\d+)\])");
    const std::string dims = m[3].str();
    for (auto d = std::sregex_iterator(dims.begin(), dims.end(), dimension);
         d != std::sregex_iterator(); ++d) {
      size *= std::stoul((*d)[1].str());
    }
    std::string name = device_variable_name(m[2].str());
    if (!name.empty()) {
      found.push_back({m[2].str(), std::move(name), size});
    }
  }
  return found;
}

}  // namespace kjit::backend
