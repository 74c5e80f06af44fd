"""Values as Python sees them: printing (checked against NumPy's), tolist, item, scalars, new tensors."""

import math
import unittest

import numpy as np
import torch

import stride

NUMPY_DTYPES = [np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64,
                np.complex64, np.complex128, np.uint16, np.uint32, np.uint64]


def numpy_repr(a, dtype):
    """NumPy's repr() of `a` with stride's names: its array2string (separator ' ') wrapped as stride.tensor(...)."""
    prefix = "stride.tensor("
    text = prefix + np.array2string(a, prefix=prefix, suffix=",") + ","
    extra = f"dtype=stride.{dtype}"
    last = len(text) - (text.rfind("\n") + 1)
    return text + ("\n" + " " * len(prefix) if last + len(extra) + 2 > 75 else " ") + extra + ")"


def arrays(rng):
    """Arrays whose printing exercises every rule: widths, wrapping, summaries, scientific, nan and inf."""
    yield np.arange(12, dtype=np.float32).reshape(3, 4)
    yield np.arange(100, dtype=np.float64)  # wraps at 75 characters
    yield np.arange(2000).reshape(2, 1000) - 1000  # summarized, negative
    yield np.arange(1331, dtype=np.int16).reshape(11, 11, 11)
    yield np.arange(3 * 400, dtype=np.float32).reshape(3, 400) / 7
    yield np.array([0.1, 1.25, -3.5])
    yield np.array([1e8, 1.5])
    yield np.array([1.5e-5, 2.0, -300.0])
    yield np.array([np.nan, 1.5, -np.inf, np.inf])
    yield np.array([np.nan, np.inf])
    yield np.array([-0.0, 0.0, 1 / 3])
    yield np.array([1 / 3], dtype=np.float32)
    yield np.array([1e-20, 1e20], dtype=np.float32)
    yield np.array([0.1, 65504.0, -2.5], dtype=np.float16)
    yield np.array([True, False, True])
    yield np.array([False, False])
    yield np.array([1 + 2j, 3.5 - 1j, -0.25j], dtype=np.complex64)
    yield np.array([1e10 + 1j, np.nan + 2j], dtype=np.complex128)
    yield np.arange(24, dtype=np.uint8).reshape(2, 3, 4)
    yield np.array([[1, -200], [35, 4]], dtype=np.int64)
    for dt in (np.float32, np.float64):
        yield rng.standard_normal((4, 5)).astype(dt)
        yield (rng.standard_normal(30) * 10.0 ** rng.integers(-6, 9, 30)).astype(dt)
    yield rng.integers(-10 ** 9, 10 ** 9, (7, 8))
    yield rng.standard_normal((2, 3, 2, 3)) + 1j * rng.standard_normal((2, 3, 2, 3))


class Printing(unittest.TestCase):
    def test_like_numpy(self):
        rng = np.random.default_rng(15)
        for a in arrays(rng):
            with self.subTest(dtype=a.dtype, shape=a.shape, first=a.flat[0]):
                t = stride.from_numpy(a)
                self.assertEqual(str(t), str(a))
                self.assertEqual(repr(t), numpy_repr(a, t.dtype))

    def test_strided_views_print_their_values(self):
        a = np.arange(60, dtype=np.int32).reshape(3, 4, 5)
        t = stride.from_numpy(a)
        for view, expected in ((t.flip(2).transpose(0, 1)[:, ::2], a[:, :, ::-1].swapaxes(0, 1)[:, ::2]),
                               (t.expand(2, 3, 4, 5), np.broadcast_to(a, (2, 3, 4, 5)))):
            self.assertEqual(str(view), str(expected))

    def test_repr(self):
        t = stride.tensor([[1.5, 2, 3], [4, 5, 6]])
        self.assertEqual(repr(t), "stride.tensor([[1.5 2.  3. ]\n               [4.  5.  6. ]], dtype=stride.float32)")
        self.assertEqual(repr(stride.tensor(7, dtype="int16")), "stride.tensor(7, dtype=stride.int16)")
        self.assertEqual(repr(stride.empty(2, 0)), "stride.tensor([], shape=(2, 0), dtype=stride.float32)")
        self.assertEqual(repr(stride.empty(0)), "stride.tensor([], dtype=stride.float32)")
        long = repr(stride.arange(2000).reshape(2, 1000))
        self.assertEqual(long, "stride.tensor([[   0    1    2 ...  997  998  999]\n"
                               "               [1000 1001 1002 ... 1997 1998 1999]], dtype=stride.int64)")
        wide = repr(stride.arange(0, 20000, 10).reshape(2, 1000))
        self.assertTrue(wide.endswith("]],\n              dtype=stride.int64)"), wide)  # no room on the last line
        released = stride.empty(1)
        released.release()
        self.assertEqual(repr(released), "stride.Tensor(released)")
        self.assertEqual(str(stride.tensor(2.0)), "2.0")

    def test_narrow_floats_print_as_float32_arrays(self):
        # Each value as the float32 it is (worked by hand): bfloat16 keeps 8 significant bits, so 0.1 is
        # 0.10009765625 and 0.2 is 0.2001953125; float8_e4m3fn 4 (0.1 -> 0.1015625, 3.2 -> 3.25, 500 past 448
        # -> NaN); float8_e5m2 3 (0.1 -> 0.09375, -1e6 past 57344 -> -inf). NumPy prints the float32 arrays.
        for dt, values, held in ((stride.bfloat16, [0.1, 0.2, 1.5], [0.10009765625, 0.2001953125, 1.5]),
                                 (stride.float8_e4m3fn, [0.1, -1.5, 3.2, 500], [0.1015625, -1.5, 3.25, math.nan]),
                                 (stride.float8_e5m2, [0.1, -1.5, 3.5, -1e6], [0.09375, -1.5, 3.5, -math.inf])):
            with self.subTest(dtype=dt):
                self.assertEqual(str(stride.tensor(values).to(dt)), str(np.array(held, dtype=np.float32)))

    def test_every_dtype(self):
        for dt in stride.DType:
            if dt == stride.float4_e2m1fn_x2:
                continue  # no values from Python numbers, none printed: test_packed_float4_prints_its_shape
            with self.subTest(dtype=dt):
                t = stride.tensor([0, 1, 1, 0], dtype=dt)
                self.assertIn(f"dtype=stride.{dt})", repr(t))
                self.assertEqual(len(str(t).split()), 4)

    def test_packed_float4_prints_its_shape(self):
        t = stride.empty(2, 3, dtype=stride.float4_e2m1fn_x2)
        want = "stride.Tensor(shape=(2, 3), dtype=stride.float4_e2m1fn_x2)"
        self.assertEqual((repr(t), str(t)), (want, want))


class ToPython(unittest.TestCase):
    def test_tolist_like_numpy(self):
        for dt in NUMPY_DTYPES:
            with self.subTest(dtype=dt):
                a = (np.arange(24) % 3 - 1).astype(dt).reshape(2, 3, 4)[:, ::-1, 1::2]
                got = stride.from_numpy(a).tolist()
                self.assertEqual(got, a.tolist())
                self.assertEqual([type(x) for x in got[0][0]], [type(x) for x in a.tolist()[0][0]])
        self.assertEqual(stride.from_numpy(np.zeros((2, 0, 3))).tolist(), [[], []])
        self.assertEqual(stride.tensor(2.5).tolist(), 2.5)

    def test_bfloat16_and_float16_values_are_exact(self):
        x = torch.tensor([0.1, -2.75, 3e38, 1e-40], dtype=torch.bfloat16)
        self.assertEqual(stride.from_dlpack(x).tolist(), x.float().tolist())
        h = np.array([0.1, 65504, 6e-8], dtype=np.float16)
        self.assertEqual(stride.from_numpy(h).tolist(), h.astype(np.float64).tolist())

    def test_uint64_beyond_int64(self):
        top = 2 ** 64 - 1
        t = stride.tensor([top, 2 ** 63, 0], dtype=stride.uint64)
        self.assertEqual(t.tolist(), [top, 2 ** 63, 0])
        np.testing.assert_array_equal(np.asarray(t), np.array([top, 2 ** 63, 0], dtype=np.uint64))
        self.assertEqual(stride.tensor([top, 1]).dtype, stride.uint64)  # the one dtype that holds them all
        self.assertEqual(stride.tensor(top).item(), top)
        self.assertEqual(stride.tensor([2 ** 63 - 1, 0]).dtype, stride.int64)
        with self.assertRaises(OverflowError):
            stride.tensor([2 ** 64])
        with self.assertRaises(OverflowError):
            stride.tensor([-1, 2 ** 63])

    def test_item_and_scalars(self):
        t = stride.tensor([[2.75]])
        self.assertEqual(t.item(), 2.75)
        self.assertEqual(float(t), 2.75)
        self.assertEqual(int(t), 2)
        self.assertIs(bool(t), True)
        self.assertEqual(complex(t), 2.75 + 0j)
        self.assertIs(bool(stride.tensor(0.0)), False)
        self.assertEqual(stride.tensor(-7, dtype="int8").item(), -7)
        self.assertIs(stride.tensor(True).item(), True)
        self.assertEqual(stride.tensor(1 + 2j).item(), 1 + 2j)
        self.assertEqual([10, 20, 30][stride.tensor(2)], 30)  # __index__
        self.assertTrue(math.isnan(float(stride.tensor(float("nan")))))
        many = stride.tensor([1.0, 2.0])
        with self.assertRaisesRegex(ValueError, "one element"):
            many.item()
        with self.assertRaises(TypeError):
            float(many)
        with self.assertRaises(TypeError):
            int(stride.empty(0))
        with self.assertRaisesRegex(ValueError, "ambiguous"):
            bool(many)
        with self.assertRaises(TypeError):
            float(stride.tensor(1j))
        with self.assertRaises(TypeError):
            [1, 2][stride.tensor(1.0)]

    def test_nbytes_and_numpy(self):
        t = stride.empty(3, 4, dtype=stride.float16)
        self.assertEqual(t.nbytes, 24)
        self.assertEqual(t.T.nbytes, 24)
        a = stride.tensor([[1, 2], [3, 4]], dtype=np.int32).numpy()
        self.assertEqual((a.dtype, a.tolist()), (np.int32, [[1, 2], [3, 4]]))
        with self.assertRaisesRegex(TypeError, "bfloat16"):
            stride.empty(2, dtype="bfloat16").numpy()


class NewTensors(unittest.TestCase):
    def test_tensor_infers_dtypes_as_pytorch(self):
        for data in ([True, False], [1, 2], [1, 2.5], [1, 2j], 3, [[1.0, 2.0], [3.0, 4.0]], []):
            with self.subTest(data=data):
                expected = torch.tensor(data)
                t = stride.tensor(data)
                self.assertEqual(str(t.dtype), str(expected.dtype).replace("torch.", ""))
                self.assertEqual(t.shape, tuple(expected.shape))
                self.assertEqual(t.tolist(), expected.tolist())

    def test_tensor_converts_by_the_library_rules(self):
        self.assertEqual(stride.tensor([300, -1], dtype="uint8").tolist(), [44, 255])  # wraps
        self.assertEqual(stride.tensor([1e10, -1e10, float("nan")], dtype=np.int32).tolist(),
                         [2 ** 31 - 1, -2 ** 31, 0])  # saturates, NaN is 0
        a = np.arange(6.0).reshape(2, 3)
        t = stride.tensor(a[:, ::-1])
        a[0, 0] = 100  # a copy, not a view
        self.assertEqual((t.dtype, t.tolist()), (stride.float64, [[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]]))
        self.assertEqual(stride.tensor(torch.arange(3), dtype="float16").tolist(), [0.0, 1.0, 2.0])

    def test_tensor_refuses(self):
        with self.assertRaisesRegex(ValueError, "different lengths"):
            stride.tensor([[1, 2], [3]])
        with self.assertRaises(TypeError):
            stride.tensor(["a"])
        with self.assertRaises(OverflowError):
            stride.tensor([2 ** 70])

    def test_zeros_full_arange(self):
        self.assertEqual(stride.zeros(2, 2, dtype="int32").tolist(), [[0, 0], [0, 0]])
        self.assertEqual(stride.full((2,), 1.5).tolist(), [1.5, 1.5])
        self.assertEqual(stride.arange(4).tolist(), [0, 1, 2, 3])


if __name__ == "__main__":
    unittest.main()
