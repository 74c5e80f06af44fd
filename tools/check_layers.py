#!/usr/bin/env python3
"""Checks the layer rule of docs/architecture.md on every #include under src/
(headers, sources and the .inl kernel sources the per-level files include).

    api -> ops -> {cpu, cuda} -> {iter, dispatch} -> core

A file may include its own folder and the folders this table allows; the
public header "stride.h" and system headers (<...>) are allowed everywhere.
Two refinements of the arrows: ops reaches the backends only through the
dispatcher, so it includes neither cpu nor cuda (their kernels register
themselves), and the C boundary never sees a kernel, so api includes neither
either.

    tools/check_layers.py [SRC_DIR]

Prints each include that breaks the rule as FILE:LINE: message and exits 1
when there is one; exits 0 (printing how many includes it read) otherwise.
"""
import os
import re
import sys

ALLOWED = {
    "core": {"core"},
    "dispatch": {"dispatch", "core"},
    "iter": {"iter", "core"},
    "cpu": {"cpu", "iter", "dispatch", "core"},
    "cuda": {"cuda", "iter", "dispatch", "core"},
    "ops": {"ops", "iter", "dispatch", "core"},
    "api": {"api", "ops", "iter", "dispatch", "core"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_SUFFIXES = (".h", ".cpp", ".cu", ".cuh", ".c", ".inl")


def check(src_dir):
    """Returns (number of includes read, list of violation messages)."""
    problems = []
    count = 0
    for layer in sorted(os.listdir(src_dir)):
        folder = os.path.join(src_dir, layer)
        if not os.path.isdir(folder):
            continue
        if layer not in ALLOWED:
            problems.append(f"{folder}: a folder the layer rule does not know; add it to tools/check_layers.py "
                            "and docs/architecture.md")
            continue
        for root, _, files in os.walk(folder):
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        count += 1
                        target = m.group(1)
                        if target == "stride.h":
                            continue
                        if "/" not in target:
                            problems.append(f"{path}:{lineno}: #include \"{target}\" names no layer; "
                                            "include it as \"<layer>/{target}\"")
                            continue
                        to = target.split("/", 1)[0]
                        if to not in ALLOWED[layer]:
                            direction = "sideways or up" if to in ALLOWED else "outside src/"
                            problems.append(f"{path}:{lineno}: {layer} includes \"{target}\" ({direction}); "
                                            f"{layer} may include {', '.join(sorted(ALLOWED[layer]))}")
    return count, problems


def main(argv):
    src_dir = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    count, problems = check(src_dir)
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} include(s) break the layer rule")
        return 1
    print(f"check_layers: {count} includes under {os.path.normpath(src_dir)} keep the layer rule")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
