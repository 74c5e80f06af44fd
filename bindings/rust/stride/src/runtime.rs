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
    check("set_num_threads", unsafe { sys::st_set_num_threads(n) })
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
///
/// The library writes every byte it asked for into the block `alloc` returns,
/// so a wrong implementation breaks memory safety: the trait is `unsafe` to
/// implement, as [`std::alloc::GlobalAlloc`] is. An implementation in safe
/// Rust does not compile:
///
/// ```compile_fail,E0200
/// struct Short;
/// impl stride::CpuAllocator for Short { // error: requires an `unsafe impl`
///     fn alloc(&self, _nbytes: usize, _alignment: usize) -> *mut u8 {
///         Box::leak(Box::new([0u8; 8])).as_mut_ptr() // fewer bytes than asked
///     }
///     fn free(&self, _ptr: *mut u8, _nbytes: usize) {}
/// }
/// ```
///
/// # Safety
/// An implementation must guarantee, for each call of `alloc` that returns
/// a non-null pointer:
/// - the pointer is the start of `nbytes` bytes that are readable and
///   writable, by any thread, and used by nothing else until `free` is
///   called with it;
/// - it is a multiple of `alignment` (a power of two);
/// - the block stays valid until `free(ptr, nbytes)`, which is called once,
///   from any thread, possibly after `reset_cpu_allocator` or another
///   `set_cpu_allocator`.
///
/// Both methods may be called from several threads at once, and must not
/// call back into this crate's tensor functions (they run inside them).
/// Returning null is always allowed: the library then answers
/// `Status::OutOfMemory`. The binding checks the one thing it can: a
/// non-null pointer that is not a multiple of `alignment` is handed back to
/// `free` at once and counts as a failure.
pub unsafe trait CpuAllocator: Send + Sync {
    /// `nbytes` aligned to `alignment` (a power of two), or null on failure.
    fn alloc(&self, nbytes: usize, alignment: usize) -> *mut u8;
    /// Gives back what `alloc` returned, with the byte count it was asked for.
    fn free(&self, ptr: *mut u8, nbytes: usize);
}

type BoxedAllocator = Box<dyn CpuAllocator>;

unsafe extern "C" fn alloc_trampoline(ctx: *mut c_void, nbytes: usize, alignment: usize) -> *mut c_void {
    let a = &*(ctx as *const BoxedAllocator);
    no_unwind(|| {
        let p = a.alloc(nbytes, alignment);
        // The alignment is the one promise the binding can check (CpuAllocator's # Safety).
        if !p.is_null() && (p as usize) % alignment.max(1) != 0 {
            a.free(p, nbytes);
            return std::ptr::null_mut();
        }
        p as *mut c_void
    })
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
    check("set_cpu_allocator", unsafe { sys::st_set_cpu_allocator(&raw) })
}

/// Restores the library's own CPU allocator.
pub fn reset_cpu_allocator() -> Result<()> {
    check("reset_cpu_allocator", unsafe { sys::st_set_cpu_allocator(std::ptr::null()) })
}

/// A host job system: `(n, grain, run)` must call `run(begin, end)` over
/// disjoint chunks covering [0, n), each at least `grain` long except the
/// last, on any threads, and return when all are done. A job system that
/// does not is caught by the library (the operator fails with
/// `Status::Internal`), so this is a safe type. Its threads must not call
/// this crate's tensor functions while a chunk is pending: the thread that
/// waits for them may hold the storages' locks (see `Tensor`'s Threads).
pub type ParallelFor = Box<dyn Fn(i64, i64, &(dyn Fn(i64, i64) + Sync)) + Send + Sync>;

unsafe extern "C" fn parallel_for_trampoline(ctx: *mut c_void, n: i64, grain: i64, task: sys::st_parallel_task,
                                             task_ctx: *mut c_void) {
    let f = &*(ctx as *const ParallelFor);
    let task_ctx = task_ctx as usize; // shared with the job system's threads
    no_unwind(|| {
        let task = task.expect("the library passes a task");
        f(n, grain, &move |begin, end| task(task_ctx as *mut c_void, begin, end))
    })
}

/// Runs the library's CPU parallelism through `f`; None restores the built-in pool.
pub fn set_parallel_for(f: Option<ParallelFor>) -> Result<()> {
    match f {
        None => check("set_parallel_for", unsafe { sys::st_set_parallel_for(None, std::ptr::null_mut()) }),
        Some(f) => {
            let ctx: &'static mut ParallelFor = Box::leak(Box::new(f));
            check("set_parallel_for", unsafe { sys::st_set_parallel_for(Some(parallel_for_trampoline), ctx as *mut ParallelFor as *mut c_void) })
        }
    }
}

/// Called after every operator with its name and duration in nanoseconds,
/// on the thread that made the call, from inside it. It may use tensors: a
/// storage the traced call reads may be read again and one it writes may
/// be read or written, but writing a storage the traced call only reads
/// fails with `Status::InvalidArgument` (it cannot take that storage's lock).
pub type TraceFn = Box<dyn Fn(&str, i64) + Send + Sync>;

unsafe extern "C" fn trace_trampoline(ctx: *mut c_void, name: *const c_char, ns: i64) {
    let f = &*(ctx as *const TraceFn);
    let name = CStr::from_ptr(name).to_string_lossy();
    no_unwind(|| f(&name, ns))
}

/// Calls `f` after every operator call; None turns tracing off.
pub fn set_trace_callback(f: Option<TraceFn>) -> Result<()> {
    match f {
        None => check("set_trace_callback", unsafe { sys::st_set_trace_callback(None, std::ptr::null_mut()) }),
        Some(f) => {
            // Kept for the process: another thread may be inside the old callback.
            let ctx: &'static mut TraceFn = Box::leak(Box::new(f));
            check("set_trace_callback", unsafe { sys::st_set_trace_callback(Some(trace_trampoline), ctx as *mut TraceFn as *mut c_void) })
        }
    }
}

/// 0 when CUDA is not built in, or there is no driver or GPU.
pub fn cuda_device_count() -> Result<i32> {
    let mut n = 0;
    check("cuda_device_count", unsafe { sys::st_cuda_device_count(&mut n) })?;
    Ok(n)
}

/// Uses the caller's `cudaStream_t` on `device` for this thread (null: the default stream).
///
/// # Safety
/// `stream` must be a live CUDA stream of that device, or null.
pub unsafe fn cuda_set_stream(device: i32, stream: *mut c_void) -> Result<()> {
    check("cuda_set_stream", sys::st_cuda_set_stream(device, stream))
}

pub fn cuda_synchronize(device: i32) -> Result<()> {
    check("cuda_synchronize", unsafe { sys::st_cuda_synchronize(device) })
}

/// Gives the library's cached device and pinned memory for `device` back to the driver.
pub fn cuda_empty_cache(device: i32) -> Result<()> {
    check("cuda_empty_cache", unsafe { sys::st_cuda_empty_cache(device) })
}
