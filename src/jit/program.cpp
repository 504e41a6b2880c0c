// Program: sources, per-device builds, kernel lookup.
#include "jit/logging.hpp"
#include "jit/name_expression.hpp"
#include "jit/program_impl.hpp"

#include <kjit/error.hpp>
#include <kjit/program.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>

namespace kjit {

namespace detail {

KernelImpl::KernelImpl(std::shared_ptr<LoadedBuild> build,
                       std::unique_ptr<backend::Function> function, std::string name,
                       std::string program)
    : build_(std::move(build)), function_(std::move(function)), name_(std::move(name)),
      program_(std::move(program)) {}

std::string KernelImpl::describe() const {
  return fmt::format("kernel '{}' of '{}' on {}", name_, program_, build_->device->info().id());
}

const std::string& kernel_name(const KernelImpl& kernel) { return kernel.name(); }

Device kernel_device(const KernelImpl& kernel) {
  return Device(kernel.device().shared_from_this());
}

ProgramImpl::ProgramImpl(std::string name, std::string source,
                         std::optional<std::filesystem::path> path, CompileOptions options)
    : name_(std::move(name)), source_(std::move(source)), path_(std::move(path)),
      options_(std::move(options)) {}

std::shared_ptr<LoadedBuild> ProgramImpl::compile_and_load(std::vector<std::string> names,
                                                           DeviceImpl& device) const {
  backend::CompileRequest request;
  request.program_name = name_;
  request.source = source_;
  request.source_path = path_;
  request.include_dirs = options_.include_dirs;
  request.headers.assign(options_.headers.begin(), options_.headers.end());
  request.defines.assign(options_.defines.begin(), options_.defines.end());
  request.kernel_names = names;
  request.fast_math = options_.fast_math;

  backend::Device& be = device.backend();
  const auto start = std::chrono::steady_clock::now();
  backend::Binary binary = be.compile(request);
  const auto compiled = std::chrono::steady_clock::now();
  auto build = std::make_shared<LoadedBuild>();
  build->device = device.shared_from_this();
  build->names = std::move(names);
  build->symbols = binary.kernel_symbols;
  build->module = be.load(binary);
  const auto loaded = std::chrono::steady_clock::now();
  using ms = std::chrono::duration<double, std::milli>;
  log().info("compiled '{}' [{}] for {}: compile {:.1f} ms, load {:.1f} ms", name_,
             fmt::join(build->names, ", "), device.info().id(), ms(compiled - start).count(),
             ms(loaded - compiled).count());
  if (!binary.log.empty()) {
    log().warn("compiling '{}' for {}:\n{}", name_, device.info().id(), binary.log);
  }
  return build;
}

std::shared_ptr<LoadedBuild> ProgramImpl::build_containing(const std::string& name,
                                                           DeviceImpl& device) {
  std::promise<std::shared_ptr<LoadedBuild>> promise;
  std::vector<std::string> names;
  std::shared_future<std::shared_ptr<LoadedBuild>> result;
  {
    const std::lock_guard lock(mutex_);
    std::vector<Build>& builds = builds_[&device];
    for (const Build& b : builds) {
      if (std::find(b.names.begin(), b.names.end(), name) != b.names.end()) {
        result = b.result;
        break;
      }
    }
    if (!result.valid()) {
      if (builds.empty()) {  // the first build also compiles the names declared in the options
        for (const std::string& declared : options_.kernels) {
          std::string n = validate_kernel_name(declared);
          if (std::find(names.begin(), names.end(), n) == names.end()) {
            names.push_back(std::move(n));
          }
        }
      }
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        names.push_back(name);
      }
      result = promise.get_future().share();
      builds.push_back({names, result});
    }
  }
  if (names.empty()) {
    return result.get();  // another call compiles (or compiled) it
  }
  try {
    promise.set_value(compile_and_load(names, device));
  } catch (...) {
    promise.set_exception(std::current_exception());
    // Forget the failure so that a later call tries again (and reports afresh).
    const std::lock_guard lock(mutex_);
    std::vector<Build>& builds = builds_[&device];
    std::erase_if(builds, [&](const Build& b) { return b.names == names; });
  }
  return result.get();
}

std::shared_ptr<KernelImpl> ProgramImpl::kernel(std::string_view requested, DeviceImpl& device,
                                                std::span<const std::size_t> param_sizes) {
  const std::string name = validate_kernel_name(requested);
  std::shared_ptr<LoadedBuild> build = build_containing(name, device);
  const auto at = std::find(build->names.begin(), build->names.end(), name);
  const auto index = static_cast<std::size_t>(at - build->names.begin());
  std::unique_ptr<backend::Function> function = build->module->function(build->symbols.at(index), name);

  const std::vector<backend::ParamInfo>& real = function->params();
  const bool same_count = real.size() == param_sizes.size();
  const bool same_sizes =
      same_count && std::equal(real.begin(), real.end(), param_sizes.begin(),
                               [](const backend::ParamInfo& p, std::size_t s) { return p.size == s; });
  if (!same_sizes) {
    std::vector<std::size_t> real_sizes;
    real_sizes.reserve(real.size());
    for (const backend::ParamInfo& p : real) {
      real_sizes.push_back(p.size);
    }
    throw LaunchError(fmt::format(
        "kjit: kernel '{}' of '{}' on {} takes {} parameters of sizes ({}) bytes, but "
        "kernel<...> declares {} of sizes ({})",
        name, name_, device.info().id(), real.size(), fmt::join(real_sizes, ", "),
        param_sizes.size(), fmt::join(param_sizes, ", ")));
  }
  return std::make_shared<KernelImpl>(std::move(build), std::move(function), name, name_);
}

}  // namespace detail

Program Program::from_source(std::string name, std::string source, CompileOptions options) {
  if (name.empty()) {
    throw UsageError("kjit: Program::from_source needs a name (used like a file name in "
                     "diagnostics)");
  }
  return Program(std::make_shared<detail::ProgramImpl>(std::move(name), std::move(source),
                                                       std::nullopt, std::move(options)));
}

Program Program::from_file(const std::filesystem::path& path, CompileOptions options) {
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  std::ifstream in(path, std::ios::binary);
  if (ec || !in) {
    throw Error(fmt::format("kjit: cannot read kernel file '{}': {}", path.string(),
                            std::error_code(errno, std::generic_category()).message()));
  }
  if (std::filesystem::is_directory(path, ec)) {
    throw Error(fmt::format("kjit: cannot read kernel file '{}': it is a directory", path.string()));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    throw Error(fmt::format("kjit: error while reading kernel file '{}'", path.string()));
  }
  return Program(std::make_shared<detail::ProgramImpl>(path.string(), std::move(text).str(),
                                                       absolute, std::move(options)));
}

const std::string& Program::name() const {
  if (!impl_) {
    throw UsageError("kjit: use of an empty Program; make one with from_source or from_file");
  }
  return impl_->name();
}

std::shared_ptr<detail::KernelImpl> Program::find_kernel(
    std::string_view name, const Device& device, std::span<const std::size_t> param_sizes) const {
  if (!impl_) {
    throw UsageError("kjit: use of an empty Program; make one with from_source or from_file");
  }
  return impl_->kernel(name, *device.impl(), param_sizes);
}

}  // namespace kjit
