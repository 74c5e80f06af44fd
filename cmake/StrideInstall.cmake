# `cmake --install`: the library with its SONAME links (on Windows
# stride.dll, its import library and the compiler's runtime DLLs), the
# header, a CMake package (find_package(stride) → stride::stride) and
# stride.pc.
include(CMakePackageConfigHelpers)

set(STRIDE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/stride)

install(TARGETS stride EXPORT strideTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/stride.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# MinGW: stride.dll loads DLLs of the compiler's runtime (OpenMP's libgomp,
# winpthreads, libgcc_s), which a Windows machine does not have. They go
# beside it into bin/, where a program finds them as it finds stride.dll
# (the bin/ folder on PATH, or the DLLs copied beside the program). Which
# ones is read from the built DLL's imports, through the compiler's library
# folders; what those folders lack (KERNEL32.dll, msvcrt.dll) is Windows'
# own. install(RUNTIME_DEPENDENCIES) refuses cross builds, so the lookup is
# spelled out.
if(MINGW)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-search-dirs OUTPUT_VARIABLE _search_dirs)
  if(NOT _search_dirs MATCHES "libraries: =([^\n]*)")
    message(FATAL_ERROR "${CMAKE_CXX_COMPILER} -print-search-dirs names no library folders")
  endif()
  if(CMAKE_HOST_WIN32)
    set(_runtime_dirs "${CMAKE_MATCH_1}")
  else()
    string(REPLACE ":" ";" _runtime_dirs "${CMAKE_MATCH_1}")
  endif()
  install(CODE "
    set(CMAKE_GET_RUNTIME_DEPENDENCIES_PLATFORM windows+pe)
    set(CMAKE_GET_RUNTIME_DEPENDENCIES_TOOL objdump)
    set(CMAKE_GET_RUNTIME_DEPENDENCIES_COMMAND \"${CMAKE_OBJDUMP}\")
    set(_stride_runtime_dirs \"${_runtime_dirs}\")
    file(GET_RUNTIME_DEPENDENCIES LIBRARIES \"$<TARGET_FILE:stride>\" DIRECTORIES \${_stride_runtime_dirs}
         RESOLVED_DEPENDENCIES_VAR _stride_runtime_dlls UNRESOLVED_DEPENDENCIES_VAR _stride_windows_dlls)
    file(INSTALL \${_stride_runtime_dlls} DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
  ")
endif()
install(EXPORT strideTargets NAMESPACE stride:: DESTINATION ${STRIDE_CMAKE_DIR} FILE strideTargets.cmake)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/strideConfig.cmake.in
  ${PROJECT_BINARY_DIR}/strideConfig.cmake INSTALL_DESTINATION ${STRIDE_CMAKE_DIR})
# The SONAME carries the major version: any 0.x library serves a program
# built against an older 0.y header (minor versions only add).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/strideConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/strideConfig.cmake ${PROJECT_BINARY_DIR}/strideConfigVersion.cmake
  DESTINATION ${STRIDE_CMAKE_DIR})

# stride.pc finds its prefix from its own place (${pcfiledir}), so an
# install moved with `cmake --install --prefix` stays usable.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(STRIDE_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _up "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
  string(REGEX REPLACE "/$" "" _up "${_up}")
  set(STRIDE_PC_PREFIX "\${pcfiledir}/${_up}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(STRIDE_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  set(STRIDE_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(STRIDE_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(STRIDE_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/stride.pc.in ${PROJECT_BINARY_DIR}/stride.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/stride.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
