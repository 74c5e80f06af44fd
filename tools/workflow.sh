#!/usr/bin/env bash
# Runs one workflow preset of CMakePresets.json (configure, build, test in
# build-<preset>/), then lists its skipped tests with the reason each
# printed (tools/ctest-skips.py reads the JUnit file the test preset
# writes): the one thing a workflow cannot say. Fails when the workflow
# fails or a skipped test gave no reason.
#
#   tools/workflow.sh PRESET
set -uo pipefail
cd "$(dirname "$0")/.."

if [ $# -ne 1 ]; then
  echo "usage: tools/workflow.sh PRESET (cmake --list-presets=workflow names them)" >&2
  exit 2
fi
preset="$1"
junit="build-$preset/ctest-junit.xml"
rm -f "$junit"  # a workflow that fails before its tests leaves no stale list behind
status=0
cmake --workflow --preset "$preset" || status=$?
if [ -f "$junit" ]; then
  python3 tools/ctest-skips.py "$junit" || status=1
fi
exit "$status"
