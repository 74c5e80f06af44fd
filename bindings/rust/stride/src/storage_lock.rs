//! The locks that keep safe code from racing the library on one storage.
//!
//! Note [One writer per storage]
//! A `Tensor` is `Send` and `Sync`, and `Clone` and every view give more
//! `Tensor`s over the same memory, so neither `&mut self` writers nor a
//! `!Sync` `Tensor` would keep two threads from writing one storage at once
//! (each thread holds its own clone). Instead each call that reads or
//! writes elements takes the storage's lock first: shared to read, exclusive
//! to write. A storage is named by its lowest address (`data_ptr` less the
//! storage offset, in bytes), which every view of it shares; the locks are
//! 64 stripes indexed by a hash of that address, so two storages may share
//! a stripe (they then take turns, nothing worse). A call takes its stripes
//! in index order, so two calls never wait for each other in a cycle.
//!
//! The library calls back into Rust from inside a call (a trace callback, a
//! deleter, an allocator, a job system). A callback on the same thread may
//! use tensors again: a stripe the thread already holds exclusively is not
//! taken again, one it holds shared serves another read, and a write to a
//! storage the thread is reading is refused (`Status::InvalidArgument`)
//! rather than waiting forever. Memory that reaches a tensor through
//! `unsafe` constructors (`from_raw`, `from_dlpack`) is locked by its own
//! storage's address; their `# Safety` sections say what that asks.

use std::cell::Cell;
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use stride_sys as sys;

use crate::error::{Error, Result, Status};

const STRIPES: usize = 64;

#[allow(clippy::declare_interior_mutable_const)] // each array element is its own lock
const UNLOCKED: RwLock<()> = RwLock::new(());
static LOCKS: [RwLock<()>; STRIPES] = [UNLOCKED; STRIPES];

thread_local! {
    // The stripes this thread holds, shared and exclusive, one bit each.
    static HELD_SHARED: Cell<u64> = Cell::new(0);
    static HELD_EXCLUSIVE: Cell<u64> = Cell::new(0);
}

/// How a call uses a tensor's elements.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    Read,
    Write,
}

enum Held {
    Shared(RwLockReadGuard<'static, ()>),
    Exclusive(RwLockWriteGuard<'static, ()>),
}

/// The stripes one call holds; dropping it lets them go.
pub(crate) struct StorageGuard {
    held: Vec<(usize, Held)>,
}

impl Drop for StorageGuard {
    fn drop(&mut self) {
        for (stripe, held) in self.held.drain(..).rev() {
            let bit = 1u64 << stripe;
            match held {
                Held::Shared(g) => {
                    HELD_SHARED.with(|h| h.set(h.get() & !bit));
                    drop(g);
                }
                Held::Exclusive(g) => {
                    HELD_EXCLUSIVE.with(|h| h.set(h.get() & !bit));
                    drop(g);
                }
            }
        }
    }
}

/// The stripe of the storage under `h`: a hash of its lowest address.
fn stripe_of(h: sys::st_tensor) -> usize {
    let (mut data, mut offset, mut dtype) = (std::ptr::null_mut(), 0i64, 0i32);
    // A live tensor answers all three; a failed query leaves the zeros, which
    // only picks a stripe (the call itself then reports the handle's error).
    unsafe {
        sys::st_tensor_data_ptr(h, &mut data);
        sys::st_tensor_storage_offset(h, &mut offset);
        sys::st_tensor_dtype(h, &mut dtype);
    }
    let itemsize = unsafe { sys::st_dtype_itemsize(dtype) } as u64;
    // Plain integers, no pointer is formed: the address only names the storage.
    let base = (data as u64).wrapping_sub((offset as u64).wrapping_mul(itemsize));
    (base.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize
}

/// Takes the storages' locks for one call: each `(tensor, access)` pair as
/// Note [One writer per storage] says.
pub(crate) fn lock(method: &str, uses: &[(sys::st_tensor, Access)]) -> Result<StorageGuard> {
    let mut wanted: Vec<(usize, Access)> = Vec::with_capacity(uses.len());
    for &(h, access) in uses {
        let stripe = stripe_of(h);
        match wanted.iter_mut().find(|(s, _)| *s == stripe) {
            Some(entry) => {
                if access == Access::Write {
                    entry.1 = Access::Write;
                }
            }
            None => wanted.push((stripe, access)),
        }
    }
    wanted.sort_by_key(|&(s, _)| s);
    let (shared, exclusive) = (HELD_SHARED.with(Cell::get), HELD_EXCLUSIVE.with(Cell::get));
    let mut guard = StorageGuard { held: Vec::with_capacity(wanted.len()) };
    for (stripe, access) in wanted {
        let bit = 1u64 << stripe;
        if exclusive & bit != 0 || (shared & bit != 0 && access == Access::Read) {
            continue; // this thread holds it already, further up its stack
        }
        if shared & bit != 0 {
            return Err(Error {
                status: Status::InvalidArgument,
                message: format!(
                    "{}: writes a tensor that the call it runs inside (a callback's caller) is reading",
                    method
                ),
            });
        }
        let lock = &LOCKS[stripe];
        let held = match access {
            Access::Read => {
                HELD_SHARED.with(|h| h.set(h.get() | bit));
                Held::Shared(lock.read().unwrap_or_else(|e| e.into_inner()))
            }
            Access::Write => {
                HELD_EXCLUSIVE.with(|h| h.set(h.get() | bit));
                Held::Exclusive(lock.write().unwrap_or_else(|e| e.into_inner()))
            }
        };
        guard.held.push((stripe, held));
    }
    Ok(guard)
}
