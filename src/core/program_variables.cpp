// Program::symbol: a program's __device__ and __constant__ variables, found by name in each build
// of it on a device, written everywhere they live, and replayed into builds made later.
#include "core/program_impl.hpp"

#include <kjit/error.hpp>
#include <kjit/symbol.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <set>

namespace kjit::detail {

const std::vector<backend::Variable>& LoadedBuild::variables() {
  std::call_once(variables_once_, [this] { variables_ = module->variables(); });
  return variables_;
}

const backend::Variable* LoadedBuild::variable(std::string_view name) {
  const std::vector<backend::Variable>& all = variables();
  const auto it = std::find_if(all.begin(), all.end(),
                               [&](const backend::Variable& v) { return v.name == name; });
  return it == all.end() ? nullptr : &*it;
}

void ProgramImpl::adopt(const std::shared_ptr<LoadedBuild>& build, DeviceImpl& device,
                        bool variant) {
  const std::lock_guard lock(variables_mutex_);
  const auto written = written_.find(&device);
  if (written != written_.end() && !written->second.empty()) {
    backend::Stream& stream = *device.stream(nullptr);
    for (const VariableWrite& w : written->second) {
      if (const backend::Variable* v = build->variable(w.name)) {
        stream.copy_to_device_now(v->address + w.offset, w.bytes.data(), w.bytes.size());
      }
    }
  }
  if (variant) {
    std::vector<std::weak_ptr<LoadedBuild>>& variants = loaded_variants_[&device];
    std::erase_if(variants, [](const std::weak_ptr<LoadedBuild>& v) { return v.expired(); });
    variants.push_back(build);
  } else {
    loaded_[&device].push_back(build);
  }
}

void ProgramImpl::ensure_built(DeviceImpl& device) {
  {
    const std::lock_guard lock(variables_mutex_);
    if (!loaded_[&device].empty()) {
      return;
    }
  }
  if (options_.kernels.empty()) {
    throw UsageError(fmt::format(
        "kjit: program '{}' has no build on {} whose variables could be used: ask for one of its "
        "kernels first, or declare them in CompileOptions::kernels",
        name_, device.describe()));
  }
  build_declared(device);
}

std::vector<backend::Variable> ProgramImpl::holders(std::string_view name, DeviceImpl& device) {
  std::vector<backend::Variable> found;
  for (const std::shared_ptr<LoadedBuild>& build : loaded_[&device]) {
    if (const backend::Variable* v = build->variable(name)) {
      found.push_back(*v);
    }
  }
  if (!found.empty()) {
    return found;
  }
  std::set<std::string> known;
  for (const std::shared_ptr<LoadedBuild>& build : loaded_[&device]) {
    for (const backend::Variable& v : build->variables()) {
      known.insert(fmt::format("{} ({} bytes)", v.name, v.size));
    }
  }
  throw UsageError(fmt::format(
      "kjit: program '{}' has no __device__ or __constant__ variable '{}' on {}; {}", name_, name,
      device.describe(),
      known.empty() ? std::string("it has none (a variable no kernel uses may be left out)")
                    : fmt::format("it has: {}", fmt::join(known, ", "))));
}

void ProgramImpl::check_variable_range(std::string_view name, std::size_t size, std::size_t offset,
                                       std::size_t bytes, const char* what) const {
  if (offset > size || bytes > size - offset) {
    throw UsageError(
        fmt::format("kjit: {} of {} bytes at offset {} is outside variable '{}' of '{}' ({} bytes)",
                    what, bytes, offset, name, name_, size));
  }
}

backend::Stream* ProgramImpl::stream_for(std::string_view name, DeviceImpl& device,
                                         const Stream* stream, const char* what) const {
  backend::Stream* s = device.stream(stream);
  if (s == nullptr) {
    throw UsageError(fmt::format("kjit: variable '{}' of '{}' on {} cannot be {} on a stream of {}",
                                 name, name_, device.describe(), what,
                                 stream->impl()->device().describe()));
  }
  return s;
}

std::size_t ProgramImpl::variable_size(std::string_view name, DeviceImpl& device) {
  ensure_built(device);
  const std::lock_guard lock(variables_mutex_);
  return holders(name, device).front().size;
}

void ProgramImpl::write_variable(std::string_view name, DeviceImpl& device, std::size_t offset,
                                 const void* src, std::size_t bytes, const Stream* stream) {
  ensure_built(device);
  backend::Stream* s = stream_for(name, device, stream, "written");
  const std::lock_guard lock(variables_mutex_);
  const auto places = holders(name, device);
  check_variable_range(name, places.front().size, offset, bytes, "a write");
  if (bytes == 0) {
    return;
  }
  std::vector<VariableWrite>& written = written_[&device];
  // A write that covers an earlier one replaces it: replays stay as few as the variables.
  std::erase_if(written, [&](const VariableWrite& w) {
    return w.name == name && w.offset >= offset && w.offset + w.bytes.size() <= offset + bytes;
  });
  const auto* first = static_cast<const unsigned char*>(src);
  written.push_back({std::string(name), offset, {first, first + bytes}});
  if (stream == nullptr) {
    device.synchronize();
  }
  std::vector<backend::Variable> everywhere = places;
  std::vector<std::shared_ptr<LoadedBuild>> variants;  // alive until the copies are made
  for (const std::weak_ptr<LoadedBuild>& weak : loaded_variants_[&device]) {
    if (std::shared_ptr<LoadedBuild> variant = weak.lock()) {
      if (const backend::Variable* v = variant->variable(name)) {
        everywhere.push_back(*v);
        variants.push_back(std::move(variant));
      }
    }
  }
  for (const backend::Variable& v : everywhere) {
    if (stream == nullptr) {
      s->copy_to_device_now(v.address + offset, src, bytes);
    } else {
      s->copy_to_device(v.address + offset, src, bytes);
    }
  }
}

backend::Variable ProgramImpl::variable_place(std::string_view name, DeviceImpl& device) {
  ensure_built(device);
  const std::lock_guard lock(variables_mutex_);
  const auto places = holders(name, device);
  if (places.size() > 1) {
    throw UsageError(fmt::format(
        "kjit: variable '{}' of '{}' has {} copies on {}, one in each build of the program (its "
        "kernels were compiled separately); list the kernels in CompileOptions::kernels so that "
        "one build holds them all",
        name, name_, places.size(), device.describe()));
  }
  return places.front();
}

void ProgramImpl::read_variable(std::string_view name, DeviceImpl& device, std::size_t offset,
                                void* dst, std::size_t bytes, const Stream* stream) {
  const backend::Variable v = variable_place(name, device);
  check_variable_range(name, v.size, offset, bytes, "a read");
  backend::Stream* s = stream_for(name, device, stream, "read");
  if (bytes == 0) {
    return;
  }
  if (stream != nullptr) {
    s->copy_to_host(dst, v.address + offset, bytes);
    return;
  }
  device.synchronize();
  s->copy_to_host_now(dst, v.address + offset, bytes);
}

RawSymbol::RawSymbol(std::shared_ptr<ProgramImpl> program, std::string_view name,
                     const Device& device, std::size_t type_bytes)
    : program_(std::move(program)), device_(device.impl()), name_(name), bytes_(type_bytes) {
  const std::size_t real = program_->variable_size(name_, *device_);
  if (real != type_bytes) {
    throw UsageError(fmt::format(
        "kjit: variable '{}' of '{}' on {} is {} bytes, but symbol<T> asks for a T of {} bytes",
        name_, program_->name(), device_->describe(), real, type_bytes));
  }
}

void RawSymbol::write(std::size_t offset, const void* src, std::size_t bytes,
                      const Stream* stream) const {
  program_->write_variable(name_, *device_, offset, src, bytes, stream);
}

void RawSymbol::read(std::size_t offset, void* dst, std::size_t bytes, const Stream* stream) const {
  program_->read_variable(name_, *device_, offset, dst, bytes, stream);
}

std::uint64_t RawSymbol::address() const {
  return program_->variable_place(name_, *device_).address;
}

}  // namespace kjit::detail
