"""DLPack structures and the Python capsule protocol, over ctypes.

A producer hands out a PyCapsule named "dltensor" (classic struct) or
"dltensor_versioned" (DLPack 1.x); the consumer renames it "used_..." when
it takes ownership, and the capsule's destructor calls the tensor's deleter
only while the name is still unused (the DLPack Python specification).
"""

import ctypes
import threading

from ._capi import ST_OK as OK, st_tensor
from ._lib import lib

READ_ONLY = 1  # DLPACK_FLAG_BITMASK_READ_ONLY
IS_COPIED = 2  # DLPACK_FLAG_BITMASK_IS_COPIED
CLASSIC = b"dltensor"
VERSIONED = b"dltensor_versioned"
USED_CLASSIC = b"used_dltensor"
USED_VERSIONED = b"used_dltensor_versioned"
# Held while a capsule's name is read and changed to its used form.
_claim_lock = threading.Lock()


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", DELETER)]


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("version", DLPackVersion),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", DELETER),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    ]


_api = ctypes.pythonapi
_CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_capsule_new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, _CAPSULE_DESTRUCTOR)(
    ("PyCapsule_New", _api))
_capsule_get_name = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.py_object)(("PyCapsule_GetName", _api))
_capsule_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", _api))
_capsule_set_name = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_char_p)(("PyCapsule_SetName", _api))
# Inside the destructor the capsule is being freed: only raw pointers there.
_raw_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_IsValid", _api))
_raw_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", _api))


# A consumer that fails may drop the capsule while its exception is still
# set; the destructor must keep that exception (as a C destructor would with
# PyErr_Fetch/PyErr_Restore) and run nothing that could see it before the
# fetch. So the fetch takes prebuilt arguments and no argtypes.
_err_fetch = ctypes.pythonapi.PyErr_Fetch
_err_fetch.restype = None
_err_restore = ctypes.PYFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(("PyErr_Restore", _api))
_pending = (ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p())
_pending_refs = tuple(ctypes.byref(p) for p in _pending)


@_CAPSULE_DESTRUCTOR
def _destroy_unused_capsule(capsule):
    _err_fetch(*_pending_refs)
    saved = tuple(p.value for p in _pending)
    try:
        # A capsule nobody consumed still owns its tensor: give it back.
        for name, struct in ((CLASSIC, DLManagedTensor), (VERSIONED, DLManagedTensorVersioned)):
            if _raw_is_valid(capsule, name):
                ptr = _raw_get_pointer(capsule, name)
                managed = ctypes.cast(ptr, ctypes.POINTER(struct)).contents
                if managed.deleter:
                    managed.deleter(ptr)
                break
    finally:
        _err_restore(*saved)


def is_capsule(obj):
    return type(obj).__name__ == "PyCapsule"


def export_capsule(handle, versioned, copied=False):
    """A new DLPack capsule over the tensor `handle` (a st_tensor); `copied` sets the versioned IS_COPIED flag."""
    out = ctypes.c_void_p()
    lib.call("st_to_dlpack_versioned" if versioned else "st_to_dlpack", handle, ctypes.byref(out))
    if versioned and copied:
        ctypes.cast(out.value, ctypes.POINTER(DLManagedTensorVersioned)).contents.flags |= IS_COPIED
    try:
        return _capsule_new(out.value, VERSIONED if versioned else CLASSIC, _destroy_unused_capsule)
    except BaseException:
        struct = DLManagedTensorVersioned if versioned else DLManagedTensor
        ctypes.cast(out.value, ctypes.POINTER(struct)).contents.deleter(out.value)
        raise


def import_capsule(capsule):
    """A new st_tensor over an unused DLPack capsule, which the library then owns.

    The capsule is claimed (renamed "used_...") before the library is
    called, under a lock: ctypes releases the GIL for the call, and two
    threads must not both take the tensor and its deleter. On failure the
    capsule gets its name back and keeps its tensor (and frees it when
    collected).
    """
    with _claim_lock:
        name = _capsule_get_name(capsule)
        if name == VERSIONED:
            fn, used = lib.st_from_dlpack_versioned, USED_VERSIONED
        elif name == CLASSIC:
            fn, used = lib.st_from_dlpack, USED_CLASSIC
        else:
            raise BufferError(f"the capsule is named {name!r}, not 'dltensor' or 'dltensor_versioned': "
                              f"a DLPack capsule is taken once, and this one was taken already")
        ptr = _capsule_get_pointer(capsule, name)
        _capsule_set_name(capsule, used)
    out = st_tensor()
    status = fn(ptr, ctypes.byref(out))
    if status != OK:
        _capsule_set_name(capsule, name)
        lib.check(status)
    return out


def is_read_only(handle):
    """Whether the tensor's storage is read-only, as its versioned export says."""
    out = ctypes.c_void_p()
    lib.call("st_to_dlpack_versioned", handle, ctypes.byref(out))
    managed = ctypes.cast(out.value, ctypes.POINTER(DLManagedTensorVersioned)).contents
    flags = managed.flags
    managed.deleter(out.value)
    return bool(flags & READ_ONLY)
