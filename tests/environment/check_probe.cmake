# Runs the environment probe (PROBE) and checks its exit status as well as its output: CTest's
# PASS_REGULAR_EXPRESSION alone would pass a probe that printed the right text and then failed.
# Prints the probe's output (stdout and stderr, merged in order), then fails unless the exit status
# is STATUS and the output matches the regular expression in EXPECT_FILE.
execute_process(COMMAND "${PROBE}" OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE status)
message("${out}")
file(READ "${EXPECT_FILE}" expected)
if(NOT status STREQUAL "${STATUS}")
  message(FATAL_ERROR "check_probe: the probe exited with status ${status}, expected ${STATUS}")
endif()
if(NOT out MATCHES "${expected}")
  message(FATAL_ERROR "check_probe: the output does not match: ${expected}")
endif()
message("check_probe: exit status ${status} and output as expected")
