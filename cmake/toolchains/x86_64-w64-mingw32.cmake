# Cross build for Windows x64 with Debian's MinGW-w64 compilers in their
# POSIX thread model (g++-mingw-w64-x86-64-posix: std::thread, OpenMP);
# programs built for the target run under Wine (wine64). Libraries of the
# target come from the cross compiler's root (/usr/x86_64-w64-mingw32),
# or from prefixes named in CMAKE_PREFIX_PATH, never from the build
# machine's own folders (the DLPack header aside: a
# copy, cmake/StrideDLPack.cmake).
#
#   cmake --workflow --preset mingw   (CMakePresets.json; cmocka for the
#                                      tests: tools/test-cross.sh mingw)
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)

# The folders of CMAKE_PREFIX_PATH are roots too: libraries built for the
# target into a prefix of their own (the cmocka of tools/test-cross.sh).
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32 ${CMAKE_PREFIX_PATH})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config reads the target's .pc files only: MinGW's own folder, and the
# folders of CMAKE_PREFIX_PATH, which pkg_check_modules adds (the cmocka
# that tools/test-cross.sh builds for the tests).
set(ENV{PKG_CONFIG_LIBDIR} /usr/x86_64-w64-mingw32/lib/pkgconfig)

# Debian keeps wine64 out of PATH (in /usr/lib/wine; its `wine` starts it);
# other systems have it on PATH. The tests' environment (Wine's prefix,
# the DLLs' folders) is set by cmake/StrideTesting.cmake.
find_program(STRIDE_WINE64 wine64 PATHS /usr/lib/wine NO_CMAKE_FIND_ROOT_PATH)
set(CMAKE_CROSSCOMPILING_EMULATOR ${STRIDE_WINE64})
