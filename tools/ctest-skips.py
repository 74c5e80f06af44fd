#!/usr/bin/env python3
"""Prints one line per test that ctest skipped, with the reason it printed.

    tools/ctest-skips.py JUNIT.xml

JUNIT.xml is what `ctest --output-junit` wrote (LastTest.log records a
skipped test as passed, so it cannot tell). The reason is the first line
of the test's output that speaks of skipping (a runner's summary line may
follow it), else its last line. A skipped test that printed nothing fails
the script: every skip must say why.
"""
import sys
import xml.etree.ElementTree as ET


def reason(output):
    lines = [line.strip() for line in (output or "").splitlines() if line.strip()]
    for line in lines:
        if "skip" in line.lower():
            return line
    return lines[-1] if lines else None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    silent = []
    for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
        if case.find("skipped") is None:
            continue
        why = reason(case.findtext("system-out"))
        if why is None:
            silent.append(case.get("name"))
        print(f"  skipped {case.get('name')}: {why or '(no reason printed)'}")
    if silent:
        print(f"ctest-skips: skipped without a printed reason: {' '.join(silent)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
