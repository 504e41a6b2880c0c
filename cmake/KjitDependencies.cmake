# Finds every dependency once, so that each target below only names imported targets.
find_package(spdlog REQUIRED CONFIG)   # logging (KJIT_LOG_LEVEL); brings fmt
find_package(Threads REQUIRED)
find_package(nlohmann_json 3 REQUIRED CONFIG)  # cache key manifests, kjit-warm's manifests and --json
find_path(XXHASH_INCLUDE_DIR xxhash.h REQUIRED)  # cache keys and checksums (header-only use)
# The remote cache tier's Redis plug-in (libkjit_redis.so, loaded only when KJIT_CACHE_REMOTE is
# set); without hiredis's headers the plug-in is not built and the tier reports that it is missing.
find_path(HIREDIS_INCLUDE_DIR hiredis/hiredis.h)
find_library(HIREDIS_LIBRARY hiredis)

if(KJIT_WITH_CPU)
  # LLVM's version file wants major.minor (TOOLCHAIN.md): "19" alone fails.
  find_package(LLVM 19.1 REQUIRED CONFIG HINTS /usr/lib/llvm-19/lib/cmake/llvm)
  find_package(Clang REQUIRED CONFIG HINTS /usr/lib/llvm-19/lib/cmake/clang)
  find_package(boost_context 1.74 REQUIRED CONFIG)   # fibers for kernels that use __syncthreads()
  # lld, linked in: turns AMDGPU objects made from bitcode into code objects (no ld.lld needed).
  find_package(ZLIB REQUIRED)
  find_package(LLD REQUIRED CONFIG HINTS /usr/lib/llvm-19/lib/cmake/lld)
  message(STATUS "kjit: CPU backend with LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")
endif()

if(KJIT_BUILD_TESTS)
  find_package(GTest REQUIRED CONFIG)
endif()
if(KJIT_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED CONFIG)
  find_package(OpenMP REQUIRED)        # the ahead-of-time baseline the CPU backend is measured against
endif()
if(KJIT_BUILD_EXAMPLES)
  find_package(PNG)                    # the demo writes its image as a PNG; without libpng, no demo
endif()
if(KJIT_BUILD_EXAMPLES OR KJIT_BUILD_TOOLS)
  find_package(CLI11 REQUIRED CONFIG)  # command lines of the demo and of kjit-warm
endif()
