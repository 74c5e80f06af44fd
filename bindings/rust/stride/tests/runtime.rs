//! Host job system, tracing and CUDA queries: process-wide settings, kept
//! in their own test binary.

use std::sync::{Arc, Mutex};

use stride::{DType, Device, MemoryFormat, Status, Tensor};

#[test]
fn host_job_system_runs_the_kernels() {
    let calls = Arc::new(Mutex::new(Vec::new()));
    let seen = calls.clone();
    stride::set_num_threads(2).unwrap();
    stride::set_parallel_for(Some(Box::new(move |n, grain, run| {
        seen.lock().unwrap().push((n, grain));
        // Two "workers": halves of the range on two scoped threads, at least `grain` each.
        let mid = if n >= 2 * grain { n / 2 } else { n };
        std::thread::scope(|s| {
            s.spawn(|| run(0, mid));
            if mid < n {
                s.spawn(|| run(mid, n));
            }
        });
    })))
    .unwrap();
    let src = Tensor::from_vec((0..1 << 20).map(|x| x as f32).collect(), &[1024, 1024]).unwrap();
    let dst = Tensor::empty(&[1024, 1024], DType::Float64, Device::CPU).unwrap();
    let r = dst.copy_from(&src.transpose(0, 1).unwrap(), false);
    stride::set_parallel_for(None).unwrap();
    r.unwrap();
    assert!(!calls.lock().unwrap().is_empty(), "the library never used the job system");
    assert_eq!(dst.get::<f64>(&[3, 5]).unwrap(), 5.0 * 1024.0 + 3.0);
    assert_eq!(dst.get::<f64>(&[1023, 0]).unwrap(), 1023.0);
}

#[test]
fn trace_sees_operators() {
    let names = Arc::new(Mutex::new(Vec::new()));
    let sink = names.clone();
    stride::set_trace_callback(Some(Box::new(move |name, ns| {
        assert!(ns >= 0);
        sink.lock().unwrap().push(name.to_string());
    })))
    .unwrap();
    let t = Tensor::empty(&[4, 4], DType::Float32, Device::CPU).unwrap();
    let c = t.transpose(0, 1).unwrap().clone_data(MemoryFormat::Preserve);
    stride::set_trace_callback(None).unwrap();
    c.unwrap();
    let names = names.lock().unwrap();
    assert!(names.contains(&"clone".to_string()), "{:?}", names);
    assert!(names.contains(&"copy_".to_string()), "{:?}", names);
}

#[test]
fn cuda_queries() {
    let n = stride::cuda_device_count().unwrap();
    assert!(n >= 0);
    if n == 0 {
        assert_eq!(stride::cuda_synchronize(0).unwrap_err().status, Status::DeviceUnavailable);
        assert_eq!(stride::cuda_empty_cache(0).unwrap_err().status, Status::DeviceUnavailable);
    } else {
        stride::cuda_synchronize(0).unwrap();
        stride::cuda_empty_cache(0).unwrap();
    }
    assert_eq!(stride::cuda_empty_cache(-1).unwrap_err().status, Status::InvalidArgument);
}

#[test]
fn a_trace_callback_may_read_but_not_write_what_the_traced_call_reads() {
    // contiguous() of a transposed tensor copies it: the traced calls read `src`.
    let src = Tensor::from_vec((0..8).map(|x| x as f32).collect(), &[2, 4]).unwrap().transpose(0, 1).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (inside, sink, me) = (src.clone(), seen.clone(), std::thread::current().id());
    stride::set_trace_callback(Some(Box::new(move |name, _| {
        if std::thread::current().id() != me {
            return; // another test's call
        }
        let read = inside.to_vec::<f32>().map(|v| v.len()).map_err(|e| e.status);
        let write = inside.fill(-1.0).map_err(|e| e.status);
        sink.lock().unwrap().push((name.to_string(), read, write));
    })))
    .unwrap();
    let c = src.contiguous(MemoryFormat::Contiguous);
    stride::set_trace_callback(None).unwrap();
    let c = c.unwrap();
    let seen = seen.lock().unwrap();
    assert!(!seen.is_empty(), "no operator was traced");
    for (name, read, write) in seen.iter() {
        assert_eq!((read, write), (&Ok(8), &Err(Status::InvalidArgument)), "inside {}", name);
    }
    assert_eq!(c.to_vec::<f32>().unwrap(), vec![0., 4., 1., 5., 2., 6., 3., 7.]);
    assert_eq!(src.to_vec::<f32>().unwrap(), vec![0., 4., 1., 5., 2., 6., 3., 7.]);
}
