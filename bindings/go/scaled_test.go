package stride

import (
	"math"
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
	// One value stands for every index along the dim: shift -1 for each of the 3 columns.
	if err := back.CopyScaledFrom(x, []float64{4, 2, 1}, []float64{-1}, -1, false, false); err != nil {
		t.Fatal(err)
	}
	wantX = []float32{0, 0.5, 99, -1.5, -0.25, -41}
	for i, v := range must(ToSlice[float32](back)) {
		if v != wantX[i] {
			t.Fatalf("widened element %d = %v, want %v", i, v, wantX[i])
		}
	}
}

// The errors speak of scale, shift and dim, the arguments the caller wrote.
func TestCopyScaledErrors(t *testing.T) {
	x := must(FromSlice([]float32{1, 1, 1, 1, 1, 1}, []int64{2, 3}))
	y := must(New([]int64{2, 3}, Float32, CPUDevice))
	cases := []struct {
		scale, shift []float64
		dim          int32
		message      string
	}{
		{[]float64{1, 2}, nil, 1,
			"CopyScaledFrom: scale has 2 values and shift 0: each may have 0, 1 or 3 (the size of dim 1 of the tensor)"},
		{[]float64{1, 2, 3}, []float64{1, 2}, 1,
			"CopyScaledFrom: scale has 3 values and shift 2: each may have 0, 1 or 3 (the size of dim 1 of the tensor)"},
		{nil, []float64{1, 2, 3}, 2, "CopyScaledFrom: dim 2 is not a dim of the tensor, which has 2"},
	}
	for _, c := range cases {
		e := expectStatus(t, y.CopyScaledFrom(x, c.scale, c.shift, c.dim, false, false), ErrInvalidArgument)
		if e.Message != c.message {
			t.Errorf("message %q, want %q", e.Message, c.message)
		}
	}
	// The library's own findings come under the method's name too.
	z := must(FromSlice([]complex64{1, 2, 3, 4, 5, 6}, []int64{2, 3}))
	e := expectStatus(t, y.CopyScaledFrom(z, nil, nil, 0, false, false), ErrUnsupportedDtype)
	if !strings.HasPrefix(e.Message, "CopyScaledFrom: ") || strings.Contains(e.Message, "st_copy_scaled") {
		t.Errorf("message %q", e.Message)
	}
}

// ToTensor + Normalize (torchvision's): (x / 255 - mean[c]) / std[c] of a
// uint8 NHWC batch into float32 NCHW, as one scaled copy from a permuted
// view, against the formula evaluated here in float64.
func TestNormalizeUint8NHWCIntoFloat32NCHW(t *testing.T) {
	const n, h, w = 2, 3, 5
	pixels := make([]uint8, n*h*w*3)
	for i := range pixels {
		pixels[i] = uint8(i * 37 % 256)
	}
	nhwc := must(FromSlice(pixels, []int64{n, h, w, 3}))
	mean, std := []float64{0.485, 0.456, 0.406}, []float64{0.229, 0.224, 0.225}
	scale, shift := make([]float64, 3), make([]float64, 3)
	for c := range scale {
		scale[c], shift[c] = 1/(255*std[c]), -mean[c]/std[c]
	}
	out := must(New([]int64{n, 3, h, w}, Float32, CPUDevice))
	if err := out.CopyScaledFrom(must(nhwc.Permute(0, 3, 1, 2)), scale, shift, 1, false, false); err != nil {
		t.Fatal(err)
	}
	got := must(ToSlice[float32](out))
	k := 0
	for b := 0; b < n; b++ {
		for c := 0; c < 3; c++ {
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					v := float64(pixels[((b*h+y)*w+x)*3+c])
					want := (v/255 - mean[c]) / std[c]
					if math.Abs(float64(got[k])-want) > 1e-6*math.Max(math.Abs(want), 1) {
						t.Fatalf("image %d channel %d pixel (%d, %d): %v, want %v", b, c, y, x, got[k], want)
					}
					k++
				}
			}
		}
	}
}
