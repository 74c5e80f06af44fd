package stride

// #include "stride.h"
import "C"

import "fmt"

// APIVersion is ST_API_VERSION: the newest st_api table the header describes.
const APIVersion = C.ST_API_VERSION

// ScaleShift is the header's st_scale_shift, the argument of the scaled copies.
type ScaleShift = C.st_scale_shift

// Itemsize is the number of bytes per element.
func (d DType) Itemsize() int { return int(C.st_dtype_itemsize(C.st_dtype(d))) }

// String is the library's name, e.g. "float32".
func (d DType) String() string { return C.GoString(C.st_dtype_name(C.st_dtype(d))) }

// Device says where a tensor's memory lives.
type Device struct {
	Type  DeviceType
	Index int32
}

// CPUDevice is the host.
var CPUDevice = Device{Type: CPU}

// CUDADevice is the CUDA device of that ordinal.
func CUDADevice(index int32) Device { return Device{Type: CUDA, Index: index} }

// String is "cpu", "cuda:1" or "cuda_host:0".
func (d Device) String() string {
	switch d.Type {
	case CPU:
		return "cpu"
	case CUDA:
		return fmt.Sprintf("cuda:%d", d.Index)
	case CUDAHost:
		return fmt.Sprintf("cuda_host:%d", d.Index)
	}
	return fmt.Sprintf("device(%d):%d", d.Type, d.Index)
}

func (d Device) c() C.st_device {
	return C.st_device{_type: C.int32_t(d.Type), index: C.int32_t(d.Index)}
}

// F8E4M3FN is one float8_e4m3fn element as its raw byte: Go has no 8-bit
// float, so its values are read and written by converting through the
// library (To(Float32, ...)).
type F8E4M3FN uint8

// F8E5M2 is one float8_e5m2 element as its raw byte (see F8E4M3FN).
type F8E5M2 uint8

// F8E8M0FNU is one float8_e8m0fnu element as its raw byte: 2^(b - 127),
// 0xFF NaN; the scale of the MX block formats.
type F8E8M0FNU uint8

// F4E2M1FNX2 is one float4_e2m1fn_x2 element: two E2M1 values in a byte,
// the first in the low nibble. It copies only to itself: its values come
// out through DequantizeBlocks.
type F4E2M1FNX2 uint8

// F6E2M3FN is one float6_e2m3fn element: the value in the low 6 bits of the byte.
type F6E2M3FN uint8

// F6E3M2FN is one float6_e3m2fn element: the value in the low 6 bits of the byte.
type F6E3M2FN uint8

// Element is a Go type that is the element of a dtype, for typed access.
type Element interface {
	bool | uint8 | uint16 | uint32 | uint64 | int8 | int16 | int32 | int64 | float32 | float64 | complex64 |
		complex128 | F8E4M3FN | F8E5M2 | F8E8M0FNU | F4E2M1FNX2 | F6E2M3FN | F6E3M2FN
}

func dtypeOf[T Element]() DType {
	var zero T
	switch any(zero).(type) {
	case bool:
		return Bool
	case uint8:
		return Uint8
	case uint16:
		return Uint16
	case uint32:
		return Uint32
	case uint64:
		return Uint64
	case F8E4M3FN:
		return Float8E4M3FN
	case F8E5M2:
		return Float8E5M2
	case F8E8M0FNU:
		return Float8E8M0FNU
	case F4E2M1FNX2:
		return Float4E2M1FNX2
	case F6E2M3FN:
		return Float6E2M3FN
	case F6E3M2FN:
		return Float6E3M2FN
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int64:
		return Int64
	case float32:
		return Float32
	case float64:
		return Float64
	case complex64:
		return Complex64
	default:
		return Complex128
	}
}
