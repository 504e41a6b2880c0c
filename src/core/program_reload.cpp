// Hot reload of programs from files (CompileOptions::watch, KJIT_HOT_RELOAD).
#include "core/program_impl.hpp"
#include "source/include_scan.hpp"
#include "support/file_text.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <chrono>
#include <exception>
#include <future>
#include <optional>

namespace kjit::detail {

namespace {

/// The file of a watched program (only programs from files are watched).
const std::filesystem::path& watched_file(const std::optional<std::filesystem::path>& path) {
  if (!path) {
    throw BackendError("kjit: internal error: a watched program has no file");
  }
  return *path;
}

}  // namespace

void ProgramImpl::watch_files(const std::string& source) {
  std::vector<std::filesystem::path> files{watched_file(path_)};
  try {
    for (const auto& [name, file] :
         kjit::source::scan_includes(request_for({}, source).files()).found) {
      files.push_back(std::filesystem::absolute(file));
    }
  } catch (const Error& e) {
    // The compile reports what is wrong with the text; a change to the file itself is still seen.
    log().debug("hot reload: watching '{}' alone: {}", name_, e.what());
  }
  watch_->watch(files);
  log().debug("hot reload: '{}' watches {} files ({})", name_, files.size(), watch_->how());
}

void ProgramImpl::reload_if_changed(DeviceImpl& device) {
  std::exception_ptr failure;
  {
    const std::lock_guard lock(reload_mutex_);
    if (!watch_->changed()) {
      return;
    }
    failure = reload(device);
  }
  // Without the lock: the callback may ask this program for kernels.
  if (!options_.on_reload) {
    return;
  }
  if (!failure) {
    options_.on_reload(nullptr);
    return;
  }
  try {
    std::rethrow_exception(failure);
  } catch (const Error& e) {
    options_.on_reload(&e);
  }
}

std::exception_ptr ProgramImpl::reload(DeviceImpl& device) {
  const auto failed = [&](const Error& e) {
    log().error(
        "reloading '{}' after a change to its files failed; its previous kernels stay in use:\n{}",
        name_, e.what());
    return std::current_exception();
  };
  std::shared_ptr<const std::string> source;
  try {
    source =
        std::make_shared<const std::string>(read_file_or_throw(watched_file(path_), "kernel file"));
  } catch (const Error& e) {  // removed, or unreadable mid-save: the next change tries again
    return failed(e);
  }
  // The kernel sets built on this device, rebuilt from the new text before anything changes.
  std::vector<std::vector<KernelKey>> sets;
  {
    const std::lock_guard lock(mutex_);
    for (const Build& b : builds_[&device]) {
      if (b.result.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        sets.push_back(b.kernels);
      }
    }
  }
  std::vector<std::shared_ptr<LoadedBuild>> rebuilt;
  try {
    for (const std::vector<KernelKey>& kernels : sets) {
      rebuilt.push_back(compile_and_load(kernels, device, *source));
    }
  } catch (const Error& e) {
    watch_files(*source);  // a fix may come in a header the broken text includes
    return failed(e);
  }
  {
    const std::lock_guard lock(mutex_);
    source_ = source;
    builds_.clear();  // other devices build the new text when they next ask
    variants_.clear();
    std::vector<Build>& builds = builds_[&device];
    for (std::size_t i = 0; i < rebuilt.size(); ++i) {
      std::promise<std::shared_ptr<LoadedBuild>> done;
      done.set_value(rebuilt[i]);
      builds.push_back({sets[i], done.get_future().share()});
    }
  }
  {
    const std::lock_guard lock(variables_mutex_);
    loaded_.clear();  // variable writes reach the new builds (and are replayed into them below)
  }
  for (const std::shared_ptr<LoadedBuild>& build : rebuilt) {
    adopt(build, device);
  }
  watch_files(*source);
  log().info("reloaded '{}' after a change to its files ({} build(s) on {})", name_, rebuilt.size(),
             device.info().id());
  return nullptr;
}

}  // namespace kjit::detail
