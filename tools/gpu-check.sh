#!/usr/bin/env bash
# What a machine with an NVIDIA GPU should run, in one command that ends
# within a time budget (8 minutes by default) and leaves its logs behind as
# it goes, so that a run stopped from outside still tells what it did.
#
# A GPU machine where nothing can be installed (no package manager, no
# network), that runs a command in the repository root, can be sent ignored
# folders along, and returns the files written under the folder named by
# $OUT (at most 8 files):
#
#   here, on Debian or Ubuntu:  tools/gpu-check.sh --prepare
#       puts the .deb files of what such an image lacks (cmocka, dlpack,
#       pkg-config) into .gpu-deps/ (git-ignored, well under 1 MB)
#   there, with .gpu-deps sent along, one command (about 8 minutes):
#       tools/gpu-check.sh
#   then, one sanitizer tool per command, for example:
#       tools/gpu-check.sh --sanitize memcheck test_copy_plans_gpu test_copy_gpu test_gpu_runtime
#
# The files under $OUT: summary.txt (one line per step, written when the
# step ends; the test results with skip reasons; the bench table), info.txt,
# build.log, tests.log, bench.txt, bench.csv, sanitize-TOOL.log. Without
# $OUT they go to BUILD/gpu-check/.
#
# Usage:
#   tools/gpu-check.sh --prepare
#   tools/gpu-check.sh [STEP ...]        default: info build tests bench
#   tools/gpu-check.sh --sanitize TOOL [PROGRAM ...]
#
# Steps:
#   info       nvidia-smi, the driver, the toolkit's tools
#   build      unpack .gpu-deps/*.deb (when there) into BUILD/deps and point
#              CMake at it; configure the preset gpu (CMakePresets.json:
#              Release, -lineinfo, no examples, docs or binding suites; Ninja
#              where installed) for this machine's GPUs only (SASS for their
#              compute capability from the library's PTX, as a source build
#              here would); build only the GPU test programs, the host-side
#              CUDA tests and stride-bench
#   tests      ctest -L gpu, each GPU test once, each with a time limit;
#              then the host-side CUDA tests (label cuda, not gpu, without
#              the slow cuda.kernel_code). With a GPU present a GPU test
#              that answers "skipped" (exit 77) is a failure.
#   bench      stride-bench --device cuda at full size (table and CSV)
#   stress     the stream stress test alone, 5 times        (not by default)
#   probe      the blocking probe alone                      (not by default)
#   loading    ctest -L gpu with CUDA_MODULE_LOADING=EAGER and =LAZY
#                                                            (not by default)
# --sanitize TOOL runs compute-sanitizer's TOOL (memcheck, racecheck,
# synccheck or initcheck) over the named test programs (default: every GPU
# test program), each under a time limit, after the build step. Under it
# test_copy_gpu runs about 1/ST_GPU_TRIM of its cases (default 20) without
# its 2 GiB copy, and test_gpu_runtime without the blocking probe (a timing).
#
# Environment: STRIDE_GPU_BUILD_DIR (build-gpu), STRIDE_JOBS (nproc),
# STRIDE_GPU_BUDGET (480 s for the whole command), STRIDE_GPU_TEST_TIMEOUT
# (180 s per test), STRIDE_SANITIZE_TIMEOUT (150 s per program), ST_GPU_TRIM.
# Without a GPU the build and the host-side tests run, the GPU tests and
# the bench say why they are skipped. Exit status: 0 when nothing failed.
# The steps are called by name (step_$s):
# shellcheck disable=SC2317
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
root=$PWD
deps_dir="$root/.gpu-deps"
build="${STRIDE_GPU_BUILD_DIR:-build-gpu}"
case $build in /*) ;; *) build="$root/$build" ;; esac
jobs="${STRIDE_JOBS:-$(nproc)}"
budget="${STRIDE_GPU_BUDGET:-480}"
test_timeout="${STRIDE_GPU_TEST_TIMEOUT:-180}"
sanitize_timeout="${STRIDE_SANITIZE_TIMEOUT:-150}"
bench_reserve=90  # seconds the tests step leaves for the bench when both run
logs="${OUT:-$build/gpu-check}"
summary="$logs/summary.txt"
failed=0
deps_args=()

die() {
  echo "gpu-check: $*" >&2
  exit 2
}

# One line per step in summary.txt, written at once (a run stopped later
# still has it), and on the console.
record() {  # step status text
  local line
  line=$(printf '%-9s %-7s %s' "$1" "$2" "$3")
  printf '%s\n' "$line" >>"$summary"
  echo "gpu-check: $line"
  case $2 in FAILED | TIMEOUT) failed=1 ;; esac
  return 0
}

left() { echo $((budget - SECONDS)); }

# Keeps a log under the 16 MB a returned file may have: its last 15 MB.
cap_log() {
  local f=$1
  if [ -f "$f" ] && [ "$(stat -c %s "$f")" -gt 15000000 ]; then
    tail -c 15000000 "$f" >"$f.tail" && mv "$f.tail" "$f"
  fi
}

# The GPUs of this machine: nvidia-smi's list, else the device nodes (a
# driver that nvidia-smi cannot talk to still leaves a GPU that the tests
# must not count as absent).
gpu_count() {
  local n=0
  command -v nvidia-smi >/dev/null && n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  [ "$n" -eq 0 ] && n=$(find /dev -maxdepth 1 -name 'nvidia[0-9]*' 2>/dev/null | wc -l)
  echo "$n"
}

have_gpu() { [ "$(gpu_count)" -gt 0 ]; }

# This machine's GPUs as SASS architectures ("90", "80;90"); those below
# 7.5, which the library does not support, left out. Empty without a GPU.
gpu_architectures() {
  have_gpu || return 0
  nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d ' .' |
    awk '$1 ~ /^[0-9]+$/ && $1 >= 75' | sort -u | paste -sd ';' -
}

# ---- --prepare: on Debian or Ubuntu, with network.

prepare() {
  if ! command -v apt-get >/dev/null || ! command -v dpkg >/dev/null; then
    die "--prepare needs apt-get and dpkg (Debian or Ubuntu)"
  fi
  # cmocka and its library, the DLPack header and its CMake package,
  # pkg-config (pkgconf) and its library: what the tests' configure needs.
  local packages=(libcmocka0 libcmocka-dev libdlpack-dev pkgconf-bin libpkgconf3)
  local opts=()
  if [ "$(dpkg --print-architecture)" != amd64 ]; then
    # The GPU machine is x86-64: amd64 packages, from package lists of their own.
    local lists=/tmp/stride-apt-lists-amd64
    mkdir -p "$lists/partial"
    opts=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 "-oDir::State::Lists=$lists")
    apt-get "${opts[@]}" update || die "apt-get update for amd64 failed"
  fi
  # As root, apt downloads as the user _apt, who cannot write into a folder
  # root owns here: download as root instead of warning about it.
  [ "$(id -u)" = 0 ] && opts+=(-oAPT::Sandbox::User=root)
  local p
  for p in "${packages[@]}"; do
    apt-cache "${opts[@]}" show "$p" >/dev/null 2>&1 ||
      die "no package '$p' in the package lists (apt-get update first?)"
  done
  mkdir -p "$deps_dir"
  rm -f "$deps_dir"/*.deb
  (cd "$deps_dir" && apt-get "${opts[@]}" download "${packages[@]}") || die "apt-get download failed"
  ls -l "$deps_dir"
  echo "gpu-check: $(du -sh "$deps_dir" | cut -f1) in .gpu-deps/: send it along with the repository (it is git-ignored)"
}

# ---- What .gpu-deps/ brings, unpacked into a prefix of this build.

unpack_deb() {  # file dir
  if command -v dpkg-deb >/dev/null; then
    dpkg-deb -x "$1" "$2"
    return
  fi
  # Without dpkg: a .deb is an ar archive whose data.tar.* holds the files.
  local tmp rc
  tmp=$(mktemp -d) || return 1
  (cd "$tmp" && ar x "$1") && tar -xf "$tmp"/data.tar.* -C "$2"
  rc=$?
  rm -rf "$tmp"
  return $rc
}

use_deps() {
  local debs=()
  [ -d "$deps_dir" ] && mapfile -t debs < <(find "$deps_dir" -maxdepth 1 -name '*.deb' | sort)
  if [ ${#debs[@]} -eq 0 ]; then
    record deps passed "no .gpu-deps/: the system's cmocka, dlpack and pkg-config"
    return 0
  fi
  local prefix="$build/deps" f
  rm -rf "$prefix"
  mkdir -p "$prefix"
  for f in "${debs[@]}"; do
    unpack_deb "$f" "$prefix" || {
      record deps FAILED "could not unpack $f"
      return 1
    }
  done
  # The .pc files name /usr (cmocka.pc: -I/usr/include, -L/usr/lib/...): the prefix instead.
  local pc
  while IFS= read -r pc; do
    sed -E -i "s#(^[A-Za-z_]+=|-I|-L)/usr(/|\$)#\1$prefix/usr\2#g" "$pc"
  done < <(find "$prefix" -name '*.pc')
  local pcdirs libdirs
  pcdirs=$(find "$prefix" -type d -name pkgconfig | paste -sd : -)
  libdirs=$(find "$prefix/usr/lib" -maxdepth 2 \( -name 'libcmocka.so*' -o -name 'libpkgconf.so*' \) \
    -printf '%h\n' 2>/dev/null | sort -u | paste -sd : -)
  export PKG_CONFIG_PATH="$pcdirs${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  export LD_LIBRARY_PATH="$libdirs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  # dlpackConfig.cmake lies under usr/lib/<arch>/cmake, which CMake searches
  # below a prefix. CMake would find the unpacked pkgconf there too, before
  # the system's; that one loads only with LD_LIBRARY_PATH as set here, so it
  # is named only where the machine has no pkg-config of its own.
  deps_args=("-DCMAKE_PREFIX_PATH=$prefix/usr")
  local pkg_config
  pkg_config=$(command -v pkg-config || echo "$prefix/usr/bin/pkgconf")
  deps_args+=("-DPKG_CONFIG_EXECUTABLE=$pkg_config")
  record deps passed "${#debs[@]} .deb files of .gpu-deps/ unpacked into $prefix"
}

# ---- Steps.

step_info() {
  {
    echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')   commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
    if command -v nvidia-smi >/dev/null; then
      nvidia-smi || true
      nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total,clocks.max.sm,clocks.max.memory \
        --format=csv || true
    else
      echo "nvidia-smi: not found"
    fi
    local tool
    for tool in nvcc cuobjdump compute-sanitizer ncu cmake ninja gcc pkg-config dpkg-deb; do
      printf '%-18s %s\n' "$tool" "$(command -v "$tool" || echo 'not found')"
    done
    nvcc --version 2>/dev/null | tail -2
    cmake --version | head -1
  } >"$logs/info.txt" 2>&1
  if have_gpu; then
    record info passed "$(nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader 2>&1 |
      paste -sd ';' -)"
  else
    record info passed "no GPU on this machine (info.txt)"
  fi
}

# The programs the tests step runs: the GPU tests (tests/CMakeLists.txt
# gives tests/c/test_gpu_*.c and tests/cuda/test_*.cu the label gpu), the
# host-side CUDA tests (tests/cuda/test_*.cpp) and stride-bench (the GPU
# test bench.cuda_quick, and the bench).
gpu_test_programs() {
  local f
  for f in tests/c/test_gpu_*.c tests/cuda/test_*.cu; do
    [ -e "$f" ] && basename "${f%.*}"
  done
}
check_targets() {
  gpu_test_programs
  local f
  for f in tests/cuda/test_*.cpp; do
    [ -e "$f" ] && basename "${f%.*}"
  done
  echo stride-bench
}

# CMake 3.25 or newer: it reads CMakePresets.json (schema version 6).
cmake_reads_presets() {
  local version
  version=$(cmake --version | sed -n '1s/^cmake version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
  set -- $version
  [ "${1:-0}" -gt 3 ] || { [ "${1:-0}" -eq 3 ] && [ "${2:-0}" -ge 25 ]; }
}

step_build() {  # [target ...] (default: check_targets)
  local targets=("$@")
  [ ${#targets[@]} -eq 0 ] && mapfile -t targets < <(check_targets)
  if [ "$(left)" -lt 60 ]; then
    record build FAILED "not run: $(left) s of the budget left"
    return 1
  fi
  use_deps || return 1
  local sass
  sass=$(gpu_architectures)
  # The preset gpu of CMakePresets.json, in $build, for this machine's
  # GPUs, with what .gpu-deps/ brought. A CMake before 3.25 cannot read the
  # presets' schema: it gets the preset as arguments (tools/preset_args.py).
  local args=()
  if cmake_reads_presets; then
    args=(--preset gpu -B "$build")
  else
    mapfile -t args < <(python3 "$root/tools/preset_args.py" gpu)
    args=(-S "$root" -B "$build" "${args[@]:2}")  # without the preset's -G Ninja, chosen below
    command -v ninja >/dev/null && [ ! -f "$build/CMakeCache.txt" ] && args+=(-G Ninja)
  fi
  if cmake_reads_presets && [ ! -f "$build/CMakeCache.txt" ] && ! command -v ninja >/dev/null; then
    args+=(-G "Unix Makefiles")  # the preset's Ninja is not installed here
  fi
  args+=("-DSTRIDE_CUDA_SASS=$sass" "${deps_args[@]}")
  if command -v ccache >/dev/null; then
    export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_CUDA_COMPILER_LAUNCHER=ccache
  fi
  local log="$logs/build.log" start=$SECONDS rc
  : >"$log"
  echo "gpu-check: configuring (SASS: ${sass:-none, PTX only}); log: $log"
  timeout -k 10 "$(left)" cmake "${args[@]}" >>"$log" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    tail -n 30 "$log"
    record build FAILED "configure failed (exit $rc; build.log)"
    return 1
  fi
  echo "gpu-check: building ${#targets[@]} targets with $jobs jobs"
  timeout -k 10 "$(left)" cmake --build "$build" -j "$jobs" --target "${targets[@]}" >>"$log" 2>&1
  rc=$?
  cap_log "$log"
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    record build TIMEOUT "stopped at the budget after $((SECONDS - start)) s (build.log)"
    return 1
  elif [ $rc -ne 0 ]; then
    grep -E -m 20 'error|FAILED' "$log"
    record build FAILED "exit $rc after $((SECONDS - start)) s (build.log)"
    return 1
  fi
  record build passed "$((SECONDS - start)) s, ${#targets[@]} targets, SASS ${sass:-none} + PTX, in $build"
}

# ctest's result lines ("3/9 Test #4: c.test_gpu_x ....***Skipped  0.01 sec"),
# each program's "skipped: <why>" lines and cmocka's "[  FAILED  ] <case>"
# lines (ctest -V prefixes them with the test's number) give one line per
# test, with the reasons of its skips and the cases that failed.
summarize_ctest() {  # log
  awk '
    /^ *[0-9]+\/[0-9]+ +Test +#[0-9]+: / {
      line = $0
      sub(/^ *[0-9]+\/[0-9]+ +Test +#/, "", line)
      num = line; sub(/:.*/, "", num)
      sub(/^[0-9]+: +/, "", line)
      name = line; sub(/ .*/, "", name)
      rest = substr(line, length(name) + 1)
      secs = rest; sub(/^.* +/, "", secs)  # "sec"
      sub(/ +[0-9.]+ +sec *$/, "", rest)
      sub(/^[ .*]+/, "", rest)
      status[num] = rest; names[num] = name; order[++n] = num
      next
    }
    /^[0-9]+: Test command: / { next }
    /^[0-9]+: \[  FAILED  \] [A-Za-z_0-9]+ *$/ {
      num = $0; sub(/:.*/, "", num)
      case_name = $0; sub(/^.*FAILED  \] /, "", case_name); sub(/ *$/, "", case_name)
      if (index(" " failures[num] " ", " " case_name " ") == 0) failures[num] = failures[num] " " case_name
      next
    }
    /^[0-9]+: .*skipped: / {
      num = $0; sub(/:.*/, "", num)
      why = $0; sub(/^[^:]*: .*skipped: /, "", why)
      if (index(reasons[num], why) == 0) reasons[num] = reasons[num] (reasons[num] == "" ? "" : "; ") why
    }
    END {
      for (i = 1; i <= n; ++i) {
        num = order[i]
        text = reasons[num] == "" ? "" : (status[num] == "Skipped" ? "  why: " : "  inside, skipped: ") reasons[num]
        if (failures[num] != "") text = text "  failed:" failures[num]
        printf "  %-8s %-40s%s\n", status[num], names[num], text
      }
    }' "$1"
}

run_ctest() {  # limit log ctest-args...
  local limit=$1 log=$2
  shift 2
  echo "=== ctest $*" >>"$log"
  timeout -k 10 "$limit" ctest --test-dir "$build" --timeout "$test_timeout" -V "$@" 2>&1 | tee -a "$log" |
    grep --line-buffered -E '^ *[0-9]+/[0-9]+ +Test +#'
  return "${PIPESTATUS[0]}"
}

step_tests() {
  local log="$logs/tests.log" reserve=0 start=$SECONDS
  : >"$log"
  [[ " ${steps[*]} " == *" bench "* ]] && reserve=$bench_reserve
  local limit=$(($(left) - reserve))
  if [ "$limit" -lt 30 ]; then
    record tests FAILED "not run: $(left) s of the budget left"
    return
  fi
  run_ctest "$limit" "$log" -L gpu
  local rc=$?
  local gpu_results
  gpu_results=$(summarize_ctest "$log")
  {
    echo "GPU tests (ctest -L gpu, at most $test_timeout s each):"
    printf '%s\n' "$gpu_results"
  } | tee -a "$summary"
  local total passed skipped bad
  total=$(printf '%s\n' "$gpu_results" | grep -c '^  [A-Z]')
  passed=$(printf '%s\n' "$gpu_results" | grep -c '^  Passed ')
  skipped=$(printf '%s\n' "$gpu_results" | grep -c '^  Skipped ')
  bad=$((total - passed - skipped))
  local listed_names listed unreached
  listed_names=$(ctest --test-dir "$build" -N -L gpu 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: //p' | sort)
  listed=$(printf '%s\n' "$listed_names" | grep -c .)
  unreached=$(comm -23 <(printf '%s\n' "$listed_names") <(printf '%s\n' "$gpu_results" | awk 'NF { print $2 }' | sort) |
    paste -sd ' ' -)
  local counts="$total of $listed run: $passed passed, $bad failed, $skipped skipped${unreached:+; not finished: $unreached}"
  # With a GPU, the one skip that stands is a test of two devices on a machine with one.
  local gpus unexpected=$skipped
  gpus=$(gpu_count)
  if [ "$gpus" -eq 1 ]; then
    unexpected=$(printf '%s\n' "$gpu_results" | grep '^  Skipped ' | grep -vc 'needs two CUDA devices')
  fi
  if [ "$listed" -eq 0 ]; then
    record tests FAILED "no test labelled gpu in $build (ctest exit $rc; build step run?)"
  elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    record tests TIMEOUT "$counts; ctest stopped at the budget after $((SECONDS - start)) s"
  elif [ "$bad" -gt 0 ] || [ "$total" -lt "$listed" ]; then
    record tests FAILED "$counts"
  elif [ "$gpus" -gt 0 ] && [ "$unexpected" -gt 0 ]; then
    record tests FAILED "$counts: with a GPU present, $unexpected of the skips are failures"
  elif [ "$gpus" -eq 0 ] && [ "$skipped" -gt 0 ]; then
    record tests skipped "$counts (no GPU)"
  elif [ "$skipped" -gt 0 ]; then
    record tests passed "$counts (tests of two GPUs, on a machine with one)"
  else
    record tests passed "$counts"
  fi
  local probe
  probe=$(grep -o 'returned in [0-9]* us[^)]*)' "$log" | head -1)
  [ -n "$probe" ] && record probe info "the blocking probe $probe"

  # The host-side CUDA tests: label cuda without gpu; cuda.kernel_code
  # (ptxas for every released architecture) is left to the host's suites.
  limit=$(($(left) - reserve))
  if [ "$limit" -lt 20 ]; then
    record host FAILED "host-side CUDA tests not run: $(left) s of the budget left"
    return
  fi
  local mark
  mark=$(wc -l <"$log")
  if run_ctest "$limit" "$log" -L cuda -LE gpu -E '^cuda\.kernel_code$'; then
    record host passed "host-side CUDA tests (ctest -L cuda -LE gpu, without cuda.kernel_code)"
  else
    tail -n +"$((mark + 1))" "$log" | summarize_ctest /dev/stdin | grep -v '^  Passed ' | tee -a "$summary"
    record host FAILED "host-side CUDA tests (tests.log)"
  fi
  cap_log "$log"
}

step_bench() {
  local exe="$build/bench/stride-bench" start=$SECONDS limit
  limit=$(left)
  if [ "$limit" -lt 20 ]; then
    record bench FAILED "not run: $limit s of the budget left"
    return
  fi
  if [ ! -x "$exe" ]; then
    record bench FAILED "$exe was not built"
    return
  fi
  timeout -k 10 "$limit" "$exe" --device cuda --csv "$logs/bench.csv" 2>&1 | tee "$logs/bench.txt"
  local rc=${PIPESTATUS[0]}
  # The table, from its header on, without the progress lines and the CSV's path.
  awk '/^case +MB moved/ { p = 1 } p && !/^\[cuda\]/ && !/^CSV written/' "$logs/bench.txt" >>"$summary"
  if [ "$rc" -eq 0 ]; then
    record bench passed "$((SECONDS - start)) s; table in bench.txt and above, CSV in bench.csv"
  elif [ "$rc" -eq 77 ] && ! have_gpu; then
    record bench skipped "no GPU ($(grep -m1 'skipped' "$logs/bench.txt"))"
  elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    record bench TIMEOUT "stopped at the budget after $((SECONDS - start)) s (bench.txt has what it printed)"
  else
    record bench FAILED "stride-bench --device cuda: exit $rc (bench.txt)"
  fi
}

step_stress() {
  if ! have_gpu; then
    record stress skipped "no GPU"
    return
  fi
  local run bad=0
  for run in 1 2 3 4 5; do
    echo "=== the stream stress test, run $run" >>"$logs/tests.log"
    timeout -k 10 "$test_timeout" "$build"/tests/test_gpu_runtime threads_with_their_own_streams_share_tensors \
      >>"$logs/tests.log" 2>&1 || bad=1
  done
  if [ "$bad" -eq 0 ]; then
    record stress passed "the stream stress test 5 times"
  else
    record stress FAILED "the stream stress test (tests.log)"
  fi
}

step_probe() {
  if ! have_gpu; then
    record probe skipped "no GPU"
    return
  fi
  local mark
  mark=$(wc -l <"$logs/tests.log" 2>/dev/null || echo 0)
  if timeout -k 10 "$test_timeout" "$build"/tests/test_gpu_runtime \
    a_non_blocking_pinned_copy_does_not_wait_for_other_streams >>"$logs/tests.log" 2>&1; then
    record probe passed "$(tail -n +"$((mark + 1))" "$logs/tests.log" | grep -o 'returned in [0-9]* us[^)]*)' | head -1)"
  else
    record probe FAILED "the blocking probe (tests.log)"
  fi
}

step_loading() {
  if ! have_gpu; then
    record loading skipped "no GPU: module loading modes need a device"
    return
  fi
  local mode
  for mode in EAGER LAZY; do
    if CUDA_MODULE_LOADING=$mode run_ctest "$(left)" "$logs/tests.log" -L gpu >/dev/null; then
      record loading passed "CUDA_MODULE_LOADING=$mode ctest -L gpu"
    else
      record loading FAILED "CUDA_MODULE_LOADING=$mode ctest -L gpu (tests.log)"
    fi
  done
}

# ---- --sanitize TOOL [PROGRAM ...]

find_sanitizer() {
  command -v compute-sanitizer && return
  local p
  for p in /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
    [ -x "$p" ] && echo "$p" && return
  done
}

check_sanitize_args() {  # TOOL [PROGRAM ...]
  case ${1:-} in
    memcheck | racecheck | synccheck | initcheck) ;;
    *) die "--sanitize wants one of memcheck, racecheck, synccheck, initcheck, got '${1:-}'" ;;
  esac
  shift
  local p
  for p in "$@"; do
    [ "$p" = stride-bench ] || [ -e "tests/c/$p.c" ] || [ -e "tests/cuda/$p.cu" ] || [ -e "tests/cuda/$p.cpp" ] ||
      die "no test program '$p' (tests/c/$p.c, tests/cuda/$p.cu or .cpp, stride-bench)"
  done
}

sanitize() {  # TOOL [PROGRAM ...], checked by check_sanitize_args
  local tool=$1 p
  shift
  local programs=("$@")
  [ ${#programs[@]} -eq 0 ] && mapfile -t programs < <(gpu_test_programs)
  step_build "${programs[@]}" || return
  local cs
  cs=$(find_sanitizer)
  if [ -z "$cs" ]; then
    record "$tool" skipped "compute-sanitizer not found (it comes with the CUDA toolkit)"
    return
  fi
  if ! have_gpu; then
    record "$tool" skipped "no GPU: compute-sanitizer needs a device"
    return
  fi
  local log="$logs/sanitize-$tool.log"
  : >"$log"
  for p in "${programs[@]}"; do
    local exe="$build/tests/$p" args=() envs=(ST_NUM_THREADS=2)
    case $p in
      stride-bench) exe="$build/bench/stride-bench" args=(--device cuda --quick) ;;
      # A sixth or so of the cases, no 2 GiB copy: every launch is far slower under the tool.
      test_copy_gpu) envs+=("ST_GPU_TRIM=${ST_GPU_TRIM:-20}") ;;
      # Every test but the blocking probe, a timing.
      test_gpu_runtime) args=(-a_non_blocking_pinned_copy_does_not_wait_for_other_streams) ;;
    esac
    local limit=$sanitize_timeout
    [ "$(left)" -lt "$limit" ] && limit=$(left)
    if [ "$limit" -lt 20 ]; then
      record "$tool" FAILED "$p not run: $(left) s of the budget left"
      continue
    fi
    if [ ! -x "$exe" ]; then
      record "$tool" FAILED "$p: no program $exe"
      continue
    fi
    local mark start=$SECONDS rc
    mark=$(wc -l <"$log")
    echo "=== ${envs[*]} compute-sanitizer --tool $tool $p ${args[*]}" >>"$log"
    env "${envs[@]}" timeout -k 10 "$limit" "$cs" --tool "$tool" --error-exitcode 99 "$exe" "${args[@]}" \
      >>"$log" 2>&1
    rc=$?
    local errors
    errors=$(tail -n +"$((mark + 1))" "$log" | grep -o 'ERROR SUMMARY: [0-9]* errors*' | tail -1)
    errors=${errors#ERROR SUMMARY: }
    local took="$((SECONDS - start)) s"
    case $rc in
      0) record "$tool" passed "$p: ${errors:-no summary}, $took" ;;
      99) record "$tool" FAILED "$p: $errors, $took (sanitize-$tool.log)" ;;
      77) record "$tool" FAILED "$p answered skipped (77) with a GPU present" ;;
      124 | 137) record "$tool" TIMEOUT "$p stopped after $took: not checked to the end" ;;
      *) record "$tool" FAILED "$p: exit $rc under the tool, ${errors:-no summary}, $took (sanitize-$tool.log)" ;;
    esac
  done
  cap_log "$log"
}

# ---- Main.

case ${1:-} in
  --prepare)
    prepare
    exit 0
    ;;
  -h | --help)
    sed -n '2,/^# The steps are called/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
  --sanitize)
    check_sanitize_args "${@:2}"
    steps=(build)
    ;;
  *)
    steps=("$@")
    [ ${#steps[@]} -eq 0 ] && steps=(info build tests bench)
    for s in "${steps[@]}"; do
      case $s in
        info | build | tests | bench | stress | probe | loading) ;;
        *) die "unknown step '$s' (tools/gpu-check.sh --help)" ;;
      esac
    done
    ;;
esac

mkdir -p "$logs" || die "cannot write to $logs"
first=1
[ -f "$summary" ] && first=$(($(wc -l <"$summary") + 1))
echo "=== gpu-check $* ($(date -u '+%Y-%m-%d %H:%M UTC'), budget ${budget} s, logs in $logs)" >>"$summary"

if [ "${1:-}" = "--sanitize" ]; then
  sanitize "${@:2}"
else
  for s in "${steps[@]}"; do
    echo "=== gpu-check: $s ($(left) s of the budget left)"
    "step_$s" || { [ "$s" = build ] && break; }
  done
fi

echo
echo "=== gpu-check: summary ($summary)"
tail -n +"$first" "$summary"
exit $failed
