//! contiguous, clone, copy, to, fill, zero, reshape; expected values are
//! computed by hand.

use stride::{DType, Device, MemoryFormat, ScaleShift, Status, Tensor};

fn arange(n: i64, shape: &[i64]) -> Tensor {
    Tensor::from_vec((0..n).map(|x| x as f32).collect(), shape).unwrap()
}

#[test]
fn contiguous() {
    let t = arange(12, &[3, 4]).transpose(0, 1).unwrap();
    let c = t.contiguous(MemoryFormat::Contiguous).unwrap();
    assert_eq!(c.strides(), vec![3, 1]);
    assert_ne!(c.data_ptr(), t.data_ptr());
    assert_eq!(c.to_vec::<f32>().unwrap(), vec![0., 4., 8., 1., 5., 9., 2., 6., 10., 3., 7., 11.]);
    let already = c.contiguous(MemoryFormat::Contiguous).unwrap();
    assert_eq!(already.raw_handle(), c.raw_handle());
    assert_eq!(c.contiguous(MemoryFormat::Preserve).unwrap_err().status, Status::InvalidArgument);
}

#[test]
fn clone_data() {
    let t = arange(6, &[2, 3]).flip(1).unwrap();
    let c = t.clone_data(MemoryFormat::Preserve).unwrap();
    assert_eq!(c.strides(), vec![3, 1]); // a negative stride counts by its absolute value
    assert_eq!(c.to_vec::<f32>().unwrap(), vec![2., 1., 0., 5., 4., 3.]);
    let p = arange(24, &[2, 3, 4]).permute(&[2, 0, 1]).unwrap();
    assert_eq!(p.clone_data(MemoryFormat::Preserve).unwrap().strides(), p.strides());
}

#[test]
fn copy_broadcasts_and_converts() {
    let dst = Tensor::from_vec(vec![0i32; 6], &[2, 3]).unwrap();
    let src = Tensor::from_vec(vec![1.7f64, -2.7, 3.2], &[3]).unwrap();
    dst.copy_from(&src, false).unwrap();
    assert_eq!(dst.to_vec::<i32>().unwrap(), vec![1, -2, 3, 1, -2, 3]);
    let wide = Tensor::from_vec(vec![0.0f64; 3], &[1, 3]).unwrap();
    assert_eq!(Tensor::from_vec(vec![0i32; 3], &[3]).unwrap().copy_from(&wide, false).unwrap_err().status,
               Status::ShapeMismatch);
    let expanded = Tensor::from_vec(vec![0.0f32], &[1]).unwrap().expand(&[3]).unwrap();
    assert_eq!(expanded.copy_from(&arange(3, &[3]), false).unwrap_err().status, Status::Overlap);
}

#[test]
fn overlapping_copy_reads_source_first() {
    let t = Tensor::from_vec((0..6i64).collect(), &[6]).unwrap();
    t.slice(0, 1, 6, 1).unwrap().copy_from(&t.slice(0, 0, 5, 1).unwrap(), false).unwrap();
    assert_eq!(t.to_vec::<i64>().unwrap(), vec![0, 0, 1, 2, 3, 4]);
}

#[test]
fn to_converts() {
    let t = Tensor::from_vec(vec![0.5f64, -1.5, 300.0, f64::NAN], &[4]).unwrap();
    let u = t.to(DType::UInt8, Device::CPU, MemoryFormat::Preserve).unwrap();
    assert_eq!(u.to_vec::<u8>().unwrap(), vec![0, 0, 255, 0]);
    let same = t.to(DType::Float64, Device::CPU, MemoryFormat::Preserve).unwrap();
    assert_eq!(same.raw_handle(), t.raw_handle());
}

#[test]
fn fill_and_zero() {
    let t = Tensor::from_vec(vec![1i16; 6], &[2, 3]).unwrap();
    t.slice(1, 0, 3, 2).unwrap().fill(-2.9).unwrap();
    assert_eq!(t.to_vec::<i16>().unwrap(), vec![-2, 1, -2, -2, 1, -2]);
    t.zero().unwrap();
    assert_eq!(t.to_vec::<i16>().unwrap(), vec![0; 6]);
    let b = Tensor::from_vec(vec![false; 2], &[2]).unwrap();
    b.fill(0.25).unwrap();
    assert_eq!(b.to_vec::<bool>().unwrap(), vec![true, true]);
}

#[test]
fn reshape() {
    let t = arange(6, &[2, 3]);
    let v = t.reshape(&[3, 2]).unwrap();
    assert_eq!(v.data_ptr(), t.data_ptr()); // a view
    let c = t.transpose(0, 1).unwrap().reshape(&[-1]).unwrap();
    assert_eq!(c.to_vec::<f32>().unwrap(), vec![0., 3., 1., 4., 2., 5.]);
}

#[test]
fn copy_scaled_quantizes_and_dequantizes() {
    // QuantizeLinear per row: y_scale (0.5, 0.25), zero points (1, -2); ties to even, clamped.
    let x = Tensor::from_vec(vec![0.25f32, 0.75, 100.0, -0.125, 0.375, -40.0], &[2, 3]).unwrap();
    let q = Tensor::empty(&[2, 3], DType::Int8, Device::CPU).unwrap();
    q.copy_scaled_from(&x, &ScaleShift::along(0).scale(&[2.0, 4.0]).shift(&[1.0, -2.0])).unwrap();
    assert_eq!(q.to_vec::<i8>().unwrap(), vec![2, 2, 127, -2, -0, -128]);
    // DequantizeLinear back, per tensor: (q - zp) * scale = fma(q, 0.5, -0.5)
    let back = Tensor::empty(&[2, 3], DType::Float32, Device::CPU).unwrap();
    back.copy_scaled_from(&q, &ScaleShift::new().scale(&[0.5]).shift(&[-0.5])).unwrap();
    assert_eq!(back.to_vec::<f32>().unwrap(), vec![0.5, 0.5, 63.0, -1.5, -0.5, -64.5]);
    // No values is the identity.
    back.copy_scaled_from(&x, &ScaleShift::new()).unwrap();
    assert_eq!(back.to_vec::<f32>().unwrap(), vec![0.25, 0.75, 100.0, -0.125, 0.375, -40.0]);
    // One value stands for every index along the dim: shift -1 for each of the 3 columns.
    back.copy_scaled_from(&x, &ScaleShift::along(-1).scale(&[4.0, 2.0, 1.0]).shift(&[-1.0])).unwrap();
    assert_eq!(back.to_vec::<f32>().unwrap(), vec![0.0, 0.5, 99.0, -1.5, -0.25, -41.0]);
}

#[test]
fn copy_scaled_errors_speak_of_its_arguments() {
    let x = Tensor::from_vec(vec![1.0f32; 6], &[2, 3]).unwrap();
    let y = Tensor::empty(&[2, 3], DType::Float32, Device::CPU).unwrap();
    let e = y.copy_scaled_from(&x, &ScaleShift::along(1).scale(&[1.0, 2.0])).unwrap_err();
    assert_eq!(e.status, Status::InvalidArgument);
    assert_eq!(e.message, "Tensor::copy_scaled_from: scale has 2 values and shift 0: each may have 0, 1 or 3 \
                           (the size of dim 1 of self)");
    let e = y.copy_scaled_from(&x, &ScaleShift::along(1).scale(&[1.0, 2.0, 3.0]).shift(&[1.0, 2.0])).unwrap_err();
    assert_eq!(e.status, Status::InvalidArgument);
    let e = y.copy_scaled_from(&x, &ScaleShift::along(2).shift(&[1.0, 2.0, 3.0])).unwrap_err();
    assert_eq!((e.status, e.message.as_str()),
               (Status::InvalidArgument, "Tensor::copy_scaled_from: dim 2 is not a dim of self, which has 2"));
    // The library's own findings come under the method's name too.
    let c = Tensor::from_vec(vec![[1.0f32, 0.0]; 6], &[2, 3]).unwrap();
    let e = y.copy_scaled_from(&c, &ScaleShift::new()).unwrap_err();
    assert_eq!(e.status, Status::UnsupportedDtype);
    assert!(e.message.starts_with("Tensor::copy_scaled_from: "), "{}", e.message);
    assert!(!e.message.contains("st_copy_scaled"), "{}", e.message);
}

#[test]
fn normalize_a_uint8_nhwc_batch_into_float32_nchw() {
    // ToTensor + Normalize (torchvision's): (x / 255 - mean[c]) / std[c], as one scaled copy
    // with scale 1 / (255 std) and shift -mean / std along dim 1 of the NCHW result.
    let (n, h, w) = (2i64, 3i64, 5i64);
    let pixels: Vec<u8> = (0..n * h * w * 3).map(|i| (i * 37 % 256) as u8).collect();
    let nhwc = Tensor::from_vec(pixels.clone(), &[n, h, w, 3]).unwrap();
    let (mean, std) = ([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]);
    let scale: Vec<f64> = std.iter().map(|s| 1.0 / (255.0 * s)).collect();
    let shift: Vec<f64> = mean.iter().zip(&std).map(|(m, s)| -m / s).collect();
    let out = Tensor::empty(&[n, 3, h, w], DType::Float32, Device::CPU).unwrap();
    let nchw = nhwc.permute(&[0, 3, 1, 2]).unwrap();
    out.copy_scaled_from(&nchw, &ScaleShift::along(1).scale(&scale).shift(&shift)).unwrap();
    let got = out.to_vec::<f32>().unwrap();
    let mut k = 0;
    for b in 0..n {
        for c in 0..3 {
            for y in 0..h {
                for x in 0..w {
                    let v = pixels[(((b * h + y) * w + x) * 3 + c) as usize] as f64;
                    let want = (v / 255.0 - mean[c as usize]) / std[c as usize];
                    assert!((got[k] as f64 - want).abs() <= 1e-6 * want.abs().max(1.0),
                            "image {} channel {} pixel ({}, {}): {} against {}", b, c, y, x, got[k], want);
                    k += 1;
                }
            }
        }
    }
}
