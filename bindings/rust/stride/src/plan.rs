//! Copy plans: a copy prepared once and run many times (`st_copy_plan_create`).

use std::ffi::c_void;

use crate::error::{check, Result};
use crate::storage_lock::{lock, Access};
use crate::sys;
use crate::tensor::Tensor;

/// The copy `dst.copy_from(src)` prepared once for tensors laid out as these.
///
/// [`execute`](CopyPlan::execute) runs it on tensors with the same sizes,
/// strides, dtypes and devices (data and storage offsets may differ);
/// [`execute_raw`](CopyPlan::execute_raw) on the addresses of element
/// (0, …, 0) of such tensors. The results are `st_copy`'s, overlap
/// included. The plan keeps neither tensor; dropping it releases it. A
/// plan may be executed from several threads at once on different data.
#[derive(Debug)]
pub struct CopyPlan {
    h: sys::st_copy_plan,
}

// The library lets any thread execute or release a plan.
unsafe impl Send for CopyPlan {}
unsafe impl Sync for CopyPlan {}

impl CopyPlan {
    /// Prepares the copy; with `measure`, times its candidates on `dst`
    /// and `src` (`ST_PLAN_MEASURE`), and `dst` then holds the copy.
    pub fn new(dst: &Tensor, src: &Tensor, measure: bool) -> Result<CopyPlan> {
        const M: &str = "CopyPlan::new";
        let flags = if measure { sys::ST_PLAN_MEASURE } else { sys::ST_PLAN_ESTIMATE };
        let mut h = sys::st_copy_plan::default();
        // Measuring runs the copy: dst is written and src read.
        let _locked = if measure {
            Some(lock(M, &[(dst.raw_handle(), Access::Write), (src.raw_handle(), Access::Read)])?)
        } else {
            None
        };
        check(M, unsafe { sys::st_copy_plan_create(dst.raw_handle(), src.raw_handle(), std::ptr::null(), flags, &mut h) })?;
        Ok(CopyPlan { h })
    }

    /// `dst ← src`, as `st_copy` would; both must match the plan's layouts.
    pub fn execute(&self, dst: &Tensor, src: &Tensor, non_blocking: bool) -> Result<()> {
        const M: &str = "CopyPlan::execute";
        let _locked = lock(M, &[(dst.raw_handle(), Access::Write), (src.raw_handle(), Access::Read)])?;
        check(M, unsafe { sys::st_copy_plan_execute(self.h, dst.raw_handle(), src.raw_handle(), non_blocking as i32) })
    }

    /// The copy between raw addresses of element (0, …, 0) of a dst and a
    /// src laid out as the plan's tensors.
    ///
    /// # Safety
    /// The memory around `dst` and `src` must hold every element of those
    /// layouts and stay valid for the call, and no other thread may access
    /// that memory meanwhile (the storage locks of `Tensor` do not cover
    /// raw addresses); the library cannot check it.
    pub unsafe fn execute_raw(&self, dst: *mut c_void, src: *const c_void, non_blocking: bool) -> Result<()> {
        check("CopyPlan::execute_raw", sys::st_copy_plan_execute_raw(self.h, dst, src, non_blocking as i32))
    }

    /// The `st_copy_plan` id.
    pub fn raw_handle(&self) -> sys::st_copy_plan {
        self.h
    }
}

impl Drop for CopyPlan {
    fn drop(&mut self) {
        unsafe {
            sys::st_copy_plan_release(self.h);
        }
    }
}

/// Plans created and not released (`st_live_plan_count`), for leak checks.
pub fn live_plan_count() -> Result<i64> {
    let mut n = 0i64;
    check("live_plan_count", unsafe { sys::st_live_plan_count(&mut n) })?;
    Ok(n)
}
