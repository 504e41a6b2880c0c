// AMD GPU code objects are checked before the HIP runtime sees them, and a kernel's parameter
// layout is read from their metadata. The objects here are built by the test (an ELF64 with a
// symbol table and an AMDGPU msgpack note), so this runs without ROCm; every truncation and a
// sweep of corrupted bytes must give a BackendError, never a crash.
#include "backends/hip/code_object.hpp"

#include <kjit/error.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <random>

namespace kjit::hip {
namespace {

template <class T>
void put(std::vector<std::uint8_t>& out, std::size_t at, T value) {
  if (out.size() < at + sizeof(T)) {
    out.resize(at + sizeof(T));
  }
  std::memcpy(out.data() + at, &value, sizeof(T));
}

void align(std::vector<std::uint8_t>& out, std::size_t to) {
  out.resize((out.size() + to - 1) / to * to);
}

nlohmann::json vadd_metadata() {
  nlohmann::json args = nlohmann::json::array();
  for (int i = 0; i < 3; ++i) {
    args.push_back({{".offset", 8 * i}, {".size", 8}, {".value_kind", "global_buffer"}});
  }
  args.push_back({{".offset", 24}, {".size", 4}, {".value_kind", "by_value"}});
  args.push_back({{".offset", 32}, {".size", 4}, {".value_kind", "hidden_block_count_x"}});
  return {{"amdhsa.version", {1, 1}},
          {"amdhsa.target", "amdgcn-amd-amdhsa--gfx90a"},
          {"amdhsa.kernels",
           {{{".name", "vadd"},
             {".symbol", "vadd.kd"},
             {".args", args},
             {".group_segment_fixed_size", 256},
             {".max_flat_workgroup_size", 1024}}}}};
}

/// An ELF64 AMDGPU object: sections null, .note, .symtab, .strtab.
std::vector<std::uint8_t> code_object(const nlohmann::json& meta,
                                      const std::vector<std::string>& symbols = {"vadd",
                                                                                 "vadd.kd"}) {
  std::vector<std::uint8_t> out(64, 0);
  const std::uint8_t ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 64};
  std::memcpy(out.data(), ident, sizeof(ident));
  put<std::uint16_t>(out, 16, 3);  // ET_DYN
  put<std::uint16_t>(out, 18, kEmAmdgpu);
  // The note.
  const std::size_t note_at = out.size();
  const std::vector<std::uint8_t> desc = nlohmann::json::to_msgpack(meta);
  put<std::uint32_t>(out, note_at, 7);
  put<std::uint32_t>(out, note_at + 4, static_cast<std::uint32_t>(desc.size()));
  put<std::uint32_t>(out, note_at + 8, 32);
  const char name[8] = "AMDGPU";
  out.insert(out.end(), name, name + 8);
  out.insert(out.end(), desc.begin(), desc.end());
  align(out, 8);
  const std::size_t note_size = out.size() - note_at;
  // The string table, then the symbols.
  std::vector<std::uint8_t> strings(1, 0);
  std::vector<std::uint32_t> name_at;
  for (const std::string& s : symbols) {
    name_at.push_back(static_cast<std::uint32_t>(strings.size()));
    strings.insert(strings.end(), s.begin(), s.end());
    strings.push_back(0);
  }
  const std::size_t strtab_at = out.size();
  out.insert(out.end(), strings.begin(), strings.end());
  align(out, 8);
  const std::size_t symtab_at = out.size();
  out.resize(symtab_at + 24 * (symbols.size() + 1), 0);  // symbol 0 is the null symbol
  for (std::size_t i = 0; i < symbols.size(); ++i) {
    const std::size_t s = symtab_at + 24 * (i + 1);
    put<std::uint32_t>(out, s, name_at[i]);
    put<std::uint8_t>(out, s + 4, 0x12);  // global function
    put<std::uint16_t>(out, s + 6, 1);    // defined (in section 1)
  }
  const std::size_t symtab_size = out.size() - symtab_at;
  // Section headers.
  const std::size_t shoff = out.size();
  out.resize(shoff + std::size_t{4} * 64, 0);
  const auto section = [&](int i, std::uint32_t type, std::size_t at, std::size_t size,
                           std::uint32_t link) {
    const std::size_t h = shoff + 64 * static_cast<std::size_t>(i);
    put<std::uint32_t>(out, h + 4, type);
    put<std::uint64_t>(out, h + 24, at);
    put<std::uint64_t>(out, h + 32, size);
    put<std::uint32_t>(out, h + 40, link);
  };
  section(1, 7, note_at, note_size, 0);
  section(2, 2, symtab_at, symtab_size, 3);
  section(3, 3, strtab_at, strings.size(), 0);
  put<std::uint64_t>(out, 0x28, shoff);
  put<std::uint16_t>(out, 0x3A, 64);
  put<std::uint16_t>(out, 0x3C, 4);
  return out;
}

TEST(CodeObject, KernelsSymbolsAndParameterLayoutsAreRead) {
  const CodeObject code = read_code_object(code_object(vadd_metadata()), "test");
  EXPECT_EQ(code.target, "amdgcn-amd-amdhsa--gfx90a");
  EXPECT_EQ(code.code_object_version(), 4);
  EXPECT_EQ(code.symbols, (std::vector<std::string>{"vadd", "vadd.kd"}));
  ASSERT_EQ(code.kernels.size(), 1U);
  const CodeObjectKernel* k = code.kernel("vadd");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->symbol, "vadd.kd");
  ASSERT_EQ(k->params.size(), 4U) << "the hidden argument is not the kernel's";
  EXPECT_EQ(k->params[1].offset, 8U);
  EXPECT_EQ(k->params[3].offset, 24U);
  EXPECT_EQ(k->params[3].size, 4U);
  EXPECT_EQ(k->static_shared_bytes, 256U);
  EXPECT_EQ(k->max_threads_per_block, 1024U);
  EXPECT_EQ(code.kernel("other"), nullptr);
}

void expect_refused(const std::vector<std::uint8_t>& bytes, const std::string& problem) {
  try {
    (void)read_code_object(bytes, "the test object");
    ADD_FAILURE() << "accepted; wanted: " << problem;
  } catch (const BackendError& e) {
    EXPECT_NE(std::string(e.what()).find("the test object"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(problem), std::string::npos) << e.what();
  }
}

TEST(CodeObject, ObjectsThatAreNotAmdgpuCodeObjectsAreRefused) {
  const std::vector<std::uint8_t> good = code_object(vadd_metadata());
  expect_refused({}, "not an ELF file");
  expect_refused(std::vector<std::uint8_t>(100, 0), "not an ELF file");
  auto b = good;
  b[4] = 1;
  expect_refused(b, "64-bit");
  b = good;
  b[18] = 62;  // EM_X86_64
  b[19] = 0;
  expect_refused(b, "not EM_AMDGPU");
  nlohmann::json no_kernels = vadd_metadata();
  no_kernels.erase("amdhsa.kernels");
  expect_refused(code_object(no_kernels), "no amdhsa.kernels");
  expect_refused(code_object(vadd_metadata(), {"vadd"}), "no descriptor symbol 'vadd.kd'");
  nlohmann::json no_kind = vadd_metadata();
  no_kind["amdhsa.kernels"][0][".args"][0].erase(".value_kind");
  expect_refused(code_object(no_kind), "has no .value_kind");
  nlohmann::json no_name = vadd_metadata();
  no_name["amdhsa.kernels"][0].erase(".name");
  expect_refused(code_object(no_name), "no .name");
}

TEST(CodeObject, EveryTruncationAndCorruptionIsAnErrorNotACrash) {
  const std::vector<std::uint8_t> good = code_object(vadd_metadata());
  for (std::size_t n = 0; n < good.size(); ++n) {
    const std::vector<std::uint8_t> cut(good.begin(), good.begin() + static_cast<long>(n));
    EXPECT_THROW((void)read_code_object(cut, "cut"), BackendError) << n << " bytes";
  }
  std::mt19937 random(7);
  int refused = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    auto b = good;
    const std::size_t at = random() % b.size();
    b[at] = static_cast<std::uint8_t>(random());
    try {
      (void)read_code_object(b, "corrupt");  // a byte that does not matter may still parse
    } catch (const BackendError&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 100) << "corrupted headers, tables and metadata must be refused";
}

}  // namespace
}  // namespace kjit::hip
