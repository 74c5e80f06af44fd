#!/usr/bin/env python3
"""Checks the index of notes in docs/architecture.md against src/.

A note is defined by a comment line that holds nothing but its title,
`// Note [Title]`; elsewhere it is cited as `Note [Title]`. The index is the
table under "## Index of notes": one row `| [Title] | path/of/file |` per
note. Fails (exit 1, one line per problem) when a defined note is missing
from the index or listed with another file, when the index lists a note
that no file defines, or when a file cites a note that is not defined.
Reads the files check_layers.py reads: every source under src/, the .inl
kernel sources included.

    tools/check_notes.py [REPO_ROOT]
"""
import os
import re
import sys

from check_layers import SOURCE_SUFFIXES

DEFINITION = re.compile(r"^\s*(?://|\*)\s*Note \[([^\]]+)\]\s*$")
CITATION = re.compile(r"Note \[([^\]]+)\]")
ROW = re.compile(r"^\|\s*\[([^\]]+)\]\s*\|\s*([^|]+?)\s*\|\s*$")


def scan(root):
    """(definitions {title: [files]}, citations [(file, line, title)])."""
    defined, cited = {}, []
    src = os.path.join(root, "src")
    for folder, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith(SOURCE_SUFFIXES):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8") as f:
                for lineno, line in enumerate(f, 1):
                    m = DEFINITION.match(line)
                    if m:
                        defined.setdefault(m.group(1), []).append(rel)
                        continue
                    for c in CITATION.finditer(line):
                        cited.append((rel, lineno, c.group(1)))
    return defined, cited


def read_index(doc):
    rows, in_index = {}, False
    with open(doc, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                in_index = line.strip() == "## Index of notes"
                continue
            m = ROW.match(line) if in_index else None
            if m:
                rows[m.group(1)] = m.group(2)
    return rows


def check(root):
    defined, cited = scan(root)
    index = read_index(os.path.join(root, "docs", "architecture.md"))
    problems = []
    for title, files in sorted(defined.items()):
        if len(files) > 1:
            problems.append(f"Note [{title}] is defined in {len(files)} files: {', '.join(files)}")
        if title not in index:
            problems.append(f"{files[0]}: Note [{title}] is not in the index of docs/architecture.md")
        elif index[title] != files[0]:
            problems.append(f"docs/architecture.md lists Note [{title}] in {index[title]}, but {files[0]} defines it")
    for title in sorted(index):
        if title not in defined:
            problems.append(f"docs/architecture.md lists Note [{title}], which no file under src/ defines")
    for rel, lineno, title in cited:
        if title not in defined:
            problems.append(f"{rel}:{lineno}: cites Note [{title}], which no file under src/ defines")
    return len(defined), problems


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    count, problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"check_notes: {len(problems)} problem(s)")
        return 1
    print(f"check_notes: {count} notes, each defined once, indexed and cited by their titles")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
