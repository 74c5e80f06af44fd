package stride

/*
#include "stride.h"
#include "helpers.h"
*/
import "C"

import "unsafe"

// DLPack type codes and the read-only flag (DLPack 1.x).
const (
	DLInt     = 0
	DLUInt    = 1
	DLFloat   = 2
	DLBfloat  = 4
	DLComplex = 5
	DLBool    = 6

	DLPackFlagReadOnly = 1 << 0
)

// DLTensor mirrors DLPack's DLTensor field for field.
type DLTensor struct {
	Data       unsafe.Pointer
	DeviceType int32
	DeviceID   int32
	Ndim       int32
	Code       uint8
	Bits       uint8
	Lanes      uint16
	Shape      *int64
	Strides    *int64
	ByteOffset uint64
}

// ShapeSlice and StridesSlice view the arrays the tensor points at.
func (t *DLTensor) ShapeSlice() []int64   { return unsafe.Slice(t.Shape, t.Ndim) }
func (t *DLTensor) StridesSlice() []int64 { return unsafe.Slice(t.Strides, t.Ndim) }

// DLManagedTensor mirrors DLPack's classic managed tensor.
type DLManagedTensor struct {
	Tensor     DLTensor
	ManagerCtx unsafe.Pointer
	Deleter    unsafe.Pointer
}

// Delete calls the producer's deleter (once; m is gone afterwards).
func (m *DLManagedTensor) Delete() {
	if m.Deleter != nil {
		C.stride_call_dl_deleter(m.Deleter, unsafe.Pointer(m))
	}
}

// DLManagedTensorVersioned mirrors DLPack 1.x's versioned managed tensor.
type DLManagedTensorVersioned struct {
	Major, Minor uint32
	ManagerCtx   unsafe.Pointer
	Deleter      unsafe.Pointer
	Flags        uint64
	Tensor       DLTensor
}

// Delete calls the producer's deleter (once; m is gone afterwards).
func (m *DLManagedTensorVersioned) Delete() {
	if m.Deleter != nil {
		C.stride_call_dl_versioned_deleter(m.Deleter, unsafe.Pointer(m))
	}
}

// ToDLPack exports t without copying; the caller must call Delete once.
func (t *Tensor) ToDLPack() (*DLManagedTensor, error) {
	var p *C.struct_DLManagedTensor
	if err := t.use("ToDLPack", func(h C.st_tensor) C.st_status { return C.st_to_dlpack(h, &p) }); err != nil {
		return nil, err
	}
	return (*DLManagedTensor)(unsafe.Pointer(p)), nil
}

// ToDLPackVersioned exports t as DLPack 1.0 without copying; the caller must call Delete once.
func (t *Tensor) ToDLPackVersioned() (*DLManagedTensorVersioned, error) {
	var p *C.struct_DLManagedTensorVersioned
	if err := t.use("ToDLPackVersioned", func(h C.st_tensor) C.st_status { return C.st_to_dlpack_versioned(h, &p) }); err != nil {
		return nil, err
	}
	return (*DLManagedTensorVersioned)(unsafe.Pointer(p)), nil
}

// FromDLPack wraps a producer's tensor without copying; on success the
// library owns m (and calls its deleter once, when done), on failure the caller still does.
// m must be C memory.
func FromDLPack(m *DLManagedTensor) (*Tensor, error) {
	p := (*C.struct_DLManagedTensor)(unsafe.Pointer(m))
	return newTensor("FromDLPack", func(out *C.st_tensor) C.st_status { return C.st_from_dlpack(p, out) })
}

// FromDLPackVersioned is FromDLPack for DLPack 1.x; the read-only flag makes the tensor read-only.
func FromDLPackVersioned(m *DLManagedTensorVersioned) (*Tensor, error) {
	p := (*C.struct_DLManagedTensorVersioned)(unsafe.Pointer(m))
	return newTensor("FromDLPackVersioned", func(out *C.st_tensor) C.st_status { return C.st_from_dlpack_versioned(p, out) })
}

// IsReadOnly says whether t was imported read-only (DLPack flag).
func (t *Tensor) IsReadOnly() (bool, error) {
	var ro bool
	err := t.use("IsReadOnly", func(h C.st_tensor) C.st_status {
		var s C.st_status
		ro, s = readOnlyFlag(h)
		return s
	})
	return ro, err
}

// readOnly is IsReadOnly for a handle the caller keeps live.
func readOnly(method string, h C.st_tensor) (bool, error) {
	var ro bool
	err := call(method, func() C.st_status {
		var s C.st_status
		ro, s = readOnlyFlag(h)
		return s
	})
	return ro, err
}

// readOnlyFlag exports h to read the flag and deletes the export.
func readOnlyFlag(h C.st_tensor) (bool, C.st_status) {
	var p *C.struct_DLManagedTensorVersioned
	if s := C.st_to_dlpack_versioned(h, &p); s != C.ST_OK {
		return false, s
	}
	m := (*DLManagedTensorVersioned)(unsafe.Pointer(p))
	ro := m.Flags&DLPackFlagReadOnly != 0
	m.Delete()
	return ro, C.ST_OK
}
