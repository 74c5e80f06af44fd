#!/usr/bin/env bash
# Compares a fresh libstride.so (built with debug info: the preset abi)
# with the committed baseline abi/libstride.abi and fails on any change that
# is not a pure addition (docs/abi-policy.md).
#
# Pure additions are: new functions, new enumerators at the end of an enum
# (libabigail counts those as harmless and filters them), and new fields
# appended to struct st_api. Everything else fails: a removed function, a
# changed signature, a changed type or struct layout, a field of st_api that
# moved. abidiff's exit status is a bit set (ABIDIFF_ERROR 1,
# ABIDIFF_USAGE_ERROR 2, ABIDIFF_ABI_CHANGE 4, ABIDIFF_ABI_INCOMPATIBLE_CHANGE
# 8); with --no-added-syms, added functions alone give 0. A change (4)
# without incompatibility (8) passes only when the report holds nothing but
# st_api growing at its end, read line by line against a whitelist.
# Usage: tools/abi-check.sh LIB [BASELINE]
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lib="$1"
baseline="${2:-$root/abi/libstride.abi}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if ! "$root/tools/abi-dump.sh" "$lib" "$work/fresh.abi"; then
  echo "abi-check: abidw failed on $lib" >&2
  exit 1
fi

abidiff --no-added-syms --leaf-changes-only --impacted-interfaces "$baseline" "$work/fresh.abi" >"$work/report"
rc=$?

show_additions() {
  abidiff --leaf-changes-only "$baseline" "$work/fresh.abi" | grep -E "^\s*\[A\]|st_api|at offset" || true
}

if [ "$rc" -eq 0 ]; then
  if ! cmp -s "$baseline" "$work/fresh.abi"; then
    echo "abi-check: the interface differs from the baseline by additions only (regenerate it with tools/update-abi-baseline.sh when they are meant):"
    show_additions
  fi
  echo "abi-check: OK"
  exit 0
fi
if [ $((rc & 3)) -ne 0 ]; then
  echo "abi-check: abidiff failed (exit status $rc)" >&2
  cat "$work/report" >&2
  exit 1
fi
if [ $((rc & 8)) -ne 0 ]; then
  echo "abi-check: incompatible ABI change against $baseline (abidiff exit status $rc):" >&2
  cat "$work/report" >&2
  exit 1
fi

# ABIDIFF_ABI_CHANGE alone: allowed only when st_api grew at its end.
if awk '
  function bad(why) { print "abi-check: not a pure addition: " why ": " $0 > "/dev/stderr"; failed = 1 }
  { sub(/^[ \t]+/, ""); sub(/[ \t]+$/, "") }
  /^$/ { next }
  /^Leaf changes summary:/ || /^Changed leaf types summary:/ { next }
  /^Removed\/Changed\/Added (functions|variables) summary:/ {
    if ($0 !~ /summary: 0 Removed, 0 Changed,/) bad("functions or variables removed or changed")
    next
  }
  /^'\''struct st_api'\'' changed:$/ { in_api = 1; saw_api = 1; next }
  /^'\''.*'\'' changed:$/ { in_api = 0; bad("another type changed"); next }
  in_api && /^type size changed from [0-9]+ to [0-9]+ \(in bits\)$/ { old_size = $5 + 0; next }
  in_api && /^(one|[0-9]+) data member insertions?:$/ { next }
  in_api && /, at offset [0-9]+ \(in bits\)$/ {
    n = split($0, w, " ")
    offset = w[n - 2] + 0
    if (old_size == 0 || offset < old_size) bad("a field inserted before the end of st_api")
    next
  }
  in_api && /^(one|[0-9]+) impacted interfaces?:$/ { next }
  in_api && /^function const st_api\* st_get_api\(uint32_t\)$/ { next }
  { bad("unexpected change") }
  END { exit failed || !saw_api }
' "$work/report"; then
  echo "abi-check: st_api grew at its end (pure additions); regenerate the baseline with tools/update-abi-baseline.sh when meant:"
  show_additions
  echo "abi-check: OK"
  exit 0
fi
echo "abi-check: the full report:" >&2
cat "$work/report" >&2
exit 1
