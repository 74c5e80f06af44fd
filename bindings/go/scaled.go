package stride

// #include <stdlib.h>
// #include "stride.h"
import "C"

import "unsafe"

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
// one value (then as many as that dim's size; one value stands for every
// index); an empty slice means scales of 1 or shifts of 0. Integer
// destinations round half to even and clamp; saturate clamps a floating
// destination's overflow to its largest finite value.
func (t *Tensor) CopyScaledFrom(src *Tensor, scale, shift []float64, dim int32, saturate, nonBlocking bool) error {
	const method = "CopyScaledFrom"
	n := len(scale)
	if len(shift) > n {
		n = len(shift)
	}
	if n > 1 {
		shape, err := t.Shape()
		if err != nil {
			return errorf(StatusInvalidHandle, method, "the tensor was released")
		}
		d := int(dim)
		if d < 0 {
			d += len(shape)
		}
		if d < 0 || d >= len(shape) {
			return errorf(StatusInvalidArgument, method, "dim %d is not a dim of the tensor, which has %d", dim, len(shape))
		}
		for _, v := range [][]float64{scale, shift} {
			if len(v) > 1 && int64(len(v)) != shape[d] {
				return errorf(StatusInvalidArgument, method,
					"scale has %d values and shift %d: each may have 0, 1 or %d (the size of dim %d of the tensor)",
					len(scale), len(shift), shape[d], dim)
			}
		}
		scale, shift = widen(scale, n), widen(shift, n)
	}
	if n == 0 {
		n = 1
	}
	// The struct and the arrays live in C memory: cgo passes no Go pointer inside another.
	ss := (*C.st_scale_shift)(C.malloc(C.size_t(unsafe.Sizeof(C.st_scale_shift{}))))
	defer C.free(unsafe.Pointer(ss))
	ss.scale, ss.shift = cDoubles(scale), cDoubles(shift)
	defer C.free(unsafe.Pointer(ss.scale))
	defer C.free(unsafe.Pointer(ss.shift))
	ss.n, ss.dim, ss.saturate = C.int64_t(n), C.int32_t(dim), cBool(saturate)
	return t.useWith(method, "the tensor", src, "src", func(d, s C.st_tensor) C.st_status {
		return C.st_copy_scaled(d, s, ss, cBool(nonBlocking))
	})
}

// widen repeats a single value n times; other slices are returned as they are.
func widen(v []float64, n int) []float64 {
	if len(v) != 1 {
		return v
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = v[0]
	}
	return out
}
