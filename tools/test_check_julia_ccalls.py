"""The Julia checker must catch each kind of mistake it claims to catch."""

import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_julia_ccalls as checker  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "include", "stride.h")
SOURCE = os.path.join(ROOT, "bindings", "julia", "src", "Stride.jl")
LIBRARY = os.environ.get("STRIDE_LIBRARY")


@unittest.skipUnless(LIBRARY, "skipped: STRIDE_LIBRARY is not set")
class Checker(unittest.TestCase):
    def run_on(self, source_text):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "Stride.jl"), "w") as f:
                f.write(source_text)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = checker.main(["check", LIBRARY, HEADER, d])
            return rc, out.getvalue()

    def mutated(self, old, new):
        text = open(SOURCE).read()
        self.assertIn(old, text)
        return text.replace(old, new, 1)

    def expect_failure(self, old, new, message):
        rc, out = self.run_on(self.mutated(old, new))
        self.assertEqual(rc, 1, out)
        self.assertIn(message, out)

    def test_the_binding_passes(self):
        rc, out = self.run_on(open(SOURCE).read())
        self.assertEqual(rc, 0, out)
        self.assertRegex(out, r"julia: \d+ passed, 0 failed")

    def test_wrong_argument_type(self):
        self.expect_failure("(StTensor, Int32, Int32, Ref{StTensor}),\n                           t.h, cdim(t, 1)",
                            "(StTensor, Int64, Int32, Ref{StTensor}),\n                           t.h, cdim(t, 1)",
                            "argument 2 is Int64; C takes i32")

    def test_wrong_return_type(self):
        self.expect_failure("ccall((:st_get_num_threads, libstride), Int32, ())",
                            "ccall((:st_get_num_threads, libstride), Int64, ())", "returns Int64")

    def test_wrong_number_of_arguments(self):
        self.expect_failure("(StTensor, Int32, Ref{StTensor}),\n                           t.h, cdim(t, d; extra=1), out)",
                            "(StTensor, Ref{StTensor}),\n                           t.h, out)",
                            "2 argument types; the C function takes 3")

    def test_values_do_not_match_types(self):
        self.expect_failure("(StTensor, Int32, Ref{StTensor}),\n                           t.h, cdim(t, d; extra=1), out)",
                            "(StTensor, Int32, Ref{StTensor}),\n                           t.h, out)",
                            "passes 2 values for 3 argument types")

    def test_dims_are_one_based(self):
        self.expect_failure("t.h, cdim(t, d; extra=1), out)", "t.h, Int32(d), out)",
                            "dim is passed as 'Int32(d)', not through cdim()")
        self.expect_failure("t.h, cdims(t, perm), Int32(length(perm))", "t.h, Int32.(perm), Int32(length(perm))",
                            "dims is passed as 'Int32.(perm)', not through cdims()")
        self.expect_failure("t.h, cdim(t, d), cindex(t, d, i), out)", "t.h, cdim(t, d), Int64(i), out)",
                            "index is passed as 'Int64(i)', not through cindex()")

    def test_base_methods(self):
        self.expect_failure("function Base.fill!(t::Tensor, value::Real)", "function fill_value!(t::Tensor, value::Real)",
                            "Base.fill!: not extended for Tensor")

    def test_constants_from_the_header(self):
        self.expect_failure('const libstride = "libstride.so.0"', 'const libstride = "libstride.so.1"',
                            "must be the SONAME")
        self.expect_failure("const LIBRARY_PATH = Ref(\"\")", "const LIBRARY_PATH = Ref(\"\")\nconst MAX_DIMS = 24",
                            "stride.h defines ST_MAX_DIMS as 25")

    def test_library_read_at_run_time(self):
        self.expect_failure('const libstride = "libstride.so.0"',
                            'const libstride = "libstride.so.0"\nconst where = get(ENV, "STRIDE_LIBRARY", "")',
                            "the library path must be read")

    def test_unknown_symbol(self):
        self.expect_failure("ccall((:st_flip, libstride)", "ccall((:st_flipp, libstride)", "not a function of the C API")

    def test_unwrapped_function(self):
        self.expect_failure("ccall((:st_flip, libstride)", "ccall((:st_unsqueeze, libstride)",
                            "st_flip: declared in stride.h but no ccall wraps it")

    def test_pointer_to_scalar_is_not_opaque(self):
        self.expect_failure("(StTensor, Ref{Int64}), t.h, n))\n    return n[]\nend\n\nfunction storage_offset",
                            "(StTensor, Ref{Int32}), t.h, n))\n    return n[]\nend\n\nfunction storage_offset",
                            "argument 2 is Ref{Int32}; C takes i64*")

    def test_enum_values(self):
        self.expect_failure("    FLOAT32 = 8\n", "    FLOAT32 = 9\n", "values")

    def test_struct_fields(self):
        self.expect_failure("struct StDevice\n    type::Int32\n", "struct StDevice\n    type::Int64\n",
                            "do not mirror st_device")


if __name__ == "__main__":
    unittest.main()
