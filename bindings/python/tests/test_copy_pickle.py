"""copy.copy, copy.deepcopy and pickle of a Tensor behave as NumPy's: the original always survives."""

import ctypes
import copy
import gc
import pickle
import unittest

import numpy as np

import stride


def grid(rows, cols, dtype=np.float32):
    return np.arange(rows * cols, dtype=dtype).reshape(rows, cols)


class CopyPickle(unittest.TestCase):
    def test_copy_is_a_new_view_of_the_same_memory(self):
        a = grid(3, 4)
        x = stride.tensor(a).T.flip(0)
        y = copy.copy(x)
        self.assertIsNot(y, x)
        self.assertNotEqual(y.handle, x.handle)
        self.assertEqual((y.shape, y.strides, y.storage_offset, y.dtype), (x.shape, x.strides, x.storage_offset, x.dtype))
        self.assertEqual(y.data_ptr, x.data_ptr)
        y[0, 0] = -1.0  # written through the copy, seen through the original
        self.assertEqual(x[0, 0].item(), -1.0)
        del y
        gc.collect()
        expected = a.T[::-1].copy()
        expected[0, 0] = -1.0
        self.assertEqual(x.tolist(), expected.tolist())

    def test_deepcopy_owns_its_data(self):
        a = grid(2, 5, np.int16)
        x = stride.tensor(a)[:, 1::2]
        y = copy.deepcopy(x)
        self.assertNotEqual(y.data_ptr, x.data_ptr)
        self.assertEqual(y.tolist(), a[:, 1::2].tolist())
        y.fill_(7)
        self.assertEqual(x.tolist(), a[:, 1::2].tolist())
        y.release()
        self.assertEqual(x.tolist(), a[:, 1::2].tolist())

    def test_deepcopy_inside_a_container_keeps_sharing(self):
        x = stride.tensor([1.5, 2.5])
        pair = copy.deepcopy([x, x])
        self.assertIs(pair[0], pair[1])  # deepcopy's memo: one copy for one original
        self.assertNotEqual(pair[0].data_ptr, x.data_ptr)

    def test_pickle_round_trip_of_every_dtype(self):
        values = [[0, 1, 0], [1, 1, 0]]
        for dt in stride.DType:
            if dt == stride.float4_e2m1fn_x2:
                continue  # takes no values from Python numbers: test_pickle_of_packed_float4 below
            with self.subTest(dtype=str(dt)):
                x = stride.tensor(values, dtype=dt).T
                y = pickle.loads(pickle.dumps(x))
                self.assertEqual((y.dtype, y.shape, y.device), (dt, (3, 2), stride.cpu))
                self.assertTrue(y.is_contiguous())
                self.assertEqual(y.to(stride.int64).tolist(), [[0, 1], [1, 1], [0, 0]])
                self.assertEqual(x.to(stride.int64).tolist(), [[0, 1], [1, 1], [0, 0]])

    def test_pickle_of_packed_float4(self):
        # float4_e2m1fn_x2 copies only to itself: its bytes are compared.
        x = stride.empty(2, 3, dtype=stride.float4_e2m1fn_x2)
        ctypes.memmove(x.data_ptr, bytes([0x21, 0x43, 0x65, 0x87, 0xA9, 0xCB]), 6)
        y = pickle.loads(pickle.dumps(x.T))
        self.assertEqual((y.dtype, y.shape), (stride.float4_e2m1fn_x2, (3, 2)))
        self.assertTrue(y.is_contiguous())
        self.assertEqual(ctypes.string_at(y.data_ptr, 6), bytes([0x21, 0x87, 0x43, 0xA9, 0x65, 0xCB]))

    def test_pickle_stores_bytes_not_the_handle(self):
        x = stride.tensor([[1.0, -2.0], [3.0, 4.0]], dtype=stride.float64)
        blob = pickle.dumps(x.T)
        self.assertIn(np.array([1.0, 3.0, -2.0, 4.0]).tobytes(), blob)
        x.release()
        gc.collect()
        self.assertEqual(pickle.loads(blob).tolist(), [[1.0, 3.0], [-2.0, 4.0]])

    def test_pickle_of_scalar_and_empty(self):
        s = pickle.loads(pickle.dumps(stride.tensor(3 + 4j)))
        self.assertEqual((s.shape, s.dtype, s.item()), ((), stride.complex64, 3 + 4j))
        e = pickle.loads(pickle.dumps(stride.empty(0, 3, dtype=stride.uint8)))
        self.assertEqual((e.shape, e.dtype), ((0, 3), stride.uint8))

    def test_unpickle_refuses_a_wrong_byte_count(self):
        func, args = stride.tensor([1, 2]).__reduce__()
        with self.assertRaisesRegex(ValueError, "from 15 bytes"):
            func(args[0], args[1], args[2], b"x" * 15)

    def test_copy_plan_refuses_to_be_copied(self):
        x, y = stride.empty(4), stride.empty(4)
        with stride.CopyPlan(y, x) as plan:
            for attempt in (copy.copy, copy.deepcopy, pickle.dumps):
                with self.assertRaisesRegex(TypeError, "cannot be copied"):
                    attempt(plan)
            plan.execute(y, x)  # still usable


if __name__ == "__main__":
    unittest.main()
