"""Zero-copy wrapping of NumPy arrays.

The array is kept alive in a registry until the library calls the deleter
it was given, which may happen on any thread (ctypes takes the GIL).
"""

import ctypes
import itertools
import threading

from . import _dlpack
from ._lib import CPU_DEVICE, lib, st_deleter, st_tensor
from ._tensor import Tensor
from ._types import dlpack_code, dtype_from_numpy

_alive = {}
_tokens = itertools.count(1)
_lock = threading.Lock()


def _keep(obj):
    with _lock:
        token = next(_tokens)
        _alive[token] = obj
    return token


def _drop(token):
    with _lock:
        _alive.pop(token, None)


@st_deleter
def _release_array(data, ctx):
    _drop(ctx)


@_dlpack.DELETER
def _release_versioned(managed):
    _drop(ctypes.cast(managed, ctypes.POINTER(_dlpack.DLManagedTensorVersioned)).contents.manager_ctx)


def kept_alive():
    """How many arrays the library still holds (for tests)."""
    with _lock:
        return len(_alive)


def from_numpy(a):
    """A Tensor over the memory of the NumPy array `a`, without copying.

    Any strides NumPy allows that are whole multiples of the item size,
    negative ones included. `a` stays alive until the last tensor using its
    memory is released. A read-only array gives a read-only tensor.
    """
    import numpy

    if not isinstance(a, numpy.ndarray):
        raise TypeError(f"from_numpy takes a numpy.ndarray, not {type(a).__name__}")
    dtype = dtype_from_numpy(a.dtype)
    item = a.itemsize
    for s in a.strides:
        if s % item:
            raise ValueError(f"stride of {s} bytes is not a multiple of the item size {item}")
    n = a.ndim
    sizes = (ctypes.c_int64 * n)(*a.shape)
    strides = (ctypes.c_int64 * n)(*(s // item for s in a.strides))
    data = a.__array_interface__["data"][0]
    out = st_tensor()
    if a.flags.writeable:
        token = _keep(a)
        try:
            lib.call("st_tensor_from_data", data, sizes, strides, n, int(dtype), CPU_DEVICE, _release_array, token,
                     ctypes.byref(out))
        except BaseException:
            _drop(token)
            raise
        return Tensor._adopt(out)
    # Only DLPack's versioned struct carries the read-only flag.
    m = _dlpack.DLManagedTensorVersioned()
    m.version.major, m.version.minor = 1, 0
    m.flags = _dlpack.READ_ONLY
    m.deleter = _release_versioned
    t = m.dl_tensor
    t.data = data
    t.device.device_type, t.device.device_id = 1, 0
    t.ndim = n
    t.dtype.code, t.dtype.bits, t.dtype.lanes = dlpack_code(dtype), item * 8, 1
    t.shape = ctypes.cast(sizes, ctypes.POINTER(ctypes.c_int64))
    t.strides = ctypes.cast(strides, ctypes.POINTER(ctypes.c_int64))
    m.manager_ctx = token = _keep((a, m, sizes, strides))
    try:
        lib.call("st_from_dlpack_versioned", ctypes.addressof(m), ctypes.byref(out))
    except BaseException:
        _drop(token)
        raise
    return Tensor._adopt(out)

