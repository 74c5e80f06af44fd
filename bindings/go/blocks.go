package stride

// #include "stride.h"
import "C"

import (
	"runtime"
	"unsafe"
)

// BlockFormat is a block-scaled format; the values are st_block_format's.
//
//	format      values          scales          block
//	MXFP8E4M3   Float8E4M3FN    Float8E8M0FNU   32
//	MXFP8E5M2   Float8E5M2      Float8E8M0FNU   32
//	MXFP6E2M3   Float6E2M3FN    Float8E8M0FNU   32
//	MXFP6E3M2   Float6E3M2FN    Float8E8M0FNU   32
//	MXFP4E2M1   Float4E2M1FNX2  Float8E8M0FNU   32
//	MXINT8      Int8 (code·2^-6) Float8E8M0FNU  32
//	NVFP4       Float4E2M1FNX2  Float8E4M3FN    16
type BlockFormat int32

// The formats of OCP Microscaling (MX v1.0) and NVIDIA's NVFP4.
const (
	MXFP8E4M3 BlockFormat = C.ST_BLOCK_MXFP8_E4M3 // OCP MX: float8_e4m3fn values
	MXFP8E5M2 BlockFormat = C.ST_BLOCK_MXFP8_E5M2 // OCP MX: float8_e5m2 values
	MXFP6E2M3 BlockFormat = C.ST_BLOCK_MXFP6_E2M3 // OCP MX: float6_e2m3fn values
	MXFP6E3M2 BlockFormat = C.ST_BLOCK_MXFP6_E3M2 // OCP MX: float6_e3m2fn values
	MXFP4E2M1 BlockFormat = C.ST_BLOCK_MXFP4_E2M1 // OCP MX: float4_e2m1fn_x2 values, two a byte
	MXINT8    BlockFormat = C.ST_BLOCK_MXINT8     // OCP MX: int8 values, each code · 2^-6 (-127..127)
	NVFP4     BlockFormat = C.ST_BLOCK_NVFP4      // NVIDIA: blocks of 16, float8_e4m3fn scales, a global scale
)

// ScaleRule is how an MX format picks a block's power-of-two scale; the values are st_scale_rule's.
type ScaleRule int32

const (
	// ScaleFloor is OCP MX v1.0 section 6.3, 2^(floor(log2 amax) - emax):
	// it may saturate a block's largest elements and round trips bit for bit.
	ScaleFloor ScaleRule = C.ST_SCALE_FLOOR
	// ScaleRceil is the smallest power of two that fits the block's amax, as
	// TransformerEngine, cuBLAS and cuDNN: it never saturates.
	ScaleRceil ScaleRule = C.ST_SCALE_RCEIL
)

// BlockSize is the number of elements a block holds: 32, or 16 for NVFP4.
func (f BlockFormat) BlockSize() int64 {
	if f == NVFP4 {
		return 16
	}
	return 32
}

// ValueDType is the dtype of the format's values.
func (f BlockFormat) ValueDType() DType {
	switch f {
	case MXFP8E4M3:
		return Float8E4M3FN
	case MXFP8E5M2:
		return Float8E5M2
	case MXFP6E2M3:
		return Float6E2M3FN
	case MXFP6E3M2:
		return Float6E3M2FN
	case MXINT8:
		return Int8
	}
	return Float4E2M1FNX2
}

// ScaleDType is the dtype of the format's scales: Float8E8M0FNU (MX) or Float8E4M3FN (NVFP4).
func (f BlockFormat) ScaleDType() DType {
	if f == NVFP4 {
		return Float8E4M3FN
	}
	return Float8E8M0FNU
}

// valuesPerByte is 2 for the formats that pack two values a byte, else 1.
func (f BlockFormat) valuesPerByte() int64 {
	if f.ValueDType() == Float4E2M1FNX2 {
		return 2
	}
	return 1
}

func blockSpec(format BlockFormat, dim int32, rule ScaleRule, globalScale float32) C.st_block_spec {
	return C.st_block_spec{
		struct_size:  C.size_t(unsafe.Sizeof(C.st_block_spec{})),
		format:       C.st_block_format(format),
		dim:          C.int32_t(dim),
		scale_rule:   C.st_scale_rule(rule),
		global_scale: C.float(globalScale),
	}
}

// withDim is shape with dim (negative counts from the last) replaced by f of its size.
func withDim(method string, shape []int64, dim int32, f func(n int64) int64) ([]int64, error) {
	d := int(dim)
	if d < 0 {
		d += len(shape)
	}
	if d < 0 || d >= len(shape) {
		return nil, errorf(StatusInvalidArgument, method, "dim = %d is out of range for a tensor of %d %s",
			dim, len(shape), plural(len(shape), "dim"))
	}
	out := append([]int64(nil), shape...)
	out[d] = f(shape[d])
	return out, nil
}

// useThree runs one C call of method on three tensors' handles, named as
// the messages call them, and keeps all three reachable until it returns.
func useThree(method string, a, b, c *Tensor, names [3]string, f func(a, b, c C.st_tensor) C.st_status) error {
	var h [3]C.st_tensor
	for i, t := range []*Tensor{a, b, c} {
		var err error
		if h[i], err = t.live(method, names[i]); err != nil {
			return err
		}
	}
	err := call(method, func() C.st_status { return f(h[0], h[1], h[2]) })
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
	runtime.KeepAlive(c)
	return err
}

// QuantizeBlocks quantizes src (float32, float16, bfloat16 or float64) into
// new row-major values and scales on src's device, along dim (negative
// counts from the last), by st_quantize_blocks's rules (include/stride.h,
// "Block-scaled formats"). values has src's shape and the format's value
// dtype, its size along dim halved for MXFP4E2M1 and NVFP4 (byte j holds
// elements 2j, low nibble, and 2j + 1); scales has ceil(n / BlockSize())
// along dim. rule picks the MX scales (checked but unused for NVFP4);
// globalScale is NVFP4's decode scale g (finite, >= 0, 0 meaning 1; MX
// formats ignore it). Errors: ErrInvalidArgument (dim out of range, an odd
// size along it for MXFP4E2M1 and NVFP4, a bad rule or global scale),
// ErrUnsupportedDtype (src's dtype), and QuantizeBlocksInto's others.
func QuantizeBlocks(src *Tensor, format BlockFormat, dim int32, rule ScaleRule, globalScale float32) (values, scales *Tensor, err error) {
	const method = "QuantizeBlocks"
	shape, err := src.Shape()
	if err != nil {
		return nil, nil, errorf(StatusInvalidHandle, method, "src was released")
	}
	device, err := src.Device()
	if err != nil {
		return nil, nil, errorf(StatusInvalidHandle, method, "src was released")
	}
	// An odd size rounds up here so that the library, which checks it, reports it.
	per := format.valuesPerByte()
	valuesShape, err := withDim(method, shape, dim, func(n int64) int64 { return (n + per - 1) / per })
	if err != nil {
		return nil, nil, err
	}
	block := format.BlockSize()
	scalesShape, _ := withDim(method, shape, dim, func(n int64) int64 { return (n + block - 1) / block })
	if values, err = create(method, valuesShape, format.ValueDType(), device); err != nil {
		return nil, nil, err
	}
	if scales, err = create(method, scalesShape, format.ScaleDType(), device); err != nil {
		values.Release()
		return nil, nil, err
	}
	if err = quantizeBlocks(method, values, scales, src, format, dim, rule, globalScale); err != nil {
		values.Release()
		scales.Release()
		return nil, nil, err
	}
	return values, scales, nil
}

// QuantizeBlocksInto quantizes src into the given values and scales (any
// strides, one device), which have the shapes and dtypes QuantizeBlocks
// describes. Every check runs first: on an error neither has changed.
// Errors: ErrInvalidArgument, ErrInvalidHandle, ErrUnsupportedDtype (src's
// dtype, or values or scales not of the format's), ErrShapeMismatch,
// ErrOverlap, ErrReadOnly, and the device errors of st_quantize_blocks.
func QuantizeBlocksInto(values, scales, src *Tensor, format BlockFormat, dim int32, rule ScaleRule, globalScale float32) error {
	return quantizeBlocks("QuantizeBlocksInto", values, scales, src, format, dim, rule, globalScale)
}

func quantizeBlocks(method string, values, scales, src *Tensor, format BlockFormat, dim int32, rule ScaleRule,
	globalScale float32) error {
	// The spec holds no Go pointer: cgo may pass its address.
	spec := blockSpec(format, dim, rule, globalScale)
	return useThree(method, values, scales, src, [3]string{"values", "scales", "src"},
		func(v, s, x C.st_tensor) C.st_status { return C.st_quantize_blocks(v, s, x, &spec) })
}

// DequantizeBlocks dequantizes values and scales into a new row-major tensor
// of dtype (Float32, Float16, BFloat16 or Float64) on their device: each
// element its value times its block's scale (and NVFP4's globalScale),
// exact, rounded once to dtype. Its shape is values' with dim doubled for
// MXFP4E2M1 and NVFP4. Errors: ErrInvalidArgument (dim out of range),
// ErrUnsupportedDtype (dtype, or values or scales not of the format's
// dtypes), and DequantizeBlocksInto's others.
func DequantizeBlocks(values, scales *Tensor, format BlockFormat, dim int32, globalScale float32, dtype DType) (*Tensor, error) {
	const method = "DequantizeBlocks"
	shape, err := values.Shape()
	if err != nil {
		return nil, errorf(StatusInvalidHandle, method, "values was released")
	}
	device, err := values.Device()
	if err != nil {
		return nil, errorf(StatusInvalidHandle, method, "values was released")
	}
	per := format.valuesPerByte()
	dstShape, err := withDim(method, shape, dim, func(n int64) int64 { return n * per })
	if err != nil {
		return nil, err
	}
	dst, err := create(method, dstShape, dtype, device)
	if err != nil {
		return nil, err
	}
	if err = dequantizeBlocks(method, dst, values, scales, format, dim, globalScale); err != nil {
		dst.Release()
		return nil, err
	}
	return dst, nil
}

// DequantizeBlocksInto dequantizes values and scales into dst (any strides),
// which has the shape the source had. Every check runs first: on an error
// dst has not changed. Errors: ErrInvalidArgument, ErrInvalidHandle,
// ErrUnsupportedDtype (dst not Float32, Float16, BFloat16 or Float64, or
// values or scales not of the format's dtypes), ErrShapeMismatch,
// ErrOverlap, ErrReadOnly, and the device errors of st_dequantize_blocks.
func DequantizeBlocksInto(dst, values, scales *Tensor, format BlockFormat, dim int32, globalScale float32) error {
	return dequantizeBlocks("DequantizeBlocksInto", dst, values, scales, format, dim, globalScale)
}

func dequantizeBlocks(method string, dst, values, scales *Tensor, format BlockFormat, dim int32, globalScale float32) error {
	spec := blockSpec(format, dim, ScaleFloor, globalScale)
	return useThree(method, dst, values, scales, [3]string{"dst", "values", "scales"},
		func(d, v, s C.st_tensor) C.st_status { return C.st_dequantize_blocks(d, v, s, &spec) })
}
