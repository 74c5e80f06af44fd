package stride

import (
	"math"
	"testing"
)

// uint16, uint32, uint64 and the float8 formats: element types and the
// library's conversions, against values worked by hand from the formats.

func converted[T Element](t *testing.T, x *Tensor, dtype DType) []T {
	t.Helper()
	y := must(x.To(dtype, CPUDevice, Preserve))
	defer y.Release()
	return must(ToSlice[T](y))
}

func TestUnsignedElements(t *testing.T) {
	a := must(FromSlice([]uint16{0, 1, 65535}, []int64{3}))
	if must(a.DType()) != Uint16 || must(Get[uint16](a, 2)) != 65535 {
		t.Fatalf("uint16: %v", a)
	}
	b := must(FromSlice([]uint32{math.MaxUint32, 7}, []int64{2}))
	if got := must(ToSlice[uint32](b)); must(b.DType()) != Uint32 || got[0] != math.MaxUint32 || got[1] != 7 {
		t.Fatalf("uint32: %v", got)
	}
	c := must(FromSlice([]uint64{math.MaxUint64, 1 << 63}, []int64{2}))
	// 2^64 - 1 rounds once, to nearest: 2^64 in float64.
	if got := converted[float64](t, c, Float64); must(c.DType()) != Uint64 || got[0] != 0x1p64 || got[1] != 0x1p63 {
		t.Fatalf("uint64 to float64: %v", got)
	}
	if got := c.String(); got != "[18446744073709551615  9223372036854775808]" {
		t.Fatalf("uint64 prints %q", got)
	}
}

func TestSignedToUnsignedWrapsFloatsSaturate(t *testing.T) {
	ints := must(FromSlice([]int64{-1, 65536 + 5, math.MinInt64}, []int64{3}))
	if got := converted[uint16](t, ints, Uint16); got[0] != 65535 || got[1] != 5 || got[2] != 0 {
		t.Fatalf("int64 to uint16: %v", got)
	}
	if got := converted[uint64](t, ints, Uint64); got[0] != math.MaxUint64 || got[1] != 65541 || got[2] != 1<<63 {
		t.Fatalf("int64 to uint64: %v", got)
	}
	floats := must(FromSlice([]float64{2.9, -0.5, -7, 1e30, math.Inf(1), math.NaN()}, []int64{6}))
	want := []uint32{2, 0, 0, math.MaxUint32, math.MaxUint32, 0}
	for i, v := range converted[uint32](t, floats, Uint32) {
		if v != want[i] {
			t.Fatalf("float64 to uint32 [%d]: %d, want %d", i, v, want[i])
		}
	}
}

func TestFloat8Bytes(t *testing.T) {
	// e4m3fn: 1 = 0.0111.000, -3 = 1.1000.100, 448 = 0.1111.110 (max), 464 ties to 448, 2^-9 = 0.0000.001,
	// 500 and inf are NaN (0.1111.111). e5m2: 1 = 0.01111.00, -3 = 1.10000.10, 57344 = 0.11110.11 (max),
	// 61440 ties up to inf (0.11111.00), 2^-16 = 0.00000.01, 2^-17 ties to 0.
	e4 := must(FromSlice([]float32{1, -3, 448, 464, 0x1p-9, 500, float32(math.Inf(1))}, []int64{7}))
	for i, want := range []F8E4M3FN{0x38, 0xC4, 0x7E, 0x7E, 0x01, 0x7F, 0x7F} {
		if got := converted[F8E4M3FN](t, e4, Float8E4M3FN)[i]; got != want {
			t.Fatalf("e4m3fn [%d]: %#x, want %#x", i, got, want)
		}
	}
	e5 := must(FromSlice([]float32{1, -3, 57344, 61440, 0x1p-16, 0x1p-17}, []int64{6}))
	for i, want := range []F8E5M2{0x3C, 0xC2, 0x7B, 0x7C, 0x01, 0x00} {
		if got := converted[F8E5M2](t, e5, Float8E5M2)[i]; got != want {
			t.Fatalf("e5m2 [%d]: %#x, want %#x", i, got, want)
		}
	}
	back := must(FromSlice([]F8E5M2{0x3C, 0x7B, 0x7C, 0x01}, []int64{4}))
	if must(back.DType()) != Float8E5M2 {
		t.Fatal(must(back.DType()))
	}
	for i, want := range []float64{1, 57344, math.Inf(1), 0x1p-16} {
		if got := converted[float64](t, back, Float64)[i]; got != want {
			t.Fatalf("e5m2 decodes [%d] to %v, want %v", i, got, want)
		}
	}
	if nan := must(FromSlice([]F8E4M3FN{0xFF}, []int64{1})); !math.IsNaN(converted[float64](t, nan, Float64)[0]) {
		t.Fatal("e4m3fn 0xff is not NaN")
	}
}

func TestFloat8Prints(t *testing.T) {
	// As NumPy prints the float32 arrays of the values held (worked by hand): in e4m3fn 0.1 is 0.1015625,
	// 3.2 is 3.25 and 500, past 448, NaN; in e5m2 0.1 is 0.09375.
	expectPrints(t, floats([]float64{0.1, -1.5, 3.2, 500}, []int64{4}, Float8E4M3FN),
		"[ 0.1015625 -1.5        3.25             nan]",
		"stride.Tensor([ 0.1015625 -1.5        3.25             nan],\n              dtype=float8_e4m3fn)")
	expectPrints(t, floats([]float64{0.1, -1.5, 3.5, 48}, []int64{4}, Float8E5M2), "[ 0.09375 -1.5      3.5     48.     ]",
		"stride.Tensor([ 0.09375 -1.5      3.5     48.     ], dtype=float8_e5m2)")
}

func TestHeaderVersionAndScaleShift(t *testing.T) {
	if APIVersion != 3 {
		t.Fatalf("APIVersion %d", APIVersion)
	}
	s := ScaleShift{n: 1, saturate: 1}
	if s.n != 1 || s.scale != nil || s.shift != nil || s.dim != 0 || s.saturate != 1 {
		t.Fatalf("%+v", s)
	}
}
