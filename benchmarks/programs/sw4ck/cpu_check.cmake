# CTest cpu.program.sw4ck: kjit_sw4ck on small.in, plain and specialised (waiting for the
# variants), each checked against the shipped kernels run serially on the host
# (sw4ck_host_reference: openmp_sw4ck.cpp built without OpenMP). kjit_sw4ck's --expect wants every
# value of a_Uacc within a relative 1e-12 (kjit_sw4ck.cpp says why not bit for bit).
# small.in: upstream/sw4ck.in's format and k structure (bounds -2..17 and -2..21, nk 14 and 18,
# both sides one-sided, so all five kernels run) on a grid of 21 and 29 points a side (upstream's:
# 375 and 746), a few MB of arrays instead of GBs.
#   cmake -DPROGRAM=<kjit_program_sw4ck> -DREFERENCE=<sw4ck_host_reference> -DINPUT=<small.in>
#         -DWORK=<dir> -P cpu_check.cmake
set(expected ${WORK}/sw4ck-expected-small.bin)
execute_process(COMMAND ${REFERENCE} ${INPUT} 1 --out ${expected}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("host reference:\n${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sw4ck: the host reference failed (exit status ${rc})")
endif()
foreach(mode plain specialised)
  set(flag)
  if(mode STREQUAL "specialised")
    set(flag --specialise --wait-for-variant)
  endif()
  execute_process(COMMAND ${PROGRAM} ${INPUT} 2 ${flag} --expect ${expected}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${mode}:\n${out}${err}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\nPASS\n")
    message(FATAL_ERROR "sw4ck ${mode}: exit status ${rc}, outputs not the host's")
  endif()
endforeach()
