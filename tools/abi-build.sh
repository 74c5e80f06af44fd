#!/usr/bin/env bash
# Builds libstride.so in the configuration the ABI baseline (abi/libstride.abi)
# is made from: Debian 12's gcc, Debug (-g), CUDA off, OpenMP on, debug paths
# relative to the source tree (STRIDE_ABI_CHECK=ON). The exported interface
# does not depend on these choices; fixing them keeps the dump reproducible.
# Usage: tools/abi-build.sh [build-dir]   (default build-abi)
set -euo pipefail
cd "$(dirname "$0")/.."

build="${1:-build-abi}"
jobs="${STRIDE_JOBS:-$(nproc)}"

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DSTRIDE_WITH_CUDA=OFF -DSTRIDE_WITH_OPENMP=ON \
  -DSTRIDE_ABI_CHECK=ON -DSTRIDE_BUILD_EXAMPLES=OFF -DSTRIDE_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "$jobs" --target stride
