"""Arguments as Python takes them: anything dtype-like, tuples of dims, and Python exceptions for bad ones."""

import ctypes
import unittest

import numpy as np
import torch

import stride


class DtypeLike(unittest.TestCase):
    def test_every_spelling(self):
        names = {stride.bool_: np.bool_, stride.uint8: np.uint8, stride.int8: np.int8, stride.int16: np.int16,
                 stride.int32: np.int32, stride.int64: np.int64, stride.float16: np.float16,
                 stride.float32: np.float32, stride.float64: np.float64, stride.complex64: np.complex64,
                 stride.complex128: np.complex128}
        for dt, np_type in names.items():
            torch_dtype = getattr(torch, str(dt))
            for spelling in (dt, str(dt), np_type, np.dtype(np_type), torch_dtype):
                with self.subTest(spelling=spelling):
                    self.assertIs(stride.dtype(spelling), dt)
        self.assertIs(stride.dtype("bfloat16"), stride.bfloat16)
        self.assertIs(stride.dtype(torch.bfloat16), stride.bfloat16)
        for spelling, dt in (("f4", stride.float32), ("double", stride.float64), ("<i2", stride.int16),
                             (float, stride.float64), (int, stride.int64), (bool, stride.bool_),
                             (complex, stride.complex128), (torch.half, stride.float16)):
            with self.subTest(spelling=spelling):
                self.assertIs(stride.dtype(spelling), dt)

    def test_other_libraries_names(self):
        for spelling, dt in (("half", stride.float16), ("fp16", stride.float16), ("bf16", stride.bfloat16),
                             ("f32", stride.float32), ("fp32", stride.float32), ("f64", stride.float64),
                             ("fp64", stride.float64), ("i16", stride.int16), ("i32", stride.int32),
                             ("i64", stride.int64), ("u16", stride.uint16), ("u32", stride.uint32),
                             ("u64", stride.uint64), ("uint8_t", stride.uint8), ("int8_t", stride.int8),
                             ("int16_t", stride.int16), ("int32_t", stride.int32), ("int64_t", stride.int64),
                             ("uint16_t", stride.uint16), ("uint32_t", stride.uint32), ("uint64_t", stride.uint64)):
            with self.subTest(spelling=spelling):
                self.assertIs(stride.dtype(spelling), dt)
                self.assertEqual(stride.empty(1, dtype=spelling).dtype, dt)

    def test_names_numpy_reads_keep_numpy_meaning(self):
        # As README's "The API" says: NumPy's reading, whatever other libraries mean by them.
        for spelling, dt in (("float", stride.float64), ("int", stride.int64), ("i8", stride.int64),
                             ("u8", stride.uint64), ("f2", stride.float16), ("double", stride.float64)):
            with self.subTest(spelling=spelling):
                self.assertIs(stride.dtype(spelling), dt)

    def test_a_wrong_name_lists_the_names_and_suggests_the_nearest(self):
        for bad, hint in (("fp33", "did you mean 'fp32'?"), ("Float32", "did you mean 'float32'?"),
                          ("int8t", "did you mean 'int8_t'?"), ("bfloat", "did you mean 'bfloat16'?"),
                          ("f16", "NumPy reads 'f16' as float128, which stride has not; did you mean 'fp16'?"),
                          ("zzz", "no dtype has that name")):
            with self.subTest(spelling=bad):
                with self.assertRaises(TypeError) as cm:
                    stride.dtype(bad)
                text = str(cm.exception)
                self.assertTrue(text.startswith(f"cannot read {bad!r} as a dtype ({hint}). The dtypes: bool, uint8,"),
                                text)
                for name in ("float8_e5m2", "bf16", "uint64_t", "NumPy's spellings"):
                    self.assertIn(name, text)

    def test_refusals(self):
        for bad in ("float17", "", object(), 8, None, np.dtype("M8[s]"), torch.complex32, np.dtype(">f4"), "V8",
                    "object"):
            with self.subTest(spelling=bad):
                with self.assertRaises(TypeError):
                    stride.dtype(bad)

    def test_to_takes_any_spelling(self):
        t = stride.tensor([1.5, -2.25, 3.0])
        for spelling in (np.float16, "float16", torch.float16, np.dtype("f2")):
            with self.subTest(spelling=spelling):
                h = t.to(spelling)
                self.assertEqual((h.dtype, h.tolist()), (stride.float16, [1.5, -2.25, 3.0]))
        self.assertEqual(t.to("int32").tolist(), [1, -2, 3])
        self.assertEqual(t.to("cpu").device, stride.cpu)  # a device given first
        self.assertEqual(stride.empty(2, dtype=torch.int16).dtype, stride.int16)


class Dims(unittest.TestCase):
    def test_flip_takes_a_tuple(self):
        a = np.arange(24).reshape(2, 3, 4)
        t = stride.from_numpy(a)
        for dims, expected in (((0, 2), a[::-1, :, ::-1]), ((-1,), a[:, :, ::-1]), ([1, 0], a[::-1, ::-1])):
            with self.subTest(dims=dims):
                self.assertEqual(t.flip(dims).tolist(), expected.tolist())
                self.assertEqual(t.flip(*dims).tolist(), expected.tolist())
        self.assertEqual(t.flip().tolist(), a[::-1, ::-1, ::-1].tolist())  # no dims: all, as np.flip
        self.assertEqual(t.flip(1).strides, (12, -4, 1))
        with self.assertRaisesRegex(ValueError, "more than once"):
            t.flip((0, -3))

    def test_squeeze_without_a_dim(self):
        t = stride.empty(1, 3, 1, 4, 1)
        self.assertEqual(t.squeeze().shape, (3, 4))
        self.assertEqual(t.squeeze(2).shape, (1, 3, 4, 1))
        self.assertEqual(t.squeeze((0, -1)).shape, (3, 1, 4))
        self.assertEqual(t.squeeze(1).shape, (1, 3, 1, 4, 1))  # a dim whose size is not 1 stays
        self.assertEqual(stride.empty(1, 1).squeeze().shape, ())


class BadArguments(unittest.TestCase):
    """Every bad argument is a TypeError, ValueError or IndexError, never a ctypes error."""

    def check(self, call, kind, text=None):
        with self.assertRaises(kind) as caught:
            call()
        self.assertNotIsInstance(caught.exception, ctypes.ArgumentError)
        if text is not None:
            self.assertIn(text, str(caught.exception))

    def test_tensor_methods(self):
        t = stride.empty(2, 3)
        cases = [
            (lambda: t.transpose("a", 0), TypeError, "transpose: dim0"),
            (lambda: t.transpose(0, 5), ValueError, "st_transpose"),
            (lambda: t.transpose(0, 2 ** 40), ValueError, "transpose: dim1"),
            (lambda: t.permute(0, "x"), TypeError, None),
            (lambda: t.permute(0), ValueError, "st_permute"),
            (lambda: t.flip(1.5), TypeError, None),
            (lambda: t.flip((0, 7)), ValueError, "st_flip"),
            (lambda: t.flip(True), TypeError, None),
            (lambda: t.squeeze("a"), TypeError, None),
            (lambda: t.unsqueeze(None), TypeError, None),
            (lambda: t.slice(0, "a"), TypeError, None),
            (lambda: t.slice(0, 0, 2, 0), ValueError, "st_slice"),
            (lambda: t.select(0, 5), IndexError, "st_select"),
            (lambda: t.select(0, 2 ** 80), IndexError, "st_select"),
            (lambda: t.expand(2, "a"), TypeError, None),
            (lambda: t.expand(5, 3), ValueError, "st_expand"),
            (lambda: t.view(4), ValueError, "st_view"),
            (lambda: t.view(None), TypeError, None),
            (lambda: t.reshape(-1, 4), ValueError, "st_reshape"),
            (lambda: t.as_strided((2,), ("a",)), TypeError, None),
            (lambda: t.as_strided((2,), (1, 1)), ValueError, None),
            (lambda: t[1.5], TypeError, None),
            (lambda: t["a"], TypeError, None),
            (lambda: t[0, 0, 0], IndexError, None),
            (lambda: t[5], IndexError, "st_select"),
            (lambda: t[::0], ValueError, None),
            (lambda: t["a":], TypeError, None),
            (lambda: t.fill_("a"), TypeError, None),
            (lambda: t.fill_(None), TypeError, None),
            (lambda: t.fill_(1j), TypeError, None),
            (lambda: t.to("float17"), TypeError, None),
            (lambda: t.to(5), TypeError, None),
            (lambda: t.to(memory_format="x"), TypeError, None),
            (lambda: t.contiguous(5), ValueError, None),
            (lambda: t.contiguous(stride.channels_last), ValueError, "st_contiguous"),
            (lambda: t.copy_(stride.empty(4)), ValueError, "st_copy"),
            (lambda: t.copy_("abc"), TypeError, None),
            (lambda: t.is_contiguous("x"), TypeError, None),
            (lambda: t.size(5), IndexError, None),
            (lambda: t.stride("a"), TypeError, None),
            (lambda: t.to(device="gpu"), ValueError, None),
            (lambda: t.__dlpack__(dl_device=(9, 0)), ValueError, None),
        ]
        for call, kind, text in cases:
            with self.subTest(kind=kind, text=text):
                self.check(call, kind, text)

    def test_functions(self):
        cases = [
            (lambda: stride.empty(-1), ValueError, "st_tensor_create"),
            (lambda: stride.empty("a"), TypeError, None),
            (lambda: stride.empty(2.5), TypeError, None),
            (lambda: stride.empty(*[1] * 40), ValueError, "st_tensor_create"),
            (lambda: stride.empty(2, dtype="nope"), TypeError, None),
            (lambda: stride.empty(2, device="gpu"), ValueError, None),
            (lambda: stride.empty(2, device=5), TypeError, None),
            (lambda: stride.empty_strided((2,), (1, 1)), ValueError, None),
            (lambda: stride.empty_strided((2,), (-1,)), ValueError, "st_tensor_create_strided"),
            (lambda: stride.empty_like(5), TypeError, None),
            (lambda: stride.set_num_threads("x"), TypeError, None),
            (lambda: stride.set_num_threads(0), ValueError, "st_set_num_threads"),
            (lambda: stride.set_parallel_for(5), TypeError, None),
            (lambda: stride.set_trace_callback("x"), TypeError, None),
            (lambda: stride.set_cpu_allocator(1, 2), TypeError, None),
            (lambda: stride.cuda_synchronize("x"), TypeError, None),
            (lambda: stride.cuda_set_stream("a", None), TypeError, None),
            (lambda: stride.cuda_set_stream(0, "s"), TypeError, None),
            (lambda: stride.from_dlpack(5), TypeError, None),
            (lambda: stride.from_numpy([1]), TypeError, None),
            (lambda: stride.tensor({1: 2}), TypeError, None),
        ]
        for call, kind, text in cases:
            with self.subTest(kind=kind, text=text):
                self.check(call, kind, text)


if __name__ == "__main__":
    unittest.main()
