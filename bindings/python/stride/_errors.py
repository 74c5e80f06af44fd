"""Library statuses as Python exceptions.

Every failing call raises a subclass of StrideError carrying the status
code, its name and the library's message (which names the function, the
argument and the values). Each subclass also derives from the built-in
exception a Python programmer would catch for that kind of error.
"""

OK = 0
INVALID_ARGUMENT = 1
INVALID_HANDLE = 2
OUT_OF_MEMORY = 3
SHAPE_MISMATCH = 4
UNSUPPORTED_DTYPE = 5
DEVICE_UNAVAILABLE = 6
OVERLAP = 7
OUT_OF_BOUNDS = 8
NOT_IMPLEMENTED = 9
DEVICE_FAILURE = 10
INTERNAL = 11
READ_ONLY = 12


class StrideError(Exception):
    """A call into libstride failed.

    Attributes: ``status`` (the st_status number), ``status_name``
    (e.g. "ST_ERROR_OVERLAP") and ``message`` (the library's text).
    """

    def __init__(self, status, status_name, message):
        super().__init__(f"{status_name}: {message}")
        self.status = status
        self.status_name = status_name
        self.message = message


class InvalidArgumentError(StrideError, ValueError):
    pass


class InvalidHandleError(StrideError, ValueError):
    pass


class OutOfMemoryError(StrideError, MemoryError):
    pass


class ShapeMismatchError(StrideError, ValueError):
    pass


class UnsupportedDtypeError(StrideError, TypeError):
    pass


class DeviceUnavailableError(StrideError, RuntimeError):
    pass


class OverlapError(StrideError, ValueError):
    pass


class OutOfBoundsError(StrideError, IndexError):
    pass


class NotImplementedByBackendError(StrideError, NotImplementedError):
    pass


class DeviceFailureError(StrideError, RuntimeError):
    pass


class InternalError(StrideError, RuntimeError):
    pass


class ReadOnlyError(StrideError, PermissionError):
    pass


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
