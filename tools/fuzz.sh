#!/usr/bin/env bash
# The C API fuzz target (tests/fuzz/fuzz_c_api.cpp) built with clang and
# libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer, in its own
# build folder (the preset fuzz of CMakePresets.json, build-fuzz; CUDA and
# OpenMP off, so runs are deterministic).
#
#   tools/fuzz.sh --replay    build it and replay the committed corpus and
#                             crash reproducers: `cmake --workflow --preset
#                             fuzz` (the test fuzz.libfuzzer_corpus)
#   tools/fuzz.sh [SECONDS]   build it and fuzz for SECONDS (default 120),
#                             starting from a copy of the committed corpus;
#                             prints the executions, their rate, and the
#                             edges (cov) and features (ft) reached
#
# A crash leaves its input in build-fuzz/artifacts/ and fails the script;
# commit the input to tests/fuzz/crashes/ with the fix. Replaying it
# (build-fuzz/tests/fuzz_c_api INPUT) gives ASan's full allocation stacks,
# which fuzzing keeps short. Fuzzing settings (see tests/fuzz/README.md):
# entropic scheduling off (its per-feature bookkeeping cost a quarter of
# every execution, for no more coverage in equal time), ASan allocation
# stacks of 4 frames, and the working corpus on /dev/shm when there is one.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-fuzz

if ! command -v clang++ >/dev/null; then
  echo "fuzz: clang++ not found (Debian: clang, libclang-rt-dev); tools/install-deps.sh installs it" >&2
  exit 1
fi

if [ "${1:-}" = "--replay" ]; then
  exec tools/workflow.sh fuzz
fi
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

seconds="${1:-120}"
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
  work="$(mktemp -d -p /dev/shm stride-fuzz.XXXXXX)"  # new inputs are written as they come: keep them in memory
else
  work="$(mktemp -d)"
fi
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$build/artifacts"
cp tests/fuzz/corpus/* "$work/corpus/"

status=0
ASAN_OPTIONS="malloc_context_size=4:${ASAN_OPTIONS:-}" \
  "$build/tests/fuzz_c_api" -max_total_time="$seconds" -timeout=25 -print_final_stats=1 -max_len=4096 \
  -entropic=0 -artifact_prefix="$build/artifacts/" "$work/corpus" >"$work/log" 2>&1 || status=$?
executions="$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")"
rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log")"
new_inputs="$(sed -n 's/^stat::new_units_added: *//p' "$work/log")"
reached="$(sed -n 's/.*DONE *\(cov: [0-9]*\) \(ft: [0-9]*\).*/\1 edges, \2 features/p' "$work/log")"
if [ "$status" -ne 0 ]; then
  tail -n 60 "$work/log" >&2
  echo "fuzz: FAILED after ${executions:-?} executions; the input is in $build/artifacts/" >&2
  exit 1
fi
echo "fuzz: ${executions} executions in ${seconds} s (${rate}/s), ${new_inputs} new inputs, ${reached}, no broken promise"
