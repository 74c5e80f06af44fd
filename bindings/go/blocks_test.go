package stride

import (
	"math"
	"strings"
	"testing"
)

// e2m1 is the E2M1 magnitude of each code 0..7.
var e2m1 = [8]float32{0, 0.5, 1, 1.5, 2, 3, 4, 6}

// blockCodes is a block of 32 E2M1 codes: magnitude code i % 8, negative (+8) for i in 8..16 and 24..32.
func blockCodes() []uint8 {
	c := make([]uint8, 32)
	for i := range c {
		c[i] = uint8(i % 8)
		if (i/8)%2 == 1 {
			c[i] += 8
		}
	}
	return c
}

func e2m1Value(code uint8, k int) float32 {
	v := e2m1[code&7] * float32(math.Ldexp(1, k))
	if code&8 != 0 {
		return -v
	}
	return v
}

func checkBytes[T uint8 | F8E8M0FNU | F4E2M1FNX2 | F8E4M3FN](t *testing.T, what string, x *Tensor, want []T) {
	t.Helper()
	got := must(ToSlice[T](x))
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", what, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s[%d] = %#x, want %#x", what, i, got[i], want[i])
		}
	}
}

func checkShape(t *testing.T, what string, x *Tensor, shape []int64, dtype DType) {
	t.Helper()
	if s := must(x.Shape()); !equalInts(s, shape) {
		t.Fatalf("%s has shape %v, want %v", what, s, shape)
	}
	if d := must(x.DType()); d != dtype {
		t.Fatalf("%s is %v, want %v", what, d, dtype)
	}
}

func TestQuantizeBlocksMXFP4(t *testing.T) {
	// Row 0 at 2^2, row 1 at 2^-5: amax 6 · 2^k, floor(log2 amax) = 2 + k and E2M1's emax is 2, so
	// X = 2^k, the e8m0 byte is 127 + k, and each element is its code exactly.
	codes := blockCodes()
	var src []float32
	for _, k := range []int{2, -5} {
		for _, c := range codes {
			src = append(src, e2m1Value(c, k))
		}
	}
	x := must(FromSlice(src, []int64{2, 32}))
	values, scales, err := QuantizeBlocks(x, MXFP4E2M1, -1, ScaleFloor, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkShape(t, "values", values, []int64{2, 16}, Float4E2M1FNX2)
	checkShape(t, "scales", scales, []int64{2, 1}, Float8E8M0FNU)
	checkBytes(t, "scales", scales, []F8E8M0FNU{129, 122})
	// Byte j: element 2j in the low nibble, 2j + 1 in the high one.
	var row []F4E2M1FNX2
	for j := 0; j < 16; j++ {
		row = append(row, F4E2M1FNX2(codes[2*j]|codes[2*j+1]<<4))
	}
	checkBytes(t, "values", values, append(append([]F4E2M1FNX2(nil), row...), row...))

	// Back exactly, -0 included.
	y, err := DequantizeBlocks(values, scales, MXFP4E2M1, -1, 0, Float32)
	if err != nil {
		t.Fatal(err)
	}
	checkShape(t, "dequantized", y, []int64{2, 32}, Float32)
	for i, v := range must(ToSlice[float32](y)) {
		if math.Float32bits(v) != math.Float32bits(src[i]) {
			t.Fatalf("dequantized[%d] = %v, want %v", i, v, src[i])
		}
	}

	// The same blocks along dim 0 of the transpose, into outputs of ours; back into a transposed float64.
	xt := must(x.Transpose(0, 1))
	tv := must(New([]int64{16, 2}, Float4E2M1FNX2, CPUDevice))
	ts := must(New([]int64{1, 2}, Float8E8M0FNU, CPUDevice))
	if err := QuantizeBlocksInto(tv, ts, xt, MXFP4E2M1, 0, ScaleFloor, 0); err != nil {
		t.Fatal(err)
	}
	var pairs []F4E2M1FNX2
	for _, b := range row {
		pairs = append(pairs, b, b)
	}
	checkBytes(t, "transposed values", tv, pairs)
	checkBytes(t, "transposed scales", ts, []F8E8M0FNU{129, 122})
	y64 := must(New([]int64{2, 32}, Float64, CPUDevice))
	if err := DequantizeBlocksInto(must(y64.Transpose(0, 1)), tv, ts, MXFP4E2M1, 0, 0); err != nil {
		t.Fatal(err)
	}
	for i, v := range must(ToSlice[float64](y64)) {
		if math.Float64bits(v) != math.Float64bits(float64(src[i])) {
			t.Fatalf("dequantized float64[%d] = %v, want %v", i, v, src[i])
		}
	}
}

func TestQuantizeBlocksNVFP4(t *testing.T) {
	// 40 ones, g = 1 (0): blocks of 16, the third partial. s = 1/6 rounded on E4M3 = 11 · 2^-6 =
	// 0.171875 (0.0100.011 = 0x23); 1 / s = 5.82 rounds to E2M1's 6 (code 7, bytes 0x77), which
	// dequantizes to 6 · 0.171875 = 1.03125.
	ones := make([]float32, 3*40)
	for i := range ones {
		ones[i] = 1
	}
	x := must(FromSlice(ones, []int64{3, 40}))
	values, scales, err := QuantizeBlocks(x, NVFP4, 1, ScaleFloor, 0)
	if err != nil {
		t.Fatal(err)
	}
	checkShape(t, "values", values, []int64{3, 20}, Float4E2M1FNX2)
	checkShape(t, "scales", scales, []int64{3, 3}, Float8E4M3FN)
	for _, b := range must(ToSlice[F4E2M1FNX2](values)) {
		if b != 0x77 {
			t.Fatalf("a value byte is %#x, want 0x77", b)
		}
	}
	for _, b := range must(ToSlice[F8E4M3FN](scales)) {
		if b != 0x23 {
			t.Fatalf("a scale is %#x, want 0x23", b)
		}
	}
	y := must(DequantizeBlocks(values, scales, NVFP4, 1, 0, Float32))
	for i, v := range must(ToSlice[float32](y)) {
		if v != 1.03125 {
			t.Fatalf("dequantized[%d] = %v, want 1.03125", i, v)
		}
	}
}

// Each error keeps the outputs as they were.
func TestQuantizeBlocksErrors(t *testing.T) {
	odd := must(FromSlice(make([]float32, 31), []int64{31}))
	_, _, err := QuantizeBlocks(odd, MXFP4E2M1, -1, ScaleFloor, 0)
	expectStatus(t, err, ErrInvalidArgument)
	x := must(FromSlice(make([]float32, 32), []int64{32}))
	_, _, err = QuantizeBlocks(x, MXFP4E2M1, 1, ScaleFloor, 0)
	if e := expectStatus(t, err, ErrInvalidArgument); !strings.HasPrefix(e.Message, "QuantizeBlocks: dim = 1") {
		t.Fatalf("message %q", e.Message)
	}

	// Values of another dtype than the format's.
	sentinel := make([]uint8, 16)
	for i := range sentinel {
		sentinel[i] = 0xA5
	}
	values := must(FromSlice(sentinel, []int64{16}))
	scales := must(FromSlice([]F8E8M0FNU{0x5A}, []int64{1}))
	err = QuantizeBlocksInto(values, scales, x, MXFP4E2M1, -1, ScaleFloor, 0)
	if e := expectStatus(t, err, ErrUnsupportedDtype); !strings.HasPrefix(e.Message, "QuantizeBlocksInto: ") {
		t.Fatalf("message %q", e.Message)
	}
	checkBytes(t, "values", values, sentinel)
	checkBytes(t, "scales", scales, []F8E8M0FNU{0x5A})

	// A destination that is not a float; scales of the wrong shape.
	v, s, err := QuantizeBlocks(x, MXFP4E2M1, -1, ScaleFloor, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = DequantizeBlocks(v, s, MXFP4E2M1, -1, 0, Int32)
	expectStatus(t, err, ErrUnsupportedDtype)
	dst := must(FromSlice([]float32{7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
		7, 7, 7, 7, 7}, []int64{32}))
	wide := must(FromSlice([]F8E8M0FNU{127, 127}, []int64{2}))
	expectStatus(t, DequantizeBlocksInto(dst, v, wide, MXFP4E2M1, -1, 0), ErrShapeMismatch)
	for i, e := range must(ToSlice[float32](dst)) {
		if e != 7 {
			t.Fatalf("dst[%d] = %v after a failed call, want 7", i, e)
		}
	}

	// A released operand.
	s.Release()
	err = DequantizeBlocksInto(dst, v, s, MXFP4E2M1, -1, 0)
	if e := expectStatus(t, err, ErrInvalidHandle); e.Message != "DequantizeBlocksInto: scales was released" {
		t.Fatalf("message %q", e.Message)
	}
}
