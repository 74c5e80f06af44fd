#!/usr/bin/env bash
# Everything a machine with a GPU should run, in one command, so that the
# first session with one spends its time measuring, not setting up:
#
#   build      configure and build with CUDA (build-gpu/, with -lineinfo so
#              that compute-sanitizer names source lines)
#   info       nvidia-smi, the toolkit's tools, the devices stride sees
#   tests      ctest -L gpu (every GPU test, and the CUDA bench at tiny sizes),
#              then the cuda label (host-side CUDA tests, kernel code checks)
#   loading    the GPU tests again with CUDA_MODULE_LOADING=EAGER and =LAZY
#   sanitizer  the GPU test programs under compute-sanitizer: memcheck,
#              racecheck, synccheck, initcheck
#   stress     the stream stress test alone, 5 times (threads with their own
#              streams and one on cudaStreamPerThread, tensors released
#              across threads, data checked)
#   probe      the blocking probe: a non_blocking pinned copy on one stream
#              while a kernel spins on another must return at once
#   bench      stride-bench --device cuda (full sizes), CSV in build-gpu/
#
# Usage: tools/gpu-check.sh [STEP ...]   (default: every step, in order)
# On a machine without a GPU the steps that need one say so and are
# skipped; the build, the host-side tests and the checks of the tools
# still run. Exit status: 0 when every step that ran passed. A summary of
# the steps closes the output.
set -uo pipefail
cd "$(dirname "$0")/.."

build="${STRIDE_GPU_BUILD_DIR:-build-gpu}"
jobs="${STRIDE_JOBS:-$(nproc)}"
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(build info tests loading sanitizer stress probe bench)

summary=()
failed=0
record() {  # name status text
  summary+=("$(printf '%-9s %-7s %s' "$1" "$2" "$3")")
  [ "$2" = "FAILED" ] && failed=1
  return 0
}

have_gpu() {
  { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; } || [ -e /dev/nvidia0 ]
}

gpu_tests=()
find_gpu_tests() {
  gpu_tests=()
  for t in "$build"/tests/test_gpu_* "$build"/tests/test_copy_gpu "$build"/tests/test_index_math_device; do
    [ -x "$t" ] && gpu_tests+=("$t")
  done
}

step_build() {
  local start=$SECONDS
  local launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
    -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  if cmake -S . -B "$build" -DSTRIDE_WITH_CUDA=ON -DSTRIDE_WERROR=ON -DSTRIDE_CUDA_LINEINFO=ON -DSTRIDE_TEST_BINDINGS=OFF "${launcher[@]}" &&
    cmake --build "$build" -j "$jobs"; then
    record build passed "$((SECONDS - start)) s in $build"
  else
    record build FAILED "configure or build failed"
    echo "gpu-check: the build failed; nothing else can run"
    exit 1
  fi
}

step_info() {
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi || true
    nvidia-smi --query-gpu=name,compute_cap,driver_version,memory.total,clocks.max.memory --format=csv || true
  else
    echo "nvidia-smi: not found"
  fi
  for tool in nvcc cuobjdump compute-sanitizer nsys ncu; do
    printf '%-18s %s\n' "$tool" "$(command -v "$tool" || echo 'not found')"
  done
  nvcc --version 2>/dev/null | tail -2
  "$build"/tests/test_cuda_runtime 2>&1 | grep -E "CUDA devices|images" || true
  record info passed "$(have_gpu && nvidia-smi -L | head -3 | tr '\n' ';' || echo 'no GPU on this machine')"
}

step_tests() {
  local out
  out=$(ctest --test-dir "$build" -L gpu --output-on-failure 2>&1)
  local rc=$?
  echo "$out"
  local skipped
  skipped=$(echo "$out" | grep -c "(Skipped)" || true)
  if [ $rc -ne 0 ]; then
    record tests FAILED "ctest -L gpu"
  else
    record tests passed "ctest -L gpu ($skipped skipped$(have_gpu || echo ': no GPU'))"
  fi
  if ctest --test-dir "$build" -L cuda --output-on-failure; then
    record tests passed "ctest -L cuda (host-side CUDA tests, kernel code)"
  else
    record tests FAILED "ctest -L cuda"
  fi
}

step_loading() {
  if ! have_gpu; then
    record loading skipped "no GPU: module loading modes need a device"
    return
  fi
  local mode
  for mode in EAGER LAZY; do
    if CUDA_MODULE_LOADING=$mode ctest --test-dir "$build" -L gpu --output-on-failure; then
      record loading passed "CUDA_MODULE_LOADING=$mode ctest -L gpu"
    else
      record loading FAILED "CUDA_MODULE_LOADING=$mode ctest -L gpu"
    fi
  done
}

step_sanitizer() {
  local cs
  cs=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
  if [ -z "$cs" ]; then
    record sanitizer skipped "compute-sanitizer not found (it ships with the full CUDA toolkit)"
    return
  fi
  if ! have_gpu; then
    record sanitizer skipped "no GPU: compute-sanitizer needs a device"
    return
  fi
  find_gpu_tests
  local tool t
  for tool in memcheck racecheck synccheck initcheck; do
    local bad=0
    for t in "${gpu_tests[@]}"; do
      # The 2 GiB split copy of test_copy_gpu would take too long under the sanitizer.
      echo "--- compute-sanitizer --tool $tool $t"
      ST_GPU_SKIP_LARGE=1 "$cs" --tool "$tool" --error-exitcode 99 "$t"
      local rc=$?
      if [ $rc -ne 0 ] && [ $rc -ne 77 ]; then
        bad=1
        echo "gpu-check: $tool found errors in $t (exit $rc)"
      fi
    done
    if [ $bad -eq 0 ]; then
      record sanitizer passed "$tool over ${#gpu_tests[@]} GPU test programs"
    else
      record sanitizer FAILED "$tool"
    fi
  done
}

step_stress() {
  if ! have_gpu; then
    record stress skipped "no GPU"
    return
  fi
  local i bad=0
  for i in 1 2 3 4 5; do
    "$build"/tests/test_gpu_runtime threads_with_their_own_streams_share_tensors || bad=1
  done
  if [ $bad -eq 0 ]; then
    record stress passed "the stream stress test 5 times"
  else
    record stress FAILED "the stream stress test"
  fi
}

step_probe() {
  if ! have_gpu; then
    record probe skipped "no GPU"
    return
  fi
  local out
  out=$("$build"/tests/test_gpu_runtime a_non_blocking_pinned_copy_does_not_wait_for_other_streams 2>&1)
  local rc=$?
  echo "$out"
  if [ $rc -eq 0 ]; then
    record probe passed "$(echo "$out" | grep -o 'returned in [0-9]* us[^)]*)' | head -1)"
  else
    record probe FAILED "see the output above"
  fi
}

step_bench() {
  if ! have_gpu; then
    "$build"/bench/stride-bench --device cuda --quick
    record bench skipped "no GPU (stride-bench --device cuda answered 'skipped', exit $?)"
    return
  fi
  if "$build"/bench/stride-bench --device cuda --csv "$build"/cuda-bench.csv | tee "$build"/cuda-bench.txt; then
    record bench passed "table in $build/cuda-bench.txt, CSV in $build/cuda-bench.csv"
  else
    record bench FAILED "stride-bench --device cuda"
  fi
}

for s in "${steps[@]}"; do
  echo "=== gpu-check: $s"
  case "$s" in
    build | info | tests | loading | sanitizer | stress | probe | bench) "step_$s" ;;
    *) echo "gpu-check: unknown step '$s'"; exit 2 ;;
  esac
done

echo "=== gpu-check: summary"
printf '  %s\n' "${summary[@]}"
exit $failed
