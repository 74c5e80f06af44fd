//! Raw declarations of libstride's C API, written by hand from
//! `include/stride.h`. Everything here is `unsafe` and mirrors the header
//! one to one; the `stride` crate is the safe interface. `cargo test`
//! checks every declaration against the header (see build.rs): a function,
//! enum value or constant added there and missing here fails to compile.
//!
//! Enums are passed as `i32` (the header guarantees their size), so an
//! unknown value coming back from the library is never undefined behaviour.
//!
//! The library is found through pkg-config (stride.pc of an installed
//! stride), or in `$STRIDE_LIB_DIR` when that is set.
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_double, c_void};

pub mod dlpack;

pub type st_status = i32;
pub const ST_OK: st_status = 0;
pub const ST_ERROR_INVALID_ARGUMENT: st_status = 1;
pub const ST_ERROR_INVALID_HANDLE: st_status = 2;
pub const ST_ERROR_OUT_OF_MEMORY: st_status = 3;
pub const ST_ERROR_SHAPE_MISMATCH: st_status = 4;
pub const ST_ERROR_UNSUPPORTED_DTYPE: st_status = 5;
pub const ST_ERROR_DEVICE_UNAVAILABLE: st_status = 6;
pub const ST_ERROR_OVERLAP: st_status = 7;
pub const ST_ERROR_OUT_OF_BOUNDS: st_status = 8;
pub const ST_ERROR_NOT_IMPLEMENTED: st_status = 9;
pub const ST_ERROR_DEVICE_FAILURE: st_status = 10;
pub const ST_ERROR_INTERNAL: st_status = 11;
pub const ST_ERROR_READ_ONLY: st_status = 12;

pub type st_dtype = i32;
pub const ST_BOOL: st_dtype = 0;
pub const ST_UINT8: st_dtype = 1;
pub const ST_INT8: st_dtype = 2;
pub const ST_INT16: st_dtype = 3;
pub const ST_INT32: st_dtype = 4;
pub const ST_INT64: st_dtype = 5;
pub const ST_FLOAT16: st_dtype = 6;
pub const ST_BFLOAT16: st_dtype = 7;
pub const ST_FLOAT32: st_dtype = 8;
pub const ST_FLOAT64: st_dtype = 9;
pub const ST_COMPLEX64: st_dtype = 10;
pub const ST_COMPLEX128: st_dtype = 11;
pub const ST_UINT16: st_dtype = 12;
pub const ST_UINT32: st_dtype = 13;
pub const ST_UINT64: st_dtype = 14;
/// 1 byte: sign, 4 exponent bits (bias 7), 3 mantissa bits; no infinity, S.1111.111 is NaN; max 448.
pub const ST_FLOAT8_E4M3FN: st_dtype = 15;
/// 1 byte: sign, 5 exponent bits (bias 15), 2 mantissa bits; IEEE-like with inf and NaN; max 57344.
pub const ST_FLOAT8_E5M2: st_dtype = 16;

pub type st_device_type = i32;
pub const ST_DEVICE_CPU: st_device_type = 1;
pub const ST_DEVICE_CUDA: st_device_type = 2;
pub const ST_DEVICE_CUDA_HOST: st_device_type = 3;

pub type st_memory_format = i32;
pub const ST_MEMORY_FORMAT_CONTIGUOUS: st_memory_format = 0;
pub const ST_MEMORY_FORMAT_CHANNELS_LAST: st_memory_format = 1;
pub const ST_MEMORY_FORMAT_CHANNELS_LAST_3D: st_memory_format = 2;
pub const ST_MEMORY_FORMAT_PRESERVE: st_memory_format = 3;

pub type st_plan_flags = i32;
pub const ST_PLAN_ESTIMATE: st_plan_flags = 0;
pub const ST_PLAN_MEASURE: st_plan_flags = 1;

pub const ST_VERSION_MAJOR: u32 = 0;
pub const ST_VERSION_MINOR: u32 = 1;
pub const ST_VERSION_PATCH: u32 = 0;
pub const ST_MAX_DIMS: usize = 25;
pub const ST_MAX_THREADS: i32 = 1024;
pub const ST_API_VERSION: u32 = 2;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct st_tensor {
    pub id: u64,
}

/// A copy plan's handle; `{0}` is the null plan.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct st_copy_plan {
    pub id: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct st_device {
    pub type_: i32,
    pub index: i32,
}

pub type st_deleter = Option<unsafe extern "C" fn(data: *mut c_void, ctx: *mut c_void)>;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct st_allocator {
    pub alloc: Option<unsafe extern "C" fn(ctx: *mut c_void, nbytes: usize, alignment: usize) -> *mut c_void>,
    pub free: Option<unsafe extern "C" fn(ctx: *mut c_void, ptr: *mut c_void, nbytes: usize)>,
    pub ctx: *mut c_void,
}

/// The scale and shift of the scaled copies: `dst = R(fma(x, scale[c], shift[c]))`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct st_scale_shift {
    /// `n` values; null: every scale is 1.
    pub scale: *const c_double,
    /// `n` values; null: every shift is 0.
    pub shift: *const c_double,
    /// 1: one scale and shift for every element; otherwise dst's size along `dim`.
    pub n: i64,
    /// The channel dim of dst (negative counts from the end); ignored when `n` is 1.
    pub dim: i32,
    /// 0 or 1: whether a floating dst clamps overflow to its largest finite value.
    pub saturate: i32,
}

pub type st_parallel_task = Option<unsafe extern "C" fn(task_ctx: *mut c_void, begin: i64, end: i64)>;
pub type st_parallel_for_fn = Option<
    unsafe extern "C" fn(ctx: *mut c_void, n: i64, grain: i64, task: st_parallel_task, task_ctx: *mut c_void),
>;
/// The table of function pointers of `st_get_api`; opaque here, since Rust
/// programs link the functions themselves.
#[repr(C)]
pub struct st_api {
    _opaque: [u8; 0],
}

pub type st_trace_fn = Option<unsafe extern "C" fn(ctx: *mut c_void, op_name: *const c_char, duration_ns: i64)>;

extern "C" {
    pub fn st_version() -> u32;
    pub fn st_version_string() -> *const c_char;
    pub fn st_status_name(s: st_status) -> *const c_char;
    pub fn st_last_error_message() -> *const c_char;

    pub fn st_dtype_itemsize(d: st_dtype) -> usize;
    pub fn st_dtype_name(d: st_dtype) -> *const c_char;

    pub fn st_tensor_create(sizes: *const i64, ndim: i32, dtype: st_dtype, device: st_device,
                            out: *mut st_tensor) -> st_status;
    pub fn st_tensor_create_strided(sizes: *const i64, strides: *const i64, ndim: i32, dtype: st_dtype,
                                    device: st_device, out: *mut st_tensor) -> st_status;
    pub fn st_tensor_create_like(src: st_tensor, fmt: st_memory_format, out: *mut st_tensor) -> st_status;
    pub fn st_tensor_from_data(data: *mut c_void, sizes: *const i64, strides: *const i64, ndim: i32,
                               dtype: st_dtype, device: st_device, deleter: st_deleter, deleter_ctx: *mut c_void,
                               out: *mut st_tensor) -> st_status;
    pub fn st_tensor_retain(t: st_tensor) -> st_status;
    pub fn st_tensor_release(t: st_tensor) -> st_status;

    pub fn st_tensor_ndim(t: st_tensor, out: *mut i32) -> st_status;
    pub fn st_tensor_sizes(t: st_tensor, out: *mut i64, capacity: i32) -> st_status;
    pub fn st_tensor_strides(t: st_tensor, out: *mut i64, capacity: i32) -> st_status;
    pub fn st_tensor_dtype(t: st_tensor, out: *mut st_dtype) -> st_status;
    pub fn st_tensor_device(t: st_tensor, out: *mut st_device) -> st_status;
    pub fn st_tensor_numel(t: st_tensor, out: *mut i64) -> st_status;
    pub fn st_tensor_storage_offset(t: st_tensor, out: *mut i64) -> st_status;
    pub fn st_tensor_data_ptr(t: st_tensor, out: *mut *mut c_void) -> st_status;
    pub fn st_tensor_is_contiguous(t: st_tensor, fmt: st_memory_format, out: *mut i32) -> st_status;

    pub fn st_as_strided(src: st_tensor, sizes: *const i64, strides: *const i64, ndim: i32, storage_offset: i64,
                         out: *mut st_tensor) -> st_status;
    pub fn st_permute(src: st_tensor, dims: *const i32, ndim: i32, out: *mut st_tensor) -> st_status;
    pub fn st_transpose(src: st_tensor, dim0: i32, dim1: i32, out: *mut st_tensor) -> st_status;
    pub fn st_slice(src: st_tensor, dim: i32, start: i64, stop: i64, step: i64, out: *mut st_tensor) -> st_status;
    pub fn st_select(src: st_tensor, dim: i32, index: i64, out: *mut st_tensor) -> st_status;
    pub fn st_expand(src: st_tensor, sizes: *const i64, ndim: i32, out: *mut st_tensor) -> st_status;
    pub fn st_unsqueeze(src: st_tensor, dim: i32, out: *mut st_tensor) -> st_status;
    pub fn st_squeeze(src: st_tensor, dim: i32, out: *mut st_tensor) -> st_status;
    pub fn st_flip(src: st_tensor, dim: i32, out: *mut st_tensor) -> st_status;
    pub fn st_view(src: st_tensor, sizes: *const i64, ndim: i32, out: *mut st_tensor) -> st_status;
    pub fn st_reshape(src: st_tensor, sizes: *const i64, ndim: i32, out: *mut st_tensor) -> st_status;

    pub fn st_contiguous(src: st_tensor, fmt: st_memory_format, out: *mut st_tensor) -> st_status;
    pub fn st_clone(src: st_tensor, fmt: st_memory_format, out: *mut st_tensor) -> st_status;
    pub fn st_copy(dst: st_tensor, src: st_tensor, non_blocking: i32) -> st_status;
    pub fn st_copy_scaled(dst: st_tensor, src: st_tensor, ss: *const st_scale_shift, non_blocking: i32) -> st_status;
    pub fn st_to(src: st_tensor, dtype: st_dtype, device: st_device, fmt: st_memory_format,
                 out: *mut st_tensor) -> st_status;
    pub fn st_fill(dst: st_tensor, value: c_double) -> st_status;
    pub fn st_zero(dst: st_tensor) -> st_status;

    pub fn st_set_num_threads(n: i32) -> st_status;
    pub fn st_get_num_threads() -> i32;
    pub fn st_set_cpu_allocator(allocator: *const st_allocator) -> st_status;
    pub fn st_set_parallel_for(f: st_parallel_for_fn, ctx: *mut c_void) -> st_status;
    pub fn st_set_trace_callback(f: st_trace_fn, ctx: *mut c_void) -> st_status;

    pub fn st_cuda_device_count(out: *mut i32) -> st_status;
    pub fn st_cuda_set_stream(device: i32, stream: *mut c_void) -> st_status;
    pub fn st_cuda_synchronize(device: i32) -> st_status;
    pub fn st_cuda_empty_cache(device: i32) -> st_status;
    pub fn st_live_tensor_count(out: *mut i64) -> st_status;
    pub fn st_live_plan_count(out: *mut i64) -> st_status;

    pub fn st_copy_plan_create(dst: st_tensor, src: st_tensor, ss: *const st_scale_shift, flags: i32,
                               out: *mut st_copy_plan) -> st_status;
    pub fn st_copy_plan_execute(plan: st_copy_plan, dst: st_tensor, src: st_tensor, non_blocking: i32) -> st_status;
    pub fn st_copy_plan_execute_raw(plan: st_copy_plan, dst_data: *mut c_void, src_data: *const c_void,
                                    non_blocking: i32) -> st_status;
    pub fn st_copy_plan_release(plan: st_copy_plan) -> st_status;

    pub fn st_to_dlpack(t: st_tensor, out: *mut *mut dlpack::DLManagedTensor) -> st_status;
    pub fn st_from_dlpack(input: *mut dlpack::DLManagedTensor, out: *mut st_tensor) -> st_status;
    pub fn st_to_dlpack_versioned(t: st_tensor, out: *mut *mut dlpack::DLManagedTensorVersioned) -> st_status;
    pub fn st_from_dlpack_versioned(input: *mut dlpack::DLManagedTensorVersioned, out: *mut st_tensor)
        -> st_status;

    pub fn st_get_api(version: u32) -> *const st_api;
}

#[cfg(test)]
#[allow(dead_code, unused_imports, clippy::all)]
mod header_check {
    include!(concat!(env!("OUT_DIR"), "/header_check.rs"));
}
