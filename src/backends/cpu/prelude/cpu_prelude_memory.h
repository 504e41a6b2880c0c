// kjit CPU prelude, part: CUDA's loads and stores with a cache hint, and the generic address
// space's conversions and predicates (after cpu_prelude_intrinsics.h).

// ---- loads and stores with a cache hint -----------------------------------------------------
// A CPU has one cache hierarchy for every access, so each is a load or store of its type: any
// type (CUDA overloads them for char ... double, the vector types, __half and __nv_bfloat16).
// __ldcv (fetch again) and __ldlu (last use) read memory anew each time, as a volatile access
// does, so that a loop that waits for another block's write sees it; __stwt (write through) is a
// volatile store, as its pair.
namespace __kjit {

template <class T>
struct same_type {
  typedef T type;
};

template <class W, class T>
static inline T copy_volatile(const volatile T* from) {
  W words[sizeof(T) / sizeof(W)];
  for (unsigned i = 0; i < sizeof(T) / sizeof(W); ++i) {
    words[i] = ((const volatile W*)from)[i];
  }
  T to;
  __builtin_memcpy(&to, words, sizeof(T));
  return to;
}
template <class W, class T>
static inline void store_volatile(volatile T* to, const T& from) {
  W words[sizeof(T) / sizeof(W)];
  __builtin_memcpy(words, &from, sizeof(T));
  for (unsigned i = 0; i < sizeof(T) / sizeof(W); ++i) {
    ((volatile W*)to)[i] = words[i];
  }
}

// In the widest words the type's size and alignment allow.
template <class T>
static inline T load_volatile(const T* p) {
  if constexpr (__is_scalar(T)) {
    return *(const volatile T*)p;
  } else if constexpr (sizeof(T) % 8 == 0 && alignof(T) >= 8) {
    return copy_volatile<unsigned long long>((const volatile T*)p);
  } else if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
    return copy_volatile<unsigned int>((const volatile T*)p);
  } else if constexpr (sizeof(T) % 2 == 0 && alignof(T) >= 2) {
    return copy_volatile<unsigned short>((const volatile T*)p);
  } else {
    return copy_volatile<unsigned char>((const volatile T*)p);
  }
}
template <class T>
static inline void store_volatile(T* p, const T& v) {
  if constexpr (__is_scalar(T)) {
    *(volatile T*)p = v;
  } else if constexpr (sizeof(T) % 8 == 0 && alignof(T) >= 8) {
    store_volatile<unsigned long long>((volatile T*)p, v);
  } else if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
    store_volatile<unsigned int>((volatile T*)p, v);
  } else if constexpr (sizeof(T) % 2 == 0 && alignof(T) >= 2) {
    store_volatile<unsigned short>((volatile T*)p, v);
  } else {
    store_volatile<unsigned char>((volatile T*)p, v);
  }
}

}  // namespace __kjit

#define __KJIT_LOAD(NAME)                  \
  template <class T>                       \
  static inline T NAME(const T* address) { \
    return *address;                       \
  }
__KJIT_LOAD(__ldg)
__KJIT_LOAD(__ldca)
__KJIT_LOAD(__ldcg)
__KJIT_LOAD(__ldcs)
#undef __KJIT_LOAD
template <class T>
static inline T __ldcv(const T* address) {
  return __kjit::load_volatile(address);
}
template <class T>
static inline T __ldlu(const T* address) {
  return __kjit::load_volatile(address);
}

// The value converts to the pointer's type, as with CUDA's overloads (__stcs(float*, 0.0)).
#define __KJIT_STORE(NAME)                                                         \
  template <class T>                                                               \
  static inline void NAME(T* address, typename __kjit::same_type<T>::type value) { \
    *address = value;                                                              \
  }
__KJIT_STORE(__stcg)
__KJIT_STORE(__stcs)
__KJIT_STORE(__stwb)
#undef __KJIT_STORE
template <class T>
static inline void __stwt(T* address, typename __kjit::same_type<T>::type value) {
  __kjit::store_volatile(address, value);
}

// ---- the generic address space ----------------------------------------------------------------
// One address space on a CPU: the conversions to and from a space's own addresses (which PTX
// instructions take) give the address itself, so that each round trip gives the pointer back.
#define __KJIT_CVTA(SPACE)                                          \
  static inline size_t __cvta_generic_to_##SPACE(const void* p) {   \
    return (size_t)p;                                               \
  }                                                                 \
  static inline void* __cvta_##SPACE##_to_generic(size_t address) { \
    return (void*)address;                                          \
  }
__KJIT_CVTA(global)
__KJIT_CVTA(shared)
__KJIT_CVTA(constant)
__KJIT_CVTA(local)
#undef __KJIT_CVTA

// Which space an address lies in: the CPU backend does not know a block's shared memory's extent
// or a thread's stack's, so these are an error at the call, not a guess.
#define __KJIT_ADDRESS_PREDICATE(NAME) \
  unsigned int NAME(const void*) __KJIT_UNSUPPORTED(#NAME " (an address-space predicate)");
__KJIT_ADDRESS_PREDICATE(__isGlobal)
__KJIT_ADDRESS_PREDICATE(__isShared)
__KJIT_ADDRESS_PREDICATE(__isConstant)
__KJIT_ADDRESS_PREDICATE(__isLocal)
__KJIT_ADDRESS_PREDICATE(__isGridConstant)
__KJIT_ADDRESS_PREDICATE(__isCtaShared)
__KJIT_ADDRESS_PREDICATE(__isClusterShared)
#undef __KJIT_ADDRESS_PREDICATE

// ---- thread block clusters (sm_90): none on a CPU -------------------------------------------
#define __KJIT_CLUSTER(T, NAME) T NAME() __KJIT_UNSUPPORTED(#NAME " (thread block clusters)");
__KJIT_CLUSTER(dim3, __clusterDim)
__KJIT_CLUSTER(dim3, __clusterIdx)
__KJIT_CLUSTER(dim3, __clusterRelativeBlockIdx)
__KJIT_CLUSTER(dim3, __clusterGridDimInClusters)
__KJIT_CLUSTER(unsigned, __clusterDimIsSpecified)
__KJIT_CLUSTER(unsigned, __clusterRelativeBlockRank)
__KJIT_CLUSTER(unsigned, __clusterSizeInBlocks)
__KJIT_CLUSTER(void, __cluster_barrier_arrive)
__KJIT_CLUSTER(void, __cluster_barrier_arrive_relaxed)
__KJIT_CLUSTER(void, __cluster_barrier_wait)
#undef __KJIT_CLUSTER
unsigned __cluster_query_shared_rank(const void*)
    __KJIT_UNSUPPORTED("__cluster_query_shared_rank (thread block clusters)");
template <class T>
T* __cluster_map_shared_rank(T*, unsigned)
    __KJIT_UNSUPPORTED("__cluster_map_shared_rank (thread block clusters)");
// A fence for the cluster's blocks is one for the whole device here.
static inline void __threadfence_cluster() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
