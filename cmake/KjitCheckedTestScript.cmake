# Runs one test's command and checks its exit status as well as its output: CTest's
# PASS_REGULAR_EXPRESSION alone passes a program that printed the right text and then failed.
#   cmake -DEXPECT_STATUS=<n|nonzero> -DEXPECT_FILE=<file> -P KjitCheckedTestScript.cmake -- cmd...
# Prints the command's output (stdout and stderr, merged in order), then fails unless its exit
# status is EXPECT_STATUS and its output matches the regular expression in EXPECT_FILE. The
# output is printed first, so that a test's SKIP_REGULAR_EXPRESSION still sees it.
set(command "")
set(after_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after_separator)
    string(REPLACE ";" "\\;" argument "${CMAKE_ARGV${i}}")  # one argument, whatever it holds
    list(APPEND command "${argument}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(after_separator TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "checked test: no command after --")
endif()
execute_process(COMMAND ${command} OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE status)
message("${out}")
file(READ "${EXPECT_FILE}" expected)
if(EXPECT_STATUS STREQUAL "nonzero")
  if(status STREQUAL "0")
    message(FATAL_ERROR "checked test: the command exited with status 0, expected a failure")
  endif()
elseif(NOT status STREQUAL "${EXPECT_STATUS}")
  message(FATAL_ERROR "checked test: the command exited with status ${status}, expected "
                      "${EXPECT_STATUS}")
endif()
if(NOT out MATCHES "${expected}")
  message(FATAL_ERROR "checked test: the output does not match: ${expected}")
endif()
message("checked test: exit status ${status} and output as expected")
