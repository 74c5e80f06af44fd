"""What the generated _capi.py (tools/gen_bindings.py) cannot vouch for: the loaded library and the package files."""

import ctypes
import os
import re
import subprocess
import unittest

import stride
from stride import _capi, _errors, _lib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


class Header(unittest.TestCase):
    def test_every_failing_status_has_its_exception(self):
        failing = set(_capi.ENUMS["st_status"].values()) - {_capi.ST_OK}
        self.assertEqual(set(_errors._BY_STATUS), failing)

    def test_dtype_rows_match_the_library(self):
        # The rows come from the core's dtype table; the library answers from its compiled copy.
        self.assertEqual(len(stride.DType), len(_capi.DTYPES))
        for dt in stride.DType:
            with self.subTest(dtype=dt):
                self.assertEqual(dt.itemsize, _lib.lib.st_dtype_itemsize(int(dt)))
                self.assertEqual(str(dt), _lib.lib.st_dtype_name(int(dt)).decode())
        self.assertEqual(_lib.lib.st_dtype_name(len(_capi.DTYPES)), b"unknown")

    def test_versions(self):
        version = f"{_capi.ST_VERSION_MAJOR}.{_capi.ST_VERSION_MINOR}.{_capi.ST_VERSION_PATCH}"
        self.assertEqual(_lib.lib.st_version_string().decode(), version)
        with open(os.path.join(ROOT, "bindings", "python", "build_backend", "stride_build.py")) as f:
            text = f.read()
        self.assertIn(f'VERSION = "{version}"', text)
        self.assertIn(f'SONAME = "{_capi.SONAME}"', text)
        dynamic = subprocess.run(["readelf", "-d", _lib.lib.path], capture_output=True, text=True).stdout
        self.assertRegex(dynamic, r"SONAME\)\s+Library soname: \[" + re.escape(_capi.SONAME) + r"\]")

    def test_the_api_table_has_every_function(self):
        api = _lib.lib.st_get_api(_capi.ST_API_VERSION).contents
        for name, _ in _capi.st_api._fields_:
            with self.subTest(field=name):
                self.assertIn("st_" + name, _capi.SIGNATURES)
                self.assertEqual(ctypes_address(getattr(api, name)), ctypes_address(getattr(_lib.lib.dll, "st_" + name)))


def ctypes_address(fn):
    return ctypes.cast(fn, ctypes.c_void_p).value


if __name__ == "__main__":
    unittest.main()
