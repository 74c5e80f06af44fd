#!/usr/bin/env bash
# Builds stride with a cross compiler and runs its tests under emulation
# (docs/contributing.md, "Other platforms"): the workflow presets aarch64
# and mingw of CMakePresets.json, plus what presets cannot say:
#
#   tools/test-cross.sh aarch64   Linux on 64-bit Arm, under qemu-user:
#                                 the C and C++ suites, the examples, the
#                                 header's compile matrix and the installs
#   tools/test-cross.sh mingw     Windows x64 (MinGW-w64), under Wine: the C
#                                 and C++ suites, the examples, the fuzz corpus replay,
#                                 the DLL's exports, the header's compile
#                                 matrix and the installs
#   tools/test-cross.sh all       both, one after the other
#
# Each platform builds in build-<platform>/, with ccache when it is
# installed, and runs its tests on as many ctest jobs as cores (STRIDE_JOBS
# sets another number); skipped tests are listed with the reason they
# printed. What it needs: tools/install-deps.sh --cross. Debian ships no
# cmocka for MinGW: the mingw run builds one from Debian's source package
# (apt-get source cmocka) into build-mingw/cmocka/, once; after that,
# `cmake --workflow --preset mingw` runs on its own.
set -euo pipefail

src="$(cd "$(dirname "$0")/.." && pwd)"
cd "$src"
jobs="${STRIDE_JOBS:-$(nproc)}"
export CMAKE_BUILD_PARALLEL_LEVEL="$jobs" CTEST_PARALLEL_LEVEL="$jobs"
if command -v ccache >/dev/null; then
  # CMake reads the launchers from the environment when a build folder is configured.
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi

usage() {
  echo "usage: tools/test-cross.sh aarch64|mingw|all" >&2
  exit 2
}

# cmocka for MinGW from Debian's source package, built with the project's
# toolchain file into $1 (a prefix: include/, lib/, bin/cmocka.dll), unless
# it is there. Its printf-like functions get MinGW's C99 printf (%zu), as
# the tests do (cmake/StrideFlags.cmake).
mingw_cmocka() {
  local prefix="$1" work="$1-build"
  if [ -f "$prefix/lib/pkgconfig/cmocka.pc" ]; then
    return
  fi
  rm -rf "$work" && mkdir -p "$work" || return 1
  (cd "$work" && apt-get source cmocka >/dev/null) || return 1
  local source
  source="$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'cmocka-*')"
  cmake -S "$source" -B "$work/build" -G Ninja \
    -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchains/x86_64-w64-mingw32.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=-D__USE_MINGW_ANSI_STDIO=1 \
    -DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null || return 1
  cmake --build "$work/build" >/dev/null || return 1
  cmake --install "$work/build" >/dev/null || return 1
  rm -rf "$work"
}

# The workflow preset of one platform (configure, build, its test labels)
# and the reasons of its skipped tests, timed.
run_platform() {
  local name="$1" start=$SECONDS status=0
  echo "== $name: cmake --workflow --preset $name (in build-$name)"
  tools/workflow.sh "$name" || status=$?
  echo "== $name: $((SECONDS - start)) s in all"
  return $status
}

run_aarch64() {
  run_platform aarch64
}

run_mingw() {
  local build="$src/build-mingw"
  mingw_cmocka "$build/cmocka" || return 1
  local status=0
  run_platform mingw || status=$?
  # Wine's server lingers a few seconds after its last program: wait for it
  # (Debian keeps wineserver out of PATH, in /usr/lib/wine, as wine64).
  local wineserver
  wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver)
  if [ -x "$wineserver" ]; then WINEPREFIX="$build/wine-prefix" "$wineserver" -w || true; fi
  return $status
}

[ $# -eq 1 ] || usage
case "$1" in
  aarch64) run_aarch64 ;;
  mingw) run_mingw ;;
  all)
    status=0
    run_aarch64 || status=$?
    run_mingw || status=$?
    exit $status
    ;;
  *) usage ;;
esac
