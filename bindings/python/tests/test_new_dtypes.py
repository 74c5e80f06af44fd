"""uint16, uint32, uint64, float8_e4m3fn and float8_e5m2: values against NumPy, torch and a reference decoder."""

import functools
import math
import os
import unittest

import numpy as np
import torch

import stride

# name: (exponent bits, mantissa bits, exponent bias, whether exponent all-ones holds inf/NaN as in IEEE)
FLOAT8 = {"float8_e4m3fn": (4, 3, 7, False), "float8_e5m2": (5, 2, 15, True)}
SEED = int(os.environ.get("STRIDE_TEST_SEED", "20261124"))


def decode(byte, name):
    """The value of a float8 bit pattern, from the format's definition."""
    e_bits, m_bits, bias, ieee = FLOAT8[name]
    sign = -1.0 if byte & 0x80 else 1.0
    e = (byte >> m_bits) & ((1 << e_bits) - 1)
    m = byte & ((1 << m_bits) - 1)
    if ieee and e == (1 << e_bits) - 1:
        return sign * math.inf if m == 0 else math.nan
    if not ieee and e == (1 << e_bits) - 1 and m == (1 << m_bits) - 1:
        return math.nan  # e4m3fn: S.1111.111 is its only NaN
    if e == 0:
        return sign * m * 2.0 ** (1 - bias - m_bits)
    return sign * (1 + m / (1 << m_bits)) * 2.0 ** (e - bias)


@functools.lru_cache(maxsize=None)
def _finite(name):
    """(every finite value of the format, those whose pattern has an even mantissa)."""
    values = [(decode(b, name), b) for b in range(256)]
    finite = [v for v, _ in values if math.isfinite(v)]
    return finite, {v for v, b in values if math.isfinite(v) and b & 1 == 0}


def nearest_even(x, name):
    """The float8 value x rounds to, by search over every pattern: the nearest, ties to an even mantissa.

    Beyond the largest finite value: e5m2 gives ±inf from 61440 (the midpoint to the next power) up,
    e4m3fn NaN above 464 (its midpoint to 480).
    """
    if math.isnan(x):
        return math.nan
    finite, even = _finite(name)
    top = max(finite)
    limit = 464.0 if name == "float8_e4m3fn" else 61440.0
    if abs(x) > limit or (abs(x) == limit and name == "float8_e5m2"):
        return math.copysign(math.inf, x) if name == "float8_e5m2" else math.nan
    if abs(x) >= top:
        return math.copysign(top, x)
    best = min(finite, key=lambda v: abs(v - x))
    ties = [v for v in finite if abs(v - x) == abs(best - x)]
    if len(ties) > 1:  # an even mantissa: the pattern's lowest bit is 0
        best = next(v for v in ties if v in even)
    return math.copysign(best, x) if best == 0 else best


def same(a, b):
    """Equal values, NaN equal to NaN, zeros told apart by sign."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


class Float8(unittest.TestCase):
    def test_every_pattern_decodes_to_its_value(self):
        for name in FLOAT8:
            with self.subTest(dtype=name):
                bits = np.arange(256, dtype=np.uint8)
                values = stride.from_numpy(bits, dtype=name).to(stride.float32).tolist()
                for b, v in enumerate(values):
                    self.assertTrue(same(v, decode(b, name)), f"{name} 0x{b:02x}: {v} != {decode(b, name)}")

    def test_float32_rounds_to_nearest_even(self):
        rng = np.random.default_rng(SEED)
        print(f"\n  test_float32_rounds_to_nearest_even: seed {SEED} (STRIDE_TEST_SEED)")
        special = [0.0, -0.0, 2.0 ** -9, 2.0 ** -10, 2.0 ** -16, 2.0 ** -17, 3 * 2.0 ** -17, 448, 464, 464.5, 480,
                   57344, 61439, 61440, 1e30, math.inf, -math.inf, math.nan, 0.1, -3.2, 1.0625, 1.1875]
        x = np.concatenate([np.array(special, dtype=np.float32),
                            rng.standard_normal(3000).astype(np.float32) * np.float32(2.0) ** rng.integers(-18, 17, 3000)])
        for name in FLOAT8:
            with self.subTest(dtype=name):
                out = stride.from_numpy(x).to(name).to(stride.float64).tolist()
                for v, got in zip(x.tolist(), out):
                    self.assertTrue(same(got, nearest_even(v, name)), f"{name}({v!r}) = {got}")

    def test_torch_float8_bits(self):
        for name in FLOAT8:
            with self.subTest(dtype=name):
                tdt = getattr(torch, name, None)
                if tdt is None:
                    self.skipTest(f"torch {torch.__version__} has no torch.{name} (PyTorch 2.1+)")
                x = torch.randn(4096, generator=torch.Generator().manual_seed(SEED)) * 64
                expected = x.to(tdt).view(torch.uint8).numpy()
                got = np.asarray(stride.from_dlpack(x).to(name))
                np.testing.assert_array_equal(got, expected)

    def test_torch_float8_through_dlpack(self):
        for name in FLOAT8:
            with self.subTest(dtype=name):
                tdt = getattr(torch, name, None)
                if tdt is None:
                    self.skipTest(f"torch {torch.__version__} has no torch.{name} (PyTorch 2.1+)")
                self.assertEqual(stride.dtype(tdt), stride.DType[name.upper()])
                x = torch.arange(-8, 8, dtype=torch.float32).to(tdt)
                t = stride.from_dlpack(x)
                self.assertEqual((t.dtype, t.data_ptr), (stride.DType[name.upper()], x.data_ptr()))
                back = torch.from_dlpack(t)
                self.assertEqual(back.dtype, tdt)
                self.assertTrue(torch.equal(back.view(torch.uint8), x.view(torch.uint8)))

    def test_dtype_names(self):
        for name in FLOAT8:
            self.assertEqual(str(stride.dtype(name)), name)
            self.assertEqual(stride.dtype(name).itemsize, 1)
            self.assertEqual(getattr(stride, name), stride.dtype(name))


class Unsigned(unittest.TestCase):
    NP = {stride.uint16: np.uint16, stride.uint32: np.uint32, stride.uint64: np.uint64}

    def test_from_signed_integers_wraps_as_numpy(self):
        x = np.array([-1, -2 ** 31, 2 ** 40 + 7, 65536, 0, 2 ** 63 - 1, -2 ** 63], dtype=np.int64)
        for sdt, ndt in self.NP.items():
            with self.subTest(dtype=sdt):
                got = np.asarray(stride.from_numpy(x).to(sdt))
                self.assertEqual(got.dtype, ndt)
                np.testing.assert_array_equal(got, x.astype(ndt))

    def test_to_floats_as_numpy(self):
        rng = np.random.default_rng(SEED)
        for sdt, ndt in self.NP.items():
            top = np.iinfo(ndt).max
            x = np.concatenate([np.array([0, 1, top, top - 1, top // 2 + 1], dtype=ndt),
                                rng.integers(0, top, 1000, dtype=ndt, endpoint=True)])
            for fdt in (np.float32, np.float64):
                with self.subTest(dtype=sdt, to=fdt):
                    np.testing.assert_array_equal(np.asarray(stride.from_numpy(x).to(fdt)), x.astype(fdt))

    def test_from_floats_truncates_and_saturates(self):
        # Worked by hand from the rules: toward zero; NaN -> 0; beyond the range (inf too) -> 0 or the maximum.
        x = np.array([2.9, -0.9, -5.0, 1e30, math.inf, -math.inf, math.nan, 65535.5], dtype=np.float64)
        expected = {stride.uint16: [2, 0, 0, 65535, 65535, 0, 0, 65535],
                    stride.uint32: [2, 0, 0, 2 ** 32 - 1, 2 ** 32 - 1, 0, 0, 65535],
                    stride.uint64: [2, 0, 0, 2 ** 64 - 1, 2 ** 64 - 1, 0, 0, 65535]}
        for sdt, want in expected.items():
            with self.subTest(dtype=sdt):
                self.assertEqual(stride.from_numpy(x).to(sdt).tolist(), want)

    def test_torch_unsigned_through_dlpack(self):
        for sdt in self.NP:
            with self.subTest(dtype=sdt):
                tdt = getattr(torch, str(sdt), None)
                if tdt is None:
                    self.skipTest(f"torch {torch.__version__} has no torch.{sdt} (PyTorch 2.3+)")
                self.assertEqual(stride.dtype(tdt), sdt)
                x = torch.arange(5).to(tdt)
                t = stride.from_dlpack(x)
                self.assertEqual((t.dtype, t.data_ptr), (sdt, x.data_ptr()))
                back = torch.from_dlpack(t)
                self.assertEqual(back.dtype, tdt)
                self.assertEqual(back.tolist(), [0, 1, 2, 3, 4])


if __name__ == "__main__":
    unittest.main()
