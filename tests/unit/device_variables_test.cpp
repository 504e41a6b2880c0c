// Reading a binary's device variables (device_variables.hpp): symbols named as the source names
// them, compiler-made and reserved ones left out, PTX declarations sized.
#include "backends/kit/device_variables.hpp"

#include <gtest/gtest.h>

namespace kjit::backend {
namespace {

TEST(DeviceVariableName, DemanglesAndDropsWhatNoSourceNames) {
  EXPECT_EQ(device_variable_name("c_Kernel"), "c_Kernel");
  EXPECT_EQ(device_variable_name("_ZN7filters4biasE"), "filters::bias");
  EXPECT_EQ(device_variable_name("_ZL8s_offset"), "s_offset");                  // static
  EXPECT_EQ(device_variable_name("_ZN12_GLOBAL__N_15tableE"), "table");         // anonymous
  EXPECT_EQ(device_variable_name("_ZN2ns12_GLOBAL__N_15tableE"), "ns::table");  // nested
  EXPECT_EQ(device_variable_name("_ZN41_INTERNAL_2a7b3c4d_10_symbols_cu_x1y2z3e45tableE"), "table");
  for (const char* dropped : {"", ".str", "$str$1", "__kjit_info_0", "__oclc_ABI_version",
                              "_ZZ6kernelE4tile", "_ZTV4Base", "_ZGVZ1fvE1x", "_Z4vaddPKfS0_Pfi",
                              "_ZN2ns6__implE", "not@mangled", "_Zgarbage"}) {
    EXPECT_EQ(device_variable_name(dropped), "") << dropped;
  }
}

TEST(DeviceVariables, PtxDeclarationsAreSizedByTypeAndDimensions) {
  const std::string ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.global .align 4 .b8 _ZN7filters4biasE[4];
.visible .const .align 4 .b8 c_taps[68];
.const .align 4 .u32 _ZL8s_offset;
.visible .global .align 8 .f64 grid[4][8] = {0d0000000000000000};
.global .align 1 .b8 $str[6] = {104, 101, 108, 108, 111, 0};
.extern .shared .align 16 .b8 dynamic[];
.visible .entry _Z8convolvePKfPfi(
)";
  const std::vector<DeviceVariable> v = ptx_device_variables(ptx);
  ASSERT_EQ(v.size(), 4U);
  EXPECT_EQ(v[0].name, "filters::bias");
  EXPECT_EQ(v[0].size, 4U);
  EXPECT_EQ(v[1].name, "c_taps");
  EXPECT_EQ(v[1].size, 68U);
  EXPECT_EQ(v[2].symbol, "_ZL8s_offset");
  EXPECT_EQ(v[2].size, 4U);
  EXPECT_EQ(v[3].name, "grid");
  EXPECT_EQ(v[3].size, 256U);
}

TEST(DeviceVariables, WhatIsNotElfHasNone) {
  const std::vector<std::uint8_t> junk{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0};
  EXPECT_TRUE(elf_device_variables(junk).empty());
  EXPECT_TRUE(elf_device_variables({}).empty());
}

}  // namespace
}  // namespace kjit::backend
