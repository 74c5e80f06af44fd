"""The ctypes layer mirrors include/stride.h: every function, enum value, struct and version number."""

import ctypes
import os
import re
import subprocess
import sys
import unittest

import stride
from stride import _errors, _lib, _types

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import stride_header  # noqa: E402

SCALARS = {"i32": ctypes.c_int32, "u32": ctypes.c_uint32, "i64": ctypes.c_int64, "u64": ctypes.c_uint64,
           "size": ctypes.c_size_t, "f64": ctypes.c_double}
STRUCTS = {"st_tensor": _lib.st_tensor, "st_device": _lib.st_device, "st_allocator": _lib.st_allocator,
           "st_scale_shift": _lib.st_scale_shift, "st_copy_plan": _lib.st_copy_plan}


def matches(ctype, c):
    """Whether the ctypes type `ctype` passes the C type `c` (stride_header's form) correctly."""
    if c == "void":
        return ctype is None
    if c == "fnptr":
        return isinstance(ctype, type) and issubclass(ctype, ctypes._CFuncPtr)
    if isinstance(c, tuple):
        inner = c[1]
        if inner == "char":
            return ctype is ctypes.c_char_p
        if ctype is ctypes.c_void_p:  # an opaque pointer: void*, a DLPack struct, st_api
            return inner == "void" or inner in ("DLManagedTensor", "DLManagedTensorVersioned", "st_api") \
                or isinstance(inner, tuple)
        return hasattr(ctype, "_type_") and issubclass(ctype, ctypes._Pointer) and matches(ctype._type_, inner)
    if c in SCALARS:
        return ctype is SCALARS[c]
    return ctype is STRUCTS.get(c)


class Header(unittest.TestCase):
    def test_every_function_with_its_types(self):
        declared = stride_header.declarations()
        self.assertEqual(sorted(set(declared) - set(_lib.SIGNATURES)), [], "functions of stride.h with no signature")
        self.assertEqual(sorted(set(_lib.SIGNATURES) - set(declared)), [], "signatures of no function of stride.h")
        for name, (restype, argtypes) in _lib.SIGNATURES.items():
            ret, params = declared[name]
            with self.subTest(function=name):
                self.assertTrue(matches(restype, ret), f"returns {restype}; C returns {ret}")
                self.assertEqual(len(argtypes), len(params))
                for i, (a, (c, pname)) in enumerate(zip(argtypes, params)):
                    self.assertTrue(matches(a, c), f"argument {i + 1} ({pname}) is {a}; C takes {c}")

    def test_structs(self):
        structs = stride_header.structs()
        for name, cls in STRUCTS.items():
            with self.subTest(struct=name):
                fields = structs[name]
                self.assertEqual([f[0] for f in cls._fields_], [f[1] for f in fields])
                for (_, ctype), (c, _) in zip(cls._fields_, fields):
                    self.assertTrue(matches(ctype, c), f"{name}: {ctype} for {c}")

    def test_enums(self):
        enums = stride_header.enums()
        pairs = ((_types.DType, "st_dtype", "ST_"), (_types.DeviceType, "st_device_type", "ST_DEVICE_"),
                 (_types.MemoryFormat, "st_memory_format", "ST_MEMORY_FORMAT_"))
        for cls, cname, prefix in pairs:
            with self.subTest(enum=cname):
                self.assertEqual({m.name: int(m) for m in cls}, {k[len(prefix):]: v for k, v in enums[cname].items()})
        statuses = {k[len("ST_ERROR_"):] if k != "ST_OK" else "OK": v for k, v in enums["st_status"].items()}
        self.assertEqual({k: getattr(_errors, k) for k in statuses}, statuses)
        self.assertEqual(set(_errors._BY_STATUS), set(statuses.values()) - {0})

    def test_dtype_rows_match_the_library(self):
        for dt in stride.DType:
            with self.subTest(dtype=dt):
                self.assertEqual(dt.itemsize, _lib.lib.st_dtype_itemsize(int(dt)))
                self.assertEqual(str(dt), _lib.lib.st_dtype_name(int(dt)).decode())

    def test_versions(self):
        defines = stride_header.defines()
        version = "{ST_VERSION_MAJOR}.{ST_VERSION_MINOR}.{ST_VERSION_PATCH}".format(**defines)
        self.assertEqual(_lib.SONAME, f"libstride.so.{defines['ST_VERSION_MAJOR']}")
        self.assertEqual(_lib.API_VERSION, defines["ST_API_VERSION"])
        with open(os.path.join(ROOT, "bindings", "python", "pyproject.toml")) as f:
            self.assertIn(f'\nversion = "{version}"\n', f.read())
        with open(os.path.join(ROOT, "bindings", "python", "setup.py")) as f:
            self.assertIn(f'VERSION = "{version}"', f.read())
        dynamic = subprocess.run(["readelf", "-d", _lib.lib.path], capture_output=True, text=True).stdout
        self.assertRegex(dynamic, r"SONAME\)\s+Library soname: \[" + re.escape(_lib.SONAME) + r"\]")


if __name__ == "__main__":
    unittest.main()
