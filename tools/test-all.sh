#!/usr/bin/env bash
# Builds everything and runs every test. The build folder keeps the options it
# was configured with (CI configures it with -DSTRIDE_WERROR=ON first).
# Whatever else "every test" comes to include is added here, so the README's
# command stays the same. The steps, each in a build folder of its own:
#
#   main    the build as configured: every ctest, then the docs target
#   abi     libstride.so with debug info (tools/abi-build.sh), compared with
#           the committed baseline abi/libstride.abi (abi.baseline)
#   asan    ASan + UBSan (build-asan): every C and C++ test, the examples,
#           the install tests and the fuzz corpus replay; halt on the first
#           error, leaks checked
#   tsan    TSan (build-tsan): the tests labelled "concurrency"
#   fuzz    the libFuzzer target built with clang, replaying the corpus
#           (tools/fuzz.sh --replay; CI fuzzes for 120 s in a step of its own)
#
# The sanitizer builds leave CUDA out: ASan and TSan do not see device code,
# without a GPU the CUDA host code only answers "no device", and nvcc would
# double the build time. The TSan build also leaves OpenMP out: libgomp is not
# built with TSan, so its barriers are invisible to it and every parallel
# region would be reported as a race. Parallel chunks still run on several
# threads there, through the job system test_stress installs with
# st_set_parallel_for. STRIDE_QUICK=1 runs the main step only (and says so).
set -euo pipefail
cd "$(dirname "$0")/.."

build="${STRIDE_BUILD_DIR:-build}"
jobs="${STRIDE_JOBS:-$(nproc)}"

timings=()

# ctest in a build folder, $jobs tests at a time (tests that share a folder
# hold a RESOURCE_LOCK; every test has a TIMEOUT, cmake/StrideTesting.cmake),
# then one line per skipped test with the reason it printed.
run_ctest() {
  local dir="$1"
  shift
  local status=0
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure --output-junit ctest-junit.xml "$@" || status=$?
  tools/ctest-skips.py "$dir/ctest-junit.xml" || status=1
  return "$status"
}

step() {
  local name="$1"
  shift
  local start=$SECONDS
  echo "=== test-all: $name"
  "$@"
  timings+=("$(printf '%-6s %5d s' "$name" $((SECONDS - start)))")
}

main_step() {
  # AUTO leaves the CUDA backend out on a machine without a GPU (a quick
  # demo); the test command still compiles and checks it wherever nvcc is,
  # unless the build folder was configured with STRIDE_WITH_CUDA=OFF.
  local cuda=()
  if { command -v nvcc || [ -x /usr/local/cuda/bin/nvcc ]; } > /dev/null 2>&1 &&
    ! grep -qx 'STRIDE_WITH_CUDA:STRING=OFF' "$build/CMakeCache.txt" 2> /dev/null; then
    cuda=(-DSTRIDE_WITH_CUDA=ON)
  fi
  cmake -S . -B "$build" "${cuda[@]}"
  cmake --build "$build" -j "$jobs"
  run_ctest "$build"
  # The reference and guides: Doxygen fails on any warning (docs/Doxyfile.in).
  cmake --build "$build" --target docs
}

abi_step() {
  tools/abi-build.sh build-abi
  run_ctest build-abi -R '^abi\.baseline$'
}

# -O1 -g: reports with lines, tests that still run fast.
sanitizer_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g"
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" -DSTRIDE_WITH_CUDA=OFF -DSTRIDE_BUILD_BENCH=OFF -DSTRIDE_BUILD_DOCS=OFF)

asan_step() {
  cmake -S . -B build-asan "-DSTRIDE_SANITIZE=address;undefined" "${sanitizer_flags[@]}" >/dev/null
  cmake --build build-asan -j "$jobs"
  ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    run_ctest build-asan
}

tsan_step() {
  cmake -S . -B build-tsan -DSTRIDE_SANITIZE=thread -DSTRIDE_WITH_OPENMP=OFF -DSTRIDE_BUILD_EXAMPLES=OFF \
    "${sanitizer_flags[@]}" >/dev/null
  cmake --build build-tsan -j "$jobs" --target stride_concurrency_tests
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    run_ctest build-tsan -L concurrency
}

fuzz_step() {
  if command -v clang++ >/dev/null; then
    tools/fuzz.sh --replay
  else
    echo "test-all: clang++ not found: the corpus ran through the standalone driver only (fuzz.replay_corpus)"
  fi
}

step main main_step
if [ "${STRIDE_QUICK:-0}" = "1" ]; then
  echo "test-all: STRIDE_QUICK=1: the ABI check, the sanitizer builds and the fuzz replay did not run"
else
  step abi abi_step
  step asan asan_step
  step tsan tsan_step
  step fuzz fuzz_step
fi

echo "=== test-all: every step passed"
printf '  %s\n' "${timings[@]}"
