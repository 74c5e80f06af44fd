#!/usr/bin/env python3
"""Runs stride-bench --quick three ways and checks what it prints and writes.

    bench/check_quick.py [--cuda] STRIDE_BENCH SCRATCH_DIR

1. Every case, the default output: exit 0, every line of stdout and stderr
   at most 100 columns, no CSV on stdout, every column of the bandwidth
   table defined in the definitions above it, the closing roofline block,
   the peak memory line, and progress lines without the read checksum or
   the full sizes.
2. A, D and K with --pages huge,4k --csv FILE: the CSV has a pages and an
   x_roof column; each bandwidth row's x_roof is the slowest of its best
   copy, read and write times over its own time, recomputed here from the
   CSV's times; 4k rows exist and have no alloc mode; the closing block
   names exactly the prealloc and plan rows below 0.90 of the roofline.
3. --wide: the table has the baselines' columns besides x roof, each
   defined above it.
With --cuda, the GPU bench instead: --device cuda --list (with or without
a GPU) names each case with its view on the next (indented) line, within
100 columns;
then --device cuda --quick --csv FILE, which answers 77 without a GPU (this
script then does too, after the list's checks): every line within 100
columns, the table's header where tools/gpu-check.sh looks for it
(/^case +MB moved/), no copy that differs from the CPU's, the peak device
memory line, and closing lines naming exactly the device and the link rows
whose x_memcpy in the CSV is below 0.90.
The figures of a --quick run mean nothing; only their relations are checked.
"""
import csv
import os
import re
import subprocess
import sys

COLUMNS = 100
GOAL = 0.90
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run(bench, *args):
    p = subprocess.run([bench, "--quick", *args], capture_output=True, text=True, timeout=240)
    check(p.returncode == 0, f"stride-bench --quick {' '.join(args)}: exit {p.returncode}\n{p.stderr[-2000:]}")
    return p.stdout, p.stderr


def close(got, want):
    """Equal to the CSV's 6 significant digits."""
    return abs(got - want) <= 1e-5 * abs(want)


def check_widths(what, text):
    wide = [line for line in text.splitlines() if len(line) > COLUMNS]
    check(not wide, f"{what}: {len(wide)} line(s) over {COLUMNS} columns, the first: {wide[0]!r}" if wide else "")


def check_definitions(what, stdout, heads):
    """Every column of the table has its line in the definitions printed above it."""
    definitions = stdout.split("Definitions", 1)[-1].split("\ncase ", 1)[0]
    for head in heads:
        check(re.search(rf"^  {re.escape(head)}(\s|,)", definitions, re.M),
              f"{what}: column '{head}' is not in the definitions")


def table_heads(stdout):
    """The column heads of the bandwidth table's first header line."""
    for line in stdout.splitlines():
        if line.startswith("case ") and "mode" in line:
            return re.findall(r"x \w+|[^\s|]+", line)
    return []


def check_default(bench):
    out, err = run(bench)
    check_widths("default stdout", out)
    check_widths("default stderr", err)
    check(not re.search(r"^(kind,|bandwidth,|call,|# csv)", out, re.M), "default: CSV printed without --csv")
    heads = table_heads(out)
    check("x roof" in heads and "x best" in heads, f"default: the compact table's heads are {heads}")
    check("hp-alloc" not in heads, "default: the compact table has the wide table's columns")
    check_definitions("default", out, heads)
    check(re.search(rf"^Below {GOAL:.2f} of the roofline", out, re.M), "default: no closing roofline block")
    check(re.search(r"^peak memory: +[0-9.]+ GiB", out, re.M), "default: no peak memory line")
    check("sum read" not in err, "default: the progress lines print the read checksum")
    check("64M" not in err, "default: a --quick progress line names the full size")


def check_csv_and_pages(bench, scratch):
    path = os.path.join(scratch, "bench-quick.csv")
    if os.path.exists(path):
        os.remove(path)
    out, _ = run(bench, "--threads", "1", "--pages", "huge,4k", "--filter", "A_,D_,K_", "--csv", path)
    check(f"CSV written to {path}" in out, "csv: no 'CSV written' line")
    check(not re.search(r"^(kind,|bandwidth,)", out, re.M), "csv: CSV printed on stdout too")
    check_widths("csv stdout", out)
    if not os.path.exists(path):
        check(False, f"csv: {path} not written")
        return
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    check(rows and "x_roof" in rows[0] and "pages" in rows[0], "csv: no x_roof or pages column")
    bandwidth = [r for r in rows if r["kind"] == "bandwidth"]
    check(any(r["kind"] == "call" for r in rows), "csv: no per-call rows")
    check({r["pages"] for r in bandwidth} == {"huge", "4k"}, "csv: not both page kinds")
    check(not [r for r in bandwidth if r["pages"] == "4k" and r["mode"] == "alloc"], "csv: an alloc row on 4k pages")
    expected_below = set()
    for r in bandwidth:
        ms = float(r["median_ms"])
        bounds = {"copy": min(float(r["memcpy_ms"]), float(r["nt_ms"])), "read": float(r["read_ms"]),
                  "write": float(r["write_ms"])}
        roof = max(bounds.values())
        where = f"csv: {r['case']} {r['mode']} {r['pages']}"
        check(close(float(r["roofline_ms"]), roof), f"{where}: roofline_ms {r['roofline_ms']}, want {roof}")
        check(close(float(r["x_roof"]), roof / ms), f"{where}: x_roof {r['x_roof']}, want {roof / ms}")
        # The CSV's 6 digits may make two bounds equal: the one named must be the largest.
        check(close(bounds.get(r["roofline_bound"], -1.0), roof), f"{where}: bound {r['roofline_bound']}")
        if r["mode"] in ("prealloc", "plan") and roof / ms < GOAL:
            expected_below.add((r["pages"], r["case"].split(" ")[0]))
    printed_below = set()
    for pages in ("huge", "4k"):
        m = re.search(rf"^  1 thread, {pages} pages: (.*(?:\n {{4,}}.*)*)", out, re.M)
        check(m, f"csv: no closing line for 1 thread, {pages} pages")
        if m:
            printed_below |= {(pages, c) for c in re.findall(r"(\S+) \((?:prealloc|plan) ", m.group(1))}
    check(printed_below == expected_below, f"csv: below the roofline: printed {printed_below}, want {expected_below}")


def check_wide(bench):
    out, _ = run(bench, "--threads", "1", "--filter", "A_", "--wide")
    heads = table_heads(out)
    for head in ("MB", "memcpy", "NT", "x best", "x roof", "bound", "hp-alloc", "malloc", "reps"):
        check(head in heads, f"wide: no column '{head}' in {heads}")
    check_definitions("wide", out, heads)


def named_below(out, head):
    """The ids a closing line (and its wrapped continuation lines) names."""
    m = re.search(rf"^{re.escape(head)}: (.*(?:\n {{4,}}.*)*)", out, re.M)
    check(m, f"cuda: no closing line '{head}'")
    return set(re.findall(r"(\S+) \(", m.group(1))) if m else set()


def check_cuda(bench, scratch):
    """The GPU bench; returns False when it was skipped (no GPU or no CUDA)."""
    p = subprocess.run([bench, "--device", "cuda", "--list"], capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, f"cuda --list: exit {p.returncode}\n{p.stderr[-2000:]}")
    check_widths("cuda --list", p.stdout)
    lines = p.stdout.splitlines()
    cases = [i for i, line in enumerate(lines) if not line.startswith(" ")]
    check(cases and all(i + 1 < len(lines) and lines[i + 1].startswith("    view ") for i in cases),
          "cuda --list: a case line not followed by its view line")
    path = os.path.join(scratch, "bench-cuda-quick.csv")
    if os.path.exists(path):
        os.remove(path)
    p = subprocess.run([bench, "--device", "cuda", "--quick", "--csv", path], capture_output=True, text=True,
                       timeout=240)
    if p.returncode == 77:
        print(p.stdout.strip())
        return False
    out = p.stdout
    check(p.returncode == 0, f"cuda --quick: exit {p.returncode}\n{p.stderr[-2000:]}")
    check_widths("cuda stdout", out)
    check_widths("cuda stderr", p.stderr)
    check(re.search(r"^case +MB moved", out, re.M), "cuda: no table header matching /^case +MB moved/")
    check(re.search(r"^Copies that differ from the CPU's: none$", out, re.M), "cuda: a copy differs (or no line)")
    check(re.search(r"^peak device memory: +[0-9.]+ GiB", out, re.M), "cuda: no peak device memory line")
    if not os.path.exists(path):
        check(False, f"cuda: {path} not written")
        return True
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for kind, head in (("device", "Below 0.90 of cudaMemcpy device to device"),
                       ("link", "Link cases below 0.90 of pinned cudaMemcpy")):
        # x_memcpy as the CSV's 6 digits give it (empty: not a number, named as below).
        want = {r["case"].split(" ")[0] for r in rows
                if r["kind"] == kind and (r["x_memcpy"] == "" or float(r["x_memcpy"]) < GOAL)}
        check(named_below(out, head) == want, f"cuda: {head}: printed {named_below(out, head)}, want {want}")
    return True


def main():
    cuda = sys.argv[1] == "--cuda"
    bench, scratch = sys.argv[1 + cuda], sys.argv[2 + cuda]
    os.makedirs(scratch, exist_ok=True)
    ran = True
    if cuda:
        ran = check_cuda(bench, scratch)
    else:
        check_default(bench)
        check_csv_and_pages(bench, scratch)
        check_wide(bench)
    for f in failures:
        print(f"FAIL: {f}")
    if not failures and not ran:
        print("skipped: the list passed; the cases need a GPU")
        return 77
    print(f"{'FAILED' if failures else 'passed'}: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
