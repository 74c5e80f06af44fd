"""Library statuses as Python exceptions, in the words of the method the user called.

Every failing call raises a subclass of StrideError carrying the status
code, its name and the library's message (which names the C function, the
argument and the values). Each subclass also derives from the built-in
exception a Python programmer would catch for that kind of error.

The text of the exception starts with the binding's method the user called
(``Tensor.view: ...``), set by `entry` on every public function and method:
a method that calls another reports as itself, not as the one inside it.
"""

import functools

from ._capi import (ENUMS, ST_ERROR_DEVICE_FAILURE as DEVICE_FAILURE, ST_ERROR_DEVICE_UNAVAILABLE as DEVICE_UNAVAILABLE,
                    ST_ERROR_INTERNAL as INTERNAL, ST_ERROR_INVALID_ARGUMENT as INVALID_ARGUMENT,
                    ST_ERROR_INVALID_HANDLE as INVALID_HANDLE, ST_ERROR_NOT_IMPLEMENTED as NOT_IMPLEMENTED,
                    ST_ERROR_OUT_OF_BOUNDS as OUT_OF_BOUNDS, ST_ERROR_OUT_OF_MEMORY as OUT_OF_MEMORY,
                    ST_ERROR_OVERLAP as OVERLAP, ST_ERROR_READ_ONLY as READ_ONLY,
                    ST_ERROR_SHAPE_MISMATCH as SHAPE_MISMATCH, ST_ERROR_UNSUPPORTED_DTYPE as UNSUPPORTED_DTYPE,
                    ST_OK as OK)

# st_status_name's answers, for the errors the binding finds before calling the library.
_STATUS_NAMES = {value: ("ST_" if short == "OK" else "ST_ERROR_") + short for short, value in ENUMS["st_status"].items()}


class StrideError(Exception):
    """A call into libstride failed.

    Attributes: ``status`` (the st_status number), ``status_name``
    (e.g. "ST_ERROR_OVERLAP"), ``message`` (the library's text, or the
    binding's where the binding found the error before calling it) and
    ``where`` (the method the user called, such as "Tensor.view"; None
    outside the package's public functions). ``str()`` is
    "where: message".
    """

    def __init__(self, status, status_name, message, where=None):
        super().__init__(message)
        self.status = status
        self.status_name = status_name
        self.message = message
        self.where = where

    def __str__(self):
        return f"{self.where}: {self.message}" if self.where else self.message

    def __reduce__(self):
        # Exception's own pickling would call __init__ with the text alone.
        return type(self), (self.status, self.status_name, self.message, self.where)


class InvalidArgumentError(StrideError, ValueError):
    """ST_ERROR_INVALID_ARGUMENT: an argument the call does not accept (also a ValueError)."""


class InvalidHandleError(StrideError, ValueError):
    """ST_ERROR_INVALID_HANDLE: a tensor or plan already released (also a ValueError)."""


class OutOfMemoryError(StrideError, MemoryError):
    """ST_ERROR_OUT_OF_MEMORY: no memory for the elements or the handle (also a MemoryError)."""


class ShapeMismatchError(StrideError, ValueError):
    """ST_ERROR_SHAPE_MISMATCH: shapes that do not broadcast or element counts that differ (also a ValueError)."""


class UnsupportedDtypeError(StrideError, TypeError):
    """ST_ERROR_UNSUPPORTED_DTYPE: a dtype the call cannot take (also a TypeError)."""


class DeviceUnavailableError(StrideError, RuntimeError):
    """ST_ERROR_DEVICE_UNAVAILABLE: a device this process has not got (also a RuntimeError)."""


class OverlapError(StrideError, ValueError):
    """ST_ERROR_OVERLAP: a destination whose elements overlap each other (also a ValueError)."""


class OutOfBoundsError(StrideError, IndexError):
    """ST_ERROR_OUT_OF_BOUNDS: an index, dim or view outside the tensor (also an IndexError)."""


class NotImplementedByBackendError(StrideError, NotImplementedError):
    """ST_ERROR_NOT_IMPLEMENTED: an operation the device's backend lacks (also a NotImplementedError)."""


class DeviceFailureError(StrideError, RuntimeError):
    """ST_ERROR_DEVICE_FAILURE: the CUDA runtime reported an error (also a RuntimeError)."""


class InternalError(StrideError, RuntimeError):
    """ST_ERROR_INTERNAL: a broken invariant of the library (also a RuntimeError)."""


class ReadOnlyError(StrideError, PermissionError):
    """ST_ERROR_READ_ONLY: a write into a read-only tensor (also a PermissionError)."""


_BY_STATUS = {
    INVALID_ARGUMENT: InvalidArgumentError,
    INVALID_HANDLE: InvalidHandleError,
    OUT_OF_MEMORY: OutOfMemoryError,
    SHAPE_MISMATCH: ShapeMismatchError,
    UNSUPPORTED_DTYPE: UnsupportedDtypeError,
    DEVICE_UNAVAILABLE: DeviceUnavailableError,
    OVERLAP: OverlapError,
    OUT_OF_BOUNDS: OutOfBoundsError,
    NOT_IMPLEMENTED: NotImplementedByBackendError,
    DEVICE_FAILURE: DeviceFailureError,
    INTERNAL: InternalError,
    READ_ONLY: ReadOnlyError,
}


def error_for(status, status_name, message):
    """The exception object for a failing status."""
    return _BY_STATUS.get(status, StrideError)(status, status_name, message)


def found(status, message):
    """The exception for an error the binding finds itself, with the status the library would give it."""
    return error_for(status, _STATUS_NAMES[status], message)


def released(what):
    """InvalidHandleError for a tensor or plan used after its release()."""
    return found(INVALID_HANDLE, f"{what} was released (by release() or the end of its with block)")


def entry(name_or_fn):
    """Decorates a public function or method so that its errors say where they happened.

    ``@entry`` names it by its qualified name, "Tensor.view" for a method
    and "stride.empty" for a function; ``@entry("len(Tensor)")`` gives the
    name where the user writes something else. The outermost decorated
    call names the error: errors pass up through every decorated frame, and
    the last to see one is the call the user made.
    """
    if callable(name_or_fn):
        fn = name_or_fn
        qualname = fn.__qualname__
        return entry(qualname if "." in qualname else "stride." + qualname)(fn)
    name = name_or_fn

    def decorate(fn):
        @functools.wraps(fn)
        def reporting(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except StrideError as e:
                e.where = name
                raise

        reporting.entry_name = name
        return reporting

    return decorate
