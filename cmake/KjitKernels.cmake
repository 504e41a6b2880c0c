# kjit_add_kernels(<target> FILES <kernel file>... [HEADERS <header>...] [BASE_DIR <dir>])
# Embeds kernel files, and the headers they include, into <target> (which links kjit::kjit), so
# that a deployed binary needs no loose kernel files: Program::from_embedded("saxpy.cu") loads
# one. Each file is named by its path relative to BASE_DIR (default: the current source folder);
# kernels include headers by those names. Embedded again whenever a file changes.
set(KJIT_KERNELS_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/KjitKernelsScript.cmake)

function(kjit_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "BASE_DIR" "FILES;HEADERS")
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
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DBASE=${base} "-DPROGRAMS=${list_FILES}"
            "-DHEADERS=${list_HEADERS}" -P ${KJIT_KERNELS_SCRIPT}
    DEPENDS ${inputs} ${KJIT_KERNELS_SCRIPT}
    COMMENT "Embedding kernels into ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE ${output})
endfunction()
