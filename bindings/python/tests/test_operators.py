"""contiguous, clone, copy_, to, fill_, zero_ and item assignment.

Expected values come from NumPy on the same data, or by hand.
"""

import unittest

import numpy as np

import stride


def arange(*shape, dtype=np.float32):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


class Contiguous(unittest.TestCase):
    def test_copy_when_needed(self):
        a = arange(3, 4)
        t = stride.from_numpy(a).transpose(0, 1)
        c = t.contiguous()
        self.assertEqual(c.strides, (3, 1))
        self.assertNotEqual(c.data_ptr, t.data_ptr)
        np.testing.assert_array_equal(np.asarray(c), a.T)

    def test_same_tensor_when_already_contiguous(self):
        t = stride.from_numpy(arange(2, 3))
        c = t.contiguous()
        self.assertEqual(c.handle, t.handle)
        c.release()
        self.assertEqual(t.shape, (2, 3))  # t still holds its own reference

    def test_channels_last(self):
        a = arange(2, 3, 4, 5)
        c = stride.from_numpy(a).contiguous(stride.channels_last)
        self.assertEqual(c.strides, (60, 1, 15, 3))
        np.testing.assert_array_equal(np.asarray(c), a)
        with self.assertRaises(stride.InvalidArgumentError):
            stride.from_numpy(a).contiguous(stride.preserve_format)
        with self.assertRaises(stride.InvalidArgumentError):
            stride.from_numpy(arange(2, 3)).contiguous(stride.channels_last)


class Clone(unittest.TestCase):
    def test_preserve_keeps_dense_strides(self):
        a = arange(2, 3, 4)
        t = stride.from_numpy(a).permute(2, 0, 1)
        c = t.clone()
        self.assertEqual(c.strides, t.strides)
        self.assertNotEqual(c.data_ptr, t.data_ptr)
        np.testing.assert_array_equal(np.asarray(c), a.transpose(2, 0, 1))

    def test_negative_and_gapped_strides_become_dense(self):
        a = arange(4, 6)
        flipped = stride.from_numpy(a).flip(1)
        c = flipped.clone()
        self.assertEqual(c.strides, (6, 1))
        np.testing.assert_array_equal(np.asarray(c), a[:, ::-1])
        gapped = stride.from_numpy(a).transpose(0, 1)[::2]  # strides (2, 6) over a (3, 4) view
        g = gapped.clone()
        self.assertEqual(g.strides, (1, 3))  # dense, in the source's order
        np.testing.assert_array_equal(np.asarray(g), a.T[::2])
        self.assertEqual(gapped.clone(stride.contiguous_format).strides, (4, 1))


class Copy(unittest.TestCase):
    def test_broadcast_and_convert(self):
        dst = stride.from_numpy(np.zeros((2, 3), dtype=np.int32))
        src = np.array([1.7, -2.7, 3.2])
        self.assertIs(dst.copy_(src), dst)
        np.testing.assert_array_equal(np.asarray(dst), [[1, -2, 3], [1, -2, 3]])  # truncation toward zero

    def test_into_negative_strides_and_from_torch(self):
        import torch

        out = np.zeros((3, 4), dtype=np.float64)
        dst = stride.from_numpy(out).flip(0).transpose(0, 1)
        src = torch.arange(12, dtype=torch.float32).reshape(4, 3)
        dst.copy_(src)
        np.testing.assert_array_equal(out[::-1].T, src.numpy())

    def test_overlapping_source_is_read_first(self):
        a = np.arange(6, dtype=np.int64)
        t = stride.from_numpy(a)
        t[1:].copy_(t[:-1])
        np.testing.assert_array_equal(a, [0, 0, 1, 2, 3, 4])

    def test_refusals(self):
        dst = stride.from_numpy(np.zeros(3))
        with self.assertRaises(stride.OverlapError):
            stride.from_numpy(np.zeros(1)).expand(3).copy_(np.ones(3))
        with self.assertRaises(stride.ShapeMismatchError):
            dst.copy_(np.ones((1, 3)))
        with self.assertRaises(stride.ShapeMismatchError):
            dst.copy_(np.ones(4))
        ro = np.arange(3.0)
        ro.flags.writeable = False
        with self.assertRaises(stride.ReadOnlyError) as cm:
            stride.from_numpy(ro).copy_(np.zeros(3))
        self.assertEqual(cm.exception.status, 12)
        np.testing.assert_array_equal(ro, [0, 1, 2])

    def test_setitem(self):
        a = np.zeros((3, 4), dtype=np.float32)
        t = stride.from_numpy(a)
        t[1] = 5
        t[:, 2] = np.array([7, 8, 9], dtype=np.float32)
        t[0, ::-3] = stride.from_numpy(np.array([1, 2], dtype=np.float32))
        want = np.zeros((3, 4), dtype=np.float32)
        want[1] = 5
        want[:, 2] = [7, 8, 9]
        want[0, ::-3] = [1, 2]
        np.testing.assert_array_equal(a, want)


class To(unittest.TestCase):
    def test_dtype_conversion(self):
        a = np.array([[0.5, -1.5], [300.0, np.nan]])
        t = stride.from_numpy(a)
        u8 = t.to(stride.uint8)
        self.assertEqual(u8.dtype, stride.uint8)
        np.testing.assert_array_equal(np.asarray(u8), [[0, 0], [255, 0]])  # saturation; NaN -> 0
        b = t.to(stride.bool_)
        np.testing.assert_array_equal(np.asarray(b), [[True, True], [True, True]])  # NaN is nonzero
        c = t.to(stride.complex64)
        np.testing.assert_array_equal(np.asarray(c).imag, np.zeros((2, 2)))

    def test_same_tensor_when_nothing_changes(self):
        t = stride.from_numpy(arange(2, 3)).transpose(0, 1)
        self.assertEqual(t.to(stride.float32).handle, t.handle)
        self.assertEqual(t.to(memory_format=stride.contiguous_format).strides, (2, 1))

    def test_unavailable_device(self):
        missing = stride.cuda_device_count()  # one past the last GPU, or 0 without any
        with self.assertRaises(stride.DeviceUnavailableError):
            stride.empty(2).to(device=f"cuda:{missing}")


class Fill(unittest.TestCase):
    def test_fill_and_zero(self):
        a = np.ones((2, 3), dtype=np.int32)
        t = stride.from_numpy(a)
        view = t[:, ::2]
        self.assertIs(view.fill_(2.9), view)
        np.testing.assert_array_equal(a, [[2, 1, 2], [2, 1, 2]])
        t.zero_()
        np.testing.assert_array_equal(a, np.zeros((2, 3)))

    def test_conversions_of_the_value(self):
        cases = [(np.int8, 1e10, 127), (np.uint8, -1.0, 0), (np.int16, float("nan"), 0), (np.bool_, 0.5, True),
                 (np.float16, 65520.0, np.inf)]
        for dt, value, want in cases:
            with self.subTest(dtype=dt, value=value):
                a = np.zeros(2, dtype=dt)
                stride.from_numpy(a).fill_(value)
                np.testing.assert_array_equal(a, [want, want])

    def test_expanded_view_allowed_read_only_refused(self):
        a = np.zeros(1)
        stride.from_numpy(a).expand(5).fill_(3)
        self.assertEqual(a[0], 3)
        ro = np.zeros(2)
        ro.flags.writeable = False
        with self.assertRaises(stride.ReadOnlyError):
            stride.from_numpy(ro).fill_(1)
        np.testing.assert_array_equal(ro, [0, 0])


if __name__ == "__main__":
    unittest.main()
