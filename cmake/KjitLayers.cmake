# The library's layers as CMake targets, so that an include running the wrong way does not build.
#
# kjit_layer(NAME [FOLDER <dir under src>] [USES <layers below>] SOURCES ...) makes the object
# library kjit_NAME. Its include root is a directory of the build holding one link, named as the
# folder is (support/, backends/cpu/), to the folder: a file includes "support/logging.hpp" through
# the root of the layer that owns it, and sees only the roots of its own layer and of the layers it
# USES (transitively). A backend that includes "core/program_impl.hpp" fails with "No such file".
# Includes are written from src/ ("backends/kit/backend.hpp"), never relative ("../core/x.hpp"):
# scripts/layout_check.py refuses those, which the roots cannot.
set(KJIT_LAYER_ROOTS ${CMAKE_BINARY_DIR}/layer-roots)

# What every layer and whoever links one needs: C++20, the public headers, spdlog.
add_library(kjit_layer_settings INTERFACE)
target_include_directories(kjit_layer_settings INTERFACE ${PROJECT_SOURCE_DIR}/include)
target_compile_features(kjit_layer_settings INTERFACE cxx_std_20)
target_link_libraries(kjit_layer_settings INTERFACE spdlog::spdlog Threads::Threads)

# Gives `target` (and what links it) the include root NAME: a directory of the build holding one
# link, named FOLDER (its path under src/, as includes spell it), to the directory SOURCE.
function(kjit_include_root target name folder source)
  set(root ${KJIT_LAYER_ROOTS}/${name})
  get_filename_component(parent ${root}/${folder} DIRECTORY)
  file(MAKE_DIRECTORY ${parent})
  file(CREATE_LINK ${source} ${root}/${folder} SYMBOLIC)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    target_include_directories(${target} INTERFACE ${root})
  else()
    target_include_directories(${target} PUBLIC ${root})
  endif()
endfunction()

function(kjit_layer name)
  cmake_parse_arguments(arg "" "FOLDER" "USES;SOURCES" ${ARGN})
  set(target kjit_${name})
  add_library(${target} OBJECT ${arg_SOURCES})
  if(arg_FOLDER)  # the registry, which owns no headers, has none
    kjit_include_root(${target} ${name} ${arg_FOLDER} ${CMAKE_CURRENT_SOURCE_DIR}/${arg_FOLDER})
  endif()
  foreach(use IN LISTS arg_USES)
    target_link_libraries(${target} PUBLIC kjit_${use})
  endforeach()
  target_link_libraries(${target} PUBLIC kjit_layer_settings)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow)
  set_target_properties(${target} PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
endfunction()
