package stride

import (
	"math"
	"testing"
)

func TestContiguous(t *testing.T) {
	x := must(arange(3, 4).Transpose(0, 1))
	c := must(x.Contiguous(Contiguous))
	if !equalInts(must(c.Strides()), []int64{3, 1}) || must(c.DataPtr()) == must(x.DataPtr()) {
		t.Fatalf("contiguous strides %v", must(c.Strides()))
	}
	want := []float32{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}
	for i, v := range must(ToSlice[float32](c)) {
		if v != want[i] {
			t.Fatalf("element %d = %v, want %v", i, v, want[i])
		}
	}
	if same := must(c.Contiguous(Contiguous)); same.Handle() != c.Handle() {
		t.Fatal("an already contiguous tensor comes back itself")
	}
	_, err := c.Contiguous(Preserve)
	expectStatus(t, err, ErrInvalidArgument)
}

func TestClone(t *testing.T) {
	f := must(arange(2, 3).Flip(1))
	c := must(f.Clone(Preserve))
	if !equalInts(must(c.Strides()), []int64{3, 1}) {
		t.Fatalf("a negative stride counts by its absolute value: %v", must(c.Strides()))
	}
	want := []float32{2, 1, 0, 5, 4, 3}
	for i, v := range must(ToSlice[float32](c)) {
		if v != want[i] {
			t.Fatalf("element %d = %v, want %v", i, v, want[i])
		}
	}
}

func TestCopyFrom(t *testing.T) {
	dst := must(FromSlice(make([]int32, 6), []int64{2, 3}))
	src := must(FromSlice([]float64{1.7, -2.7, 3.2}, []int64{3}))
	if err := dst.CopyFrom(src, false); err != nil {
		t.Fatal(err)
	}
	want := []int32{1, -2, 3, 1, -2, 3}
	for i, v := range must(ToSlice[int32](dst)) {
		if v != want[i] {
			t.Fatalf("element %d = %v, want %v", i, v, want[i])
		}
	}
	one := must(FromSlice([]float32{0}, []int64{1}))
	expanded := must(one.Expand(3))
	expectStatus(t, expanded.CopyFrom(arange(3), false), ErrOverlap)
	wide := must(FromSlice([]float32{0, 0, 0}, []int64{1, 3}))
	expectStatus(t, must(New([]int64{3}, Float32, CPUDevice)).CopyFrom(wide, false), ErrShapeMismatch)
}

func TestCopyIntoReadOnly(t *testing.T) {
	x := must(FromSlice([]float64{1, 2}, []int64{2}))
	mv := must(x.ToDLPackVersioned())
	mv.Flags |= DLPackFlagReadOnly
	ro := must(FromDLPackVersioned(mv))
	expectStatus(t, ro.CopyFrom(must(FromSlice([]float64{5, 6}, []int64{2})), false), ErrReadOnly)
	expectStatus(t, ro.Fill(3), ErrReadOnly)
	expectStatus(t, ro.Zero(), ErrReadOnly)
	got := must(ToSlice[float64](x))
	if got[0] != 1 || got[1] != 2 {
		t.Fatalf("refused writes changed the data: %v", got)
	}
}

func TestTo(t *testing.T) {
	x := must(FromSlice([]float64{0.5, -1.5, 300, math.NaN()}, []int64{4}))
	u := must(x.To(Uint8, CPUDevice, Preserve))
	want := []uint8{0, 0, 255, 0} // truncation, saturation, NaN -> 0
	for i, v := range must(ToSlice[uint8](u)) {
		if v != want[i] {
			t.Fatalf("element %d = %v, want %v", i, v, want[i])
		}
	}
	if same := must(x.To(Float64, CPUDevice, Preserve)); same.Handle() != x.Handle() {
		t.Fatal("nothing to change: the same tensor")
	}
}

func TestFillZeroReshape(t *testing.T) {
	x := must(FromSlice([]int16{1, 1, 1, 1, 1, 1}, []int64{2, 3}))
	if err := must(x.Slice(1, 0, 3, 2)).Fill(-2.9); err != nil {
		t.Fatal(err)
	}
	want := []int16{-2, 1, -2, -2, 1, -2}
	for i, v := range must(ToSlice[int16](x)) {
		if v != want[i] {
			t.Fatalf("element %d = %v, want %v", i, v, want[i])
		}
	}
	if err := x.Zero(); err != nil {
		t.Fatal(err)
	}
	for _, v := range must(ToSlice[int16](x)) {
		if v != 0 {
			t.Fatal("zero")
		}
	}
	r := must(must(arange(2, 3).Transpose(0, 1)).Reshape(-1))
	wantR := []float32{0, 3, 1, 4, 2, 5}
	for i, v := range must(ToSlice[float32](r)) {
		if v != wantR[i] {
			t.Fatalf("reshape element %d = %v, want %v", i, v, wantR[i])
		}
	}
}
