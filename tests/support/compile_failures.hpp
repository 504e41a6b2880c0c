// For a compiler's unit test (unit/nvrtc_compile_test.cpp, unit/hiprtc_compile_test.cpp): a
// thousand failing compiles, then one that works.
#pragma once

#include "failing_sources.hpp"
#include "kernel_files.hpp"

#include <kjit/error.hpp>

#include <gtest/gtest.h>

#include <string>

namespace kjit::test {

/// For a compiler's unit test: a thousand failing compiles through `compile` (a
/// backend::CompileRequest to a backend::Binary), each a CompileError naming its file, then one
/// that works: the compiler, and the process-wide library behind it, stay usable.
template <class Compile>
void compile_failures_leave_the_compiler_working(Compile compile) {
  constexpr int kCompiles = 1000;
  for (int i = 0; i < kCompiles; ++i) {
    const std::string name = "failing_" + std::to_string(i) + ".cu";
    try {
      (void)compile(request_for_text(name, failing_source(i), "k"));
      ADD_FAILURE() << "compiled: " << failing_source(i);
    } catch (const CompileError& e) {
      ASSERT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(compile(request_for_text("works.cu", "__global__ void k(int* p) { p[0] = 1; }", "k"))
                   .bytes.empty());
}

}  // namespace kjit::test
