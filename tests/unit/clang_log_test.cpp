// hipRTC's (Clang's) compile log parsed into diagnostics, with the source line each one echoes.
#include "backends/hip/clang_log.hpp"

#include <gtest/gtest.h>

namespace kjit::hip {
namespace {

TEST(ClangLog, DiagnosticsWithLocationsSeveritiesAndSourceLines) {
  const std::string log =
      "mine.cu:3:10: error: use of undeclared identifier 'x'\n"
      "  v[1] = x;\n"
      "         ^\n"
      "/tmp/comgr-1/include/a:b.h:12:1: warning: unused variable 'y' [-Wunused-variable]\n"
      "int y;\n"
      "^\n"
      "mine.cu:1:27: note: to match this '{'\n"
      "__global__ void k(int* v) {\n"
      "                          ^\n"
      "kjit-kernel-names:2:40: fatal error: 'h.h' file not found\n"
      "extern \"C\" constexpr auto __hiprtc_1 = nothere;\n"
      "1 error generated when compiling for gfx90a.\n";
  const std::vector<ClangDiagnostic> d = parse_clang_log(log);
  ASSERT_EQ(d.size(), 4U);
  EXPECT_EQ(d[0].file, "mine.cu");
  EXPECT_EQ(d[0].line, 3U);
  EXPECT_EQ(d[0].column, 10U);
  EXPECT_EQ(d[0].severity, Diagnostic::Severity::error);
  EXPECT_EQ(d[0].message, "use of undeclared identifier 'x'");
  EXPECT_EQ(d[0].source_line, "  v[1] = x;");
  EXPECT_EQ(d[1].file, "/tmp/comgr-1/include/a:b.h");  // a ':' in a file name
  EXPECT_EQ(d[1].line, 12U);
  EXPECT_EQ(d[1].severity, Diagnostic::Severity::warning);
  EXPECT_EQ(d[2].severity, Diagnostic::Severity::note);
  EXPECT_EQ(d[3].severity, Diagnostic::Severity::error);
  EXPECT_EQ(d[3].message, "'h.h' file not found");
  EXPECT_EQ(d[3].source_line, "extern \"C\" constexpr auto __hiprtc_1 = nothere;");
}

TEST(ClangLog, OtherLinesAreNotDiagnostics) {
  EXPECT_TRUE(parse_clang_log("").empty());
  EXPECT_TRUE(parse_clang_log("1 error generated.\nwarning: no location\n").empty());
  EXPECT_TRUE(parse_clang_log("file:x:1: error: bad line number\n").empty());
  EXPECT_TRUE(parse_clang_log("file:1: error: no column\n").empty());
}

}  // namespace
}  // namespace kjit::hip
