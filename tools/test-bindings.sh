#!/usr/bin/env bash
# Runs the binding test suites, each with its own ecosystem's runner, against
# a built libstride.so.
#
#   tools/test-bindings.sh [--lib PATH] [--work DIR] [python] [rust] [go] [julia]
#
# PATH is libstride.so or the folder holding it; without --lib, $STRIDE_LIBRARY
# (a file), then $STRIDE_LIB_DIR (a folder), then build/src/libstride.so.
# DIR holds the runners' caches and build outputs (default: a temporary
# folder). No suite is given: all four. Needs Debian's python3-numpy,
# python3-torch, cargo and golang-go; nothing is fetched from the network.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lib=""
work=""
suites=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --lib) lib=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    python|rust|go|julia) suites+=("$1"); shift ;;
    *) echo "test-bindings.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ ${#suites[@]} -gt 0 ]] || suites=(python rust go julia)

if [[ -z $lib ]]; then
  lib=${STRIDE_LIBRARY:-${STRIDE_LIB_DIR:-$root/build/src}}
fi
[[ -d $lib ]] && lib=$lib/libstride.so
if [[ ! -f $lib ]]; then
  echo "test-bindings.sh: no library at $lib (build first, or pass --lib)" >&2
  exit 2
fi
lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")
libdir=$(dirname "$lib")
if [[ -z $work ]]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)

# Debian's interpreter: it sees Debian's numpy and torch, whatever python3 is first on PATH.
python=${STRIDE_PYTHON:-/usr/bin/python3}

need() {
  if ! command -v "$1" > /dev/null 2>&1; then
    echo "test-bindings.sh: '$1' not found; install $2" >&2
    exit 1
  fi
}

run_python() {
  need "$python" "python3 (Debian)"
  if ! "$python" -c "import numpy, torch" 2> /dev/null; then
    echo "test-bindings.sh: $python cannot import numpy and torch; install python3-numpy python3-torch" >&2
    exit 1
  fi
  (cd "$root/bindings/python/tests" &&
    PYTHONPATH="$root/bindings/python" STRIDE_LIBRARY="$lib" PYTHONDONTWRITEBYTECODE=1 \
      "$python" -m unittest discover -s . -t . -v)
}

run_rust() {
  local cargo
  cargo=$(command -v cargo || true)
  [[ -n $cargo ]] || { [[ -x $HOME/.cargo/bin/cargo ]] && cargo=$HOME/.cargo/bin/cargo; }
  [[ -n $cargo ]] || need cargo "cargo (Debian)"
  (cd "$root/bindings/rust" &&
    STRIDE_LIB_DIR="$libdir" CARGO_TARGET_DIR="$work/rust-target" "$cargo" test --offline)
}

run_go() {
  need go "golang-go"
  mkdir -p "$work/go/path" "$work/go/cache"
  (cd "$root/bindings/go" &&
    GOPATH="$work/go/path" GOCACHE="$work/go/cache" GOFLAGS=-mod=mod GOPROXY=off GO111MODULE=on \
      CGO_ENABLED=1 CGO_LDFLAGS="-L$libdir -Wl,-rpath,$libdir" \
      go test -count=1 -v ./...)
}

run_julia() {
  need "$python" "python3 (Debian)"
  need nm "binutils"
  "$python" "$root/tools/check_julia_ccalls.py" "$lib" &&
    (cd "$root/tools" && STRIDE_LIBRARY="$lib" PYTHONDONTWRITEBYTECODE=1 "$python" -m unittest -v test_check_julia_ccalls)
}

status=0
for s in "${suites[@]}"; do
  echo "=== bindings: $s (library $lib)"
  if ! "run_$s"; then
    echo "=== bindings: $s FAILED"
    status=1
  fi
done
exit $status
