#!/usr/bin/env python3
"""Prints a configure preset of CMakePresets.json as cmake arguments, one a line.

    tools/preset_args.py PRESET

For a CMake older than 3.25, which cannot read the file's schema (version
6): its generator (-G), toolchain file and cache variables, inherited ones
included (a preset's own value wins over those it inherits, the first of
several parents over the later ones), with ${sourceDir} and ${presetName}
expanded. The binary folder is left to the caller (-B).
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def resolve(presets, name, seen=()):
    """The preset's fields with its parents' filled in."""
    if name not in presets:
        raise SystemExit(f"preset_args: no configure preset '{name}' in CMakePresets.json")
    if name in seen:
        raise SystemExit(f"preset_args: preset '{name}' inherits itself")
    preset = presets[name]
    parents = preset.get("inherits", [])
    if isinstance(parents, str):
        parents = [parents]
    merged = {"cacheVariables": {}}
    for parent in reversed(parents):  # the first parent wins: applied last
        p = resolve(presets, parent, seen + (name,))
        merged.update({k: v for k, v in p.items() if k != "cacheVariables"})
        merged["cacheVariables"].update(p["cacheVariables"])
    merged.update({k: v for k, v in preset.items() if k not in ("cacheVariables", "inherits", "hidden", "name")})
    merged["cacheVariables"].update(preset.get("cacheVariables", {}))
    return merged


def main(argv):
    if len(argv) != 2:
        raise SystemExit(__doc__)
    with open(os.path.join(ROOT, "CMakePresets.json"), encoding="utf-8") as f:
        presets = {p["name"]: p for p in json.load(f)["configurePresets"]}
    name = argv[1]
    preset = resolve(presets, name)

    def expand(text):
        return text.replace("${sourceDir}", ROOT).replace("${presetName}", name)

    args = []
    if "generator" in preset:
        args += ["-G", preset["generator"]]
    if "toolchainFile" in preset:
        args.append("-DCMAKE_TOOLCHAIN_FILE=" + expand(preset["toolchainFile"]))
    for key, value in preset["cacheVariables"].items():
        if isinstance(value, dict):
            value = value.get("value", "")
        elif isinstance(value, bool):
            value = "ON" if value else "OFF"
        args.append(f"-D{key}={expand(value)}")
    print("\n".join(args))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
