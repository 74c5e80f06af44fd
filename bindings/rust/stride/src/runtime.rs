//! Process-wide settings: threads, the CPU allocator, parallelism, tracing, CUDA.

use std::ffi::CStr;
use std::os::raw::{c_char, c_void};

use stride_sys as sys;

use crate::error::{check, cstr, Result};

/// The loaded library's version as (major, minor, patch).
pub fn version() -> (u32, u32, u32) {
    let v = unsafe { sys::st_version() };
    (v / 10000, v / 100 % 100, v % 100)
}

pub fn version_string() -> String {
    unsafe { cstr(sys::st_version_string()) }
}

pub fn set_num_threads(n: i32) -> Result<()> {
    check(unsafe { sys::st_set_num_threads(n) })
}

pub fn num_threads() -> i32 {
    unsafe { sys::st_get_num_threads() }
}

// Unwinding into C is undefined: a panicking callback ends the process.
fn no_unwind<R>(f: impl FnOnce() -> R) -> R {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => std::process::abort(),
    }
}

/// A CPU memory provider for the library (an engine's heap, a tracking allocator).
pub trait CpuAllocator: Send + Sync {
    /// `nbytes` aligned to `alignment` (a power of two), or null on failure.
    fn alloc(&self, nbytes: usize, alignment: usize) -> *mut u8;
    /// Gives back what `alloc` returned, with the byte count it was asked for.
    fn free(&self, ptr: *mut u8, nbytes: usize);
}

type BoxedAllocator = Box<dyn CpuAllocator>;

unsafe extern "C" fn alloc_trampoline(ctx: *mut c_void, nbytes: usize, alignment: usize) -> *mut c_void {
    let a = &*(ctx as *const BoxedAllocator);
    no_unwind(|| a.alloc(nbytes, alignment) as *mut c_void)
}

unsafe extern "C" fn free_trampoline(ctx: *mut c_void, ptr: *mut c_void, nbytes: usize) {
    let a = &*(ctx as *const BoxedAllocator);
    no_unwind(|| a.free(ptr as *mut u8, nbytes))
}

/// Routes later CPU allocations to `allocator`.
///
/// A storage is freed by the allocator it came from, however long after, so
/// the allocator is kept for the rest of the process.
pub fn set_cpu_allocator(allocator: Box<dyn CpuAllocator>) -> Result<()> {
    let ctx: &'static mut BoxedAllocator = Box::leak(Box::new(allocator));
    let raw = sys::st_allocator {
        alloc: Some(alloc_trampoline),
        free: Some(free_trampoline),
        ctx: ctx as *mut BoxedAllocator as *mut c_void,
    };
    check(unsafe { sys::st_set_cpu_allocator(&raw) })
}

/// Restores the library's own CPU allocator.
pub fn reset_cpu_allocator() -> Result<()> {
    check(unsafe { sys::st_set_cpu_allocator(std::ptr::null()) })
}

/// A host job system: `(n, grain, run)` must call `run(begin, end)` over
/// disjoint chunks covering [0, n), each at least `grain` long except the
/// last, on any threads, and return when all are done.
pub type ParallelFor = Box<dyn Fn(i64, i64, &(dyn Fn(i64, i64) + Sync)) + Send + Sync>;

unsafe extern "C" fn parallel_for_trampoline(ctx: *mut c_void, n: i64, grain: i64, task: sys::st_parallel_task,
                                             task_ctx: *mut c_void) {
    let f = &*(ctx as *const ParallelFor);
    let task = task.expect("the library passes a task");
    let task_ctx = task_ctx as usize; // shared with the job system's threads
    no_unwind(|| f(n, grain, &move |begin, end| task(task_ctx as *mut c_void, begin, end)))
}

/// Runs the library's CPU parallelism through `f`; None restores the built-in pool.
pub fn set_parallel_for(f: Option<ParallelFor>) -> Result<()> {
    match f {
        None => check(unsafe { sys::st_set_parallel_for(None, std::ptr::null_mut()) }),
        Some(f) => {
            let ctx: &'static mut ParallelFor = Box::leak(Box::new(f));
            check(unsafe { sys::st_set_parallel_for(Some(parallel_for_trampoline), ctx as *mut ParallelFor as *mut c_void) })
        }
    }
}

/// Called after every operator with its name and duration in nanoseconds.
pub type TraceFn = Box<dyn Fn(&str, i64) + Send + Sync>;

unsafe extern "C" fn trace_trampoline(ctx: *mut c_void, name: *const c_char, ns: i64) {
    let f = &*(ctx as *const TraceFn);
    let name = CStr::from_ptr(name).to_string_lossy();
    no_unwind(|| f(&name, ns))
}

/// Calls `f` after every operator call; None turns tracing off.
pub fn set_trace_callback(f: Option<TraceFn>) -> Result<()> {
    match f {
        None => check(unsafe { sys::st_set_trace_callback(None, std::ptr::null_mut()) }),
        Some(f) => {
            // Kept for the process: another thread may be inside the old callback.
            let ctx: &'static mut TraceFn = Box::leak(Box::new(f));
            check(unsafe { sys::st_set_trace_callback(Some(trace_trampoline), ctx as *mut TraceFn as *mut c_void) })
        }
    }
}

/// 0 when CUDA is not built in, or there is no driver or GPU.
pub fn cuda_device_count() -> Result<i32> {
    let mut n = 0;
    check(unsafe { sys::st_cuda_device_count(&mut n) })?;
    Ok(n)
}

/// Uses the caller's `cudaStream_t` on `device` for this thread (null: the default stream).
///
/// # Safety
/// `stream` must be a live CUDA stream of that device, or null.
pub unsafe fn cuda_set_stream(device: i32, stream: *mut c_void) -> Result<()> {
    check(sys::st_cuda_set_stream(device, stream))
}

pub fn cuda_synchronize(device: i32) -> Result<()> {
    check(unsafe { sys::st_cuda_synchronize(device) })
}

/// Gives the library's cached device and pinned memory for `device` back to the driver.
pub fn cuda_empty_cache(device: i32) -> Result<()> {
    check(unsafe { sys::st_cuda_empty_cache(device) })
}
