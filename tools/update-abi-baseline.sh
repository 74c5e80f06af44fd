#!/usr/bin/env bash
# Regenerates abi/libstride.abi from the current sources, built as the
# preset abi of CMakePresets.json builds them (Debian 12's gcc, Debug, CUDA
# off, OpenMP on, debug paths relative to the source tree: the exported
# interface does not depend on these choices; fixing them keeps the dump
# reproducible). Run it when public functions were added on purpose
# (abi.baseline then lists them as additions), and commit the new file with
# the change that adds them. See docs/abi-policy.md for what may change at
# all.
# Usage: tools/update-abi-baseline.sh
set -euo pipefail
cd "$(dirname "$0")/.."

cmake --preset abi >/dev/null
cmake --build --preset abi
tools/abi-dump.sh build-abi/src/libstride.so abi/libstride.abi
echo "abi/libstride.abi: $(grep -c '<elf-symbol ' abi/libstride.abi) exported functions"
