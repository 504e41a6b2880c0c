#include "core/backend_registry.hpp"

#if KJIT_WITH_CPU
#include "backends/cpu/cpu_backend.hpp"
#endif
#if KJIT_WITH_CUDA
#include "backends/cuda/cuda_backend.hpp"
#endif
#if KJIT_WITH_HIP
#include "backends/hip/hip_backend.hpp"
#endif

namespace kjit::detail {

std::vector<BackendSlot> create_backends() {
  std::vector<BackendSlot> slots;
#if KJIT_WITH_CUDA
  slots.push_back({BackendKind::cuda, cuda::create_backend()});
#else
  slots.push_back({BackendKind::cuda, nullptr});
#endif
#if KJIT_WITH_HIP
  slots.push_back({BackendKind::hip, hip::create_backend()});
#else
  slots.push_back({BackendKind::hip, nullptr});
#endif
#if KJIT_WITH_CPU
  slots.push_back({BackendKind::cpu, cpu::create_backend()});
#else
  slots.push_back({BackendKind::cpu, nullptr});
#endif
  return slots;
}

}  // namespace kjit::detail
