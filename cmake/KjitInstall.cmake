# cmake --install: the public headers, libkjit.so (with its SONAME), kjit-warm, the kjit-compile
# helper (in libexec/kjit, where libkjit looks for it), a CMake package (find_package(kjit),
# target kjit::kjit, kjit_add_kernels(), a version file) and a pkg-config file (kjit.pc).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(KJIT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/kjit)

# Installed programs and libkjit.so find LLVM where the build found it (/usr/lib/llvm-19/lib is
# not on the loader's default path).
set_target_properties(kjit PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS kjit EXPORT kjitTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET kjit_redis)  # beside libkjit.so, where it looks first
  install(TARGETS kjit_redis LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/kjit DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The headers that make kernel bitcode ahead of time (docs/bitcode.md): kjit's CPU dialect, and the
# GPU dialect for clang's CUDA mode. Not for host code, so not under include/.
install(FILES ${PROJECT_SOURCE_DIR}/src/backends/cpu/prelude/cpu_abi.h
  ${PROJECT_SOURCE_DIR}/src/backends/cpu/prelude/cpu_prelude.h
  ${PROJECT_SOURCE_DIR}/src/backends/cpu/prelude/cpu_prelude_atomics.h
  ${PROJECT_SOURCE_DIR}/src/backends/cpu/prelude/cpu_prelude_math.h
  ${PROJECT_SOURCE_DIR}/src/backends/cpu/prelude/cpu_prelude_math_special.h
  ${PROJECT_SOURCE_DIR}/src/backends/cpu/prelude/cpu_prelude_rounding.h
  ${PROJECT_SOURCE_DIR}/src/backends/cpu/prelude/cpu_prelude_warp.h
  ${PROJECT_SOURCE_DIR}/src/backends/cpu/prelude/cpu_prelude_intrinsics.h
  ${PROJECT_SOURCE_DIR}/src/backends/cpu/prelude/cpu_prelude_memory.h
  ${PROJECT_SOURCE_DIR}/src/backends/cpu/prelude/cpu_prelude_entries.h
  ${PROJECT_SOURCE_DIR}/kernels/bitcode/gpu_dialect.h
  DESTINATION ${CMAKE_INSTALL_DATADIR}/kjit/bitcode)
if(KJIT_BUILD_TOOLS)
  set_target_properties(kjit-warm kjit-compile PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS kjit-warm EXPORT kjitTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(TARGETS kjit-compile RUNTIME DESTINATION ${KJIT_INSTALL_HELPER_DIR})
endif()

install(EXPORT kjitTargets NAMESPACE kjit:: DESTINATION ${KJIT_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kjitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/kjitConfig.cmake INSTALL_DESTINATION ${KJIT_INSTALL_CMAKEDIR})
# 0.x: a new minor version may break the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kjitConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kjitConfig.cmake ${PROJECT_BINARY_DIR}/kjitConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/KjitKernels.cmake ${PROJECT_SOURCE_DIR}/cmake/KjitKernelsScript.cmake
  DESTINATION ${KJIT_INSTALL_CMAKEDIR})

file(RELATIVE_PATH KJIT_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" KJIT_PC_TO_PREFIX "${KJIT_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/kjit.pc.in ${PROJECT_BINARY_DIR}/kjit.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/kjit.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/kjit)
