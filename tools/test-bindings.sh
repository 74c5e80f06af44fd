#!/usr/bin/env bash
# Runs the binding test suites, each with its own ecosystem's runner, against
# a built libstride.so, and the bindings' READMEs against an installed one.
#
#   tools/test-bindings.sh [--lib PATH] [--work DIR] [--build DIR | --prefix DIR] [SUITE ...]
#
# SUITEs: python, rust, go, julia (the test suites: none given, these four;
# julia only where it is installed),
# and python-readme, rust-readme, go-readme: each binding README's commands,
# run as written by tools/run_readme.py from a scratch folder as on a fresh
# Debian 12 machine, against stride installed in a prefix; docs-readme does
# the same for "Use an installed stride" in docs/getting-started.md, and
# python-clone-readme runs the Python README's install from the clone
# (pip builds libstride with CMake: minutes; not run by ctest). The Python
# suite and python-readme also install with a second CPython when there is
# one ($STRIDE_SECOND_PYTHON, else a python3 on PATH that is not Debian's).
# PATH is libstride.so or the folder holding it; without --lib, $STRIDE_LIBRARY
# (a file), then $STRIDE_LIB_DIR (a folder), then build/src/libstride.so.
# The README suites use the install at --prefix DIR, or install the CMake
# build tree --build DIR (default: the tree the library was built in) into
# a scratch prefix with `cmake --install`.
# DIR holds the runners' caches and build outputs (default: a temporary
# folder). Needs Debian's python3-numpy, python3-torch, python3-venv,
# cargo, librust-pkg-config-dev, golang-go and pkg-config; nothing is
# fetched from the network.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
lib=""
work=""
build=""
prefix=""
suites=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --lib) lib=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --prefix) prefix=$2; shift 2 ;;
    python|rust|go|julia|python-readme|python-clone-readme|rust-readme|go-readme|docs-readme) suites+=("$1"); shift ;;
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
# A library built with AddressSanitizer (STRIDE_SANITIZE=address;undefined):
# Python and the Rust tests run with the ASan runtime loaded first (they are
# not instrumented), Go's suite with -asan instead of -race (the two exclude
# each other); leaks are not checked (the runners' own allocations are not
# freed at exit).
# The library's own NEEDED entries are read first: ldd runs the loader,
# which can fail under load, and then Python would load the ASan runtime
# late and abort.
asan_runtime=""
if { readelf -d "$lib" 2> /dev/null || ldd "$lib" 2> /dev/null; } | grep -q 'libasan'; then
  asan_runtime=$(gcc -print-file-name=libasan.so)
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
fi
if [[ -z $work ]]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)

# Debian's interpreter: it sees Debian's numpy and torch, whatever python3 is first on PATH.
python=${STRIDE_PYTHON:-/usr/bin/python3}
# Another CPython the Python package must install with (bindings/python/README.md, "Tests"):
# $STRIDE_SECOND_PYTHON, else the python3 first on PATH when it is not Debian's (a pyenv one).
second_python() {
  local found=${STRIDE_SECOND_PYTHON:-}
  if [[ -z $found ]] && command -v python3 > /dev/null 2>&1; then
    found=$(python3 -c 'import sys; print(sys.executable)' 2> /dev/null || true)
  fi
  if [[ -n $found && $(realpath "$found") != $(realpath "$python") ]]; then
    echo "$found"
  fi
}
# Debian's registry of Rust crates (librust-*-dev), in place of crates.io: offline.
debian_crates=(--config 'source.crates-io.replace-with="debian"'
  --config 'source.debian.directory="/usr/share/cargo/registry"')

need() {
  if ! command -v "$1" > /dev/null 2>&1; then
    echo "test-bindings.sh: '$1' not found; install $2" >&2
    exit 1
  fi
}

find_cargo() {
  cargo=$(command -v cargo || true)
  [[ -n $cargo ]] || { [[ -x $HOME/.cargo/bin/cargo ]] && cargo=$HOME/.cargo/bin/cargo; }
  [[ -n $cargo ]] || need cargo "cargo (Debian)"
  if [[ ! -d /usr/share/cargo/registry ]]; then
    echo "test-bindings.sh: no Debian crate registry; install librust-pkg-config-dev" >&2
    exit 1
  fi
}

run_python() {
  need "$python" "python3 (Debian)"
  if ! "$python" -c "import numpy, torch" 2> /dev/null; then
    echo "test-bindings.sh: $python cannot import numpy and torch; install python3-numpy python3-torch" >&2
    exit 1
  fi
  # Python itself links no libstdc++: ASan must find it loaded at start to catch C++ exceptions.
  local preload=${LD_PRELOAD:-}
  [[ -z $asan_runtime ]] || preload="$asan_runtime $(gcc -print-file-name=libstdc++.so)"
  (cd "$root/bindings/python/tests" &&
    PYTHONPATH="$root/bindings/python" STRIDE_LIBRARY="$lib" PYTHONDONTWRITEBYTECODE=1 LD_PRELOAD="$preload" \
      STRIDE_SECOND_PYTHON="$(second_python)" "$python" -m unittest discover -s . -t . -v)
}

run_rust() {
  find_cargo
  local runner=()
  [[ -z $asan_runtime ]] || runner=(--config "target.'cfg(all())'.runner=[\"env\", \"LD_PRELOAD=$asan_runtime\"]")
  (cd "$root/bindings/rust" &&
    STRIDE_LIB_DIR="$libdir" CARGO_TARGET_DIR="$work/rust-target" "$cargo" test --offline "${debian_crates[@]}" \
      "${runner[@]}")
}

# stride.pc for the build tree: the checkout's header and the built library.
build_tree_pc() {
  mkdir -p "$work/pkgconfig"
  cat > "$work/pkgconfig/stride.pc" << EOF
Name: stride
Description: stride build tree
Version: $(sed -n 's/^#define ST_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' "$root/include/stride.h" | paste -sd.)
Libs: -L$libdir -lstride
Cflags: -I$root/include
EOF
}

run_go() {
  need go "golang-go"
  need pkg-config "pkg-config"
  build_tree_pc
  mkdir -p "$work/go/path" "$work/go/cache"
  # -race (-asan against an ASan library) and cgocheck=2: the finalizer
  # stress test (keepalive_test.go) and every cgo call are checked for
  # races, for memory errors and for Go pointers handed to C.
  local checker=-race
  [[ -z $asan_runtime ]] || checker=-asan
  (cd "$root/bindings/go" &&
    PKG_CONFIG_PATH="$work/pkgconfig" GOPATH="$work/go/path" GOCACHE="$work/go/cache" GOFLAGS=-mod=mod \
      GOPROXY=off GO111MODULE=on CGO_ENABLED=1 CGO_LDFLAGS="-Wl,-rpath,$libdir" GODEBUG=cgocheck=2 \
      go test "$checker" -count=1 -v ./...)
}

# Without julia on the PATH the suite is skipped (status 77, which ctest reports as skipped).
run_julia() {
  if ! command -v julia > /dev/null 2>&1; then
    echo "test-bindings.sh: julia not found; the Julia suite is skipped (its ccalls are generated: tools/gen_bindings.py)"
    return 77
  fi
  (cd "$root" && STRIDE_LIBRARY="$lib" julia --project=bindings/julia bindings/julia/test/runtests.jl)
}

# The install the README suites run against: --prefix, or the build tree installed into $work/prefix
# (again each time: cmake --install copies what changed).
installed_prefix() {
  if [[ -n $prefix ]]; then
    (cd "$prefix" && pwd)
    return
  fi
  local tree=${build:-$(dirname "$libdir")}
  if [[ ! -f $tree/CMakeCache.txt ]]; then
    echo "test-bindings.sh: $tree is not a CMake build tree; pass --build or --prefix" >&2
    exit 2
  fi
  cmake --install "$tree" --prefix "$work/prefix" > "$work/install.log"
  echo "$work/prefix"
}

# readme NAME FILE ARGS...: runs FILE's commands (run_readme.py ARGS) in $work/readme-NAME.
readme() {
  local name=$1 file=$2
  shift 2
  need "$python" "python3 (Debian)"
  local p
  p=$(installed_prefix)
  "$python" "$root/tools/run_readme.py" "$root/$file" --dir "$work/readme-$name" \
    --env STRIDE_SRC="$root" --env STRIDE_PREFIX="$p" "$@"
}

run_docs-readme() {
  readme docs docs/getting-started.md --section "From CMake" --section "With pkg-config"
}

run_python-readme() {
  readme python bindings/python/README.md --section "With stride installed" --section "A first program" \
    --section "With NumPy and PyTorch" --section "Normalize a batch for a network" \
    --section "Block-scaled formats"
  local second
  second=$(second_python)
  if [[ -z $second ]]; then
    echo "test-bindings.sh: no second Python (\$STRIDE_SECOND_PYTHON, or a python3 on PATH other than $python):" \
      "the README ran with $python only"
    return
  fi
  # Its folder first on the PATH: `python3` in the README is that interpreter (it has no NumPy: the
  # programs that need it stay with Debian's).
  echo "=== the Python README again with $second"
  readme python-second bindings/python/README.md --section "With stride installed" --section "A first program" \
    --env PATH="$(dirname "$second"):/usr/local/bin:/usr/bin:/bin"
}

# Not in ctest: pip builds libstride with CMake (minutes), in bindings/python/build.
run_python-clone-readme() {
  readme python-clone bindings/python/README.md --section "From a clone" --section "A first program"
}

run_rust-readme() {
  need /usr/bin/cargo "cargo (Debian)"
  readme rust bindings/rust/README.md --section "Use it from your program"
}

run_go-readme() {
  need /usr/bin/go "golang-go (Debian)"
  mkdir -p "$work/go/cache"
  # Offline, and with the runner's build cache (the standard library is not rebuilt each time).
  readme go bindings/go/README.md --section "Use it from your program" --env GOPROXY=off --env GOCACHE="$work/go/cache"
}

status=0
ran=0
for s in "${suites[@]}"; do
  echo "=== bindings: $s (library $lib)"
  rc=0
  "run_$s" || rc=$?
  if [[ $rc -eq 77 ]]; then
    echo "=== bindings: $s SKIPPED"
    continue
  fi
  ran=1
  if [[ $rc -ne 0 ]]; then
    echo "=== bindings: $s FAILED"
    status=1
  fi
done
# Every suite asked for skipped: say so to ctest.
[[ $ran -eq 1 || $status -ne 0 ]] || exit 77
exit $status
