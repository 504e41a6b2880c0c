#include "backends/cpu/run/cpu_device.hpp"

#include "backends/cpu/check/cpu_memory_check.hpp"
#include "backends/cpu/run/cpu_memory.hpp"
#include "backends/cpu/run/cpu_module.hpp"
#include "backends/cpu/run/cpu_stream.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <exception>

namespace kjit::cpu {

/// A stream that the device knows of, so that Device::synchronize() can wait for it.
class TrackedStream : public CpuStream {
 public:
  explicit TrackedStream(CpuDevice& device) : device_(device) {
    const std::lock_guard lock(device_.streams_mutex_);
    device_.streams_.insert(this);
  }
  ~TrackedStream() override {
    const std::lock_guard lock(device_.streams_mutex_);
    device_.streams_.erase(this);
  }
  TrackedStream(const TrackedStream&) = delete;
  TrackedStream& operator=(const TrackedStream&) = delete;

 private:
  CpuDevice& device_;
};

CpuDevice::CpuDevice(DeviceInfo info, unsigned threads, bool perf_map, bool pin)
    : info_(std::move(info)), compiler_(info_.id()), executor_(threads, pin), perf_map_(perf_map) {}

CpuDevice::~CpuDevice() = default;

ObjectLinker& CpuDevice::linker() {
  std::call_once(linker_once_, [this] { linker_ = std::make_unique<ObjectLinker>(perf_map_); });
  return *linker_;
}

std::unique_ptr<backend::Module> CpuDevice::load(const backend::Binary& binary) {
  if (binary.format != "cpu-elf-object") {
    throw BackendError(fmt::format("kjit: {} cannot load a '{}' binary of '{}'", info_.id(),
                                   binary.format, binary.program));
  }
  return std::make_unique<CpuModule>(info_, executor_, linker().load(binary.bytes, binary.program),
                                     backend::elf_device_variables(binary.bytes));
}

std::unique_ptr<backend::Stream> CpuDevice::create_stream() {
  return std::make_unique<TrackedStream>(*this);
}

void CpuDevice::synchronize() {
  std::exception_ptr first;
  const std::lock_guard lock(streams_mutex_);
  for (CpuStream* s : streams_) {
    try {
      s->synchronize();
    } catch (...) {
      if (!first) {
        first = std::current_exception();
      }
    }
  }
  if (first) {
    std::rethrow_exception(first);
  }
}

std::uint64_t CpuDevice::allocate_impl(std::size_t bytes) {
  void* p =
      memory_checked() ? checked_allocate(bytes, info_.id().c_str()) : allocate_aligned(bytes);
  if (p == nullptr) {
    throw BackendError(
        fmt::format("kjit: out of memory allocating {} bytes on {}", bytes, info_.id()));
  }
  return device_address(p);
}

void CpuDevice::free_impl(std::uint64_t address) noexcept {
  if (memory_checked()) {
    checked_free(host_pointer(address));
  } else {
    std::free(host_pointer(address));
  }
}

void* CpuDevice::allocate_host_impl(std::size_t bytes) {
  return host_pointer(allocate_impl(bytes));
}

void CpuDevice::free_host_impl(void* pointer) noexcept {
  free_impl(device_address(pointer));
}

}  // namespace kjit::cpu
