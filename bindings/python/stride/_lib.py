"""Loading libstride and declaring its C functions for ctypes.

The library is, in this order: the file $STRIDE_LIBRARY names (an
override); the copy bundled into this package when it was installed
(pip bundles one, see setup.py); else libstride.so.0 from the system's
loader path (LD_LIBRARY_PATH, the ldconfig cache, /usr/lib, ...).
SIGNATURES mirrors include/stride.h; tests/test_header.py checks it there.
"""

import ctypes
import os

from . import _errors

# The SONAME: libstride.so.<ST_VERSION_MAJOR> (checked by tests/test_header.py).
SONAME = "libstride.so.0"
# ST_API_VERSION: the newest st_api table these declarations know (checked by tests/test_header.py).
API_VERSION = 2

class st_tensor(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint64)]


class st_copy_plan(ctypes.Structure):
    _fields_ = [("id", ctypes.c_uint64)]


class st_device(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int32), ("index", ctypes.c_int32)]


st_deleter = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
st_alloc_fn = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t)
st_free_fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)


class st_allocator(ctypes.Structure):
    _fields_ = [("alloc", st_alloc_fn), ("free", st_free_fn), ("ctx", ctypes.c_void_p)]


class st_scale_shift(ctypes.Structure):
    """The scale and shift of the scaled copies (see include/stride.h)."""
    _fields_ = [("scale", ctypes.POINTER(ctypes.c_double)), ("shift", ctypes.POINTER(ctypes.c_double)),
                ("n", ctypes.c_int64), ("dim", ctypes.c_int32), ("saturate", ctypes.c_int32)]


st_parallel_task = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)
st_parallel_for_fn = ctypes.CFUNCTYPE(
    None, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, st_parallel_task, ctypes.c_void_p)
st_trace_fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int64)

_i32, _i64, _u32, _vp = ctypes.c_int32, ctypes.c_int64, ctypes.c_uint32, ctypes.c_void_p
_P = ctypes.POINTER
_status = ctypes.c_int32

# name: (restype, argtypes), as include/stride.h declares them.
SIGNATURES = {
    "st_version": (_u32, []),
    "st_version_string": (ctypes.c_char_p, []),
    "st_status_name": (ctypes.c_char_p, [_status]),
    "st_last_error_message": (ctypes.c_char_p, []),
    "st_dtype_itemsize": (ctypes.c_size_t, [_i32]),
    "st_dtype_name": (ctypes.c_char_p, [_i32]),
    "st_tensor_create": (_status, [_P(_i64), _i32, _i32, st_device, _P(st_tensor)]),
    "st_tensor_create_strided": (_status, [_P(_i64), _P(_i64), _i32, _i32, st_device, _P(st_tensor)]),
    "st_tensor_create_like": (_status, [st_tensor, _i32, _P(st_tensor)]),
    "st_tensor_from_data": (_status, [_vp, _P(_i64), _P(_i64), _i32, _i32, st_device, st_deleter, _vp,
                                      _P(st_tensor)]),
    "st_tensor_retain": (_status, [st_tensor]),
    "st_tensor_release": (_status, [st_tensor]),
    "st_tensor_ndim": (_status, [st_tensor, _P(_i32)]),
    "st_tensor_sizes": (_status, [st_tensor, _P(_i64), _i32]),
    "st_tensor_strides": (_status, [st_tensor, _P(_i64), _i32]),
    "st_tensor_dtype": (_status, [st_tensor, _P(_i32)]),
    "st_tensor_device": (_status, [st_tensor, _P(st_device)]),
    "st_tensor_numel": (_status, [st_tensor, _P(_i64)]),
    "st_tensor_storage_offset": (_status, [st_tensor, _P(_i64)]),
    "st_tensor_data_ptr": (_status, [st_tensor, _P(_vp)]),
    "st_tensor_is_contiguous": (_status, [st_tensor, _i32, _P(_i32)]),
    "st_as_strided": (_status, [st_tensor, _P(_i64), _P(_i64), _i32, _i64, _P(st_tensor)]),
    "st_permute": (_status, [st_tensor, _P(_i32), _i32, _P(st_tensor)]),
    "st_transpose": (_status, [st_tensor, _i32, _i32, _P(st_tensor)]),
    "st_slice": (_status, [st_tensor, _i32, _i64, _i64, _i64, _P(st_tensor)]),
    "st_select": (_status, [st_tensor, _i32, _i64, _P(st_tensor)]),
    "st_expand": (_status, [st_tensor, _P(_i64), _i32, _P(st_tensor)]),
    "st_unsqueeze": (_status, [st_tensor, _i32, _P(st_tensor)]),
    "st_squeeze": (_status, [st_tensor, _i32, _P(st_tensor)]),
    "st_flip": (_status, [st_tensor, _i32, _P(st_tensor)]),
    "st_view": (_status, [st_tensor, _P(_i64), _i32, _P(st_tensor)]),
    "st_reshape": (_status, [st_tensor, _P(_i64), _i32, _P(st_tensor)]),
    "st_contiguous": (_status, [st_tensor, _i32, _P(st_tensor)]),
    "st_clone": (_status, [st_tensor, _i32, _P(st_tensor)]),
    "st_copy": (_status, [st_tensor, st_tensor, _i32]),
    "st_copy_scaled": (_status, [st_tensor, st_tensor, _P(st_scale_shift), _i32]),
    "st_to": (_status, [st_tensor, _i32, st_device, _i32, _P(st_tensor)]),
    "st_fill": (_status, [st_tensor, ctypes.c_double]),
    "st_zero": (_status, [st_tensor]),
    "st_set_num_threads": (_status, [_i32]),
    "st_get_num_threads": (_i32, []),
    "st_set_cpu_allocator": (_status, [_P(st_allocator)]),
    "st_set_parallel_for": (_status, [st_parallel_for_fn, _vp]),
    "st_set_trace_callback": (_status, [st_trace_fn, _vp]),
    "st_cuda_device_count": (_status, [_P(_i32)]),
    "st_cuda_set_stream": (_status, [_i32, _vp]),
    "st_cuda_synchronize": (_status, [_i32]),
    "st_cuda_empty_cache": (_status, [_i32]),
    "st_live_tensor_count": (_status, [_P(_i64)]),
    "st_to_dlpack": (_status, [st_tensor, _P(_vp)]),
    "st_from_dlpack": (_status, [_vp, _P(st_tensor)]),
    "st_to_dlpack_versioned": (_status, [st_tensor, _P(_vp)]),
    "st_from_dlpack_versioned": (_status, [_vp, _P(st_tensor)]),
    "st_get_api": (_vp, [_u32]),
    "st_live_plan_count": (_status, [_P(_i64)]),
    "st_copy_plan_create": (_status, [st_tensor, st_tensor, _P(st_scale_shift), _i32, _P(st_copy_plan)]),
    "st_copy_plan_execute": (_status, [st_copy_plan, st_tensor, st_tensor, _i32]),
    "st_copy_plan_execute_raw": (_status, [st_copy_plan, _vp, _vp, _i32]),
    "st_copy_plan_release": (_status, [st_copy_plan]),
}

def _candidates():
    """(path, where it came from) of the library to load."""
    override = os.environ.get("STRIDE_LIBRARY")
    if override:
        return override, "$STRIDE_LIBRARY"
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), SONAME)
    if os.path.exists(bundled):
        return bundled, "the copy bundled with the package"
    return SONAME, "the system's loader path"


def _load():
    path, origin = _candidates()
    try:
        return _Library(path)
    except OSError as e:
        raise ImportError(
            f"stride: cannot load libstride from {origin} ({e}). Reinstall the package from a stride "
            f"checkout (pip bundles the library), put an installed stride's lib folder on the loader path, "
            f"or set STRIDE_LIBRARY to the library file.") from None


class _Library:
    def __init__(self, path):
        self.path = path
        self.dll = ctypes.CDLL(path)
        for name, (restype, argtypes) in SIGNATURES.items():
            try:
                fn = getattr(self.dll, name)
            except AttributeError:
                raise ImportError(f"{path} does not export {name}") from None
            fn.restype = restype
            fn.argtypes = argtypes
            setattr(self, name, fn)

    def check(self, status):
        """Raises the StrideError of a failing status, with this thread's message."""
        if status != _errors.OK:
            name = self.st_status_name(status).decode()
            message = self.st_last_error_message().decode(errors="replace")
            raise _errors.error_for(status, name, message)

    def call(self, name, *args):
        self.check(getattr(self, name)(*args))


lib = _load()

CPU_DEVICE = st_device(1, 0)
