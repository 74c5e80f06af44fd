//! Safe Rust interface to libstride: strided tensors, views, copies between
//! any layouts and dtypes, block-scaled formats (MXFP8, MXFP6, MXFP4, MXINT8,
//! NVFP4) and DLPack exchange.
//!
//! ```no_run
//! use stride::{DType, Device, MemoryFormat, Tensor};
//! let t = Tensor::from_vec((0..12).map(|x| x as f32).collect(), &[3, 4])?;
//! let v = t.transpose(0, 1)?.flip(0)?;          // views share memory
//! assert_eq!(v.strides(), vec![-1, 4]);
//! let c = v.contiguous(MemoryFormat::Contiguous)?; // a copy, row-major
//! # Ok::<(), stride::Error>(())
//! ```
//!
//! Every fallible call returns `Result<T, stride::Error>`; the error holds
//! the status and a message that starts with the method called
//! (`Tensor::select: ...`). The library is linked through `stride-sys`
//! (set `STRIDE_LIB_DIR` to the folder holding libstride.so).
//!
//! # Views and threads
//!
//! Views share memory with their source, as PyTorch's do (and unlike
//! ndarray's borrowed views, they own a reference and may outlive it): a
//! write through one is seen through all. A [`Tensor`] is `Send` and
//! `Sync`; every call that reads or writes elements takes its storage's
//! lock first, so clones and views used from several threads take turns
//! and safe code cannot race (see [`Tensor`]'s Threads). Implementing
//! [`CpuAllocator`] is `unsafe`: the library trusts the blocks it returns.

mod blocks;
mod enums;
mod error;
mod plan;
mod runtime;
mod storage_lock;
mod tensor;
mod types;

pub use blocks::{
    dequantize_blocks, dequantize_blocks_into, quantize_blocks, quantize_blocks_into, BlockFormat, BlockSpec, ScaleRule,
};
pub use error::{Error, Result, Status};
pub use plan::{live_plan_count, CopyPlan};
pub use runtime::{
    cuda_device_count, cuda_empty_cache, cuda_set_stream, cuda_synchronize, num_threads, reset_cpu_allocator,
    set_cpu_allocator, set_num_threads, set_parallel_for, set_trace_callback, version, version_string, CpuAllocator,
    ParallelFor, TraceFn,
};
pub use stride_sys as sys;
pub use tensor::{ScaleShift, Tensor};
pub use types::{
    DType, Device, DeviceType, Element, Float4E2M1FnX2, Float6E2M3Fn, Float6E3M2Fn, Float8E4M3Fn, Float8E5M2, Float8E8M0Fnu,
    MemoryFormat,
};
