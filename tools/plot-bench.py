#!/usr/bin/env python3
"""Turns stride-bench's CSV into a chart of every bandwidth case, 1200 px wide.

    tools/plot-bench.py bench.csv chart.svg [--metric x_roof] [--mode prealloc] [--compare plan]
                        [--pages huge] [--title TEXT]

One row per case, named in full ("D transpose (8192,8192)") on the left, in
natural order (I2 before I10); in each row a horizontal bar per thread
count shows the case's figure: by default `x_roof`, the fraction of its
roofline (1.00 = as fast as the slowest of the best copy of the same bytes,
reading the source alone and writing the destination alone: stride-bench's
definitions), or with `--metric x_best` the fraction of the best copy. Each
bar ends with its figure (an arrow after it where the bar is cut at the
axis' end, 2.0); a black line marks 1.0 and a dashed one the 0.90 goal. With --compare MODE, each thread count gets a second bar: the same
case in that mode (e.g. `plan`, a measured copy plan, beside `prealloc`,
st_copy). Only the rows of one page kind are drawn (--pages, default huge;
a CSV without a pages column has huge-page rows only). The chart is SVG,
written by this script alone (no plotting package); the height grows with
the number of cases, the width stays 1200 px, so the labels and figures
read at their size on a screen of that width.
"""
import argparse
import csv
import re
import sys
from xml.sax.saxutils import escape

WIDTH = 1200
LABEL_WIDTH = 330  # the case names' column: 42 characters at 13 px
RIGHT = 60  # room for the last bar's figure
BAR, BAR_GAP, GROUP_GAP = 11, 2, 12
GOAL = 0.90
AXIS_CAP = 2.0  # a larger figure (a case whose copy beats one bound by far) ends the axis at this, its bar cut
COLORS = ["#1f77b4", "#aec7e8", "#d62728", "#ff9896", "#2ca02c", "#98df8a", "#9467bd", "#c5b0d5"]
METRICS = {"x_roof": "fraction of the roofline (x roof)", "x_best": "fraction of the best copy of the same bytes"}


def natural_key(name):
    """I2 before I10: runs of digits compare as numbers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def read_rows(path, mode, metric, pages="huge"):
    """{(case, threads): value} and the cases (natural order) and thread counts (ascending)."""
    values, cases, threads = {}, [], []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row.get("kind") != "bandwidth" or row.get("mode") != mode or row.get("pages", "huge") != pages:
                continue
            case, t = row["case"], int(row["threads"])
            values[(case, t)] = float(row[metric])
            if case not in cases:
                cases.append(case)
            if t not in threads:
                threads.append(t)
    return values, sorted(cases, key=natural_key), sorted(threads)


def svg_chart(values, cases, threads, title, metric, mode, compare=None):
    """The chart as SVG text: plain shapes and text, so that no plotting package is needed."""
    series = []  # (label, threads, values)
    for t in threads:
        n = f"{t} thread{'s' if t > 1 else ''}"
        series.append((f"stride {mode}, {n}" if compare else f"stride, {n}", t, values))
        if compare:
            series.append((f"stride {compare[0]}, {n}", t, compare[1]))
    left, right = LABEL_WIDTH, WIDTH - RIGHT
    legend_rows = (len(series) + 1) // 2
    top = 50 + 20 * legend_rows + 24  # title, legend, the axis' figures
    group = len(series) * (BAR + BAR_GAP) - BAR_GAP + GROUP_GAP
    height = top + group * len(cases) + 40
    vs = [source.get((case, t), 0.0) for _, t, source in series for case in cases]
    x_max = min(AXIS_CAP, max(1.2, max(vs, default=0) * 1.05))
    step = 0.2

    def x_of(v):
        return left + min(v, x_max) / x_max * (right - left)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="13">',
           f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
           f'<text x="{WIDTH / 2:.1f}" y="26" text-anchor="middle" font-size="17">{escape(title)}</text>']
    for c in range(0, len(cases), 2):  # every other row shaded, so that a bar is read against its name
        out.append(f'<rect x="0" y="{top + c * group - GROUP_GAP / 2:.1f}" width="{WIDTH}" height="{group}" '
                   f'fill="#f4f4f4"/>')
    for i, (label, _t, _s) in enumerate(series):
        x, y = left + (i % 2) * 300, 52 + 20 * (i // 2)
        out.append(f'<rect x="{x}" y="{y - 11}" width="13" height="13" fill="{COLORS[i % len(COLORS)]}"/>')
        out.append(f'<text x="{x + 19}" y="{y}">{escape(label)}</text>')
    bottom = height - 40
    tick = 0.0
    while tick <= x_max + 1e-9:  # the value axis, figures above and below
        x = x_of(tick)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top - 6}" y2="{bottom}" stroke="#ddd"/>')
        for y in (top - 10, bottom + 16):
            out.append(f'<text x="{x:.1f}" y="{y}" text-anchor="middle">{tick:.1f}</text>')
        tick += step
    out.append(f'<text x="{(left + right) / 2:.1f}" y="{bottom + 34}" text-anchor="middle">'
               f'{escape(METRICS[metric])}</text>')
    for c, case in enumerate(cases):
        y0 = top + c * group
        middle = y0 + (group - GROUP_GAP) / 2
        out.append(f'<text class="case" x="{left - 8}" y="{middle + 4:.1f}" text-anchor="end">{escape(case)}</text>')
        for i, (label, t, source) in enumerate(series):
            v = source.get((case, t))
            y = y0 + i * (BAR + BAR_GAP)
            if v is None:
                continue
            out.append(f'<rect x="{left}" y="{y}" width="{x_of(v) - left:.1f}" height="{BAR}" '
                       f'fill="{COLORS[i % len(COLORS)]}"><title>{escape(case)}, {escape(label)}: {v:.2f}</title></rect>')
            cut = "\u2192" if v > x_max else ""  # an arrow: the bar goes on past the axis
            out.append(f'<text x="{x_of(v) + 4:.1f}" y="{y + BAR - 1}" font-size="11">{v:.2f}{cut}</text>')
    for v, dash in ((1.0, ""), (GOAL, ' stroke-dasharray="6 4"')):
        out.append(f'<line x1="{x_of(v):.1f}" x2="{x_of(v):.1f}" y1="{top - 6}" y2="{bottom}" stroke="black"{dash}/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("out")
    parser.add_argument("--metric", default="x_roof", choices=sorted(METRICS))
    parser.add_argument("--mode", default="prealloc", choices=["prealloc", "plan", "alloc"])
    parser.add_argument("--compare", choices=["prealloc", "plan", "alloc"], help="a second mode, barred beside")
    parser.add_argument("--pages", default="huge", choices=["huge", "4k"], help="the rows of this page kind")
    parser.add_argument("--title", help="the chart's title (default: what it shows)")
    args = parser.parse_args(argv[1:])
    values, cases, threads = read_rows(args.csv, args.mode, args.metric, args.pages)
    if not cases:
        print(f"plot-bench: no bandwidth rows in mode {args.mode} on {args.pages} pages in {args.csv}", file=sys.stderr)
        return 1
    compare = (args.compare, read_rows(args.csv, args.compare, args.metric, args.pages)[0]) if args.compare else None
    title = args.title or f"stride-bench: each case as a {METRICS[args.metric]}"
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(svg_chart(values, cases, threads, title, args.metric, args.mode, compare))
    print(f"plot-bench: {len(cases)} cases at {', '.join(map(str, threads))} threads -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
