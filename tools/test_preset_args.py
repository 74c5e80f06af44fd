#!/usr/bin/env python3
"""Self-test of tools/preset_args.py: inherited cache variables (a preset's
own first, then its first parent's), the toolchain file and the macros
expanded, and the real file's tsan and gpu presets as written out here by
hand."""
import os
import subprocess
import sys
import unittest

TOOLS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TOOLS)
import preset_args  # noqa: E402

ROOT = os.path.dirname(TOOLS)


class PresetArgsTest(unittest.TestCase):
    PRESETS = {
        "base": {"name": "base", "hidden": True, "generator": "Ninja", "cacheVariables": {"A": "base", "B": "base"}},
        "other": {"name": "other", "hidden": True, "cacheVariables": {"B": "other", "C": "other"}},
        "child": {"name": "child", "inherits": ["base", "other"], "cacheVariables": {"A": "child"},
                  "toolchainFile": "${sourceDir}/t.cmake"},
        "loop": {"name": "loop", "inherits": "loop"},
    }

    def test_own_values_win_then_the_first_parent(self):
        p = preset_args.resolve(self.PRESETS, "child")
        self.assertEqual(p["cacheVariables"], {"A": "child", "B": "base", "C": "other"})
        self.assertEqual(p["generator"], "Ninja")
        self.assertEqual(p["toolchainFile"], "${sourceDir}/t.cmake")

    def test_unknown_and_circular_presets_are_refused(self):
        with self.assertRaises(SystemExit):
            preset_args.resolve(self.PRESETS, "none")
        with self.assertRaises(SystemExit):
            preset_args.resolve(self.PRESETS, "loop")

    def run_tool(self, preset):
        p = subprocess.run([sys.executable, os.path.join(TOOLS, "preset_args.py"), preset], capture_output=True,
                           text=True, check=True)
        return p.stdout.splitlines()

    def test_the_tsan_preset(self):
        self.assertEqual(self.run_tool("tsan"), [
            "-G", "Ninja", "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g",
            "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g", "-DSTRIDE_WITH_CUDA=OFF", "-DSTRIDE_BUILD_BENCH=OFF",
            "-DSTRIDE_BUILD_DOCS=OFF", "-DSTRIDE_SANITIZE=thread", "-DSTRIDE_WITH_OPENMP=OFF",
            "-DSTRIDE_BUILD_EXAMPLES=OFF"])

    def test_the_mingw_preset_expands_the_source_folder(self):
        args = self.run_tool("mingw")
        self.assertIn(f"-DCMAKE_TOOLCHAIN_FILE={ROOT}/cmake/toolchains/x86_64-w64-mingw32.cmake", args)
        self.assertIn(f"-DCMAKE_PREFIX_PATH={ROOT}/build-mingw/cmocka", args)
        self.assertIn("-DSTRIDE_WERROR=ON", args)


if __name__ == "__main__":
    unittest.main()
