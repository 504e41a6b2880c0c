// NVRTC's log format, from logs NVRTC 13.0 printed.
#include "backends/cuda/nvrtc_log.hpp"

#include <gtest/gtest.h>

namespace kjit::cuda {
namespace {

TEST(NvrtcLog, LocatedErrorsWithTheirColumn) {
  const auto d = parse_nvrtc_log(
      "mine.cu(2): error: identifier \"undefined_name\" is undefined\n"
      "    v[0] = undefined_name;\n"
      "           ^\n"
      "\n"
      "1 error detected in the compilation of \"mine.cu\".\n");
  ASSERT_EQ(d.size(), 1U);
  EXPECT_EQ(d[0].file, "mine.cu");
  EXPECT_EQ(d[0].line, 2U);
  EXPECT_EQ(d[0].column, 10U);  // the column of 'u' in "  v[0] = undefined_name;"
  EXPECT_EQ(d[0].severity, Diagnostic::Severity::error);
  EXPECT_EQ(d[0].message, "identifier \"undefined_name\" is undefined");
  EXPECT_EQ(d[0].source_line, "  v[0] = undefined_name;");
}

TEST(NvrtcLog, WarningsNotesAndNumberedDiagnostics) {
  const auto d = parse_nvrtc_log(
      "w.cu(1): warning #177-D: variable \"unused\" was declared but never referenced\n"
      "  __global__ void k(int* v) { int unused; }\n"
      "                                  ^\n"
      "\n"
      "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
      "At end of source: error: expected a \"}\"\n"
      "brace.cu(1): note #3196-D: to match this \"{\"\n"
      "  __global__ void k(int* v) {\n"
      "                            ^\n");
  ASSERT_EQ(d.size(), 3U);
  EXPECT_EQ(d[0].severity, Diagnostic::Severity::warning);
  EXPECT_EQ(d[0].column, 33U);
  EXPECT_TRUE(d[1].at_end_of_source);
  EXPECT_EQ(d[1].message, "expected a \"}\"");
  EXPECT_EQ(d[2].severity, Diagnostic::Severity::note);
  EXPECT_EQ(d[2].file, "brace.cu");
  EXPECT_EQ(d[2].message, "to match this \"{\"");
}

TEST(NvrtcLog, NameMapErrorsKeepTheEchoedExpression) {
  const auto d = parse_nvrtc_log(
      "__nv_name_map(3): error: identifier \"bad_two\" is undefined\n"
      "  #pragma nv_mangled_name bad_two\n"
      "                          ^\n"
      "\n"
      "catastrophic error: cannot open source file \"x.h\"\n"
      "nvrtc: error: unrecognized option -Wall found\n");
  ASSERT_EQ(d.size(), 3U);
  EXPECT_EQ(d[0].file, "__nv_name_map");
  EXPECT_EQ(d[0].source_line, "#pragma nv_mangled_name bad_two");
  EXPECT_EQ(d[1].message, "cannot open source file \"x.h\"");
  EXPECT_EQ(d[2].message, "unrecognized option -Wall found");
  EXPECT_TRUE(d[2].file.empty());
}

TEST(NvrtcLog, InstantiationsBecomeNotesAtTheirPlace) {
  const auto d = parse_nvrtc_log(
      "cooperative_groups.h(183): error: static assertion failed with \"no grid sync\"\n"
      "      static_assert(dependent_false<T>::value, \"no grid sync\");\n"
      "      ^\n"
      "          detected during instantiation of \"void grid_group::sync() const [with T=void]\" "
      "at line 3 of grid.cu\n"
      "\n"
      "t.cu(3): error: expression must have class type but it has type \"int\"\n"
      "          detected during instantiation of \"T twice(T) [with T=int]\" at line 6\n");
  ASSERT_EQ(d.size(), 4U);
  EXPECT_EQ(d[1].severity, Diagnostic::Severity::note);
  EXPECT_EQ(d[1].file, "grid.cu");
  EXPECT_EQ(d[1].line, 3U);
  EXPECT_EQ(d[1].message,
            "in instantiation of \"void grid_group::sync() const [with T=void]\" requested here");
  EXPECT_EQ(d[3].file, "t.cu");  // no "of file": the error's own file
  EXPECT_EQ(d[3].line, 6U);
}

}  // namespace
}  // namespace kjit::cuda
