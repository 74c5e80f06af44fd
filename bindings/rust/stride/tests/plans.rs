//! CopyPlan: a copy prepared once and run on new data; expected values by hand.

use stride::{live_plan_count, CopyPlan, DType, Device, Status, Tensor};

fn arange(n: i64, shape: &[i64]) -> Tensor {
    Tensor::from_vec((0..n).map(|x| x as f32).collect(), shape).unwrap()
}

#[test]
fn a_plan_transposes_and_runs_on_new_data() {
    let src = arange(6, &[2, 3]).transpose(0, 1).unwrap();
    let dst = Tensor::empty(&[3, 2], DType::Float32, Device::CPU).unwrap();
    let plan = CopyPlan::new(&dst, &src, false).unwrap();
    plan.execute(&dst, &src, false).unwrap();
    assert_eq!(dst.to_vec::<f32>().unwrap(), vec![0., 3., 1., 4., 2., 5.]);

    // Raw memory laid out as the plan's tensors: src is column-major.
    let raw_src: Vec<f32> = (10..16).map(|x| x as f32).collect();
    let mut raw_dst = vec![0f32; 6];
    unsafe {
        plan.execute_raw(raw_dst.as_mut_ptr().cast(), raw_src.as_ptr().cast(), false).unwrap();
    }
    assert_eq!(raw_dst, vec![10., 13., 11., 14., 12., 15.]);
}

#[test]
fn a_measured_plan_leaves_the_copy_and_refuses_other_layouts() {
    let src = Tensor::from_vec(vec![1u8, 2, 3], &[3]).unwrap();
    let dst = Tensor::empty(&[2, 3], DType::Float32, Device::CPU).unwrap();
    let plan = CopyPlan::new(&dst, &src, true).unwrap();
    assert_eq!(dst.to_vec::<f32>().unwrap(), vec![1., 2., 3., 1., 2., 3.]);
    let wide = Tensor::empty(&[2, 4], DType::Float32, Device::CPU).unwrap();
    assert_eq!(plan.execute(&wide, &src, false).unwrap_err().status, Status::InvalidArgument);
    let err = unsafe { plan.execute_raw(std::ptr::null_mut(), src.data_ptr(), false) }.unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
    let short = Tensor::empty(&[4], DType::UInt8, Device::CPU).unwrap();
    assert_eq!(CopyPlan::new(&dst, &short, false).unwrap_err().status, Status::ShapeMismatch);
}

#[test]
fn dropping_a_plan_releases_it() {
    let src = arange(4, &[4]);
    let dst = Tensor::empty(&[4], DType::Float32, Device::CPU).unwrap();
    let before = live_plan_count().unwrap();
    {
        let plan = CopyPlan::new(&dst, &src, false).unwrap();
        assert_ne!(plan.raw_handle().id, 0);
        assert!(live_plan_count().unwrap() >= before + 1);
    }
    // Other tests may hold plans meanwhile; this one's is gone.
    assert!(live_plan_count().unwrap() <= before + 2);
}
