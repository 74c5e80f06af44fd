//! Library statuses as a Rust error type.

use std::ffi::CStr;
use std::fmt;

use stride_sys as sys;

/// What went wrong, one variant per `st_status` (the numbers are the C ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    InvalidArgument,
    InvalidHandle,
    OutOfMemory,
    ShapeMismatch,
    UnsupportedDtype,
    DeviceUnavailable,
    Overlap,
    OutOfBounds,
    NotImplemented,
    DeviceFailure,
    Internal,
    ReadOnly,
    /// A status this crate does not know (from a newer library).
    Other(i32),
}

impl Status {
    pub fn from_code(code: i32) -> Status {
        match code {
            sys::ST_ERROR_INVALID_ARGUMENT => Status::InvalidArgument,
            sys::ST_ERROR_INVALID_HANDLE => Status::InvalidHandle,
            sys::ST_ERROR_OUT_OF_MEMORY => Status::OutOfMemory,
            sys::ST_ERROR_SHAPE_MISMATCH => Status::ShapeMismatch,
            sys::ST_ERROR_UNSUPPORTED_DTYPE => Status::UnsupportedDtype,
            sys::ST_ERROR_DEVICE_UNAVAILABLE => Status::DeviceUnavailable,
            sys::ST_ERROR_OVERLAP => Status::Overlap,
            sys::ST_ERROR_OUT_OF_BOUNDS => Status::OutOfBounds,
            sys::ST_ERROR_NOT_IMPLEMENTED => Status::NotImplemented,
            sys::ST_ERROR_DEVICE_FAILURE => Status::DeviceFailure,
            sys::ST_ERROR_INTERNAL => Status::Internal,
            sys::ST_ERROR_READ_ONLY => Status::ReadOnly,
            other => Status::Other(other),
        }
    }

    /// The `st_status` number.
    pub fn code(self) -> i32 {
        match self {
            Status::InvalidArgument => sys::ST_ERROR_INVALID_ARGUMENT,
            Status::InvalidHandle => sys::ST_ERROR_INVALID_HANDLE,
            Status::OutOfMemory => sys::ST_ERROR_OUT_OF_MEMORY,
            Status::ShapeMismatch => sys::ST_ERROR_SHAPE_MISMATCH,
            Status::UnsupportedDtype => sys::ST_ERROR_UNSUPPORTED_DTYPE,
            Status::DeviceUnavailable => sys::ST_ERROR_DEVICE_UNAVAILABLE,
            Status::Overlap => sys::ST_ERROR_OVERLAP,
            Status::OutOfBounds => sys::ST_ERROR_OUT_OF_BOUNDS,
            Status::NotImplemented => sys::ST_ERROR_NOT_IMPLEMENTED,
            Status::DeviceFailure => sys::ST_ERROR_DEVICE_FAILURE,
            Status::Internal => sys::ST_ERROR_INTERNAL,
            Status::ReadOnly => sys::ST_ERROR_READ_ONLY,
            Status::Other(c) => c,
        }
    }

    /// The library's name for it, e.g. "ST_ERROR_OVERLAP".
    pub fn name(self) -> String {
        unsafe { cstr(sys::st_status_name(self.code())) }
    }
}

/// A failed call: the status and the library's message, which names the
/// function, the argument and the values involved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub status: Status,
    pub message: String,
}

impl Error {
    /// The `st_status` number.
    pub fn code(&self) -> i32 {
        self.status.code()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.status.name(), self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

pub(crate) unsafe fn cstr(p: *const std::os::raw::c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

/// Turns a status into a Result, reading this thread's message on failure.
pub(crate) fn check(status: sys::st_status) -> Result<()> {
    if status == sys::ST_OK {
        Ok(())
    } else {
        Err(Error { status: Status::from_code(status), message: unsafe { cstr(sys::st_last_error_message()) } })
    }
}
