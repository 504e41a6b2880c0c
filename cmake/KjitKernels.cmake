# kjit_add_kernels(<target> FILES <kernel file>... [HEADERS <header>...] [BASE_DIR <dir>]
#                  [PRECOMPILE <target>...])
# Embeds kernel files, and the headers they include, into <target> (which links kjit::kjit), so
# that a deployed binary needs no loose kernel files: Program::from_embedded("saxpy.cu") loads
# one. Each file is named by its path relative to BASE_DIR (default: the current source folder);
# kernels include headers by those names. Embedded again whenever a file changes.
# PRECOMPILE (cpu, cuda:sm_90, cuda:compute_90, hip:gfx90a, ...) compiles each kernel of the files
# for those targets at build time with kjit-warm, as from_embedded(name).kernel(k) asks for it,
# and embeds the cache entries as a read-only tier searched first: a compile error fails the
# build, and a program whose key matches loads without compiling. docs/cache.md says when keys
# match.
set(KJIT_KERNELS_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/KjitKernelsScript.cmake)

function(kjit_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "BASE_DIR" "FILES;HEADERS;PRECOMPILE")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "kjit_add_kernels(${target}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_FILES)
    message(FATAL_ERROR "kjit_add_kernels(${target}): FILES names no kernel file")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "kjit_add_kernels(${target}): there is no target ${target}")
  endif()
  set(base ${CMAKE_CURRENT_SOURCE_DIR})
  if(arg_BASE_DIR)
    cmake_path(ABSOLUTE_PATH arg_BASE_DIR BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
      NORMALIZE OUTPUT_VARIABLE base)
  endif()
  set(inputs "")
  foreach(kind FILES HEADERS)
    set(list_${kind} "")
    foreach(file IN LISTS arg_${kind})
      cmake_path(ABSOLUTE_PATH file BASE_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} NORMALIZE
        OUTPUT_VARIABLE path)
      cmake_path(IS_PREFIX base ${path} NORMALIZE inside)
      if(NOT inside)
        message(FATAL_ERROR "kjit_add_kernels(${target}): ${file} is not under BASE_DIR ${base}")
      endif()
      list(APPEND list_${kind} ${path})
      list(APPEND inputs ${path})
    endforeach()
  endforeach()
  get_property(count TARGET ${target} PROPERTY KJIT_KERNEL_SETS)
  if(NOT count)
    set(count 0)
  endif()
  math(EXPR next "${count} + 1")
  set_property(TARGET ${target} PROPERTY KJIT_KERNEL_SETS ${next})
  set(output ${CMAKE_CURRENT_BINARY_DIR}/kjit_kernels_${target}_${count}.cpp)
  set(precompile "")
  set(entries "")
  if(arg_PRECOMPILE)
    if(NOT TARGET kjit::kjit-warm)
      message(FATAL_ERROR "kjit_add_kernels(${target}): PRECOMPILE needs kjit-warm, which this "
        "kjit was built without (KJIT_BUILD_TOOLS=OFF)")
    endif()
    set(entries ${CMAKE_CURRENT_BINARY_DIR}/kjit_precompiled_${target}_${count})
    set(warm_args --cache-dir ${entries} --embed-base ${base} -q)
    foreach(header IN LISTS list_HEADERS)
      list(APPEND warm_args --embedded-header ${header})
    endforeach()
    foreach(t IN LISTS arg_PRECOMPILE)
      list(APPEND warm_args --target ${t})
    endforeach()
    # A fresh cache each time, filled with what the embedded files compile to and nothing else
    # (no read-only tier, no cap).
    set(precompile
      COMMAND ${CMAKE_COMMAND} -E rm -rf ${entries}
      COMMAND ${CMAKE_COMMAND} -E env --unset=KJIT_CACHE_PATH --unset=KJIT_CACHE_MAX_BYTES
              KJIT_CACHE=rw $<TARGET_FILE:kjit::kjit-warm> ${warm_args} -- ${list_FILES})
    list(APPEND inputs kjit::kjit-warm)
  endif()
  add_custom_command(
    OUTPUT ${output}
    ${precompile}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DBASE=${base} "-DPROGRAMS=${list_FILES}"
            "-DHEADERS=${list_HEADERS}" -DENTRIES=${entries} -P ${KJIT_KERNELS_SCRIPT}
    DEPENDS ${inputs} ${KJIT_KERNELS_SCRIPT}
    COMMENT "Embedding kernels into ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE ${output})
endfunction()
