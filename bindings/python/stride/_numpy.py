"""Zero-copy wrapping of NumPy arrays.

The array is kept alive in a registry until the library calls the deleter
it was given, which may happen on any thread (ctypes takes the GIL).
"""

import ctypes
import itertools
import threading

from . import _dlpack
from ._capi import st_deleter, st_tensor
from ._errors import entry
from ._lib import CPU_DEVICE, lib
from ._tensor import Tensor
from ._types import DType, dlpack_code, dtype as as_dtype, dtype_from_numpy, typestr

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


def _dtype_of(a, dtype):
    """The DType a tensor over `a` has: NumPy's, or a 1-byte dtype NumPy has not (float8, float6, float4, e8m0)
    over uint8 bytes when `dtype` asks: the way back from numpy.asarray of such a tensor."""
    own = dtype_from_numpy(a.dtype)
    if dtype is None:
        return own
    wanted = as_dtype(dtype)
    as_bytes = wanted.itemsize == 1 and typestr(wanted) == "|u1"
    if wanted != own and not (own == DType.UINT8 and as_bytes):
        raise TypeError(f"from_numpy: a {a.dtype} array cannot be read as {wanted} (only uint8 bytes as the "
                        f"1-byte dtypes NumPy has not: float8, float6, float4_e2m1fn_x2, float8_e8m0fnu)")
    return wanted


@entry
def from_numpy(a, dtype=None):
    """A Tensor over the memory of the NumPy array `a`, without copying.

    Any strides NumPy allows that are whole multiples of the item size,
    negative ones included. `a` stays alive until the last tensor using its
    memory is released. A read-only array gives a read-only tensor.
    NumPy has no float8: `dtype` (stride.float8_e4m3fn,
    stride.float8_e5m2, and likewise float8_e8m0fnu, float6_e2m3fn,
    float6_e3m2fn and float4_e2m1fn_x2) reads the bytes of a uint8 array
    as that dtype, the way back from ``numpy.asarray`` of such a tensor
    (a uint8 view): block-scaled values and scales from a checkpoint.
    """
    import numpy

    if not isinstance(a, numpy.ndarray):
        raise TypeError(f"from_numpy takes a numpy.ndarray, not {type(a).__name__}")
    dtype = _dtype_of(a, dtype)
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

