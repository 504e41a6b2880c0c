#include "backends/cpu/run/cpu_launch_records.hpp"

#include "backends/cpu/run/cpu_memory.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

namespace kjit::cpu {

std::string QueuedLaunch::what() const {
  return fmt::format("kernel '{}'", launch.kernel);
}

void QueuedLaunch::done() noexcept {
  // The last record out may hold the last reference: keep it until the record is back.
  const std::shared_ptr<LaunchRecords> owner = std::move(owner_);
  owner->give_back(this);
}

LaunchRecords::LaunchRecords(CpuExecutor& executor, CpuLaunch prototype, std::size_t argument_bytes,
                             std::vector<std::size_t> offsets)
    : executor_(executor),
      prototype_(std::move(prototype)),
      argument_bytes_(argument_bytes),
      offsets_(std::move(offsets)) {}

LaunchRecords::~LaunchRecords() = default;

QueuedLaunch& LaunchRecords::take() {
  const std::lock_guard lock(mutex_);
  QueuedLaunch* record = nullptr;
  if (!spare_.empty()) {
    record = spare_.back();
    spare_.pop_back();
  } else {
    auto made = std::make_unique<QueuedLaunch>();
    CpuLaunch& l = made->launch;
    l.kernel = prototype_.kernel;
    l.code = prototype_.code;
    l.block_entry = prototype_.block_entry;
    l.thread_entry = prototype_.thread_entry;
    l.range_entry = prototype_.range_entry;
    l.yields = prototype_.yields;
    l.warp = prototype_.warp;
    l.flush_denormals = prototype_.flush_denormals;
    l.history = prototype_.history;
    l.arguments = {
        static_cast<std::byte*>(allocate_aligned(std::max<std::size_t>(argument_bytes_, 1))),
        std::free};
    if (!l.arguments) {
      throw BackendError(fmt::format("kjit: kernel '{}': out of memory copying kernel arguments",
                                     prototype_.kernel));
    }
    l.argument_pointers = std::make_unique<void*[]>(std::max<std::size_t>(offsets_.size(), 1));
    for (std::size_t i = 0; i < offsets_.size(); ++i) {
      l.argument_pointers[i] = l.arguments.get() + offsets_[i];
    }
    made->executor_ = &executor_;
    spare_.reserve(all_.size() + 1);  // so that every record can come back without allocating
    all_.push_back(std::move(made));
    record = all_.back().get();
  }
  record->owner_ = shared_from_this();
  return *record;
}

void LaunchRecords::give_back(QueuedLaunch* record) noexcept {
  const std::lock_guard lock(mutex_);
  spare_.push_back(record);  // within the capacity reserved when the record was made
}

}  // namespace kjit::cpu
