package stride

import (
	"strings"
	"testing"
)

func TestCopyScaled(t *testing.T) {
	// QuantizeLinear per row: y_scale (0.5, 0.25), zero points (1, -2); ties to even, clamped.
	x := must(FromSlice([]float32{0.25, 0.75, 100, -0.125, 0.375, -40}, []int64{2, 3}))
	q := must(New([]int64{2, 3}, Int8, CPUDevice))
	if err := q.CopyScaledFrom(x, []float64{2, 4}, []float64{1, -2}, 0, false, false); err != nil {
		t.Fatal(err)
	}
	wantQ := []int8{2, 2, 127, -2, 0, -128}
	for i, v := range must(ToSlice[int8](q)) {
		if v != wantQ[i] {
			t.Fatalf("quantized element %d = %v, want %v", i, v, wantQ[i])
		}
	}
	// DequantizeLinear back, per tensor: (q - 1) * 0.5 = fma(q, 0.5, -0.5).
	back := must(New([]int64{2, 3}, Float32, CPUDevice))
	if err := back.CopyScaledFrom(q, []float64{0.5}, []float64{-0.5}, 0, false, false); err != nil {
		t.Fatal(err)
	}
	wantX := []float32{0.5, 0.5, 63, -1.5, -0.5, -64.5}
	for i, v := range must(ToSlice[float32](back)) {
		if v != wantX[i] {
			t.Fatalf("dequantized element %d = %v, want %v", i, v, wantX[i])
		}
	}
	err := back.CopyScaledFrom(x, []float64{1, 2}, nil, 1, false, false)
	expectStatus(t, err, ErrInvalidArgument)
	if !strings.Contains(err.Error(), "ss->n = 2") {
		t.Fatalf("message %q", err.Error())
	}
	if err := back.CopyScaledFrom(x, []float64{1, 2, 3}, []float64{1}, 1, false, false); err == nil {
		t.Fatal("scale and shift of different lengths are refused")
	}
}
