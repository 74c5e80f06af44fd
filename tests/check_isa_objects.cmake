# Fails when an object compiled with an instruction-set level's flags
# (src/cpu/levels/avx2/, avx512/, avx512bf16/) runs code when the library loads: a
# static initializer there (.init_array) would execute that level's
# instructions on every processor, before src/cpu/cpu_isa.h has checked
# the level. Such files build their tables on first use instead.
# OBJECTS: the library's object files, joined by '|'.
string(REPLACE "|" ";" objects "${OBJECTS}")
set(checked 0)
foreach(object ${objects})
  if(NOT object MATCHES "/levels/(avx2|avx512|avx512bf16)/[^/]*\\.cpp\\.o(bj)?$")
    continue()
  endif()
  execute_process(COMMAND ${OBJDUMP} -h ${object} OUTPUT_VARIABLE sections RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${OBJDUMP} -h failed on ${object}")
  endif()
  if(sections MATCHES "\\.(init_array|ctors)")
    message(SEND_ERROR "${object} has load-time code (.init_array or .ctors)")
  endif()
  math(EXPR checked "${checked} + 1")
endforeach()
if(checked EQUAL 0)
  message(FATAL_ERROR "no instruction-set object among OBJECTS")
endif()
message(STATUS "${checked} instruction-set objects, none with load-time code")
