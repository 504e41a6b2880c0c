// kjit's <cooperative_groups/memcpy_async.h>: memcpy_async and wait for a group, as a copy that
// the group's threads make together before memcpy_async returns; wait and wait_prior then
// synchronise the group, as CUDA requires before the data is read. Correct on every backend; on
// a GPU it does not overlap the copy with other work as CUDA's hardware copies can.
#ifndef __KJIT_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define __KJIT_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#include <cooperative_groups.h>
#if !defined(__KJIT_HIP_COOPERATIVE_GROUPS)  // see <cooperative_groups.h>

namespace cooperative_groups {

template <class Group>
__device__ void memcpy_async(const Group& group, void* destination, const void* source,
                             size_t bytes) {
  char* d = static_cast<char*>(destination);
  const char* s = static_cast<const char*>(source);
  const unsigned long long threads = group.num_threads();
  for (unsigned long long i = group.thread_rank(); i < bytes; i += threads) {
    d[i] = s[i];
  }
}

template <class Group, class T>
__device__ void memcpy_async(const Group& group, T* destination, size_t destination_count,
                             const T* source, size_t source_count) {
  const size_t count = destination_count < source_count ? destination_count : source_count;
  const unsigned long long threads = group.num_threads();
  for (unsigned long long i = group.thread_rank(); i < count; i += threads) {
    destination[i] = source[i];
  }
}

template <class Group>
__device__ void wait(const Group& group) {
  group.sync();
}

template <unsigned int N, class Group>
__device__ void wait_prior(const Group& group) {
  group.sync();
}

}  // namespace cooperative_groups

#endif  // !__KJIT_HIP_COOPERATIVE_GROUPS

#endif
