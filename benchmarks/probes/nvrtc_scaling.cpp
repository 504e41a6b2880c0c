// Does NVRTC compile in parallel? 32 distinct small kernels (kjit's CUDA prelude included, as
// kjit compiles them) spread over N threads of one process, timed by wall clock and by the
// process's CPU time: with N threads busy, CPU time is N times wall time; with NVRTC serialising
// them, it stays near wall time. `nvrtc_scaling 1 --count K` in N processes at once times the
// same work spread over processes, each of which loads NVRTC itself.
// `nvrtc_scaling N PRELUDE --fork` spreads them over N processes forked from this one after
// NVRTC has compiled a first program here, so that the children find it loaded and warm.
// Built and run by scripts/nvrtc-scaling.sh; needs only NVRTC's header and library (no GPU).
#include "nvrtc_probe_program.hpp"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

std::string prelude;

void compile(int salt) {
  compile_probe_program(prelude, salt);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: nvrtc_scaling THREADS PRELUDE [--count K --salt S]\n");
    return 2;
  }
  const int threads = std::atoi(argv[1]);
  std::stringstream text;
  text << std::ifstream(argv[2]).rdbuf();
  prelude = text.str();
  int count = 32;
  int salt = 1000;
  const bool one_shot = argc >= 5 && std::string(argv[3]) == "--count";
  const bool forked = argc >= 4 && std::string(argv[3]) == "--fork";
  if (one_shot) {  // one of several processes: no warm-up, NVRTC's loading counted
    count = std::atoi(argv[4]);
    salt = argc >= 7 ? std::atoi(argv[6]) : salt;
  } else {
    compile(0);  // loads NVRTC before timing
  }
  const double cpu0 = cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  if (forked) {
    std::vector<pid_t> children;
    for (int t = 0; t < threads; ++t) {
      const pid_t pid = fork();
      if (pid == 0) {
        for (int i = t; i < count; i += threads) {
          compile(salt + i);
        }
        _exit(0);
      }
      children.push_back(pid);
    }
    int failed = 0;
    for (const pid_t pid : children) {
      int status = 0;
      waitpid(pid, &status, 0);
      failed += (WIFEXITED(status) && WEXITSTATUS(status) == 0) ? 0 : 1;
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%2d forked processes: %d compiles in %.0f ms wall%s\n", threads, count, wall * 1e3,
                failed != 0 ? " (a child failed)" : "");
    return failed != 0 ? 1 : 0;
  }
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([=] {
      for (int i = t; i < count; i += threads) {
        compile(salt + i);
      }
    });
  }
  for (std::thread& t : pool) {
    t.join();
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!one_shot) {
    std::printf("%2d threads: %d compiles in %.0f ms wall, %.0f ms CPU (%.1f cores busy)\n",
                threads, count, wall * 1e3, (cpu_seconds() - cpu0) * 1e3,
                (cpu_seconds() - cpu0) / wall);
  }
  return 0;
}
