# CTest cpu.program.feynman-kac_host_loop: openmp_feynman-kac.cpp built without OpenMP (the
# OpenMP baseline's loop, run serially) gives expected-nj16-paths100.bin bit for bit, the output
# of the shipped kernel run serially on the host in the same order (host_reference.cpp).
#   cmake -DLOOP=<feynman-kac_host_loop> -DEXPECTED=<file> -DWORK=<dir> -P host_loop_check.cmake
set(out ${WORK}/feynman-kac-host-loop.bin)
execute_process(COMMAND ${LOOP} 1 --nj 16 --paths 100 --out ${out} RESULT_VARIABLE rc
                OUTPUT_VARIABLE text ERROR_VARIABLE text)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "feynman-kac host loop: exit status ${rc}\n${text}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${out} ${EXPECTED} RESULT_VARIABLE differ)
if(NOT differ EQUAL 0)
  message(FATAL_ERROR "feynman-kac host loop: its n_inside and err are not ${EXPECTED}'s")
endif()
message("${text}feynman-kac host loop: n_inside and err equal ${EXPECTED}'s, bit for bit")
