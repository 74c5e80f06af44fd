#!/usr/bin/env bash
# Writes the ABI of a libstride.so built with debug info (the preset abi
# of CMakePresets.json) as libabigail XML: only the functions and types of
# include/stride.h, with no paths, line numbers or DT_NEEDED entries, and
# type ids derived from the types themselves, so the same interface always
# gives the same file.
# Usage: tools/abi-dump.sh LIB OUT
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lib="$1"
out="$2"

abidw --headers-dir "$root/include" --drop-private-types --exported-interfaces-only \
  --no-corpus-path --no-comp-dir-path --no-show-locs --no-elf-needed --type-id-style hash \
  --out-file "$out" "$lib"
