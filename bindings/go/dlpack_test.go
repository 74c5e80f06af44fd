package stride

import (
	"sync/atomic"
	"testing"
	"unsafe"
)

func TestDLPackExportKeepsLayoutAndMemory(t *testing.T) {
	x := arange(3, 4)
	v := must(must(x.Transpose(0, 1)).Flip(1)) // strides (1, -4)
	m := must(v.ToDLPack())
	x.Release()
	v.Release()
	dl := &m.Tensor
	if dl.Ndim != 2 || !equalInts(dl.ShapeSlice(), []int64{4, 3}) || !equalInts(dl.StridesSlice(), []int64{1, -4}) {
		t.Fatalf("exported ndim %d shape %v strides %v", dl.Ndim, dl.ShapeSlice(), dl.StridesSlice())
	}
	if dl.Code != DLFloat || dl.Bits != 32 || dl.Lanes != 1 || dl.DeviceType != 1 || dl.DeviceID != 0 || dl.ByteOffset != 0 {
		t.Fatalf("exported %+v", *dl)
	}
	// Element (i, j) is x[2 - j, i]: (0, 0) is 8, (0, 1) is 4; the memory outlives every handle.
	first := (*float32)(dl.Data)
	if *first != 8 || *(*float32)(unsafe.Add(dl.Data, -16)) != 4 {
		t.Fatal("exported data")
	}
	m.Delete()
}

func TestDLPackVersionedHeader(t *testing.T) {
	x := must(New([]int64{2}, Bool, CPUDevice))
	m := must(x.ToDLPackVersioned())
	if m.Major != 1 || m.Minor != 0 || m.Flags != 0 || m.Tensor.Code != DLBool || m.Tensor.Bits != 8 {
		t.Fatalf("versioned export %d.%d flags %d code %d bits %d", m.Major, m.Minor, m.Flags, m.Tensor.Code, m.Tensor.Bits)
	}
	m.Delete()
	if ro := must(x.IsReadOnly()); ro {
		t.Fatal("a new tensor is writable")
	}
}

func TestDLPackRoundTripAndDeleterOnce(t *testing.T) {
	base := arange(6)
	defer base.Release()
	var calls int32
	src := must(FromPointer(must(base.DataPtr()), []int64{2, 3}, nil, Float32, CPUDevice, func() { atomic.AddInt32(&calls, 1) }))
	view := must(src.Transpose(0, 1))
	m := must(view.ToDLPack())
	mv := must(view.ToDLPackVersioned())
	src.Release()
	view.Release()
	a := must(FromDLPack(m))
	b := must(FromDLPackVersioned(mv))
	if !equalInts(must(a.Strides()), []int64{1, 3}) || must(a.DataPtr()) != must(base.DataPtr()) || !equalInts(must(b.Shape()), []int64{3, 2}) {
		t.Fatalf("round trip strides %v shape %v", must(a.Strides()), must(b.Shape()))
	}
	if got := must(ToSlice[float32](b)); !(got[0] == 0 && got[1] == 3 && got[2] == 1) {
		t.Fatalf("round trip values %v", got)
	}
	a.Release()
	if atomic.LoadInt32(&calls) != 0 {
		t.Fatal("b still uses the memory")
	}
	b.Release()
	if atomic.LoadInt32(&calls) != 1 {
		t.Fatalf("deleter ran %d times", calls)
	}
}

func TestDLPackFailedImportLeavesOwnership(t *testing.T) {
	base := arange(4)
	defer base.Release()
	var calls int32
	src := must(FromPointer(must(base.DataPtr()), []int64{4}, nil, Float32, CPUDevice, func() { atomic.AddInt32(&calls, 1) }))
	m := must(src.ToDLPack())
	mv := must(src.ToDLPackVersioned())
	src.Release()
	m.Tensor.Lanes = 2
	_, err := FromDLPack(m)
	expectStatus(t, err, ErrUnsupportedDtype)
	mv.Major = 2
	_, err = FromDLPackVersioned(mv)
	expectStatus(t, err, ErrInvalidArgument)
	if atomic.LoadInt32(&calls) != 0 {
		t.Fatal("a refused import must not free anything")
	}
	m.Delete()
	mv.Delete()
	if atomic.LoadInt32(&calls) != 1 {
		t.Fatalf("deleter ran %d times", calls)
	}
}

func TestDLPackReadOnlyImport(t *testing.T) {
	x := must(FromSlice([]float64{1, 2}, []int64{2}))
	mv := must(x.ToDLPackVersioned())
	mv.Flags |= DLPackFlagReadOnly
	ro := must(FromDLPackVersioned(mv))
	if !must(ro.IsReadOnly()) || !must(must(ro.Flip(0)).IsReadOnly()) {
		t.Fatal("the flag marks the import and its views read-only")
	}
	expectStatus(t, Set[float64](ro, 5, 0), ErrReadOnly)
	if v := must(Get[float64](x, 0)); v != 1 {
		t.Fatalf("refused write changed the data: %v", v)
	}
}
