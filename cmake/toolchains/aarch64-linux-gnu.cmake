# Cross build for Linux on 64-bit Arm with Debian's cross compilers
# (g++-aarch64-linux-gnu); programs built for the target (the tests) run
# under qemu-user. Libraries of the target come from the cross compiler's
# root (/usr/aarch64-linux-gnu) and from Debian's arm64 multiarch packages
# (dpkg --add-architecture arm64; e.g. libcmocka-dev:arm64), never from the
# build machine's own folders (the DLPack header aside: a copy,
# cmake/StrideDLPack.cmake).
#
#   cmake --workflow --preset aarch64   (CMakePresets.json)
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config reads the target's .pc files (Debian's multiarch folder).
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)

# -L: the cross compiler's dynamic loader, and LD_LIBRARY_PATH its C and
# C++ libraries, ahead of the arm64 multiarch ones (cmocka's): the
# multiarch C library is another build of glibc than the loader's, and a
# program that mixes the two hangs in its first pthread_create.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=/usr/aarch64-linux-gnu/lib)
