package stride

/*
#include <stdlib.h>
#include "stride.h"
#include "helpers.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// The C functions a library build may not have yet, looked up once at
// load. Once include/stride.h declares them all, call them directly and
// delete this table, lookup() and HasFunction's use of it.
var pending = map[string]unsafe.Pointer{}

func init() {
	for _, name := range []string{
		"st_reshape", "st_contiguous", "st_clone", "st_copy", "st_to", "st_fill", "st_zero",
		"st_set_parallel_for", "st_set_trace_callback",
		"st_cuda_device_count", "st_cuda_set_stream", "st_cuda_synchronize",
	} {
		cname := C.CString(name)
		pending[name] = C.stride_lookup(cname)
		C.free(unsafe.Pointer(cname))
	}
}

func lookup(name string) (unsafe.Pointer, error) {
	if f := pending[name]; f != nil {
		return f, nil
	}
	return nil, &Error{Status: StatusNotImplemented, Message: fmt.Sprintf("%s not in this build of libstride", name)}
}

// HasFunction says whether the loaded libstride exports the C function name.
func HasFunction(name string) bool {
	if f, ok := pending[name]; ok {
		return f != nil
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return C.stride_lookup(cname) != nil
}

// Reshape is a view when the strides allow one, else a contiguous copy.
func (t *Tensor) Reshape(shape ...int64) (*Tensor, error) {
	f, err := lookup("st_reshape")
	if err != nil {
		return nil, err
	}
	p, n, err := dims(shape)
	if err != nil {
		return nil, err
	}
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status { return C.stride_call_reshape(f, h, p, n, out) })
}

// Contiguous is t itself (a new reference) when already laid out as fmt, else a copy.
func (t *Tensor) Contiguous(fmt MemoryFormat) (*Tensor, error) {
	f, err := lookup("st_contiguous")
	if err != nil {
		return nil, err
	}
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.stride_call_contiguous(f, h, C.int32_t(fmt), out)
	})
}

// Clone copies t into new memory (Retain only adds a reference).
func (t *Tensor) Clone(fmt MemoryFormat) (*Tensor, error) {
	f, err := lookup("st_clone")
	if err != nil {
		return nil, err
	}
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.stride_call_clone(f, h, C.int32_t(fmt), out)
	})
}

// CopyFrom writes src, broadcast to t's shape and converted to t's dtype, into t.
func (t *Tensor) CopyFrom(src *Tensor, nonBlocking bool) error {
	f, err := lookup("st_copy")
	if err != nil {
		return err
	}
	d, s := t.handle(), src.handle()
	nb := C.int32_t(0)
	if nonBlocking {
		nb = 1
	}
	return call(func() C.st_status { return C.stride_call_copy(f, d, s, nb) })
}

// To converts to dtype, device and memory format; t itself (a new reference) when nothing changes.
func (t *Tensor) To(dtype DType, device Device, fmt MemoryFormat) (*Tensor, error) {
	f, err := lookup("st_to")
	if err != nil {
		return nil, err
	}
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.stride_call_to(f, h, C.int32_t(dtype), device.c(), C.int32_t(fmt), out)
	})
}

// Fill writes value, converted to t's dtype, into every element.
func (t *Tensor) Fill(value float64) error {
	f, err := lookup("st_fill")
	if err != nil {
		return err
	}
	h := t.handle()
	return call(func() C.st_status { return C.stride_call_fill(f, h, C.double(value)) })
}

// Zero writes zero into every element.
func (t *Tensor) Zero() error {
	f, err := lookup("st_zero")
	if err != nil {
		return err
	}
	h := t.handle()
	return call(func() C.st_status { return C.stride_call_zero(f, h) })
}
