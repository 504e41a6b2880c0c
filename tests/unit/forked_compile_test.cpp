// Concurrent compiles of a compiler that compiles one program at a time in a process run in
// forked processes: they give the same binaries and errors as compiles in this process, a child
// that dies is a CompileError that says so, a lone compile stays here, and KJIT_COMPILE_FORK=off
// keeps every compile here. NVRTC (no GPU needed) is the real serial compiler; stand-in
// compilers make a child crash or report which process compiled.
#include "core/child_compile.hpp"
#include "core/forked_compiles.hpp"
#include "core/tooling/offline_compilers.hpp"

#include <kjit/error.hpp>

#include <gtest/gtest.h>
#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <latch>
#include <mutex>
#include <random>
#include <set>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

namespace kjit::detail {
namespace {

/// A stand-in serial compiler: each binary's bytes are the compiling process's pid and then
/// `size` pseudo-random bytes seeded by the program's name; "abort.cu" aborts its process and
/// "bad.cu" is a CompileError.
class StandIn : public backend::Compiler {
 public:
  explicit StandIn(std::size_t size = 16, std::chrono::milliseconds busy = {})
      : size_(size), busy_(busy) {}
  backend::TargetIdentity identity() override { return {"stand-in", {}, {}}; }
  const char* serial_library() const override { return "stand-in"; }
  backend::Binary compile(const backend::CompileRequest& request) override {
    std::this_thread::sleep_for(busy_);
    if (request.program_name == "abort.cu") {
      std::abort();
    }
    if (request.program_name == "bad.cu") {
      throw CompileError(request.program_name, "stand-in", {}, "bad.cu:1:1: error: no good");
    }
    backend::Binary b;
    b.program = request.program_name;
    b.format = "stand-in";
    const pid_t pid = ::getpid();
    b.bytes.resize(sizeof pid);
    std::memcpy(b.bytes.data(), &pid, sizeof pid);
    std::mt19937 random(static_cast<unsigned>(std::hash<std::string>{}(request.program_name)));
    for (std::size_t i = 0; i < size_; ++i) {
      b.bytes.push_back(static_cast<std::uint8_t>(random()));
    }
    b.kernel_symbols = request.kernel_names;
    return b;
  }
  /// What compile() gives, but the pid.
  std::vector<std::uint8_t> expected_tail(const std::string& name) const {
    std::mt19937 random(static_cast<unsigned>(std::hash<std::string>{}(name)));
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i < size_; ++i) {
      out.push_back(static_cast<std::uint8_t>(random()));
    }
    return out;
  }

 private:
  std::size_t size_;
  std::chrono::milliseconds busy_;
};

backend::CompileRequest named(const std::string& name) {
  backend::CompileRequest r;
  r.program_name = name;
  r.source = "// " + name;
  r.kernel_names = {"k_" + name};
  return r;
}

pid_t pid_of(const backend::Binary& b) {
  pid_t pid = 0;
  EXPECT_GE(b.bytes.size(), sizeof pid);
  std::memcpy(&pid, b.bytes.data(), sizeof pid);
  return pid;
}

std::vector<std::uint8_t> tail_of(const backend::Binary& b) {
  return {b.bytes.begin() + static_cast<std::ptrdiff_t>(sizeof(pid_t)), b.bytes.end()};
}

TEST(ForkedCompile, AForkedChildSendsItsBinaryWhole) {
  StandIn compiler(std::size_t{24} * 1024 * 1024);  // more than a socket buffer holds
  std::shared_mutex gate;
  const backend::Binary b = compile_in_fork(compiler, named("big.cu"), "stand-in", gate);
  EXPECT_NE(pid_of(b), ::getpid());
  EXPECT_EQ(tail_of(b), compiler.expected_tail("big.cu"));
  EXPECT_EQ(b.kernel_symbols, std::vector<std::string>{"k_big.cu"});
  EXPECT_EQ(b.program, "big.cu");
}

TEST(ForkedCompile, ACompileErrorInTheChildArrivesAsItself) {
  StandIn compiler;
  std::shared_mutex gate;
  try {
    (void)compile_in_fork(compiler, named("bad.cu"), "stand-in", gate);
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.cu:1:1: error: no good"), std::string::npos)
        << e.what();
  }
}

TEST(ForkedCompile, AChildThatDiesIsACompileErrorSayingSo) {
  StandIn compiler;
  std::shared_mutex gate;
  try {
    (void)compile_in_fork(compiler, named("abort.cu"), "stand-in", gate);
    FAIL() << "no error";
  } catch (const CompileError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("abort.cu"), std::string::npos) << what;
    EXPECT_NE(what.find("died of signal 6"), std::string::npos) << what;
  }
  // The process goes on compiling.
  EXPECT_EQ(tail_of(compile_in_fork(compiler, named("after.cu"), "stand-in", gate)),
            compiler.expected_tail("after.cu"));
}

/// Compiles `names` at once, one thread each, through compile_as_configured.
std::vector<backend::Binary> compile_together(backend::Compiler& compiler,
                                              const std::vector<std::string>& names,
                                              const std::string& target) {
  std::vector<backend::Binary> out(names.size());
  std::vector<std::string> errors(names.size());
  std::latch start(static_cast<std::ptrdiff_t>(names.size()));
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < names.size(); ++i) {
    threads.emplace_back([&, i] {
      start.arrive_and_wait();
      try {
        out[i] = compile_as_configured(compiler, named(names[i]), target);
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
  }
  for (std::thread& t : threads) {
    t.join();
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(errors[i], "") << names[i];
  }
  return out;
}

TEST(ForkedCompile, CompilesThatMeetRunInForkedProcessesAndALoneOneHere) {
  ::unsetenv("KJIT_COMPILE_FORK");
  StandIn compiler(64, std::chrono::milliseconds(200));
  const std::uint64_t before = forked_compile_count();
  const std::vector<std::string> names = {"a.cu", "b.cu", "c.cu", "d.cu", "e.cu", "f.cu"};
  const std::vector<backend::Binary> got = compile_together(compiler, names, "stand-in");
  std::set<pid_t> pids;
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(tail_of(got[i]), compiler.expected_tail(names[i])) << names[i];
    pids.insert(pid_of(got[i]));
  }
  // The first warms the library here; the others, which waited for it, each fork.
  EXPECT_EQ(pids.count(::getpid()), 1U);
  EXPECT_GE(pids.size(), 2U);
  EXPECT_EQ(forked_compile_count() - before, pids.size() - 1);
  // Alone, a compile stays here.
  EXPECT_EQ(pid_of(compile_as_configured(compiler, named("alone.cu"), "stand-in")), ::getpid());
}

TEST(ForkedCompile, ForkingOffKeepsEveryCompileHere) {
  ::setenv("KJIT_COMPILE_FORK", "off", 1);
  StandIn compiler(64, std::chrono::milliseconds(50));
  const std::uint64_t before = forked_compile_count();
  for (const backend::Binary& b :
       compile_together(compiler, {"a.cu", "b.cu", "c.cu", "d.cu"}, "stand-in")) {
    EXPECT_EQ(pid_of(b), ::getpid());
  }
  EXPECT_EQ(forked_compile_count(), before);
  ::unsetenv("KJIT_COMPILE_FORK");
}

TEST(ForkedCompile, ABadSettingIsAConfigErrorAndLeavesTheCompilerUsable) {
  ::setenv("KJIT_COMPILE_FORK", "sometimes", 1);
  StandIn compiler;
  try {
    (void)compile_as_configured(compiler, named("a.cu"), "stand-in");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("KJIT_COMPILE_FORK='sometimes'"), std::string::npos)
        << e.what();
  }
  ::unsetenv("KJIT_COMPILE_FORK");
  EXPECT_EQ(tail_of(compile_as_configured(compiler, named("a.cu"), "stand-in")),
            compiler.expected_tail("a.cu"));
}

/// A stand-in that does what NVRTC does when a thread that compiled ends: a thread-specific
/// destructor takes the compiler's lock (and here keeps it a while). A compile takes the lock
/// too, so a child forked while a thread that compiled was ending would wait for ever. "stall.cu"
/// in a forked child waits for ever without using CPU time.
class LockAtThreadEnd : public StandIn {
 public:
  LockAtThreadEnd() : StandIn(16, std::chrono::milliseconds(100)), parent_(::getpid()) {
    ::pthread_key_create(&key_, &LockAtThreadEnd::thread_ends);
  }
  ~LockAtThreadEnd() override { ::pthread_key_delete(key_); }
  const char* serial_library() const override { return "lock-at-thread-end"; }
  backend::Binary compile(const backend::CompileRequest& request) override {
    if (request.program_name == "stall.cu" && ::getpid() != parent_) {
      for (;;) {
        ::pause();
      }
    }
    {
      const std::lock_guard lock(lock_);
      ::pthread_setspecific(key_, this);
    }
    const std::lock_guard lock(compilers_);
    threads_.insert(std::this_thread::get_id());
    return StandIn::compile(request);
  }
  std::set<std::thread::id> threads() {
    const std::lock_guard lock(compilers_);
    return threads_;
  }

 private:
  static void thread_ends(void* self) {
    auto* me = static_cast<LockAtThreadEnd*>(self);
    const std::lock_guard lock(me->lock_);
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
  }
  pid_t parent_;
  pthread_key_t key_{};
  std::mutex lock_;
  std::mutex compilers_;
  std::set<std::thread::id> threads_;
};

TEST(ForkedCompile, CompilesHereRunOnOneThreadSoNoEndingThreadHoldsALockAtAFork) {
  ::unsetenv("KJIT_COMPILE_FORK");
  LockAtThreadEnd compiler;
  // The first compile, from a thread that then ends: where it ran, the thread-specific
  // destructor would now hold the compiler's lock for 400 ms.
  std::thread::id first_caller;
  std::thread([&] {
    first_caller = std::this_thread::get_id();
    EXPECT_EQ(pid_of(compile_as_configured(compiler, named("first.cu"), "stand-in")), ::getpid());
  }).join();
  // Compiles that meet now fork; their children take the compiler's lock.
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t before = forked_compile_count();
  const std::vector<std::string> names = {"a.cu", "b.cu", "c.cu"};
  const std::vector<backend::Binary> got = compile_together(compiler, names, "stand-in");
  std::set<pid_t> pids;
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(tail_of(got[i]), compiler.expected_tail(names[i])) << names[i];
    pids.insert(pid_of(got[i]));
  }
  EXPECT_GE(forked_compile_count() - before, 1U);
  EXPECT_GE(pids.size(), 2U);  // children answered: none waited for the lock until stopped
  EXPECT_LT(std::chrono::steady_clock::now() - start, kForkStallLimit);
  // Every compile here ran on one thread, and that thread is none of the callers.
  const std::set<std::thread::id> threads = compiler.threads();
  EXPECT_EQ(threads.size(), 1U);
  EXPECT_EQ(threads.count(first_caller), 0U);
}

TEST(ForkedCompile, AForkedChildThatUsesNoCpuTimeIsKilledAndTheCompileRunsHere) {
  ::unsetenv("KJIT_COMPILE_FORK");
  LockAtThreadEnd compiler;
  std::shared_mutex gate;
  try {
    (void)compile_in_fork(compiler, named("stall.cu"), "stand-in", gate,
                          std::chrono::milliseconds(300));
    FAIL() << "no error";
  } catch (const ForkedCompileStalled& e) {
    EXPECT_NE(std::string(e.what()).find("'stall.cu' for stand-in"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("used no CPU time for 300 ms"), std::string::npos)
        << e.what();
  }
  // Through the policy: "other.cu" compiles here for 100 ms; "stall.cu", which meets it, forks,
  // stalls in its child, and is compiled here after all.
  (void)compile_sharing_cores(compiler, named("warm.cu"), "stand-in");
  const std::uint64_t before = forked_compile_count();
  backend::Binary other;
  std::thread here([&] { other = compile_sharing_cores(compiler, named("other.cu"), "stand-in"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  const auto start = std::chrono::steady_clock::now();
  const backend::Binary stalled = compile_sharing_cores(compiler, named("stall.cu"), "stand-in",
                                                        std::chrono::milliseconds(300));
  const auto took = std::chrono::steady_clock::now() - start;
  here.join();
  EXPECT_EQ(pid_of(stalled), ::getpid());
  EXPECT_EQ(tail_of(stalled), compiler.expected_tail("stall.cu"));
  EXPECT_EQ(tail_of(other), compiler.expected_tail("other.cu"));
  EXPECT_GE(took, std::chrono::milliseconds(300));  // it went to a child first
  EXPECT_EQ(forked_compile_count(), before);
}

std::string nvrtc_source(int salt) {
  return "__global__ void k" + std::to_string(salt) +
         "(float* x, int n) {\n"
         "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  if (i < n) x[i] = x[i] * " +
         std::to_string(salt) + ".0f + 1.0f;\n}\n";
}

TEST(ForkedCompile, NvrtcCompilesInForkedProcessesMatchThoseInThisProcess) {
  ::unsetenv("KJIT_COMPILE_FORK");
  tooling::OfflineCompilers compilers;
  const std::string target = "cuda:sm_90";
  std::vector<backend::CompileRequest> requests;
  for (int salt = 1; salt <= 6; ++salt) {
    backend::CompileRequest r;
    r.program_name = "k" + std::to_string(salt) + ".cu";
    r.source = nvrtc_source(salt);
    r.kernel_names = {"k" + std::to_string(salt)};
    requests.push_back(std::move(r));
  }
  backend::Compiler* compiler = nullptr;
  try {
    compiler = &compilers.compiler(target, requests[0]);
    (void)compiler->identity();
  } catch (const BackendError& e) {
    GTEST_SKIP() << "NVRTC cannot be used here: " << e.what();
  } catch (const ConfigError& e) {
    GTEST_SKIP() << "this kjit has no CUDA backend: " << e.what();
  }
  ASSERT_STREQ(compiler->serial_library(), "nvrtc");
  const std::uint64_t before = forked_compile_count();
  std::vector<backend::Binary> together(requests.size());
  {
    std::latch start(static_cast<std::ptrdiff_t>(requests.size()));
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      threads.emplace_back([&, i] {
        start.arrive_and_wait();
        together[i] = compile_as_configured(*compiler, requests[i], target);
      });
    }
    for (std::thread& t : threads) {
      t.join();
    }
  }
  EXPECT_GE(forked_compile_count() - before, 1U);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const backend::Binary here = compiler->compile(requests[i]);
    EXPECT_EQ(together[i].format, "cubin");
    EXPECT_EQ(together[i].bytes, here.bytes) << requests[i].program_name;
    EXPECT_EQ(together[i].kernel_symbols, here.kernel_symbols);
  }
  // An error from NVRTC in a forked process reads as it does here.
  backend::CompileRequest bad = requests[0];
  bad.program_name = "bad.cu";
  bad.source = "__global__ void k1(float* x) { x[0] = undeclared; }\n";
  std::string here_error;
  std::string forked_error;
  try {
    (void)compiler->compile(bad);
  } catch (const CompileError& e) {
    here_error = e.what();
  }
  std::shared_mutex gate;
  try {
    (void)compile_in_fork(*compiler, bad, target, gate);
  } catch (const CompileError& e) {
    forked_error = e.what();
  }
  EXPECT_NE(here_error.find("undeclared"), std::string::npos) << here_error;
  EXPECT_EQ(forked_error, here_error);
}

}  // namespace
}  // namespace kjit::detail
