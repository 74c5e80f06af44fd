package stride

// Functions the C side calls back into. A file with //export may only
// declare C functions in its preamble, so the trampolines live in helpers.c.

// #include <stdint.h>
// #include <stddef.h>
import "C"

import (
	"fmt"
	"os"
	"runtime/cgo"
	"unsafe"
)

// noUnwind keeps a Go panic from unwinding through the library's C frames
// (which would skip its cleanup): the process ends with the panic's value.
// Deferred first thing in every callback.
func noUnwind() {
	if r := recover(); r != nil {
		fmt.Fprintf(os.Stderr, "stride: panic in a callback from libstride: %v\n", r)
		os.Exit(2)
	}
}

//export goStrideDeleter
func goStrideDeleter(data unsafe.Pointer, ctx C.uintptr_t) {
	defer noUnwind()
	h := cgo.Handle(ctx)
	f := h.Value().(func())
	h.Delete()
	f()
}

//export goStrideAlloc
func goStrideAlloc(ctx C.uintptr_t, nbytes C.size_t, alignment C.size_t) unsafe.Pointer {
	defer noUnwind()
	a := cgo.Handle(ctx).Value().(CPUAllocator)
	p := a.Alloc(uintptr(nbytes), uintptr(alignment))
	// The alignment is the one promise of CPUAllocator the binding can check.
	if p != nil && alignment > 0 && uintptr(p)%uintptr(alignment) != 0 {
		a.Free(p, uintptr(nbytes))
		return nil
	}
	return p
}

//export goStrideFree
func goStrideFree(ctx C.uintptr_t, ptr unsafe.Pointer, nbytes C.size_t) {
	defer noUnwind()
	cgo.Handle(ctx).Value().(CPUAllocator).Free(ptr, uintptr(nbytes))
}

//export goStrideParallelFor
func goStrideParallelFor(ctx C.uintptr_t, n C.int64_t, grain C.int64_t, task unsafe.Pointer, taskCtx unsafe.Pointer) {
	defer noUnwind()
	f := cgo.Handle(ctx).Value().(ParallelFor)
	f(int64(n), int64(grain), func(begin, end int64) { runTask(task, taskCtx, begin, end) })
}

//export goStrideTrace
func goStrideTrace(ctx C.uintptr_t, name *C.char, ns C.int64_t) {
	defer noUnwind()
	cgo.Handle(ctx).Value().(TraceFunc)(C.GoString(name), int64(ns))
}
