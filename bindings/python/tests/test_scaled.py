"""Tensor.copy_scaled_ (and stride.copy_scaled): normalize, quantize and dequantize in one copy.

Expected values come from NumPy on the same data (the float32 fma is
computed exactly in float64, then rounded once), or by hand.
"""

import unittest
import warnings

import numpy as np

import stride


def fma32(x, a, b):
    """float32 fma: x·a is exact in float64 for these inputs (8-bit x, 24-bit a), + b rounds once."""
    return (np.float64(x) * np.float64(np.float32(a)) + np.float64(np.float32(b))).astype(np.float32)


class CopyScaled(unittest.TestCase):
    def test_normalize_nhwc_uint8_into_nchw_float32(self):
        rng = np.random.default_rng(7)
        px = rng.integers(0, 256, size=(2, 5, 6, 3), dtype=np.uint8)
        mean, std = np.array([0.485, 0.456, 0.406]), np.array([0.229, 0.224, 0.225])
        out = stride.empty((2, 3, 5, 6), dtype=stride.float32)
        out.copy_scaled_(stride.from_numpy(px).permute(0, 3, 1, 2), scale=1 / (255 * std), shift=-mean / std, dim=1)
        want = (px.transpose(0, 3, 1, 2) / 255.0 - mean[None, :, None, None]) / std[None, :, None, None]
        np.testing.assert_allclose(np.asarray(out), want, rtol=0, atol=2e-6)

    def test_quantize_rounds_half_to_even_and_clamps(self):
        x = np.array([[0.5, 1.5, 2.5, -0.5], [-1.5, 300.0, -300.0, np.nan]], dtype=np.float32)
        q = stride.empty((2, 4), dtype=stride.int8)
        q.copy_scaled_(stride.from_numpy(x))
        np.testing.assert_array_equal(np.asarray(q), [[0, 2, 2, 0], [-2, 127, -128, 0]])
        # per row: QuantizeLinear with y_scale (0.5, 0.25) and zero points (1, -2)
        q.copy_scaled_(stride.from_numpy(np.nan_to_num(x)), scale=[2.0, 4.0], shift=np.array([1.0, -2.0]), dim=0)
        want = np.clip(np.rint(np.nan_to_num(x) * np.array([[2.0], [4.0]]) + np.array([[1.0], [-2.0]])), -128, 127)
        np.testing.assert_array_equal(np.asarray(q), want.astype(np.int8))

    def test_dequantize_per_column(self):
        q = np.arange(-6, 6, dtype=np.int8).reshape(3, 4)
        out = stride.empty((3, 4), dtype=stride.float32)
        scale, zp = np.array([0.5, 0.25, 2.0, 1.0]), np.array([1, 0, -1, 3])
        out.copy_scaled_(stride.from_numpy(q), scale=scale, shift=-zp * scale, dim=-1)
        np.testing.assert_array_equal(np.asarray(out), fma32(q, scale, -zp * scale))
        np.testing.assert_array_equal(np.asarray(out), ((q - zp) * scale).astype(np.float32))

    def test_saturate_float16(self):
        x = stride.from_numpy(np.array([70000.0, -1e6, np.inf, 1.0], dtype=np.float32))
        h = stride.empty((4,), dtype=stride.float16)
        h.copy_scaled_(x, saturate=True)
        np.testing.assert_array_equal(np.asarray(h), np.array([65504, -65504, 65504, 1], dtype=np.float16))
        h.copy_scaled_(x, saturate=False)
        np.testing.assert_array_equal(np.asarray(h), np.array([np.inf, -np.inf, np.inf, 1], dtype=np.float16))

    def test_one_value_broadcasts_and_none_is_identity(self):
        out = stride.empty((2, 3), dtype=stride.float64)
        out.copy_scaled_([1.0, 2.0, 3.0], scale=2, shift=[0.0, 1.0, 2.0], dim=1)
        np.testing.assert_array_equal(np.asarray(out), [[2, 5, 8], [2, 5, 8]])
        out.copy_scaled_([1.0, 2.0, 3.0])
        np.testing.assert_array_equal(np.asarray(out), [[1, 2, 3], [1, 2, 3]])

    def test_errors_speak_of_the_arguments_given(self):
        out = stride.empty((2, 3), dtype=stride.float32)
        src = stride.zeros((2, 3), dtype=stride.float32)
        cases = [
            (dict(scale=[1.0, 2.0], dim=1), stride.InvalidArgumentError,
             "Tensor.copy_scaled_: scale has 2 values: give one value, or one per index along dim 1 of the "
             "destination (3)"),
            (dict(scale=[1.0, 2.0], shift=[0.0, 0.0], dim=-1), stride.InvalidArgumentError,
             "Tensor.copy_scaled_: scale and shift have 2 values: give one value, or one per index along dim -1 of "
             "the destination (3)"),
            (dict(shift=[1.0, 2.0, 3.0], dim=2), stride.InvalidArgumentError,
             "Tensor.copy_scaled_: dim = 2 is out of range for a destination of 2 dims (expected -2..1)"),
            (dict(scale=[1.0, 2.0, 3.0], shift=[1.0, 2.0], dim=1), stride.InvalidArgumentError,
             "Tensor.copy_scaled_: scale has 3 values and shift 2 values: give each one value, or both one per "
             "index along dim"),
            (dict(scale="big"), TypeError, "scale must be a number, a sequence or an array of numbers, not str"),
            (dict(dim="1"), TypeError, "dim must be an integer, not str"),
        ]
        for kwargs, kind, message in cases:
            with self.subTest(kwargs=kwargs):
                with self.assertRaises(kind) as e:
                    out.copy_scaled_(src, **kwargs)
                self.assertEqual(str(e.exception), message)
                self.assertNotIn("ss->", str(e.exception))
        with self.assertRaises(stride.UnsupportedDtypeError) as e:
            out.copy_scaled_(stride.zeros((2, 3), dtype=stride.complex64))
        self.assertEqual(str(e.exception), "Tensor.copy_scaled_: the source has dtype complex64: scaled copies take "
                                           "real dtypes only")
        with self.assertRaisesRegex(stride.ShapeMismatchError, r"^Tensor.copy_scaled_: st_copy_scaled: "):
            out.copy_scaled_(stride.zeros((4,), dtype=stride.float32))  # the library's message, after the method
        src.release()
        with self.assertRaisesRegex(stride.InvalidHandleError, r"^Tensor.copy_scaled_: src was released"):
            out.copy_scaled_(src)

    def test_arguments_after_src_are_keyword_only(self):
        out = stride.empty((3,), dtype=stride.float32)
        with self.assertRaises(TypeError):
            out.copy_scaled_([1.0, 2.0, 3.0], 2.0)  # a scale by position is refused, not taken as something else
        out.copy_scaled_([1.0, 2.0, 3.0], scale=2.0)
        self.assertEqual(out.tolist(), [2.0, 4.0, 6.0])


class CopyScaledFunction(unittest.TestCase):
    """stride.copy_scaled, the function of stride 0.2: tensors by name, or by position with a DeprecationWarning."""

    def test_named_tensors(self):
        out = stride.empty((3,), dtype=stride.int16)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = stride.copy_scaled(src=[1.0, 2.0, 3.0], dst=out, scale=[1.0, 10.0, 100.0], shift=1.0)
        self.assertIs(got, out)
        self.assertEqual(out.tolist(), [2, 21, 301])

    def test_tensors_by_position_are_deprecated_and_still_work(self):
        out = stride.empty((3,), dtype=stride.int16)
        with self.assertWarnsRegex(DeprecationWarning, r"dst.copy_scaled_\(src, scale=") as w:
            stride.copy_scaled(out, [1.0, 2.0, 3.0], [1.0, 10.0, 100.0], 1.0)
        self.assertEqual(w.filename, __file__)  # the warning points at the caller's line
        self.assertEqual(out.tolist(), [2, 21, 301])

    def test_refusals(self):
        with self.assertRaisesRegex(TypeError, "dst must be a stride.Tensor"):
            stride.copy_scaled(dst=np.zeros(3), src=[1.0, 2.0, 3.0])
        with self.assertRaisesRegex(TypeError, "src is missing"):
            stride.copy_scaled(dst=stride.empty((3,)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            with self.assertRaisesRegex(TypeError, "got scale both by position and by name"):
                stride.copy_scaled(stride.empty((3,)), [1.0], 2.0, scale=3.0)
        with self.assertRaises(stride.InvalidArgumentError) as e:
            stride.copy_scaled(dst=stride.empty((2, 3)), src=0.0, scale=[1.0, 2.0], dim=1)
        self.assertTrue(str(e.exception).startswith("stride.copy_scaled: scale has 2 values"), str(e.exception))


if __name__ == "__main__":
    unittest.main()
