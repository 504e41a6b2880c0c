// Compiling in a child process (KJIT_COMPILE_ISOLATION, KJIT_COMPILE_TIMEOUT): the real
// kjit-compile helper gives the same binaries and the same errors as an in-process compile, a
// compile that never ends is stopped at its time limit, and helpers that hang, crash, exit or
// answer garbage (shell scripts standing in for a broken compiler) each give an error that says
// which, without taking the test process down.
#include "core/child_compile.hpp"
#include "core/tooling/compile_wire.hpp"
#include "core/tooling/offline_compilers.hpp"

#include <kjit/error.hpp>

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>

namespace kjit::detail {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

const fs::path kHelper = KJIT_TEST_COMPILE_HELPER;

backend::CompileRequest request(std::string source, std::vector<std::string> kernels) {
  backend::CompileRequest r;
  r.program_name = "child.cu";
  r.source = std::move(source);
  r.kernel_names = std::move(kernels);
  return r;
}

const char* const kScale =
    "__global__ void scale(const float* in, float* out, float f, int n) {\n"
    "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) out[i] = in[i] * f;\n"
    "}\n";

class ChildCompile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kjit_child_compile_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// An executable shell script standing in for kjit-compile.
  fs::path fake_helper(const std::string& name, const std::string& body) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    fs::permissions(path, fs::perms::owner_all);
    return path;
  }

  /// The error a compile with `helper` throws, as text; a failure when it throws none.
  template <class E>
  std::string error_of(const fs::path& helper, const backend::CompileRequest& r,
                       std::optional<milliseconds> timeout = std::nullopt) {
    try {
      (void)compile_in_child(helper, "cpu", r, timeout);
    } catch (const E& e) {
      return e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "another error: " << e.what();
      return {};
    }
    ADD_FAILURE() << "no error";
    return {};
  }

  fs::path dir_;
};

/// The pid a timeout message names, so that a test can check the process is gone.
pid_t pid_in(const std::string& message) {
  std::smatch m;
  if (!std::regex_search(message, m, std::regex("pid ([0-9]+)"))) {
    return 0;
  }
  return static_cast<pid_t>(std::stol(m[1]));
}

TEST(CompileWire, ARequestAndAReplyRoundTrip) {
  backend::CompileRequest r = request(std::string("bytes\0with a zero", 17), {"a", "b<int>"});
  r.input = backend::InputKind::bitcode;
  r.source_path = "/some/where/k.cu";
  r.include_dirs = {"/inc/one", "/inc/two"};
  r.headers = {{"h.h", "#define X 1\n"}};
  r.defines = {{"N", "4"}, {"FLAG", ""}};
  r.kernel_signatures = {std::nullopt, std::string("int*")};
  r.fast_math = true;
  r.debug = true;
  r.check_memory = true;
  const auto [target, back] = wire::decode_request(wire::encode_request("cuda:sm_90", r));
  EXPECT_EQ(target, "cuda:sm_90");
  EXPECT_EQ(back.program_name, r.program_name);
  EXPECT_EQ(back.input, r.input);
  EXPECT_EQ(back.source, r.source);
  EXPECT_EQ(back.source_path, r.source_path);
  EXPECT_EQ(back.include_dirs, r.include_dirs);
  EXPECT_EQ(back.headers, r.headers);
  EXPECT_EQ(back.defines, r.defines);
  EXPECT_EQ(back.kernel_names, r.kernel_names);
  EXPECT_EQ(back.kernel_signatures, r.kernel_signatures);
  EXPECT_EQ(back.fast_math, r.fast_math);
  EXPECT_EQ(back.debug, r.debug);
  EXPECT_EQ(back.check_memory, r.check_memory);

  const backend::Binary binary{"k.cu", "cubin", {0, 1, 2, 255}, {"_Z1av", "b"}, "a warning"};
  const backend::Binary got = wire::decode_reply(wire::encode_binary(binary), "test");
  EXPECT_EQ(got.program, binary.program);
  EXPECT_EQ(got.format, binary.format);
  EXPECT_EQ(got.bytes, binary.bytes);
  EXPECT_EQ(got.kernel_symbols, binary.kernel_symbols);
  EXPECT_EQ(got.log, binary.log);
}

TEST(CompileWire, ErrorsTravelAsThemselves) {
  const auto reply_for = [](auto error) {
    try {
      throw error;
    } catch (...) {
      return wire::encode_current_error();
    }
  };
  const std::vector<Diagnostic> diagnostics{
      {"k.cu", 3, 7, Diagnostic::Severity::error, "no such thing"}};
  try {
    (void)wire::decode_reply(reply_for(CompileError("k.cu", "cpu", diagnostics, "the log")), "t");
    ADD_FAILURE() << "no error";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.program(), "k.cu");
    EXPECT_EQ(e.target(), "cpu");
    EXPECT_EQ(e.file(), "k.cu");
    EXPECT_EQ(e.line(), 3U);
    EXPECT_EQ(e.diagnostics().at(0).column, 7U);
    EXPECT_EQ(e.log(), "the log");
  }
  EXPECT_THROW((void)wire::decode_reply(reply_for(KernelNotFoundError("gone")), "t"),
               KernelNotFoundError);
  EXPECT_THROW((void)wire::decode_reply(reply_for(ConfigError("bad")), "t"), ConfigError);
  EXPECT_THROW((void)wire::decode_reply(reply_for(std::runtime_error("odd")), "t"), BackendError);
}

TEST(CompileWire, BytesThatAreNotAMessageAreABackendError) {
  const std::vector<std::uint8_t> garbage{'n', 'o', 't', ' ', 'c', 'b', 'o', 'r'};
  EXPECT_THROW((void)wire::decode_request(garbage), BackendError);
  EXPECT_THROW((void)wire::decode_reply(garbage, "t"), BackendError);
  EXPECT_THROW((void)wire::decode_reply(wire::encode_request("cpu", request("", {})), "t"),
               BackendError);
}

TEST_F(ChildCompile, AHelperThatNeverAnswersIsKilledAtTheTimeLimit) {
  const auto start = std::chrono::steady_clock::now();
  const std::string message =
      error_of<CompileError>(fake_helper("hang", "echo 'thinking' >&2\nexec sleep 600"),
                             request(kScale, {"scale"}), milliseconds(300));
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_NE(message.find("did not finish within 0.3 s (KJIT_COMPILE_TIMEOUT)"), std::string::npos)
      << message;
  EXPECT_NE(message.find("child.cu"), std::string::npos) << message;
  EXPECT_NE(message.find("thinking"), std::string::npos) << message;  // its stderr is quoted
  EXPECT_LT(took, std::chrono::seconds(30));
  const pid_t pid = pid_in(message);
  ASSERT_GT(pid, 0) << message;
  EXPECT_NE(::kill(pid, 0), 0) << "the helper process " << pid << " is still there";
}

TEST_F(ChildCompile, AHelperThatCrashesGivesTheSignal) {
  const std::string message = error_of<CompileError>(
      fake_helper("crash", "echo 'PLEASE submit a bug report' >&2\nkill -SEGV $$"),
      request(kScale, {"scale"}));
  EXPECT_NE(message.find("died of signal 11"), std::string::npos) << message;
  EXPECT_NE(message.find("PLEASE submit a bug report"), std::string::npos) << message;
}

TEST_F(ChildCompile, AHelperThatExitsWithoutAResultGivesItsStatusAndStderr) {
  // LLVM's report_fatal_error prints a line such as this one and exits with status 1.
  const std::string message = error_of<CompileError>(
      fake_helper("fatal", "cat > /dev/null\necho 'LLVM ERROR: out of luck' >&2\nexit 1"),
      request(kScale, {"scale"}));
  EXPECT_NE(message.find("exited with status 1 without a result"), std::string::npos) << message;
  EXPECT_NE(message.find("LLVM ERROR: out of luck"), std::string::npos) << message;
}

TEST_F(ChildCompile, AHelperThatAnswersGarbageIsABackendError) {
  const std::string message = error_of<BackendError>(
      fake_helper("garbage", "cat > /dev/null\nprintf 'not a reply'"), request(kScale, {"scale"}));
  EXPECT_NE(message.find("sent a reply that is not one"), std::string::npos) << message;
}

TEST_F(ChildCompile, AMissingHelperIsABackendErrorNamingIt) {
  const std::string message =
      error_of<BackendError>(dir_ / "no-such-helper", request(kScale, {"scale"}));
  EXPECT_NE(message.find("cannot run the compile helper"), std::string::npos) << message;
  EXPECT_NE(message.find("no-such-helper"), std::string::npos) << message;
}

/// The in-process compiler of `target`, or nullptr when this build or machine has none (`why`).
backend::Compiler* offline_compiler(tooling::OfflineCompilers& compilers, const std::string& target,
                                    std::string& why) {
  try {
    return &compilers.compiler(target, request(kScale, {"scale"}));
  } catch (const Error& e) {
    why = e.what();
    return nullptr;
  }
}

TEST_F(ChildCompile, TheHelperCompilesWhatTheCompilerInThisProcessCompiles) {
  tooling::OfflineCompilers compilers;
  for (const std::string target : {"cpu", "cuda:sm_90", "hip:gfx90a"}) {
    std::string why;
    backend::Compiler* compiler = offline_compiler(compilers, target, why);
    if (compiler == nullptr) {
      std::printf("[  NOTE    ] %s not compared: %s\n", target.c_str(), why.c_str());
      continue;
    }
    const backend::CompileRequest r = request(kScale, {"scale"});
    const backend::Binary here = compiler->compile(r);
    const backend::Binary there = compile_in_child(kHelper, target, r, milliseconds(60000));
    EXPECT_EQ(there.format, here.format) << target;
    EXPECT_EQ(there.kernel_symbols, here.kernel_symbols) << target;
    EXPECT_EQ(there.bytes, here.bytes) << target;
  }
}

class ChildCompileOnTheCpu : public ChildCompile {
 protected:
  void SetUp() override {
    ChildCompile::SetUp();
    tooling::OfflineCompilers compilers;
    std::string why;
    if (offline_compiler(compilers, "cpu", why) == nullptr) {
      GTEST_SKIP() << "no CPU compiler: " << why;
    }
  }
};

TEST_F(ChildCompileOnTheCpu, CompileErrorsArriveLocatedInTheUsersFile) {
  const std::string message = error_of<CompileError>(
      kHelper, request("__global__ void k(int* p) {\n  *p = undeclared;\n}\n", {"k"}));
  EXPECT_NE(message.find("child.cu:2:"), std::string::npos) << message;
  EXPECT_NE(message.find("undeclared"), std::string::npos) << message;
  EXPECT_THROW((void)compile_in_child(kHelper, "cpu", request(kScale, {"absent"}), std::nullopt),
               KernelNotFoundError);
  EXPECT_THROW((void)compile_in_child(kHelper, "fpga", request(kScale, {"scale"}), std::nullopt),
               ConfigError);
}

TEST_F(ChildCompileOnTheCpu, BitcodeThatCrashesLlvmCostsOneCompileNotTheProcess) {
  // Found by bitcode_fuzzer: LLVM 19's bitcode reader dereferences null on it.
  std::ifstream in(fs::path(KJIT_SOURCE_DIR) / "tests/unit/data/llvm_reader_crash.bc",
                   std::ios::binary);
  backend::CompileRequest r =
      request(std::string(std::istreambuf_iterator<char>(in), {}), {"saxpy"});
  r.program_name = "llvm_reader_crash.bc";
  r.input = backend::InputKind::bitcode;
  ASSERT_GT(r.source.size(), 4000U);
  // In process it ends the process: shown in a fork, which dies (of SIGSEGV; under ASan, exit 1).
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    tooling::OfflineCompilers compilers;
    try {
      (void)compilers.compiler("cpu", r).compile(r);
    } catch (...) {
    }
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    GTEST_SKIP() << "this LLVM no longer crashes on the input: nothing to contain";
  }
  // In a child process it is one failed compile.
  const std::string message = error_of<CompileError>(kHelper, r, milliseconds(60000));
  EXPECT_TRUE(message.find("died of signal") != std::string::npos ||
              message.find("exited with status") != std::string::npos)
      << message;
  EXPECT_NE(message.find("llvm_reader_crash.bc"), std::string::npos) << message;
}

TEST_F(ChildCompileOnTheCpu, ACompilerThatBlocksIsStoppedAndTheNextCompileWorks) {
  // The compiler opens a FIFO that nobody writes: it blocks, as on a hung network file system.
  const fs::path fifo = dir_ / "never-written.h";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string source = "#include \"" + fifo.string() + "\"\n" + kScale;
  const std::string message =
      error_of<CompileError>(kHelper, request(source, {"scale"}), milliseconds(1500));
  EXPECT_NE(message.find("did not finish within 1.5 s"), std::string::npos) << message;
  const backend::Binary next =
      compile_in_child(kHelper, "cpu", request(kScale, {"scale"}), milliseconds(60000));
  EXPECT_FALSE(next.bytes.empty());
}

}  // namespace
}  // namespace kjit::detail
