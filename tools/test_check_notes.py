#!/usr/bin/env python3
"""Self-test of tools/check_notes.py: a tree whose notes are defined once,
indexed and cited by their titles passes, .inl kernel sources included, and
each kind of mismatch is reported."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_notes  # noqa: E402
from test_check_layers import TempTree, write  # noqa: E402

INDEX_HEAD = "# Architecture\n\n## Index of notes\n\n| Note | File |\n|---|---|\n"


class CheckNotesTest(TempTree):
    def index(self, rows):
        write(self.root, "docs/architecture.md", INDEX_HEAD + "".join(f"| [{t}] | {f} |\n" for t, f in rows))

    def test_defined_indexed_and_cited_notes_pass(self):
        write(self.root, "src/core/a.h", "// Note [Alpha]\n// Why alpha.\n")
        write(self.root, "src/cpu/k.inl", "// Note [Kernel]\n// As Note [Alpha] says.\n")
        write(self.root, "src/cpu/k_avx2.cpp", "// See Note [Kernel].\n")
        self.index([("Alpha", "src/core/a.h"), ("Kernel", "src/cpu/k.inl")])
        count, problems = check_notes.check(self.root)
        self.assertEqual(problems, [])
        self.assertEqual(count, 2)

    def test_a_citation_in_a_kernel_source_must_resolve(self):
        write(self.root, "src/core/a.h", "// Note [Alpha]\n")
        write(self.root, "src/cpu/k.inl", "// text\n// by the steps of Note [Missing]\n")
        self.index([("Alpha", "src/core/a.h")])
        _, problems = check_notes.check(self.root)
        self.assertEqual(problems, ["src/cpu/k.inl:2: cites Note [Missing], which no file under src/ defines"])

    def test_a_note_in_a_kernel_source_must_be_indexed(self):
        write(self.root, "src/cpu/k.inl", "// Note [Kernel]\n")
        self.index([])
        _, problems = check_notes.check(self.root)
        self.assertEqual(problems, ["src/cpu/k.inl: Note [Kernel] is not in the index of docs/architecture.md"])

    def test_index_rows_must_match_the_defining_file(self):
        write(self.root, "src/core/a.h", "// Note [Alpha]\n")
        self.index([("Alpha", "src/core/b.h"), ("Gone", "src/core/a.h")])
        _, problems = check_notes.check(self.root)
        self.assertEqual(sorted(problems), [
            "docs/architecture.md lists Note [Alpha] in src/core/b.h, but src/core/a.h defines it",
            "docs/architecture.md lists Note [Gone], which no file under src/ defines",
        ])

    def test_a_note_defined_twice_fails(self):
        write(self.root, "src/core/a.h", "// Note [Alpha]\n")
        write(self.root, "src/core/b.h", "// Note [Alpha]\n")
        self.index([("Alpha", "src/core/a.h")])
        _, problems = check_notes.check(self.root)
        self.assertEqual(len(problems), 1)
        self.assertTrue(problems[0].startswith("Note [Alpha] is defined in 2 files"), problems[0])


if __name__ == "__main__":
    unittest.main()
