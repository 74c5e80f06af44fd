#!/usr/bin/env bash
# Builds stride with a cross compiler and runs its tests under emulation
# (docs/contributing.md, "Other platforms"):
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
# Each platform builds in build-<platform>/ (under $STRIDE_CROSS_BUILD_ROOT,
# the source folder by default), with ccache when it is installed, and runs
# its tests on as many ctest jobs as cores; skipped tests are listed with
# the reason they printed. What it needs: tools/install-deps.sh --cross.
# Debian ships no cmocka for MinGW: the mingw run builds one from Debian's
# source package (apt-get source cmocka) into build-mingw/cmocka/, once.
set -euo pipefail

src="$(cd "$(dirname "$0")/.." && pwd)"
build_root="${STRIDE_CROSS_BUILD_ROOT:-$src}"
jobs="$(nproc)"
launchers=()
if command -v ccache >/dev/null; then
  launchers=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
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
  cmake -S "$source" -B "$work/build" -G Ninja "${launchers[@]}" \
    -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchains/x86_64-w64-mingw32.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=-D__USE_MINGW_ANSI_STDIO=1 \
    -DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null || return 1
  cmake --build "$work/build" -j "$jobs" >/dev/null || return 1
  cmake --install "$work/build" >/dev/null || return 1
  rm -rf "$work"
}

# Configures, builds and tests one platform: $1 the name, $2 the toolchain
# file's name, $3 the ctest labels, then extra cmake arguments. (Each step
# says `|| return 1`: bash's set -e does not hold inside a function that
# is called as `f || status=$?`.)
run_platform() {
  local name="$1" toolchain="$2" labels="$3"
  shift 3
  local build="$build_root/build-$name" start=$SECONDS
  echo "== $name: configure and build in $build"
  cmake -S "$src" -B "$build" -G Ninja "${launchers[@]}" \
    -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchains/$toolchain" \
    -DSTRIDE_WITH_CUDA=OFF -DSTRIDE_BUILD_BENCH=OFF -DSTRIDE_TEST_BINDINGS=OFF -DSTRIDE_WERROR=ON "$@" >/dev/null || return 1
  cmake --build "$build" -j "$jobs" || return 1
  echo "== $name: ctest -L '$labels' (built in $((SECONDS - start)) s)"
  local status=0
  ctest --test-dir "$build" -L "$labels" -j "$jobs" --output-on-failure \
    --output-junit "$build/cross-tests.xml" || status=$?
  python3 "$src/tools/ctest-skips.py" "$build/cross-tests.xml" || status=1
  echo "== $name: $((SECONDS - start)) s in all"
  return $status
}

run_aarch64() {
  run_platform aarch64 aarch64-linux-gnu.cmake '^(c|cpp|example|header|install)$'
}

run_mingw() {
  local build="$build_root/build-mingw"
  mingw_cmocka "$build/cmocka" || return 1
  local status=0
  run_platform mingw x86_64-w64-mingw32.cmake '^(c|cpp|example|abi|fuzz|header|install)$' -DCMAKE_PREFIX_PATH="$build/cmocka" || status=$?
  # Wine's server lingers a few seconds after its last program: wait for it.
  WINEPREFIX="$build/wine-prefix" wineserver -w || true
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
