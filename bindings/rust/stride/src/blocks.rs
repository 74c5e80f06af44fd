//! Block-scaled formats: OCP Microscaling (MXFP8, MXFP6, MXFP4, MXINT8) and
//! NVFP4 (`st_quantize_blocks`, `st_dequantize_blocks`).

use stride_sys as sys;

use crate::error::{check, error, Result, Status};
use crate::storage_lock::{lock, Access};
use crate::tensor::Tensor;
use crate::types::DType;

/// A block-scaled format; the discriminants are `st_block_format`'s.
///
/// | format        | values              | scales           | block |
/// |---------------|---------------------|------------------|-------|
/// | `Mxfp8E4M3`   | `Float8E4M3Fn`      | `Float8E8M0Fnu`  | 32    |
/// | `Mxfp8E5M2`   | `Float8E5M2`        | `Float8E8M0Fnu`  | 32    |
/// | `Mxfp6E2M3`   | `Float6E2M3Fn`      | `Float8E8M0Fnu`  | 32    |
/// | `Mxfp6E3M2`   | `Float6E3M2Fn`      | `Float8E8M0Fnu`  | 32    |
/// | `Mxfp4E2M1`   | `Float4E2M1FnX2`    | `Float8E8M0Fnu`  | 32    |
/// | `MxInt8`      | `Int8` (code·2^-6)  | `Float8E8M0Fnu`  | 32    |
/// | `Nvfp4`       | `Float4E2M1FnX2`    | `Float8E4M3Fn`   | 16    |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum BlockFormat {
    /// `ST_BLOCK_MXFP8_E4M3`: OCP MX v1.0, float8_e4m3fn values.
    Mxfp8E4M3 = 0,
    /// `ST_BLOCK_MXFP8_E5M2`: OCP MX, float8_e5m2 values.
    Mxfp8E5M2 = 1,
    /// `ST_BLOCK_MXFP6_E2M3`: OCP MX, float6_e2m3fn values.
    Mxfp6E2M3 = 2,
    /// `ST_BLOCK_MXFP6_E3M2`: OCP MX, float6_e3m2fn values.
    Mxfp6E3M2 = 3,
    /// `ST_BLOCK_MXFP4_E2M1`: OCP MX, float4_e2m1fn_x2 values (two a byte).
    Mxfp4E2M1 = 4,
    /// `ST_BLOCK_MXINT8`: OCP MX, int8 values, each code · 2^-6 (−127..127).
    MxInt8 = 5,
    /// `ST_BLOCK_NVFP4`: NVIDIA's blocks of 16, float8_e4m3fn scales and a
    /// float32 global scale, float4_e2m1fn_x2 values.
    Nvfp4 = 6,
}

impl BlockFormat {
    /// Elements per block: 32, or 16 for NVFP4.
    pub fn block_size(self) -> i64 {
        if self == BlockFormat::Nvfp4 {
            16
        } else {
            32
        }
    }

    /// The dtype of the values.
    pub fn value_dtype(self) -> DType {
        match self {
            BlockFormat::Mxfp8E4M3 => DType::Float8E4M3Fn,
            BlockFormat::Mxfp8E5M2 => DType::Float8E5M2,
            BlockFormat::Mxfp6E2M3 => DType::Float6E2M3Fn,
            BlockFormat::Mxfp6E3M2 => DType::Float6E3M2Fn,
            BlockFormat::Mxfp4E2M1 | BlockFormat::Nvfp4 => DType::Float4E2M1FnX2,
            BlockFormat::MxInt8 => DType::Int8,
        }
    }

    /// The dtype of the scales: float8_e8m0fnu (MX) or float8_e4m3fn (NVFP4).
    pub fn scale_dtype(self) -> DType {
        if self == BlockFormat::Nvfp4 {
            DType::Float8E4M3Fn
        } else {
            DType::Float8E8M0Fnu
        }
    }

    /// Values stored per byte along the block dim: 2 for MXFP4 and NVFP4, else 1.
    pub fn values_per_byte(self) -> i64 {
        if self.value_dtype() == DType::Float4E2M1FnX2 {
            2
        } else {
            1
        }
    }
}

/// How an MX format picks a block's power-of-two scale; the discriminants are `st_scale_rule`'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(i32)]
pub enum ScaleRule {
    /// `ST_SCALE_FLOOR`: OCP MX v1.0 section 6.3, 2^(floor(log2 amax) − emax);
    /// may saturate a block's largest elements, round trips bit for bit.
    #[default]
    Floor = 0,
    /// `ST_SCALE_RCEIL`: the smallest power of two that fits the block's
    /// amax, as TransformerEngine, cuBLAS and cuDNN; never saturates.
    Rceil = 1,
}

/// What a quantize or dequantize does (`st_block_spec`), by name:
///
/// ```no_run
/// # use stride::{BlockFormat, BlockSpec, ScaleRule, Tensor};
/// # fn f(x: &Tensor) -> stride::Result<()> {
/// let spec = BlockSpec::new(BlockFormat::Mxfp4E2M1).along(-1).rule(ScaleRule::Rceil);
/// let (values, scales) = stride::quantize_blocks(x, &spec)?;
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlockSpec {
    format: BlockFormat,
    dim: i32,
    rule: ScaleRule,
    global_scale: f32,
}

impl BlockSpec {
    /// `format` along the last dim, FLOOR scales, global scale 0 (meaning 1).
    pub fn new(format: BlockFormat) -> BlockSpec {
        BlockSpec { format, dim: -1, rule: ScaleRule::Floor, global_scale: 0.0 }
    }

    /// The dim the blocks run along (negative counts from the last).
    pub fn along(self, dim: i32) -> BlockSpec {
        BlockSpec { dim, ..self }
    }

    /// The MX scale rule (checked but unused for NVFP4).
    pub fn rule(self, rule: ScaleRule) -> BlockSpec {
        BlockSpec { rule, ..self }
    }

    /// NVFP4's per-tensor decode scale g: finite and >= 0, 0 meaning 1
    /// (MX formats ignore it); usually amax of the tensor / (6 · 448).
    pub fn global_scale(self, g: f32) -> BlockSpec {
        BlockSpec { global_scale: g, ..self }
    }

    /// The format.
    pub fn format(&self) -> BlockFormat {
        self.format
    }

    /// The dim the blocks run along, as given.
    pub fn dim(&self) -> i32 {
        self.dim
    }

    fn raw(&self) -> sys::st_block_spec {
        sys::st_block_spec {
            struct_size: std::mem::size_of::<sys::st_block_spec>(),
            format: self.format as i32,
            dim: self.dim,
            scale_rule: self.rule as i32,
            global_scale: self.global_scale,
        }
    }
}

/// `shape` with the spec's dim (negative counts from the last) replaced by `f(size)`.
fn with_dim(method: &str, shape: &[i64], spec: &BlockSpec, f: impl Fn(i64) -> i64) -> Result<Vec<i64>> {
    let d = if spec.dim < 0 { spec.dim as i64 + shape.len() as i64 } else { spec.dim as i64 };
    let d = usize::try_from(d).ok().filter(|&d| d < shape.len()).ok_or_else(|| {
        error(Status::InvalidArgument, method,
              &format!("dim = {} is out of range for a tensor of {} dims", spec.dim, shape.len()))
    })?;
    let mut out = shape.to_vec();
    out[d] = f(shape[d]);
    Ok(out)
}

/// Quantizes `src` (float32, float16, bfloat16 or float64) into new row-major
/// `(values, scales)` on its device, along `spec`'s dim.
///
/// `values` has `src`'s shape and the format's value dtype, its size along
/// the dim halved for MXFP4 and NVFP4 (byte j holds elements 2j, low
/// nibble, and 2j + 1); `scales` has ceil(n / block) along the dim. The
/// rules (FLOOR and RCEIL scales, rounding, NaN) are `st_quantize_blocks`'s
/// in include/stride.h. Errors: `InvalidArgument` for a dim out of range or
/// an odd size along it for MXFP4 and NVFP4, `UnsupportedDtype` for
/// another source dtype, and the rest of
/// [`quantize_blocks_into`]'s.
pub fn quantize_blocks(src: &Tensor, spec: &BlockSpec) -> Result<(Tensor, Tensor)> {
    const M: &str = "quantize_blocks";
    let shape = src.shape();
    let format = spec.format;
    // An odd size rounds up here so that the library, which checks it, names the error.
    let values_shape = with_dim(M, &shape, spec, |n| (n + format.values_per_byte() - 1) / format.values_per_byte())?;
    let scales_shape = with_dim(M, &shape, spec, |n| (n + format.block_size() - 1) / format.block_size())?;
    let device = src.device();
    let values = Tensor::empty(&values_shape, format.value_dtype(), device).map_err(|e| renamed(M, e))?;
    let scales = Tensor::empty(&scales_shape, format.scale_dtype(), device).map_err(|e| renamed(M, e))?;
    quantize(M, &values, &scales, src, spec)?;
    Ok((values, scales))
}

/// Quantizes `src` into the given `values` and `scales` (any strides, one
/// device), which must have the shapes and dtypes [`quantize_blocks`]
/// describes. Every check runs first: on an error neither has changed.
/// Errors: `InvalidArgument` (the spec, an odd size for MXFP4 and NVFP4,
/// different devices), `UnsupportedDtype` (the source's dtype, or
/// `values` or `scales` not the format's), `ShapeMismatch`, `Overlap`,
/// `ReadOnly`, and the device errors of `st_quantize_blocks`.
pub fn quantize_blocks_into(values: &Tensor, scales: &Tensor, src: &Tensor, spec: &BlockSpec) -> Result<()> {
    quantize("quantize_blocks_into", values, scales, src, spec)
}

fn quantize(method: &str, values: &Tensor, scales: &Tensor, src: &Tensor, spec: &BlockSpec) -> Result<()> {
    let raw = spec.raw();
    let _locked = lock(method, &[(values.raw_handle(), Access::Write), (scales.raw_handle(), Access::Write),
                                 (src.raw_handle(), Access::Read)])?;
    check(method, unsafe { sys::st_quantize_blocks(values.raw_handle(), scales.raw_handle(), src.raw_handle(), &raw) })
}

/// Dequantizes `values` and `scales` into a new row-major tensor of `dtype`
/// (float32, float16, bfloat16 or float64) on their device: each element
/// its value times its block's scale (and NVFP4's global scale), exact,
/// rounded once to `dtype`. Its shape is `values`' with the dim doubled for
/// MXFP4 and NVFP4. Errors: `InvalidArgument` for a dim out of range,
/// `UnsupportedDtype` for another `dtype` or operands not of the format's
/// dtypes, and the rest of [`dequantize_blocks_into`]'s.
pub fn dequantize_blocks(values: &Tensor, scales: &Tensor, spec: &BlockSpec, dtype: DType) -> Result<Tensor> {
    const M: &str = "dequantize_blocks";
    let format = spec.format;
    let shape = with_dim(M, &values.shape(), spec, |n| n * format.values_per_byte())?;
    let dst = Tensor::empty(&shape, dtype, values.device()).map_err(|e| renamed(M, e))?;
    dequantize(M, &dst, values, scales, spec)?;
    Ok(dst)
}

/// Dequantizes `values` and `scales` into `dst` (any strides), which has the
/// shape the source had. Every check runs first: on an error `dst` has not
/// changed. Errors: `InvalidArgument`, `UnsupportedDtype` (`dst` not a
/// float32, float16, bfloat16 or float64 tensor, or `values` or `scales`
/// not of the format's dtypes), `ShapeMismatch`, `Overlap`, `ReadOnly`,
/// and the device errors of `st_dequantize_blocks`.
pub fn dequantize_blocks_into(dst: &Tensor, values: &Tensor, scales: &Tensor, spec: &BlockSpec) -> Result<()> {
    dequantize("dequantize_blocks_into", dst, values, scales, spec)
}

fn dequantize(method: &str, dst: &Tensor, values: &Tensor, scales: &Tensor, spec: &BlockSpec) -> Result<()> {
    let raw = spec.raw();
    let _locked = lock(method, &[(dst.raw_handle(), Access::Write), (values.raw_handle(), Access::Read),
                                 (scales.raw_handle(), Access::Read)])?;
    check(method, unsafe { sys::st_dequantize_blocks(dst.raw_handle(), values.raw_handle(), scales.raw_handle(), &raw) })
}

/// An error of a call made for `method` (`Tensor::empty: ...`), under `method`'s name.
fn renamed(method: &str, e: crate::Error) -> crate::Error {
    crate::Error { message: format!("{}: {}", method, e.message), ..e }
}
