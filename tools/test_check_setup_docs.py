#!/usr/bin/env python3
"""Self-test of tools/check_setup_docs.py: a README, getting started, test
command and presets that agree pass, and each kind of disagreement is
reported."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_setup_docs  # noqa: E402
from test_check_layers import TempTree, write  # noqa: E402

DEMO = "tools/install-deps.sh --demo && cmake -S . -B build && build/examples/demo"
TESTS = "tools/install-deps.sh && tools/test-all.sh"
SCRIPT = ("main_preset=werror\nmain_preset=cuda\nstep main tools/workflow.sh \"$main_preset\"\n"
          "  step abi tools/workflow.sh abi\n  step fuzz fuzz_step\nfuzz_step() { tools/workflow.sh fuzz; }\n")


def readme(rows, commands=(DEMO, TESTS)):
    blocks = "".join(f"```sh\n{c}\n```\n\n" for c in commands)
    table = "| step | preset | what | wall | CPU (user) |\n|---|---|---|---|---|\n" + "".join(
        f"| {r} |\n" for r in rows)
    return f"# stride\n\n## Set up (Debian 12)\n\n{blocks}{table}\n## Next\n\n```sh\nother\n```\n"


GOOD_ROWS = ["`main` | `cuda` or `werror` | all | 4 min 46 s | 12 min", "`abi` | `abi` | abi | 18 s | 30 s",
             "`fuzz` | `fuzz` | fuzz | 98 s | 2 min 1 s", "all | | | 7 min | 15 min 1 s"]


class CheckSetupDocsTest(TempTree):
    def tree(self, rows=GOOD_ROWS, commands=(DEMO, TESTS), steps="1. `main`: a\n2. `abi`: b\n3. `fuzz`: c\n",
             workflows=("werror", "cuda", "abi", "fuzz")):
        write(self.root, "README.md", readme(rows, commands))
        write(self.root, "docs/getting-started.md",
              f"# Getting started\n\n## Set up\n\n```sh\n{DEMO}\n```\n\n```sh\n{TESTS}\n```\n\n{steps}\n## A program\n")
        write(self.root, "tools/test-all.sh", SCRIPT)
        write(self.root, "CMakePresets.json", json.dumps({"workflowPresets": [{"name": w} for w in workflows]}))
        return check_setup_docs.check(self.root)[1]

    def test_agreeing_files_pass(self):
        self.assertEqual(self.tree(), [])

    def test_a_third_command_or_one_missing_from_getting_started(self):
        self.assertEqual(len(self.tree(commands=(DEMO, TESTS, "make"))), 2)  # three, and one not shown there

    def test_a_step_missing_or_out_of_order(self):
        self.assertEqual(len(self.tree(rows=[GOOD_ROWS[1], GOOD_ROWS[0], GOOD_ROWS[2], GOOD_ROWS[3]])), 1)
        self.assertEqual(len(self.tree(rows=GOOD_ROWS[:2] + GOOD_ROWS[3:])), 1)

    def test_a_row_without_its_times(self):
        problems = self.tree(rows=GOOD_ROWS[:1] + ["`abi` | `abi` | abi | ? | 30 s"] + GOOD_ROWS[2:])
        self.assertEqual(len(problems), 1)
        self.assertIn("wall time is '?'", problems[0])

    def test_a_preset_that_is_no_workflow(self):
        problems = self.tree(workflows=("werror", "abi", "fuzz"))
        self.assertEqual(len(problems), 2)  # the README's row and the script both name cuda

    def test_getting_started_describes_other_steps(self):
        self.assertEqual(len(self.tree(steps="1. `main`: a\n2. `fuzz`: c\n")), 1)


if __name__ == "__main__":
    unittest.main()
