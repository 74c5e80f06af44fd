#!/usr/bin/env python3
"""Turns stride-bench's CSV into a chart of every bandwidth case.

    tools/plot-bench.py bench.csv chart.svg [--mode prealloc] [--compare plan] [--pages huge] [--title TEXT]

For each case (A, B, ... in the order of the CSV) and each thread count,
a bar shows stride's throughput as a fraction of the best baseline copy of
the same bytes (the faster of memcpy and a streaming-store copy, measured in
the same run: the `x_best` column), beside a bar for memcpy alone (best /
memcpy time, so 1.0 would be memcpy as fast as the best copy). A line marks
1.0. With --compare MODE, each thread count gets a third bar: the same case
in that mode (e.g. `plan`, a measured copy plan, beside `prealloc`, st_copy).
Only the rows of one page kind are drawn (--pages, default huge; a CSV
without a pages column has huge-page rows only). The chart is SVG, written
by this script alone (no plotting package).
"""
import argparse
import csv
import sys
from xml.sax.saxutils import escape


def read_rows(path, mode, pages="huge"):
    """{(case, threads): (x_best, memcpy_vs_best)} and the order of cases and thread counts."""
    values, cases, threads = {}, [], []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row.get("kind") != "bandwidth" or row.get("mode") != mode or row.get("pages", "huge") != pages:
                continue
            case, t = row["case"], int(row["threads"])
            best_ms = min(float(row["memcpy_ms"]), float(row["nt_ms"]))
            values[(case, t)] = (float(row["x_best"]), best_ms / float(row["memcpy_ms"]))
            if case not in cases:
                cases.append(case)
            if t not in threads:
                threads.append(t)
    return values, cases, sorted(threads)


COLORS = ["#1f77b4", "#aec7e8", "#d62728", "#ff9896", "#2ca02c", "#98df8a", "#9467bd", "#c5b0d5"]


def svg_chart(values, cases, threads, title, mode, compare=None):
    """The bar chart as SVG text: plain shapes and text, so that no plotting package is needed."""
    series = []  # (label, threads, values, which)
    for t in threads:
        n = f"{t} thread{'s' if t > 1 else ''}"
        series.append((f"stride {mode}, {n}" if compare else f"stride, {n}", t, values, 0))
        if compare:
            series.append((f"stride {compare[0]}, {n}", t, compare[1], 0))
        series.append((f"memcpy, {n}", t, values, 1))
    group, left, top, height = 70, 70, 50, 300
    width = max(left + group * len(cases), left + 2 * 260) + 20  # the bars, or the two legend columns
    legend_rows = (len(series) + 1) // 2
    total = top + height + 40 + 18 * legend_rows + 10
    ys = [source.get((case, t), (0.0, 0.0))[which] for _, t, source, which in series for case in cases]
    y_max = max(1.2, max(ys, default=0) * 1.05)

    def y_of(v):
        return top + height - v / y_max * height

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{total}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{total}" fill="white"/>',
           f'<text x="{width / 2:.1f}" y="25" text-anchor="middle" font-size="15">{escape(title)}</text>']
    tick = 0.0
    while tick <= y_max + 1e-9:  # the value axis, every 0.2
        out.append(f'<line x1="{left}" x2="{width - 20}" y1="{y_of(tick):.1f}" y2="{y_of(tick):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y_of(tick) + 4:.1f}" text-anchor="end">{tick:.1f}</text>')
        tick += 0.2
    bar = 0.8 * group / len(series)
    for c, case in enumerate(cases):
        x0 = left + c * group + 0.1 * group
        for i, (_, t, source, which) in enumerate(series):
            v = source.get((case, t), (0.0, 0.0))[which]
            out.append(f'<rect x="{x0 + i * bar:.1f}" y="{y_of(v):.1f}" width="{bar:.1f}" '
                       f'height="{top + height - y_of(v):.1f}" fill="{COLORS[i % len(COLORS)]}"><title>'
                       f'{escape(case)}, {escape(series[i][0])}: {v:.2f}</title></rect>')
        out.append(f'<text x="{left + (c + 0.5) * group:.1f}" y="{top + height + 16}" text-anchor="middle">'
                   f'{escape(case.split(" ", 1)[0])}</text>')
    out.append(f'<line x1="{left}" x2="{width - 20}" y1="{y_of(1.0):.1f}" y2="{y_of(1.0):.1f}" stroke="black"/>')
    out.append(f'<text transform="translate(16 {top + height / 2}) rotate(-90)" text-anchor="middle">'
               f'fraction of the best copy of the same bytes</text>')
    for i, (label, *_rest) in enumerate(series):
        x, y = left + (i % 2) * 260, top + height + 40 + 18 * (i // 2)
        out.append(f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{COLORS[i % len(COLORS)]}"/>')
        out.append(f'<text x="{x + 18}" y="{y}">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("out")
    parser.add_argument("--mode", default="prealloc", choices=["prealloc", "plan", "alloc"])
    parser.add_argument("--compare", choices=["prealloc", "plan", "alloc"], help="a second mode, barred beside")
    parser.add_argument("--pages", default="huge", choices=["huge", "4k"], help="the rows of this page kind")
    parser.add_argument("--title", default="stride-bench: each case against the best copy of its bytes")
    args = parser.parse_args(argv[1:])
    values, cases, threads = read_rows(args.csv, args.mode, args.pages)
    if not cases:
        print(f"plot-bench: no bandwidth rows in mode {args.mode} on {args.pages} pages in {args.csv}", file=sys.stderr)
        return 1
    compare = (args.compare, read_rows(args.csv, args.compare, args.pages)[0]) if args.compare else None
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(svg_chart(values, cases, threads, args.title, args.mode, compare))
    print(f"plot-bench: {len(cases)} cases at {', '.join(map(str, threads))} threads -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
