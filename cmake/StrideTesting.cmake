# What every ctest of the project gets. Each CMakeLists.txt that adds tests
# calls stride_test_defaults() at its end (CMake sets test properties only
# from the directory that added the test).
#
# - TIMEOUT: a hung test fails after STRIDE_TEST_TIMEOUT seconds instead of
#   blocking the run; a test that needs longer sets its own, with the reason.
# - OMP_WAIT_POLICY=passive: tools/test-all.sh runs tests in parallel on as
#   many jobs as cores, each test on two threads. libgomp's idle threads spin
#   by default, taking the core another test needs (test_fp_environment went
#   from 4.5 to 13.7 s with another process busy). Passive idle threads
#   sleep; the parallel regions and what they compute are the same.
set(STRIDE_TEST_TIMEOUT 300 CACHE STRING "Seconds a ctest may run unless it sets its own TIMEOUT")
mark_as_advanced(STRIDE_TEST_TIMEOUT)

function(stride_test_defaults)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test IN LISTS tests)
    get_test_property(${test} TIMEOUT timeout)
    if(NOT timeout)
      set_tests_properties(${test} PROPERTIES TIMEOUT ${STRIDE_TEST_TIMEOUT})
    endif()
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "OMP_WAIT_POLICY=passive")
  endforeach()
endfunction()
