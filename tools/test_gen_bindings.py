#!/usr/bin/env python3
"""tools/gen_bindings.py: what it writes for a header row, and that its check fails on a stale file."""

import contextlib
import ctypes
import io
import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_bindings  # noqa: E402
import stride_header  # noqa: E402

HEADER = stride_header.read()
TABLE = stride_header.read(stride_header.DTYPE_TABLE)

# A dtype appended to the header and to the core table, as docs/contributing.md says to add one.
NEW_HEADER = HEADER.replace("  ST_FLOAT6_E3M2FN = 20\n} st_dtype;", "  ST_FLOAT6_E3M2FN = 20,\n  ST_INT4X2 = 21\n} st_dtype;")
_LAST_ROW_END = re.compile(r"__VA_ARGS__\)[ ]*\n").search(TABLE, TABLE.index("#define ST_FORALL_DTYPES")).start()
NEW_TABLE = (TABLE[:_LAST_ROW_END] + "__VA_ARGS__) \\\n"
             "  _(Int4x2, uint8_t, ST_INT4X2, \"int4x2\", 1, ST_DLPACK_INT, 8, Signed, __VA_ARGS__)" +
             TABLE[_LAST_ROW_END + len("__VA_ARGS__)"):])
# A function added to the header.
NEW_FUNCTION = HEADER.replace("ST_API const st_api* st_get_api(uint32_t version);",
                              "ST_API const st_api* st_get_api(uint32_t version);\n"
                              "ST_API st_status st_tensor_nbytes(st_tensor t, const int64_t* in, st_dtype* out);")


def python_layer(files):
    namespace = {}
    exec(compile(files["bindings/python/stride/_capi.py"], "_capi.py", "exec"), namespace)
    return namespace


class Generation(unittest.TestCase):
    def test_the_table_and_the_header_agree(self):
        for edited, original in ((NEW_HEADER, HEADER), (NEW_FUNCTION, HEADER)):
            self.assertNotEqual(edited, original, "the test's header edit no longer applies")
        rows = stride_header.dtypes(stride_header.parse(NEW_HEADER), NEW_TABLE)
        self.assertEqual(rows[-1], stride_header.DType("ST_INT4X2", 21, "int4x2", 1, "i", 0, 8))
        with self.assertRaises(ValueError):
            stride_header.dtypes(stride_header.parse(NEW_HEADER), TABLE)

    def test_a_new_dtype_reaches_every_binding(self):
        files = gen_bindings.generate(NEW_HEADER, NEW_TABLE)
        py = python_layer(files)
        self.assertEqual(py["ST_INT4X2"], 21)
        self.assertEqual(py["ENUMS"]["st_dtype"]["INT4X2"], 21)
        self.assertEqual(py["DTYPES"][-1], ("ST_INT4X2", 21, "int4x2", 1, "i", 0, 8))
        self.assertIn("pub const ST_INT4X2: st_dtype = 21;", files["bindings/rust/stride-sys/src/capi.rs"])
        self.assertIn("    Int4x2 = 21,", files["bindings/rust/stride/src/enums.rs"])
        self.assertIn("pub const ALL: [DType; 22]", files["bindings/rust/stride/src/enums.rs"])
        self.assertRegex(files["bindings/go/capi_gen.go"], r"\tInt4x2 +DType = C\.ST_INT4X2\n")  # aligned to the longest name
        self.assertIn("\tInt4x2,\n}", files["bindings/go/capi_gen.go"])
        self.assertIn("    INT4X2 = 21\nend", files["bindings/julia/src/capi.jl"])

    def test_a_new_function_reaches_every_binding(self):
        files = gen_bindings.generate(NEW_FUNCTION, TABLE)
        py = python_layer(files)
        restype, argtypes = py["SIGNATURES"]["st_tensor_nbytes"]
        self.assertIs(restype, ctypes.c_int32)
        self.assertEqual(argtypes[0], py["st_tensor"])
        self.assertEqual(argtypes[1:], [ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int32)])
        self.assertIn("    pub fn st_tensor_nbytes(t: st_tensor, in_: *const i64, out: *mut st_dtype) -> st_status;",
                      files["bindings/rust/stride-sys/src/capi.rs"])
        self.assertIn("st_tensor_nbytes(t, in_, out) =\n    ccall((:st_tensor_nbytes, libstride), Int32, "
                      "(StTensor, Ptr{Int64}, Ptr{Int32}), t, in_, out)\n", files["bindings/julia/src/capi.jl"])

    def test_the_python_layer_has_the_headers_types(self):
        py = python_layer(gen_bindings.generate())
        c = ctypes
        self.assertEqual(py["SIGNATURES"]["st_copy"], (c.c_int32, [py["st_tensor"], py["st_tensor"], c.c_int32]))
        self.assertEqual(py["SIGNATURES"]["st_dtype_itemsize"], (c.c_size_t, [c.c_int32]))
        self.assertEqual(py["SIGNATURES"]["st_to_dlpack"][1][1], c.POINTER(c.c_void_p))
        self.assertEqual(py["SIGNATURES"]["st_status_name"], (c.c_char_p, [c.c_int32]))
        self.assertEqual([f for f, _ in py["st_scale_shift"]._fields_], ["scale", "shift", "n", "dim", "saturate"])
        self.assertEqual(c.sizeof(py["st_scale_shift"]), 32)
        self.assertEqual(py["SONAME"], "libstride.so.0")

    def test_the_check_fails_on_a_stale_file(self):
        with tempfile.TemporaryDirectory() as fresh, tempfile.TemporaryDirectory() as checkout:
            files = gen_bindings.generate()
            gen_bindings.write(files, fresh)
            gen_bindings.write(files, checkout)
            self.assertEqual(gen_bindings.differences(fresh, checkout), [])
            stale = os.path.join(checkout, "bindings/go/capi_gen.go")
            with open(stale, "a") as f:
                f.write("// edited by hand\n")
            diffs = gen_bindings.differences(fresh, checkout)
            self.assertEqual(len(diffs), 1)
            self.assertIn("-// edited by hand", diffs[0])
            os.remove(os.path.join(checkout, "bindings/julia/src/capi.jl"))
            self.assertEqual(len(gen_bindings.differences(fresh, checkout)), 2)
            shutil.rmtree(os.path.join(checkout, "bindings"))
            with contextlib.redirect_stdout(io.StringIO()) as out:
                self.assertEqual(gen_bindings.main(["--check", "--root", checkout]), 1)
            self.assertIn(f"{len(files)} generated file(s) differ", out.getvalue())

    def test_the_packages_carry_the_headers_version(self):
        header = re.sub(r"#define ST_VERSION_MINOR \d+", "#define ST_VERSION_MINOR 17", HEADER)
        files = gen_bindings.generate(header, TABLE)
        for rel, pattern in gen_bindings.VERSIONED.items():
            found = re.search(pattern, files[rel], re.M)
            self.assertEqual(found.group(1), "0.17.0", rel)
        toml = files["bindings/rust/stride/Cargo.toml"]
        self.assertIn('rust-version = "1.63"', toml)  # only the first version line changes
        with self.assertRaisesRegex(ValueError, "no line matching"):
            gen_bindings.stamped("bindings/julia/Project.toml", "name = \"Stride\"\n", "1.0.0")


if __name__ == "__main__":
    unittest.main()
