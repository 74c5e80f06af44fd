# `cmake --install`: the library with its SONAME links, the header, a CMake
# package (find_package(stride) → stride::stride) and stride.pc.
include(CMakePackageConfigHelpers)

set(STRIDE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/stride)

install(TARGETS stride EXPORT strideTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/stride.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
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
