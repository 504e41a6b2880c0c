// CPU streams: an in-order queue of tasks run by one dispatcher thread per stream (started on
// first use), so launches and copies are asynchronous as on a GPU. An error a task throws is kept
// and rethrown by the next synchronize(), with what the task was.
#pragma once

#include "backends/kit/backend.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace kjit::cpu {

/// An event. Its completion state is shared with the stream tasks that complete or wait for
/// it, so the event may be destroyed before the stream gets there.
class CpuEvent : public backend::Event {
 public:
  struct State {
    std::mutex mutex;
    std::condition_variable done_cv;
    bool done = false;
    std::chrono::steady_clock::time_point when;

    void complete();
    void wait();
    /// When it completed; UsageError naming `which` if it has not.
    std::chrono::steady_clock::time_point completed_at(const char* which);
  };

  CpuEvent() : state_(std::make_shared<State>()) {}
  [[nodiscard]] const std::shared_ptr<State>& state() const noexcept { return state_; }
  void synchronize() override { state_->wait(); }
  bool ready() override;
  double elapsed_ms_since(backend::Event& start) override;

 private:
  std::shared_ptr<State> state_;
};

/// Work a stream runs without allocating (a kernel launch): the enqueuer owns it and keeps it
/// alive until the stream calls done().
class StreamWork {
 public:
  virtual void run() = 0;
  /// What it is, for an error ("kernel 'vadd'"); asked only when run() threw.
  [[nodiscard]] virtual std::string what() const = 0;
  /// The stream is finished with it (run, or dropped with the stream).
  virtual void done() noexcept = 0;

 protected:
  StreamWork() = default;
  StreamWork(const StreamWork&) = default;
  StreamWork& operator=(const StreamWork&) = default;
  ~StreamWork() = default;
};

class CpuStream : public backend::Stream {
 public:
  CpuStream();
  ~CpuStream() override;

  /// Appends a task; `what` names it in an error ("kernel 'vadd' of 'vadd.cu'").
  void enqueue(std::function<void()> task, std::string what);
  /// Appends `work`; allocates nothing once the queue has held as many tasks before.
  void enqueue(StreamWork& work);

  void copy_to_device(std::uint64_t dst, const void* src, std::size_t bytes) override;
  void copy_to_host(void* dst, std::uint64_t src, std::size_t bytes) override;
  void copy_on_device(std::uint64_t dst, std::uint64_t src, std::size_t bytes) override;
  std::unique_ptr<backend::Event> record() override;
  void wait(backend::Event& event) override;
  void synchronize() override;
  void* native_handle() override { return nullptr; }
  void begin_recording() override;
  std::unique_ptr<backend::Graph> end_recording() override;
  void join_recording(backend::Stream& origin, backend::Event& event) override;
  void leave_recording() override;

  /// A task: a function, or (when `run` is null) a record of work that the enqueuer keeps alive
  /// until done() (a kernel launch).
  struct Task {
    std::function<void()> run;  // or, when null, `work`
    std::string what;
    StreamWork* work = nullptr;
  };

 private:
  /// A ring of tasks that grows only past its largest length so far (a std::deque frees and
  /// allocates its nodes as tasks come and go).
  class TaskQueue {
   public:
    [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
    void push(Task task);
    /// Appends `task` to this stream's recording; false when it records no longer.
    bool push_recorded(Task& task);
    /// Whether work given to this stream is recorded (here, or into the stream it joined).
    bool records();
    Task pop();
    ~TaskQueue();

   private:
    std::vector<Task> ring_;
    std::size_t head_ = 0;
    std::size_t count_ = 0;
  };
  void push(Task task);
  /// Appends `task` to the queue, starting the dispatcher on first use; with mutex_ held.
  void queue(Task task);
  /// Appends `task` to this stream's recording; false when it records no longer.
  bool push_recorded(Task& task);
  /// Whether work given to this stream is recorded (here, or into the stream it joined).
  bool records();
  void dispatch();
  /// Runs the front task; called with the lock held and no task running, returns with it held.
  void run_front(std::unique_lock<std::mutex>& lock);

  std::mutex mutex_;
  std::condition_variable work_cv_;
  std::condition_variable idle_cv_;
  TaskQueue queue_;
  bool busy_ = false;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread dispatcher_;
  bool recording_ = false;
  std::vector<Task> recorded_;   // while recording_: the tasks pushed here and on joined streams
  CpuStream* joined_ = nullptr;  // the recording stream this one joined, if any
};

}  // namespace kjit::cpu
