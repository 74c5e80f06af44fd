"""stride.quantize_blocks and stride.dequantize_blocks: against codes worked out by hand and a reference of the rules.

The reference below is written from include/stride.h's rules and the
formats' definitions (OCP MX v1.0, NVFP4), apart from the library: every
value of an element format is decoded from its bits, x / X is rounded by
search over them in exact rational arithmetic (ties to the even code), and
the scale's exponent is read from the float's bits (math.frexp), never
from a float log2.
"""

import bisect
import functools
import math
import os
import unittest
from fractions import Fraction

import numpy as np

import stride

SEED = int(os.environ.get("STRIDE_TEST_SEED", "20261128"))

# Element formats: (exponent bits, mantissa bits, bias, whether S.1111.111 is NaN (e4m3fn), IEEE inf/NaN (e5m2)).
MINIFLOAT = {"e4m3": (4, 3, 7, True, False), "e5m2": (5, 2, 15, False, True), "e2m3": (2, 3, 1, False, False),
             "e3m2": (3, 2, 3, False, False), "e2m1": (2, 1, 1, False, False)}
# format: (element, OCP emax of the element, block, values packed two a byte)
FORMATS = {"mxfp8_e4m3": ("e4m3", 8, 32, False), "mxfp8_e5m2": ("e5m2", 15, 32, False),
           "mxfp6_e2m3": ("e2m3", 2, 32, False), "mxfp6_e3m2": ("e3m2", 4, 32, False),
           "mxfp4": ("e2m1", 2, 32, True), "mxint8": ("int8", 0, 32, False), "nvfp4": ("e2m1", None, 16, True)}
VALUE_DTYPES = {"mxfp8_e4m3": stride.float8_e4m3fn, "mxfp8_e5m2": stride.float8_e5m2,
                "mxfp6_e2m3": stride.float6_e2m3fn, "mxfp6_e3m2": stride.float6_e3m2fn,
                "mxfp4": stride.float4_e2m1fn_x2, "mxint8": stride.int8, "nvfp4": stride.float4_e2m1fn_x2}
E2M1 = [0, 0.5, 1, 1.5, 2, 3, 4, 6]  # the eight magnitudes of E2M1, by code


def decode(code, element):
    """The value of an element code (a byte, as stored), from the format's definition."""
    if element == "int8":
        return Fraction(code - 256 if code >= 128 else code, 64)
    e_bits, m_bits, bias, fn_nan, ieee = MINIFLOAT[element]
    width = 1 + e_bits + m_bits
    sign = -1 if code >> (width - 1) & 1 else 1
    e = (code >> m_bits) & ((1 << e_bits) - 1)
    m = code & ((1 << m_bits) - 1)
    top = (1 << e_bits) - 1
    if (ieee and e == top) or (fn_nan and e == top and m == (1 << m_bits) - 1):
        return math.nan if m or not ieee else sign * math.inf
    if e == 0:
        return sign * Fraction(m, 1 << m_bits) * Fraction(2) ** (1 - bias)
    return sign * (1 + Fraction(m, 1 << m_bits)) * Fraction(2) ** (e - bias)


@functools.lru_cache(maxsize=None)
def magnitudes(element):
    """(the sorted finite magnitudes >= 0, the code of each)."""
    codes = range(128) if element in ("int8", "e4m3", "e5m2") else range(32 if element in ("e2m3", "e3m2") else 8)
    pairs = sorted((decode(c, element), c) for c in codes if not isinstance(decode(c, element), float))
    return [v for v, _ in pairs], [c for _, c in pairs]


def encode(x, element, negative=None):
    """x (a Fraction) rounded once to nearest on the element's grid, ties to the even code, beyond the largest
    to ±largest; the stored byte. `negative`: the sign, where x is a zero that had one (−0 stays −0; int8 has
    none)."""
    values, codes = magnitudes(element)
    a = abs(x)
    i = bisect.bisect_left(values, a)
    if i == len(values):
        c = codes[-1]
    elif values[i] == a or i == 0:
        c = codes[i]
    else:
        lo, hi = a - values[i - 1], values[i] - a
        c = codes[i - 1] if lo < hi or (lo == hi and codes[i - 1] % 2 == 0) else codes[i]
    if x < 0 if negative is None else negative:
        if element == "int8":
            return -c % 256
        return c | {"e4m3": 0x80, "e5m2": 0x80, "e2m3": 0x20, "e3m2": 0x20, "e2m1": 0x8}[element]
    return c


def floor_log2(a):
    """floor(log2 a) of a positive float, from its exponent bits (math.frexp: a = m 2^e, 0.5 <= m < 1)."""
    return math.frexp(a)[1] - 1


def mx_block(block, element, emax, rule):
    """(scale byte, element codes) of one MX block of float values (finite)."""
    amax = max(abs(Fraction(float(x))) for x in block)
    if amax == 0:
        k = -127
    elif rule == "floor":
        k = max(floor_log2(float(amax)) - emax, -127)
    else:  # the smallest k with amax <= largest · 2^k
        top = magnitudes(element)[0][-1]
        k = floor_log2(float(amax / top)) - 1
        while amax > top * Fraction(2) ** k:
            k += 1
        k = max(k, -127)
    scale = Fraction(2) ** k
    return 127 + k, [encode(Fraction(float(x)) / scale, element, bool(np.signbit(x))) for x in block]


def nvfp4_block(block, g):
    """(scale byte, element codes) of one NVFP4 block (finite), global scale g (0 meaning 1)."""
    g = Fraction(float(g)) if g else Fraction(1)
    amax = max(abs(Fraction(float(x))) for x in block)
    s_code = encode(amax / (6 * g), "e4m3")  # nonnegative: saturates at 448 (0x7E)
    s = decode(s_code, "e4m3")
    if s == 0:
        return s_code, [0x8 if np.signbit(x) else 0 for x in block]
    return s_code, [encode(Fraction(float(x)) / (s * g), "e2m1", bool(np.signbit(x))) for x in block]


def reference(x, fmt, rule="floor", g=0.0):
    """(values bytes, scales bytes) of a 2-d float array quantized along its last dim, as uint8 arrays."""
    element, emax, size, packed = FORMATS[fmt]
    rows, n = x.shape
    nb = -(-n // size)
    scales = np.zeros((rows, nb), dtype=np.uint8)
    codes = np.zeros((rows, n), dtype=np.uint8)
    for r in range(rows):
        for b in range(nb):
            part = x[r, b * size:(b + 1) * size]
            s, c = nvfp4_block(part, g) if fmt == "nvfp4" else mx_block(part, element, emax, rule)
            scales[r, b] = s
            codes[r, b * size:b * size + len(part)] = c
    if packed:
        codes = codes[:, 0::2] | (codes[:, 1::2] << 4)
    return codes, scales


def dequantized(values, scales, fmt, g=0.0):
    """The float64 values (exact) of values and scales bytes along the last dim; NaN for a NaN scale."""
    element, _, size, packed = FORMATS[fmt]
    if packed:
        codes = np.stack([values & 0xF, values >> 4], axis=-1).reshape(values.shape[0], -1)
    else:
        codes = values
    out = np.zeros(codes.shape)
    gs = Fraction(float(g)) if g else Fraction(1)
    for (r, j), c in np.ndenumerate(codes):
        s = scales[r, j // size]
        if fmt == "nvfp4":
            scale = decode(int(s), "e4m3") * gs
        else:
            scale = math.nan if s == 0xFF else Fraction(2) ** (int(s) - 127)
        v = decode(int(c), element)
        out[r, j] = math.nan if isinstance(scale, float) or isinstance(v, float) else float(v * scale)
    return out


def random_blocks(rng, rows, n, spread=20):
    """float32 values of a few magnitudes per row, some exactly zero and some subnormal-small."""
    x = rng.standard_normal((rows, n)) * 2.0 ** rng.integers(-spread, spread, size=(rows, 1))
    x[rng.random((rows, n)) < 0.05] = 0
    return x.astype(np.float32)


def grid_blocks(fmt, k=0):
    """Every finite magnitude of the format's element and every midpoint of two neighbours, both signs, times
    2^k, in blocks that each start with the largest magnitude: its scale is then 2^k (MX FLOOR, NVFP4 with
    g = 2^k / 1), and the elements are the grid itself and its ties."""
    element, _, size, _ = FORMATS[fmt]
    values = magnitudes(element)[0]
    points = values + [(a + b) / 2 for a, b in zip(values, values[1:])]
    points = [float(p) * sign for p in points for sign in (1, -1)]
    per = size - 1
    points += [0.0] * (-len(points) % per)
    rows = [[float(values[-1])] + points[i:i + per] for i in range(0, len(points), per)]
    return (np.array(rows) * 2.0 ** k).astype(np.float32).reshape(1, -1)


def raw(t):
    """The bytes of a tensor of a 1-byte dtype as a uint8 array (a copy)."""
    return np.asarray(t).view(np.uint8).copy()


def made(codes, dtype):
    """A tensor of a 1-byte dtype holding the given bytes."""
    codes = np.asarray(codes, dtype=np.uint8)
    t = stride.empty(*codes.shape, dtype=dtype)
    np.asarray(t).view(np.uint8)[...] = codes
    return t


class ByHand(unittest.TestCase):
    def test_mxfp8_e4m3_floor_of_exact_values(self):
        # Block b has amax 448 · 2^k: FLOOR's scale is 2^(floor(log2 448·2^k) − 8) = 2^k, byte 127 + k, and
        # every element x / 2^k is an E4M3 value (S.EEEE.MMM, bias 7): 448 = 1.75 · 2^8 0x7E, 1 0x38, −2 0xC0,
        # 0.5 0x30, 0 0x00, −0.125 0xA0, −2^-6 (the smallest normal) 0x88, 2^-9 (the smallest subnormal) 0x01.
        codes = [0x7E, 0x38, 0xC0, 0x30, 0x00, 0xA0, 0x88, 0x01] + [0x38] * 24
        unit = np.array([448, 1, -2, 0.5, 0, -0.125, -2.0 ** -6, 2.0 ** -9] + [1] * 24)
        ks = [0, 3, -5, -20]
        x = np.concatenate([unit * 2.0 ** k for k in ks]).astype(np.float32)
        values, scales = stride.quantize_blocks(x, "mxfp8_e4m3")
        self.assertEqual((values.dtype, scales.dtype), (stride.float8_e4m3fn, stride.float8_e8m0fnu))
        np.testing.assert_array_equal(raw(scales), [127 + k for k in ks])
        np.testing.assert_array_equal(raw(values), codes * len(ks))
        back = stride.dequantize_blocks(values, scales, "mxfp8_e4m3")
        np.testing.assert_array_equal(np.asarray(back), x)

    def test_mxfp4_dequantize_of_hand_made_nibbles(self):
        # Byte j holds elements 2j (low nibble) and 2j + 1; nibble c is E2M1[c & 7], negative with bit 8.
        nibbles = np.array([list(range(16)) * 2, list(range(15, -1, -1)) * 2], dtype=np.uint8)
        values = made(nibbles[:, 0::2] | (nibbles[:, 1::2] << 4), stride.float4_e2m1fn_x2)
        ks = [3, -2]
        scales = made([[127 + k] for k in ks], stride.float8_e8m0fnu)
        out = np.asarray(stride.dequantize_blocks(values, scales, "mxfp4"))
        want = np.array([[(-1 if c & 8 else 1) * E2M1[c & 7] * 2.0 ** k for c in row] for row, k in zip(nibbles, ks)])
        self.assertEqual(out.dtype, np.float32)
        np.testing.assert_array_equal(out, want)
        self.assertTrue(np.signbit(out[0, 8]) and not np.signbit(out[0, 0]))  # nibble 8 is −0

    def test_bytes_from_numpy_as_the_format_dtypes(self):
        # Values and scales as a checkpoint holds them, uint8 bytes, read zero-copy as their dtypes.
        codes = np.array([[0x21, 0xA9] * 8], dtype=np.uint8)  # 32 nibbles 1, 2, 9, 10: 0.5, 1, −0.5, −1
        values = stride.from_numpy(codes, dtype=stride.float4_e2m1fn_x2)
        scales = stride.from_numpy(np.array([[0x7E, 0x30]], dtype=np.uint8), dtype="float8_e4m3fn")  # 448, 0.5
        self.assertEqual((values.dtype, values.data_ptr), (stride.float4_e2m1fn_x2, codes.ctypes.data))
        out = np.asarray(stride.dequantize_blocks(values, scales, "nvfp4", global_scale=0.25))
        np.testing.assert_array_equal(out[0, :4], np.array([0.5, 1, -0.5, -1]) * 448 * 0.25)
        np.testing.assert_array_equal(out[0, 16:20], np.array([0.5, 1, -0.5, -1]) * 0.5 * 0.25)
        e8 = stride.from_numpy(np.array([127 - 3], dtype=np.uint8), dtype="float8_e8m0fnu")
        self.assertEqual(e8.tolist(), [0.125])
        for dt in ("float6_e2m3fn", "float6_e3m2fn"):
            self.assertEqual(stride.from_numpy(np.zeros(1, dtype=np.uint8), dtype=dt).dtype, dt)
        with self.assertRaisesRegex(TypeError, "cannot be read as float4_e2m1fn_x2"):
            stride.from_numpy(np.zeros(2, dtype=np.int8), dtype=stride.float4_e2m1fn_x2)

    def test_a_nan_scale_makes_the_block_nan(self):
        values = made(np.full((1, 64), 0x38), stride.float8_e4m3fn)
        scales = made([[0xFF, 127]], stride.float8_e8m0fnu)
        out = np.asarray(stride.dequantize_blocks(values, scales, "mxfp8_e4m3"))
        self.assertTrue(np.isnan(out[0, :32]).all())
        np.testing.assert_array_equal(out[0, 32:], 1.0)

    def test_nan_in_a_block_poisons_it(self):
        x = np.ones((2, 32), dtype=np.float32)
        x[1, 5] = np.nan
        values, scales = stride.quantize_blocks(x, "mxfp8_e4m3")
        np.testing.assert_array_equal(raw(scales), [[127 - 8], [0xFF]])
        np.testing.assert_array_equal(raw(values)[1], [0x7F] * 32)

    def test_nvfp4_with_a_global_scale(self):
        # g = 0.5: a block of amax 6 · 448 · 0.5 has the scale 448 (0x7E); x / (448 · 0.5) = 6, 1, −0.5.
        g = 0.5
        block = np.array([6, 1, -0.5] + [0] * 13) * 448 * g
        # amax 6 g: s = amax / (6 g) = 1 (0x38); elements x / (1 · g): 6 (code 7), −5 a tie of 4 and 6 → −4 (0xE),
        # 0.25 a tie of 0 and 0.5 → 0, 0.75 a tie of 0.5 and 1 → 1 (code 2): ties go to the even code.
        second = np.array([6, -5, 0.25, 0.75] + [0] * 12) * g
        x = np.stack([block, second]).astype(np.float32)
        values, scales = stride.quantize_blocks(x, "nvfp4", global_scale=g)
        self.assertEqual((values.dtype, scales.dtype, values.shape, scales.shape),
                         (stride.float4_e2m1fn_x2, stride.float8_e4m3fn, (2, 8), (2, 1)))
        np.testing.assert_array_equal(raw(scales), [[0x7E], [0x38]])
        # nibbles (low one first): 6 → 7, 1 → 2, −0.5 → 9 (sign bit 8 | 0.5's code 1)
        got = raw(values)
        nibbles = np.stack([got & 0xF, got >> 4], axis=-1).reshape(2, 16)
        np.testing.assert_array_equal(nibbles[0, :3], [7, 2, 9])
        np.testing.assert_array_equal(nibbles[1, :4], [7, 0xE, 0, 2])
        back = np.asarray(stride.dequantize_blocks(values, scales, "nvfp4", global_scale=g))
        np.testing.assert_array_equal(back[0], x[0])
        np.testing.assert_array_equal(back[1, :4], np.array([6, -4, 0, 1]) * g)


class AgainstTheReference(unittest.TestCase):
    def test_every_format_and_rule(self):
        rng = np.random.default_rng(SEED)
        for fmt in FORMATS:
            for rule in (("floor",) if fmt == "nvfp4" else ("floor", "rceil")):
                with self.subTest(format=fmt, rule=rule):
                    x = random_blocks(rng, 3, 72)  # a partial final block of 8 (of 16 and 32)
                    g = 0.0 if fmt != "nvfp4" else float(np.float32(np.abs(x).max() / (6 * 448)))
                    values, scales = stride.quantize_blocks(x, fmt, rule=rule, global_scale=g)
                    want_v, want_s = reference(x, fmt, rule, g)
                    np.testing.assert_array_equal(raw(scales), want_s)
                    np.testing.assert_array_equal(raw(values), want_v)
                    exact = dequantized(want_v, want_s, fmt, g)
                    for dt, np_dt in (("float32", np.float32), ("float64", np.float64), ("float16", np.float16)):
                        back = stride.dequantize_blocks(values, scales, fmt, dtype=dt, global_scale=g)
                        self.assertEqual(back.dtype, dt)
                        with np.errstate(over="ignore"):  # beyond float16's range: ±inf, as the library's rule
                            np.testing.assert_array_equal(np.asarray(back), exact.astype(np_dt))

    def test_every_value_and_midpoint_of_each_element(self):
        for fmt in FORMATS:
            for k in (0, -7, 9):
                with self.subTest(format=fmt, k=k):
                    x = grid_blocks(fmt, k)
                    g = 2.0 ** k if fmt == "nvfp4" else 0.0
                    values, scales = stride.quantize_blocks(x, fmt, global_scale=g)
                    want_v, want_s = reference(x, fmt, "floor", g)
                    np.testing.assert_array_equal(raw(scales), want_s)
                    if fmt != "nvfp4":
                        np.testing.assert_array_equal(want_s, 127 + k)
                    np.testing.assert_array_equal(raw(values), want_v)

    def test_float64_and_float16_sources(self):
        rng = np.random.default_rng(SEED + 1)
        for np_dt in (np.float64, np.float16):
            with self.subTest(dtype=np_dt.__name__):
                x = random_blocks(rng, 2, 64, spread=4).astype(np_dt)
                values, scales = stride.quantize_blocks(x, "mxfp6_e3m2", rule="rceil")
                want_v, want_s = reference(x, "mxfp6_e3m2", "rceil")
                np.testing.assert_array_equal(raw(scales), want_s)
                np.testing.assert_array_equal(raw(values), want_v)

    def test_floor_round_trips_bit_for_bit(self):
        rng = np.random.default_rng(SEED + 2)
        for fmt in FORMATS:
            with self.subTest(format=fmt):
                x = random_blocks(rng, 4, 64)
                values, scales = stride.quantize_blocks(x, fmt)
                again_v, again_s = stride.quantize_blocks(stride.dequantize_blocks(values, scales, fmt), fmt)
                np.testing.assert_array_equal(raw(again_v), raw(values))
                np.testing.assert_array_equal(raw(again_s), raw(scales))


class Shapes(unittest.TestCase):
    def test_every_format(self):
        x = np.zeros((3, 5, 70), dtype=np.float32)
        for fmt, (_, _, size, packed) in FORMATS.items():
            for dim, n in ((-1, 70), (2, 70), (1, 5), (0, 3)):
                if packed and n % 2:
                    continue
                with self.subTest(format=fmt, dim=dim):
                    values, scales = stride.quantize_blocks(x, fmt, dim=dim)
                    d = dim % 3
                    v_shape, s_shape = list(x.shape), list(x.shape)
                    v_shape[d] = n // 2 if packed else n
                    s_shape[d] = math.ceil(n / size)
                    self.assertEqual(values.shape, tuple(v_shape))
                    self.assertEqual(scales.shape, tuple(s_shape))
                    self.assertEqual(values.dtype, VALUE_DTYPES[fmt])
                    self.assertEqual(scales.dtype, stride.float8_e4m3fn if fmt == "nvfp4" else stride.float8_e8m0fnu)
                    back = stride.dequantize_blocks(values, scales, fmt, dim=dim)
                    self.assertEqual(back.shape, x.shape)

    def test_names_in_any_case_and_the_c_spelling(self):
        x = np.linspace(-3, 3, 64, dtype=np.float32).reshape(2, 32)
        want = [raw(t) for t in stride.quantize_blocks(x, "mxfp4")]
        for name in ("MXFP4", "MXFP4_E2M1", "mxfp4_e2m1", "MxFp4"):
            with self.subTest(name=name):
                got = [raw(t) for t in stride.quantize_blocks(x, name, rule="FLOOR")]
                for a, b in zip(got, want):
                    np.testing.assert_array_equal(a, b)

    def test_empty_source(self):
        values, scales = stride.quantize_blocks(np.zeros((0, 64), dtype=np.float32), "nvfp4")
        self.assertEqual((values.shape, scales.shape), ((0, 32), (0, 4)))


class Layouts(unittest.TestCase):
    def test_a_transposed_view_equals_the_contiguous_copy(self):
        rng = np.random.default_rng(SEED + 3)
        w = random_blocks(rng, 64, 6)  # (64, 6): its transpose (6, 64) has strides (1, 6)
        view = stride.from_numpy(w).T
        self.assertFalse(view.is_contiguous())
        for fmt in FORMATS:
            with self.subTest(format=fmt):
                got = [raw(t) for t in stride.quantize_blocks(view, fmt, rule="rceil")]
                want = [raw(t) for t in stride.quantize_blocks(np.ascontiguousarray(w.T), fmt, rule="rceil")]
                for a, b in zip(got, want):
                    np.testing.assert_array_equal(a, b)

    def test_dim_0_is_the_transpose_along_the_last_dim(self):
        rng = np.random.default_rng(SEED + 4)
        x = random_blocks(rng, 48, 3).T.copy().T  # (48, 3), blocks down the columns
        for fmt in ("mxfp8_e5m2", "nvfp4", "mxint8"):
            with self.subTest(format=fmt):
                values, scales = stride.quantize_blocks(x, fmt, dim=0)
                want_v, want_s = reference(np.ascontiguousarray(x.T), fmt)
                np.testing.assert_array_equal(raw(scales).T, want_s)
                np.testing.assert_array_equal(raw(values).T, want_v)
                back = stride.dequantize_blocks(values, scales, fmt, dim=0, dtype="float64")
                np.testing.assert_array_equal(np.asarray(back).T, dequantized(want_v, want_s, fmt))

    def test_scales_written_in_the_128x4_layout(self):
        # include/stride.h: scale (r, c) of an (M, K) operand at byte (r / 128 · Kp / 4 + c / 4) · 512
        # + (r % 32) · 16 + (r / 32 % 4) · 4 + c % 4; M = 256, K = 256, blocks of 32: Kb = Kp = 8.
        rng = np.random.default_rng(SEED + 6)
        m, k = 256, 256
        x = random_blocks(rng, m, k)
        values, scales = stride.quantize_blocks(x, "mxfp4")
        plain = raw(scales)
        d = made(np.zeros(m * 8), stride.float8_e8m0fnu)
        swizzled = d.as_strided((m // 128, 4, 32, 2, 4), (128 * 8, 4, 16, 512, 1))
        v5 = made(np.zeros((m // 128, 4, 32, 2, 64)), stride.float4_e2m1fn_x2)
        stride.quantize_blocks(stride.from_numpy(x).view(m // 128, 4, 32, 2, 128), "mxfp4", out=(v5, swizzled))
        got = raw(d)
        for r in range(m):
            for c in range(8):
                self.assertEqual(got[(r // 128 * 2 + c // 4) * 512 + r % 32 * 16 + r // 32 % 4 * 4 + c % 4],
                                 plain[r, c], f"scale ({r}, {c})")
        np.testing.assert_array_equal(raw(v5).reshape(m, k // 2), raw(values))

    def test_out_tensors_of_any_strides(self):
        rng = np.random.default_rng(SEED + 5)
        x = random_blocks(rng, 4, 64)
        want_v, want_s = reference(x, "mxfp4", "rceil")
        # values written through a transposed view, scales into a column of a wider tensor
        v_store = made(np.zeros((32, 4)), stride.float4_e2m1fn_x2)
        s_store = made(np.zeros((4, 3)), stride.float8_e8m0fnu)
        values, scales = v_store.T, s_store[:, 1:3]
        got = stride.quantize_blocks(x, "mxfp4", rule="rceil", out=(values, scales))
        self.assertIs(got[0], values)
        self.assertIs(got[1], scales)
        np.testing.assert_array_equal(raw(v_store).T, want_v)
        np.testing.assert_array_equal(raw(s_store)[:, 1:], want_s)
        np.testing.assert_array_equal(raw(s_store)[:, 0], 0)  # nothing outside the view
        dst = stride.zeros(64, 4, dtype=stride.float16).T
        self.assertIs(stride.dequantize_blocks(values, scales, "mxfp4", out=dst), dst)
        np.testing.assert_array_equal(np.asarray(dst), dequantized(want_v, want_s, "mxfp4").astype(np.float16))
        again = stride.dequantize_blocks(values, scales, "mxfp4", dtype="float16", out=dst)
        self.assertIs(again, dst)


class Errors(unittest.TestCase):
    x = np.ones((2, 32), dtype=np.float32)

    def assert_refused(self, error, pattern, fn, *args, **kwargs):
        with self.assertRaisesRegex(error, pattern) as caught:
            fn(*args, **kwargs)
        if issubclass(error, stride.StrideError):
            self.assertEqual(caught.exception.where, "stride." + fn.__name__)
        return caught.exception

    def test_unknown_format_and_rule(self):
        e = self.assert_refused(stride.InvalidArgumentError, "unknown format 'mxfp5'", stride.quantize_blocks,
                                self.x, "mxfp5")
        self.assertIsInstance(e, ValueError)
        self.assert_refused(stride.InvalidArgumentError, "unknown format 'fp4'", stride.dequantize_blocks,
                            stride.empty(1, dtype="int8"), stride.empty(1, dtype="int8"), "fp4")
        self.assert_refused(stride.InvalidArgumentError, "unknown rule 'round'", stride.quantize_blocks,
                            self.x, "mxfp4", rule="round")
        self.assert_refused(TypeError, "format must be a name", stride.quantize_blocks, self.x, 4)
        self.assert_refused(TypeError, "rule must be", stride.quantize_blocks, self.x, "mxfp4", rule=1)

    def test_odd_size_for_two_values_a_byte(self):
        for fmt in ("mxfp4", "nvfp4"):
            self.assert_refused(stride.InvalidArgumentError, "must be even, not 5", stride.quantize_blocks,
                                np.ones((3, 5), dtype=np.float32), fmt)
        self.assert_refused(stride.InvalidArgumentError, "must be even, not 3", stride.quantize_blocks,
                            np.ones((3, 4), dtype=np.float32), "mxfp4", dim=0)
        values, scales = stride.quantize_blocks(np.ones((2, 32), dtype=np.float32), "nvfp4")
        out = stride.full((2, 31), 7.0)
        self.assert_refused(stride.InvalidArgumentError, "out's size along dim 1 must be even, not 31",
                            stride.dequantize_blocks, values, scales, "nvfp4", out=out)
        np.testing.assert_array_equal(np.asarray(out), 7.0)
        self.assert_refused(stride.InvalidArgumentError, "dim = -3 is out of range for an out of 2 dims",
                            stride.dequantize_blocks, values, scales, "nvfp4", dim=-3, out=stride.empty(2, 32))
        self.assert_refused(stride.InvalidArgumentError, "dim = 2 is out of range for values of 2 dims",
                            stride.dequantize_blocks, values, scales, "nvfp4", dim=2)

    def test_wrong_dtypes(self):
        self.assert_refused(stride.UnsupportedDtypeError, "src is int32", stride.quantize_blocks,
                            np.ones((2, 32), dtype=np.int32), "mxfp8_e4m3")
        scales = stride.empty(2, 1, dtype=stride.float8_e8m0fnu)
        e = self.assert_refused(stride.UnsupportedDtypeError, "out values is float8_e4m3fn: this format's values "
                                "are float4_e2m1fn_x2", stride.quantize_blocks, self.x, "mxfp4",
                                out=(stride.empty(2, 16, dtype=stride.float8_e4m3fn), scales))
        self.assertIsInstance(e, TypeError)
        self.assert_refused(stride.UnsupportedDtypeError, "out scales is float8_e8m0fnu", stride.quantize_blocks,
                            self.x, "nvfp4", out=(stride.empty(2, 16, dtype=stride.float4_e2m1fn_x2),
                                                  stride.empty(2, 2, dtype=stride.float8_e8m0fnu)))
        values, scales = stride.quantize_blocks(self.x, "mxfp8_e4m3")
        self.assert_refused(stride.UnsupportedDtypeError, "dtype is int32", stride.dequantize_blocks,
                            values, scales, "mxfp8_e4m3", dtype="int32")
        self.assert_refused(stride.UnsupportedDtypeError, "out is int8", stride.dequantize_blocks,
                            values, scales, "mxfp8_e4m3", out=stride.empty(2, 32, dtype="int8"))
        self.assert_refused(stride.UnsupportedDtypeError, "out is float16 but dtype is float32",
                            stride.dequantize_blocks, values, scales, "mxfp8_e4m3", dtype="float32",
                            out=stride.empty(2, 32, dtype="float16"))
        # values of another format's dtype: the library's check
        self.assert_refused(stride.UnsupportedDtypeError, "st_dequantize_blocks", stride.dequantize_blocks,
                            values, scales, "mxfp8_e5m2")

    def test_shapes_dims_and_global_scale(self):
        v = made(np.full((2, 16), 0x5A), stride.float4_e2m1fn_x2)
        s = made(np.full((2, 2), 0x5A), stride.float8_e8m0fnu)
        v_before = raw(v)
        self.assert_refused(stride.ShapeMismatchError, "st_quantize_blocks", stride.quantize_blocks,
                            self.x, "mxfp4", out=(v, s))
        np.testing.assert_array_equal(raw(v), v_before)  # nothing written
        self.assert_refused(stride.InvalidArgumentError, "dim = 2 is out of range", stride.quantize_blocks,
                            self.x, "mxfp4", dim=2)
        self.assert_refused(stride.InvalidArgumentError, "out of range for a src of 0 dims", stride.quantize_blocks,
                            stride.tensor(1.0), "mxfp8_e4m3")
        for g in (-1.0, math.nan, math.inf):
            self.assert_refused(stride.InvalidArgumentError, "nvfp4 takes a finite global scale",
                                stride.quantize_blocks, self.x, "nvfp4", global_scale=g)
        self.assert_refused(stride.InvalidArgumentError, "beyond float32's range", stride.quantize_blocks,
                            self.x, "nvfp4", global_scale=1e39)
        self.assert_refused(TypeError, "global_scale must be a real number", stride.quantize_blocks,
                            self.x, "nvfp4", global_scale="1")
        stride.quantize_blocks(self.x, "mxfp4", global_scale=math.nan)  # the MX formats ignore it
        self.assert_refused(TypeError, "out must be a pair", stride.quantize_blocks, self.x, "mxfp4", out=v)

    def test_released_tensors(self):
        values, scales = stride.quantize_blocks(self.x, "mxfp8_e4m3")
        src = stride.from_numpy(self.x)
        src.release()
        e = self.assert_refused(stride.InvalidHandleError, "src was released", stride.quantize_blocks,
                                src, "mxfp8_e4m3")
        self.assertIsInstance(e, ValueError)
        scales.release()
        self.assert_refused(stride.InvalidHandleError, "scales was released", stride.dequantize_blocks,
                            values, scales, "mxfp8_e4m3")
        self.assert_refused(stride.InvalidHandleError, "out scales was released", stride.quantize_blocks,
                            self.x, "mxfp8_e4m3", out=(values, scales))


if __name__ == "__main__":
    unittest.main()
