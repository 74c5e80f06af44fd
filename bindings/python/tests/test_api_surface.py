"""arange and linspace against NumPy's, dtypes equal to what names them, docstrings and type hints."""

import enum
import inspect
import os
import types
import unittest

import numpy as np

import stride

try:
    import torch
except ImportError:  # the dtype comparisons with torch are then left out, and say so
    torch = None


class Ranges(unittest.TestCase):
    def test_arange_matches_numpy(self):
        cases = [(5,), (1, 5), (5, 1), (-3, 7, 2), (10, -4, -3), (0, 1, 0.25), (1.0, 2.0, 0.3), (0.5, -1.25, -0.5),
                 (0,), (3, 3), (2 ** 40, 2 ** 40 + 3)]
        for args in cases:
            with self.subTest(args=args):
                expected = np.arange(*args)
                got = stride.arange(*args)
                self.assertEqual(got.shape, expected.shape)
                self.assertEqual(got.dtype, stride.int64 if expected.dtype.kind == "i" else stride.float32)
                np.testing.assert_allclose(np.asarray(got.to(stride.float64)), expected.astype(np.float64),
                                           rtol=1e-7)

    def test_arange_dtype_and_device_arguments(self):
        got = stride.arange(1, 4, dtype="float64")
        self.assertEqual((got.dtype, got.tolist()), (stride.float64, [1.0, 2.0, 3.0]))
        self.assertEqual(stride.arange(0, 1, 0.1, dtype=np.float64).tolist(), np.arange(0, 1, 0.1).tolist())
        self.assertEqual(stride.arange(4, dtype=stride.uint8).tolist(), [0, 1, 2, 3])
        self.assertEqual(stride.arange(3, device="cpu").device, stride.cpu)

    def test_arange_refuses(self):
        with self.assertRaisesRegex(ValueError, "step must not be zero"):
            stride.arange(0, 5, 0)
        with self.assertRaisesRegex(TypeError, "stop must be a real number, not str"):
            stride.arange(1, "5")
        with self.assertRaisesRegex(TypeError, "stop must be a real number, not complex"):
            stride.arange(1j)

    def test_linspace_matches_numpy(self):
        for args, kw in [((0, 1), {}), ((2, -3, 7), {}), ((0, 1, 4), {"endpoint": False}), ((5, 5, 3), {}),
                         ((0, 1, 1), {}), ((0, 1, 0), {})]:
            with self.subTest(args=args, kw=kw):
                expected = np.linspace(*args, **kw)
                got = stride.linspace(*args, dtype=stride.float64, **kw)
                self.assertEqual(got.shape, expected.shape)
                self.assertEqual(got.tolist(), expected.tolist())
        self.assertEqual(stride.linspace(0, 1, 3).dtype, stride.float32)
        with self.assertRaisesRegex(ValueError, "num must be 0 or more"):
            stride.linspace(0, 1, -1)

    def test_a_large_arange_is_not_built_in_python(self):
        n = 10 ** 6
        got = np.asarray(stride.arange(n))
        self.assertEqual((got[0], got[n // 2], got[-1]), (0, n // 2, n - 1))


class DTypeEquality(unittest.TestCase):
    def test_equal_to_its_names(self):
        for dt in stride.DType:
            with self.subTest(dtype=str(dt)):
                self.assertEqual(dt, str(dt))
                self.assertTrue(dt == str(dt) and not dt != str(dt))
                self.assertEqual(stride.dtype(str(dt)), dt)
        self.assertEqual(stride.float32, np.float32)
        self.assertEqual(np.float32, stride.float32)
        self.assertEqual(stride.int16, np.dtype("int16"))
        self.assertEqual(np.dtype("int16"), stride.int16)
        self.assertNotEqual(stride.float32, "float16")
        self.assertNotEqual(stride.float32, np.float64)
        self.assertNotEqual(stride.float32, "no such dtype")
        self.assertNotEqual(stride.float32, None)
        self.assertEqual(len({stride.float32, stride.DType.FLOAT32}), 1)

    def test_numpy_reads_a_stride_dtype(self):
        for name in ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64", "float16",
                     "float32", "float64", "complex64", "complex128"]:
            with self.subTest(name=name):
                self.assertEqual(np.dtype(stride.dtype(name)), np.dtype(name))
                self.assertEqual(np.zeros(2, dtype=stride.dtype(name)).dtype, np.dtype(name))
        for dt in (stride.bfloat16, stride.float8_e4m3fn, stride.float8_e5m2):
            with self.assertRaises(TypeError):
                np.dtype(dt)

    @unittest.skipIf(torch is None, "torch is not installed: the torch dtype comparisons are not run")
    def test_equal_to_torch_dtypes(self):
        self.assertEqual(stride.float16, torch.float16)
        self.assertEqual(torch.bfloat16, stride.bfloat16)
        self.assertNotEqual(stride.float16, torch.float32)


def public_names():
    """(qualified name, object) of every public module-level name and every public member of a public class."""
    for name in sorted(dir(stride)):
        obj = getattr(stride, name)
        if name.startswith("_") or isinstance(obj, (types.ModuleType, enum.Enum)):
            continue  # dtype and memory format members are documented by their class
        yield name, obj
        if inspect.isclass(obj):
            for member, value in vars(obj).items():
                if member.startswith("_") or isinstance(value, enum.Enum):
                    continue
                if isinstance(value, (staticmethod, classmethod)):
                    value = value.__func__
                if callable(value) or isinstance(value, property):
                    yield f"{name}.{member}", value


class Wording(unittest.TestCase):
    def test_dim_counts_read_as_the_library_writes_them(self):
        with self.assertRaisesRegex(IndexError, "for a tensor of 1 dim$"):
            stride.zeros(3).size(1)
        with self.assertRaisesRegex(IndexError, "too many indices: 3 for a tensor of 2 dims$"):
            stride.zeros(2, 2)[0, 0, 0]
        with self.assertRaisesRegex(stride.InvalidArgumentError, "for a tensor of 1 dim "):
            stride.zeros(3).transpose(0, 1)


class Documentation(unittest.TestCase):
    def test_every_public_name_has_a_docstring(self):
        missing = [name for name, obj in public_names() if not (getattr(obj, "__doc__", None) or "").strip()]
        self.assertEqual(missing, [])

    def test_the_package_is_typed(self):
        self.assertTrue(os.path.exists(os.path.join(os.path.dirname(stride.__file__), "py.typed")))
        hints = inspect.signature(stride.arange).parameters
        self.assertIn("dtype", hints)
        self.assertEqual(inspect.signature(stride.Tensor.clone).return_annotation, "Tensor")
        self.assertEqual(inspect.signature(stride.empty).return_annotation, "Tensor")


if __name__ == "__main__":
    unittest.main()
