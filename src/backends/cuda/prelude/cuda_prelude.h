// kjit's prelude for NVRTC: what CUDA device code sees under nvcc without including anything,
// and kjit's CPU prelude provides too (NVRTC itself has size_t, but no fixed-width types).
#define __KJIT__ 1
#define __KJIT_CUDA__ 1

typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;

// What nvcc defines for device code and NVRTC does not, so that `#ifdef __NVCC__` code takes the
// same path on every backend.
#define __NVCC__ 1

// The spellings of a kernel and of its launch bounds that a specialised variant's kernel uses
// (core/specialization.cpp), where __global__ and __launch_bounds__ are redefined, its call of the
// kernel it fixes (which the compiler inlines of itself), and blockDim for a fixed block.
#define __KJIT_KERNEL __attribute__((global))
#define __KJIT_INLINE_CALL
#define __KJIT_FIXED_BLOCK(x, y, z) (dim3((x), (y), (z)))
#define __KJIT_LAUNCH_BOUNDS(threads) __attribute__((launch_bounds(threads)))
// A variant of a kernel that declares its bounds keeps them as declared.
#define __KJIT_DECLARED_BOUNDS(...) __attribute__((launch_bounds(__VA_ARGS__)))
// Whether a variant's bounds of `threads` are worth writing: above 256 they cap the registers a
// thread may use, so that such blocks can launch; at or below, a thread's 255 registers fit
// anyway and the bound only changes NVVM's code, measured slower on an H200 (MAT_MAT_SHARED 3%,
// matmul_tiled 10%, blocks of 256).
#define __KJIT_BOUNDS_MATTER(threads) ((threads) > 256)

// __host__ alone means nothing here: with --device-as-default-execution-space a function marked
// __host__ (NVRTC refuses those) is compiled as any unmarked one, and __host__ __device__ as
// __device__. Host function bodies are erased before NVRTC sees the program.
#undef __host__
#define __host__

// Host functions of kjit's headers and of the program: a kernel that calls one fails to link;
// kjit reports the call (nvrtc_compiler.cpp) from this mark.
#define __KJIT_HOST_ONLY __attribute__((deprecated("__kjit_host_only__")))

// A kernel launch in device code, as host_code.cpp rewrites it ("k<<<g, b>>>(args)" becomes
// "k,__KJIT_DEVICE_LAUNCH(g, b),(args)"): an error at the launch's line. (NVRTC could launch
// from a kernel only with relocatable device code linked against cudadevrt, which kjit does not
// do.)
template <class... A>
__device__ int __kjit_device_launch(A...) {
  static_assert(sizeof...(A) == 0 && sizeof...(A) != 0,
                "dynamic parallelism (a kernel launch in device code) is not supported by kjit's "
                "CUDA backend");
  return 0;
}
#define __KJIT_DEVICE_LAUNCH __kjit_device_launch

// Texture references, which CUDA 12 removed (NVRTC would say "texture is not a template", or
// that no tex2D matches): reading one is an error at the read that names them. Texture objects
// work.
template <class T, int dim = 1, int mode = 0>
struct texture {};
#define __KJIT_TEXTURE_REFERENCE_READ(NAME)                                                     \
  template <class T, int dim, int mode, class... A>                                             \
  __device__ T NAME(texture<T, dim, mode>, A...) {                                              \
    static_assert(sizeof(T) == 0,                                                               \
                  "texture references (texture<T, dim, mode>) were removed in CUDA 12 and are " \
                  "not supported by kjit: use texture objects (cudaTextureObject_t)");          \
    return T();                                                                                 \
  }
__KJIT_TEXTURE_REFERENCE_READ(tex1Dfetch)
__KJIT_TEXTURE_REFERENCE_READ(tex1D)
__KJIT_TEXTURE_REFERENCE_READ(tex2D)
__KJIT_TEXTURE_REFERENCE_READ(tex3D)
__KJIT_TEXTURE_REFERENCE_READ(tex1DLayered)
__KJIT_TEXTURE_REFERENCE_READ(tex2DLayered)
#undef __KJIT_TEXTURE_REFERENCE_READ

// `register`, which C++17 removed, is still in older kernel files (SHOC, HeCBench's maxFlops):
// nvcc takes it, NVRTC refuses it. Here it means nothing, as it means nothing to nvcc.
#define register

// What nvcc's implicit <cuda_runtime.h> makes visible in every .cu file and NVRTC does not: the
// runtime's host functions (declarations; NVRTC has its types), and the C library's names that
// come with it (M_PI, INFINITY, uint, std::size_t ...). kjit's headers are among the named ones.
#include <cuda_runtime.h>
