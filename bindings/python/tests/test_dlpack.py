"""The DLPack protocol with NumPy (1.24) and PyTorch (1.13), both ways."""

import gc
import unittest
import weakref

import numpy as np
import torch

import stride
from stride import _dlpack


def consumed(capsule):
    return _dlpack._capsule_get_name(capsule).startswith(b"used_")


class Protocol(unittest.TestCase):
    def test_device(self):
        self.assertEqual(stride.empty(2).__dlpack_device__(), (1, 0))

    def test_classic_and_versioned_capsules(self):
        t = stride.empty(2, 3)
        self.assertEqual(_dlpack._capsule_get_name(t.__dlpack__()), b"dltensor")
        self.assertEqual(_dlpack._capsule_get_name(t.__dlpack__(max_version=(0, 8))), b"dltensor")
        self.assertEqual(_dlpack._capsule_get_name(t.__dlpack__(max_version=(1, 0))), b"dltensor_versioned")

    def test_capsule_round_trip_keeps_layout(self):
        a = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
        t = stride.from_numpy(a).permute(2, 0, 1)[:, :, ::2]
        for max_version in (None, (1, 0)):
            with self.subTest(max_version=max_version):
                capsule = t.__dlpack__(max_version=max_version)
                u = stride.from_dlpack(capsule)
                self.assertTrue(consumed(capsule))
                self.assertEqual((u.shape, u.strides, u.data_ptr), (t.shape, t.strides, t.data_ptr))
                with self.assertRaises(BufferError):
                    stride.from_dlpack(capsule)  # a capsule is consumed once

    def test_negative_strides_export_a_contiguous_copy(self):
        a = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
        t = stride.from_numpy(a).permute(2, 0, 1).flip(1)
        for max_version in (None, (1, 0)):
            with self.subTest(max_version=max_version):
                u = stride.from_dlpack(t.__dlpack__(max_version=max_version))
                self.assertEqual((u.shape, u.strides), (t.shape, (6, 3, 1)))
                self.assertNotEqual(u.data_ptr, t.data_ptr)
                np.testing.assert_array_equal(np.asarray(u), a.transpose(2, 0, 1)[:, ::-1])

    def test_copy_argument(self):
        a = np.arange(6.0).reshape(2, 3)
        t = stride.from_numpy(a)

        def flags(capsule):
            ptr = _dlpack._capsule_get_pointer(capsule, b"dltensor_versioned")
            return _dlpack.ctypes.cast(ptr, _dlpack.ctypes.POINTER(_dlpack.DLManagedTensorVersioned)).contents.flags

        shared = t.__dlpack__(max_version=(1, 0), copy=False)
        self.assertEqual(flags(shared) & _dlpack.IS_COPIED, 0)
        self.assertEqual(stride.from_dlpack(shared).data_ptr, t.data_ptr)
        copied = t.__dlpack__(max_version=(1, 0), copy=True)
        self.assertEqual(flags(copied) & _dlpack.IS_COPIED, _dlpack.IS_COPIED)
        u = stride.from_dlpack(copied)
        self.assertNotEqual(u.data_ptr, t.data_ptr)
        self.assertEqual(u.tolist(), a.tolist())
        flipped = t.flip(1)
        self.assertEqual(flags(flipped.__dlpack__(max_version=(1, 0))) & _dlpack.IS_COPIED, _dlpack.IS_COPIED)
        with self.assertRaisesRegex(BufferError, "negative strides"):
            flipped.__dlpack__(copy=False)
        with self.assertRaises(BufferError):
            flipped.__dlpack__(max_version=(1, 0), copy=False)

    def test_every_dtype_round_trips_through_the_library(self):
        for dt in stride.DType:
            with self.subTest(dtype=dt):
                t = stride.empty(3, dtype=dt)
                versions = (None, (1, 0))
                if dt in (stride.float6_e2m3fn, stride.float6_e3m2fn):
                    # DLPack 1.1 marks padded sub-byte types with a flag only the versioned struct has.
                    with self.assertRaisesRegex(stride.UnsupportedDtypeError, "st_to_dlpack_versioned"):
                        t.__dlpack__()
                    versions = ((1, 0),)
                for max_version in versions:
                    u = stride.from_dlpack(t.__dlpack__(max_version=max_version))
                    self.assertEqual(u.dtype, dt)
                    self.assertEqual(u.data_ptr, t.data_ptr)

    def test_unconsumed_capsule_frees_its_tensor(self):
        a = np.arange(3.0)
        w = weakref.ref(a)
        t = stride.from_numpy(a)
        del a
        capsule = t.__dlpack__()
        t.release()
        gc.collect()
        self.assertIsNotNone(w())  # the capsule holds the memory
        del capsule
        gc.collect()
        self.assertIsNone(w())

    def test_read_only_flag_travels(self):
        a = np.arange(3.0)
        a.flags.writeable = False
        t = stride.from_numpy(a)
        u = stride.from_dlpack(t.__dlpack__(max_version=(1, 0)))
        self.assertTrue(u.is_read_only)

    def test_refusals(self):
        t = stride.empty(2)
        with self.assertRaises(BufferError):
            t.__dlpack__(dl_device=(2, 0), copy=False)
        if stride.cuda_device_count() == 0:
            with self.assertRaisesRegex(BufferError, "cuda"):
                t.__dlpack__(dl_device=(2, 0))  # a copy to a device this machine lacks
        with self.assertRaises(ValueError):
            t.__dlpack__(stream=1)
        with self.assertRaises(TypeError):
            stride.from_dlpack(object())

        class FromElsewhere:
            def __dlpack_device__(self):
                return (4, 0)  # OpenCL

            def __dlpack__(self, **kw):
                raise AssertionError("not to be called")

        with self.assertRaises(BufferError):
            stride.from_dlpack(FromElsewhere())

    def test_failed_import_leaves_capsule_to_producer(self):
        a = np.arange(3.0)
        w = weakref.ref(a)

        class Unsupported:  # a producer whose tensor has a device stride refuses
            def __dlpack__(self, **kw):
                capsule = stride.from_numpy(a).__dlpack__()
                managed = _dlpack.ctypes.cast(_dlpack._capsule_get_pointer(capsule, b"dltensor"),
                                              _dlpack.ctypes.POINTER(_dlpack.DLManagedTensor)).contents
                managed.dl_tensor.dtype.lanes = 4
                return capsule

        with self.assertRaises(stride.UnsupportedDtypeError):
            stride.from_dlpack(Unsupported())
        del a
        gc.collect()
        self.assertIsNone(w())  # the capsule's destructor gave the memory back


class WithNumpy(unittest.TestCase):
    def test_numpy_to_stride(self):
        a = np.arange(20, dtype=np.float32).reshape(4, 5)[::-1, 1::2]
        t = stride.from_dlpack(a)
        self.assertEqual(t.strides, (-5, 2))
        self.assertEqual(t.data_ptr, a.__array_interface__["data"][0])
        np.testing.assert_array_equal(np.asarray(t), a)
        np.asarray(t)[0, 0] = -7
        self.assertEqual(a[0, 0], -7)

    def test_numpy_keeps_alive_until_release(self):
        a = np.arange(4, dtype=np.int64)
        w = weakref.ref(a)
        t = stride.from_dlpack(a)
        del a
        gc.collect()
        self.assertIsNotNone(w())
        t.release()
        gc.collect()
        self.assertIsNone(w())

    def test_stride_to_numpy(self):
        base = np.arange(24, dtype=np.complex64).reshape(2, 3, 4)
        t = stride.from_numpy(base).transpose(0, 2)[1:]
        a = np.from_dlpack(t)
        np.testing.assert_array_equal(a, base.swapaxes(0, 2)[1:])
        self.assertEqual(a.__array_interface__["data"][0], t.data_ptr)
        # NumPy 1.24 marks DLPack imports read-only: write the source instead.
        base[0, 2, 2] = 99  # a[i, j, k] is base[k, j, i + 1]
        self.assertEqual(a[1, 2, 0], 99)
        flipped = np.from_dlpack(t.flip(0))  # a copy: no negative strides cross DLPack
        np.testing.assert_array_equal(flipped, base.swapaxes(0, 2)[1:][::-1])

    def test_numpy_dtypes(self):
        for dt in (np.uint8, np.int8, np.int16, np.int32, np.int64, np.float16, np.float32, np.float64,
                   np.complex64, np.complex128, np.uint16, np.uint32, np.uint64):
            with self.subTest(dtype=dt):
                a = np.arange(5).astype(dt)
                np.testing.assert_array_equal(np.from_dlpack(stride.from_dlpack(a)), a)


class WithTorch(unittest.TestCase):
    def test_torch_to_stride(self):
        x = torch.arange(24, dtype=torch.float64).reshape(2, 3, 4).permute(2, 0, 1)[:, :, ::2]
        t = stride.from_dlpack(x)
        self.assertEqual(t.shape, tuple(x.shape))
        self.assertEqual(t.strides, tuple(x.stride()))
        self.assertEqual(t.data_ptr, x.data_ptr())
        np.testing.assert_array_equal(np.asarray(t), x.numpy())
        np.asarray(t)[1, 1, 1] = -1
        self.assertEqual(x[1, 1, 1].item(), -1)

    def test_torch_kept_alive(self):
        x = torch.arange(6)
        t = stride.from_dlpack(x)
        ptr = x.data_ptr()
        del x
        gc.collect()
        np.testing.assert_array_equal(np.asarray(t), np.arange(6))
        self.assertEqual(t.data_ptr, ptr)

    def test_stride_to_torch(self):
        a = np.arange(24, dtype=np.int32).reshape(4, 6)
        t = stride.from_numpy(a).transpose(0, 1).slice(0, 1, None, 2)
        x = torch.utils.dlpack.from_dlpack(t)
        self.assertEqual(tuple(x.stride()), t.strides)
        self.assertEqual(x.data_ptr(), t.data_ptr)
        np.testing.assert_array_equal(x.numpy(), a.T[1::2])
        x[0, 0] = 1000
        self.assertEqual(a[0, 1], 1000)
        y = torch.from_dlpack(t)  # the protocol form
        self.assertEqual(y.data_ptr(), t.data_ptr)

    def test_flipped_tensor_to_torch(self):
        # PyTorch 1.13 aborts the process when handed a negative stride; stride hands it a copy.
        a = np.arange(12, dtype=np.float32).reshape(3, 4)
        t = stride.from_numpy(a).flip(0)
        x = torch.from_dlpack(t)
        self.assertEqual(tuple(x.stride()), (4, 1))
        np.testing.assert_array_equal(x.numpy(), a[::-1])
        y = torch.from_dlpack(stride.from_numpy(a).flip((0, 1)))
        np.testing.assert_array_equal(y.numpy(), a[::-1, ::-1])

    def test_torch_dtypes(self):
        pairs = [(torch.uint8, stride.uint8), (torch.int8, stride.int8), (torch.int16, stride.int16),
                 (torch.int32, stride.int32), (torch.int64, stride.int64), (torch.float16, stride.float16),
                 (torch.bfloat16, stride.bfloat16), (torch.float32, stride.float32),
                 (torch.float64, stride.float64), (torch.complex64, stride.complex64),
                 (torch.complex128, stride.complex128)]
        for tdt, sdt in pairs:
            with self.subTest(dtype=tdt):
                x = torch.arange(4).to(tdt)
                t = stride.from_dlpack(x)
                self.assertEqual(t.dtype, sdt)
                back = torch.from_dlpack(t)
                self.assertEqual(back.dtype, tdt)
                self.assertTrue(torch.equal(back, x))
                self.assertEqual(back.data_ptr(), x.data_ptr())

    def test_torch_capsule_directly(self):
        x = torch.ones(3)
        capsule = torch.utils.dlpack.to_dlpack(x)
        t = stride.from_dlpack(capsule)
        self.assertTrue(consumed(capsule))
        self.assertEqual(t.data_ptr, x.data_ptr())


if __name__ == "__main__":
    unittest.main()
