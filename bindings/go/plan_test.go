package stride

import (
	"runtime"
	"testing"
	"time"
	"unsafe"
)

func TestCopyPlanTransposes(t *testing.T) {
	src := must(arange(2, 3).Transpose(0, 1))
	dst := must(New([]int64{3, 2}, Float32, CPUDevice))
	p := must(NewCopyPlan(dst, src, false))
	if err := p.Execute(dst, src, false); err != nil {
		t.Fatal(err)
	}
	want := []float32{0, 3, 1, 4, 2, 5}
	for i, v := range must(ToSlice[float32](dst)) {
		if v != want[i] {
			t.Fatalf("element %d = %v, want %v", i, v, want[i])
		}
	}
	// Raw memory laid out as the plan's tensors: src is column-major.
	rawSrc := []float32{10, 11, 12, 13, 14, 15}
	rawDst := make([]float32, 6)
	if err := p.ExecuteRaw(unsafe.Pointer(&rawDst[0]), unsafe.Pointer(&rawSrc[0]), false); err != nil {
		t.Fatal(err)
	}
	wantRaw := []float32{10, 13, 11, 14, 12, 15}
	for i := range rawDst {
		if rawDst[i] != wantRaw[i] {
			t.Fatalf("raw element %d = %v, want %v", i, rawDst[i], wantRaw[i])
		}
	}
	if err := p.Release(); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, p.Execute(dst, src, false), ErrInvalidHandle)
	if err := p.Release(); err != nil {
		t.Fatal("releasing twice is not an error")
	}
}

// A copy of the CopyPlan struct is the same plan: it runs while the
// original's pointer is collected, and one Release frees it for both.
func TestCopyPlanStructCopyIsTheSamePlan(t *testing.T) {
	src, dst := arange(4), must(New([]int64{4}, Float32, CPUDevice))
	before := must(LivePlanCount())
	p := must(NewCopyPlan(dst, src, false))
	kept := *p
	p = nil
	for i := 0; i < 3; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if err := kept.Execute(dst, src, false); err != nil {
		t.Fatal("the copy still runs the plan:", err)
	}
	if v := must(ToSlice[float32](dst)); v[3] != 3 {
		t.Fatalf("dst = %v, want 0..3", v)
	}
	alias := kept
	if err := alias.Release(); err != nil || kept.Release() != nil {
		t.Fatal("one Release for the shared plan, the second is no error")
	}
	if n := must(LivePlanCount()); n != before {
		t.Fatalf("%d live plans, want %d", n, before)
	}
}

func TestCopyPlanErrors(t *testing.T) {
	src := must(FromSlice([]uint8{1, 2, 3}, []int64{3}))
	dst := must(New([]int64{2, 3}, Float32, CPUDevice))
	p := must(NewCopyPlan(dst, src, true))
	got := must(ToSlice[float32](dst))
	for i, v := range got {
		if v != float32(i%3+1) {
			t.Fatalf("measured plan left element %d = %v", i, v)
		}
	}
	wide := must(New([]int64{2, 4}, Float32, CPUDevice))
	expectStatus(t, p.Execute(wide, src, false), ErrInvalidArgument)
	expectStatus(t, p.ExecuteRaw(nil, must(src.DataPtr()), false), ErrInvalidArgument)
	short := must(New([]int64{4}, Uint8, CPUDevice))
	_, err := NewCopyPlan(dst, short, false)
	expectStatus(t, err, ErrShapeMismatch)
	if err := p.Release(); err != nil {
		t.Fatal(err)
	}
	if n := must(LivePlanCount()); n != 0 {
		t.Fatalf("%d plans live", n)
	}
}
