#!/usr/bin/env python3
"""Self-test of tools/check_neon_loops.py on hand-written disassembly: a loop
that stores vectors is measured per element written, and a loop of the
element rule, a stack spill or an unrolled pass are read as they must be."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_neon_loops as check  # noqa: E402

# objdump -d -C --no-show-raw-insn, as the check reads it.
VECTOR = """
0000000000000000 <void row<VecNeon, F32ToF16>(char*, char const*, long, bool)>:
       0:\tmov\tx3, #0x0
       4:\tldr\tq0, [x1, #16]
       8:\tldr\tq1, [x1], #32
       c:\tfcvtn\tv0.4h, v0.4s
      10:\tfcvtn\tv1.4h, v1.4s
      14:\tstp\td1, d0, [x0], #16
      18:\tstr\tx3, [sp, #8]
      1c:\tcmp\tx1, x2
      20:\tb.ne\t4 <void row<VecNeon, F32ToF16>(char*, char const*, long, bool)+0x4>  // b.any
      24:\tret
"""

ELEMENTS = """
0000000000000000 <void row<VecNeon, F32ToF16>(char*, char const*, long, bool)>:
       0:\tldr\tw3, [x1], #4
       4:\tlsr\tw4, w3, #16
       8:\tand\tw4, w4, #0x8000
       c:\tstrh\tw4, [x0], #2
      10:\tsubs\tx2, x2, #0x1
      14:\tcbnz\tx2, 0 <void row<VecNeon, F32ToF16>(char*, char const*, long, bool)>
      18:\tret
"""

UNROLLED = """
0000000000000000 <void copy<VecNeon>(char*, char const*, long)>:
       0:\tldp\tq0, q1, [x1], #32
       4:\tst1\t{v0.16b, v1.16b}, [x0], #32
       8:\tcmp\tx1, x2
       c:\tb.ne\t0 <void copy<VecNeon>(char*, char const*, long)>
      10:\tret
"""


def only_function(text):
    funcs = check.functions(text)
    assert len(funcs) == 1
    return next(iter(funcs.values()))


class CheckNeonLoopsTest(unittest.TestCase):
    def test_a_vector_loop_counts_its_instructions_per_element_stored(self):
        kernel = check.Kernel("f16", "o", "F32ToF16", 2, 1.0)
        # 8 instructions from the branch's target on, 16 bytes of float16 (8 elements); the spill does not count.
        self.assertEqual(check.best_loop(only_function(VECTOR), kernel), (1.0, 8))

    def test_a_loop_of_the_element_rule_is_no_vector_loop(self):
        kernel = check.Kernel("f16", "o", "F32ToF16", 2, 100.0)
        self.assertIsNone(check.best_loop(only_function(ELEMENTS), kernel))

    def test_bytes_stored_set_the_elements_of_an_unrolled_pass(self):
        kernel = check.Kernel("copy", "o", "copy", 4, 1.0)
        self.assertEqual(check.best_loop(only_function(UNROLLED), kernel), (0.5, 4))

    def test_required_and_excluded_instructions_pick_the_loop(self):
        self.assertIsNone(check.best_loop(only_function(UNROLLED), check.Kernel("c", "o", "c", 4, 1.0, require=[r"zip1"])))
        self.assertIsNone(check.best_loop(only_function(VECTOR), check.Kernel("c", "o", "c", 2, 1.0, exclude=[r"\.4h"])))


if __name__ == "__main__":
    unittest.main()
