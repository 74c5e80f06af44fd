"""Tensor basics: creation, metadata, views, indexing, errors, lifetime."""

import gc
import inspect
import pickle
import unittest

import numpy as np

import stride


def arange(*shape, dtype=np.float32):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


class Creation(unittest.TestCase):
    def test_empty_row_major(self):
        t = stride.empty(2, 3, 4, dtype=stride.int16)
        self.assertEqual(t.shape, (2, 3, 4))
        self.assertEqual(t.strides, (12, 4, 1))
        self.assertEqual(t.ndim, 3)
        self.assertEqual(t.dtype, stride.int16)
        self.assertEqual(t.itemsize, 2)
        self.assertEqual(t.numel(), 24)
        self.assertEqual(t.device, stride.cpu)
        self.assertEqual(t.storage_offset, 0)
        self.assertTrue(t.is_contiguous())
        self.assertEqual(stride.empty((5, 6)).shape, (5, 6))

    def test_scalar_and_empty(self):
        s = stride.empty(dtype=stride.complex128)
        self.assertEqual((s.shape, s.ndim, s.numel()), ((), 0, 1))
        e = stride.empty(0, 3)
        self.assertEqual(e.numel(), 0)

    def test_empty_strided_and_like(self):
        t = stride.empty_strided((2, 3), (1, 2), dtype=stride.float64)
        self.assertEqual(t.strides, (1, 2))
        self.assertFalse(t.is_contiguous())
        self.assertTrue(t.is_contiguous(stride.preserve_format))
        like = stride.empty_like(t)
        self.assertEqual((like.shape, like.strides, like.dtype), ((2, 3), (1, 2), stride.float64))
        self.assertEqual(stride.empty_like(t, stride.contiguous_format).strides, (3, 1))
        nchw = stride.empty(2, 3, 4, 5)
        cl = stride.empty_like(nchw, stride.channels_last)
        self.assertEqual(cl.strides, (60, 1, 15, 3))
        self.assertTrue(cl.is_contiguous(stride.channels_last))

    def test_every_dtype(self):
        sizes = [1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16]  # st_dtype order
        for dt, size in zip(stride.DType, sizes):
            t = stride.empty(3, dtype=dt)
            self.assertEqual(t.dtype, dt)
            self.assertEqual(t.itemsize, size)
            self.assertEqual(stride._lib.lib.st_dtype_itemsize(int(dt)), size)

    def test_devices(self):
        self.assertEqual(stride.device("cpu"), stride.cpu)
        self.assertEqual(stride.device("cuda:1"), stride.Device(stride.DeviceType.CUDA, 1))
        self.assertEqual(str(stride.device("cuda_host")), "cuda_host:0")
        missing = stride.cuda_device_count()  # one past the last GPU, or 0 without any
        with self.assertRaises(stride.DeviceUnavailableError):
            stride.empty(2, device=f"cuda:{missing}")

    def test_version(self):
        major, minor, patch = stride.version()
        self.assertEqual(stride.version_string(), f"{major}.{minor}.{patch}")
        self.assertEqual(stride.__version__, stride.version_string())

    def test_not_constructible_directly(self):
        with self.assertRaises(TypeError):
            stride.Tensor()


class Errors(unittest.TestCase):
    def test_exception_carries_status_and_message(self):
        t = stride.empty(2, 3)
        with self.assertRaises(stride.OutOfBoundsError) as cm:
            t.select(0, 5)
        e = cm.exception
        self.assertIsInstance(e, stride.StrideError)
        self.assertIsInstance(e, IndexError)
        self.assertEqual(e.status, 8)
        self.assertEqual(e.status_name, "ST_ERROR_OUT_OF_BOUNDS")
        self.assertIn("st_select", e.message)
        self.assertIn("index = 5", e.message)
        self.assertEqual(e.where, "Tensor.select")
        self.assertEqual(str(e), "Tensor.select: " + e.message)

    def test_each_kind(self):
        t = stride.empty(2, 3)
        with self.assertRaises(stride.InvalidArgumentError):
            t.transpose(0, 7)
        with self.assertRaises(stride.InvalidArgumentError):
            stride.empty(-1)
        with self.assertRaises(stride.ShapeMismatchError):
            t.view(4)
        with self.assertRaises(stride.OutOfMemoryError):
            stride.empty(2**62, 2**62)
        with self.assertRaises(stride.OutOfBoundsError):
            t.as_strided((2, 3), (3, 1), 1)

    def test_released_tensor(self):
        t = stride.empty(2)
        t.release()
        self.assertEqual(t.handle, 0)
        with self.assertRaises(stride.InvalidHandleError) as cm:
            t.shape
        self.assertEqual(cm.exception.status, 2)
        t.release()  # a second release is a no-op
        self.assertEqual(repr(t), "stride.Tensor(released)")

    def test_errors_name_the_call_the_user_made(self):
        t = stride.empty(2, 3)
        t.release()
        released = "was released (by release() or the end of its with block)"
        live = stride.empty(2)
        plan = stride.CopyPlan(live, live)
        plan.release()
        calls = [
            (lambda: t.shape, "Tensor.shape: the tensor " + released),
            (lambda: t.fill_(1), "Tensor.fill_: the tensor " + released),
            (lambda: t.squeeze(), "Tensor.squeeze: the tensor " + released),  # not the calls inside it
            (lambda: t[0], "Tensor indexing: the tensor " + released),
            (lambda: len(t), "len(Tensor): the tensor " + released),
            (lambda: float(t), "float(Tensor): the tensor " + released),
            (lambda: np.asarray(t), "numpy.asarray(Tensor): the tensor " + released),
            (lambda: live.copy_(t), "Tensor.copy_: src " + released),
            (lambda: stride.from_dlpack(t), "stride.from_dlpack: the tensor " + released),
            (lambda: stride.CopyPlan(live, t), "stride.CopyPlan: src " + released),
            (lambda: plan.execute(live, live), "CopyPlan.execute: the plan " + released),
        ]
        for call, message in calls:
            with self.subTest(message=message):
                with self.assertRaises(stride.InvalidHandleError) as cm:
                    call()
                self.assertEqual(str(cm.exception), message)
        # The library's message, when it says more, after the method.
        with self.assertRaises(stride.ShapeMismatchError) as cm:
            stride.empty(2, 3).view(4)
        self.assertEqual(str(cm.exception), "Tensor.view: st_view: sizes (4) hold 4 elements, the tensor has 6")
        self.assertEqual(cm.exception.where, "Tensor.view")
        with self.assertRaisesRegex(stride.InvalidArgumentError, r"^stride.set_num_threads: st_set_num_threads: "):
            stride.set_num_threads(0)

    def test_every_public_call_names_itself(self):
        for name in dir(stride.Tensor):
            member = inspect.getattr_static(stride.Tensor, name)
            fn = member.fget if isinstance(member, property) else member
            if name in ("handle", "release", "__init__", "__enter__", "__exit__", "__del__", "_h") or \
                    not callable(fn) or (name.startswith("_") and not name.endswith("__")) or \
                    inspect.getattr_static(object, name, None) is member:
                continue
            with self.subTest(method=name):
                self.assertTrue(hasattr(fn, "entry_name"), f"Tensor.{name} is not decorated with _errors.entry")
        for name in stride.__all__ if hasattr(stride, "__all__") else dir(stride):
            fn = getattr(stride, name)
            # dtype() and device() read their argument and never call the library.
            if inspect.isfunction(fn) and not name.startswith("_") and name not in ("dtype", "device"):
                with self.subTest(function=name):
                    self.assertEqual(getattr(fn, "entry_name", None), f"stride.{name}")

    def test_errors_survive_pickling(self):
        with self.assertRaises(stride.OutOfBoundsError) as cm:
            stride.empty(2).select(0, 5)
        e = pickle.loads(pickle.dumps(cm.exception))
        self.assertIsInstance(e, stride.OutOfBoundsError)
        self.assertEqual((e.status, e.status_name, e.message, e.where, str(e)),
                         (8, "ST_ERROR_OUT_OF_BOUNDS", cm.exception.message, "Tensor.select", str(cm.exception)))

    def test_context_manager(self):
        with stride.empty(2) as t:
            self.assertEqual(t.shape, (2,))
        self.assertEqual(t.handle, 0)


class Views(unittest.TestCase):
    def setUp(self):
        self.a = arange(2, 3, 4)
        self.t = stride.from_numpy(self.a)

    def check(self, view, expected):
        got = np.asarray(view)
        np.testing.assert_array_equal(got, expected)
        # The same layout, hence zero-copy (a dim of size 1 may have any stride).
        self.assertEqual([s for s, n in zip(got.strides, got.shape) if n > 1],
                         [s for s, n in zip(expected.strides, expected.shape) if n > 1])

    def test_permute_transpose(self):
        self.check(self.t.permute(2, 0, 1), self.a.transpose(2, 0, 1))
        self.check(self.t.permute([1, 2, 0]), self.a.transpose(1, 2, 0))
        self.check(self.t.transpose(0, 2), self.a.swapaxes(0, 2))
        self.check(self.t.T, self.a.T)

    def test_slice_select(self):
        self.check(self.t.slice(2, 1, None, 2), self.a[:, :, 1::2])
        self.check(self.t.slice(1, -2), self.a[:, -2:])
        self.check(self.t.select(1, -1), self.a[:, -1])

    def test_expand_unsqueeze_squeeze(self):
        x = stride.from_numpy(arange(3, 1))
        self.check(x.expand(2, 3, 4), np.broadcast_to(arange(3, 1), (2, 3, 4)))
        self.check(x.expand(-1, 5), np.broadcast_to(arange(3, 1), (3, 5)))
        self.assertEqual(x.unsqueeze(0).shape, (1, 3, 1))
        self.assertEqual(x.squeeze(1).shape, (3,))
        self.assertEqual(x.squeeze(0).shape, (3, 1))

    def test_flip_negative_strides(self):
        f = self.t.flip(1)
        self.assertEqual(f.strides, (12, -4, 1))
        self.check(f, self.a[:, ::-1])

    def test_view_and_as_strided(self):
        self.check(self.t.view(6, -1), self.a.reshape(6, 4))
        s = self.t.as_strided((3, 2), (1, 5), 2)
        self.check(s, np.lib.stride_tricks.as_strided(self.a.ravel()[2:], (3, 2), (4, 20)))
        with self.assertRaises(stride.ShapeMismatchError):
            self.t.transpose(0, 1).view(-1)

    def test_reshape(self):
        self.check(self.t.reshape(4, 6), self.a.reshape(4, 6))
        r = self.t.transpose(0, 1).reshape(-1)  # not a view: a copy
        np.testing.assert_array_equal(np.asarray(r), self.a.swapaxes(0, 1).reshape(-1))

    def test_getitem_like_numpy(self):
        for key in [1, -1, (0, 2), (slice(None), 1), (Ellipsis, 3), (None, 0), (slice(1, None), None, Ellipsis),
                    (slice(None, None, -1),), (0, slice(None, None, -2)), (1, slice(3, 0, -2), slice(None, 1, -1)),
                    (slice(5, None, -1),), (Ellipsis,), ()]:
            with self.subTest(key=key):
                self.check(self.t[key], self.a[key])
        with self.assertRaises(IndexError):
            self.t[0, 0, 0, 0]
        with self.assertRaises(TypeError):
            self.t["x"]

    def test_views_share_memory(self):
        v = self.t[1].transpose(0, 1)
        np.asarray(v)[3, 2] = 100.0
        self.assertEqual(self.a[1, 2, 3], 100.0)

    def test_view_keeps_storage_alive(self):
        t = stride.empty(4, dtype=stride.int32)
        v = t.flip(0)
        t.release()
        np.asarray(v)[:] = [1, 2, 3, 4]
        np.testing.assert_array_equal(np.asarray(v), [1, 2, 3, 4])

    def test_garbage_collection_releases(self):
        import weakref

        a = arange(3)
        w = weakref.ref(a)
        t = stride.from_numpy(a)
        del a
        self.assertIsNotNone(w())
        del t
        gc.collect()
        self.assertIsNone(w())


if __name__ == "__main__":
    unittest.main()
