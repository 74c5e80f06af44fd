#!/usr/bin/env bash
# Regenerates abi/libstride.abi from the current sources. Run it when public
# functions were added on purpose (abi.baseline then lists them as
# additions), and commit the new file with the change that adds them. See
# docs/abi-policy.md for what may change at all.
# Usage: tools/update-abi-baseline.sh [build-dir]   (default build-abi)
set -euo pipefail
cd "$(dirname "$0")/.."

build="${1:-build-abi}"
tools/abi-build.sh "$build"
tools/abi-dump.sh "$build/src/libstride.so" abi/libstride.abi
echo "abi/libstride.abi: $(grep -c '<elf-symbol ' abi/libstride.abi) exported functions"
