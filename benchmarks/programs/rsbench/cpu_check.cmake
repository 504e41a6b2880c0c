# CTest cpu.program.rsbench: kjit_rsbench on a small problem (upstream's default input with 10000
# lookups: -s large -m event -l 10000), plain and specialised, each checked against the checksum
# of a host run. upstream's own check knows the checksums of its standard inputs only (10.2
# million lookups, minutes on two cores), so the expected one, 35654, is that of HeCBench's
# rsbench-omp as shipped (src/rsbench-omp, the same computation as a C port, built with g++ -O3
# -fopenmp, its target region run on the host) and of openmp_rsbench.cpp for the same input.
#   cmake -DPROGRAM=<kjit_program_rsbench> -P cpu_check.cmake
foreach(mode plain specialised)
  set(flag)
  if(mode STREQUAL "specialised")
    set(flag --specialise --wait-for-variant)
  endif()
  execute_process(COMMAND ${PROGRAM} -s large -m event -l 10000 ${flag} --expect-hash 35654
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${mode}:\n${out}${err}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "expected 35654: PASS\n")
    message(FATAL_ERROR "rsbench ${mode}: exit status ${rc}, checksum not the host's")
  endif()
endforeach()
