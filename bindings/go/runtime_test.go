package stride

import (
	"sync"
	"syscall"
	"testing"
	"unsafe"
)

// mmapAllocator hands out pages the Go heap does not own (C memory rules).
type mmapAllocator struct {
	mu    sync.Mutex
	pages map[uintptr][]byte
	log   []string
}

func (a *mmapAllocator) Alloc(nbytes, alignment uintptr) unsafe.Pointer {
	b, err := syscall.Mmap(-1, 0, int(nbytes), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	p := unsafe.Pointer(&b[0])
	a.mu.Lock()
	a.pages[uintptr(p)] = b
	a.log = append(a.log, "alloc")
	a.mu.Unlock()
	return p
}

func (a *mmapAllocator) Free(ptr unsafe.Pointer, nbytes uintptr) {
	a.mu.Lock()
	b := a.pages[uintptr(ptr)]
	delete(a.pages, uintptr(ptr))
	a.log = append(a.log, "free")
	a.mu.Unlock()
	syscall.Munmap(b)
}

type failingAllocator struct{}

func (failingAllocator) Alloc(nbytes, alignment uintptr) unsafe.Pointer { return nil }
func (failingAllocator) Free(ptr unsafe.Pointer, nbytes uintptr)        {}

func TestCPUAllocator(t *testing.T) {
	a := &mmapAllocator{pages: map[uintptr][]byte{}}
	if err := SetCPUAllocator(a); err != nil {
		t.Fatal(err)
	}
	x, err := New([]int64{10, 10}, Float32, CPUDevice)
	SetCPUAllocator(nil) // x is still freed by the allocator it came from
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := a.pages[uintptr(must(x.DataPtr()))]; !ok || len(a.log) != 1 {
		t.Fatalf("the tensor's memory did not come from the allocator: %v", a.log)
	}
	x.Release()
	if len(a.log) != 2 || a.log[1] != "free" || len(a.pages) != 0 {
		t.Fatalf("log %v, pages left %d", a.log, len(a.pages))
	}
	SetCPUAllocator(failingAllocator{})
	_, err = New([]int64{4}, Float32, CPUDevice)
	SetCPUAllocator(nil)
	expectStatus(t, err, ErrOutOfMemory)
}

func TestParallelFor(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	before := NumThreads()
	SetNumThreads(2)
	defer SetNumThreads(before)
	err := SetParallelFor(func(n, grain int64, run func(begin, end int64)) {
		mu.Lock()
		calls++
		mu.Unlock()
		mid := n
		if n >= 2*grain {
			mid = n / 2
		}
		var wg sync.WaitGroup
		for _, r := range [][2]int64{{0, mid}, {mid, n}} {
			if r[0] < r[1] {
				wg.Add(1)
				go func(b, e int64) { defer wg.Done(); run(b, e) }(r[0], r[1])
			}
		}
		wg.Wait()
	})
	if err != nil {
		t.Fatal(err)
	}
	src := must(arange(1024, 1024).Transpose(0, 1))
	dst := must(New([]int64{1024, 1024}, Float64, CPUDevice))
	err = dst.CopyFrom(src, false)
	SetParallelFor(nil)
	if err != nil {
		t.Fatal(err)
	}
	if calls == 0 {
		t.Fatal("the library never used the job system for a 4 MiB transposing copy")
	}
	if v := must(Get[float64](dst, 3, 5)); v != 5*1024+3 {
		t.Fatalf("dst[3, 5] = %v", v)
	}
}

func TestTraceCallback(t *testing.T) {
	var mu sync.Mutex
	var names []string
	SetTraceCallback(func(op string, ns int64) {
		mu.Lock()
		names = append(names, op)
		mu.Unlock()
	})
	_, err := must(arange(4, 4).Transpose(0, 1)).Clone(Preserve)
	SetTraceCallback(nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, n := range names {
		seen[n] = true
	}
	if !seen["clone"] || !seen["copy_"] {
		t.Fatalf("trace saw %v", names)
	}
}

func TestCUDAQueries(t *testing.T) {
	n, err := CUDADeviceCount()
	if err != nil || n < 0 {
		t.Fatalf("count %d, %v", n, err)
	}
	if n == 0 {
		expectStatus(t, CUDASynchronize(0), ErrDeviceUnavailable)
		expectStatus(t, CUDAEmptyCache(0), ErrDeviceUnavailable)
	} else {
		if err := CUDASynchronize(0); err != nil {
			t.Fatal(err)
		}
		if err := CUDAEmptyCache(0); err != nil {
			t.Fatal(err)
		}
	}
	expectStatus(t, CUDAEmptyCache(-1), ErrInvalidArgument)
}
