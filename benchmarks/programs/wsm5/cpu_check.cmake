# CTest cpu.program.wsm5: kjit_wsm5 on a grid of 9 x 2 columns (upstream's: 60 x 46; here too
# the last blocks are part full: two blocks of 8 x 8 side by side, the second with one column),
# plain and specialised (waiting for the variant), each checked
# against the shipped kernel run serially on the host (wsm5_host_reference: openmp_wsm5.cpp built
# without OpenMP). kjit_wsm5's --expect wants every value within a relative 1e-5 (kjit_wsm5.cpp
# says why not bit for bit; on this test's grid they have been equal bit for bit).
#   cmake -DPROGRAM=<kjit_program_wsm5> -DREFERENCE=<wsm5_host_reference> -DWORK=<dir>
#         -P cpu_check.cmake
set(grid --nx 9 --ny 2)
set(expected ${WORK}/wsm5-expected-nx9-ny2.bin)
execute_process(COMMAND ${REFERENCE} 1 ${grid} --out ${expected}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("host reference:\n${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "wsm5: the host reference failed (exit status ${rc})")
endif()
foreach(mode plain specialised)
  set(flag)
  if(mode STREQUAL "specialised")
    set(flag --specialise --wait-for-variant)
  endif()
  execute_process(COMMAND ${PROGRAM} 2 ${grid} ${flag} --expect ${expected}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${mode}:\n${out}${err}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\nPASS\n")
    message(FATAL_ERROR "wsm5 ${mode}: exit status ${rc}, outputs not the host's")
  endif()
endforeach()
