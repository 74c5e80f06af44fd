// Package stride is the Go binding of libstride: strided tensors, views,
// copies between any layouts and dtypes, and DLPack exchange.
//
// A *Tensor owns one reference to a library handle. Call Release when done
// with it; a finalizer releases forgotten tensors as a safety net, at a
// time the garbage collector chooses. Every fallible call returns an error
// of type *Error carrying the status and the library's message; test it
// with errors.Is(err, stride.ErrOutOfBounds) and friends.
//
// The metadata accessors (Ndim, Shape, Strides, DType, Device, Numel,
// StorageOffset, DataPtr, IsContiguous) cannot fail on a live tensor; on
// one already released they panic with an *Error of status
// StatusInvalidHandle, as using a tensor after Release is a bug in the
// program (Released says whether it was).
//
// The library is found through pkg-config: the stride.pc that
// `cmake --install` writes (set PKG_CONFIG_PATH to <prefix>/lib/pkgconfig
// for a prefix outside the system's). The program then needs
// <prefix>/lib on the loader path, or an rpath (see the README).
package stride

/*
#cgo pkg-config: stride
#include <stdlib.h>
#include "stride.h"
#include "helpers.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"runtime/cgo"
	"sync"
	"unsafe"
)

const maxDims = C.ST_MAX_DIMS

// Tensor is one reference to a libstride tensor. Its metadata never
// changes; its memory is shared with every view of it.
//
// Pass *Tensor around; a copy of the pointer, or of the struct, is the same
// reference (releasing either releases both). Retain gives an independent
// reference to the same tensor, Clone a tensor with its own copy of the data.
type Tensor struct {
	*tensorRef
}

// tensorRef holds the handle. Copies of a Tensor struct share it, and the
// finalizer is set on it, so a copy neither loses the reference nor
// releases it twice.
type tensorRef struct {
	mu sync.Mutex
	h  C.st_tensor
}

func adopt(h C.st_tensor) *Tensor {
	r := &tensorRef{h: h}
	runtime.SetFinalizer(r, (*tensorRef).finalize)
	return &Tensor{r}
}

func (r *tensorRef) finalize() {
	if r.h.id != 0 {
		C.st_tensor_release(r.h)
	}
}

// handle is the live handle, or the null one after Release or for a zero
// Tensor (the library then answers ErrInvalidHandle).
func (t *Tensor) handle() C.st_tensor {
	if t.tensorRef == nil {
		return C.st_tensor{}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.h
}

// Release drops this reference now. Releasing twice is not an error.
func (t *Tensor) Release() error {
	if t.tensorRef == nil {
		return nil
	}
	t.mu.Lock()
	h := t.h
	t.h.id = 0
	t.mu.Unlock()
	runtime.SetFinalizer(t.tensorRef, nil)
	if h.id == 0 {
		return nil
	}
	return call(func() C.st_status { return C.st_tensor_release(h) })
}

// Retain returns another *Tensor holding its own reference to the same tensor.
func (t *Tensor) Retain() (*Tensor, error) {
	h := t.handle()
	if err := call(func() C.st_status { return C.st_tensor_retain(h) }); err != nil {
		return nil, err
	}
	return adopt(h), nil
}

// Handle is the st_tensor id (0 once released).
func (t *Tensor) Handle() uint64 { return uint64(t.handle().id) }

func dims(values []int64) (*C.int64_t, C.int32_t, error) {
	if len(values) > maxDims {
		return nil, 0, &Error{Status: StatusInvalidArgument,
			Message: fmt.Sprintf("%d dims is more than ST_MAX_DIMS (%d)", len(values), maxDims)}
	}
	if len(values) == 0 {
		return nil, 0, nil
	}
	return (*C.int64_t)(unsafe.Pointer(&values[0])), C.int32_t(len(values)), nil
}

// plural counts a noun as the library's messages do: "1 dim", "2 dims".
func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

func newTensor(f func(out *C.st_tensor) C.st_status) (*Tensor, error) {
	var out C.st_tensor
	if err := call(func() C.st_status { return f(&out) }); err != nil {
		return nil, err
	}
	return adopt(out), nil
}

// ---- making tensors ------------------------------------------------------------

// New makes an uninitialized row-major tensor.
func New(shape []int64, dtype DType, device Device) (*Tensor, error) {
	p, n, err := dims(shape)
	if err != nil {
		return nil, err
	}
	return newTensor(func(out *C.st_tensor) C.st_status {
		return C.st_tensor_create(p, n, C.st_dtype(dtype), device.c(), out)
	})
}

// NewStrided makes an uninitialized tensor with the given strides (in elements, >= 0).
func NewStrided(shape, strides []int64, dtype DType, device Device) (*Tensor, error) {
	if len(shape) != len(strides) {
		return nil, &Error{Status: StatusInvalidArgument,
			Message: fmt.Sprintf("%d sizes but %d strides", len(shape), len(strides))}
	}
	p, n, err := dims(shape)
	if err != nil {
		return nil, err
	}
	s, _, _ := dims(strides)
	return newTensor(func(out *C.st_tensor) C.st_status {
		return C.st_tensor_create_strided(p, s, n, C.st_dtype(dtype), device.c(), out)
	})
}

// EmptyLike makes an uninitialized tensor shaped like t, laid out as fmt says.
func (t *Tensor) EmptyLike(fmt MemoryFormat) (*Tensor, error) {
	h := t.handle()
	return newTensor(func(out *C.st_tensor) C.st_status {
		return C.st_tensor_create_like(h, C.st_memory_format(fmt), out)
	})
}

// FromSlice makes a row-major CPU tensor holding a copy of data (Go memory
// cannot be lent to C beyond a call, so this copies).
func FromSlice[T Element](data []T, shape []int64) (*Tensor, error) {
	t, err := New(shape, dtypeOf[T](), CPUDevice)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) != t.Numel() {
		t.Release()
		return nil, &Error{Status: StatusShapeMismatch,
			Message: fmt.Sprintf("%d values for shape %v", len(data), shape)}
	}
	if len(data) > 0 {
		copy(unsafe.Slice((*T)(t.DataPtr()), len(data)), data)
	}
	return t, nil
}

// FromPointer wraps memory that is not Go's (C or device memory) without
// copying. data is the address of element (0, …, 0); strides nil means
// row-major. deleter (may be nil) runs exactly once, on any goroutine,
// when the last tensor using the memory is released; never on failure.
//
// The memory must hold every element the layout reaches until then.
func FromPointer(data unsafe.Pointer, shape, strides []int64, dtype DType, device Device, deleter func()) (*Tensor, error) {
	p, n, err := dims(shape)
	if err != nil {
		return nil, err
	}
	var s *C.int64_t
	if strides != nil {
		if len(strides) != len(shape) {
			return nil, &Error{Status: StatusInvalidArgument,
				Message: fmt.Sprintf("%d sizes but %d strides", len(shape), len(strides))}
		}
		s, _, _ = dims(strides)
	}
	var ctx C.uintptr_t
	if deleter != nil {
		h := cgo.NewHandle(deleter)
		ctx = C.uintptr_t(h)
		defer func() {
			if err != nil {
				h.Delete() // the library never calls the deleter on failure
			}
		}()
	}
	var t *Tensor
	t, err = newTensor(func(out *C.st_tensor) C.st_status {
		return C.stride_from_data(data, p, s, n, C.st_dtype(dtype), device.c(), ctx, out)
	})
	return t, err
}

// ---- metadata ------------------------------------------------------------------

func (t *Tensor) mustQuery(f func(h C.st_tensor) C.st_status) error {
	h := t.handle()
	return call(func() C.st_status { return f(h) })
}

// query runs a metadata call, which fails only for a released tensor: then it panics (see the package doc).
func (t *Tensor) query(f func(h C.st_tensor) C.st_status) {
	if err := t.mustQuery(f); err != nil {
		panic(err)
	}
}

// Released says whether Release was called on t (its accessors then panic).
func (t *Tensor) Released() bool { return t.handle().id == 0 }

// Ndim is the number of dims.
func (t *Tensor) Ndim() int {
	var n C.int32_t
	t.query(func(h C.st_tensor) C.st_status { return C.st_tensor_ndim(h, &n) })
	return int(n)
}

func (t *Tensor) dims(f func(h C.st_tensor, out *C.int64_t, capacity C.int32_t) C.st_status) []int64 {
	var buf [maxDims]C.int64_t
	var n C.int32_t
	t.query(func(h C.st_tensor) C.st_status {
		if s := C.st_tensor_ndim(h, &n); s != C.ST_OK {
			return s
		}
		return f(h, &buf[0], maxDims)
	})
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(buf[i])
	}
	return out
}

// Shape is the sizes.
func (t *Tensor) Shape() []int64 {
	return t.dims(func(h C.st_tensor, o *C.int64_t, c C.int32_t) C.st_status { return C.st_tensor_sizes(h, o, c) })
}

// Strides are in elements, any sign.
func (t *Tensor) Strides() []int64 {
	return t.dims(func(h C.st_tensor, o *C.int64_t, c C.int32_t) C.st_status { return C.st_tensor_strides(h, o, c) })
}

// DType is the element type.
func (t *Tensor) DType() DType {
	var d C.st_dtype
	t.query(func(h C.st_tensor) C.st_status { return C.st_tensor_dtype(h, &d) })
	return DType(d)
}

// Device is where the memory lives.
func (t *Tensor) Device() Device {
	var d C.st_device
	t.query(func(h C.st_tensor) C.st_status { return C.st_tensor_device(h, &d) })
	return Device{Type: DeviceType(d._type), Index: int32(d.index)}
}

// Numel is the number of elements (1 for a scalar).
func (t *Tensor) Numel() int64 {
	var n C.int64_t
	t.query(func(h C.st_tensor) C.st_status { return C.st_tensor_numel(h, &n) })
	return int64(n)
}

// StorageOffset counts elements from the storage's lowest address to element (0, …, 0).
func (t *Tensor) StorageOffset() int64 {
	var n C.int64_t
	t.query(func(h C.st_tensor) C.st_status { return C.st_tensor_storage_offset(h, &n) })
	return int64(n)
}

// DataPtr is the address of element (0, …, 0); nil for some empty tensors.
func (t *Tensor) DataPtr() unsafe.Pointer {
	var p unsafe.Pointer
	t.query(func(h C.st_tensor) C.st_status { return C.st_tensor_data_ptr(h, &p) })
	return p
}

// IsContiguous answers as PyTorch does for the memory format.
func (t *Tensor) IsContiguous(fmt MemoryFormat) bool {
	var r C.int32_t
	t.query(func(h C.st_tensor) C.st_status { return C.st_tensor_is_contiguous(h, C.st_memory_format(fmt), &r) })
	return r != 0
}

// live returns an *Error of status StatusInvalidHandle when t was released,
// for the calls that report errors rather than panic.
func (t *Tensor) live() error {
	if t.Released() {
		return &Error{Status: StatusInvalidHandle, Message: "the tensor was released"}
	}
	return nil
}

// ---- views ---------------------------------------------------------------------

func (t *Tensor) view(f func(h C.st_tensor, out *C.st_tensor) C.st_status) (*Tensor, error) {
	h := t.handle()
	return newTensor(func(out *C.st_tensor) C.st_status { return f(h, out) })
}

// AsStrided is a view with any sizes, strides and offset inside t's storage.
func (t *Tensor) AsStrided(shape, strides []int64, storageOffset int64) (*Tensor, error) {
	if len(shape) != len(strides) {
		return nil, &Error{Status: StatusInvalidArgument,
			Message: fmt.Sprintf("%d sizes but %d strides", len(shape), len(strides))}
	}
	p, n, err := dims(shape)
	if err != nil {
		return nil, err
	}
	s, _, _ := dims(strides)
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_as_strided(h, p, s, n, C.int64_t(storageOffset), out)
	})
}

// Permute reorders the dims: dim i of the result is dim dims[i] of t.
func (t *Tensor) Permute(dims ...int32) (*Tensor, error) {
	var p *C.int32_t
	if len(dims) > 0 {
		p = (*C.int32_t)(unsafe.Pointer(&dims[0]))
	}
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_permute(h, p, C.int32_t(len(dims)), out)
	})
}

func (t *Tensor) Transpose(dim0, dim1 int32) (*Tensor, error) {
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_transpose(h, C.int32_t(dim0), C.int32_t(dim1), out)
	})
}

// Slice keeps elements start, start+step, … below stop along dim (Python's rules, step >= 1).
func (t *Tensor) Slice(dim int32, start, stop, step int64) (*Tensor, error) {
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_slice(h, C.int32_t(dim), C.int64_t(start), C.int64_t(stop), C.int64_t(step), out)
	})
}

func (t *Tensor) Select(dim int32, index int64) (*Tensor, error) {
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_select(h, C.int32_t(dim), C.int64_t(index), out)
	})
}

func (t *Tensor) Expand(shape ...int64) (*Tensor, error) {
	p, n, err := dims(shape)
	if err != nil {
		return nil, err
	}
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status { return C.st_expand(h, p, n, out) })
}

func (t *Tensor) Unsqueeze(dim int32) (*Tensor, error) {
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status { return C.st_unsqueeze(h, C.int32_t(dim), out) })
}

func (t *Tensor) Squeeze(dim int32) (*Tensor, error) {
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status { return C.st_squeeze(h, C.int32_t(dim), out) })
}

// Flip reverses dim: a view with a negative stride.
func (t *Tensor) Flip(dim int32) (*Tensor, error) {
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status { return C.st_flip(h, C.int32_t(dim), out) })
}

// View reshapes without copying (one size may be -1).
func (t *Tensor) View(shape ...int64) (*Tensor, error) {
	p, n, err := dims(shape)
	if err != nil {
		return nil, err
	}
	return t.view(func(h C.st_tensor, out *C.st_tensor) C.st_status { return C.st_view(h, p, n, out) })
}

// ---- elements ------------------------------------------------------------------

func elementAddress[T Element](t *Tensor, index []int64) (unsafe.Pointer, error) {
	if err := t.live(); err != nil {
		return nil, err
	}
	if want := dtypeOf[T](); want != t.DType() {
		return nil, &Error{Status: StatusInvalidArgument,
			Message: fmt.Sprintf("elements of type %s requested from a %s tensor", want, t.DType())}
	}
	if t.Device().Type == CUDA {
		return nil, &Error{Status: StatusInvalidArgument, Message: "elements of a CUDA tensor are not host memory"}
	}
	shape, strides := t.Shape(), t.Strides()
	if len(index) != len(shape) {
		return nil, &Error{Status: StatusInvalidArgument,
			Message: fmt.Sprintf("%d indices for a tensor of %d %s", len(index), len(shape), plural(len(shape), "dim"))}
	}
	offset := int64(0)
	for d := range shape {
		i := index[d]
		if i < 0 {
			i += shape[d]
		}
		if i < 0 || i >= shape[d] {
			return nil, &Error{Status: StatusOutOfBounds,
				Message: fmt.Sprintf("index %d is out of range for dim %d of size %d", index[d], d, shape[d])}
		}
		offset += i * strides[d]
	}
	return unsafe.Add(t.DataPtr(), offset*int64(t.DType().Itemsize())), nil
}

// Get reads the element at index (negative indices count from the end).
func Get[T Element](t *Tensor, index ...int64) (T, error) {
	var zero T
	p, err := elementAddress[T](t, index)
	if err != nil {
		return zero, err
	}
	if _, isBool := any(zero).(bool); isBool {
		// Any nonzero byte is true: memory written elsewhere need not hold 0 or 1.
		return any(*(*uint8)(p) != 0).(T), nil
	}
	return *(*T)(p), nil
}

// Set writes the element at index; refused for read-only tensors.
func Set[T Element](t *Tensor, value T, index ...int64) error {
	p, err := elementAddress[T](t, index)
	if err != nil {
		return err
	}
	ro, err := t.IsReadOnly()
	if err != nil {
		return err
	}
	if ro {
		return &Error{Status: StatusReadOnly, Message: "the tensor was imported read-only"}
	}
	*(*T)(p) = value
	return nil
}

// ToSlice copies every element out, in row-major order of the shape.
func ToSlice[T Element](t *Tensor) ([]T, error) {
	if err := t.live(); err != nil {
		return nil, err
	}
	shape := t.Shape()
	n := t.Numel()
	out := make([]T, 0, n)
	index := make([]int64, len(shape))
	for k := int64(0); k < n; k++ {
		v, err := Get[T](t, index...)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		for d := len(shape) - 1; d >= 0; d-- {
			index[d]++
			if index[d] < shape[d] {
				break
			}
			index[d] = 0
		}
	}
	return out, nil
}
