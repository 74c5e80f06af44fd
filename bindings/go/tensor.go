// Package stride is the Go binding of libstride: strided tensors, views,
// copies between any layouts and dtypes, block-scaled formats (MXFP8,
// MXFP6, MXFP4, MXINT8, NVFP4) and DLPack exchange.
//
// A *Tensor owns one reference to a library handle. Call Release when done
// with it; a finalizer releases forgotten tensors as a safety net, at a
// time the garbage collector chooses. Every method that can fail, the
// metadata accessors (Shape, DType, ...) included, returns an error of
// type *Error carrying the status and a message that names the method;
// test it with errors.Is(err, stride.ErrOutOfBounds) and friends. A method
// called on a released tensor returns an error of status
// StatusInvalidHandle whose message says the tensor was released.
//
// Each method keeps its tensors reachable until the library is done with
// them (runtime.KeepAlive), and Get, Set and ToSlice hold a reference of
// their own while they touch the memory, so neither the garbage collector
// nor a Release on another goroutine frees memory under a call. Writing
// one tensor's elements from two goroutines at once (Set, Fill, CopyFrom
// into views of one storage) is a data race, as with a slice.
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

// handle is the live handle, or the null one after Release or for a zero Tensor.
func (t *Tensor) handle() C.st_tensor {
	if t == nil || t.tensorRef == nil {
		return C.st_tensor{}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.h
}

// live is t's handle for a call of method, or an error of status
// StatusInvalidHandle saying that t (called name in the message: "the
// tensor", "src") was released.
func (t *Tensor) live(method, name string) (C.st_tensor, error) {
	h := t.handle()
	if h.id == 0 {
		return h, errorf(StatusInvalidHandle, method, "%s was released", name)
	}
	return h, nil
}

// use runs one C call of method on t's handle and keeps t reachable until
// it returns, so that t's finalizer cannot release the handle under it.
func (t *Tensor) use(method string, f func(h C.st_tensor) C.st_status) error {
	h, err := t.live(method, "the tensor")
	if err != nil {
		return err
	}
	err = call(method, func() C.st_status { return f(h) })
	runtime.KeepAlive(t)
	return err
}

// useWith is use for a call on t and another tensor; the names are the
// ones a message gives them ("the tensor", "dst", "src").
func (t *Tensor) useWith(method, name string, other *Tensor, otherName string, f func(h, o C.st_tensor) C.st_status) error {
	h, err := t.live(method, name)
	if err != nil {
		return err
	}
	o, err := other.live(method, otherName)
	if err != nil {
		return err
	}
	err = call(method, func() C.st_status { return f(h, o) })
	runtime.KeepAlive(t)
	runtime.KeepAlive(other)
	return err
}

// Release drops this reference now. Releasing twice is not an error.
func (t *Tensor) Release() error {
	if t == nil || t.tensorRef == nil {
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
	return call("Release", func() C.st_status { return C.st_tensor_release(h) })
}

// Retain returns another *Tensor holding its own reference to the same tensor.
func (t *Tensor) Retain() (*Tensor, error) {
	var h C.st_tensor
	err := t.use("Retain", func(x C.st_tensor) C.st_status { h = x; return C.st_tensor_retain(x) })
	if err != nil {
		return nil, err
	}
	return adopt(h), nil
}

// Handle is the st_tensor id (0 once released). The handle stays live only
// while t does: use runtime.KeepAlive(t) after the last C call given it.
func (t *Tensor) Handle() uint64 { return uint64(t.handle().id) }

func dims(method string, values []int64) (*C.int64_t, C.int32_t, error) {
	if len(values) > maxDims {
		return nil, 0, errorf(StatusInvalidArgument, method, "%d dims is more than ST_MAX_DIMS (%d)", len(values), maxDims)
	}
	if len(values) == 0 {
		return nil, 0, nil
	}
	return (*C.int64_t)(unsafe.Pointer(&values[0])), C.int32_t(len(values)), nil
}

func sameLengths(method string, shape, strides []int64) error {
	if len(shape) != len(strides) {
		return errorf(StatusInvalidArgument, method, "%d sizes but %d strides", len(shape), len(strides))
	}
	return nil
}

// plural counts a noun as the library's messages do: "1 dim", "2 dims".
func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

func newTensor(method string, f func(out *C.st_tensor) C.st_status) (*Tensor, error) {
	var out C.st_tensor
	if err := call(method, func() C.st_status { return f(&out) }); err != nil {
		return nil, err
	}
	return adopt(out), nil
}

// ---- making tensors ------------------------------------------------------------

// New makes an uninitialized row-major tensor.
func New(shape []int64, dtype DType, device Device) (*Tensor, error) {
	return create("New", shape, dtype, device)
}

func create(method string, shape []int64, dtype DType, device Device) (*Tensor, error) {
	p, n, err := dims(method, shape)
	if err != nil {
		return nil, err
	}
	return newTensor(method, func(out *C.st_tensor) C.st_status {
		return C.st_tensor_create(p, n, C.st_dtype(dtype), device.c(), out)
	})
}

// NewStrided makes an uninitialized tensor with the given strides (in elements, >= 0).
func NewStrided(shape, strides []int64, dtype DType, device Device) (*Tensor, error) {
	if err := sameLengths("NewStrided", shape, strides); err != nil {
		return nil, err
	}
	p, n, err := dims("NewStrided", shape)
	if err != nil {
		return nil, err
	}
	s, _, _ := dims("NewStrided", strides)
	return newTensor("NewStrided", func(out *C.st_tensor) C.st_status {
		return C.st_tensor_create_strided(p, s, n, C.st_dtype(dtype), device.c(), out)
	})
}

// EmptyLike makes an uninitialized tensor shaped like t, laid out as fmt says.
func (t *Tensor) EmptyLike(fmt MemoryFormat) (*Tensor, error) {
	return t.view("EmptyLike", func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_tensor_create_like(h, C.st_memory_format(fmt), out)
	})
}

// FromSlice makes a row-major CPU tensor holding a copy of data (Go memory
// cannot be lent to C beyond a call, so this copies).
func FromSlice[T Element](data []T, shape []int64) (*Tensor, error) {
	t, err := create("FromSlice", shape, dtypeOf[T](), CPUDevice)
	if err != nil {
		return nil, err
	}
	numel, _ := t.Numel()
	if int64(len(data)) != numel {
		t.Release()
		return nil, errorf(StatusShapeMismatch, "FromSlice", "%d values for shape %v", len(data), shape)
	}
	if len(data) > 0 {
		p, _ := t.DataPtr()
		copy(unsafe.Slice((*T)(p), len(data)), data)
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
	p, n, err := dims("FromPointer", shape)
	if err != nil {
		return nil, err
	}
	var s *C.int64_t
	if strides != nil {
		if err := sameLengths("FromPointer", shape, strides); err != nil {
			return nil, err
		}
		s, _, _ = dims("FromPointer", strides)
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
	t, err = newTensor("FromPointer", func(out *C.st_tensor) C.st_status {
		return C.stride_from_data(data, p, s, n, C.st_dtype(dtype), device.c(), ctx, out)
	})
	return t, err
}

// ---- metadata ------------------------------------------------------------------
// Each accessor fails only for a released tensor (or a zero Tensor).

// Released says whether Release was called on t.
func (t *Tensor) Released() bool { return t.handle().id == 0 }

func ndimOf(h C.st_tensor, n *C.int32_t) C.st_status { return C.st_tensor_ndim(h, n) }

// Ndim is the number of dims.
func (t *Tensor) Ndim() (int, error) {
	var n C.int32_t
	err := t.use("Ndim", func(h C.st_tensor) C.st_status { return ndimOf(h, &n) })
	return int(n), err
}

// dimsOf reads sizes or strides (f) of h into out.
func dimsOf(h C.st_tensor, out *[]int64, f func(h C.st_tensor, out *C.int64_t, capacity C.int32_t) C.st_status) C.st_status {
	var buf [maxDims]C.int64_t
	var n C.int32_t
	if s := ndimOf(h, &n); s != C.ST_OK {
		return s
	}
	if s := f(h, &buf[0], maxDims); s != C.ST_OK {
		return s
	}
	*out = make([]int64, n)
	for i := range *out {
		(*out)[i] = int64(buf[i])
	}
	return C.ST_OK
}

func sizesOf(h C.st_tensor, out *[]int64) C.st_status {
	return dimsOf(h, out, func(h C.st_tensor, o *C.int64_t, c C.int32_t) C.st_status { return C.st_tensor_sizes(h, o, c) })
}

func stridesOf(h C.st_tensor, out *[]int64) C.st_status {
	return dimsOf(h, out, func(h C.st_tensor, o *C.int64_t, c C.int32_t) C.st_status { return C.st_tensor_strides(h, o, c) })
}

// Shape is the sizes.
func (t *Tensor) Shape() ([]int64, error) {
	var out []int64
	err := t.use("Shape", func(h C.st_tensor) C.st_status { return sizesOf(h, &out) })
	return out, err
}

// Strides are in elements, any sign.
func (t *Tensor) Strides() ([]int64, error) {
	var out []int64
	err := t.use("Strides", func(h C.st_tensor) C.st_status { return stridesOf(h, &out) })
	return out, err
}

// DType is the element type.
func (t *Tensor) DType() (DType, error) {
	var d C.st_dtype
	err := t.use("DType", func(h C.st_tensor) C.st_status { return C.st_tensor_dtype(h, &d) })
	return DType(d), err
}

func deviceOf(h C.st_tensor, out *Device) C.st_status {
	var d C.st_device
	s := C.st_tensor_device(h, &d)
	*out = Device{Type: DeviceType(d._type), Index: int32(d.index)}
	return s
}

// Device is where the memory lives.
func (t *Tensor) Device() (Device, error) {
	var d Device
	err := t.use("Device", func(h C.st_tensor) C.st_status { return deviceOf(h, &d) })
	return d, err
}

// Numel is the number of elements (1 for a scalar).
func (t *Tensor) Numel() (int64, error) {
	var n C.int64_t
	err := t.use("Numel", func(h C.st_tensor) C.st_status { return C.st_tensor_numel(h, &n) })
	return int64(n), err
}

// StorageOffset counts elements from the storage's lowest address to element (0, …, 0).
func (t *Tensor) StorageOffset() (int64, error) {
	var n C.int64_t
	err := t.use("StorageOffset", func(h C.st_tensor) C.st_status { return C.st_tensor_storage_offset(h, &n) })
	return int64(n), err
}

// DataPtr is the address of element (0, …, 0); nil for some empty tensors.
// The memory stays valid while t (or a view of it) does: keep t reachable
// (runtime.KeepAlive(t)) after the last use of the pointer.
func (t *Tensor) DataPtr() (unsafe.Pointer, error) {
	var p unsafe.Pointer
	err := t.use("DataPtr", func(h C.st_tensor) C.st_status { return C.st_tensor_data_ptr(h, &p) })
	return p, err
}

// IsContiguous answers as PyTorch does for the memory format.
func (t *Tensor) IsContiguous(fmt MemoryFormat) (bool, error) {
	var r C.int32_t
	err := t.use("IsContiguous", func(h C.st_tensor) C.st_status {
		return C.st_tensor_is_contiguous(h, C.st_memory_format(fmt), &r)
	})
	return r != 0, err
}

// ---- views ---------------------------------------------------------------------

func (t *Tensor) view(method string, f func(h C.st_tensor, out *C.st_tensor) C.st_status) (*Tensor, error) {
	var out C.st_tensor
	if err := t.use(method, func(h C.st_tensor) C.st_status { return f(h, &out) }); err != nil {
		return nil, err
	}
	return adopt(out), nil
}

// AsStrided is a view with any sizes, strides and offset inside t's storage.
func (t *Tensor) AsStrided(shape, strides []int64, storageOffset int64) (*Tensor, error) {
	if err := sameLengths("AsStrided", shape, strides); err != nil {
		return nil, err
	}
	p, n, err := dims("AsStrided", shape)
	if err != nil {
		return nil, err
	}
	s, _, _ := dims("AsStrided", strides)
	return t.view("AsStrided", func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_as_strided(h, p, s, n, C.int64_t(storageOffset), out)
	})
}

// Permute reorders the dims: dim i of the result is dim dims[i] of t.
func (t *Tensor) Permute(dims ...int32) (*Tensor, error) {
	var p *C.int32_t
	if len(dims) > 0 {
		p = (*C.int32_t)(unsafe.Pointer(&dims[0]))
	}
	return t.view("Permute", func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_permute(h, p, C.int32_t(len(dims)), out)
	})
}

func (t *Tensor) Transpose(dim0, dim1 int32) (*Tensor, error) {
	return t.view("Transpose", func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_transpose(h, C.int32_t(dim0), C.int32_t(dim1), out)
	})
}

// Slice keeps elements start, start+step, … below stop along dim (Python's rules, step >= 1).
func (t *Tensor) Slice(dim int32, start, stop, step int64) (*Tensor, error) {
	return t.view("Slice", func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_slice(h, C.int32_t(dim), C.int64_t(start), C.int64_t(stop), C.int64_t(step), out)
	})
}

func (t *Tensor) Select(dim int32, index int64) (*Tensor, error) {
	return t.view("Select", func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_select(h, C.int32_t(dim), C.int64_t(index), out)
	})
}

func (t *Tensor) Expand(shape ...int64) (*Tensor, error) {
	p, n, err := dims("Expand", shape)
	if err != nil {
		return nil, err
	}
	return t.view("Expand", func(h C.st_tensor, out *C.st_tensor) C.st_status { return C.st_expand(h, p, n, out) })
}

func (t *Tensor) Unsqueeze(dim int32) (*Tensor, error) {
	return t.view("Unsqueeze", func(h C.st_tensor, out *C.st_tensor) C.st_status {
		return C.st_unsqueeze(h, C.int32_t(dim), out)
	})
}

func (t *Tensor) Squeeze(dim int32) (*Tensor, error) {
	return t.view("Squeeze", func(h C.st_tensor, out *C.st_tensor) C.st_status { return C.st_squeeze(h, C.int32_t(dim), out) })
}

// Flip reverses dim: a view with a negative stride.
func (t *Tensor) Flip(dim int32) (*Tensor, error) {
	return t.view("Flip", func(h C.st_tensor, out *C.st_tensor) C.st_status { return C.st_flip(h, C.int32_t(dim), out) })
}

// View reshapes without copying (one size may be -1).
func (t *Tensor) View(shape ...int64) (*Tensor, error) {
	p, n, err := dims("View", shape)
	if err != nil {
		return nil, err
	}
	return t.view("View", func(h C.st_tensor, out *C.st_tensor) C.st_status { return C.st_view(h, p, n, out) })
}

// ---- elements ------------------------------------------------------------------

// hostElements is what element access needs of a CPU tensor: the address of
// element (0, ..., 0), the shape and the strides.
type hostElements struct {
	first          unsafe.Pointer
	shape, strides []int64
	itemsize       int64
}

// withElements runs f on t's elements, holding a reference of its own to t's
// handle meanwhile: neither t's finalizer nor a Release on another goroutine
// can free the memory while f reads or writes it.
func withElements[T Element](method string, t *Tensor, f func(h C.st_tensor, e hostElements) error) error {
	h, err := t.live(method, "the tensor")
	if err != nil {
		return err
	}
	if err := call(method, func() C.st_status { return C.st_tensor_retain(h) }); err != nil {
		return err // released by another goroutine since
	}
	defer C.st_tensor_release(h)
	defer runtime.KeepAlive(t)
	var e hostElements
	var dtype C.st_dtype
	var device Device
	err = call(method, func() C.st_status {
		for _, s := range []C.st_status{C.st_tensor_dtype(h, &dtype), deviceOf(h, &device), sizesOf(h, &e.shape),
			stridesOf(h, &e.strides), C.st_tensor_data_ptr(h, &e.first)} {
			if s != C.ST_OK {
				return s
			}
		}
		return C.ST_OK
	})
	if err != nil {
		return err
	}
	if want := dtypeOf[T](); want != DType(dtype) {
		return errorf(StatusInvalidArgument, method, "elements of type %s requested from a %s tensor", want, DType(dtype))
	}
	if device.Type == CUDA {
		return errorf(StatusInvalidArgument, method, "elements of a CUDA tensor are not host memory")
	}
	e.itemsize = int64(DType(dtype).Itemsize())
	return f(h, e)
}

// at is the address of the element at index (negative indices count from the end).
func (e hostElements) at(method string, index []int64) (unsafe.Pointer, error) {
	if len(index) != len(e.shape) {
		return nil, errorf(StatusInvalidArgument, method, "%d indices for a tensor of %d %s",
			len(index), len(e.shape), plural(len(e.shape), "dim"))
	}
	offset := int64(0)
	for d := range e.shape {
		i := index[d]
		if i < 0 {
			i += e.shape[d]
		}
		if i < 0 || i >= e.shape[d] {
			return nil, errorf(StatusOutOfBounds, method, "index %d is out of range for dim %d of size %d",
				index[d], d, e.shape[d])
		}
		offset += i * e.strides[d]
	}
	return unsafe.Add(e.first, offset*e.itemsize), nil
}

func read[T Element](p unsafe.Pointer) T {
	var zero T
	if _, isBool := any(zero).(bool); isBool {
		// Any nonzero byte is true: memory written elsewhere need not hold 0 or 1.
		return any(*(*uint8)(p) != 0).(T)
	}
	return *(*T)(p)
}

// Get reads the element at index (negative indices count from the end).
func Get[T Element](t *Tensor, index ...int64) (T, error) {
	var v T
	err := withElements[T]("Get", t, func(_ C.st_tensor, e hostElements) error {
		p, err := e.at("Get", index)
		if err == nil {
			v = read[T](p)
		}
		return err
	})
	return v, err
}

// Set writes the element at index; refused for read-only tensors.
func Set[T Element](t *Tensor, value T, index ...int64) error {
	return withElements[T]("Set", t, func(h C.st_tensor, e hostElements) error {
		p, err := e.at("Set", index)
		if err != nil {
			return err
		}
		ro, err := readOnly("Set", h)
		if err != nil {
			return err
		}
		if ro {
			return errorf(StatusReadOnly, "Set", "the tensor was imported read-only")
		}
		*(*T)(p) = value
		return nil
	})
}

// ToSlice copies every element out, in row-major order of the shape.
func ToSlice[T Element](t *Tensor) ([]T, error) {
	var out []T
	err := withElements[T]("ToSlice", t, func(_ C.st_tensor, e hostElements) error {
		n := int64(1)
		for _, s := range e.shape {
			n *= s
		}
		out = make([]T, 0, n)
		index := make([]int64, len(e.shape))
		for k := int64(0); k < n; k++ {
			p, err := e.at("ToSlice", index)
			if err != nil {
				return err
			}
			out = append(out, read[T](p))
			for d := len(e.shape) - 1; d >= 0; d-- {
				index[d]++
				if index[d] < e.shape[d] {
					break
				}
				index[d] = 0
			}
		}
		return nil
	})
	return out, err
}
