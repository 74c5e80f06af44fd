//! Raw declarations of libstride's C API: `src/capi.rs`, which
//! `tools/gen_bindings.py` writes from `include/stride.h` (a ctest fails when
//! it differs from a fresh generation). Everything here is `unsafe` and
//! mirrors the header one to one; the `stride` crate is the safe interface.
//!
//! Enums are passed as `i32` (the header guarantees their size), so an
//! unknown value coming back from the library is never undefined behaviour.
//!
//! The library is found through pkg-config (stride.pc of an installed
//! stride), or in `$STRIDE_LIB_DIR` when that is set.
#![allow(non_camel_case_types)]

pub mod dlpack;

mod capi;
pub use capi::*;
