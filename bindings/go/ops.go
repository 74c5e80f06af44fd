package stride

// #include "stride.h"
import "C"

// Reshape is a view when the strides allow one, else a contiguous copy.
func (t *Tensor) Reshape(shape ...int64) (*Tensor, error) {
	p, n, err := dims("Reshape", shape)
	if err != nil {
		return nil, err
	}
	return t.view("Reshape", func(h C.st_tensor, out *C.st_tensor) C.st_status { return C.st_reshape(h, p, n, out) })
}

// Contiguous is t itself (a new reference) when already laid out as fmt, else a copy.
func (t *Tensor) Contiguous(fmt MemoryFormat) (*Tensor, error) {
	return t.view("Contiguous", func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_contiguous(h, C.st_memory_format(fmt), out)
	})
}

// Clone copies t into new memory (Retain only adds a reference).
func (t *Tensor) Clone(fmt MemoryFormat) (*Tensor, error) {
	return t.view("Clone", func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_clone(h, C.st_memory_format(fmt), out)
	})
}

func cBool(b bool) C.int32_t {
	if b {
		return 1
	}
	return 0
}

// CopyFrom writes src, broadcast to t's shape and converted to t's dtype, into t.
func (t *Tensor) CopyFrom(src *Tensor, nonBlocking bool) error {
	return t.useWith("CopyFrom", "the tensor", src, "src", func(d, s C.st_tensor) C.st_status { return C.st_copy(d, s, cBool(nonBlocking)) })
}

// To converts to dtype, device and memory format; t itself (a new reference) when nothing changes.
func (t *Tensor) To(dtype DType, device Device, fmt MemoryFormat) (*Tensor, error) {
	return t.view("To", func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_to(h, C.st_dtype(dtype), device.c(), C.st_memory_format(fmt), out)
	})
}

// Fill writes value, converted to t's dtype, into every element.
func (t *Tensor) Fill(value float64) error {
	return t.use("Fill", func(h C.st_tensor) C.st_status { return C.st_fill(h, C.double(value)) })
}

// Zero writes zero into every element.
func (t *Tensor) Zero() error {
	return t.use("Zero", func(h C.st_tensor) C.st_status { return C.st_zero(h) })
}
