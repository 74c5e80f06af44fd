# Cross build for Windows x64 with Debian's MinGW-w64 compilers in their
# POSIX thread model (g++-mingw-w64-x86-64-posix: std::thread, OpenMP);
# programs built for the target run under Wine (wine64). Libraries of the
# target come from the cross compiler's root (/usr/x86_64-w64-mingw32),
# never from the build machine's own folders (the DLPack header aside: a
# copy, cmake/StrideDLPack.cmake).
#
#   cmake -S . -B build-mingw -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/x86_64-w64-mingw32.cmake \
#     -DSTRIDE_WITH_CUDA=OFF -DSTRIDE_BUILD_TESTS=OFF -DSTRIDE_BUILD_EXAMPLES=OFF -DSTRIDE_BUILD_BENCH=OFF
#   cmake --build build-mingw --target stride
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)

set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(CMAKE_CROSSCOMPILING_EMULATOR wine64)
