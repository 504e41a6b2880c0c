// A pool of worker threads: the CPU backend runs blocks on one, GPU backends copy host memory
// with one. A run() splits a range into chunks that the workers and the calling thread take in
// turn; several runs (from several streams) may be in flight at once. A TaskQueue runs work that
// nobody waits for (variants compiled in the background) on threads of its own.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kjit::detail {

class ThreadPool {
 public:
  /// What a run() calls on each chunk: a reference to the caller's callable, which outlives the
  /// run (a std::function would allocate on every run for a lambda of a few references).
  class Body {
   public:
    template <class F>
    Body(const F& f) noexcept  // NOLINT(google-explicit-constructor): made from lambdas at calls
        : object_(&f), call_([](const void* o, std::uint64_t begin, std::uint64_t end) {
            (*static_cast<const F*>(o))(begin, end);
          }) {}
    void operator()(std::uint64_t begin, std::uint64_t end) const { call_(object_, begin, end); }

   private:
    const void* object_;
    void (*call_)(const void*, std::uint64_t, std::uint64_t);
  };

  /// `threads` threads work on each run: threads - 1 workers, and the caller of run(). With
  /// `pin`, worker i is bound to the i-th of the cores the process may run on (wrapping around),
  /// leaving the first to the caller; where binding fails the worker runs unbound, and the log
  /// says so once.
  explicit ThreadPool(unsigned threads, bool pin = false);
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  ~ThreadPool();

  /// Calls body on chunks of at most `grain` items covering [0, n); returns when every chunk
  /// has finished, rethrowing the first exception a chunk threw.
  void run(std::uint64_t n, std::uint64_t grain, const Body& body);

  [[nodiscard]] unsigned threads() const noexcept { return threads_; }

 private:
  struct Job;
  void work();
  static void take_chunks(Job& job);

  unsigned threads_;
  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable helpers_cv_;
  std::vector<Job*>
      jobs_;  // runs in flight, oldest first (a deque allocated as they came and went)
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

/// Tasks run in the order posted by `threads` threads of its own; post() returns at once. (A
/// ThreadPool's run() keeps its caller until the work is done: this is for work nobody waits on.)
class TaskQueue {
 public:
  explicit TaskQueue(unsigned threads);
  TaskQueue(const TaskQueue&) = delete;
  TaskQueue& operator=(const TaskQueue&) = delete;
  /// stop().
  ~TaskQueue();

  /// Queues `task`; what it throws is logged and dropped. After stop(), dropped at once.
  void post(std::function<void()> task);
  /// Lets the running tasks finish and drops those not started (their captures released); the
  /// threads end. Once; later calls return at once.
  void stop();

 private:
  void work();

  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

/// The process's queue for variants compiled in the background (launches of annotated kernels):
/// half the cores, at least 1 and at most 4 threads, made on first use and stopped at exit.
TaskQueue& background_compiles();
/// Stops background_compiles() at exit before the static objects made until now are destroyed:
/// exit destroys them in the reverse order of their making, and a compile still running must
/// not see its compiler's objects go. Called after a compiler's first compile in the process.
void stop_background_compiles_at_exit();

}  // namespace kjit::detail
