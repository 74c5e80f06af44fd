# `cpack` in a build folder: stride-<version>-Linux.tar.gz (the installed
# prefix: include/, lib/ with the SONAME links, the CMake package and
# stride.pc) and a Debian package of the same files under /usr. The test
# install.deb unpacks the .deb into a scratch root and builds a program
# against it (tests/install/run_install_test.cmake).
set(CPACK_PACKAGE_NAME stride)
set(CPACK_PACKAGE_VENDOR "stride")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Strided tensors behind a small, stable C ABI")
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_GENERATOR "TGZ;DEB")
set(CPACK_SOURCE_GENERATOR "")
set(CPACK_STRIP_FILES OFF)  # the release build has no debug info to strip; ABI builds keep theirs

set(CPACK_DEBIAN_PACKAGE_MAINTAINER "stride maintainers")
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # stride_<version>_<arch>.deb
# The dependencies are read from the library's own NEEDED entries (libc,
# libstdc++, libgomp with OpenMP) where dpkg-shlibdeps is installed.
find_program(STRIDE_DPKG_SHLIBDEPS dpkg-shlibdeps)
mark_as_advanced(STRIDE_DPKG_SHLIBDEPS)
if(STRIDE_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
endif()

include(CPack)
