"""stride.CopyPlan: a copy prepared once and run on new data, against NumPy."""

import unittest

import numpy as np

import stride


class CopyPlanTest(unittest.TestCase):
    def test_execute_transposes_like_numpy(self):
        a = np.arange(12, dtype=np.float32).reshape(3, 4)
        src = stride.from_numpy(a).transpose(0, 1)
        dst = stride.empty((4, 3), dtype=stride.float32)
        with stride.CopyPlan(dst, src) as plan:
            self.assertNotEqual(plan.handle, 0)
            plan.execute(dst, src)
            np.testing.assert_array_equal(np.asarray(dst), a.T)
            a += 100  # new data, same layout
            plan.execute(dst, src)
            np.testing.assert_array_equal(np.asarray(dst), a.T)
        self.assertEqual(plan.handle, 0)
        self.assertEqual(stride.live_plan_count(), 0)

    def test_execute_raw_converts_uint8_hwc_to_float32_chw(self):
        frame = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
        src = stride.from_numpy(frame).permute(2, 0, 1)
        dst = stride.empty((3, 2, 3), dtype=stride.float32)
        plan = stride.CopyPlan(dst, src, measure=True)
        np.testing.assert_array_equal(np.asarray(dst), frame.transpose(2, 0, 1).astype(np.float32))
        other = (frame * 2).astype(np.uint8)
        out = np.zeros((3, 2, 3), dtype=np.float32)
        plan.execute_raw(out.ctypes.data, other.ctypes.data)
        np.testing.assert_array_equal(out, other.transpose(2, 0, 1).astype(np.float32))
        plan.release()

    def test_errors(self):
        src = stride.from_numpy(np.zeros((2, 2), dtype=np.float32))
        dst = stride.empty((2, 2), dtype=stride.float32)
        plan = stride.CopyPlan(dst, src)
        with self.assertRaises(stride.InvalidArgumentError):
            plan.execute(stride.empty((2, 3), dtype=stride.float32), src)
        with self.assertRaises(stride.InvalidArgumentError):
            plan.execute_raw(0, dst.data_ptr)
        with self.assertRaises(stride.ShapeMismatchError):
            stride.CopyPlan(dst, stride.empty((3,), dtype=stride.float32))
        with self.assertRaises(TypeError):
            stride.CopyPlan(np.zeros(2), src)
        plan.release()
        with self.assertRaises(stride.InvalidHandleError):
            plan.execute(dst, src)
        plan.release()  # releasing twice through the object is a no-op
        self.assertEqual(stride.live_plan_count(), 0)


if __name__ == "__main__":
    unittest.main()
