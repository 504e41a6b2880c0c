#include "backends/kit/launch_labels.hpp"

namespace kjit::backend {

const std::string* KernelLabels::intern(const std::string& label) {
  const std::lock_guard lock(mutex_);
  return &*labels_.insert(label).first;
}

std::string LastLaunch::describe() const {
  const std::string* last = last_.load(std::memory_order_relaxed);
  return last != nullptr ? "'" + *last + "'" : "none";
}

}  // namespace kjit::backend
