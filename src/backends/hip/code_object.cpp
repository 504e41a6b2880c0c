#include "backends/hip/code_object.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <string_view>

namespace kjit::hip {

namespace {

constexpr std::uint32_t kShtSymtab = 2;
constexpr std::uint32_t kShtNote = 7;
constexpr std::uint32_t kShtDynsym = 11;
constexpr std::uint32_t kNtAmdgpuMetadata = 32;
constexpr std::size_t kSectionHeaderSize = 64;
constexpr std::size_t kSymbolSize = 24;

class Reader {
 public:
  Reader(std::span<const std::uint8_t> bytes, const std::string& what)
      : bytes_(bytes), what_(what) {}

  template <class T>
  [[nodiscard]] T at(std::uint64_t offset) const {
    check(offset, sizeof(T), "a field");
    T value;
    std::memcpy(&value, bytes_.data() + offset, sizeof(T));
    return value;
  }

  void check(std::uint64_t offset, std::uint64_t size, std::string_view part) const {
    if (offset > bytes_.size() || size > bytes_.size() - offset) {
      fail(fmt::format("{} at byte {} (+{}) lies outside its {} bytes", part, offset, size,
                       bytes_.size()));
    }
  }

  [[nodiscard]] std::string_view text(std::uint64_t offset, std::uint64_t size) const {
    check(offset, size, "a string");
    return {reinterpret_cast<const char*>(bytes_.data() + offset), size};
  }

  /// A NUL-terminated string inside [table, table + size).
  [[nodiscard]] std::string string_at(std::uint64_t table, std::uint64_t size,
                                      std::uint32_t index) const {
    if (index >= size) {
      fail("a name lies outside its string table");
    }
    const std::string_view all = text(table, size).substr(index);
    const auto end = all.find('\0');
    if (end == std::string_view::npos) {
      fail("a name in a string table is not terminated");
    }
    return std::string(all.substr(0, end));
  }

  [[noreturn]] void fail(const std::string& problem) const {
    throw BackendError(
        fmt::format("kjit: {} is not a valid AMD GPU code object: {}", what_, problem));
  }

 private:
  std::span<const std::uint8_t> bytes_;
  const std::string& what_;
};

struct Section {
  std::uint32_t type = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t link = 0;
};

std::vector<Section> sections(const Reader& r) {
  const auto shoff = r.at<std::uint64_t>(0x28);
  const auto shentsize = r.at<std::uint16_t>(0x3A);
  const auto shnum = r.at<std::uint16_t>(0x3C);
  if (shentsize != kSectionHeaderSize) {
    r.fail(fmt::format("section headers of {} bytes, not {}", shentsize, kSectionHeaderSize));
  }
  r.check(shoff, std::uint64_t{shnum} * kSectionHeaderSize, "the section header table");
  std::vector<Section> out(shnum);
  for (std::uint16_t i = 0; i < shnum; ++i) {
    const std::uint64_t h = shoff + std::uint64_t{i} * kSectionHeaderSize;
    out[i] = {r.at<std::uint32_t>(h + 4), r.at<std::uint64_t>(h + 24), r.at<std::uint64_t>(h + 32),
              r.at<std::uint32_t>(h + 40)};
    if (out[i].type != 8) {  // SHT_NOBITS occupies no bytes in the file
      r.check(out[i].offset, out[i].size, "a section");
    }
  }
  return out;
}

struct Symbol {
  std::string name;
  std::uint64_t value = 0;
  bool function = false;
};

/// Symbol `index` of the symbol table in section `table`.
Symbol symbol_at(const Reader& r, const std::vector<Section>& all, std::uint32_t table,
                 std::uint64_t index) {
  if (table >= all.size() || all[table].link >= all.size()) {
    r.fail("a symbol table or its string table is missing");
  }
  const Section& s = all[table];
  const Section& strings = all[s.link];
  if (index >= s.size / kSymbolSize) {
    r.fail("a relocation names a symbol past the end of its table");
  }
  const std::uint64_t at = s.offset + index * kSymbolSize;
  const auto name = r.at<std::uint32_t>(at);
  Symbol out;
  out.name = name == 0 ? "" : r.string_at(strings.offset, strings.size, name);
  out.value = r.at<std::uint64_t>(at + 8);
  out.function = (r.at<std::uint8_t>(at + 4) & 0xf) == 2;  // STT_FUNC
  return out;
}

std::vector<Symbol> read_symbols(const Reader& r, const std::vector<Section>& all,
                                 CodeObject& out) {
  std::vector<Symbol> defined;
  for (std::uint32_t i = 0; i < all.size(); ++i) {
    const Section& s = all[i];
    if (s.type != kShtSymtab && s.type != kShtDynsym) {
      continue;
    }
    for (std::uint64_t k = 1; k < s.size / kSymbolSize; ++k) {
      const auto shndx = r.at<std::uint16_t>(s.offset + k * kSymbolSize + 6);
      Symbol symbol = symbol_at(r, all, i, k);
      if (symbol.name.empty() || shndx == 0) {  // unnamed or undefined
        continue;
      }
      if (std::find(out.symbols.begin(), out.symbols.end(), symbol.name) == out.symbols.end()) {
        out.symbols.push_back(symbol.name);
        defined.push_back(std::move(symbol));
      }
    }
  }
  return defined;
}

constexpr std::uint32_t kShtRela = 4;
constexpr std::uint32_t kRAmdgpuAbs64 = 1;
constexpr std::uint32_t kRAmdgpuRelative64 = 13;

/// Which variable holds which function's address, from R_AMDGPU_ABS64 and _RELATIVE64.
void read_pointers(const Reader& r, const std::vector<Section>& all,
                   const std::vector<Symbol>& defined, CodeObject& out) {
  const auto at_address = [&](std::uint64_t address, bool function) -> const Symbol* {
    for (const Symbol& s : defined) {
      if (s.value == address && s.function == function) {
        return &s;
      }
    }
    return nullptr;
  };
  for (const Section& s : all) {
    if (s.type != kShtRela) {
      continue;
    }
    for (std::uint64_t at = s.offset; at + 24 <= s.offset + s.size; at += 24) {
      const auto offset = r.at<std::uint64_t>(at);
      const auto info = r.at<std::uint64_t>(at + 8);
      const auto addend = r.at<std::int64_t>(at + 16);
      const Symbol* variable = at_address(offset, false);
      if (variable == nullptr) {
        continue;
      }
      const auto type = static_cast<std::uint32_t>(info & 0xffffffffU);
      if (type == kRAmdgpuRelative64) {
        if (const Symbol* f = at_address(static_cast<std::uint64_t>(addend), true)) {
          out.pointers.emplace_back(variable->name, f->name);
        }
      } else if (type == kRAmdgpuAbs64 && addend == 0) {
        const Symbol target = symbol_at(r, all, s.link, info >> 32);
        if (target.function) {
          out.pointers.emplace_back(variable->name, target.name);
        }
      }
    }
  }
}

std::size_t number(const nlohmann::json& kernel, const char* key) {
  const auto it = kernel.find(key);
  return it != kernel.end() && it->is_number_unsigned() ? it->get<std::size_t>() : 0;
}

void interpret(const Reader& r, const nlohmann::json& meta, CodeObject& out);

void read_metadata(const Reader& r, std::span<const std::uint8_t> desc, CodeObject& out) {
  nlohmann::json meta;
  try {
    meta = nlohmann::json::from_msgpack(desc.begin(), desc.end());
  } catch (const nlohmann::json::exception& e) {
    r.fail(fmt::format("its AMDGPU metadata is not msgpack ({})", e.what()));
  }
  try {
    interpret(r, meta, out);
  } catch (const nlohmann::json::exception& e) {  // a field of the wrong type
    r.fail(fmt::format("its AMDGPU metadata is malformed ({})", e.what()));
  }
}

void interpret(const Reader& r, const nlohmann::json& meta, CodeObject& out) {
  if (!meta.is_object()) {
    r.fail("its AMDGPU metadata is not a map");
  }
  out.target = meta.value("amdhsa.target", std::string());
  if (const auto v = meta.find("amdhsa.version"); v != meta.end() && v->is_array()) {
    for (const auto& part : *v) {
      out.metadata_version.push_back(part.is_number_integer() ? part.get<int>() : -1);
    }
  }
  const auto kernels = meta.find("amdhsa.kernels");
  if (kernels == meta.end() || !kernels->is_array()) {
    r.fail("its AMDGPU metadata lists no amdhsa.kernels");
  }
  for (const nlohmann::json& k : *kernels) {
    if (!k.is_object() || !k.contains(".name") || !k[".name"].is_string() ||
        !k.contains(".symbol") || !k[".symbol"].is_string()) {
      r.fail("a kernel in its metadata has no .name or .symbol");
    }
    CodeObjectKernel kernel;
    kernel.name = k[".name"].get<std::string>();
    kernel.symbol = k[".symbol"].get<std::string>();
    kernel.static_shared_bytes = number(k, ".group_segment_fixed_size");
    kernel.max_threads_per_block = number(k, ".max_flat_workgroup_size");
    if (const auto args = k.find(".args"); args != k.end() && args->is_array()) {
      for (const nlohmann::json& a : *args) {
        const std::string kind = a.is_object() ? a.value(".value_kind", std::string()) : "";
        if (kind.empty()) {
          r.fail(fmt::format("an argument of '{}' has no .value_kind", kernel.name));
        }
        if (kind.starts_with("hidden_")) {
          continue;  // added by the compiler (grid sizes, queue pointers ...); HIP fills them in
        }
        kernel.params.push_back({number(a, ".offset"), number(a, ".size")});
      }
    }
    out.kernels.push_back(std::move(kernel));
  }
}

}  // namespace

const CodeObjectKernel* CodeObject::kernel(const std::string& name) const {
  const auto it = std::find_if(kernels.begin(), kernels.end(),
                               [&](const CodeObjectKernel& k) { return k.name == name; });
  return it != kernels.end() ? &*it : nullptr;
}

std::string CodeObject::pointee(const std::string& variable) const {
  for (const auto& [name, function] : pointers) {
    if (name == variable) {
      return function;
    }
  }
  return {};
}

int CodeObject::code_object_version() const {
  // amdhsa.version 1.0 is code object v3, 1.1 v4, 1.2 v5 and so on.
  return metadata_version.size() >= 2 && metadata_version[0] == 1 ? metadata_version[1] + 3 : 0;
}

CodeObject read_code_object(std::span<const std::uint8_t> bytes, const std::string& what) {
  const Reader r(bytes, what);
  constexpr std::array<std::uint8_t, 4> kMagic = {0x7f, 'E', 'L', 'F'};
  if (bytes.size() < 64 || !std::equal(kMagic.begin(), kMagic.end(), bytes.begin())) {
    r.fail("it is not an ELF file");
  }
  if (bytes[4] != 2 || bytes[5] != 1) {
    r.fail("it is not a 64-bit little-endian ELF file");
  }
  const auto machine = r.at<std::uint16_t>(18);
  if (machine != kEmAmdgpu) {
    r.fail(fmt::format("its machine is {}, not EM_AMDGPU ({})", machine, kEmAmdgpu));
  }
  CodeObject out;
  const std::vector<Section> all = sections(r);
  read_pointers(r, all, read_symbols(r, all, out), out);
  bool found = false;
  for (const Section& s : all) {
    if (s.type != kShtNote) {
      continue;
    }
    std::uint64_t at = s.offset;
    while (at + 12 <= s.offset + s.size) {
      const auto namesz = r.at<std::uint32_t>(at);
      const auto descsz = r.at<std::uint32_t>(at + 4);
      const auto type = r.at<std::uint32_t>(at + 8);
      const std::uint64_t name_at = at + 12;
      const std::uint64_t desc_at = name_at + ((std::uint64_t{namesz} + 3) & ~std::uint64_t{3});
      r.check(desc_at, descsz, "a note");
      if (type == kNtAmdgpuMetadata && r.text(name_at, namesz) == std::string_view("AMDGPU\0", 7)) {
        read_metadata(r, bytes.subspan(desc_at, descsz), out);
        found = true;
      }
      at = desc_at + ((std::uint64_t{descsz} + 3) & ~std::uint64_t{3});
    }
  }
  if (!found) {
    r.fail("it has no AMDGPU metadata note (code object v3 or later)");
  }
  for (const CodeObjectKernel& k : out.kernels) {
    if (std::find(out.symbols.begin(), out.symbols.end(), k.symbol) == out.symbols.end()) {
      r.fail(fmt::format("kernel '{}' has no descriptor symbol '{}'", k.name, k.symbol));
    }
  }
  return out;
}

}  // namespace kjit::hip
