package stride

import (
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// quarantine is a CPUAllocator whose freed blocks are made inaccessible
// (PROT_NONE) instead of reused, so a read or write after free faults at
// once, in Go or in the library, and the test binary dies there. The last
// quarantineBlocks freed blocks stay protected; older ones are unmapped.
type quarantine struct {
	mu    sync.Mutex
	live  map[uintptr][]byte
	freed [][]byte
}

const quarantineBlocks = 4096

func (q *quarantine) Alloc(nbytes, alignment uintptr) unsafe.Pointer {
	// mmap's pages are aligned far beyond the 64 bytes the library asks.
	b, err := syscall.Mmap(-1, 0, int(nbytes), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.live[uintptr(unsafe.Pointer(&b[0]))] = b
	return unsafe.Pointer(&b[0])
}

func (q *quarantine) Free(ptr unsafe.Pointer, nbytes uintptr) {
	q.mu.Lock()
	defer q.mu.Unlock()
	b := q.live[uintptr(ptr)]
	delete(q.live, uintptr(ptr))
	if err := syscall.Mprotect(b, syscall.PROT_NONE); err != nil {
		panic(err)
	}
	q.freed = append(q.freed, b)
	if len(q.freed) > quarantineBlocks {
		syscall.Munmap(q.freed[0])
		q.freed = q.freed[1:]
	}
}

// Every method that hands the library a handle, or reaches memory derived
// from a tensor, keeps that tensor reachable until it is done: a tensor
// that is referenced only by the call it is passed to is never finalized
// under the call. A goroutine runs the collector in a loop beside the calls;
// freed memory faults (quarantine). Run it with -race and
// GODEBUG=cgocheck=2 (tools/test-bindings.sh go does).
func TestFinalizersNeverFreeMemoryUnderACall(t *testing.T) {
	if err := SetCPUAllocator(&quarantine{live: map[uintptr][]byte{}}); err != nil {
		t.Fatal(err)
	}
	defer SetCPUAllocator(nil)
	stop := make(chan struct{})
	var collector sync.WaitGroup
	collector.Add(1)
	go func() {
		defer collector.Done()
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	}()
	shape := []int64{256}
	fresh := func() *Tensor { return must(New(shape, Float32, CPUDevice)) }
	plan := must(NewCopyPlan(fresh(), fresh(), false))
	defer plan.Release()
	rounds, deadline := 0, time.Now().Add(2*time.Second)
	for ; rounds < 100000 && time.Now().Before(deadline); rounds++ {
		// Each tensor below is reachable only through the call it is passed to.
		if err := Set[float32](fresh(), 1, 255); err != nil {
			t.Fatal(err)
		}
		x := fresh()
		if err := x.Fill(3); err != nil {
			t.Fatal(err)
		}
		if v := must(Get[float32](x, 255)); v != 3 {
			t.Fatalf("round %d: Get read %v, want 3", rounds, v)
		}
		y := fresh()
		if err := y.Fill(4); err != nil {
			t.Fatal(err)
		}
		if v := must(ToSlice[float32](y)); v[255] != 4 {
			t.Fatalf("round %d: ToSlice read %v, want 4", rounds, v[255])
		}
		if err := fresh().CopyFrom(fresh(), false); err != nil {
			t.Fatal(err)
		}
		if err := fresh().CopyScaledFrom(fresh(), []float64{2}, nil, 0, false, false); err != nil {
			t.Fatal(err)
		}
		if err := plan.Execute(fresh(), fresh(), false); err != nil {
			t.Fatal(err)
		}
		if must(fresh().Numel()) != 256 {
			t.Fatal("Numel")
		}
	}
	close(stop)
	collector.Wait()
	t.Logf("%d rounds beside the collector", rounds)
}
