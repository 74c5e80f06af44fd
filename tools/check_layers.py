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

Inside the backends, rooms with rules of their own (the folders of
docs/architecture.md); core's subfolders (numeric/, runtime/) count as core:

    cpu          -> cpu/levels -> cpu/vec
    cuda         -> cuda/kernels, cuda/runtime

cpu/levels holds the kernel sources compiled once per instruction-set level
(with that level's flags): they include the vector traits and plain-data
tables only, so no code built with a level's flags reaches the rest of the
library. cuda/kernels (device code and its index math) never includes the
runtime (allocators, streams, devices), except its one error check,
cuda/runtime/cuda_error.h, through which a launch reports its own status.

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
    "cpu": {"cpu", "cpu/levels", "cpu/vec", "iter", "dispatch", "core"},
    "cpu/levels": {"cpu/levels", "cpu/vec", "core"},
    "cpu/vec": {"cpu/vec", "core"},
    "cuda": {"cuda", "cuda/kernels", "cuda/runtime", "iter", "dispatch", "core"},
    "cuda/kernels": {"cuda/kernels", "iter", "core"},
    "cuda/runtime": {"cuda/runtime", "core"},
    "ops": {"ops", "iter", "dispatch", "core"},
    "api": {"api", "ops", "iter", "dispatch", "core"},
}
# Single headers a room may include beside what ALLOWED says.
ALSO_ALLOWED = {
    "cuda/kernels": {"cuda/runtime/cuda_error.h"},
}


def layer_of(path):
    """The layer of a path relative to src/: its room where it has one, else its first folder."""
    parts = path.split("/")
    if len(parts) > 2 and "/".join(parts[:2]) in ALLOWED:
        return "/".join(parts[:2])
    return parts[0]

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_SUFFIXES = (".h", ".cpp", ".cu", ".cuh", ".c", ".inl")


def check(src_dir):
    """Returns (number of includes read, list of violation messages)."""
    problems = []
    count = 0
    for top in sorted(os.listdir(src_dir)):
        folder = os.path.join(src_dir, top)
        if not os.path.isdir(folder):
            continue
        if top not in ALLOWED:
            problems.append(f"{folder}: a folder the layer rule does not know; add it to tools/check_layers.py "
                            "and docs/architecture.md")
            continue
        for root, dirs, files in os.walk(folder):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(root, name)
                layer = layer_of(os.path.relpath(path, src_dir).replace(os.sep, "/"))
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
                        to = layer_of(target)
                        if to not in ALLOWED[layer] and target not in ALSO_ALLOWED.get(layer, ()):
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
