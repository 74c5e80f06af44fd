"""stride.copy_scaled: normalize, quantize and dequantize in one copy.

Expected values come from NumPy on the same data (the float32 fma is
computed exactly in float64, then rounded once), or by hand.
"""

import unittest

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
        stride.copy_scaled(out, stride.from_numpy(px).permute(0, 3, 1, 2), scale=1 / (255 * std),
                           shift=-mean / std, dim=1)
        want = (px.transpose(0, 3, 1, 2) / 255.0 - mean[None, :, None, None]) / std[None, :, None, None]
        np.testing.assert_allclose(np.asarray(out), want, rtol=0, atol=2e-6)

    def test_quantize_rounds_half_to_even_and_clamps(self):
        x = np.array([[0.5, 1.5, 2.5, -0.5], [-1.5, 300.0, -300.0, np.nan]], dtype=np.float32)
        q = stride.empty((2, 4), dtype=stride.int8)
        stride.copy_scaled(q, stride.from_numpy(x))
        np.testing.assert_array_equal(np.asarray(q), [[0, 2, 2, 0], [-2, 127, -128, 0]])
        # per row: QuantizeLinear with y_scale (0.5, 0.25) and zero points (1, -2)
        stride.copy_scaled(q, stride.from_numpy(np.nan_to_num(x)), scale=[2.0, 4.0], shift=np.array([1.0, -2.0]),
                           dim=0)
        want = np.clip(np.rint(np.nan_to_num(x) * np.array([[2.0], [4.0]]) + np.array([[1.0], [-2.0]])), -128, 127)
        np.testing.assert_array_equal(np.asarray(q), want.astype(np.int8))

    def test_dequantize_per_column(self):
        q = np.arange(-6, 6, dtype=np.int8).reshape(3, 4)
        out = stride.empty((3, 4), dtype=stride.float32)
        scale, zp = np.array([0.5, 0.25, 2.0, 1.0]), np.array([1, 0, -1, 3])
        stride.copy_scaled(out, stride.from_numpy(q), scale=scale, shift=-zp * scale, dim=-1)
        np.testing.assert_array_equal(np.asarray(out), fma32(q, scale, -zp * scale))
        np.testing.assert_array_equal(np.asarray(out), ((q - zp) * scale).astype(np.float32))

    def test_saturate_float16(self):
        x = stride.from_numpy(np.array([70000.0, -1e6, np.inf, 1.0], dtype=np.float32))
        h = stride.empty((4,), dtype=stride.float16)
        stride.copy_scaled(h, x, saturate=True)
        np.testing.assert_array_equal(np.asarray(h), np.array([65504, -65504, 65504, 1], dtype=np.float16))
        stride.copy_scaled(h, x, saturate=False)
        np.testing.assert_array_equal(np.asarray(h), np.array([np.inf, -np.inf, np.inf, 1], dtype=np.float16))

    def test_one_value_broadcasts_and_none_is_identity(self):
        out = stride.empty((2, 3), dtype=stride.float64)
        stride.copy_scaled(out, [1.0, 2.0, 3.0], scale=2, shift=[0.0, 1.0, 2.0], dim=1)
        np.testing.assert_array_equal(np.asarray(out), [[2, 5, 8], [2, 5, 8]])
        stride.copy_scaled(out, [1.0, 2.0, 3.0])
        np.testing.assert_array_equal(np.asarray(out), [[1, 2, 3], [1, 2, 3]])

    def test_errors(self):
        out = stride.empty((2, 3), dtype=stride.float32)
        src = stride.zeros((2, 3), dtype=stride.float32)
        with self.assertRaises(stride.InvalidArgumentError) as e:
            stride.copy_scaled(out, src, scale=[1.0, 2.0], dim=1)
        self.assertIn("ss->n = 2", str(e.exception))
        with self.assertRaises(stride.InvalidArgumentError):
            stride.copy_scaled(out, src, scale=[1.0, 2.0, 3.0], dim=2)
        with self.assertRaises(stride.UnsupportedDtypeError):
            stride.copy_scaled(out, stride.zeros((2, 3), dtype=stride.complex64))
        with self.assertRaises(ValueError):
            stride.copy_scaled(out, src, scale=[1.0, 2.0, 3.0], shift=[1.0, 2.0], dim=1)
        with self.assertRaises(TypeError):
            stride.copy_scaled(np.zeros(3), src)


if __name__ == "__main__":
    unittest.main()
