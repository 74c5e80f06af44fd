#!/usr/bin/env python3
"""Turns stride-bench's CSV into a chart of every bandwidth case.

    tools/plot-bench.py bench.csv chart.png [--mode prealloc] [--compare plan] [--title TEXT]

For each case (A, B, ... in the order of the CSV) and each thread count,
a bar shows stride's throughput as a fraction of the best baseline copy of
the same bytes (the faster of memcpy and a streaming-store copy, measured in
the same run: the `x_best` column), beside a bar for memcpy alone (best /
memcpy time, so 1.0 would be memcpy as fast as the best copy). A line marks
1.0. With --compare MODE, each thread count gets a third bar: the same case
in that mode (e.g. `plan`, a measured copy plan, beside `prealloc`, st_copy).
The output format follows the file name's suffix (.png or .svg).
Needs Debian's python3-matplotlib.
"""
import argparse
import csv
import sys


def read_rows(path, mode):
    """{(case, threads): (x_best, memcpy_vs_best)} and the order of cases and thread counts."""
    values, cases, threads = {}, [], []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if row.get("kind") != "bandwidth" or row.get("mode") != mode:
                continue
            case, t = row["case"], int(row["threads"])
            best_ms = min(float(row["memcpy_ms"]), float(row["nt_ms"]))
            values[(case, t)] = (float(row["x_best"]), best_ms / float(row["memcpy_ms"]))
            if case not in cases:
                cases.append(case)
            if t not in threads:
                threads.append(t)
    return values, cases, sorted(threads)


def plot(values, cases, threads, out, title, mode, compare=None):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = []  # (label, threads, values, which)
    for t in threads:
        n = f"{t} thread{'s' if t > 1 else ''}"
        series.append((f"stride {mode}, {n}" if compare else f"stride, {n}", t, values, 0))
        if compare:
            series.append((f"stride {compare[0]}, {n}", t, compare[1], 0))
        series.append((f"memcpy, {n}", t, values, 1))
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(max(8, 1.1 * len(cases)), 5))
    colors = ["#1f77b4", "#aec7e8", "#d62728", "#ff9896", "#2ca02c", "#98df8a", "#9467bd", "#c5b0d5"]
    for i, (label, t, source, which) in enumerate(series):
        xs = [c + (i - (len(series) - 1) / 2) * width for c in range(len(cases))]
        ys = [source.get((case, t), (0.0, 0.0))[which] for case in cases]
        ax.bar(xs, ys, width, label=label, color=colors[i % len(colors)])
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels([c.split(" ", 1)[0] for c in cases])
    ax.set_ylabel("fraction of the best copy of the same bytes")
    ax.set_title(title)
    ax.legend(fontsize="small", ncol=2)
    fig.tight_layout()
    fig.savefig(out)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("csv")
    parser.add_argument("out")
    parser.add_argument("--mode", default="prealloc", choices=["prealloc", "plan", "alloc"])
    parser.add_argument("--compare", choices=["prealloc", "plan", "alloc"], help="a second mode, barred beside")
    parser.add_argument("--title", default="stride-bench: each case against the best copy of its bytes")
    args = parser.parse_args(argv[1:])
    values, cases, threads = read_rows(args.csv, args.mode)
    if not cases:
        print(f"plot-bench: no bandwidth rows in mode {args.mode} in {args.csv}", file=sys.stderr)
        return 1
    compare = (args.compare, read_rows(args.csv, args.compare)[0]) if args.compare else None
    plot(values, cases, threads, args.out, args.title, args.mode, compare)
    print(f"plot-bench: {len(cases)} cases at {', '.join(map(str, threads))} threads -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
