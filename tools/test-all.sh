#!/usr/bin/env bash
# Builds everything and runs every test: the README's test command. Each
# step is a workflow of CMakePresets.json (configure, build, test), in a
# build folder of its own, build-<preset>/; what this script adds is what
# presets cannot say: which main build this machine gets, the order, the
# skipped tests' reasons and the time of each step.
#
#   main    `cuda` where nvcc is installed, GPU or not (the only check that
#           the CUDA code compiles, and the host-side CUDA tests), else
#           `werror`: warnings as errors, every ctest, then the docs target
#   abi     libstride.so with debug info, compared with the committed
#           baseline abi/libstride.abi (abi.baseline)
#   asan    ASan + UBSan: every C and C++ test, the examples, the install
#           tests, the fuzz corpus replay, and the Python, Rust and Go
#           suites with the ASan runtime preloaded; halt on the first error,
#           leaks checked (not in the bindings' interpreters)
#   tsan    TSan: the tests labelled "concurrency"
#   fuzz    the libFuzzer target built with clang, replaying the corpus (CI
#           fuzzes for 120 s in a step of its own: tools/fuzz.sh)
#
# The sanitizer builds leave CUDA out: ASan and TSan do not see device code,
# without a GPU the CUDA host code only answers "no device", and nvcc would
# double their build time. The TSan build also leaves OpenMP out: libgomp is
# not built with TSan, so its barriers are invisible to it and every
# parallel region would be reported as a race. Parallel chunks still run on
# several threads there, through the job system test_stress installs with
# st_set_parallel_for.
#
# Each step (tools/workflow.sh) builds and tests on as many jobs as cores
# (STRIDE_JOBS sets another number: CMAKE_BUILD_PARALLEL_LEVEL and
# CTEST_PARALLEL_LEVEL), and ends with one line per skipped test with the
# reason it printed. The last
# lines give each step's wall time and the CPU time (user) of its
# processes. STRIDE_QUICK=1 runs the main step only (and says so).
set -euo pipefail
cd "$(dirname "$0")/.."

jobs="${STRIDE_JOBS:-$(nproc)}"
export CMAKE_BUILD_PARALLEL_LEVEL="$jobs" CTEST_PARALLEL_LEVEL="$jobs"

timings=()

# The user CPU seconds of this script's finished child processes, their
# children included (/proc's cutime); "" where there is no /proc.
cpu_seconds() {
  [ -r /proc/$$/stat ] || return 0
  awk -v tick="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); print $14 / tick }' /proc/$$/stat
}

step() {
  local name="$1"
  shift
  local start=$SECONDS cpu
  cpu=$(cpu_seconds)
  echo "=== test-all: $name"
  "$@"
  local used=""
  [ -n "$cpu" ] && used=$(awk -v a="$cpu" -v b="$(cpu_seconds)" 'BEGIN { printf "%6d s CPU (user)", b - a }')
  timings+=("$(printf '%-6s %5d s wall %s' "$name" $((SECONDS - start)) "$used")")
}

main_preset=werror
if { command -v nvcc || [ -x /usr/local/cuda/bin/nvcc ]; } > /dev/null 2>&1; then
  main_preset=cuda
fi

fuzz_step() {
  if command -v clang++ >/dev/null; then
    tools/workflow.sh fuzz
  else
    echo "test-all: clang++ not found: the corpus ran through the standalone driver only (fuzz.replay_corpus)"
  fi
}

step main tools/workflow.sh "$main_preset"
if [ "${STRIDE_QUICK:-0}" = "1" ]; then
  echo "test-all: STRIDE_QUICK=1: the ABI check, the sanitizer builds and the fuzz replay did not run"
else
  step abi tools/workflow.sh abi
  step asan tools/workflow.sh asan
  step tsan tools/workflow.sh tsan
  step fuzz fuzz_step
fi

total_cpu=$(cpu_seconds)
[ -n "$total_cpu" ] && total_cpu=$(awk -v b="$total_cpu" 'BEGIN { printf "%6d s CPU (user)", b }')
timings+=("$(printf '%-6s %5d s wall %s' all "$SECONDS" "$total_cpu")")
echo "=== test-all: every step passed (main build: $main_preset)"
printf '  %s\n' "${timings[@]}"
