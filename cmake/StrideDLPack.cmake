# The DLPack header (Debian: libdlpack-dev). The library reads and writes
# DLPack structures; its public header only names them, so this is a build
# dependency of the library and of its tests, never of its users.
find_package(dlpack CONFIG QUIET)
if(NOT TARGET dlpack::dlpack)
  find_path(STRIDE_DLPACK_INCLUDE_DIR dlpack/dlpack.h)
  if(NOT STRIDE_DLPACK_INCLUDE_DIR AND CMAKE_CROSSCOMPILING)
    # The header alone describes the same structures on every target, so a
    # cross build may take the build machine's. Not from its folder, which
    # is the build machine's /usr/include and would put that C library's
    # headers in front of the target's: from a copy in the build tree.
    find_path(STRIDE_DLPACK_BUILD_MACHINE_DIR dlpack/dlpack.h NO_CMAKE_FIND_ROOT_PATH)
    if(STRIDE_DLPACK_BUILD_MACHINE_DIR)
      file(COPY ${STRIDE_DLPACK_BUILD_MACHINE_DIR}/dlpack/dlpack.h DESTINATION ${CMAKE_BINARY_DIR}/dlpack-include/dlpack)
      set(STRIDE_DLPACK_INCLUDE_DIR ${CMAKE_BINARY_DIR}/dlpack-include CACHE PATH "Folder holding dlpack/dlpack.h" FORCE)
    endif()
  endif()
  if(NOT STRIDE_DLPACK_INCLUDE_DIR)
    message(FATAL_ERROR "dlpack/dlpack.h not found: install libdlpack-dev (Debian) or set STRIDE_DLPACK_INCLUDE_DIR")
  endif()
  add_library(dlpack::dlpack INTERFACE IMPORTED GLOBAL)
  set_target_properties(dlpack::dlpack PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${STRIDE_DLPACK_INCLUDE_DIR})
else()
  set_target_properties(dlpack::dlpack PROPERTIES IMPORTED_GLOBAL TRUE)
endif()
