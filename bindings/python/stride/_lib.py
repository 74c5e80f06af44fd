"""Loading libstride and declaring its C functions for ctypes.

The library is, in this order: the file $STRIDE_LIBRARY names (an
override); the copy bundled into this package when it was installed
(pip bundles one, see build_backend/stride_build.py); else libstride.so.0 from the system's
loader path (LD_LIBRARY_PATH, the ldconfig cache, /usr/lib, ...).
SIGNATURES and the C types come from _capi.py, which tools/gen_bindings.py
writes from include/stride.h.
"""

import ctypes
import os

from . import _errors
from ._capi import SIGNATURES, SONAME, ST_DEVICE_CPU, st_device


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

CPU_DEVICE = st_device(ST_DEVICE_CPU, 0)
