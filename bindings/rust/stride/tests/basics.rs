//! Tensors: creation, metadata, views, element access, errors, ownership.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use stride::{sys, DType, Device, MemoryFormat, Status, Tensor};

fn arange_f32(n: usize) -> Vec<f32> {
    (0..n).map(|x| x as f32).collect()
}

/// Asserts `t` holds `expected(index)` at every index (row-major walk).
fn expect_elements(t: &Tensor, expected: impl Fn(&[i64]) -> f32) {
    let shape = t.shape();
    let got: Vec<f32> = t.to_vec().unwrap();
    let mut index = vec![0i64; shape.len()];
    for value in got {
        assert_eq!(value, expected(&index), "at {:?}", index);
        for d in (0..shape.len()).rev() {
            index[d] += 1;
            if index[d] < shape[d] {
                break;
            }
            index[d] = 0;
        }
    }
}

#[test]
fn empty_is_row_major() {
    let t = Tensor::empty(&[2, 3, 4], DType::Int16, Device::CPU).unwrap();
    assert_eq!(t.shape(), vec![2, 3, 4]);
    assert_eq!(t.strides(), vec![12, 4, 1]);
    assert_eq!(t.ndim(), 3);
    assert_eq!(t.dtype(), DType::Int16);
    assert_eq!(t.device(), Device::CPU);
    assert_eq!(t.numel(), 24);
    assert_eq!(t.storage_offset(), 0);
    assert!(t.is_contiguous(MemoryFormat::Contiguous));
    let s = Tensor::empty(&[], DType::Complex128, Device::CPU).unwrap();
    assert_eq!((s.ndim(), s.numel()), (0, 1));
}

#[test]
fn strided_and_like() {
    let t = Tensor::empty_strided(&[2, 3], &[1, 2], DType::Float64, Device::CPU).unwrap();
    assert_eq!(t.strides(), vec![1, 2]);
    assert!(!t.is_contiguous(MemoryFormat::Contiguous));
    assert!(t.is_contiguous(MemoryFormat::Preserve));
    assert_eq!(t.empty_like(MemoryFormat::Preserve).unwrap().strides(), vec![1, 2]);
    let nchw = Tensor::empty(&[2, 3, 4, 5], DType::Float32, Device::CPU).unwrap();
    let cl = nchw.empty_like(MemoryFormat::ChannelsLast).unwrap();
    assert_eq!(cl.strides(), vec![60, 1, 15, 3]);
    assert!(cl.is_contiguous(MemoryFormat::ChannelsLast));
}

#[test]
fn every_dtype() {
    let sizes = [1usize, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16, 2, 4, 8, 1, 1, 1, 1, 1, 1];
    for (dt, size) in DType::ALL.iter().zip(sizes) {
        let t = Tensor::empty(&[3], *dt, Device::CPU).unwrap();
        assert_eq!(t.dtype(), *dt);
        assert_eq!(dt.itemsize(), size);
    }
    assert_eq!(DType::BFloat16.name(), "bfloat16");
    assert_eq!(DType::UInt64.name(), "uint64");
    assert_eq!(DType::Float8E4M3Fn.name(), "float8_e4m3fn");
    assert_eq!(DType::Float8E5M2.name(), "float8_e5m2");
    for dt in DType::ALL {
        assert_eq!(DType::from_code(dt as i32), Some(dt));
    }
    assert_eq!(DType::ALL.len(), 21);
    assert_eq!(DType::from_code(21), None);
}

#[test]
fn from_vec_zero_copy() {
    let data = arange_f32(12);
    let ptr = data.as_ptr();
    let t = Tensor::from_vec(data, &[3, 4]).unwrap();
    assert_eq!(t.data_ptr() as *const f32, ptr);
    assert_eq!(t.strides(), vec![4, 1]);
    expect_elements(&t, |i| (i[0] * 4 + i[1]) as f32);
    let e = Tensor::from_vec(arange_f32(5), &[2, 3]).unwrap_err();
    assert_eq!(e.status, Status::ShapeMismatch); // as Go's FromSlice
    assert!(e.message.contains("5 values for shape [2, 3]"), "{}", e.message);
    assert_eq!(Tensor::from_vec(arange_f32(7), &[2, 3]).unwrap_err().status, Status::ShapeMismatch);
}

#[test]
fn from_vec_negative_strides() {
    // Element (i, j) is data[9 - 3i + j]: rows reversed.
    let t = Tensor::from_vec_strided(arange_f32(12), 9, &[4, 3], &[-3, 1]).unwrap();
    assert_eq!(t.strides(), vec![-3, 1]);
    assert_eq!(t.storage_offset(), 9);
    expect_elements(&t, |i| (9 - 3 * i[0] + i[1]) as f32);
    let e = Tensor::from_vec_strided(arange_f32(12), 8, &[4, 3], &[-3, 1]).unwrap_err();
    assert_eq!(e.status, Status::OutOfBounds);
}

#[test]
fn from_vec_strided_checks_the_offset_of_an_empty_layout() {
    // No elements, so no element to check; the address of element (0, 0)
    // would still lie far past the Vec, which a safe function must not form.
    let e = Tensor::from_vec_strided(arange_f32(4), 1000, &[0, 3], &[3, 1]).unwrap_err();
    assert_eq!(e.status, Status::OutOfBounds);
    assert!(e.message.starts_with("Tensor::from_vec_strided: "), "{}", e.message);
    // One past the end is an address Rust allows: an empty tensor there is fine.
    let t = Tensor::from_vec_strided(arange_f32(4), 4, &[0, 3], &[3, 1]).unwrap();
    assert_eq!((t.shape(), t.numel()), (vec![0, 3], 0));
    assert_eq!(t.to_vec::<f32>().unwrap(), Vec::<f32>::new());
    // Every argument is checked before the address: a bad one with a bad offset names the argument.
    let e = Tensor::from_vec_strided(arange_f32(4), 1000, &[0, 3], &[3]).unwrap_err();
    assert_eq!((e.status, e.message.as_str()), (Status::InvalidArgument, "Tensor::from_vec_strided: 2 sizes but 1 strides"));
    let e = Tensor::from_vec_strided(arange_f32(4), 1000, &[0; 26], &[0; 26]).unwrap_err();
    assert_eq!(e.status, Status::InvalidArgument);
}

#[test]
fn views_against_a_reference_walk() {
    let t = Tensor::from_vec(arange_f32(24), &[2, 3, 4]).unwrap();
    let at = |i: i64, j: i64, k: i64| (i * 12 + j * 4 + k) as f32;
    expect_elements(&t.permute(&[2, 0, 1]).unwrap(), |x| at(x[1], x[2], x[0]));
    expect_elements(&t.transpose(0, 2).unwrap(), |x| at(x[2], x[1], x[0]));
    expect_elements(&t.slice(2, 1, i64::MAX, 2).unwrap(), |x| at(x[0], x[1], 1 + 2 * x[2]));
    expect_elements(&t.select(1, -1).unwrap(), |x| at(x[0], 2, x[1]));
    expect_elements(&t.flip(2).unwrap(), |x| at(x[0], x[1], 3 - x[2]));
    expect_elements(&t.view(&[6, -1]).unwrap(), |x| (x[0] * 4 + x[1]) as f32);
    expect_elements(&t.as_strided(&[3, 2], &[1, 5], 2).unwrap(), |x| (2 + x[0] + 5 * x[1]) as f32);
    let col = t.select(0, 0).unwrap().select(1, 0).unwrap().unsqueeze(1).unwrap(); // (3, 1)
    let wide = col.expand(&[2, 3, 5]).unwrap();
    assert_eq!(wide.strides()[2], 0);
    expect_elements(&wide, |x| at(0, x[1], 0));
    assert_eq!(col.squeeze(1).unwrap().shape(), vec![3]);
    assert_eq!(t.flip(1).unwrap().strides(), vec![12, -4, 1]);
}

#[test]
fn element_access() {
    let t = Tensor::from_vec(vec![1i32, 2, 3, 4, 5, 6], &[2, 3]).unwrap();
    assert_eq!(t.get::<i32>(&[1, -1]).unwrap(), 6);
    t.transpose(0, 1).unwrap().set::<i32>(&[2, 0], 30).unwrap();
    assert_eq!(t.get::<i32>(&[0, 2]).unwrap(), 30);
    assert_eq!(t.get::<f32>(&[0, 0]).unwrap_err().status, Status::InvalidArgument);
    let e = t.get::<i32>(&[2, 0]).unwrap_err();
    assert_eq!(e.status, Status::OutOfBounds);
    assert_eq!(e.message, "Tensor::get: index 2 is out of range for dim 0 of size 2");
    assert_eq!(t.set::<i32>(&[0], 1).unwrap_err().message, "Tensor::set: 1 indices for a tensor of 2 dims");
    let b = Tensor::from_vec(vec![0u8, 1, 7], &[3]).unwrap();
    let bools = Tensor::from_vec(vec![true, false], &[2]).unwrap();
    assert_eq!(bools.to_vec::<bool>().unwrap(), vec![true, false]);
    assert_eq!(b.to_vec::<u8>().unwrap(), vec![0, 1, 7]);
    assert_eq!(b.flip(0).unwrap().to_vec::<u8>().unwrap(), vec![7, 1, 0]);
}

#[test]
fn errors_carry_status_and_message() {
    let t = Tensor::empty(&[2, 3], DType::Float32, Device::CPU).unwrap();
    let e = t.select(0, 5).unwrap_err();
    assert_eq!(e.status, Status::OutOfBounds);
    assert_eq!(e.code(), 8);
    // The method the caller called, then the library's message less its C function's name.
    assert_eq!(e.message, "Tensor::select: index = 5 is out of range for dim 0 of size 2");
    assert_eq!(e.to_string(), "ST_ERROR_OUT_OF_BOUNDS: Tensor::select: index = 5 is out of range for dim 0 of size 2");
    assert!(t.transpose(0, 7).unwrap_err().message.starts_with("Tensor::transpose: "));
    assert!(stride::set_num_threads(0).unwrap_err().message.starts_with("set_num_threads: "));
    assert_eq!(t.transpose(0, 7).unwrap_err().status, Status::InvalidArgument);
    assert_eq!(t.view(&[4]).unwrap_err().status, Status::ShapeMismatch);
    assert_eq!(Tensor::empty(&[-1], DType::Float32, Device::CPU).unwrap_err().status, Status::InvalidArgument);
    assert_eq!(Tensor::empty(&[1 << 62, 1 << 62], DType::Float32, Device::CPU).unwrap_err().status,
               Status::OutOfMemory);
    assert_eq!(t.as_strided(&[2, 3], &[3, 1], 1).unwrap_err().status, Status::OutOfBounds);
    assert_eq!(Tensor::empty(&[0; 26], DType::Float32, Device::CPU).unwrap_err().status, Status::InvalidArgument);
    let missing = stride::cuda_device_count().unwrap(); // one past the last GPU, or 0 without any
    let dev = Tensor::empty(&[2], DType::Float32, Device::cuda(missing));
    assert_eq!(dev.unwrap_err().status, Status::DeviceUnavailable);
}

#[test]
fn clone_retains_and_drop_releases() {
    let t = Tensor::empty(&[2], DType::Float32, Device::CPU).unwrap();
    let raw = t.raw_handle();
    let c = t.clone();
    assert_eq!(c.raw_handle(), raw);
    drop(t);
    assert_eq!(c.shape(), vec![2]);
    drop(c);
    let mut n = 0;
    assert_eq!(unsafe { sys::st_tensor_ndim(raw, &mut n) }, sys::ST_ERROR_INVALID_HANDLE);
}

#[test]
fn raw_memory_deleter_runs_once_at_last_release() {
    let calls = Arc::new(AtomicUsize::new(0));
    let mut data = vec![1.0f64, 2.0, 3.0];
    let counter = calls.clone();
    let t = unsafe {
        Tensor::from_raw(data.as_mut_ptr() as *mut _, &[3], None, DType::Float64, Device::CPU,
                         Some(Box::new(move || {
                             counter.fetch_add(1, Ordering::SeqCst);
                         })))
        .unwrap()
    };
    let v = t.flip(0).unwrap();
    drop(t);
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    assert_eq!(v.get::<f64>(&[0]).unwrap(), 3.0);
    drop(v);
    assert_eq!(calls.load(Ordering::SeqCst), 1);

    // On failure the deleter is dropped without running.
    let counter = calls.clone();
    let e = unsafe {
        Tensor::from_raw(std::ptr::null_mut(), &[3], None, DType::Float64, Device::CPU,
                         Some(Box::new(move || {
                             counter.fetch_add(1, Ordering::SeqCst);
                         })))
        .unwrap_err()
    };
    assert_eq!(e.status, Status::InvalidArgument);
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[test]
fn tensors_cross_threads() {
    let t = Tensor::from_vec(arange_f32(100), &[10, 10]).unwrap();
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let mine = t.clone();
            std::thread::spawn(move || mine.select(0, i).unwrap().get::<f32>(&[i]).unwrap())
        })
        .collect();
    let got: Vec<f32> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(got, vec![0.0, 11.0, 22.0, 33.0]);
}

#[test]
fn version_matches_header() {
    let (major, minor, patch) = stride::version();
    assert_eq!((major, minor, patch), (sys::ST_VERSION_MAJOR, sys::ST_VERSION_MINOR, sys::ST_VERSION_PATCH));
    assert_eq!(stride::version_string(), format!("{}.{}.{}", major, minor, patch));
}

#[test]
fn thread_count() {
    let before = stride::num_threads();
    stride::set_num_threads(3).unwrap();
    assert_eq!(stride::num_threads(), 3);
    assert_eq!(stride::set_num_threads(0).unwrap_err().status, Status::InvalidArgument);
    stride::set_num_threads(before).unwrap();
}
