// A pool of worker threads: the CPU backend runs blocks on one, GPU backends copy host memory
// with one. A run() splits a range into chunks that the workers and the calling thread take in
// turn; several runs (from several streams) may be in flight at once.
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
  using Body = std::function<void(std::uint64_t begin, std::uint64_t end)>;

  /// `threads` threads work on each run: threads - 1 workers, and the caller of run().
  explicit ThreadPool(unsigned threads);
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
  std::deque<Job*> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace kjit::detail
