// Every device of the process, and selection by spec (KJIT_DEVICE). Each backend is enumerated
// (its runtime loaded and initialised) the first time something needs its devices: a selection
// that names only the CPU never loads libcuda or libamdhip64; listing every device loads all.
#pragma once

#include "core/backend_registry.hpp"
#include "core/device_impl.hpp"

#include <kjit/types.hpp>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kjit::detail {

class DeviceRegistry {
 public:
  /// The process-wide registry; created on first use and never destroyed, so devices outlive
  /// every object that refers to them.
  static DeviceRegistry& instance();

  /// Every device of every backend, in backend order (cuda, hip, cpu); enumerates them all.
  [[nodiscard]] const std::vector<std::shared_ptr<DeviceImpl>>& devices();
  /// The device a spec selects; nullopt selects the first GPU, else the CPU. Enumerates the
  /// backends the spec names, in its order, until one matches. DeviceError when nothing
  /// matches, listing what exists.
  [[nodiscard]] std::shared_ptr<DeviceImpl> select(std::optional<std::string_view> spec);
  /// "cpu:0 (...); cuda: unavailable (why); hip: not built" for error messages; enumerates
  /// every backend.
  [[nodiscard]] std::string describe();

 private:
  struct Slot {
    BackendSlot backend;
    bool enumerated = false;
    std::vector<std::shared_ptr<DeviceImpl>> devices;
    std::string absent;  // why it has no devices, when it has none
  };

  DeviceRegistry();
  /// The devices of `kind`, enumerated on first use; the caller holds mutex_.
  const std::vector<std::shared_ptr<DeviceImpl>>& devices_of(BackendKind kind);
  std::string describe_locked();
  /// `device`, or where it became unusable (a CPU kernel faulted), a new device on the same
  /// hardware that takes its place from now on; the caller holds mutex_.
  std::shared_ptr<DeviceImpl> usable(std::shared_ptr<DeviceImpl> device);  // a copy: it may be
  // one of the entries it replaces

  std::mutex mutex_;
  std::vector<Slot> slots_;
  std::vector<std::shared_ptr<DeviceImpl>> all_;  // filled once every backend is enumerated
  bool all_enumerated_ = false;
  // Devices replaced by usable(): kept, since streams and events refer to their device.
  std::vector<std::shared_ptr<DeviceImpl>> retired_;
};

}  // namespace kjit::detail
