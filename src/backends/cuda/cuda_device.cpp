#include "backends/cuda/cuda_device.hpp"

#include "backends/cuda/cuda_errors.hpp"
#include "backends/cuda/cuda_module.hpp"
#include "backends/cuda/cuda_staging.hpp"
#include "backends/cuda/cuda_stream.hpp"
#include "backends/cuda/nvrtc_api.hpp"
#include "backends/cuda/nvrtc_compiler.hpp"
#include "backends/llvm/bitcode_compilers.hpp"
#include "support/logging.hpp"

#include <kjit/error.hpp>

#include <fmt/format.h>

#include <mutex>
#include <vector>

#include <array>
#include <cstdint>
#include <utility>

template class kjit::gpu::GpuDevice<kjit::cuda::CudaVendor>;

namespace kjit::cuda {

namespace {

/// The primary contexts still being retained (on threads of their own, see the constructor): the
/// process waits for them before it exits. A retain still running when a program returned (one
/// that never used its device: its compiles all failed) raced with the driver's own teardown and
/// could end the program with SIGSEGV. Made at the first device, after cuInit, so that its
/// destructor runs before the driver's exit handlers.
class PendingRetains {
 public:
  static PendingRetains& instance() {
    static PendingRetains pending;
    return pending;
  }
  void add(std::shared_future<CUcontext> retain) {
    const std::lock_guard lock(mutex_);
    retains_.push_back(std::move(retain));
  }
  PendingRetains(const PendingRetains&) = delete;
  PendingRetains& operator=(const PendingRetains&) = delete;
  ~PendingRetains() {
    const std::lock_guard lock(mutex_);
    for (const std::shared_future<CUcontext>& r : retains_) {
      r.wait();
    }
  }

 private:
  PendingRetains() = default;
  std::mutex mutex_;
  std::vector<std::shared_future<CUcontext>> retains_;
};

}  // namespace

CudaDevice::CudaDevice(const DriverApi& api, CUdevice device, DeviceInfo info, int arch)
    : GpuDevice(api, device, std::move(info),
                [this, arch] {  // LLVM's NVPTX code generator
                  return bitcode::nvptx_compiler(arch, fmt::format("cuda:sm_{}", arch), id());
                }),
      compiler_([this]() -> const NvrtcApi& { return nvrtc(); },
                [arch](const NvrtcApi& nvrtc) { return target_for_device(nvrtc, arch); }, id(),
                fmt::format("a device of sm_{}", arch),
                // Its own CUBIN, or PTX of its architecture, which the driver finishes.
                {fmt::format("cuda:sm_{}", arch), fmt::format("cuda:compute_{}", arch)}) {
  // A context takes ~300 ms: start it now, so that it overlaps the first compile. NVRTC's 100 MB
  // library (~100 ms to load) is loaded at the first compile or cache miss, and only then: a
  // start that finds every program in the disk cache never loads it.
  PendingRetains& pending = PendingRetains::instance();
  context_ = std::async(std::launch::async, [this] {
               CUcontext context = nullptr;
               const DriverApi& driver = this->api();  // (`api` is the constructor's)
               check(driver, driver.cuDevicePrimaryCtxRetain(&context, handle()),
                     "cuDevicePrimaryCtxRetain", id());
               return context;
             }).share();
  pending.add(context_);
}

// The primary context stays retained: devices live until the process ends, and releasing it
// during exit would race with other libraries' teardown.
CudaDevice::~CudaDevice() = default;

void CudaDevice::make_current() {
  CUcontext context = context_ready_.load(std::memory_order_acquire);
  if (context == nullptr) {
    context = context_.get();  // waits for the retain, or rethrows its failure
    context_ready_.store(context, std::memory_order_release);
  }
  CUcontext current = nullptr;
  api().cuCtxGetCurrent(&current);
  if (current != context) {
    check(api(), api().cuCtxSetCurrent(context), "cuCtxSetCurrent", id());
  }
}

const NvrtcApi& CudaDevice::nvrtc() {
  std::string why;
  const NvrtcApi* api = nvrtc_api(why);  // loaded once per process
  if (api == nullptr) {
    throw BackendError(fmt::format("kjit: cannot compile for {}: {}", id(), why));
  }
  return *api;
}

std::unique_ptr<backend::Module> CudaDevice::load(const backend::Binary& binary) {
  if (binary.format != "cubin" && binary.format != "ptx") {
    throw BackendError(fmt::format("kjit: {} cannot load a '{}' binary of '{}'", id(),
                                   binary.format, binary.program));
  }
  make_current();
  std::array<char, 16384> errors{};
  std::array<CUjit_option, 2> options{CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  // The driver takes the buffer's size as a pointer-sized value.
  std::array<void*, 2> values{
      errors.data(), reinterpret_cast<void*>(errors.size())};  // NOLINT(performance-no-int-to-ptr)
  CUmodule module = nullptr;
  const CUresult r = api().cuModuleLoadDataEx(&module, binary.bytes.data(), options.size(),
                                              options.data(), values.data());
  if (r != CUDA_SUCCESS) {
    throw BackendError(fmt::format("kjit: cannot load the {} of '{}' on {}: {}{}{}", binary.format,
                                   binary.program, id(), describe_result(&api(), r),
                                   errors[0] != '\0' ? "\n" : "", errors.data()));
  }
  std::vector<backend::DeviceVariable> variables =
      binary.format == "ptx"
          ? backend::ptx_device_variables(std::string_view(
                reinterpret_cast<const char*>(binary.bytes.data()), binary.bytes.size()))
          : backend::elf_device_variables(binary.bytes);
  return std::make_unique<CudaModule>(*this, module, binary.program, std::move(variables));
}

bool CudaDevice::is_pinned(const void* pointer) {
  make_current();
  unsigned type = 0;
  const CUresult r = api().cuPointerGetAttribute(
      &type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
      reinterpret_cast<CUdeviceptr>(pointer));  // unified addressing: host pointers are addresses
  return r == CUDA_SUCCESS && type == CU_MEMORYTYPE_HOST;
}

PinnedStaging& CudaDevice::staging() {
  std::call_once(staging_once_, [this] { staging_ = std::make_unique<PinnedStaging>(*this); });
  return *staging_;
}

std::uint64_t CudaDevice::allocate_managed_impl(std::size_t bytes) {
  make_current();
  int managed = 0;
  check(api(), api().cuDeviceGetAttribute(&managed, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, handle()),
        "cuDeviceGetAttribute", id());
  if (managed == 0) {
    throw BackendError(fmt::format("kjit: {} cannot allocate managed memory", id()));
  }
  return GpuDevice::allocate_managed_impl(bytes);
}

}  // namespace kjit::cuda
