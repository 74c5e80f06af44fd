//! DLPack export and import through the safe crate, with a Rust producer.

use std::os::raw::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};

use stride::sys::dlpack::*;
use stride::{DType, Status, Tensor};

/// A producer's tensor: owns its buffer, shape and strides, counts deleter calls.
struct Producer {
    managed: DLManagedTensorVersioned,
    classic: DLManagedTensor,
    buffer: Vec<f32>,
    shape: Vec<i64>,
    strides: Vec<i64>,
    calls: AtomicUsize,
}

unsafe extern "C" fn versioned_deleter(m: *mut DLManagedTensorVersioned) {
    (*((*m).manager_ctx as *const Producer)).calls.fetch_add(1, Ordering::SeqCst);
}

unsafe extern "C" fn classic_deleter(m: *mut DLManagedTensor) {
    (*((*m).manager_ctx as *const Producer)).calls.fetch_add(1, Ordering::SeqCst);
}

fn producer(buffer: Vec<f32>, shape: &[i64], strides: &[i64], byte_offset: u64, flags: u64) -> Box<Producer> {
    let mut p = Box::new(Producer {
        managed: unsafe { std::mem::zeroed() },
        classic: unsafe { std::mem::zeroed() },
        buffer,
        shape: shape.to_vec(),
        strides: strides.to_vec(),
        calls: AtomicUsize::new(0),
    });
    let ctx = &*p as *const Producer as *mut c_void;
    let t = DLTensor {
        data: p.buffer.as_mut_ptr() as *mut c_void,
        device: DLDevice { device_type: kDLCPU, device_id: 0 },
        ndim: shape.len() as i32,
        dtype: DLDataType { code: kDLFloat, bits: 32, lanes: 1 },
        shape: p.shape.as_mut_ptr(),
        strides: p.strides.as_mut_ptr(),
        byte_offset,
    };
    p.managed = DLManagedTensorVersioned {
        version: DLPackVersion { major: 1, minor: 0 },
        manager_ctx: ctx,
        deleter: Some(versioned_deleter),
        flags,
        dl_tensor: t,
    };
    p.classic = DLManagedTensor { dl_tensor: t, manager_ctx: ctx, deleter: Some(classic_deleter) };
    p
}

#[test]
fn export_keeps_layout_and_storage() {
    let t = Tensor::from_vec((0..12).map(|x| x as f32).collect(), &[3, 4]).unwrap();
    let v = t.transpose(0, 1).unwrap().flip(1).unwrap(); // strides (1, -4)
    let m = v.to_dlpack().unwrap();
    drop(t);
    drop(v);
    unsafe {
        let dl = &(*m).dl_tensor;
        assert_eq!(dl.ndim, 2);
        assert_eq!(std::slice::from_raw_parts(dl.shape, 2), &[4, 3]);
        assert_eq!(std::slice::from_raw_parts(dl.strides, 2), &[1, -4]);
        assert_eq!(dl.dtype, DLDataType { code: kDLFloat, bits: 32, lanes: 1 });
        assert_eq!(dl.device, DLDevice { device_type: kDLCPU, device_id: 0 });
        assert_eq!(dl.byte_offset, 0);
        // Element (i, j) is original (2 - j, i) = 4 (2 - j) + i; the memory is still there.
        let first = dl.data as *const f32;
        assert_eq!(*first, 8.0);
        assert_eq!(*first.offset(-4), 4.0);
        ((*m).deleter.unwrap())(m);
    }
}

#[test]
fn versioned_export_header() {
    let t = Tensor::empty(&[2], DType::Bool, stride::Device::CPU).unwrap();
    let m = t.to_dlpack_versioned().unwrap();
    unsafe {
        assert_eq!((*m).version, DLPackVersion { major: 1, minor: 0 });
        assert_eq!((*m).flags, 0);
        assert_eq!((*m).dl_tensor.dtype, DLDataType { code: kDLBool, bits: 8, lanes: 1 });
        ((*m).deleter.unwrap())(m);
    }
    assert!(!t.is_read_only());
}

#[test]
fn import_with_byte_offset_and_negative_strides() {
    // Columns reversed: element (i, j) is buffer[2 + 3i - j], reached by byte_offset 8.
    let mut p = producer((0..6).map(|x| x as f32).collect(), &[2, 3], &[3, -1], 8, 0);
    let t = unsafe { Tensor::from_dlpack_versioned(&mut p.managed).unwrap() };
    assert_eq!(t.strides(), vec![3, -1]);
    assert_eq!(t.storage_offset(), 2);
    assert_eq!(t.data_ptr() as *const f32, unsafe { p.buffer.as_ptr().add(2) });
    assert_eq!(t.to_vec::<f32>().unwrap(), vec![2.0, 1.0, 0.0, 5.0, 4.0, 3.0]);
    let row = t.select(0, 1).unwrap();
    drop(t);
    assert_eq!(p.calls.load(Ordering::SeqCst), 0);
    drop(row);
    assert_eq!(p.calls.load(Ordering::SeqCst), 1);
}

#[test]
fn failed_import_leaves_ownership() {
    let mut p = producer(vec![0.0; 4], &[4], &[1], 0, 0);
    p.classic.dl_tensor.dtype.lanes = 2;
    let e = unsafe { Tensor::from_dlpack(&mut p.classic).unwrap_err() };
    assert_eq!(e.status, Status::UnsupportedDtype);
    p.managed.version.major = 2;
    let e = unsafe { Tensor::from_dlpack_versioned(&mut p.managed).unwrap_err() };
    assert_eq!(e.status, Status::InvalidArgument);
    assert!(e.message.contains("version"), "{}", e.message);
    assert_eq!(p.calls.load(Ordering::SeqCst), 0);
}

#[test]
fn read_only_import() {
    let mut p = producer(vec![1.0, 2.0], &[2], &[1], 0, DLPACK_FLAG_BITMASK_READ_ONLY);
    let t = unsafe { Tensor::from_dlpack_versioned(&mut p.managed).unwrap() };
    assert!(t.is_read_only());
    assert!(t.flip(0).unwrap().is_read_only());
    assert_eq!(t.set::<f32>(&[0], 5.0).unwrap_err().status, Status::ReadOnly);
    assert_eq!(p.buffer, vec![1.0, 2.0]);
    drop(t);
    assert_eq!(p.calls.load(Ordering::SeqCst), 1);
}

#[test]
fn round_trip_through_the_library() {
    let t = Tensor::from_vec(vec![1i64, 2, 3, 4], &[2, 2]).unwrap();
    let v = t.transpose(0, 1).unwrap();
    let back = unsafe { Tensor::from_dlpack(v.to_dlpack().unwrap()).unwrap() };
    assert_eq!((back.shape(), back.strides(), back.data_ptr()), (v.shape(), v.strides(), v.data_ptr()));
    assert_eq!(back.dtype(), DType::Int64);
    assert_eq!(back.to_vec::<i64>().unwrap(), vec![1, 3, 2, 4]);
}
