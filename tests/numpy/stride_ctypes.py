"""What the tests in tests/numpy share: NumPy or a skip, the library loaded
through ctypes with the prototypes they call, and NumPy arrays wrapped as
tensors. Reads the library's path from the command line (sys.argv[1])."""
import ctypes
import os
import sys

try:
    import numpy as np
except ImportError:
    print("numpy is not installed for %s: skipped" % sys.executable)
    sys.exit(77)


class Tensor(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint64)]


class Device(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int32), ("index", ctypes.c_int32)]


CPU = Device(1, 0)

# st_dtype values (include/stride.h) of NumPy's types.
DTYPES = {
    np.bool_: 0, np.uint8: 1, np.int8: 2, np.int16: 3, np.int32: 4, np.int64: 5, np.float16: 6,
    np.float32: 8, np.float64: 9, np.complex64: 10, np.complex128: 11, np.uint16: 12, np.uint32: 13,
    np.uint64: 14,
}

I64P = ctypes.POINTER(ctypes.c_int64)
lib = ctypes.CDLL(sys.argv[1])
lib.st_tensor_from_data.argtypes = [ctypes.c_void_p, I64P, I64P, ctypes.c_int32, ctypes.c_int32, Device,
                                    ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(Tensor)]
lib.st_copy.argtypes = [Tensor, Tensor, ctypes.c_int32]
lib.st_tensor_release.argtypes = [Tensor]
lib.st_last_error_message.restype = ctypes.c_char_p


def check(status):
    assert status == 0, lib.st_last_error_message().decode()


def dims(values):
    return (ctypes.c_int64 * max(len(values), 1))(*values)


def wrap(a):
    """A CPU tensor over the memory of the C-contiguous array `a`, of its shape (the caller keeps `a` alive)."""
    assert a.flags.c_contiguous
    t = Tensor()
    check(lib.st_tensor_from_data(a.ctypes.data, dims(a.shape), None, a.ndim, DTYPES[a.dtype.type], CPU, None,
                                  None, ctypes.byref(t)))
    return t


def random_generator(default_seed):
    """NumPy's generator from ST_TEST_SEED, else `default_seed`; says which."""
    seed = int(os.environ.get("ST_TEST_SEED", str(default_seed)))
    print("random values use seed %d (set ST_TEST_SEED to change it)" % seed)
    return np.random.default_rng(seed)
