"""NumPy interop: from_numpy and __array_interface__, both zero-copy."""

import gc
import math
import unittest
import weakref

import numpy as np

import stride
from stride import _numpy

NUMPY_DTYPES = {
    np.bool_: stride.bool_, np.uint8: stride.uint8, np.int8: stride.int8, np.int16: stride.int16,
    np.int32: stride.int32, np.int64: stride.int64, np.float16: stride.float16, np.float32: stride.float32,
    np.float64: stride.float64, np.complex64: stride.complex64, np.complex128: stride.complex128,
    np.uint16: stride.uint16, np.uint32: stride.uint32, np.uint64: stride.uint64,
}


class FromNumpy(unittest.TestCase):
    def test_every_dtype_zero_copy(self):
        for np_dt, st_dt in NUMPY_DTYPES.items():
            with self.subTest(dtype=np_dt):
                a = (np.arange(6) % 2 if np_dt is np.bool_ else np.arange(6)).astype(np_dt).reshape(2, 3)
                t = stride.from_numpy(a)
                self.assertEqual(t.dtype, st_dt)
                self.assertEqual(t.shape, (2, 3))
                self.assertEqual(t.strides, (3, 1))
                self.assertEqual(t.data_ptr, a.ctypes.data)
                np.testing.assert_array_equal(np.asarray(t), a)

    def test_negative_and_non_contiguous_strides(self):
        base = np.arange(60, dtype=np.float64).reshape(3, 4, 5)
        for a in [base[::-1], base[:, ::-2, 1:4], base.transpose(2, 0, 1)[::-1, :, ::-3], base[..., 2]]:
            with self.subTest(strides=a.strides):
                t = stride.from_numpy(a)
                self.assertEqual(t.strides, tuple(s // 8 for s in a.strides))
                self.assertEqual(t.data_ptr, a.__array_interface__["data"][0])
                back = np.asarray(t)
                np.testing.assert_array_equal(back, a)
                self.assertEqual(back.strides, a.strides)

    def test_scalar_and_empty(self):
        t = stride.from_numpy(np.array(2.5))
        self.assertEqual(t.shape, ())
        self.assertEqual(np.asarray(t), 2.5)
        e = stride.from_numpy(np.zeros((0, 3), dtype=np.int32))
        self.assertEqual(e.shape, (0, 3))
        self.assertEqual(np.asarray(e).shape, (0, 3))

    def test_writes_visible_both_ways(self):
        a = np.zeros((2, 3), dtype=np.int32)
        t = stride.from_numpy(a)
        view = np.asarray(t.transpose(0, 1))
        view[2, 1] = 7
        self.assertEqual(a[1, 2], 7)
        a[0, 0] = -1
        self.assertEqual(np.asarray(t)[0, 0], -1)

    def test_array_kept_alive_until_last_tensor(self):
        before = _numpy.kept_alive()
        a = np.arange(4.0)
        w = weakref.ref(a)
        t = stride.from_numpy(a)
        v = t.flip(0)
        del a
        t.release()
        gc.collect()
        self.assertIsNotNone(w())
        self.assertEqual(_numpy.kept_alive(), before + 1)
        np.testing.assert_array_equal(np.asarray(v), [3, 2, 1, 0])
        v.release()
        gc.collect()
        self.assertIsNone(w())
        self.assertEqual(_numpy.kept_alive(), before)

    def test_numpy_array_keeps_the_memory_alive(self):
        t = stride.from_numpy(np.arange(3.0))
        arr = np.asarray(t)
        self.assertIsNot(arr.base, t)  # a base of its own, holding its own reference
        t.release()
        del t
        gc.collect()
        np.testing.assert_array_equal(arr, [0, 1, 2])

    def test_read_only_array(self):
        a = np.arange(3.0)
        a.flags.writeable = False
        t = stride.from_numpy(a)
        self.assertTrue(t.is_read_only)
        self.assertTrue(t[1:].is_read_only)
        self.assertFalse(np.asarray(t).flags.writeable)
        self.assertFalse(stride.from_numpy(np.arange(3.0)).is_read_only)
        self.assertTrue(np.asarray(stride.from_numpy(np.arange(3.0))).flags.writeable)

    def test_refusals(self):
        with self.assertRaises(TypeError):
            stride.from_numpy([1, 2])
        for dt in (np.longdouble, np.dtype(">f4"), np.dtype(">u2"), np.dtype("U3")):
            with self.subTest(dtype=dt), self.assertRaises(TypeError):
                stride.from_numpy(np.zeros(2, dtype=dt))
        record = np.zeros(4, dtype=[("a", np.int32), ("b", np.int8)])
        with self.assertRaises(ValueError):
            stride.from_numpy(record["a"])  # 5-byte strides over 4-byte items
        with self.assertRaises(TypeError):
            np.asarray(stride.empty(2, dtype=stride.bfloat16))
        for dt in (np.int8, np.uint16, np.float16):  # only uint8 bytes read as float8
            with self.subTest(dtype=dt), self.assertRaises(TypeError):
                stride.from_numpy(np.zeros(2, dtype=dt), dtype=stride.float8_e4m3fn)
        with self.assertRaises(TypeError):
            stride.from_numpy(np.zeros(2, dtype=np.uint8), dtype=stride.int8)


class Float8AsBytes(unittest.TestCase):
    """NumPy has no float8: a float8 tensor shows as uint8 bytes, and uint8 bytes read back as float8."""

    def test_float8_tensor_is_a_uint8_view(self):
        for dt, bits in ((stride.float8_e4m3fn, [0x38, 0xC4, 0x7E, 0x01]),  # 1, -3, 448, 2**-9
                         (stride.float8_e5m2, [0x3C, 0xC2, 0x7B, 0x01])):  # 1, -3, 57344, 2**-16
            with self.subTest(dtype=dt):
                smallest = 2.0 ** -9 if dt == stride.float8_e4m3fn else 2.0 ** -16
                biggest = 448.0 if dt == stride.float8_e4m3fn else 57344.0
                t = stride.tensor([1.0, -3.0, biggest, smallest], dtype=stride.float64).to(dt)
                a = np.asarray(t)
                self.assertEqual(a.dtype, np.uint8)
                self.assertEqual(a.ctypes.data, t.data_ptr)
                self.assertEqual(a.tolist(), bits)
                a[0] = bits[1]  # same memory: the tensor sees the write
                self.assertEqual(t.tolist(), [-3.0, -3.0, biggest, smallest])

    def test_uint8_bytes_read_as_float8(self):
        a = np.array([[0x38, 0x40], [0xFF, 0x80]], dtype=np.uint8)  # e4m3fn: 1, 2, NaN, -0
        t = stride.from_numpy(a[:, ::-1], dtype="float8_e4m3fn")
        self.assertEqual(t.dtype, stride.float8_e4m3fn)
        self.assertEqual(t.data_ptr, a.ctypes.data + 1)
        self.assertEqual(t.strides, (2, -1))
        values = t.tolist()
        self.assertEqual(values[0], [2.0, 1.0])
        self.assertEqual(math.copysign(1.0, values[1][0]), -1.0)
        self.assertTrue(math.isnan(values[1][1]))
        a.flags.writeable = False  # the read-only path (DLPack) carries the dtype too
        r = stride.from_numpy(a, dtype=stride.float8_e5m2)  # e5m2: 0.5, 2, NaN, -0
        self.assertTrue(r.is_read_only)
        self.assertEqual(r.dtype, stride.float8_e5m2)
        self.assertEqual(r.tolist()[0], [0.5, 2.0])
        self.assertTrue(math.isnan(r.tolist()[1][0]))

if __name__ == "__main__":
    unittest.main()
