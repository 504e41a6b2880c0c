#include "support/thread_pool.hpp"

#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <system_error>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

namespace kjit::detail {

struct ThreadPool::Job {
  const Body* body = nullptr;
  std::uint64_t n = 0;
  std::uint64_t grain = 1;
  std::atomic<std::uint64_t> next{0};
  int helpers = 0;  // workers inside take_chunks; guarded by the pool's mutex
  // Workers to wake for this job, and those woken so far; guarded by the pool's mutex. Each
  // worker that joins wakes two more, so the caller pays for one wake-up, not one per worker,
  // and the last of 15 workers is 4 wake-ups away, not 15.
  std::uint64_t wanted = 0;
  std::uint64_t woken = 0;
  std::mutex error_mutex;
  std::exception_ptr error;
};

namespace {

/// The cores this process may run on, in order; empty where that cannot be asked.
std::vector<int> allowed_cores() {
  std::vector<int> cores;
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &set)) {
        cores.push_back(c);
      }
    }
  }
#endif
  return cores;
}

/// Binds `t` to `core`; false where that failed (or the platform has no way).
bool bind(std::thread& t, int core) {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(core, &set);
  return pthread_setaffinity_np(t.native_handle(), sizeof(set), &set) == 0;
#else
  (void)t;
  (void)core;
  return false;
#endif
}

}  // namespace

ThreadPool::ThreadPool(unsigned threads, bool pin) : threads_(std::max(1U, threads)) {
  const std::vector<int> cores = pin ? allowed_cores() : std::vector<int>{};
  if (pin && cores.empty()) {
    log().warn("KJIT_CPU_PIN: the cores this process may run on are unknown; workers run unbound");
  }
  bool bound_all = true;
  try {
    for (unsigned i = 1; i < threads_; ++i) {
      workers_.emplace_back([this] { work(); });
      if (!cores.empty()) {
        bound_all = bind(workers_.back(), cores[i % cores.size()]) && bound_all;
      }
    }
  } catch (const std::system_error& e) {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    work_cv_.notify_all();
    for (std::thread& t : workers_) {
      t.join();
    }
    throw BackendError(
        fmt::format("kjit: cannot start {} CPU worker threads: {}", threads_ - 1, e.what()));
  }
  if (!bound_all) {
    log().warn("KJIT_CPU_PIN: some worker threads could not be bound to a core; they run unbound");
  }
}

ThreadPool::~ThreadPool() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : workers_) {
    t.join();
  }
}

void ThreadPool::take_chunks(Job& job) {
  while (true) {
    const std::uint64_t begin = job.next.fetch_add(job.grain, std::memory_order_relaxed);
    if (begin >= job.n) {
      return;
    }
    try {
      (*job.body)(begin, std::min(job.n, begin + job.grain));
    } catch (...) {
      const std::lock_guard lock(job.error_mutex);
      if (!job.error) {
        job.error = std::current_exception();
      }
    }
  }
}

void ThreadPool::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    work_cv_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
    if (stopping_) {
      return;
    }
    Job* job = jobs_.front();
    if (job->next.load(std::memory_order_relaxed) >= job->n) {
      jobs_.erase(jobs_.begin());  // every chunk is taken; its owner waits for the helpers
      continue;
    }
    ++job->helpers;
    for (int more = 0; more < 2 && job->woken < job->wanted; ++more) {
      ++job->woken;
      work_cv_.notify_one();
    }
    lock.unlock();
    take_chunks(*job);
    lock.lock();
    if (--job->helpers == 0) {
      helpers_cv_.notify_all();
    }
  }
}

void ThreadPool::run(std::uint64_t n, std::uint64_t grain, const Body& body) {
  if (n == 0) {
    return;
  }
  grain = std::max<std::uint64_t>(1, grain);
  if (workers_.empty() || n <= grain) {
    body(0, n);  // one chunk: not worth waking anyone
    return;
  }
  Job job;
  job.body = &body;
  job.n = n;
  job.grain = grain;
  // As many workers as there are chunks besides the caller's first: a launch of 3 blocks on a
  // 16-core pool wakes 2, not 15 that would find nothing to do. The caller wakes the first; each
  // wakes two more as it joins (waking 15 at once, then taking the lock back from them, cost an
  // empty launch of 64 blocks about 30 us on 16 cores; one after another, the last woke so late
  // that a launch split one range per worker waited for it).
  const std::uint64_t chunks = (n + grain - 1) / grain;
  job.wanted = std::min<std::uint64_t>(chunks - 1, workers_.size());
  job.woken = 1;
  {
    const std::lock_guard lock(mutex_);
    jobs_.push_back(&job);
  }
  work_cv_.notify_one();
  take_chunks(job);
  {
    std::unique_lock lock(mutex_);
    jobs_.erase(std::remove(jobs_.begin(), jobs_.end(), &job), jobs_.end());
    helpers_cv_.wait(lock, [&job] { return job.helpers == 0; });
  }
  if (job.error) {
    std::rethrow_exception(job.error);
  }
}

TaskQueue::TaskQueue(unsigned threads) {
  threads = std::max(1U, threads);
  try {
    for (unsigned i = 0; i < threads; ++i) {
      workers_.emplace_back([this] { work(); });
    }
  } catch (const std::system_error& e) {
    if (workers_.empty()) {
      throw BackendError(fmt::format("kjit: cannot start a background thread: {}", e.what()));
    }
  }
}

TaskQueue::~TaskQueue() {
  stop();
}

void TaskQueue::stop() {
  std::deque<std::function<void()>> dropped;
  std::vector<std::thread> workers;
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    dropped.swap(tasks_);
    workers.swap(workers_);
  }
  cv_.notify_all();
  for (std::thread& t : workers) {
    t.join();
  }
  dropped.clear();  // after the workers: a task's captures may be the last owners of anything
}

void TaskQueue::post(std::function<void()> task) {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) {
      return;  // `task` is dropped here, outside the lock
    }
    tasks_.push_back(std::move(task));
  }
  cv_.notify_one();
}

void TaskQueue::work() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
      if (stopping_) {
        return;
      }
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    try {
      task();
    } catch (const std::exception& e) {
      log().error("a background task failed: {}", e.what());
    } catch (...) {
      log().error("a background task failed (not with a std::exception)");
    }
  }
}

TaskQueue& background_compiles() {
  static TaskQueue queue(std::clamp(std::thread::hardware_concurrency() / 2, 1U, 4U));
  return queue;
}

void stop_background_compiles_at_exit() {
  (void)background_compiles();  // made before the handler: its destructor runs after it
  std::atexit([] { background_compiles().stop(); });
}

}  // namespace kjit::detail
