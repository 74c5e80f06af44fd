package stride

// #include <stdlib.h>
// #include "stride.h"
import "C"

import (
	"fmt"
	"unsafe"
)

// cDoubles copies v into C memory (nil for an empty slice); the caller frees it.
func cDoubles(v []float64) *C.double {
	if len(v) == 0 {
		return nil
	}
	p := (*C.double)(C.malloc(C.size_t(len(v)) * C.size_t(unsafe.Sizeof(C.double(0)))))
	copy(unsafe.Slice((*float64)(unsafe.Pointer(p)), len(v)), v)
	return p
}

// CopyScaledFrom writes R(fma(src, scale[c], shift[c])) into t (st_copy_scaled):
// c is the element's index along dim of t when scale or shift has more than
// one value (as many as that dim's size); an empty slice means scales of 1 or
// shifts of 0. Integer destinations round half to even and clamp; saturate
// clamps a floating destination's overflow to its largest finite value.
func (t *Tensor) CopyScaledFrom(src *Tensor, scale, shift []float64, dim int32, saturate, nonBlocking bool) error {
	n := 1
	if len(scale) > n {
		n = len(scale)
	}
	if len(shift) > n {
		n = len(shift)
	}
	if (len(scale) != 0 && len(scale) != n) || (len(shift) != 0 && len(shift) != n) {
		return fmt.Errorf("CopyScaledFrom: scale has %d values and shift %d", len(scale), len(shift))
	}
	d, s := t.handle(), src.handle()
	// The struct and the arrays live in C memory: cgo passes no Go pointer inside another.
	ss := (*C.st_scale_shift)(C.malloc(C.size_t(unsafe.Sizeof(C.st_scale_shift{}))))
	defer C.free(unsafe.Pointer(ss))
	ss.scale, ss.shift = cDoubles(scale), cDoubles(shift)
	defer C.free(unsafe.Pointer(ss.scale))
	defer C.free(unsafe.Pointer(ss.shift))
	ss.n, ss.dim = C.int64_t(n), C.int32_t(dim)
	ss.saturate = 0
	if saturate {
		ss.saturate = 1
	}
	nb := C.int32_t(0)
	if nonBlocking {
		nb = 1
	}
	return call(func() C.st_status { return C.st_copy_scaled(d, s, ss, nb) })
}
