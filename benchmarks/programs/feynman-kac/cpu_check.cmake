# CTest cpu.program.feynman-kac: kjit_feynman-kac on a small grid (nj 16, 100 paths), plain and
# specialised, each checked against the output of the shipped kernel run serially on the host
# (expected-nj16-paths100.bin: n_inside 352, err 0.24496433560174602, from upstream/util.h and
# kernel.h compiled with g++ -O3 under host stand-ins for __global__, blockIdx and atomicAdd).
#   cmake -DPROGRAM=<kjit_program_feynman-kac> -DEXPECTED=<file> -P cpu_check.cmake
foreach(mode plain specialised)
  set(flag)
  if(mode STREQUAL "specialised")
    set(flag --specialise --wait-for-variant)
  endif()
  execute_process(COMMAND ${PROGRAM} 2 --nj 16 --paths 100 ${flag} --expect ${EXPECTED}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${mode}:\n${out}${err}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\nPASS\n")
    message(FATAL_ERROR "feynman-kac ${mode}: exit status ${rc}, outputs not the host's")
  endif()
endforeach()
