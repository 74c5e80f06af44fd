# The DLPack header (Debian: libdlpack-dev). The library reads and writes
# DLPack structures; its public header only names them, so this is a build
# dependency of the library and of its tests, never of its users.
find_package(dlpack CONFIG QUIET)
if(NOT TARGET dlpack::dlpack)
  find_path(STRIDE_DLPACK_INCLUDE_DIR dlpack/dlpack.h)
  if(NOT STRIDE_DLPACK_INCLUDE_DIR)
    message(FATAL_ERROR "dlpack/dlpack.h not found: install libdlpack-dev (Debian) or set STRIDE_DLPACK_INCLUDE_DIR")
  endif()
  add_library(dlpack::dlpack INTERFACE IMPORTED GLOBAL)
  set_target_properties(dlpack::dlpack PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${STRIDE_DLPACK_INCLUDE_DIR})
else()
  set_target_properties(dlpack::dlpack PROPERTIES IMPORTED_GLOBAL TRUE)
endif()
