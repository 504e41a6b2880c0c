// A process of the multi-process cache test: compiles and checks programs scaled<from>.cu to
// scaled<to - 1>.cu of a folder, starting at one its process id chooses, then prints its cache
// counters and whether NVRTC's library was loaded. Exit 1 on a wrong result. It first prints its
// process id ("pid=N"), and "start S" / "done S" around program S, each line as it happens: the
// kill test kills it while it compiles.
#include "cache_support.hpp"

#include <kjit/kjit.hpp>

#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s DIR FROM TO\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const int from = std::stoi(argv[2]);
  const int to = std::stoi(argv[3]);
  try {
    const kjit::Device device = kjit::Device::select();
    int bad = 0;
    const int count = to - from;
    const int first = static_cast<int>(::getpid()) % count;  // processes start apart
    std::printf("pid=%d\n", static_cast<int>(::getpid()));
    std::fflush(stdout);
    for (int k = 0; k < count; ++k) {
      const int salt = from + (first + k) % count;
      std::printf("start %d\n", salt);
      std::fflush(stdout);
      const auto program = kjit::Program::from_file(dir + "/scaled" + std::to_string(salt) + ".cu");
      bad += kjit::test::scaled_copy_mismatches(program, device, 3, salt, 99);
      std::printf("done %d\n", salt);
      std::fflush(stdout);
    }
    const kjit::CacheStats s = kjit::cache_stats();
    bool nvrtc_loaded = false;
    for (const char* name : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}) {
      if (void* handle = dlopen(name, RTLD_LAZY | RTLD_NOLOAD)) {
        nvrtc_loaded = true;
        dlclose(handle);
      }
    }
    const auto n = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
    std::printf(
        "compiles=%llu hits=%llu waits=%llu mismatches=%d nvrtc_loaded=%d remote_hits=%llu "
        "remote_waits=%llu remote_takeovers=%llu\n",
        n(s.compiles), n(s.hits), n(s.waits), bad, nvrtc_loaded ? 1 : 0, n(s.remote_hits),
        n(s.remote_waits), n(s.remote_takeovers));
    return bad == 0 ? 0 : 1;
  } catch (const kjit::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
