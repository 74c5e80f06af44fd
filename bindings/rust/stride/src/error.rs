//! Library statuses as a Rust error type.

use std::ffi::CStr;
use std::fmt;

use stride_sys as sys;

// Status and its from_code and code are generated from include/stride.h (enums.rs).
pub use crate::enums::Status;

impl Status {
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
