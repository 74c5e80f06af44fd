#!/usr/bin/env python3
"""Runs stride-bench --quick three ways and checks what it prints and writes.

    bench/check_quick.py [--cuda] STRIDE_BENCH SCRATCH_DIR

1. Every case, the default output: exit 0, every line of stdout and stderr
   at most 100 columns, no CSV on stdout, the level line, every column of
   the bandwidth table defined in the definitions above it, one row per
   case and thread count, the cases in natural order (I2 before I10, as
   --list names them), a closing summary of one line per thread count
   (wrapped lines aside), the peak memory line, and progress lines without
   the read checksum or the full sizes.
2. A, D, I1, I2, I10 and K with --pages huge,4k --csv FILE: the CSV has a
   pages and an x_roof column; each bandwidth row's x_roof is the slowest
   of its best copy, read and write times over its own time, recomputed
   here from the CSV's times; 4k rows exist and have no alloc mode; each
   row of the table shows its prealloc row's figures and its plan row's
   x roof; the summary counts exactly the cases whose prealloc and plan
   rows reach 0.90 of the roofline and names the lowest of the others;
   tools/plot-bench.py draws the CSV as an SVG 1200 px wide that names
   every case, in the table's order.
3. --wide: a row per mode, and the baselines' columns besides x roof, each
   defined above it.
4. --level: scalar runs and says so on the level line; a name that is no
   level of the build, and a level above this CPU's (when there is one),
   are refused with a message.
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
import math
import os
import re
import subprocess
import sys

COLUMNS = 100
GOAL = 0.90
SUMMARY_LOWEST = 3
PLOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tools", "plot-bench.py")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def run(bench, *args, want=0):
    p = subprocess.run([bench, "--quick", *args], capture_output=True, text=True, timeout=240)
    ok = p.returncode == 0 if want == 0 else p.returncode != 0
    check(ok, f"stride-bench --quick {' '.join(args)}: exit {p.returncode}\n{p.stderr[-2000:]}")
    return p.stdout, p.stderr


def natural_key(name):
    """I2 before I10: runs of digits compare as numbers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def close(got, want):
    """Equal to the CSV's 6 significant digits."""
    return abs(got - want) <= 1e-5 * abs(want)


def rounds_to(shown, want):
    """`shown` is the CSV's `want` rounded to its digits: within half a unit of
    its last digit, and the CSV's rounding to 6 digits (57.1250x written as
    57.125) besides."""
    digits = len(shown.split(".")[1]) if "." in shown else 0
    try:
        return abs(float(shown) - want) <= 0.5 * 10**-digits + 1e-5 * abs(want)
    except ValueError:
        return False


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
        if line.startswith("case ") and "GB/s" in line:
            return re.findall(r"x \w+|[^\s|]+", line)
    return []


def table_rows(stdout):
    """The bandwidth table's rows: (case id, the cells after the label) for each line of it."""
    lines = stdout.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("case ") and "GB/s" in line), None)
    if start is None:
        return []
    rows = []
    for line in lines[start + 2:]:
        if line.startswith("case "):  # the per-call table
            break
        if line.strip():
            rows.append((line.split(" ", 1)[0], line))
    return rows


def summary_lines(stdout):
    """{head: text} of the closing summary's lines ("1 thread", "2 threads, 4k pages"), wrapped lines joined."""
    block = stdout.split("\nSummary: ", 1)
    check(len(block) == 2, "no closing summary")
    if len(block) < 2:
        return {}
    lines, summary = block[1].splitlines(), {}
    while lines and not lines[0].startswith("  "):  # the heading, wrapped or not
        lines.pop(0)
    last = None
    for line in lines:
        m = re.match(r"^  (\d+ threads?(?:, \w+ pages)?): (.*)", line)
        if m:
            last = m.group(1)
            summary[last] = m.group(2)
        elif last and line.startswith("    "):
            summary[last] += " " + line.strip()
        else:
            break
    return summary


def list_names(bench):
    p = subprocess.run([bench, "--list"], capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, f"--list: exit {p.returncode}")
    return [line.split(" ", 1)[0] for line in p.stdout.splitlines() if line and not line.startswith(" ")]


def check_default(bench):
    out, err = run(bench)
    check_widths("default stdout", out)
    check_widths("default stderr", err)
    check(not re.search(r"^(kind,|bandwidth,|call,|# csv)", out, re.M), "default: CSV printed without --csv")
    check(re.search(r"^level: +(scalar|avx2|avx512|neon)\b", out, re.M), "default: no level line")
    heads = table_heads(out)
    check(heads[:1] == ["case"] and {"thr", "ms", "GB/s", "x roof", "plan", "bound"} <= set(heads),
          f"default: the compact table's heads are {heads}")
    check(not {"mode", "x best", "hp-alloc", "memcpy"} & set(heads), "default: the compact table has the wide table's columns")
    check_definitions("default", out, heads)
    names = list_names(bench)
    check(names == sorted(names, key=natural_key), f"--list: not in natural order: {names}")
    rows = table_rows(out)
    ids = [case_id for case_id, _ in rows]
    threads = len(re.search(r"^threads: +([\d, ]+)", out, re.M).group(1).split(","))
    order = list(dict.fromkeys(ids))
    check(order == sorted(order, key=natural_key), f"default: the table's cases are not in natural order: {order}")
    check(all(ids.count(i) == threads for i in order), f"default: not one row per case and thread count: {ids}")
    check(len(order) >= 40, f"default: only {len(order)} cases in the table")
    summary = summary_lines(out)
    check(len(summary) == threads, f"default: the summary has {len(summary)} lines, want {threads}")
    tail = out.split("\nSummary: ", 1)[-1].splitlines()
    check(len(tail) <= 10, f"default: {len(tail)} lines from the summary on")
    check(re.search(r"^peak memory: +[0-9.]+ GiB", out, re.M), "default: no peak memory line")
    check("sum read" not in err, "default: the progress lines print the read checksum")
    check("64M" not in err, "default: a --quick progress line names the full size")


def check_csv_and_pages(bench, scratch):
    path = os.path.join(scratch, "bench-quick.csv")
    if os.path.exists(path):
        os.remove(path)
    out, _ = run(bench, "--threads", "1", "--pages", "huge,4k", "--filter", "A_,D_,I1_,I2_,I10_,K_", "--csv", path)
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
    lowest = {}  # (pages, case id) -> the lower x roof of prealloc and plan
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
        if r["mode"] in ("prealloc", "plan"):
            key = (r["pages"], r["case"].split(" ")[0])
            lowest[key] = min(lowest.get(key, math.inf), float(r["x_roof"]))
    check_table_against_csv(out, bandwidth)
    summary = summary_lines(out)
    for pages in ("huge", "4k"):
        text = summary.get(f"1 thread, {pages} pages")
        check(text is not None, f"csv: no summary line for 1 thread, {pages} pages")
        if text is None:
            continue
        cases = {c: x for (p, c), x in lowest.items() if p == pages}
        below = sorted((x, c) for c, x in cases.items() if x < GOAL)
        m = re.match(r"(\d+) of (\d+) cases(?:, none below$|; lowest: (.*))", text)
        check(m, f"csv: summary line '{text}'")
        if not m:
            continue
        check((int(m.group(1)), int(m.group(2))) == (len(cases) - len(below), len(cases)),
              f"csv: summary '{text}', want {len(cases) - len(below)} of {len(cases)}")
        named = re.findall(r"(\S+) (\d\.\d\d)", m.group(3) or "")
        check(len(named) == min(SUMMARY_LOWEST, len(below)), f"csv: summary names {named}, below: {below}")
        for case, shown in named:
            x = cases.get(case)
            # Cut to two decimals; no unnamed case below lower than a named one.
            check(x is not None and shown == f"{math.floor(x * 100) / 100:.2f}", f"csv: summary {case} {shown}, CSV {x}")
            check(x is None or all(y >= x or c in dict(named) for y, c in below), f"csv: summary skips a lower case than {case}")
    check_plot(path, scratch, [case for case, _ in table_rows(out)])


def check_table_against_csv(out, bandwidth):
    """Each table row: its prealloc row's GB/s and x roof, its plan row's x roof, its bound."""
    heads = table_heads(out)
    check("pages" in heads, f"csv: no pages column with two kinds of page: {heads}")
    by_key = {(r["case"].split(" ")[0], r["pages"], r["mode"]): r for r in bandwidth}
    seen = 0
    for case, line in table_rows(out):
        if case.startswith("K_") or case == "dispatch":
            continue
        cells = line.split()
        pages = next((c for c in cells if c in ("huge", "4k")), None)
        pre, plan = by_key.get((case, pages, "prealloc")), by_key.get((case, pages, "plan"))
        if not (pre and plan):
            check(False, f"csv: the table's {case} {pages} has no prealloc or plan row in the CSV")
            continue
        seen += 1
        gbps, x_roof, plan_x, bound = cells[-4], cells[-3], cells[-2], cells[-1]
        for shown, want, what in ((gbps, pre["gbps"], "GB/s"), (x_roof, pre["x_roof"], "x roof"),
                                  (plan_x, plan["x_roof"], "plan")):
            check(rounds_to(shown, float(want)), f"csv: {case} {pages} {what} {shown}, CSV {want}")
        check(bound == pre["roofline_bound"], f"csv: {case} {pages} bound {bound}, CSV {pre['roofline_bound']}")
    check(seen == 2 * 5, f"csv: {seen} table rows of the 5 bandwidth cases on 2 kinds of page")


def check_plot(csv_path, scratch, table_cases):
    """tools/plot-bench.py: one SVG 1200 px wide, every case of the table named in its order."""
    svg = os.path.join(scratch, "bench-quick.svg")
    p = subprocess.run([sys.executable, PLOT, csv_path, svg], capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, f"plot-bench.py: exit {p.returncode}\n{p.stderr[-2000:]}")
    if p.returncode != 0:
        return
    with open(svg, encoding="utf-8") as f:
        text = f.read()
    check(re.search(r'<svg [^>]*width="1200"', text), "plot: not 1200 px wide")
    labels = re.findall(r'<text class="case"[^>]*>([^<]*)</text>', text)
    ids = [label.split(" ", 1)[0] for label in labels]
    want = list(dict.fromkeys(c for c in table_cases if not c.startswith("K_") and c != "dispatch"))
    check(ids == want, f"plot: cases {ids}, want the table's {want}")
    check(all(" " in label for label in labels), f"plot: a case without its name: {labels}")


def check_wide(bench):
    out, _ = run(bench, "--threads", "1", "--filter", "A_", "--wide")
    heads = table_heads(out)
    for head in ("mode", "MB", "memcpy", "NT", "x best", "x roof", "bound", "hp-alloc", "malloc", "reps"):
        check(head in heads, f"wide: no column '{head}' in {heads}")
    check_definitions("wide", out, heads)
    modes = [line.split()[line.split().index("clone") + 2] for _, line in table_rows(out) if "clone" in line]
    check(sorted(modes) == ["alloc", "plan", "prealloc", "read", "write"], f"wide: A's rows are {modes}")


LEVELS = ["scalar", "avx2", "avx512"] if os.uname().machine in ("x86_64", "AMD64") else ["scalar", "neon"]


def check_level(bench):
    out, _ = run(bench, "--threads", "1", "--filter", "A_", "--level", "scalar")
    check(re.search(r"^level: +scalar ", out, re.M), "--level scalar: the level line does not say scalar")
    _, err = run(bench, "--filter", "A_", "--level", "sse2", want=1)
    check("--level wants one of this build's levels" in err, f"--level sse2: {err.strip()!r}")
    out, _ = run(bench, "--threads", "1", "--filter", "K_")
    m = re.search(r"^level: +(\w+)(.*)$", out, re.M)
    lower = re.search(r"highest is (\w+)", m.group(2)) if m else None
    highest = lower.group(1) if lower else m.group(1) if m else None
    above = LEVELS[LEVELS.index(highest) + 1:] if highest in LEVELS else []
    if above:
        _, err = run(bench, "--filter", "A_", "--level", above[0], want=1)
        check(f"this CPU runs at most level {highest}" in err, f"--level {above[0]}: {err.strip()!r}")
    else:
        print(f"--level above the CPU's: not checked, {highest} is the build's highest level")


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
        check_level(bench)
    for f in failures:
        print(f"FAIL: {f}")
    if not failures and not ran:
        print("skipped: the list passed; the cases need a GPU")
        return 77
    print(f"{'FAILED' if failures else 'passed'}: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
