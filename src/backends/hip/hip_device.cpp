#include "backends/hip/hip_device.hpp"

#include "backends/hip/code_object.hpp"
#include "backends/hip/hip_errors.hpp"
#include "backends/hip/hip_module.hpp"
#include "backends/hip/hip_stream.hpp"
#include "backends/hip/hiprtc_api.hpp"
#include "backends/hip/hiprtc_compiler.hpp"
#include "backends/llvm/bitcode_compilers.hpp"
#include "support/library_search.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <utility>

template class kjit::gpu::GpuDevice<kjit::hip::HipVendor>;

namespace kjit::hip {

namespace {

/// hipRTC for `target`. An arch hipRTC does not know is the device's, not a setting: the
/// message says so, and where kernels for it can come from.
std::unique_ptr<backend::Compiler> hiprtc_for(const AmdgpuTarget& target,
                                              const std::string& label) {
  std::string why;
  const HiprtcApi* api = hiprtc_api(why);
  if (api == nullptr) {
    throw BackendError(fmt::format("kjit: cannot compile for {}: {}", label, why));
  }
  try {
    return std::make_unique<HiprtcCompiler>(*api, target, label);
  } catch (const ConfigError& e) {
    throw BackendError(
        fmt::format("{}. Kernels for it can come from bitcode "
                    "(Program::from_bitcode) or from a cache filled elsewhere",
                    e.what()));
  }
}

}  // namespace

HipDevice::HipDevice(const HipApi& api, int ordinal, DeviceInfo info, AmdgpuTarget target)
    : GpuDevice(api, ordinal, std::move(info),
                [this] {  // LLVM's AMDGPU code generator and lld; called once target_ is set
                  return bitcode::amdgpu_compiler(
                      {target_.processor, target_.sramecc, target_.xnack}, "hip:" + target_.id(),
                      id());
                }),
      target_(std::move(target)),
      compiler_([this] { return hiprtc_for(target_, id()); },
                [this]() -> std::optional<std::string> {
                  // What the loader would choose hipRTC and comgr from: see docs/cache.md.
                  auto hiprtc = backend::describe_library_search(hiprtc_library_names());
                  auto comgr = backend::describe_library_search(comgr_library_names());
                  if (!hiprtc || !comgr) {
                    return std::nullopt;
                  }
                  return "hipRTC for a device of " + target_.id() + "\n" + *hiprtc + "comgr\n" +
                         *comgr;
                }) {}

void HipDevice::make_current() {
  int current = -1;
  if (api().hipGetDevice(&current) != hipSuccess || current != handle()) {
    check(api(), api().hipSetDevice(handle()), "hipSetDevice", id());
  }
}

std::unique_ptr<backend::Module> HipDevice::load(const backend::Binary& binary) {
  if (binary.format != "hsaco") {
    throw BackendError(fmt::format("kjit: {} cannot load a '{}' binary of '{}'", id(),
                                   binary.format, binary.program));
  }
  CodeObject code =
      read_code_object(binary.bytes, fmt::format("the code object of '{}'", binary.program));
  const std::string want = "amdgcn-amd-amdhsa--" + target_.processor;
  if (code.target != want && !code.target.starts_with(want + ":")) {
    throw BackendError(fmt::format("kjit: the code object of '{}' is for {}, but {} is {}",
                                   binary.program, code.target, id(), target_.id()));
  }
  make_current();
  hipModule_t module = nullptr;
  check(api(), api().hipModuleLoadData(&module, binary.bytes.data()), "hipModuleLoadData",
        fmt::format("'{}' on {}", binary.program, id()));
  return std::make_unique<HipModule>(*this, module, binary.program, std::move(code),
                                     backend::elf_device_variables(binary.bytes));
}

}  // namespace kjit::hip
