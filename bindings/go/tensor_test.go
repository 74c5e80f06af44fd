package stride

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

func TestNewIsRowMajor(t *testing.T) {
	x := must(New([]int64{2, 3, 4}, Int16, CPUDevice))
	defer x.Release()
	if !equalInts(must(x.Shape()), []int64{2, 3, 4}) || !equalInts(must(x.Strides()), []int64{12, 4, 1}) {
		t.Fatalf("shape %v strides %v", must(x.Shape()), must(x.Strides()))
	}
	if must(x.Ndim()) != 3 || must(x.DType()) != Int16 || must(x.Device()) != CPUDevice || must(x.Numel()) != 24 || must(x.StorageOffset()) != 0 {
		t.Fatalf("metadata %d %v %v %d %d", must(x.Ndim()), must(x.DType()), must(x.Device()), must(x.Numel()), must(x.StorageOffset()))
	}
	if !must(x.IsContiguous(Contiguous)) {
		t.Fatal("a new tensor is contiguous")
	}
	s := must(New(nil, Complex128, CPUDevice))
	if must(s.Ndim()) != 0 || must(s.Numel()) != 1 {
		t.Fatalf("scalar: ndim %d numel %d", must(s.Ndim()), must(s.Numel()))
	}
}

func TestStridedAndLike(t *testing.T) {
	x := must(NewStrided([]int64{2, 3}, []int64{1, 2}, Float64, CPUDevice))
	if must(x.IsContiguous(Contiguous)) || !must(x.IsContiguous(Preserve)) {
		t.Fatal("column-major is dense but not contiguous")
	}
	if got := must(must(x.EmptyLike(Preserve)).Strides()); !equalInts(got, []int64{1, 2}) {
		t.Fatalf("EmptyLike(Preserve) strides %v", got)
	}
	nchw := must(New([]int64{2, 3, 4, 5}, Float32, CPUDevice))
	cl := must(nchw.EmptyLike(ChannelsLast))
	if !equalInts(must(cl.Strides()), []int64{60, 1, 15, 3}) || !must(cl.IsContiguous(ChannelsLast)) {
		t.Fatalf("channels-last strides %v", must(cl.Strides()))
	}
}

func TestEveryDType(t *testing.T) {
	sizes := []int{1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16, 2, 4, 8, 1, 1, 1, 1, 1, 1}
	for i, d := range AllDTypes {
		x := must(New([]int64{3}, d, CPUDevice))
		if must(x.DType()) != d || d.Itemsize() != sizes[i] {
			t.Fatalf("%v: dtype %v itemsize %d", d, must(x.DType()), d.Itemsize())
		}
		x.Release()
	}
	if BFloat16.String() != "bfloat16" {
		t.Fatal(BFloat16.String())
	}
}

func TestFromSliceAndElements(t *testing.T) {
	x := must(FromSlice([]int32{1, 2, 3, 4, 5, 6}, []int64{2, 3}))
	if v := must(Get[int32](x, 1, -1)); v != 6 {
		t.Fatalf("x[1, -1] = %d", v)
	}
	xt := must(x.Transpose(0, 1))
	if err := Set[int32](xt, 30, 2, 0); err != nil {
		t.Fatal(err)
	}
	if v := must(Get[int32](x, 0, 2)); v != 30 {
		t.Fatalf("write through a view: x[0, 2] = %d", v)
	}
	expectStatus(t, func() error { _, err := Get[float32](x, 0, 0); return err }(), ErrInvalidArgument)
	expectStatus(t, func() error { _, err := Get[int32](x, 2, 0); return err }(), ErrOutOfBounds)
	expectStatus(t, func() error { _, err := FromSlice([]float64{1, 2}, []int64{3}); return err }(), ErrShapeMismatch)
	b := must(FromSlice([]bool{true, false, true}, []int64{3}))
	if got := must(ToSlice[bool](b)); !(got[0] && !got[1] && got[2]) {
		t.Fatalf("bools %v", got)
	}
	c := must(FromSlice([]complex64{1 + 2i, 3 - 4i}, []int64{2}))
	if got := must(Get[complex64](c, 1)); got != 3-4i {
		t.Fatalf("complex %v", got)
	}
}

// expectElements checks every element against a reference computed from its index.
func expectElements(t *testing.T, x *Tensor, want func(i []int64) float32) {
	t.Helper()
	shape := must(x.Shape())
	got := must(ToSlice[float32](x))
	index := make([]int64, len(shape))
	for _, v := range got {
		if w := want(index); v != w {
			t.Fatalf("at %v: %v, want %v", index, v, w)
		}
		for d := len(shape) - 1; d >= 0; d-- {
			index[d]++
			if index[d] < shape[d] {
				break
			}
			index[d] = 0
		}
	}
}

func TestViews(t *testing.T) {
	x := arange(2, 3, 4)
	at := func(i, j, k int64) float32 { return float32(i*12 + j*4 + k) }
	expectElements(t, must(x.Permute(2, 0, 1)), func(i []int64) float32 { return at(i[1], i[2], i[0]) })
	expectElements(t, must(x.Transpose(0, 2)), func(i []int64) float32 { return at(i[2], i[1], i[0]) })
	expectElements(t, must(x.Slice(2, 1, 1<<62, 2)), func(i []int64) float32 { return at(i[0], i[1], 1+2*i[2]) })
	expectElements(t, must(x.Select(1, -1)), func(i []int64) float32 { return at(i[0], 2, i[1]) })
	f := must(x.Flip(2))
	if !equalInts(must(f.Strides()), []int64{12, 4, -1}) {
		t.Fatalf("flip strides %v", must(f.Strides()))
	}
	expectElements(t, f, func(i []int64) float32 { return at(i[0], i[1], 3-i[2]) })
	expectElements(t, must(x.View(6, -1)), func(i []int64) float32 { return float32(i[0]*4 + i[1]) })
	expectElements(t, must(x.AsStrided([]int64{3, 2}, []int64{1, 5}, 2)),
		func(i []int64) float32 { return float32(2 + i[0] + 5*i[1]) })
	col := must(must(must(x.Select(0, 0)).Select(1, 0)).Unsqueeze(1)) // (3, 1)
	wide := must(col.Expand(2, 3, 5))
	if must(wide.Strides())[2] != 0 {
		t.Fatalf("expanded strides %v", must(wide.Strides()))
	}
	expectElements(t, wide, func(i []int64) float32 { return at(0, i[1], 0) })
	if !equalInts(must(must(col.Squeeze(1)).Shape()), []int64{3}) {
		t.Fatal("squeeze")
	}
}

func TestErrors(t *testing.T) {
	x := must(New([]int64{2, 3}, Float32, CPUDevice))
	_, err := x.Select(0, 5)
	e := expectStatus(t, err, ErrOutOfBounds)
	// The method the caller called, then the library's message less its C function's name.
	if e.Message != "Select: index = 5 is out of range for dim 0 of size 2" {
		t.Fatalf("message %q", e.Message)
	}
	if !strings.HasPrefix(err.Error(), "ST_ERROR_OUT_OF_BOUNDS: ") || errors.Is(err, ErrOverlap) {
		t.Fatalf("error text %q", err.Error())
	}
	_, err = x.Transpose(0, 7)
	expectStatus(t, err, ErrInvalidArgument)
	_, err = x.View(4)
	expectStatus(t, err, ErrShapeMismatch)
	_, err = New([]int64{-1}, Float32, CPUDevice)
	expectStatus(t, err, ErrInvalidArgument)
	_, err = New([]int64{1 << 62, 1 << 62}, Float32, CPUDevice)
	expectStatus(t, err, ErrOutOfMemory)
	_, err = x.AsStrided([]int64{2, 3}, []int64{3, 1}, 1)
	expectStatus(t, err, ErrOutOfBounds)
	_, err = New(make([]int64, maxDims+1), Float32, CPUDevice)
	expectStatus(t, err, ErrInvalidArgument)
	missing, err := CUDADeviceCount() // one past the last GPU, or 0 without any
	if err != nil {
		t.Fatal(err)
	}
	_, err = New([]int64{2}, Float32, CUDADevice(int32(missing)))
	expectStatus(t, err, ErrDeviceUnavailable)
}

func TestReleaseAndRetain(t *testing.T) {
	x := must(New([]int64{2}, Float32, CPUDevice))
	y := must(x.Retain())
	if x.Handle() != y.Handle() {
		t.Fatal("Retain is the same tensor")
	}
	if err := x.Release(); err != nil {
		t.Fatal(err)
	}
	if err := x.Release(); err != nil {
		t.Fatal("a second Release is not an error")
	}
	_, err := x.Select(0, 0)
	expectStatus(t, err, ErrInvalidHandle)
	if !equalInts(must(y.Shape()), []int64{2}) {
		t.Fatal("y keeps its own reference")
	}
	y.Release()
}

// A copy of the Tensor struct is the same reference as the original: the
// garbage collector finalizing the original's pointer must not release the
// handle under the copy, and releasing through either releases both once.
func TestStructCopyIsTheSameReference(t *testing.T) {
	x := arange(2, 3)
	kept := *x
	x = nil
	for i := 0; i < 3; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // finalizers run on their own goroutine
	}
	got := must(ToSlice[float32](&kept))
	if len(got) != 6 || got[5] != 5 {
		t.Fatalf("the copy reads %v, want 0..5", got)
	}
	alias := kept
	if err := alias.Release(); err != nil {
		t.Fatal(err)
	}
	if !kept.Released() {
		t.Fatal("releasing one copy of the struct releases the reference they share")
	}
	if err := kept.Release(); err != nil {
		t.Fatal("the other copy's Release is a second Release, not an error:", err)
	}
	var zero Tensor
	if !zero.Released() || zero.Release() != nil {
		t.Fatal("a zero Tensor reads as released")
	}
	_, err := zero.Clone(Contiguous)
	expectStatus(t, err, ErrInvalidHandle)
}

func TestDeleterRunsOnceAtLastRelease(t *testing.T) {
	base := arange(3)
	defer base.Release()
	var calls int32
	// Element (0) is base[2]; the stride goes down to base[0].
	last := unsafe.Add(must(base.DataPtr()), 2*4)
	u := must(FromPointer(last, []int64{3}, []int64{-1}, Float32, CPUDevice, func() { atomic.AddInt32(&calls, 1) }))
	if got := must(ToSlice[float32](u)); got[0] != 2 || got[1] != 1 || got[2] != 0 {
		t.Fatalf("reversed wrap %v", got)
	}
	v := must(u.Select(0, 0))
	u.Release()
	if atomic.LoadInt32(&calls) != 0 {
		t.Fatal("the view keeps the memory")
	}
	v.Release()
	if atomic.LoadInt32(&calls) != 1 {
		t.Fatalf("deleter ran %d times", calls)
	}
	_, err := FromPointer(nil, []int64{3}, nil, Float32, CPUDevice, func() { atomic.AddInt32(&calls, 1) })
	expectStatus(t, err, ErrInvalidArgument)
	if atomic.LoadInt32(&calls) != 1 {
		t.Fatal("the deleter never runs on failure")
	}
}

func TestFinalizerReleasesForgottenTensors(t *testing.T) {
	base := arange(4)
	defer base.Release()
	var calls int32
	func() {
		must(FromPointer(must(base.DataPtr()), []int64{4}, nil, Float32, CPUDevice, func() { atomic.AddInt32(&calls, 1) }))
	}()
	deadline := time.Now().Add(10 * time.Second)
	for atomic.LoadInt32(&calls) == 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if atomic.LoadInt32(&calls) != 1 {
		t.Fatal("the finalizer never released the forgotten tensor")
	}
}

func TestConcurrentUse(t *testing.T) {
	x := arange(10, 10)
	var wg sync.WaitGroup
	got := make([]float32, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			row := must(x.Select(0, int64(i)))
			defer row.Release()
			got[i] = must(Get[float32](row, int64(i)))
		}(i)
	}
	wg.Wait()
	for i, v := range got {
		if v != float32(11*i) {
			t.Fatalf("diagonal %d = %v", i, v)
		}
	}
}

func TestVersionAndThreads(t *testing.T) {
	major, minor, patch := Version()
	if VersionString() != strings.Join([]string{itoa(major), itoa(minor), itoa(patch)}, ".") {
		t.Fatalf("version %d.%d.%d vs %q", major, minor, patch, VersionString())
	}
	before := NumThreads()
	defer SetNumThreads(before)
	if err := SetNumThreads(3); err != nil || NumThreads() != 3 {
		t.Fatalf("SetNumThreads(3): %v, now %d", err, NumThreads())
	}
	expectStatus(t, SetNumThreads(0), ErrInvalidArgument)
}

func itoa(v uint32) string {
	if v == 0 {
		return "0"
	}
	s := ""
	for ; v > 0; v /= 10 {
		s = string(rune('0'+v%10)) + s
	}
	return s
}

// Every method on a released tensor answers an error that names the method
// and says "released"; none panics.
func TestReleasedTensorAnswersErrors(t *testing.T) {
	x := must(New([]int64{2}, Float32, CPUDevice))
	other := must(New([]int64{2}, Float32, CPUDevice))
	defer other.Release()
	plan := must(NewCopyPlan(other, x, false))
	x.Release()
	calls := map[string]func() error{
		"Ndim":          func() error { _, err := x.Ndim(); return err },
		"Shape":         func() error { _, err := x.Shape(); return err },
		"Strides":       func() error { _, err := x.Strides(); return err },
		"DType":         func() error { _, err := x.DType(); return err },
		"Device":        func() error { _, err := x.Device(); return err },
		"Numel":         func() error { _, err := x.Numel(); return err },
		"StorageOffset": func() error { _, err := x.StorageOffset(); return err },
		"DataPtr":       func() error { _, err := x.DataPtr(); return err },
		"IsContiguous":  func() error { _, err := x.IsContiguous(Contiguous); return err },
		"IsReadOnly":    func() error { _, err := x.IsReadOnly(); return err },
		"Retain":        func() error { _, err := x.Retain(); return err },
		"Select":        func() error { _, err := x.Select(0, 0); return err },
		"Clone":         func() error { _, err := x.Clone(Contiguous); return err },
		"ToDLPack":      func() error { _, err := x.ToDLPack(); return err },
		"Fill":          func() error { return x.Fill(1) },
		"Zero":          func() error { return x.Zero() },
		"CopyFrom":      func() error { return x.CopyFrom(other, false) },
		"CopyScaledFrom": func() error {
			return x.CopyScaledFrom(other, []float64{2}, nil, 0, false, false)
		},
		"Get":     func() error { _, err := Get[float32](x, 0); return err },
		"Set":     func() error { return Set[float32](x, 1, 0) },
		"ToSlice": func() error { _, err := ToSlice[float32](x); return err },
	}
	for method, f := range calls {
		e := expectStatus(t, f(), ErrInvalidHandle)
		if want := method + ": the tensor was released"; e.Message != want {
			t.Errorf("%s: message %q, want %q", method, e.Message, want)
		}
	}
	// A released argument is named as the method names it.
	e := expectStatus(t, other.CopyFrom(x, false), ErrInvalidHandle)
	if e.Message != "CopyFrom: src was released" {
		t.Errorf("message %q", e.Message)
	}
	e = expectStatus(t, plan.Execute(other, x, false), ErrInvalidHandle)
	if e.Message != "Execute: src was released" {
		t.Errorf("message %q", e.Message)
	}
	plan.Release()
	e = expectStatus(t, plan.Execute(other, other, false), ErrInvalidHandle)
	if e.Message != "Execute: the plan was released" {
		t.Errorf("message %q", e.Message)
	}
	if x.String() != "stride.Tensor(released)" {
		t.Errorf("String %q", x.String())
	}
}
