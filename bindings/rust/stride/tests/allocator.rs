//! A Rust CPU allocator for the library (its own test binary: the
//! allocator is process-wide).

use std::alloc::{alloc, dealloc, Layout};
use std::sync::{Arc, Mutex};

use stride::{CpuAllocator, DType, Device, Status, Tensor};

struct Tracking {
    log: Arc<Mutex<Vec<(&'static str, usize, usize)>>>,
}

impl CpuAllocator for Tracking {
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

impl CpuAllocator for Failing {
    fn alloc(&self, _: usize, _: usize) -> *mut u8 {
        std::ptr::null_mut()
    }
    fn free(&self, _: *mut u8, _: usize) {}
}

#[test]
fn allocations_go_through_the_host() {
    let log = Arc::new(Mutex::new(Vec::new()));
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
}
