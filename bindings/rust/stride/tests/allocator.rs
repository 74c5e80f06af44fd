//! A Rust CPU allocator for the library (its own test binary: the
//! allocator is process-wide).
//!
//! `CpuAllocator` is an `unsafe trait`: an implementation that hands out
//! fewer bytes than asked no longer compiles in safe code (the
//! `compile_fail` example in its documentation), and one that hands out a
//! misaligned block is caught by the binding.

use std::alloc::{alloc, dealloc, Layout};
use std::sync::{Arc, Mutex};

use stride::{CpuAllocator, DType, Device, Status, Tensor};

type Log = Arc<Mutex<Vec<(&'static str, usize, usize)>>>;

struct Tracking {
    log: Log,
}

// Safety: blocks of `nbytes` at `alignment` from the global allocator, freed once with the same layout.
unsafe impl CpuAllocator for Tracking {
    fn alloc(&self, nbytes: usize, alignment: usize) -> *mut u8 {
        let p = unsafe { alloc(Layout::from_size_align(nbytes, alignment).unwrap()) };
        self.log.lock().unwrap().push(("alloc", p as usize, nbytes));
        p
    }

    fn free(&self, ptr: *mut u8, nbytes: usize) {
        self.log.lock().unwrap().push(("free", ptr as usize, nbytes));
        unsafe { dealloc(ptr, Layout::from_size_align(nbytes, 64).unwrap()) }
    }
}

struct Failing;

// Safety: never hands out memory.
unsafe impl CpuAllocator for Failing {
    fn alloc(&self, _: usize, _: usize) -> *mut u8 {
        std::ptr::null_mut()
    }
    fn free(&self, _: *mut u8, _: usize) {}
}

/// Hands out blocks one byte past an aligned address: large enough, wrongly aligned.
struct Misaligned {
    log: Log,
}

// Safety: the blocks are nbytes + 1 long, so each holds nbytes from its odd start; freed once.
unsafe impl CpuAllocator for Misaligned {
    fn alloc(&self, nbytes: usize, alignment: usize) -> *mut u8 {
        let p = unsafe { alloc(Layout::from_size_align(nbytes + 1, alignment).unwrap()).add(1) };
        self.log.lock().unwrap().push(("alloc", p as usize, nbytes));
        p
    }

    fn free(&self, ptr: *mut u8, nbytes: usize) {
        self.log.lock().unwrap().push(("free", ptr as usize, nbytes));
        unsafe { dealloc(ptr.sub(1), Layout::from_size_align(nbytes + 1, 64).unwrap()) }
    }
}

// One test: the allocator is process-wide, and the harness runs tests on several threads.
#[test]
fn allocations_go_through_the_host() {
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    stride::set_cpu_allocator(Box::new(Tracking { log: log.clone() })).unwrap();
    let t = Tensor::empty(&[10, 10], DType::Float32, Device::CPU).unwrap();
    let p = t.data_ptr() as usize;
    assert_eq!(*log.lock().unwrap(), vec![("alloc", p, 400)]);
    assert_eq!(p % 64, 0);
    stride::reset_cpu_allocator().unwrap(); // t is still freed by the allocator it came from
    drop(t);
    assert_eq!(log.lock().unwrap()[1], ("free", p, 400));
    drop(Tensor::empty(&[4], DType::Float32, Device::CPU).unwrap());
    assert_eq!(log.lock().unwrap().len(), 2);

    stride::set_cpu_allocator(Box::new(Failing)).unwrap();
    let e = Tensor::empty(&[4], DType::Float32, Device::CPU).unwrap_err();
    stride::reset_cpu_allocator().unwrap();
    assert_eq!(e.status, Status::OutOfMemory);

    // A misaligned block is given straight back and the allocation fails.
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    stride::set_cpu_allocator(Box::new(Misaligned { log: log.clone() })).unwrap();
    let e = Tensor::empty(&[16], DType::Float32, Device::CPU).unwrap_err();
    stride::reset_cpu_allocator().unwrap();
    assert_eq!(e.status, Status::OutOfMemory);
    let log = log.lock().unwrap();
    assert_eq!(log.len(), 2, "{:?}", log);
    assert_eq!((log[0].0, log[1].0), ("alloc", "free"));
    assert_eq!((log[0].1, log[0].2), (log[1].1, log[1].2), "the block handed back is the one handed out");
    assert_eq!(log[0].1 % 64, 1);
}
