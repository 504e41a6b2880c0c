# CTest cpu.program.lulesh: kjit_lulesh on a mesh of 8^3 elements, plain and specialised (waiting
# for the variants), against LLNL's LULESH 2.0.3 (lulesh_openmp, one thread) on the same mesh and
# regions: the iteration count equal, the final origin energy within a relative 1e-6 (the digits
# both print), the energy's symmetry across plane 0 kept (MaxRelDiff under 1e-8) in both; and the
# specialised run's energies and positions equal to the plain run's (kjit_lulesh's --expect).
#   cmake -DPROGRAM=<kjit_program_lulesh> -DREFERENCE=<lulesh_openmp> -DWORK=<dir>
#         -P cpu_check.cmake
set(size 8)

# "Iteration count" and "Final Origin Energy" of a run's output, into <prefix>_its, <prefix>_e.
function(read_report text prefix)
  if(NOT text MATCHES "Iteration count += +([0-9]+)")
    message(FATAL_ERROR "lulesh ${prefix}: no iteration count in\n${text}")
  endif()
  set(${prefix}_its ${CMAKE_MATCH_1} PARENT_SCOPE)
  if(NOT text MATCHES "Final Origin Energy = +([-+0-9.e]+)")
    message(FATAL_ERROR "lulesh ${prefix}: no final origin energy in\n${text}")
  endif()
  set(${prefix}_e ${CMAKE_MATCH_1} PARENT_SCOPE)
  if(NOT text MATCHES "MaxRelDiff += +([-+0-9.e]+)")
    message(FATAL_ERROR "lulesh ${prefix}: no symmetry check in\n${text}")
  endif()
  set(${prefix}_sym ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

# Fails unless |a - b| <= tolerance * |b| (CMake has no floating point: python3 does the arithmetic).
function(require_close what a b tolerance)
  execute_process(COMMAND python3 -c "import sys; a, b, t = map(float, sys.argv[1:]); \
sys.exit(0 if abs(a - b) <= t * abs(b) else 1)" ${a} ${b} ${tolerance} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lulesh: ${what}: ${a}, expected ${b} within a relative ${tolerance}")
  endif()
endfunction()

# Fails unless 0 <= a <= limit.
function(require_below what a limit)
  execute_process(COMMAND python3 -c "import sys; a, m = map(float, sys.argv[1:]); \
sys.exit(0 if 0 <= a <= m else 1)" ${a} ${limit} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lulesh: ${what}: ${a}, above ${limit}")
  endif()
endfunction()

execute_process(COMMAND ${CMAKE_COMMAND} -E env OMP_NUM_THREADS=1 ${REFERENCE} -s ${size} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
message("LULESH 2.0.3:\n${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lulesh: the reference failed (exit status ${rc})")
endif()
read_report("${out}" reference)
require_below("the reference's symmetry (MaxRelDiff)" ${reference_sym} 1e-8)

set(plain_out ${WORK}/lulesh-plain-s${size}.bin)
foreach(mode plain specialised)
  set(args -s ${size})
  if(mode STREQUAL "plain")
    list(APPEND args --out ${plain_out})
  else()
    list(APPEND args --specialise --wait-for-variant --expect ${plain_out})
  endif()
  execute_process(COMMAND ${PROGRAM} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  message("${mode}:\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "lulesh ${mode}: exit status ${rc}")
  endif()
  read_report("${out}" kjit)
  if(NOT kjit_its EQUAL reference_its)
    message(FATAL_ERROR "lulesh ${mode}: ${kjit_its} iterations, the reference ${reference_its}")
  endif()
  require_close("${mode}'s final origin energy" ${kjit_e} ${reference_e} 1e-6)
  require_below("${mode}'s symmetry (MaxRelDiff)" ${kjit_sym} 1e-8)
endforeach()
