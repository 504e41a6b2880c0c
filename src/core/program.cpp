// Program: sources, per-device builds, kernel lookup.
#include "core/cache/cached_build.hpp"
#include "core/compile_options_check.hpp"
#include "core/name_expression.hpp"
#include "core/program_impl.hpp"
#include "support/environment.hpp"
#include "support/file_text.hpp"
#include "support/logging.hpp"
#include "support/thread_pool.hpp"

#include <kjit/error.hpp>
#include <kjit/program.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <optional>
#include <thread>

namespace kjit {

namespace detail {

KernelImpl::KernelImpl(std::shared_ptr<LoadedBuild> build,
                       std::unique_ptr<backend::Function> function,
                       std::shared_ptr<ProgramImpl> program, KernelKey key, Specialization spec)
    : build_(std::move(build)),
      function_(std::move(function)),
      program_(std::move(program)),
      key_(std::move(key)),
      spec_(std::move(spec)) {}

std::string KernelImpl::describe() const {
  const std::string text = fmt::format("kernel '{}' of '{}' on {}", key_.name, program_->name(),
                                       build_->device->info().id());
  return spec_.empty() ? text : fmt::format("{} (specialised: {})", text, spec_.describe());
}

const std::string& kernel_name(const KernelImpl& kernel) {
  return kernel.name();
}

Device kernel_device(const KernelImpl& kernel) {
  return Device(kernel.device().shared_from_this());
}

ProgramImpl::ProgramImpl(std::string name, backend::InputKind input, std::string source,
                         std::optional<std::filesystem::path> path, CompileOptions options)
    : name_(std::move(name)),
      input_(input),
      source_(std::make_shared<const std::string>(std::move(source))),
      path_(std::move(path)),
      options_(std::move(options)) {
  if (path_ && input_ == backend::InputKind::source &&
      (options_.watch || environment::hot_reload())) {
    watch_ = std::make_unique<FileWatch>();
    watch_files(*source_);
  }
}

ProgramImpl::~ProgramImpl() = default;

backend::CompileRequest ProgramImpl::request_for(const std::vector<KernelKey>& kernels,
                                                 const std::string& source) const {
  backend::CompileRequest request;
  request.program_name = name_;
  request.input = input_;
  request.source =
      input_ == backend::InputKind::source ? source::without_jit_annotations(source) : source;
  request.source_path = path_;
  request.include_dirs = options_.include_dirs;
  request.headers.assign(options_.headers.begin(), options_.headers.end());
  request.defines.assign(options_.defines.begin(), options_.defines.end());
  for (const KernelKey& k : kernels) {
    request.kernel_names.push_back(k.name);
    request.kernel_signatures.push_back(k.signature);
  }
  request.fast_math = options_.fast_math;
  request.debug = options_.debug || (input_ == backend::InputKind::source && environment::debug());
  request.check_memory = environment::checks().any();
  return request;
}

std::shared_ptr<LoadedBuild> ProgramImpl::compile_and_load(std::vector<KernelKey> kernels,
                                                           DeviceImpl& device,
                                                           const std::string& source,
                                                           std::string_view label) const {
  const backend::CompileRequest request = request_for(kernels, source);
  cache::CachedBuild built = cache::build_through_cache(request, device.backend());
  auto build = std::make_shared<LoadedBuild>();
  build->device = device.shared_from_this();
  build->kernels = std::move(kernels);
  build->symbols = std::move(built.symbols);
  build->module = std::move(built.module);
  std::string what(label);
  if (what.empty()) {
    std::vector<std::string> described;
    for (const KernelKey& k : build->kernels) {
      described.push_back(k.describe());
    }
    what = fmt::format("{}", fmt::join(described, ", "));
  }
  if (built.from_cache) {
    log().info("loaded '{}' [{}] for {} from the cache in {:.2f} ms", name_, what,
               device.info().id(), built.load_ms);
  } else {
    log().info("compiled '{}' [{}] for {}: compile {:.1f} ms, load {:.1f} ms", name_, what,
               device.info().id(), built.compile_ms, built.load_ms);
  }
  if (!built.log.empty()) {
    log().warn("compiling '{}' for {}:\n{}", name_, device.info().id(), built.log);
  }
  return build;
}

const ProgramImpl::Build* ProgramImpl::containing(const std::vector<Build>& builds,
                                                  const KernelKey& key) {
  const auto it = std::find_if(builds.begin(), builds.end(), [&](const Build& b) {
    return std::find(b.kernels.begin(), b.kernels.end(), key) != b.kernels.end();
  });
  return it == builds.end() ? nullptr : &*it;
}

std::optional<std::shared_future<std::shared_ptr<LoadedBuild>>> ProgramImpl::find_build(
    const KernelKey& key, DeviceImpl& device) {
  const std::lock_guard lock(mutex_);
  const Build* b = containing(builds_[&device], key);
  if (b == nullptr) {
    return std::nullopt;
  }
  return b->result;
}

std::shared_ptr<LoadedBuild> ProgramImpl::build_containing(const KernelKey& key,
                                                           DeviceImpl& device) {
  std::promise<std::shared_ptr<LoadedBuild>> promise;
  std::vector<KernelKey> kernels;
  std::shared_future<std::shared_ptr<LoadedBuild>> result;
  std::shared_ptr<const std::string> source;
  {
    const std::lock_guard lock(mutex_);
    source = source_;
    std::vector<Build>& builds = builds_[&device];
    if (const Build* b = containing(builds, key)) {
      result = b->result;
    } else {
      if (builds.empty() && !key.signature) {  // the first build also compiles the declared names
        for (const std::string& declared : options_.kernels) {
          KernelKey k{validate_kernel_name(declared), std::nullopt};
          if (std::find(kernels.begin(), kernels.end(), k) == kernels.end()) {
            kernels.push_back(std::move(k));
          }
        }
      }
      if (std::find(kernels.begin(), kernels.end(), key) == kernels.end()) {
        kernels.push_back(key);
      }
      result = promise.get_future().share();
      builds.push_back({kernels, result});
    }
  }
  if (kernels.empty()) {
    return result.get();  // another call compiles (or compiled) it
  }
  try {
    std::shared_ptr<LoadedBuild> build = compile_and_load(kernels, device, *source);
    adopt(build, device);
    promise.set_value(std::move(build));
  } catch (...) {
    promise.set_exception(std::current_exception());
    // Forget the failure so that a later call tries again (and reports afresh).
    const std::lock_guard lock(mutex_);
    std::erase_if(builds_[&device], [&](const Build& b) { return b.kernels == kernels; });
  }
  return result.get();
}

void ProgramImpl::build_declared(DeviceImpl& device) {
  if (options_.kernels.empty()) {
    throw UsageError(fmt::format(
        "kjit: program '{}' declares no kernels to build; list them in CompileOptions::kernels "
        "(Program::build and build_all compile the declared kernels)",
        name_));
  }
  for (const std::string& declared : options_.kernels) {
    (void)build_containing({validate_kernel_name(declared), std::nullopt}, device);
  }
}

namespace {

/// "float, const float*" when every parameter type has a spelling, for a name without template
/// arguments; nullopt otherwise.
std::optional<std::string> signature_for(const std::string& name, ParameterSpellings spellings) {
  if (spellings == nullptr || name.find('<') != std::string::npos) {
    return std::nullopt;
  }
  const std::vector<std::string> types = spellings();
  if (std::any_of(types.begin(), types.end(), [](const std::string& t) { return t.empty(); })) {
    return std::nullopt;
  }
  return fmt::format("{}", fmt::join(types, ", "));
}

}  // namespace

std::shared_ptr<KernelImpl> ProgramImpl::kernel(std::string_view name_text, DeviceImpl& device,
                                                std::span<const std::size_t> param_sizes,
                                                ParameterSpellings spellings) {
  const std::string name = validate_kernel_name(name_text);
  if (watch_) {
    reload_if_changed(device);
  }
  // An annotation that cannot be honoured is reported before a compiler reads it.
  const std::shared_ptr<const source::JitAnnotations> annotated = annotations();
  if (annotated) {
    check_annotation(name, device, *annotated);
  }
  const std::optional<std::string> signature = signature_for(name, spellings);
  KernelKey key{name, std::nullopt};
  std::shared_ptr<LoadedBuild> build;
  if (signature && !find_build(key, device)) {
    if (const auto typed = find_build({name, signature}, device)) {
      key.signature = signature;  // resolved by type before: skip the plain attempt
      build = typed->get();
    }
  }
  if (!build) {
    try {
      build = build_containing(key, device);
    } catch (const KernelNotFoundError& plain) {
      if (!signature) {
        throw;
      }
      // A template or an overload set: let the parameter types choose, as a call would.
      key.signature = signature;
      try {
        build = build_containing(key, device);
      } catch (const KernelNotFoundError& typed) {
        throw KernelNotFoundError(fmt::format("{}\n  as a kernel taking ({}): {}", plain.what(),
                                              *signature, typed.what()));
      }
    }
  }
  const auto at = std::find(build->kernels.begin(), build->kernels.end(), key);
  const auto index = static_cast<std::size_t>(at - build->kernels.begin());
  std::unique_ptr<backend::Function> function =
      build->module->function(build->symbols.at(index), name);

  const std::vector<backend::ParamInfo>& real = function->params();
  const bool same_count = real.size() == param_sizes.size();
  const bool same_sizes = same_count && std::equal(real.begin(), real.end(), param_sizes.begin(),
                                                   [](const backend::ParamInfo& p, std::size_t s) {
                                                     return p.size == s;
                                                   });
  if (!same_sizes) {
    std::vector<std::size_t> real_sizes;
    real_sizes.reserve(real.size());
    for (const backend::ParamInfo& p : real) {
      real_sizes.push_back(p.size);
    }
    throw LaunchError(
        fmt::format("kjit: kernel '{}' of '{}' on {} takes {} parameters of sizes ({}) bytes, but "
                    "kernel<...> declares {} of sizes ({})",
                    name, name_, device.info().id(), real.size(), fmt::join(real_sizes, ", "),
                    param_sizes.size(), fmt::join(param_sizes, ", ")));
  }
  auto kernel = std::make_shared<KernelImpl>(std::move(build), std::move(function),
                                             shared_from_this(), std::move(key));
  if (annotated || !options_.specialize_arguments.empty()) {
    fold_annotated(*kernel, annotated.get(), param_sizes, spellings);
  }
  return kernel;
}

}  // namespace detail

Program Program::from_source(std::string name, std::string source, CompileOptions options) {
  if (name.empty()) {
    throw UsageError(
        "kjit: Program::from_source needs a name (used like a file name in "
        "diagnostics)");
  }
  detail::check_compile_options(options);
  return Program(std::make_shared<detail::ProgramImpl>(std::move(name), backend::InputKind::source,
                                                       std::move(source), std::nullopt,
                                                       std::move(options)));
}

Program Program::from_file(const std::filesystem::path& path, CompileOptions options) {
  detail::check_compile_options(options, /*from_file=*/true);
  std::string text = detail::read_file_or_throw(path, "kernel file");
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec) {
    throw Error(fmt::format("kjit: cannot read kernel file '{}': {}", path.string(), ec.message()));
  }
  return Program(std::make_shared<detail::ProgramImpl>(
      path.string(), backend::InputKind::source, std::move(text), absolute, std::move(options)));
}

Program Program::from_bitcode(std::string name, std::span<const std::uint8_t> bytes,
                              CompileOptions options) {
  if (name.empty()) {
    throw UsageError("kjit: Program::from_bitcode needs a name (used in messages)");
  }
  std::string data(bytes.begin(), bytes.end());
  detail::check_bitcode(name, data, options);
  return Program(std::make_shared<detail::ProgramImpl>(std::move(name), backend::InputKind::bitcode,
                                                       std::move(data), std::nullopt,
                                                       std::move(options)));
}

Program Program::from_bitcode_file(const std::filesystem::path& path, CompileOptions options) {
  std::string data = detail::read_file_or_throw(path, "bitcode file");
  detail::check_bitcode(path.string(), data, options);
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec) {
    throw Error(
        fmt::format("kjit: cannot read bitcode file '{}': {}", path.string(), ec.message()));
  }
  return Program(std::make_shared<detail::ProgramImpl>(
      path.string(), backend::InputKind::bitcode, std::move(data), absolute, std::move(options)));
}

detail::ProgramImpl& Program::checked() const {
  if (!impl_) {
    throw UsageError(
        "kjit: use of an empty Program; make one with from_source, from_file or from_bitcode");
  }
  return *impl_;
}

std::shared_ptr<detail::ProgramImpl> Program::shared_impl() const {
  (void)checked();
  return impl_;
}

const std::string& Program::name() const {
  return checked().name();
}

void Program::build(const Device& device) const {
  checked().build_declared(*device.impl());
}

void build_all(std::span<const Program> programs, const Device& device) {
  std::vector<std::exception_ptr> failures(programs.size());
  const auto build = [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i) {
      try {
        programs[i].build(device);
      } catch (...) {
        failures[i] = std::current_exception();
      }
    }
  };
  const auto threads = static_cast<unsigned>(
      std::min<std::size_t>(programs.size(), std::max(1U, std::thread::hardware_concurrency())));
  std::optional<detail::ThreadPool> pool;
  try {
    pool.emplace(threads);
  } catch (const BackendError& e) {
    detail::log().warn("build_all: {}; this thread builds every program", e.what());
  }
  if (pool) {
    pool->run(programs.size(), 1, build);
  } else {
    build(0, programs.size());
  }
  std::exception_ptr first;
  for (std::size_t i = 0; i < programs.size(); ++i) {
    if (!failures[i]) {
      continue;
    }
    if (!first) {
      first = failures[i];
      continue;
    }
    try {
      std::rethrow_exception(failures[i]);
    } catch (const std::exception& e) {
      detail::log().error("build_all: program {} of {} failed too: {}", i + 1, programs.size(),
                          e.what());
    }
  }
  if (first) {
    std::rethrow_exception(first);
  }
}

std::shared_ptr<detail::KernelImpl> Program::find_kernel(
    std::string_view name, const Device& device, std::span<const std::size_t> param_sizes,
    detail::ParameterSpellings spellings) const {
  return checked().kernel(name, *device.impl(), param_sizes, spellings);
}

}  // namespace kjit
