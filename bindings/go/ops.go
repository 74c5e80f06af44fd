package stride

// #include "stride.h"
import "C"

// Reshape is a view when the strides allow one, else a contiguous copy.
func (t *Tensor) Reshape(shape ...int64) (*Tensor, error) {
	p, n, err := dims(shape)
	if err != nil {
		return nil, err
	}
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status { return C.st_reshape(h, p, n, out) })
}

// Contiguous is t itself (a new reference) when already laid out as fmt, else a copy.
func (t *Tensor) Contiguous(fmt MemoryFormat) (*Tensor, error) {
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_contiguous(h, C.st_memory_format(fmt), out)
	})
}

// Clone copies t into new memory (Retain only adds a reference).
func (t *Tensor) Clone(fmt MemoryFormat) (*Tensor, error) {
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_clone(h, C.st_memory_format(fmt), out)
	})
}

// CopyFrom writes src, broadcast to t's shape and converted to t's dtype, into t.
func (t *Tensor) CopyFrom(src *Tensor, nonBlocking bool) error {
	d, s := t.handle(), src.handle()
	nb := C.int32_t(0)
	if nonBlocking {
		nb = 1
	}
	return call(func() C.st_status { return C.st_copy(d, s, nb) })
}

// To converts to dtype, device and memory format; t itself (a new reference) when nothing changes.
func (t *Tensor) To(dtype DType, device Device, fmt MemoryFormat) (*Tensor, error) {
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_to(h, C.st_dtype(dtype), device.c(), C.st_memory_format(fmt), out)
	})
}

// Fill writes value, converted to t's dtype, into every element.
func (t *Tensor) Fill(value float64) error {
	h := t.handle()
	return call(func() C.st_status { return C.st_fill(h, C.double(value)) })
}

// Zero writes zero into every element.
func (t *Tensor) Zero() error {
	h := t.handle()
	return call(func() C.st_status { return C.st_zero(h) })
}
