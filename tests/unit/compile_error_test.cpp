#include <kjit/error.hpp>

#include <gtest/gtest.h>

namespace kjit {
namespace {

TEST(CompileError, ListsDiagnosticsInTheFormEditorsRead) {
  std::vector<Diagnostic> diagnostics{
      {"k.cu", 3, 7, Diagnostic::Severity::error, "use of undeclared identifier 'x'"},
      {"k.cu", 3, 1, Diagnostic::Severity::note, "in instantiation of 'f<int>' requested here"},
      {"inc/h.h", 10, 2, Diagnostic::Severity::warning, "unused variable 'y'"},
      {"inc/h.h", 9, 1, Diagnostic::Severity::note, "a note about the warning"}};
  const CompileError e("k.cu", "cpu:0", diagnostics, "full log");
  const std::string what = e.what();
  EXPECT_NE(what.find("cannot compile 'k.cu' for cpu:0"), std::string::npos) << what;
  EXPECT_NE(what.find("\nk.cu:3:7: error: use of undeclared identifier 'x'"), std::string::npos);
  EXPECT_NE(what.find("\ninc/h.h:10:2: warning: unused variable 'y'"), std::string::npos);
  // An error's notes come with it (they say where a template was used); a warning's stay in log().
  EXPECT_NE(what.find("\nk.cu:3:1: note: in instantiation of 'f<int>' requested here"),
            std::string::npos)
      << what;
  EXPECT_EQ(what.find("a note about the warning"), std::string::npos) << what;
  EXPECT_EQ(e.file(), "k.cu");
  EXPECT_EQ(e.line(), 3U);
  EXPECT_EQ(e.log(), "full log");
  EXPECT_EQ(e.program(), "k.cu");
  EXPECT_EQ(e.diagnostics().size(), 4U);
}

TEST(CompileError, FileAndLineComeFromTheFirstError) {
  std::vector<Diagnostic> diagnostics{{"a.h", 1, 1, Diagnostic::Severity::warning, "w"},
                                      {"b.cu", 9, 4, Diagnostic::Severity::error, "e"}};
  const CompileError e("b.cu", "cpu:0", diagnostics, "");
  EXPECT_EQ(e.file(), "b.cu");
  EXPECT_EQ(e.line(), 9U);
  const CompileError none("p", "cpu:0", {}, "raw compiler output");
  EXPECT_EQ(none.file(), "");
  EXPECT_EQ(none.line(), 0U);
  EXPECT_NE(std::string(none.what()).find("raw compiler output"), std::string::npos);
}

TEST(Diagnostic, WithoutAFileIsJustTheMessage) {
  const Diagnostic d{"", 0, 0, Diagnostic::Severity::error, "bad"};
  EXPECT_EQ(d.to_string(), "error: bad");
}

}  // namespace
}  // namespace kjit
