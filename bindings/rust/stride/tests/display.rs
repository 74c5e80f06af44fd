//! Display and Debug print values as NumPy prints arrays, through the
//! library's st_tensor_format. The expected strings are NumPy 1.24's
//! `str(a)` and its `array2string(a, prefix="Tensor(", suffix=",")` inside
//! `Tensor(..., dtype=...)`, for the same arrays (bools as Rust writes them).

use stride::{DType, Device, Tensor};

fn tensor(values: Vec<f64>, shape: &[i64], dtype: DType) -> Tensor {
    Tensor::from_vec(values, shape).unwrap().to(dtype, Device::CPU, stride::MemoryFormat::Preserve).unwrap()
}

fn check(t: &Tensor, display: &str, debug: &str) {
    assert_eq!(format!("{}", t), display);
    assert_eq!(format!("{:?}", t), debug);
}

#[test]
fn floats() {
    let a = tensor((0..12).map(f64::from).collect(), &[3, 4], DType::Float32);
    check(&a, "[[ 0.  1.  2.  3.]\n [ 4.  5.  6.  7.]\n [ 8.  9. 10. 11.]]",
          "Tensor([[ 0.  1.  2.  3.]\n        [ 4.  5.  6.  7.]\n        [ 8.  9. 10. 11.]], dtype=float32)");
    check(&tensor(vec![0.1, 1.25, -3.5], &[3], DType::Float64), "[ 0.1   1.25 -3.5 ]",
          "Tensor([ 0.1   1.25 -3.5 ], dtype=float64)");
    check(&tensor(vec![1e8, 1.5], &[2], DType::Float64), "[1.0e+08 1.5e+00]", "Tensor([1.0e+08 1.5e+00], dtype=float64)");
    check(&tensor(vec![f64::NAN, 1.5, f64::NEG_INFINITY, f64::INFINITY], &[4], DType::Float64), "[ nan  1.5 -inf  inf]",
          "Tensor([ nan  1.5 -inf  inf], dtype=float64)");
    check(&tensor(vec![1.0 / 3.0, -2e-5, 7.0, 0.0], &[2, 2], DType::Float32),
          "[[ 3.3333334e-01 -1.9999999e-05]\n [ 7.0000000e+00  0.0000000e+00]]",
          "Tensor([[ 3.3333334e-01 -1.9999999e-05]\n        [ 7.0000000e+00  0.0000000e+00]], dtype=float32)");
}

#[test]
fn half_precision_shows_its_own_shortest_digits_and_bfloat16_its_float32_value() {
    check(&tensor(vec![0.1, 65504.0, -2.5], &[3], DType::Float16), "[ 1.00e-01  6.55e+04 -2.50e+00]",
          "Tensor([ 1.00e-01  6.55e+04 -2.50e+00], dtype=float16)");
    // 0.1 is 0.10009765625 in bfloat16 and 0.2 is 0.2001953125: NumPy's float32 array of those.
    assert_eq!(format!("{}", tensor(vec![0.1, 0.2, 1.5], &[3], DType::BFloat16)), "[0.10009766 0.20019531 1.5       ]");
}

#[test]
fn long_rows_wrap_and_large_tensors_summarize() {
    let t = tensor((0..100).map(f64::from).collect(), &[100], DType::Float64);
    assert_eq!(format!("{:?}", t).lines().nth(1).unwrap(),
               "        16. 17. 18. 19. 20. 21. 22. 23. 24. 25. 26. 27. 28. 29. 30. 31.");
    assert_eq!(format!("{}", t).lines().nth(1).unwrap(),
               " 18. 19. 20. 21. 22. 23. 24. 25. 26. 27. 28. 29. 30. 31. 32. 33. 34. 35.");
    let big = Tensor::from_vec((-1000..1000i64).collect(), &[2, 1000]).unwrap();
    check(&big, "[[-1000  -999  -998 ...    -3    -2    -1]\n [    0     1     2 ...   997   998   999]]",
          "Tensor([[-1000  -999  -998 ...    -3    -2    -1]\n        [    0     1     2 ...   997   998   999]], dtype=int64)");
    let flipped = big.flip(1).unwrap();
    assert!(format!("{}", flipped).starts_with("[[   -1    -2    -3 ...  -998  -999 -1000]"));
}

#[test]
fn other_dtypes_and_shapes() {
    let c = Tensor::from_vec(vec![[1.0f32, 2.0], [3.5, -1.0], [-0.0, -0.25]], &[3]).unwrap();
    check(&c, "[ 1. +2.j    3.5-1.j   -0. -0.25j]", "Tensor([ 1. +2.j    3.5-1.j   -0. -0.25j], dtype=complex64)");
    let b = Tensor::from_vec(vec![true, false, true], &[3]).unwrap();
    check(&b, "[ true false  true]", "Tensor([ true false  true], dtype=bool)");
    let u = Tensor::from_vec(vec![3u8, 200], &[2, 1]).unwrap();
    check(&u, "[[  3]\n [200]]", "Tensor([[  3]\n        [200]], dtype=uint8)");
    check(&tensor(vec![3.5], &[], DType::Float32), "3.5", "Tensor(3.5, dtype=float32)");
    check(&tensor(vec![2.0], &[], DType::Float64), "2.0", "Tensor(2., dtype=float64)");
    let e = Tensor::empty(&[2, 0], DType::Float32, Device::CPU).unwrap();
    check(&e, "[]", "Tensor([], shape=[2, 0], dtype=float32)");
}
