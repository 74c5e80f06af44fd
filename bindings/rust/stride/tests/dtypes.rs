//! uint16, uint32, uint64 and the float8 formats: element types, the
//! library's conversions against values worked by hand from the formats'
//! definitions, and printing.

use stride::{DType, Device, Float8E4M3Fn, Float8E5M2, MemoryFormat, Tensor};

fn to(t: &Tensor, dtype: DType) -> Tensor {
    t.to(dtype, Device::CPU, MemoryFormat::Preserve).unwrap()
}

#[test]
fn unsigned_elements_zero_copy() {
    let t = Tensor::from_vec(vec![0u16, 1, 65535], &[3]).unwrap();
    assert_eq!(t.dtype(), DType::UInt16);
    assert_eq!(t.get::<u16>(&[2]).unwrap(), 65535);
    let t = Tensor::from_vec(vec![u32::MAX, 7], &[2]).unwrap();
    assert_eq!(t.dtype(), DType::UInt32);
    assert_eq!(t.to_vec::<u32>().unwrap(), vec![u32::MAX, 7]);
    let t = Tensor::from_vec(vec![u64::MAX, 1 << 63], &[2]).unwrap();
    assert_eq!(t.dtype(), DType::UInt64);
    // 2^64 - 1 rounds to 2^64 in float64 (rounded once, to nearest).
    assert_eq!(to(&t, DType::Float64).to_vec::<f64>().unwrap(), vec![18446744073709551616.0, 9223372036854775808.0]);
}

#[test]
fn signed_to_unsigned_wraps_and_floats_saturate() {
    let ints = Tensor::from_vec(vec![-1i64, 65536 + 5, i64::MIN], &[3]).unwrap();
    assert_eq!(to(&ints, DType::UInt16).to_vec::<u16>().unwrap(), vec![65535, 5, 0]);
    assert_eq!(to(&ints, DType::UInt32).to_vec::<u32>().unwrap(), vec![u32::MAX, 65541, 0]);
    assert_eq!(to(&ints, DType::UInt64).to_vec::<u64>().unwrap(), vec![u64::MAX, 65541, 1 << 63]);
    let floats = Tensor::from_vec(vec![2.9f64, -0.5, -7.0, 1e30, f64::INFINITY, f64::NAN], &[6]).unwrap();
    assert_eq!(to(&floats, DType::UInt16).to_vec::<u16>().unwrap(), vec![2, 0, 0, 65535, 65535, 0]);
    assert_eq!(to(&floats, DType::UInt64).to_vec::<u64>().unwrap(), vec![2, 0, 0, u64::MAX, u64::MAX, 0]);
}

#[test]
fn float8_bits_of_known_values() {
    // Worked by hand. e4m3fn: 1 = 0.0111.000, -3 = 1.1000.100, 448 = 0.1111.110 (max), 464 ties to 448,
    // 2^-9 = 0.0000.001 (smallest subnormal), 500 and inf are NaN (0.1111.111).
    // e5m2: 1 = 0.01111.00, -3 = 1.10000.10, 57344 = 0.11110.11 (max), 61440 ties up to inf (0.11111.00),
    // 2^-16 = 0.00000.01, 2^-17 ties to 0.
    let x = Tensor::from_vec(vec![1.0f32, -3.0, 448.0, 464.0, 2f32.powi(-9), 500.0, f32::INFINITY], &[7]).unwrap();
    let bits: Vec<u8> = to(&x, DType::Float8E4M3Fn).to_vec::<Float8E4M3Fn>().unwrap().iter().map(|b| b.0).collect();
    assert_eq!(bits, vec![0x38, 0xC4, 0x7E, 0x7E, 0x01, 0x7F, 0x7F]);
    let x = Tensor::from_vec(vec![1.0f32, -3.0, 57344.0, 61440.0, 2f32.powi(-16), 2f32.powi(-17)], &[6]).unwrap();
    let bits: Vec<u8> = to(&x, DType::Float8E5M2).to_vec::<Float8E5M2>().unwrap().iter().map(|b| b.0).collect();
    assert_eq!(bits, vec![0x3C, 0xC2, 0x7B, 0x7C, 0x01, 0x00]);
}

#[test]
fn float8_bytes_decode() {
    let e4 = Tensor::from_vec(vec![Float8E4M3Fn(0x38), Float8E4M3Fn(0xC4), Float8E4M3Fn(0x7E), Float8E4M3Fn(0x01)], &[4])
        .unwrap();
    assert_eq!(e4.dtype(), DType::Float8E4M3Fn);
    assert_eq!(to(&e4, DType::Float64).to_vec::<f64>().unwrap(), vec![1.0, -3.0, 448.0, 2f64.powi(-9)]);
    let e5 = Tensor::from_vec(vec![Float8E5M2(0x3C), Float8E5M2(0x7B), Float8E5M2(0x7C), Float8E5M2(0x01)], &[4]).unwrap();
    assert_eq!(e5.dtype(), DType::Float8E5M2);
    assert_eq!(to(&e5, DType::Float64).to_vec::<f64>().unwrap(), vec![1.0, 57344.0, f64::INFINITY, 2f64.powi(-16)]);
    let nan = Tensor::from_vec(vec![Float8E4M3Fn(0xFF)], &[1]).unwrap();
    assert!(to(&nan, DType::Float32).get::<f32>(&[0]).unwrap().is_nan());
}

#[test]
fn printing() {
    // As NumPy prints the same values: uint64 in full, float8 as the float32 array of the values it
    // holds (worked by hand: in e4m3fn 0.1 is 0.1015625 and 3.2 is 3.25, 500 is past 448: NaN; in
    // e5m2 0.1 is 0.09375).
    let u = Tensor::from_vec(vec![u64::MAX, 0], &[2]).unwrap();
    assert_eq!(format!("{}", u), "[18446744073709551615                    0]");
    let x = Tensor::from_vec(vec![0.1f64, -1.5, 3.2, 500.0], &[4]).unwrap();
    assert_eq!(format!("{}", to(&x, DType::Float8E4M3Fn)), "[ 0.1015625 -1.5        3.25             nan]");
    let x = Tensor::from_vec(vec![0.1f64, -1.5, 3.5, 48.0], &[4]).unwrap();
    assert_eq!(format!("{:?}", to(&x, DType::Float8E5M2)), "Tensor([ 0.09375 -1.5      3.5     48.     ], dtype=float8_e5m2)");
}
