#include "backends/cpu/run/cpu_stream.hpp"

#include "backends/cpu/run/cpu_graph.hpp"
#include "backends/cpu/run/cpu_launch_records.hpp"
#include "backends/cpu/run/cpu_memory.hpp"

#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace kjit::cpu {

void CpuEvent::State::complete() {
  {
    const std::lock_guard lock(mutex);
    when = std::chrono::steady_clock::now();
    done = true;
  }
  done_cv.notify_all();
}

void CpuEvent::State::wait() {
  std::unique_lock lock(mutex);
  done_cv.wait(lock, [this] { return done; });
}

std::chrono::steady_clock::time_point CpuEvent::State::completed_at(const char* which) {
  const std::lock_guard lock(mutex);
  if (!done) {
    throw UsageError(fmt::format("kjit: Event::elapsed_ms: the {} event has not completed", which));
  }
  return when;
}

bool CpuEvent::ready() {
  const std::lock_guard lock(state_->mutex);
  return state_->done;
}

double CpuEvent::elapsed_ms_since(backend::Event& start) {
  const auto begin = static_cast<CpuEvent&>(start).state_->completed_at("start");
  const auto end = state_->completed_at("end");
  return std::chrono::duration<double, std::milli>(end - begin).count();
}

CpuStream::CpuStream() = default;

CpuStream::~CpuStream() {
  {
    std::unique_lock lock(mutex_);
    idle_cv_.wait(lock, [this] { return queue_.empty() && !busy_; });
    stopping_ = true;
    if (error_) {
      try {
        std::rethrow_exception(error_);
      } catch (const std::exception& e) {
        detail::log().warn("a CPU stream was destroyed with an unreported error: {}", e.what());
      }
    }
  }
  work_cv_.notify_all();
  if (dispatcher_.joinable()) {
    dispatcher_.join();
  }
}

void CpuStream::TaskQueue::push(Task task) {
  if (count_ == ring_.size()) {  // full: unroll into a ring twice as long
    std::vector<Task> longer(std::max<std::size_t>(16, 2 * ring_.size()));
    for (std::size_t i = 0; i < count_; ++i) {
      longer[i] = std::move(ring_[(head_ + i) % ring_.size()]);
    }
    ring_ = std::move(longer);
    head_ = 0;
  }
  ring_[(head_ + count_) % ring_.size()] = std::move(task);
  ++count_;
}

CpuStream::Task CpuStream::TaskQueue::pop() {
  Task task = std::move(ring_[head_]);
  ring_[head_] = Task{};
  head_ = (head_ + 1) % ring_.size();
  --count_;
  return task;
}

CpuStream::TaskQueue::~TaskQueue() {
  while (!empty()) {  // a stream is drained before it goes; this is for a failed construction
    const Task task = pop();
    if (task.work != nullptr) {
      task.work->done();
    }
  }
}

bool CpuStream::push_recorded(Task& task) {
  const std::lock_guard lock(mutex_);
  if (!recording_) {
    return false;
  }
  recorded_.push_back(std::move(task));
  return true;
}

bool CpuStream::records() {
  const std::lock_guard lock(mutex_);
  return recording_ || joined_ != nullptr;
}

void CpuStream::queue(Task task) {
  // Called with mutex_ held.
  if (!dispatcher_.joinable()) {
    dispatcher_ = std::thread([this] { dispatch(); });
  }
  queue_.push(std::move(task));
}

void CpuStream::push(Task task) {
  CpuStream* joined = nullptr;
  {
    const std::lock_guard lock(mutex_);
    if (recording_) {
      recorded_.push_back(std::move(task));
      return;
    }
    joined = joined_;
    if (joined == nullptr) {
      queue(std::move(task));
    }
  }
  // Into the recording this stream joined: not under this stream's lock, so that the recording
  // stream's lock is never taken inside another. Queued here if that recording ended meanwhile.
  if (joined != nullptr) {
    if (joined->push_recorded(task)) {
      return;
    }
    const std::lock_guard lock(mutex_);
    queue(std::move(task));
  }
  work_cv_.notify_one();
}

void CpuStream::enqueue(std::function<void()> task, std::string what) {
  push({std::move(task), std::move(what), nullptr});
}

void CpuStream::enqueue(StreamWork& work) {
  push({nullptr, {}, &work});
}

void CpuStream::run_front(std::unique_lock<std::mutex>& lock) {
  Task task = queue_.pop();
  busy_ = true;
  lock.unlock();
  std::exception_ptr failure;
  const auto what = [&task] { return task.work != nullptr ? task.work->what() : task.what; };
  try {
    if (task.work != nullptr) {
      task.work->run();
    } else {
      task.run();
    }
  } catch (const LaunchError&) {  // it names the kernel and says why: kept as it is
    failure = std::current_exception();
  } catch (const std::exception& e) {
    failure =
        std::make_exception_ptr(BackendError(fmt::format("kjit: {} failed: {}", what(), e.what())));
  } catch (...) {
    failure = std::make_exception_ptr(BackendError(fmt::format("kjit: {} failed", what())));
  }
  // Its captures go, or its work is handed back, before the lock is taken again.
  task.run = nullptr;
  if (task.work != nullptr) {
    task.work->done();
  }
  lock.lock();
  if (failure && !error_) {
    error_ = failure;
  }
  busy_ = false;
  idle_cv_.notify_all();  // a synchronize() may wait for this task, or for the queue to empty
}

void CpuStream::dispatch() {
  std::unique_lock lock(mutex_);
  while (true) {
    work_cv_.wait(lock, [this] { return stopping_ || (!queue_.empty() && !busy_); });
    if (queue_.empty()) {
      return;  // stopping, and nothing left
    }
    run_front(lock);
  }
}

// The caller runs what is still queued itself rather than waiting for the dispatcher to wake:
// a launch followed by a synchronize (or a download) then costs no thread hand-off. Tasks still
// run one at a time, in order.
void CpuStream::synchronize() {
  std::unique_lock lock(mutex_);
  while (true) {
    idle_cv_.wait(lock, [this] { return !busy_; });
    if (queue_.empty()) {
      break;
    }
    run_front(lock);
  }
  if (error_) {
    std::exception_ptr e = std::exchange(error_, nullptr);
    std::rethrow_exception(e);
  }
}

void CpuStream::copy_to_device(std::uint64_t dst, const void* src, std::size_t bytes) {
  enqueue([=] { std::memcpy(host_pointer(dst), src, bytes); }, "copy to device");
}

void CpuStream::copy_to_host(void* dst, std::uint64_t src, std::size_t bytes) {
  enqueue([=] { std::memcpy(dst, host_pointer(src), bytes); }, "copy to host");
}

void CpuStream::copy_on_device(std::uint64_t dst, std::uint64_t src, std::size_t bytes) {
  enqueue([=] { std::memmove(host_pointer(dst), host_pointer(src), bytes); }, "copy on device");
}

// While recording, events and waits record nothing: a replay runs the recorded work in the
// order it was enqueued, which already follows every wait.
std::unique_ptr<backend::Event> CpuStream::record() {
  auto event = std::make_unique<CpuEvent>();
  if (!records()) {
    enqueue([state = event->state()] { state->complete(); }, "event");
  }
  return event;
}

void CpuStream::wait(backend::Event& event) {
  if (!records()) {
    enqueue([state = static_cast<CpuEvent&>(event).state()] { state->wait(); }, "wait for event");
  }
}

void CpuStream::begin_recording() {
  const std::lock_guard lock(mutex_);
  recording_ = true;
}

void CpuStream::join_recording(backend::Stream& origin, backend::Event& /*event*/) {
  const std::lock_guard lock(mutex_);
  joined_ = &static_cast<CpuStream&>(origin);
}

void CpuStream::leave_recording() {
  const std::lock_guard lock(mutex_);
  joined_ = nullptr;
}

std::unique_ptr<backend::Graph> CpuStream::end_recording() {
  std::vector<Task> tasks;
  {
    const std::lock_guard lock(mutex_);
    recording_ = false;
    tasks.swap(recorded_);
  }
  return std::make_unique<CpuGraph>(std::move(tasks));
}

}  // namespace kjit::cpu
