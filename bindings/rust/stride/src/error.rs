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

/// A failed call: the status, and a message that starts with the binding's
/// function the caller called (`Tensor::select: `) and goes on with what the
/// library or the binding found, naming the argument and the values involved.
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

/// Turns a status into a Result: on failure the error names `method`, the
/// binding's function the user called, and keeps the library's message after
/// it, less its own prefix (`st_select: `), which names the C function.
pub(crate) fn check(method: &str, status: sys::st_status) -> Result<()> {
    if status == sys::ST_OK {
        return Ok(());
    }
    let message = unsafe { cstr(sys::st_last_error_message()) };
    Err(error(Status::from_code(status), method, without_c_name(&message)))
}

/// An error the binding finds itself, or the library's message under `method`.
pub(crate) fn error(status: Status, method: &str, message: &str) -> Error {
    Error { status, message: format!("{}: {}", method, message) }
}

/// `message` less a leading `st_name: `.
fn without_c_name(message: &str) -> &str {
    match message.split_once(": ") {
        Some((name, rest))
            if name.starts_with("st_") && name.bytes().all(|b| b == b'_' || b.is_ascii_alphanumeric()) =>
        {
            rest
        }
        _ => message,
    }
}

#[cfg(test)]
mod tests {
    use super::without_c_name;

    #[test]
    fn the_c_name_goes_and_the_rest_stays() {
        assert_eq!(without_c_name("st_select: index = 5 is out of range"), "index = 5 is out of range");
        assert_eq!(without_c_name("dst: st_copy: x"), "dst: st_copy: x");
        assert_eq!(without_c_name("no prefix here"), "no prefix here");
        assert_eq!(without_c_name("st_bad name: x"), "st_bad name: x");
    }
}
