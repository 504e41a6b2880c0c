# kjit_checked_test(NAME <name> [STATUS <n|nonzero>] EXPECT <regex> COMMAND <command>...
#                   [WORKING_DIRECTORY <dir>]): a test that passes only when the command exits
# with STATUS (default 0) and its output matches EXPECT (KjitCheckedTestScript.cmake). Set other
# properties (LABELS, ENVIRONMENT, SKIP_REGULAR_EXPRESSION) with set_tests_properties as usual.
set(KJIT_CHECKED_TEST_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/KjitCheckedTestScript.cmake)
function(kjit_checked_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;STATUS;EXPECT;WORKING_DIRECTORY" "COMMAND")
  if(NOT arg_NAME OR NOT arg_COMMAND OR NOT DEFINED arg_EXPECT)
    message(FATAL_ERROR "kjit_checked_test: NAME, EXPECT and COMMAND are required")
  endif()
  if(NOT DEFINED arg_STATUS)
    set(arg_STATUS 0)
  endif()
  # add_test resolves a target named first in its COMMAND; here the script comes first.
  list(GET arg_COMMAND 0 program)
  if(TARGET ${program})
    list(POP_FRONT arg_COMMAND)
    list(PREPEND arg_COMMAND $<TARGET_FILE:${program}>)
  endif()
  # The expression goes through a file: no quoting on its way to the script.
  set(expect_file ${CMAKE_CURRENT_BINARY_DIR}/checked-tests/${arg_NAME}.txt)
  file(WRITE ${expect_file} "${arg_EXPECT}")
  set(directory)
  if(arg_WORKING_DIRECTORY)
    set(directory WORKING_DIRECTORY ${arg_WORKING_DIRECTORY})
  endif()
  add_test(NAME ${arg_NAME} ${directory}
    COMMAND ${CMAKE_COMMAND} -DEXPECT_STATUS=${arg_STATUS} -DEXPECT_FILE=${expect_file}
            -P ${KJIT_CHECKED_TEST_SCRIPT} -- ${arg_COMMAND})
endfunction()
