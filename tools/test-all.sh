#!/usr/bin/env bash
# Builds everything and runs every test. The build folder keeps the options it
# was configured with (CI configures it with -DSTRIDE_WERROR=ON first).
# Whatever else "every test" comes to include (sanitizer builds, bindings)
# is added here, so the README's command stays the same.
set -euo pipefail
cd "$(dirname "$0")/.."

build="${STRIDE_BUILD_DIR:-build}"
jobs="${STRIDE_JOBS:-$(nproc)}"

cmake -S . -B "$build"
cmake --build "$build" -j "$jobs"
ctest --test-dir "$build" --output-on-failure
# The reference and guides: Doxygen fails on any warning (docs/Doxyfile.in).
cmake --build "$build" --target docs
