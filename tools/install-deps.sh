#!/usr/bin/env bash
# Installs the Debian packages that building and testing stride need, and
# only those that are missing; says which it installs, or that none is
# missing. apt-get runs (update once, then install) only when something is
# missing, with sudo only when not run as root.
#
#   tools/install-deps.sh --demo    what `cmake -S . -B build` and the build
#                                   of the library, its examples and the
#                                   bench need: CMake, make, a C and C++
#                                   compiler, and what the configure step
#                                   looks for (pkg-config, cmocka and python3
#                                   for the tests' definitions, the DLPack
#                                   header)
#   tools/install-deps.sh           what tools/test-all.sh needs: the above,
#                                   Ninja, Doxygen, the ABI and fuzz tools,
#                                   the binding suites' toolchains
#   tools/install-deps.sh --cross   also the cross builds' (docs/contributing.md:
#                                   Linux aarch64 under qemu-user, Windows x64
#                                   with MinGW-w64 under Wine), adding Debian's
#                                   arm64 architecture for cmocka when missing,
#                                   and Debian's source lines (deb-src) when
#                                   apt knows no cmocka source: Debian ships
#                                   no cmocka for MinGW, so tools/test-cross.sh
#                                   builds it from Debian's source package
set -euo pipefail

case "${1:-}" in
  "" | --demo | --cross) ;;
  *)
    echo "usage: tools/install-deps.sh [--demo | --cross]" >&2
    exit 2
    ;;
esac

packages=(cmake make gcc g++ pkg-config libcmocka-dev libdlpack-dev python3)
if [ "${1:-}" != "--demo" ]; then
  packages+=(ninja-build doxygen
  # the ABI check (abidw, abidiff) and the fuzz target (clang with libFuzzer)
  abigail-tools clang libclang-rt-dev
  # the binding suites (tools/test-bindings.sh): Python with NumPy and
  # PyTorch, Rust, Go, and nm for the Julia ccall check; for the READMEs'
  # own commands, a venv with Debian's setuptools and wheel (pip install
  # --no-build-isolation) and the pkg-config crate of stride-sys, offline
  python3-numpy python3-torch cargo golang-go binutils
  python3-venv python3-setuptools python3-wheel librust-pkg-config-dev)
fi
if [ "${1:-}" = "--cross" ]; then
  packages+=(g++-aarch64-linux-gnu qemu-user libcmocka-dev:arm64 g++-mingw-w64-x86-64-posix wine64
    dpkg-dev)  # dpkg-dev: dpkg-source, which apt-get source unpacks with
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
need_sources=false
if [ "${1:-}" = "--cross" ] && ! apt-cache showsrc cmocka 2>/dev/null | grep -q '^Package: cmocka'; then
  need_sources=true
fi
if [ ${#missing[@]} -eq 0 ] && ! $need_sources; then
  echo "install-deps: nothing missing (${#packages[@]} packages${1:+ for $1} already installed)"
  exit 0
fi

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}
if $need_sources; then
  # The source lines of the binary ones already there: Debian 12's
  # deb822 file, or the one-line sources.list of older installs.
  echo "install-deps: adding Debian's source lines (deb-src) for apt-get source cmocka"
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
      as_root tee /etc/apt/sources.list.d/debian-src.sources >/dev/null
  else
    grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' |
      as_root tee /etc/apt/sources.list.d/debian-src.list >/dev/null
  fi
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
fi
if [[ " ${missing[*]} " == *":arm64 "* ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  as_root dpkg --add-architecture arm64
fi
as_root env DEBIAN_FRONTEND=noninteractive apt-get update
if [ ${#missing[@]} -gt 0 ]; then
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi
