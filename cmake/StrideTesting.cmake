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
# - Windows builds on another system run their programs under Wine
#   (cmake/toolchains/x86_64-w64-mingw32.cmake): in a Wine prefix of the
#   build tree, which the fixture test wine.prefix makes once before any
#   other (a first start of Wine takes 20 s, and tests starting together
#   would each try to make it), quiet (WINEDEBUG=-all), and finding the
#   DLLs through WINEPATH as a Windows user's PATH would: stride.dll, the
#   compiler's runtime (libgomp, libwinpthread, and libstdc++ for C++
#   programs) and cmocka.dll (tests/CMakeLists.txt). The programs are
#   linked as a Windows user's would be, so nothing is copied beside them.
set(STRIDE_TEST_TIMEOUT 300 CACHE STRING "Seconds a ctest may run unless it sets its own TIMEOUT")
mark_as_advanced(STRIDE_TEST_TIMEOUT)

if(WIN32 AND CMAKE_CROSSCOMPILING)
  set(STRIDE_WINE_PREFIX ${PROJECT_BINARY_DIR}/wine-prefix)
  foreach(dll libgomp-1.dll libwinpthread-1.dll libstdc++-6.dll libgcc_s_seh-1.dll)
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${dll}
                    OUTPUT_VARIABLE _dll OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(IS_ABSOLUTE "${_dll}")
      get_filename_component(_dir ${_dll} DIRECTORY)
      get_filename_component(_dir ${_dir} REALPATH)
      set_property(GLOBAL APPEND PROPERTY STRIDE_TEST_DLL_DIRS ${_dir})
    endif()
  endforeach()
endif()

function(stride_test_defaults)
  if(WIN32 AND CMAKE_CROSSCOMPILING)
    get_property(made GLOBAL PROPERTY STRIDE_WINE_PREFIX_TEST)
    if(NOT made)
      add_test(NAME wine.prefix COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} wineboot --init)
      set_tests_properties(wine.prefix PROPERTIES FIXTURES_SETUP wine_prefix)
      set_property(GLOBAL PROPERTY STRIDE_WINE_PREFIX_TEST TRUE)
    endif()
    get_property(dirs GLOBAL PROPERTY STRIDE_TEST_DLL_DIRS)
    list(REMOVE_DUPLICATES dirs)
    # WINEPATH is a Windows path list (';'), written "\;" here so that
    # the test property keeps it one element.
    set(wine_path "$<TARGET_FILE_DIR:stride>")
    foreach(dir IN LISTS dirs)
      string(APPEND wine_path "\\;${dir}")
    endforeach()
  endif()
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test IN LISTS tests)
    get_test_property(${test} TIMEOUT timeout)
    if(NOT timeout)
      set_tests_properties(${test} PROPERTIES TIMEOUT ${STRIDE_TEST_TIMEOUT})
    endif()
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "OMP_WAIT_POLICY=passive")
    if(WIN32 AND CMAKE_CROSSCOMPILING)
      set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
        "WINEPREFIX=${STRIDE_WINE_PREFIX}" "WINEDEBUG=-all" "WINEPATH=${wine_path}")
      if(NOT test STREQUAL "wine.prefix")
        set_property(TEST ${test} APPEND PROPERTY FIXTURES_REQUIRED wine_prefix)
      endif()
    endif()
  endforeach()
endfunction()
