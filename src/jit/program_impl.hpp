// The core of Program and Kernel: per-device builds of a program's source, compiled once however
// many threads ask, and the kernels looked up in them.
#pragma once

#include "backends/backend.hpp"
#include "jit/device_impl.hpp"

#include <kjit/program.hpp>

#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kjit::detail {

/// A program compiled and loaded for one device, with the kernel names it was built for.
struct LoadedBuild {
  std::shared_ptr<DeviceImpl> device;
  std::vector<std::string> names;
  std::vector<std::string> symbols;  // symbols[i] is the kernel names[i]
  std::unique_ptr<backend::Module> module;
};

class KernelImpl {
 public:
  KernelImpl(std::shared_ptr<LoadedBuild> build, std::unique_ptr<backend::Function> function,
             std::string name, std::string program);
  [[nodiscard]] DeviceImpl& device() const noexcept { return *build_->device; }
  [[nodiscard]] backend::Function& function() const noexcept { return *function_; }
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  /// "kernel 'saxpy<float>' of 'saxpy.cu' on cpu:0"
  [[nodiscard]] std::string describe() const;

 private:
  std::shared_ptr<LoadedBuild> build_;  // declared first: outlives the function below
  std::unique_ptr<backend::Function> function_;
  std::string name_;
  std::string program_;
};

class ProgramImpl {
 public:
  ProgramImpl(std::string name, std::string source, std::optional<std::filesystem::path> path,
              CompileOptions options);

  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  /// The kernel `name` for `device`, its parameters checked against `param_sizes`.
  std::shared_ptr<KernelImpl> kernel(std::string_view name, DeviceImpl& device,
                                     std::span<const std::size_t> param_sizes);

 private:
  struct Build {
    std::vector<std::string> names;
    std::shared_future<std::shared_ptr<LoadedBuild>> result;
  };
  std::shared_ptr<LoadedBuild> build_containing(const std::string& name, DeviceImpl& device);
  std::shared_ptr<LoadedBuild> compile_and_load(std::vector<std::string> names,
                                                DeviceImpl& device) const;

  std::string name_;
  std::string source_;
  std::optional<std::filesystem::path> path_;
  CompileOptions options_;
  std::mutex mutex_;
  std::map<const DeviceImpl*, std::vector<Build>> builds_;
};

}  // namespace kjit::detail
