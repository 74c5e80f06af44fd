package stride

// #include "stride.h"
import "C"

import "fmt"

// DType is an element type; the values are st_dtype's.
type DType int32

const (
	Bool       DType = C.ST_BOOL
	Uint8      DType = C.ST_UINT8
	Int8       DType = C.ST_INT8
	Int16      DType = C.ST_INT16
	Int32      DType = C.ST_INT32
	Int64      DType = C.ST_INT64
	Float16    DType = C.ST_FLOAT16
	BFloat16   DType = C.ST_BFLOAT16
	Float32    DType = C.ST_FLOAT32
	Float64    DType = C.ST_FLOAT64
	Complex64  DType = C.ST_COMPLEX64
	Complex128 DType = C.ST_COMPLEX128
	Uint16     DType = C.ST_UINT16
	Uint32     DType = C.ST_UINT32
	Uint64     DType = C.ST_UINT64
	// Float8E4M3FN: 1 byte, sign, 4 exponent bits (bias 7), 3 mantissa bits; no infinity; max 448.
	Float8E4M3FN DType = C.ST_FLOAT8_E4M3FN
	// Float8E5M2: 1 byte, sign, 5 exponent bits (bias 15), 2 mantissa bits; inf and NaN; max 57344.
	Float8E5M2 DType = C.ST_FLOAT8_E5M2
)

// APIVersion is ST_API_VERSION: the newest st_api table the header describes.
const APIVersion = C.ST_API_VERSION

// ScaleShift is the header's st_scale_shift, the argument of the scaled copies.
type ScaleShift = C.st_scale_shift

// AllDTypes lists every dtype in st_dtype order.
var AllDTypes = []DType{Bool, Uint8, Int8, Int16, Int32, Int64, Float16, BFloat16, Float32, Float64, Complex64, Complex128,
	Uint16, Uint32, Uint64, Float8E4M3FN, Float8E5M2}

// Itemsize is the number of bytes per element.
func (d DType) Itemsize() int { return int(C.st_dtype_itemsize(C.st_dtype(d))) }

// String is the library's name, e.g. "float32".
func (d DType) String() string { return C.GoString(C.st_dtype_name(C.st_dtype(d))) }

// DeviceType is a kind of memory; the values are DLPack's device types.
type DeviceType int32

const (
	CPU      DeviceType = C.ST_DEVICE_CPU
	CUDA     DeviceType = C.ST_DEVICE_CUDA
	CUDAHost DeviceType = C.ST_DEVICE_CUDA_HOST
)

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

// MemoryFormat is an order of dims in memory; the values are st_memory_format's.
type MemoryFormat int32

const (
	Contiguous     MemoryFormat = C.ST_MEMORY_FORMAT_CONTIGUOUS
	ChannelsLast   MemoryFormat = C.ST_MEMORY_FORMAT_CHANNELS_LAST
	ChannelsLast3d MemoryFormat = C.ST_MEMORY_FORMAT_CHANNELS_LAST_3D
	Preserve       MemoryFormat = C.ST_MEMORY_FORMAT_PRESERVE
)

// F8E4M3FN is one float8_e4m3fn element as its raw byte: Go has no 8-bit
// float, so its values are read and written by converting through the
// library (To(Float32, ...)).
type F8E4M3FN uint8

// F8E5M2 is one float8_e5m2 element as its raw byte (see F8E4M3FN).
type F8E5M2 uint8

// Element is a Go type that is the element of a dtype, for typed access.
type Element interface {
	bool | uint8 | uint16 | uint32 | uint64 | int8 | int16 | int32 | int64 | float32 | float64 | complex64 |
		complex128 | F8E4M3FN | F8E5M2
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
