// What a compile costs in a process forked from one where NVRTC is loaded and warm, against the
// same compile in that process: `nvrtc_fork_cost PRELUDE WARM PROCS COUNT` compiles WARM programs
// here, forks PROCS children that compile COUNT programs between them (each printing its
// compiles' milliseconds and page faults), then compiles 8 here. MALLOPT=1 in the environment
// makes the children keep the memory they free (no page faults after their first compile);
// TRIM=1 returns this process's free memory to the system before forking. Built and run by hand:
//   g++ -O2 -std=c++20 nvrtc_fork_cost.cpp -I$CUDA/include -DCUDA_INCLUDE="\"$CUDA/include\"" \
//     -L$CUDA/lib64 -Wl,-rpath,$CUDA/lib64 -lnvrtc -o nvrtc_fork_cost
#include "nvrtc_probe_program.hpp"

#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string prelude;

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

long faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

void compile(int salt) {
  compile_probe_program(prelude, salt);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: nvrtc_fork_cost PRELUDE WARM PROCS COUNT\n");
    return 2;
  }
  std::stringstream text;
  text << std::ifstream(argv[1]).rdbuf();
  prelude = text.str();
  const int warm = std::atoi(argv[2]);
  const int procs = std::atoi(argv[3]);
  const int count = std::atoi(argv[4]);
  for (int i = 0; i < warm; ++i) {
    compile(-1 - i);
  }
  if (std::getenv("TRIM") != nullptr) {
    malloc_trim(0);
  }
  const double t0 = now_ms();
  std::vector<pid_t> children;
  for (int t = 0; t < procs; ++t) {
    const pid_t pid = fork();
    if (pid == 0) {
      if (std::getenv("MALLOPT") != nullptr) {
        mallopt(M_MMAP_THRESHOLD, 1 << 30);
        mallopt(M_TRIM_THRESHOLD, 1 << 30);
        mallopt(M_TOP_PAD, 256 << 20);
      }
      std::string line = "child " + std::to_string(t) + " started at +" +
                         std::to_string(static_cast<int>(now_ms() - t0)) + " ms:";
      for (int i = t; i < count; i += procs) {
        const double start = now_ms();
        const long f = faults();
        compile(5000 + i);
        line += " " + std::to_string(static_cast<int>(now_ms() - start)) + "ms/" +
                std::to_string(faults() - f) + "flt";
      }
      line += " done at +" + std::to_string(static_cast<int>(now_ms() - t0)) + " ms\n";
      std::fputs(line.c_str(), stdout);
      std::fflush(stdout);
      _exit(0);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    waitpid(pid, nullptr, 0);
  }
  std::printf("warm=%d procs=%d count=%d: %.0f ms\n", warm, procs, count, now_ms() - t0);
  const double start = now_ms();
  const long f = faults();
  for (int i = 0; i < 8; ++i) {
    compile(9000 + i);
  }
  std::printf("this process: 8 compiles, %.1f ms and %ld page faults each\n",
              (now_ms() - start) / 8, (faults() - f) / 8);
  return 0;
}
