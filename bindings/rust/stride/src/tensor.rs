//! `Tensor`: one reference to a libstride tensor handle.

use std::fmt;
use std::os::raw::{c_char, c_void};

use stride_sys as sys;

use crate::error::{check, error, Result, Status};
use crate::storage_lock::{lock, Access};
use crate::types::{DType, Device, Element, MemoryFormat};

/// A strided tensor living in libstride.
///
/// A `Tensor` owns one reference to its handle: `Clone` adds one
/// (`st_tensor_retain`), `Drop` gives it back (`st_tensor_release`). Views
/// share their source's memory and keep it alive on their own, as
/// PyTorch's views do: a write through a view is seen through every tensor
/// of the same storage. `clone_data`, and `contiguous`, `to` and `reshape`
/// when they cannot answer with a view, copy into new memory.
///
/// # Threads
/// A `Tensor` is `Send` and `Sync`: it may be moved to, cloned into and
/// shared with other threads. Safe code cannot race on its elements: every
/// call that reads or writes them (`fill`, `zero`, `copy_from`,
/// `copy_scaled_from`, `get`, `set`, `to_vec`, copy plans, printing, and
/// the copies `to`, `contiguous`, `clone_data` and `reshape` make) first
/// takes its storage's lock, shared to read and exclusive to write, so
/// writes to one storage from several threads take turns, and a read sees
/// each write whole. Metadata never changes after creation and needs no
/// lock. Raw pointers (`data_ptr`, DLPack exports) are outside the locks:
/// using them is `unsafe` and the caller's to order.
///
/// `Display` prints the values as NumPy prints an array (`[[0. 1.]\n [2. 3.]]`),
/// `Debug` with the dtype (`Tensor([[0., 1.], ...], dtype=float32)`);
/// more than 1000 elements are summarized.
pub struct Tensor {
    h: sys::st_tensor,
}

// The library's calls may come from any thread; metadata is immutable, and
// element access goes through Note [One writer per storage] (storage_lock.rs).
unsafe impl Send for Tensor {}
unsafe impl Sync for Tensor {}

fn ndim_of(method: &str, len: usize) -> Result<i32> {
    if len > sys::ST_MAX_DIMS {
        return Err(error(
            Status::InvalidArgument,
            method,
            &format!("{} dims is more than ST_MAX_DIMS ({})", len, sys::ST_MAX_DIMS),
        ));
    }
    Ok(len as i32)
}

fn same_lengths(method: &str, shape: &[i64], strides: &[i64]) -> Result<()> {
    if shape.len() != strides.len() {
        return Err(error(
            Status::InvalidArgument,
            method,
            &format!("{} sizes but {} strides", shape.len(), strides.len()),
        ));
    }
    Ok(())
}

fn out(method: &str, f: impl FnOnce(*mut sys::st_tensor) -> sys::st_status) -> Result<Tensor> {
    let mut h = sys::st_tensor { id: 0 };
    check(method, f(&mut h))?;
    Ok(Tensor { h })
}

/// The element range [lo, hi] a layout reaches from element (0, …, 0), or None without elements.
fn extent(shape: &[i64], strides: &[i64]) -> Option<(i128, i128)> {
    if shape.iter().any(|&s| s == 0) {
        return None;
    }
    let (mut lo, mut hi) = (0i128, 0i128);
    for (&n, &s) in shape.iter().zip(strides) {
        let reach = (n as i128 - 1) * s as i128;
        if reach < 0 {
            lo += reach;
        } else {
            hi += reach;
        }
    }
    Some((lo, hi))
}

fn row_major(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![0; shape.len()];
    let mut next = 1i64;
    for d in (0..shape.len()).rev() {
        strides[d] = next;
        next = next.saturating_mul(shape[d].max(1));
    }
    strides
}

unsafe extern "C" fn drop_vec<T>(_data: *mut c_void, ctx: *mut c_void) {
    drop(Box::from_raw(ctx as *mut Vec<T>));
}

type Deleter = Box<dyn FnOnce() + Send>;

unsafe extern "C" fn run_deleter(_data: *mut c_void, ctx: *mut c_void) {
    let f = Box::from_raw(ctx as *mut Deleter);
    // Unwinding into C is undefined: a panicking deleter ends the process.
    if std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || f())).is_err() {
        std::process::abort();
    }
}

/// The arguments of a scaled copy ([`Tensor::copy_scaled_from`]), by name:
/// `R(fma(src, scale[c], shift[c]))`, `c` the element's index along `dim`
/// of the destination when `scale` or `shift` holds more than one value.
///
/// ```no_run
/// # use stride::{ScaleShift, Tensor};
/// # fn f(out: &Tensor, src: &Tensor) -> stride::Result<()> {
/// // ToTensor + Normalize: x / 255 / std - mean / std, per channel (dim 1 of NCHW).
/// let (mean, std) = ([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]);
/// let scale: Vec<f64> = std.iter().map(|s| 1.0 / (255.0 * s)).collect();
/// let shift: Vec<f64> = mean.iter().zip(&std).map(|(m, s)| -m / s).collect();
/// out.copy_scaled_from(src, &ScaleShift::along(1).scale(&scale).shift(&shift))?;
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScaleShift<'a> {
    scale: &'a [f64],
    shift: &'a [f64],
    dim: i32,
    saturate: bool,
    non_blocking: bool,
}

impl<'a> ScaleShift<'a> {
    /// Scales of 1 and shifts of 0 (a plain converting copy, rounded as a scaled one is).
    pub fn new() -> ScaleShift<'a> {
        ScaleShift::default()
    }

    /// Per-channel values along `dim` of the destination (negative counts from the last dim).
    pub fn along(dim: i32) -> ScaleShift<'a> {
        ScaleShift { dim, ..ScaleShift::default() }
    }

    /// One value for every element, or one per index along the dim; empty: 1.
    pub fn scale(self, scale: &'a [f64]) -> ScaleShift<'a> {
        ScaleShift { scale, ..self }
    }

    /// One value for every element, or one per index along the dim; empty: 0.
    pub fn shift(self, shift: &'a [f64]) -> ScaleShift<'a> {
        ScaleShift { shift, ..self }
    }

    /// A floating destination's overflow clamps to its largest finite value
    /// instead of becoming infinite (integer destinations always clamp).
    pub fn saturate(self, saturate: bool) -> ScaleShift<'a> {
        ScaleShift { saturate, ..self }
    }

    /// The call may return before a CUDA copy ends (see `copy_from`).
    pub fn non_blocking(self, non_blocking: bool) -> ScaleShift<'a> {
        ScaleShift { non_blocking, ..self }
    }
}

impl Tensor {
    // ---- making tensors -----------------------------------------------------

    /// An uninitialized row-major tensor.
    pub fn empty(shape: &[i64], dtype: DType, device: Device) -> Result<Tensor> {
        const M: &str = "Tensor::empty";
        let n = ndim_of(M, shape.len())?;
        out(M, |o| unsafe { sys::st_tensor_create(shape.as_ptr(), n, dtype as i32, device.raw(), o) })
    }

    /// An uninitialized tensor with the given strides (in elements, >= 0).
    pub fn empty_strided(shape: &[i64], strides: &[i64], dtype: DType, device: Device) -> Result<Tensor> {
        const M: &str = "Tensor::empty_strided";
        same_lengths(M, shape, strides)?;
        let n = ndim_of(M, shape.len())?;
        out(M, |o| unsafe {
            sys::st_tensor_create_strided(shape.as_ptr(), strides.as_ptr(), n, dtype as i32, device.raw(), o)
        })
    }

    /// An uninitialized tensor shaped like `self`, laid out as `fmt` says.
    pub fn empty_like(&self, fmt: MemoryFormat) -> Result<Tensor> {
        out("Tensor::empty_like", |o| unsafe { sys::st_tensor_create_like(self.h, fmt as i32, o) })
    }

    /// A row-major tensor over `data`, without copying; the library drops
    /// the Vec when the last tensor using it is released.
    pub fn from_vec<T: Element + Send>(data: Vec<T>, shape: &[i64]) -> Result<Tensor> {
        // A count that is not the shape's is ST_ERROR_SHAPE_MISMATCH, as the
        // C API answers element counts that differ (and Go's FromSlice does).
        if shape.iter().all(|&s| s >= 0) {
            let count: i128 = shape.iter().map(|&s| s as i128).product();
            if count != data.len() as i128 {
                return Err(error(
                    Status::ShapeMismatch,
                    "Tensor::from_vec",
                    &format!("{} values for shape {:?}", data.len(), shape),
                ));
            }
        }
        let strides = row_major(shape);
        Tensor::from_vec_strided(data, 0, shape, &strides)
    }

    /// A tensor over `data` whose element (0, …, 0) is `data[offset]`, with
    /// any strides (negative ones included) that stay inside `data`. With no
    /// elements (a size of 0), `offset` may be at most `data.len()`.
    pub fn from_vec_strided<T: Element + Send>(mut data: Vec<T>, offset: usize, shape: &[i64], strides: &[i64])
        -> Result<Tensor> {
        const M: &str = "Tensor::from_vec_strided";
        // Every argument is checked before the address of element (0, …, 0)
        // is formed: `add` past the Vec's end would be undefined behaviour.
        same_lengths(M, shape, strides)?;
        let n = ndim_of(M, shape.len())?;
        if shape.iter().any(|&s| s < 0) {
            return Err(error(Status::InvalidArgument, M, &format!("negative size in {:?}", shape)));
        }
        let inside = match extent(shape, strides) {
            Some((lo, hi)) => offset as i128 + lo >= 0 && offset as i128 + hi < data.len() as i128,
            None => offset <= data.len(),
        };
        if !inside {
            return Err(error(
                Status::OutOfBounds,
                M,
                &format!("sizes {:?} with strides {:?} from element {} leave a Vec of {} elements",
                         shape, strides, offset, data.len()),
            ));
        }
        // In bounds (or one past the end, for no elements): checked just above.
        let first = if data.is_empty() { std::ptr::null_mut() } else { unsafe { data.as_mut_ptr().add(offset) } };
        let boxed = Box::into_raw(Box::new(data));
        let result = out(M, |o| unsafe {
            sys::st_tensor_from_data(first as *mut c_void, shape.as_ptr(), strides.as_ptr(), n, T::DTYPE as i32,
                                     Device::CPU.raw(), Some(drop_vec::<T>), boxed as *mut c_void, o)
        });
        if result.is_err() {
            // On failure the library never calls the deleter: the Vec is still ours.
            drop(unsafe { Box::from_raw(boxed) });
        }
        result
    }

    /// A tensor over memory the caller provides, without copying.
    ///
    /// `data` is the address of element (0, …, 0); `strides` None means
    /// row-major. `deleter` runs exactly once, on any thread, when the last
    /// tensor using the memory is released; it is dropped unrun on failure.
    ///
    /// # Safety
    /// Every element the layout reaches must be valid memory of `dtype` on
    /// `device` until `deleter` runs (or for as long as any tensor uses it
    /// when there is no deleter), and while a tensor uses it nothing may
    /// write it except this crate's calls on tensors of the new storage
    /// (and of its views): the locks of Note [One writer per storage] know
    /// the memory by this storage only.
    pub unsafe fn from_raw(data: *mut c_void, shape: &[i64], strides: Option<&[i64]>, dtype: DType, device: Device,
                           deleter: Option<Deleter>) -> Result<Tensor> {
        const M: &str = "Tensor::from_raw";
        let n = ndim_of(M, shape.len())?;
        if let Some(s) = strides {
            same_lengths(M, shape, s)?;
        }
        let st = strides.map_or(std::ptr::null(), |s| s.as_ptr());
        let (f, ctx): (sys::st_deleter, *mut c_void) = match deleter {
            Some(d) => (Some(run_deleter), Box::into_raw(Box::new(d)) as *mut c_void),
            None => (None, std::ptr::null_mut()),
        };
        let result =
            out(M, |o| sys::st_tensor_from_data(data, shape.as_ptr(), st, n, dtype as i32, device.raw(), f, ctx, o));
        if result.is_err() && !ctx.is_null() {
            drop(Box::from_raw(ctx as *mut Deleter));
        }
        result
    }

    /// Takes over one reference to a raw handle.
    ///
    /// # Safety
    /// The caller must own that reference and give it to no one else.
    pub unsafe fn from_raw_handle(h: sys::st_tensor) -> Tensor {
        Tensor { h }
    }

    /// The raw handle, with the reference this `Tensor` held.
    pub fn into_raw_handle(self) -> sys::st_tensor {
        let h = self.h;
        std::mem::forget(self);
        h
    }

    /// The raw handle (still owned by `self`).
    pub fn raw_handle(&self) -> sys::st_tensor {
        self.h
    }

    // ---- metadata -----------------------------------------------------------

    pub fn ndim(&self) -> usize {
        let mut n = 0i32;
        check("Tensor::ndim", unsafe { sys::st_tensor_ndim(self.h, &mut n) }).expect("a live Tensor has a ndim");
        n as usize
    }

    pub fn shape(&self) -> Vec<i64> {
        let mut buf = [0i64; sys::ST_MAX_DIMS];
        check("Tensor::shape", unsafe { sys::st_tensor_sizes(self.h, buf.as_mut_ptr(), buf.len() as i32) })
            .expect("a live Tensor has sizes");
        buf[..self.ndim()].to_vec()
    }

    /// Strides in elements; any sign.
    pub fn strides(&self) -> Vec<i64> {
        let mut buf = [0i64; sys::ST_MAX_DIMS];
        check("Tensor::strides", unsafe { sys::st_tensor_strides(self.h, buf.as_mut_ptr(), buf.len() as i32) })
            .expect("a live Tensor has strides");
        buf[..self.ndim()].to_vec()
    }

    pub fn dtype(&self) -> DType {
        let mut d = 0i32;
        check("Tensor::dtype", unsafe { sys::st_tensor_dtype(self.h, &mut d) }).expect("a live Tensor has a dtype");
        DType::from_code(d).expect("the library answers a known dtype")
    }

    pub fn device(&self) -> Device {
        let mut d = sys::st_device { type_: 0, index: 0 };
        check("Tensor::device", unsafe { sys::st_tensor_device(self.h, &mut d) }).expect("a live Tensor has a device");
        Device::from_raw(d)
    }

    pub fn numel(&self) -> i64 {
        let mut n = 0i64;
        check("Tensor::numel", unsafe { sys::st_tensor_numel(self.h, &mut n) }).expect("a live Tensor has a numel");
        n
    }

    /// Elements from the storage's lowest address to element (0, …, 0).
    pub fn storage_offset(&self) -> i64 {
        let mut n = 0i64;
        check("Tensor::storage_offset", unsafe { sys::st_tensor_storage_offset(self.h, &mut n) })
            .expect("a live Tensor has an offset");
        n
    }

    /// The address of element (0, …, 0); null for some empty tensors.
    ///
    /// Reading or writing through it is `unsafe` and outside the storage
    /// locks (see [Threads](Tensor#threads)); it is valid while any tensor
    /// of the storage lives.
    pub fn data_ptr(&self) -> *mut c_void {
        let mut p = std::ptr::null_mut();
        check("Tensor::data_ptr", unsafe { sys::st_tensor_data_ptr(self.h, &mut p) })
            .expect("a live Tensor has a data pointer");
        p
    }

    pub fn is_contiguous(&self, fmt: MemoryFormat) -> bool {
        let mut r = 0i32;
        check("Tensor::is_contiguous", unsafe { sys::st_tensor_is_contiguous(self.h, fmt as i32, &mut r) })
            .expect("a live Tensor answers is_contiguous");
        r != 0
    }

    /// True for tensors imported read-only through DLPack.
    pub fn is_read_only(&self) -> bool {
        let m = self.to_dlpack_versioned().expect("a live Tensor exports");
        unsafe {
            let ro = (*m).flags & sys::dlpack::DLPACK_FLAG_BITMASK_READ_ONLY != 0;
            ((*m).deleter.expect("an exported tensor has a deleter"))(m);
            ro
        }
    }

    // ---- views --------------------------------------------------------------

    pub fn as_strided(&self, shape: &[i64], strides: &[i64], storage_offset: i64) -> Result<Tensor> {
        const M: &str = "Tensor::as_strided";
        same_lengths(M, shape, strides)?;
        let n = ndim_of(M, shape.len())?;
        out(M, |o| unsafe { sys::st_as_strided(self.h, shape.as_ptr(), strides.as_ptr(), n, storage_offset, o) })
    }

    pub fn permute(&self, dims: &[i32]) -> Result<Tensor> {
        const M: &str = "Tensor::permute";
        let n = ndim_of(M, dims.len())?;
        out(M, |o| unsafe { sys::st_permute(self.h, dims.as_ptr(), n, o) })
    }

    pub fn transpose(&self, dim0: i32, dim1: i32) -> Result<Tensor> {
        out("Tensor::transpose", |o| unsafe { sys::st_transpose(self.h, dim0, dim1, o) })
    }

    /// Elements start, start+step, … below stop, by Python's rules (step >= 1).
    pub fn slice(&self, dim: i32, start: i64, stop: i64, step: i64) -> Result<Tensor> {
        out("Tensor::slice", |o| unsafe { sys::st_slice(self.h, dim, start, stop, step, o) })
    }

    pub fn select(&self, dim: i32, index: i64) -> Result<Tensor> {
        out("Tensor::select", |o| unsafe { sys::st_select(self.h, dim, index, o) })
    }

    pub fn expand(&self, shape: &[i64]) -> Result<Tensor> {
        const M: &str = "Tensor::expand";
        let n = ndim_of(M, shape.len())?;
        out(M, |o| unsafe { sys::st_expand(self.h, shape.as_ptr(), n, o) })
    }

    pub fn unsqueeze(&self, dim: i32) -> Result<Tensor> {
        out("Tensor::unsqueeze", |o| unsafe { sys::st_unsqueeze(self.h, dim, o) })
    }

    pub fn squeeze(&self, dim: i32) -> Result<Tensor> {
        out("Tensor::squeeze", |o| unsafe { sys::st_squeeze(self.h, dim, o) })
    }

    pub fn flip(&self, dim: i32) -> Result<Tensor> {
        out("Tensor::flip", |o| unsafe { sys::st_flip(self.h, dim, o) })
    }

    pub fn view(&self, shape: &[i64]) -> Result<Tensor> {
        const M: &str = "Tensor::view";
        let n = ndim_of(M, shape.len())?;
        out(M, |o| unsafe { sys::st_view(self.h, shape.as_ptr(), n, o) })
    }

    /// A view when the strides allow one, else a contiguous copy.
    pub fn reshape(&self, shape: &[i64]) -> Result<Tensor> {
        const M: &str = "Tensor::reshape";
        let n = ndim_of(M, shape.len())?;
        let _reading = lock(M, &[(self.h, Access::Read)])?;
        out(M, |o| unsafe { sys::st_reshape(self.h, shape.as_ptr(), n, o) })
    }

    // ---- operators ----------------------------------------------------------

    /// `self` (one more reference) when already laid out as `fmt`, else a copy.
    pub fn contiguous(&self, fmt: MemoryFormat) -> Result<Tensor> {
        const M: &str = "Tensor::contiguous";
        let _reading = lock(M, &[(self.h, Access::Read)])?;
        out(M, |o| unsafe { sys::st_contiguous(self.h, fmt as i32, o) })
    }

    /// A copy in new memory (`Clone` only adds a reference to the same tensor).
    pub fn clone_data(&self, fmt: MemoryFormat) -> Result<Tensor> {
        const M: &str = "Tensor::clone_data";
        let _reading = lock(M, &[(self.h, Access::Read)])?;
        out(M, |o| unsafe { sys::st_clone(self.h, fmt as i32, o) })
    }

    /// Writes `src`, broadcast to this shape and converted to this dtype, into `self`.
    ///
    /// `non_blocking` lets a copy to or from a CUDA device return before it
    /// ends (ordered on the thread's stream); CPU copies always end first.
    pub fn copy_from(&self, src: &Tensor, non_blocking: bool) -> Result<()> {
        const M: &str = "Tensor::copy_from";
        let _locked = lock(M, &[(self.h, Access::Write), (src.h, Access::Read)])?;
        check(M, unsafe { sys::st_copy(self.h, src.h, non_blocking as i32) })
    }

    /// Writes `R(fma(src, scale[c], shift[c]))` into `self` (st_copy_scaled),
    /// with the values and options that `how` names (see [`ScaleShift`]):
    /// `c` is the element's index along `how`'s dim of `self` when `scale`
    /// or `shift` has more than one value (then as many as that dim's
    /// size). Integer destinations round half to even and clamp.
    pub fn copy_scaled_from(&self, src: &Tensor, how: &ScaleShift) -> Result<()> {
        const M: &str = "Tensor::copy_scaled_from";
        // One value stands for every index along the dim, as in NumPy's broadcasting.
        let longest = how.scale.len().max(how.shift.len());
        let (scale, shift) = if longest > 1 {
            let size = self.dim_size(how.dim).ok_or_else(|| {
                error(Status::InvalidArgument, M,
                      &format!("dim {} is not a dim of self, which has {}", how.dim, self.ndim()))
            })?;
            if [how.scale.len(), how.shift.len()].iter().any(|&len| len > 1 && len as i64 != size) {
                return Err(error(
                    Status::InvalidArgument,
                    M,
                    &format!("scale has {} values and shift {}: each may have 0, 1 or {} (the size of dim {} of self)",
                             how.scale.len(), how.shift.len(), size, how.dim),
                ));
            }
            let widen = |v: &[f64]| if v.len() == 1 { vec![v[0]; longest] } else { v.to_vec() };
            (widen(how.scale), widen(how.shift))
        } else {
            (how.scale.to_vec(), how.shift.to_vec())
        };
        let ss = sys::st_scale_shift {
            scale: if scale.is_empty() { std::ptr::null() } else { scale.as_ptr() },
            shift: if shift.is_empty() { std::ptr::null() } else { shift.as_ptr() },
            n: longest.max(1) as i64,
            dim: how.dim,
            saturate: how.saturate as i32,
        };
        let _locked = lock(M, &[(self.h, Access::Write), (src.h, Access::Read)])?;
        check(M, unsafe { sys::st_copy_scaled(self.h, src.h, &ss, how.non_blocking as i32) })
    }

    pub fn to(&self, dtype: DType, device: Device, fmt: MemoryFormat) -> Result<Tensor> {
        const M: &str = "Tensor::to";
        let _reading = lock(M, &[(self.h, Access::Read)])?;
        out(M, |o| unsafe { sys::st_to(self.h, dtype as i32, device.raw(), fmt as i32, o) })
    }

    pub fn fill(&self, value: f64) -> Result<()> {
        const M: &str = "Tensor::fill";
        let _writing = lock(M, &[(self.h, Access::Write)])?;
        check(M, unsafe { sys::st_fill(self.h, value) })
    }

    pub fn zero(&self) -> Result<()> {
        const M: &str = "Tensor::zero";
        let _writing = lock(M, &[(self.h, Access::Write)])?;
        check(M, unsafe { sys::st_zero(self.h) })
    }

    /// The size of `dim` (negative counts from the last), or None when it is not a dim of `self`.
    fn dim_size(&self, dim: i32) -> Option<i64> {
        let shape = self.shape();
        let d = if dim < 0 { dim as i64 + shape.len() as i64 } else { dim as i64 };
        usize::try_from(d).ok().and_then(|d| shape.get(d).copied())
    }

    // ---- elements -----------------------------------------------------------

    /// The address of element (0, …, 0), the shape and the strides, when
    /// `T` is the dtype's element and the memory is the CPU's.
    fn host_elements<T: Element>(&self, method: &str) -> Result<(*mut u8, Vec<i64>, Vec<i64>)> {
        if T::DTYPE != self.dtype() {
            return Err(error(
                Status::InvalidArgument,
                method,
                &format!("elements of type {} requested from a {} tensor", T::DTYPE.name(), self.dtype().name()),
            ));
        }
        if self.device() != Device::CPU {
            // CUDA memory is not the host's; CUDA_HOST memory may still be the
            // target of a non-blocking copy that the lock does not cover.
            return Err(error(
                Status::InvalidArgument,
                method,
                &format!("elements of a {} tensor are read on the CPU: copy it there first with to()", self.device()),
            ));
        }
        Ok((self.data_ptr() as *mut u8, self.shape(), self.strides()))
    }

    /// The element offset of `index` (negative indices count from the end), checked against `shape`.
    fn offset_of(method: &str, index: &[i64], shape: &[i64], strides: &[i64]) -> Result<isize> {
        if index.len() != shape.len() {
            return Err(error(
                Status::InvalidArgument,
                method,
                &format!("{} indices for a tensor of {} dim{}", index.len(), shape.len(),
                         if shape.len() == 1 { "" } else { "s" }),
            ));
        }
        let mut offset = 0isize;
        for d in 0..shape.len() {
            let i = if index[d] < 0 { index[d] + shape[d] } else { index[d] };
            if i < 0 || i >= shape[d] {
                return Err(error(
                    Status::OutOfBounds,
                    method,
                    &format!("index {} is out of range for dim {} of size {}", index[d], d, shape[d]),
                ));
            }
            offset += (i * strides[d]) as isize;
        }
        Ok(offset)
    }

    /// The element at `index` (negative indices count from the end) of a CPU tensor.
    pub fn get<T: Element>(&self, index: &[i64]) -> Result<T> {
        const M: &str = "Tensor::get";
        let (first, shape, strides) = self.host_elements::<T>(M)?;
        let offset = Tensor::offset_of(M, index, &shape, &strides)?;
        let _reading = lock(M, &[(self.h, Access::Read)])?;
        // An index inside the shape is an element of the storage, which lives
        // while `self` does; the lock keeps writers out (Note [One writer per storage]).
        Ok(unsafe { T::read(first.offset(offset * T::DTYPE.itemsize() as isize)) })
    }

    /// Writes the element at `index` of a CPU tensor; refused for read-only tensors.
    pub fn set<T: Element>(&self, index: &[i64], value: T) -> Result<()> {
        const M: &str = "Tensor::set";
        let (first, shape, strides) = self.host_elements::<T>(M)?;
        let offset = Tensor::offset_of(M, index, &shape, &strides)?;
        if self.is_read_only() {
            return Err(error(Status::ReadOnly, M, "the tensor was imported read-only"));
        }
        let _writing = lock(M, &[(self.h, Access::Write)])?;
        // As in `get`; the lock is exclusive.
        unsafe { std::ptr::write_unaligned(first.offset(offset * T::DTYPE.itemsize() as isize) as *mut T, value) };
        Ok(())
    }

    /// Every element of a CPU tensor in row-major order of the shape, whatever the strides.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        const M: &str = "Tensor::to_vec";
        let (first, shape, strides) = self.host_elements::<T>(M)?;
        let numel = self.numel() as usize;
        let itemsize = T::DTYPE.itemsize() as isize;
        let mut v = Vec::with_capacity(numel);
        let mut index = vec![0i64; shape.len()];
        let _reading = lock(M, &[(self.h, Access::Read)])?;
        for _ in 0..numel {
            let offset: i64 = index.iter().zip(&strides).map(|(i, s)| i * s).sum();
            // Each index walks inside the shape: as in `get`.
            v.push(unsafe { T::read(first.offset(offset as isize * itemsize)) });
            for d in (0..shape.len()).rev() {
                index[d] += 1;
                if index[d] < shape[d] {
                    break;
                }
                index[d] = 0;
            }
        }
        Ok(v)
    }

    // ---- DLPack -------------------------------------------------------------

    /// Exports as a classic DLManagedTensor; the caller must call its deleter once.
    pub fn to_dlpack(&self) -> Result<*mut sys::dlpack::DLManagedTensor> {
        let mut p = std::ptr::null_mut();
        check("Tensor::to_dlpack", unsafe { sys::st_to_dlpack(self.h, &mut p) })?;
        Ok(p)
    }

    /// Exports as a DLPack 1.0 DLManagedTensorVersioned; the caller must call its deleter once.
    pub fn to_dlpack_versioned(&self) -> Result<*mut sys::dlpack::DLManagedTensorVersioned> {
        let mut p = std::ptr::null_mut();
        check("Tensor::to_dlpack_versioned", unsafe { sys::st_to_dlpack_versioned(self.h, &mut p) })?;
        Ok(p)
    }

    /// Wraps a classic DLPack tensor; on success the library owns `m`.
    ///
    /// # Safety
    /// `m` must be a valid DLManagedTensor that nobody else consumes, whose
    /// memory nothing writes while the tensor lives except this crate's
    /// calls on it and its views (as [`from_raw`](Tensor::from_raw) says).
    pub unsafe fn from_dlpack(m: *mut sys::dlpack::DLManagedTensor) -> Result<Tensor> {
        out("Tensor::from_dlpack", |o| sys::st_from_dlpack(m, o))
    }

    /// Wraps a versioned DLPack tensor (read-only when its flag says so); on success the library owns `m`.
    ///
    /// # Safety
    /// As [`from_dlpack`](Tensor::from_dlpack), for a DLManagedTensorVersioned.
    pub unsafe fn from_dlpack_versioned(m: *mut sys::dlpack::DLManagedTensorVersioned) -> Result<Tensor> {
        out("Tensor::from_dlpack_versioned", |o| sys::st_from_dlpack_versioned(m, o))
    }
}

/// NumPy's default line width, which `Display` and `Debug` keep within.
const LINE_WIDTH: usize = 75;

impl Tensor {
    /// `st_tensor_format`'s text of the values (NumPy's `array2string`), no
    /// line wider than `linewidth`; bools as Rust writes them, `true` and
    /// `false` (NumPy's `True` and `False`, of the same widths).
    fn text(&self, linewidth: usize) -> Result<String> {
        const M: &str = "Tensor::fmt";
        let _reading = lock(M, &[(self.h, Access::Read)])?;
        let opts = sys::st_format_options {
            struct_size: std::mem::size_of::<sys::st_format_options>(),
            precision: 0,
            edgeitems: 0,
            threshold: 0,
            linewidth: linewidth as i32,
        };
        let mut buf = vec![0u8; 256];
        loop {
            // The size asked for first, then the size needed (another thread's C code may change the values).
            let mut needed = 0usize;
            let status =
                unsafe { sys::st_tensor_format(self.h, &opts, buf.as_mut_ptr() as *mut c_char, buf.len(), &mut needed) };
            if status != sys::ST_ERROR_OUT_OF_BOUNDS {
                check(M, status)?;
                buf.truncate(needed - 1);
                let text = String::from_utf8(buf).expect("the library's text is ASCII");
                return Ok(if self.dtype() == DType::Bool { text.replace("True", "true").replace("False", "false") } else { text });
            }
            buf.resize(needed, 0);
        }
    }
}

impl fmt::Display for Tensor {
    /// The values as NumPy's `str()` of an array writes them (a 0-d float as
    /// `str()` of the number: `2.0` for `array2string`'s `2.`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.text(LINE_WIDTH) {
            Ok(mut text) => {
                if self.ndim() == 0 && text.ends_with('.') {
                    text.push('0');
                }
                f.write_str(&text)
            }
            Err(e) => write!(f, "Tensor(<{}>)", e),
        }
    }
}

impl fmt::Debug for Tensor {
    /// `Tensor(<values>, dtype=float32)`, as NumPy's `repr()` of an array
    /// wraps its `str()` text; the device unless the CPU. The text comes
    /// narrower by the width of `Tensor(` and the comma after it, and its
    /// lines after the first move right under the `[` of the first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const PREFIX: &str = "Tensor(";
        let shape = self.shape();
        let body = if shape.iter().any(|&n| n == 0) && shape != [0] {
            format!("[], shape={:?}", shape)
        } else {
            match self.text(LINE_WIDTH - PREFIX.len() - 1) {
                Ok(text) => text
                    .split('\n')
                    .enumerate()
                    .map(|(i, line)| if i == 0 || line.is_empty() { line.to_string() } else { format!("{:w$}{}", "", line, w = PREFIX.len()) })
                    .collect::<Vec<_>>()
                    .join("\n"),
                Err(e) => return write!(f, "Tensor(<{}>)", e),
            }
        };
        let mut extra = format!("dtype={}", self.dtype());
        let device = self.device();
        if device != Device::CPU {
            extra.push_str(&format!(", device={}", device));
        }
        let text = format!("{}{},", PREFIX, body);
        let last = text.len() - text.rfind('\n').map_or(0, |i| i + 1);
        let spacer = if last + extra.len() + 2 > LINE_WIDTH { format!("\n{}", " ".repeat(PREFIX.len())) } else { " ".into() };
        write!(f, "{}{}{})", text, spacer, extra)
    }
}

impl Clone for Tensor {
    /// Another reference to the same handle (`st_tensor_retain`).
    fn clone(&self) -> Tensor {
        check("Tensor::clone", unsafe { sys::st_tensor_retain(self.h) }).expect("st_tensor_retain on a live Tensor");
        Tensor { h: self.h }
    }
}

impl Drop for Tensor {
    fn drop(&mut self) {
        unsafe {
            sys::st_tensor_release(self.h);
        }
    }
}
