# Flags every stride target gets: warnings, and the sanitizers chosen with
# STRIDE_SANITIZE. Applied per target, never globally.
function(stride_apply_flags target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C,CXX>:-Wall -Wextra -Wpedantic>
    $<$<AND:$<BOOL:${STRIDE_WERROR}>,$<COMPILE_LANGUAGE:C,CXX>>:-Werror>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
    "$<$<AND:$<BOOL:${STRIDE_WERROR}>,$<COMPILE_LANGUAGE:CUDA>>:--Werror=all-warnings;-Xcompiler=-Werror>")
  if(MINGW)
    # C's printf as C99 has it (%zu, %lld): MinGW's own stdio rather than
    # the system's msvcrt.dll, which lacks them (C++ gets it by default).
    target_compile_definitions(${target} PRIVATE __USE_MINGW_ANSI_STDIO=1)
  endif()
  if(STRIDE_SANITIZE)
    string(REPLACE ";" "," _san "${STRIDE_SANITIZE}")
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=${_san} -fno-omit-frame-pointer -fno-sanitize-recover=all>)
    target_link_options(${target} PRIVATE -fsanitize=${_san})
  endif()
  if(STRIDE_FUZZ)
    # Coverage for libFuzzer in every object; only the fuzz target links
    # libFuzzer itself (-fsanitize=fuzzer). Without comparison tracing: it
    # cost a quarter of every execution, and runs side by side reached the
    # same coverage in equal time without it (tests/fuzz/README.md).
    # Parallel work is split from a small grain on (core/runtime/parallel.h).
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp>)
    target_compile_definitions(${target} PRIVATE STRIDE_FUZZ_SMALL_GRAIN)
  endif()
endfunction()

if(STRIDE_FUZZ AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "STRIDE_FUZZ=ON needs clang (libFuzzer): configure with CC=clang CXX=clang++")
endif()
