// The thread pool the CPU backend runs blocks on: every chunk runs once, an exception reaches the
// caller, and with `pin` each worker is bound to a core of its own (KJIT_CPU_PIN).
#include "support/thread_pool.hpp"

#include <gtest/gtest.h>

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <latch>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace kjit::detail {
namespace {

/// The cores the calling thread may run on.
std::vector<int> my_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  EXPECT_EQ(pthread_getaffinity_np(pthread_self(), sizeof(set), &set), 0);
  std::vector<int> cores;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) {
      cores.push_back(c);
    }
  }
  return cores;
}

/// Each of the pool's threads runs one chunk (a latch holds every chunk until all have
/// started), and says which cores it may run on.
std::map<std::thread::id, std::vector<int>> cores_of_each_thread(ThreadPool& pool) {
  std::latch all_started(pool.threads());
  std::mutex mutex;
  std::map<std::thread::id, std::vector<int>> seen;
  pool.run(pool.threads(), 1, [&](std::uint64_t, std::uint64_t) {
    all_started.arrive_and_wait();
    const std::lock_guard lock(mutex);
    seen[std::this_thread::get_id()] = my_cores();
  });
  return seen;
}

TEST(ThreadPool, EveryItemRunsOnce) {
  ThreadPool pool(4);
  std::vector<std::atomic<int>> runs(1000);
  pool.run(runs.size(), 7, [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i) {
      runs[i].fetch_add(1);
    }
  });
  for (std::size_t i = 0; i < runs.size(); ++i) {
    ASSERT_EQ(runs[i].load(), 1) << i;
  }
}

TEST(ThreadPool, AChunksExceptionReachesTheCaller) {
  ThreadPool pool(3);
  EXPECT_THROW(pool.run(30, 1,
                        [](std::uint64_t begin, std::uint64_t) {
                          if (begin == 17) {
                            throw std::runtime_error("chunk 17");
                          }
                        }),
               std::runtime_error);
}

TEST(ThreadPool, UnpinnedWorkersMayRunWhereTheProcessMay) {
  const std::vector<int> allowed = my_cores();
  ThreadPool pool(3);
  const auto seen = cores_of_each_thread(pool);
  ASSERT_EQ(seen.size(), 3U);
  for (const auto& [thread, cores] : seen) {
    EXPECT_EQ(cores, allowed);
  }
}

TEST(ThreadPool, PinnedWorkersAreBoundToOneCoreEachAndTheCallerIsNot) {
  const std::vector<int> allowed = my_cores();
  ASSERT_FALSE(allowed.empty());
  ThreadPool pool(3, true);
  const auto seen = cores_of_each_thread(pool);
  ASSERT_EQ(seen.size(), 3U);
  std::vector<int> bound;
  for (const auto& [thread, cores] : seen) {
    if (thread == std::this_thread::get_id()) {
      EXPECT_EQ(cores, allowed) << "the caller of run() is the user's thread: left as it was";
    } else {
      ASSERT_EQ(cores.size(), 1U);
      bound.push_back(cores[0]);
    }
  }
  // Workers 1 and 2 on the second and third allowed cores (wrapping around on fewer).
  std::vector<int> expected{allowed[1 % allowed.size()], allowed[2 % allowed.size()]};
  std::sort(bound.begin(), bound.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(bound, expected);
  EXPECT_EQ(my_cores(), allowed);
}

}  // namespace
}  // namespace kjit::detail
