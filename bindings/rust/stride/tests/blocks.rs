//! Block-scaled formats: quantize and dequantize against codes and scales
//! worked by hand from include/stride.h's rules, and the errors.

use stride::{
    dequantize_blocks, dequantize_blocks_into, quantize_blocks, quantize_blocks_into, BlockFormat, BlockSpec, DType,
    Device, Float4E2M1FnX2, Float8E4M3Fn, Float8E8M0Fnu, Status, Tensor,
};

/// The E2M1 magnitudes, by code 0..7.
const E2M1: [f32; 8] = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];

/// A block of 32: element i has magnitude code i % 8, negative for i in 8..16 and 24..32 (the E2M1 code + 8).
fn codes() -> Vec<u8> {
    (0..32u8).map(|i| i % 8 + if (i / 8) % 2 == 1 { 8 } else { 0 }).collect()
}

fn value_of(code: u8, k: i32) -> f32 {
    let m = E2M1[(code & 7) as usize] * 2f32.powi(k);
    if code & 8 != 0 {
        -m
    } else {
        m
    }
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn mxfp4_floor_codes_scales_and_the_way_back() {
    // Row 0 at 2^2, row 1 at 2^-5: amax 6 · 2^k, floor(log2 amax) = 2 + k, emax of E2M1 is 2, so
    // X = 2^k and the e8m0 scale byte is 127 + k; each element is its own code (exact on the grid).
    let ks = [2, -5];
    let src: Vec<f32> = ks.iter().flat_map(|&k| codes().into_iter().map(move |c| value_of(c, k))).collect();
    let x = Tensor::from_vec(src.clone(), &[2, 32]).unwrap();
    let spec = BlockSpec::new(BlockFormat::Mxfp4E2M1);
    let (values, scales) = quantize_blocks(&x, &spec).unwrap();
    assert_eq!((values.shape(), values.dtype()), (vec![2, 16], DType::Float4E2M1FnX2));
    assert_eq!((scales.shape(), scales.dtype()), (vec![2, 1], DType::Float8E8M0Fnu));
    assert_eq!(scales.to_vec::<Float8E8M0Fnu>().unwrap(), vec![Float8E8M0Fnu(129), Float8E8M0Fnu(122)]);
    // Byte j: element 2j in the low nibble, 2j + 1 in the high one.
    let c = codes();
    let row: Vec<Float4E2M1FnX2> = (0..16).map(|j| Float4E2M1FnX2(c[2 * j] | c[2 * j + 1] << 4)).collect();
    assert_eq!(values.to_vec::<Float4E2M1FnX2>().unwrap(), [row.clone(), row.clone()].concat());

    // Back exactly, −0 included.
    let y = dequantize_blocks(&values, &scales, &spec, DType::Float32).unwrap();
    assert_eq!(y.shape(), vec![2, 32]);
    assert_eq!(bits(&y.to_vec::<f32>().unwrap()), bits(&src));

    // The same blocks along dim 0 of the transposed view: one byte column per row of x.
    let along0 = BlockSpec::new(BlockFormat::Mxfp4E2M1).along(0);
    let (tv, ts) = quantize_blocks(&x.transpose(0, 1).unwrap(), &along0).unwrap();
    assert_eq!((tv.shape(), ts.shape()), (vec![16, 2], vec![1, 2]));
    let pairs: Vec<Float4E2M1FnX2> = row.iter().flat_map(|&b| [b, b]).collect();
    assert_eq!(tv.to_vec::<Float4E2M1FnX2>().unwrap(), pairs);
    assert_eq!(ts.to_vec::<Float8E8M0Fnu>().unwrap(), vec![Float8E8M0Fnu(129), Float8E8M0Fnu(122)]);
    // Into a transposed float64 destination.
    let y64 = Tensor::empty(&[2, 32], DType::Float64, Device::CPU).unwrap();
    dequantize_blocks_into(&y64.transpose(0, 1).unwrap(), &tv, &ts, &along0).unwrap();
    let want: Vec<f64> = src.iter().map(|&v| v as f64).collect();
    let got = y64.to_vec::<f64>().unwrap();
    assert_eq!(got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), want.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
}

#[test]
fn mxfp8_and_nvfp4_shapes_dtypes_and_a_rounded_scale() {
    // 40 ones: blocks of 32 (the second one partial) or of 16 (the third one partial).
    let x = Tensor::from_vec(vec![1.0f32; 3 * 40], &[3, 40]).unwrap();
    // MXFP8 E4M3: amax 1, emax 8, X = 2^-8 (scale byte 119); 1 / X = 256 = 2^8, E4M3 0.1111.000 = 0x78.
    let (v, s) = quantize_blocks(&x, &BlockSpec::new(BlockFormat::Mxfp8E4M3)).unwrap();
    assert_eq!((v.shape(), v.dtype()), (vec![3, 40], DType::Float8E4M3Fn));
    assert_eq!((s.shape(), s.dtype()), (vec![3, 2], DType::Float8E8M0Fnu));
    assert!(v.to_vec::<Float8E4M3Fn>().unwrap().iter().all(|&b| b == Float8E4M3Fn(0x78)));
    assert!(s.to_vec::<Float8E8M0Fnu>().unwrap().iter().all(|&b| b == Float8E8M0Fnu(119)));

    // NVFP4, g = 1: s = 1/6 rounded on E4M3 = 11 · 2^-6 = 0.171875 (0.0100.011 = 0x23); 1 / s = 5.82 rounds
    // to E2M1's 6 (code 7, bytes 0x77), which dequantizes to 6 · 0.171875 = 1.03125.
    let spec = BlockSpec::new(BlockFormat::Nvfp4);
    let (v, s) = quantize_blocks(&x, &spec).unwrap();
    assert_eq!((v.shape(), v.dtype()), (vec![3, 20], DType::Float4E2M1FnX2));
    assert_eq!((s.shape(), s.dtype()), (vec![3, 3], DType::Float8E4M3Fn));
    assert!(v.to_vec::<Float4E2M1FnX2>().unwrap().iter().all(|&b| b == Float4E2M1FnX2(0x77)));
    assert!(s.to_vec::<Float8E4M3Fn>().unwrap().iter().all(|&b| b == Float8E4M3Fn(0x23)));
    let y = dequantize_blocks(&v, &s, &spec, DType::Float32).unwrap();
    assert!(y.to_vec::<f32>().unwrap().iter().all(|&e| e == 1.03125));
}

#[test]
fn errors_write_nothing() {
    let spec = BlockSpec::new(BlockFormat::Mxfp4E2M1);
    // An odd size along the dim, for two values a byte.
    let odd = Tensor::from_vec(vec![1.0f32; 31], &[31]).unwrap();
    assert_eq!(quantize_blocks(&odd, &spec).unwrap_err().status, Status::InvalidArgument);
    // A dim that is not one.
    let x = Tensor::from_vec(vec![1.0f32; 32], &[32]).unwrap();
    let err = quantize_blocks(&x, &spec.along(1)).unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
    assert!(err.message.starts_with("quantize_blocks: "), "{}", err.message);

    // Values of another dtype than the format's: refused, and neither output written.
    let values = Tensor::from_vec(vec![0xA5u8; 16], &[16]).unwrap();
    let scales = Tensor::from_vec(vec![Float8E8M0Fnu(0x5A)], &[1]).unwrap();
    let err = quantize_blocks_into(&values, &scales, &x, &spec).unwrap_err();
    assert_eq!(err.status, Status::UnsupportedDtype);
    assert!(err.message.starts_with("quantize_blocks_into: "), "{}", err.message);
    assert_eq!(values.to_vec::<u8>().unwrap(), vec![0xA5u8; 16]);
    assert_eq!(scales.to_vec::<Float8E8M0Fnu>().unwrap(), vec![Float8E8M0Fnu(0x5A)]);

    // A destination dtype that is not a float.
    let (v, s) = quantize_blocks(&x, &spec).unwrap();
    assert_eq!(dequantize_blocks(&v, &s, &spec, DType::Int32).unwrap_err().status, Status::UnsupportedDtype);
    let dst = Tensor::from_vec(vec![7.0f32; 32], &[32]).unwrap();
    let short_scales = Tensor::from_vec(vec![Float8E8M0Fnu(127); 2], &[2]).unwrap();
    assert_eq!(dequantize_blocks_into(&dst, &v, &short_scales, &spec).unwrap_err().status, Status::ShapeMismatch);
    assert_eq!(dst.to_vec::<f32>().unwrap(), vec![7.0f32; 32]);
}
