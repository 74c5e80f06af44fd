//! Element types, devices and memory formats.

use stride_sys as sys;

// The enums are generated from include/stride.h (tools/gen_bindings.py); their methods are here.
pub use crate::enums::{DType, DeviceType, MemoryFormat};

impl DType {
    pub fn from_code(code: i32) -> Option<DType> {
        DType::ALL.iter().copied().find(|d| *d as i32 == code)
    }

    /// Bytes per element.
    pub fn itemsize(self) -> usize {
        unsafe { sys::st_dtype_itemsize(self as i32) }
    }

    /// The library's name, e.g. "float32".
    pub fn name(self) -> String {
        unsafe { crate::error::cstr(sys::st_dtype_name(self as i32)) }
    }
}

impl std::fmt::Display for DType {
    /// The library's name, e.g. "float32".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Device {
    pub kind: DeviceType,
    pub index: i32,
}

impl Device {
    pub const CPU: Device = Device { kind: DeviceType::Cpu, index: 0 };

    pub fn cuda(index: i32) -> Device {
        Device { kind: DeviceType::Cuda, index }
    }

    pub fn cuda_host() -> Device {
        Device { kind: DeviceType::CudaHost, index: 0 }
    }

    pub(crate) fn raw(self) -> sys::st_device {
        sys::st_device { type_: self.kind as i32, index: self.index }
    }

    pub(crate) fn from_raw(d: sys::st_device) -> Device {
        let kind = match d.type_ {
            sys::ST_DEVICE_CUDA => DeviceType::Cuda,
            sys::ST_DEVICE_CUDA_HOST => DeviceType::CudaHost,
            _ => DeviceType::Cpu,
        };
        Device { kind, index: d.index }
    }
}

impl std::fmt::Display for Device {
    /// "cpu", "cuda:1" or "cuda_host:0".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            DeviceType::Cpu => f.write_str("cpu"),
            DeviceType::Cuda => write!(f, "cuda:{}", self.index),
            DeviceType::CudaHost => write!(f, "cuda_host:{}", self.index),
        }
    }
}

/// Rust types that are the elements of a dtype, for typed reads and writes.
///
/// # Safety
/// `DTYPE` must have exactly the size and representation of `Self`.
pub unsafe trait Element: Copy + 'static {
    const DTYPE: DType;

    /// Reads one element at `p` (any alignment).
    ///
    /// # Safety
    /// `p` must point at `DTYPE.itemsize()` readable bytes.
    unsafe fn read(p: *const u8) -> Self {
        std::ptr::read_unaligned(p as *const Self)
    }
}

unsafe impl Element for bool {
    const DTYPE: DType = DType::Bool;

    // Any nonzero byte is true: memory written elsewhere need not hold 0 or 1.
    unsafe fn read(p: *const u8) -> Self {
        *p != 0
    }
}
unsafe impl Element for u8 {
    const DTYPE: DType = DType::UInt8;
}
unsafe impl Element for u16 {
    const DTYPE: DType = DType::UInt16;
}
unsafe impl Element for u32 {
    const DTYPE: DType = DType::UInt32;
}
unsafe impl Element for u64 {
    const DTYPE: DType = DType::UInt64;
}
unsafe impl Element for i8 {
    const DTYPE: DType = DType::Int8;
}
unsafe impl Element for i16 {
    const DTYPE: DType = DType::Int16;
}
unsafe impl Element for i32 {
    const DTYPE: DType = DType::Int32;
}
unsafe impl Element for i64 {
    const DTYPE: DType = DType::Int64;
}
unsafe impl Element for f32 {
    const DTYPE: DType = DType::Float32;
}
unsafe impl Element for f64 {
    const DTYPE: DType = DType::Float64;
}
/// complex64 as [re, im].
unsafe impl Element for [f32; 2] {
    const DTYPE: DType = DType::Complex64;
}
/// complex128 as [re, im].
unsafe impl Element for [f64; 2] {
    const DTYPE: DType = DType::Complex128;
}

/// One float8_e4m3fn element as its raw byte (sign, 4 exponent bits, 3
/// mantissa bits). Rust has no 8-bit float: the values are read and written
/// by converting through the library, e.g. `t.to(DType::Float32, Device::CPU, MemoryFormat::Preserve)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Float8E4M3Fn(pub u8);

/// One float8_e5m2 element as its raw byte (sign, 5 exponent bits, 2
/// mantissa bits): the upper byte of the float16 of the same value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Float8E5M2(pub u8);

unsafe impl Element for Float8E4M3Fn {
    const DTYPE: DType = DType::Float8E4M3Fn;
}
unsafe impl Element for Float8E5M2 {
    const DTYPE: DType = DType::Float8E5M2;
}

/// One float8_e8m0fnu element as its raw byte: the power of two 2^(b − 127),
/// 0xFF NaN; the scale of the MX block formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Float8E8M0Fnu(pub u8);

/// One float4_e2m1fn_x2 element: two E2M1 values in a byte, the first in the
/// low nibble (sign, 2 exponent bits, 1 mantissa bit each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Float4E2M1FnX2(pub u8);

/// One float6_e2m3fn element: the value in the low 6 bits of the byte
/// (sign, 2 exponent bits, 3 mantissa bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Float6E2M3Fn(pub u8);

/// One float6_e3m2fn element: the value in the low 6 bits of the byte
/// (sign, 3 exponent bits, 2 mantissa bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Float6E3M2Fn(pub u8);

unsafe impl Element for Float8E8M0Fnu {
    const DTYPE: DType = DType::Float8E8M0Fnu;
}
unsafe impl Element for Float4E2M1FnX2 {
    const DTYPE: DType = DType::Float4E2M1FnX2;
}
unsafe impl Element for Float6E2M3Fn {
    const DTYPE: DType = DType::Float6E2M3Fn;
}
unsafe impl Element for Float6E3M2Fn {
    const DTYPE: DType = DType::Float6E3M2Fn;
}
