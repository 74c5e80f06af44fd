#!/usr/bin/env python3
"""Checks that the README's set-up says what the test command does.

    tools/check_setup_docs.py ROOT

Reads ROOT/README.md, ROOT/docs/getting-started.md, ROOT/tools/test-all.sh
and ROOT/CMakePresets.json, and fails unless:

- the README's "Set up" section has exactly two commands (its ```sh
  blocks), the demo's and the test command, and getting-started's "Set up"
  shows both word for word;
- the README's table of the test command's steps names the steps
  test-all.sh runs (its `step NAME ...` lines), in their order, then a row
  "all"; each row gives a wall time and a CPU time ("95 s", "12 min",
  "12 min 4 s");
- every preset the table names, and every preset test-all.sh runs
  (`tools/workflow.sh PRESET`, `main_preset=PRESET`), is a workflow preset
  of CMakePresets.json;
- getting-started's numbered list describes the same steps in the same
  order ("1. `main`: ...").

Prints what it checked, or each mismatch; exits 1 on a mismatch.
"""
import json
import os
import re
import sys

TIME = re.compile(r"^\d+ (s|min)( \d+ s)?$")


def section(text, title):
    """The text of the Markdown section `## title...` up to the next `## `."""
    m = re.search(rf"^## {re.escape(title)}.*?$(.*?)(?=^## |\Z)", text, re.M | re.S)
    return m.group(1) if m else None


def sh_blocks(text):
    return [b.strip() for b in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)]


def script_steps(script):
    """The steps test-all.sh runs, in order, and the presets it names."""
    steps = re.findall(r"^\s*step (\w+) ", script, re.M)
    presets = set(re.findall(r"tools/workflow\.sh (\w+)", script)) | set(re.findall(r"main_preset=(\w+)", script))
    return steps, presets


def table_rows(readme_setup):
    """[(step, presets named, wall, cpu)] of the README's step table."""
    rows = []
    for line in readme_setup.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not line.startswith("|") or set(cells[0]) <= set("-") or cells[0] == "step":
            continue
        rows.append((cells[0].strip("`"), re.findall(r"`(\w+)`", cells[1]), cells[3], cells[4]))
    return rows


def check(root):
    """(what was checked, problems [str])."""
    def read(rel):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            return f.read()

    problems = []
    readme, started, script = read("README.md"), read("docs/getting-started.md"), read("tools/test-all.sh")
    workflows = {p["name"] for p in json.loads(read("CMakePresets.json")).get("workflowPresets", [])}
    setup = section(readme, "Set up")
    started_setup = section(started, "Set up")
    if setup is None or started_setup is None:
        return "", ["README.md or docs/getting-started.md has no '## Set up' section"]

    commands = sh_blocks(setup)
    if len(commands) != 2:
        problems.append(f"README.md: 'Set up' has {len(commands)} commands, not 2 (the demo's and the tests')")
    for command in commands:
        if command not in sh_blocks(started_setup):
            problems.append(f"docs/getting-started.md: 'Set up' does not show the README's command: {command}")

    steps, presets = script_steps(script)
    rows = table_rows(setup)
    names = [r[0] for r in rows]
    if names != steps + ["all"]:
        problems.append(f"README.md: the step table's rows are {names}; tools/test-all.sh runs {steps}, then 'all'")
    for step, named, wall, cpu in rows:
        for what, value in (("wall", wall), ("CPU", cpu)):
            if not TIME.match(value):
                problems.append(f"README.md: step {step}: the {what} time is '{value}', not like '95 s' or '12 min 4 s'")
        for preset in named:
            if preset not in workflows:
                problems.append(f"README.md: step {step} names the preset {preset}, no workflow of CMakePresets.json")
    for preset in sorted(presets - workflows):
        problems.append(f"tools/test-all.sh runs the preset {preset}, no workflow of CMakePresets.json")

    described = re.findall(r"^\d+\. `(\w+)`:", started_setup, re.M)
    if described != steps:
        problems.append(f"docs/getting-started.md: 'Set up' describes the steps {described}; test-all.sh runs {steps}")
    return f"{len(commands)} set-up commands, the steps {steps}, presets {sorted(presets)}", problems


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    checked, problems = check(argv[1])
    for p in problems:
        print(f"FAIL: {p}")
    if problems:
        return 1
    print(f"check_setup_docs: {checked}: the README, getting started and the test command agree")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
