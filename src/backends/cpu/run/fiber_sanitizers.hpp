// Tells AddressSanitizer and ThreadSanitizer when a fiber switch moves execution to another
// stack. Without it, ASan takes the new stack for a wild one and TSan mixes up the fibers'
// histories. Every function is empty in a build without those sanitizers.
#pragma once

#include <cstddef>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KJIT_FIBERS_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define KJIT_FIBERS_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(KJIT_FIBERS_ASAN)
#define KJIT_FIBERS_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__) && !defined(KJIT_FIBERS_TSAN)
#define KJIT_FIBERS_TSAN 1
#endif

#if defined(KJIT_FIBERS_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(KJIT_FIBERS_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace kjit::cpu::fiber_sanitizer {

/// A stack that execution can switch to, as the sanitizers know it.
struct Stack {
  const void* bottom = nullptr;  // lowest address (ASan)
  std::size_t size = 0;
  void* tsan_fiber = nullptr;  // TSan's record of the fiber that runs on it
};

/// TSan's record of the running thread's own stack (the scheduler's).
inline void* current_fiber() {
#if defined(KJIT_FIBERS_TSAN)
  return __tsan_get_current_fiber();
#else
  return nullptr;
#endif
}

/// A new fiber record for TSan; release it with destroy().
inline void* create_fiber() {
#if defined(KJIT_FIBERS_TSAN)
  return __tsan_create_fiber(0);
#else
  return nullptr;
#endif
}

inline void destroy_fiber(void* fiber) {
#if defined(KJIT_FIBERS_TSAN)
  if (fiber != nullptr) {
    __tsan_destroy_fiber(fiber);
  }
#else
  (void)fiber;
#endif
}

/// Just before switching to `to`. `fake_stack` keeps ASan's state of the stack being left; pass
/// nullptr when the running fiber ends with this switch.
inline void leaving(void** fake_stack, const Stack& to) {
#if defined(KJIT_FIBERS_ASAN)
  __sanitizer_start_switch_fiber(fake_stack, to.bottom, to.size);
#else
  (void)fake_stack;
#endif
#if defined(KJIT_FIBERS_TSAN)
  __tsan_switch_to_fiber(to.tsan_fiber, 0);
#else
  (void)to;
#endif
}

/// First thing after a switch: `fake_stack` is what leaving() kept on this stack (nullptr on a
/// fiber's first entry); `from`, when given, learns the stack that was left.
inline void arrived(void* fake_stack, Stack* from) {
#if defined(KJIT_FIBERS_ASAN)
  const void* bottom = nullptr;
  std::size_t size = 0;
  __sanitizer_finish_switch_fiber(fake_stack, &bottom, &size);
  if (from != nullptr) {
    from->bottom = bottom;
    from->size = size;
  }
#else
  (void)fake_stack;
  (void)from;
#endif
}

}  // namespace kjit::cpu::fiber_sanitizer
