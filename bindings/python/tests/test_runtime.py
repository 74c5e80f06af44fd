"""Process-wide settings: threads, allocator, parallel_for, tracing, CUDA queries."""

import contextlib
import ctypes
import io
import threading
import unittest

import numpy as np

import stride

_libc = ctypes.CDLL(None)
_libc.aligned_alloc.restype = ctypes.c_void_p
_libc.aligned_alloc.argtypes = [ctypes.c_size_t, ctypes.c_size_t]
_libc.free.argtypes = [ctypes.c_void_p]


class Threads(unittest.TestCase):
    def test_set_and_get(self):
        before = stride.get_num_threads()
        try:
            stride.set_num_threads(3)
            self.assertEqual(stride.get_num_threads(), 3)
            with self.assertRaises(stride.InvalidArgumentError):
                stride.set_num_threads(0)
            self.assertEqual(stride.get_num_threads(), 3)
        finally:
            stride.set_num_threads(before)


class Allocator(unittest.TestCase):
    def tearDown(self):
        stride.set_cpu_allocator()

    def test_python_allocator(self):
        calls = []
        lock = threading.Lock()

        def alloc(nbytes, alignment):
            rounded = (nbytes + alignment - 1) // alignment * alignment
            ptr = _libc.aligned_alloc(alignment, rounded)
            with lock:
                calls.append(("alloc", ptr, nbytes, alignment))
            return ptr

        def free(ptr, nbytes):
            with lock:
                calls.append(("free", ptr, nbytes))
            _libc.free(ptr)

        stride.set_cpu_allocator(alloc, free)
        t = stride.empty(10, 10, dtype=stride.float32)
        self.assertEqual(len(calls), 1)
        kind, ptr, nbytes, alignment = calls[0]
        self.assertEqual((kind, nbytes, alignment), ("alloc", 400, 64))
        self.assertEqual(t.data_ptr, ptr)
        stride.set_cpu_allocator()  # restoring the default does not change who frees t
        t.release()
        self.assertEqual(calls[1], ("free", ptr, 400))
        stride.empty(0, 5)  # no elements: nothing allocated
        self.assertEqual(len(calls), 2)

    def test_failing_allocator(self):
        stride.set_cpu_allocator(lambda nbytes, alignment: 0, lambda ptr, nbytes: None)
        with self.assertRaises(stride.OutOfMemoryError):
            stride.empty(16)

    def test_allocator_that_raises(self):
        def alloc(nbytes, alignment):
            raise KeyError("no heap today")

        stride.set_cpu_allocator(alloc, lambda ptr, nbytes: None)
        printed = io.StringIO()
        with contextlib.redirect_stderr(printed):
            with self.assertRaisesRegex(stride.OutOfMemoryError, "^stride.empty: st_tensor_create: "):
                stride.empty(16)
        self.assertIn("Exception ignored in set_cpu_allocator's alloc:", printed.getvalue())
        self.assertIn("KeyError: 'no heap today'", printed.getvalue())

    def test_half_an_allocator(self):
        with self.assertRaises(ValueError):
            stride.set_cpu_allocator(lambda n, a: 0)


def transpose_through(job_system):
    """(a, out) after out <- a.T, a 4 MiB transposing copy, with `job_system` as the library's parallel_for."""
    threads = stride.get_num_threads()
    stride.set_num_threads(2)
    stride.set_parallel_for(job_system)
    a = np.arange(1 << 20, dtype=np.float32).reshape(1024, 1024)
    out = np.zeros((1024, 1024), dtype=np.float64)
    try:
        stride.from_numpy(out).copy_(stride.from_numpy(a).transpose(0, 1))
    finally:
        stride.set_parallel_for(None)
        stride.set_num_threads(threads)
    return a, out


class ParallelFor(unittest.TestCase):
    def test_host_job_system(self):
        calls = []

        def serial(n, grain, run):  # a host's job system, run on this thread
            calls.append((n, grain))
            step = max(grain, 1)
            for begin in range(0, n, step):
                run(begin, min(begin + step, n))

        a, out = transpose_through(serial)
        np.testing.assert_array_equal(out, a.T)
        self.assertTrue(calls, "the library never used the job system for a 4 MiB transposing copy")
        self.assertTrue(all(n > 0 and grain >= 1 for n, grain in calls), calls)

    def test_job_system_that_raises_fails_the_operator(self):
        def broken(n, grain, run):
            raise RuntimeError("the scheduler is down")

        printed = io.StringIO()
        with contextlib.redirect_stderr(printed), self.assertRaisesRegex(stride.InternalError, "^Tensor.copy_: "):
            transpose_through(broken)
        self.assertIn("RuntimeError: the scheduler is down", printed.getvalue())


class Trace(unittest.TestCase):
    def test_operators_reported(self):
        seen = []
        stride.set_trace_callback(lambda name, ns: seen.append((name, ns)))
        try:
            stride.empty(4, 4).transpose(0, 1).clone()
        finally:
            stride.set_trace_callback(None)
        names = [n for n, _ in seen]
        # empty() allocates; clone() of the (dense) transpose keeps its
        # strides: it allocates with them, copies, and reports itself last.
        self.assertEqual(names, ["empty_strided", "empty_strided", "copy_", "clone"])
        self.assertTrue(all(ns >= 0 for _, ns in seen))
        count = len(seen)
        stride.empty(2).clone()
        self.assertEqual(len(seen), count)  # off again


class Cuda(unittest.TestCase):
    def test_queries(self):
        n = stride.cuda_device_count()
        self.assertGreaterEqual(n, 0)
        if n == 0:
            with self.assertRaises(stride.DeviceUnavailableError):
                stride.cuda_synchronize(0)
            with self.assertRaises(stride.DeviceUnavailableError):
                stride.cuda_empty_cache(0)
        else:
            stride.cuda_synchronize(0)
            stride.cuda_empty_cache(0)
        with self.assertRaises(stride.InvalidArgumentError):
            stride.cuda_empty_cache(-1)


if __name__ == "__main__":
    unittest.main()
