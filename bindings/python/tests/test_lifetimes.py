"""What keeps memory alive, and what several threads may do at once (docs/bindings.md, "Python").

The reads of memory that could be freed run in a child process with
ST_CPU_BLOCK_CACHE_BYTES=0 (the library gives every block back at once)
and tensors of 8 MiB and more (which glibc unmaps when freed): a read
after the free then crashes the child, or, under an ASan-built library
(`tools/test-bindings.sh --lib build-asan/src/libstride.so python`), ASan
names it, and this suite reports the child's output instead of dying with
it.
"""

import ctypes
import gc
import os
import subprocess
import sys
import textwrap
import threading
import unittest
import weakref

import numpy as np

import stride
from stride import _dlpack

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(stride.__file__)))


def run_child(code):
    """(exit status, output) of `code` run by a new interpreter that imports this stride."""
    env = dict(os.environ, ST_CPU_BLOCK_CACHE_BYTES="0",
               PYTHONPATH=os.pathsep.join(p for p in (_PACKAGE, os.environ.get("PYTHONPATH")) if p))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)
    return done.returncode, done.stdout


# 8 MiB of float32 filled with 1.5; then other tensors of the same size are
# made and filled with 7, so a freed block that was reused shows 7, and an
# unmapped one crashes.
_BIG = """
import numpy as np
import stride

def big():
    return stride.full((1024, 2048), 1.5)

def churn():
    return [stride.full((1024, 2048), 7.0) for _ in range(3)]
"""


class NumpyArraysKeepTheirMemory(unittest.TestCase):
    def check_child(self, body):
        status, output = run_child(_BIG + textwrap.dedent(body) + "\nprint('values', float(a.min()), "
                                   "float(a.max()), a.shape)\n")
        self.assertEqual(status, 0, output)
        self.assertIn("values 1.5 1.5 (1024, 2048)", output)

    def test_array_outlives_release(self):
        self.check_child("""
            t = big()
            a = t.numpy()
            t.release()
            junk = churn()
        """)

    def test_array_outlives_the_with_block(self):
        self.check_child("""
            with big() as t:
                a = np.asarray(t)
            junk = churn()
        """)

    def test_array_of_a_view_outlives_every_tensor(self):
        self.check_child("""
            t = big()
            v = t.T.flip(0)
            a = np.asarray(v).T[::-1]
            v.release()
            t.release()
            del t, v
            junk = churn()
        """)

    def test_read_only_array_outlives_release(self):
        self.check_child("""
            src = np.full((1024, 2048), 1.5, dtype=np.float32)
            src.flags.writeable = False
            t = stride.from_numpy(src)
            del src
            a = t.numpy()
            t.release()
            junk = churn()
            assert not a.flags.writeable
        """)

    def test_memory_goes_when_the_array_goes(self):
        t = stride.empty(16)
        count = stride.live_tensor_count()
        a = t.numpy()
        t.release()
        self.assertEqual(stride.live_tensor_count(), count)  # the array's own reference
        del a
        gc.collect()
        self.assertEqual(stride.live_tensor_count(), count - 1)

    def test_array_of_numpy_memory_keeps_the_numpy_array(self):
        src = np.arange(6.0)
        w = weakref.ref(src)
        t = stride.from_numpy(src)
        del src
        a = np.asarray(t)
        t.release()
        gc.collect()
        self.assertIsNotNone(w())
        self.assertEqual(a.tolist(), [0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
        del a
        gc.collect()
        self.assertIsNone(w())

    def test_exported_capsule_outlives_release(self):
        status, output = run_child(_BIG + """
t = big()
capsule = t.__dlpack__()
t.release()
junk = churn()
x = np.asarray(stride.from_dlpack(capsule))
print('values', float(x.min()), float(x.max()))
""")
        self.assertEqual(status, 0, output)
        self.assertIn("values 1.5 1.5", output)


# What the capsules of counted_capsule point into, kept to the end of the
# run: a deleter that runs twice is then counted, not a crash.
_producing = []


def counted_capsule(array, deleted):
    """A classic DLPack capsule over `array` whose deleter appends to `deleted` (a producer of our own)."""
    managed = _dlpack.DLManagedTensor()
    sizes = (ctypes.c_int64 * array.ndim)(*array.shape)
    t = managed.dl_tensor
    t.data = array.ctypes.data
    t.device.device_type, t.device.device_id = 1, 0
    t.ndim = array.ndim
    t.dtype.code, t.dtype.bits, t.dtype.lanes = 2, 64, 1
    t.shape = ctypes.cast(sizes, ctypes.POINTER(ctypes.c_int64))

    @_dlpack.DELETER
    def deleter(ptr):
        deleted.append(ptr)

    managed.deleter = deleter
    _producing.append((array, managed, sizes, deleter))
    return _dlpack._capsule_new(ctypes.addressof(managed), _dlpack.CLASSIC, _dlpack._destroy_unused_capsule)


def at_once(target, threads=4):
    """Runs target() on `threads` threads released together, and waits for them."""
    start = threading.Barrier(threads)

    def run():
        start.wait()
        target()

    started = [threading.Thread(target=run) for _ in range(threads)]
    for th in started:
        th.start()
    for th in started:
        th.join()


class Races(unittest.TestCase):
    """Threads that do one thing to one object at once, with the GIL handed over as often as it can be."""

    ATTEMPTS = 300

    def setUp(self):
        self.switch = sys.getswitchinterval()
        sys.setswitchinterval(1e-6)

    def tearDown(self):
        sys.setswitchinterval(self.switch)


class CapsulesAreTakenOnce(Races):
    def test_one_capsule_imported_from_many_threads(self):
        for attempt in range(self.ATTEMPTS):
            deleted, taken, refused = [], [], []
            capsule = counted_capsule(np.arange(4.0), deleted)

            def take():
                try:
                    taken.append(stride.from_dlpack(capsule))
                except BufferError:
                    refused.append(1)

            at_once(take)
            self.assertEqual((len(taken), len(refused)), (1, 3), f"attempt {attempt}")
            self.assertEqual(taken[0].tolist(), [0.0, 1.0, 2.0, 3.0])
            for t in taken:
                t.release()
            del capsule
            gc.collect()
            self.assertEqual(len(deleted), 1, f"attempt {attempt}: the producer's deleter ran {len(deleted)} times")

    def test_failed_import_gives_the_capsule_back(self):
        deleted = []
        capsule = counted_capsule(np.arange(4.0), deleted)
        managed = ctypes.cast(_dlpack._capsule_get_pointer(capsule, _dlpack.CLASSIC),
                              ctypes.POINTER(_dlpack.DLManagedTensor)).contents
        managed.dl_tensor.dtype.lanes = 4  # refused by the library
        with self.assertRaises(stride.UnsupportedDtypeError):
            stride.from_dlpack(capsule)
        self.assertEqual(_dlpack._capsule_get_name(capsule), _dlpack.CLASSIC)
        managed.dl_tensor.dtype.lanes = 1
        t = stride.from_dlpack(capsule)  # unused still: it can be taken after all
        self.assertEqual(t.tolist(), [0.0, 1.0, 2.0, 3.0])
        del capsule
        gc.collect()
        self.assertEqual(deleted, [])  # the tensor owns it now
        t.release()
        self.assertEqual(len(deleted), 1)


class ReleaseFromManyThreads(Races):
    def test_concurrent_release_drops_one_reference(self):
        for attempt in range(self.ATTEMPTS):
            t = stride.full((4,), 2.0)
            sibling = t[()]  # another object, its own reference to the same handle
            at_once(t.release)
            self.assertEqual(sibling.tolist(), [2.0] * 4, f"attempt {attempt}")
            sibling.release()


class ParallelForRun(unittest.TestCase):
    def test_run_kept_past_its_call_is_refused(self):
        status, output = run_child("""
import numpy as np
import stride

kept = []

def serial(n, grain, run):
    kept.append(run)
    run(0, n)

stride.set_num_threads(2)
stride.set_parallel_for(serial)
a = np.arange(1 << 20, dtype=np.float32).reshape(1024, 1024)
out = np.zeros((1024, 1024), dtype=np.float64)
stride.from_numpy(out).copy_(stride.from_numpy(a).transpose(0, 1))
stride.set_parallel_for(None)
assert kept, "the job system was not used"
try:
    kept[0](0, 1)
except RuntimeError as e:
    print("refused:", e)
""")
        self.assertEqual(status, 0, output)
        self.assertIn("refused: ", output)


if __name__ == "__main__":
    unittest.main()
