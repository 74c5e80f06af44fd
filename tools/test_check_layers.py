#!/usr/bin/env python3
"""Self-test of tools/check_layers.py: a tree that keeps the rule passes, and
each kind of break is reported with its file and line."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_layers  # noqa: E402


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


class TempTree(unittest.TestCase):
    """A test over a fresh temporary tree at self.root (also for test_check_notes.py)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()


class CheckLayersTest(TempTree):
    def test_a_tree_that_keeps_the_rule_passes(self):
        write(self.root, "core/a.h", '#include <vector>\n#include "stride.h"\n#include "core/b.h"\n')
        write(self.root, "cpu/k.cpp", '#include "iter/geometry.h"\n#include "dispatch/registration.h"\n')
        write(self.root, "api/x.cpp", '#include "ops/copy.h"\n')
        count, problems = check_layers.check(self.root)
        self.assertEqual(problems, [])
        self.assertEqual(count, 5)  # "stride.h", "core/b.h", two in cpu, one in api

    def test_an_include_upwards_names_file_and_line(self):
        path = write(self.root, "iter/t.h", '// text\n#include "core/tensor.h"\n#include "cpu/kernel.h"\n')
        _, problems = check_layers.check(self.root)
        self.assertEqual(len(problems), 1)
        self.assertTrue(problems[0].startswith(f"{path}:3: iter includes \"cpu/kernel.h\""), problems[0])

    def test_sideways_between_backends_and_ops_to_a_backend_fail(self):
        write(self.root, "cuda/a.cpp", '#include "cpu/b.h"\n')
        write(self.root, "ops/c.cpp", '#include "cuda/d.h"\n')
        write(self.root, "api/e.cpp", '#include "cpu/f.h"\n')
        _, problems = check_layers.check(self.root)
        self.assertEqual(len(problems), 3)

    def test_kernel_sources_are_read_and_other_files_are_not(self):
        path = write(self.root, "cpu/kernels.inl", '#include "cpu/vec/vec_base.h"\n#include "ops/copy.h"\n')
        write(self.root, "cpu/notes.txt", '#include "ops/copy.h"\n')
        count, problems = check_layers.check(self.root)
        self.assertEqual(count, 2)
        self.assertEqual(len(problems), 1)
        self.assertTrue(problems[0].startswith(f"{path}:2: cpu includes \"ops/copy.h\""), problems[0])

    def test_unknown_folders_and_bare_names_fail(self):
        write(self.root, "misc/a.h", "")
        write(self.root, "core/b.h", '#include "b_impl.h"\n')
        _, problems = check_layers.check(self.root)
        self.assertEqual(len(problems), 2)


if __name__ == "__main__":
    unittest.main()
