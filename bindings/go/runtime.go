package stride

/*
#include "stride.h"
#include "helpers.h"
*/
import "C"

import (
	"runtime/cgo"
	"unsafe"
)

// Version is the loaded library's (major, minor, patch).
func Version() (major, minor, patch uint32) {
	v := uint32(C.st_version())
	return v / 10000, v / 100 % 100, v % 100
}

// VersionString is the loaded library's version as text, e.g. "0.2.0".
func VersionString() string { return C.GoString(C.st_version_string()) }

// SetNumThreads sets how many threads CPU kernels may use (n >= 1).
func SetNumThreads(n int) error {
	return call("SetNumThreads", func() C.st_status { return C.st_set_num_threads(C.int32_t(n)) })
}

// NumThreads is the thread count CPU kernels use now.
func NumThreads() int { return int(C.st_get_num_threads()) }

// CPUAllocator provides CPU memory to the library. The library writes every
// byte it asks for, so an implementation must guarantee, for each Alloc
// that returns a non-nil pointer: the pointer starts nbytes of memory that
// is readable and writable from any thread and used by nothing else until
// Free is called with it; it is a multiple of alignment (a power of two);
// the memory is not Go's (the garbage collector would move or free it:
// use C.malloc, mmap or an engine's heap); and it stays valid until Free,
// which is called once, from any goroutine or C thread, possibly after the
// allocator was replaced. Both methods may run on several threads at once
// and must not call this package's tensor functions (they run inside
// them). Returning nil is always allowed: the call then fails with
// ErrOutOfMemory. The binding checks the alignment: a pointer that is not
// a multiple of alignment is handed back to Free at once and counts as a
// failure.
type CPUAllocator interface {
	// Alloc returns nbytes aligned to alignment, or nil on failure.
	Alloc(nbytes, alignment uintptr) unsafe.Pointer
	// Free gives back what Alloc returned, with the byte count it was asked for.
	Free(ptr unsafe.Pointer, nbytes uintptr)
}

// SetCPUAllocator routes later CPU allocations to a; nil restores the
// library's own. A storage is freed by the allocator it came from, so a is
// kept for the rest of the process.
func SetCPUAllocator(a CPUAllocator) error {
	var h C.uintptr_t
	if a != nil {
		h = C.uintptr_t(cgo.NewHandle(a))
	}
	return call("SetCPUAllocator", func() C.st_status { return C.stride_go_set_allocator(h) })
}

// ParallelFor is a host job system: it must call run(begin, end) over
// disjoint chunks covering [0, n), each at least grain long except the
// last, on any goroutines, and return when all are done (the library
// detects one that does not: the call fails with ErrInternal).
type ParallelFor func(n, grain int64, run func(begin, end int64))

func runTask(task, taskCtx unsafe.Pointer, begin, end int64) {
	C.stride_run_task(C.st_parallel_task(task), taskCtx, C.int64_t(begin), C.int64_t(end))
}

// SetParallelFor runs the library's CPU parallelism through f; nil restores the built-in pool.
func SetParallelFor(f ParallelFor) error {
	var h C.uintptr_t
	if f != nil {
		h = C.uintptr_t(cgo.NewHandle(f)) // kept: another thread may still be inside it
	}
	return call("SetParallelFor", func() C.st_status { return C.stride_go_set_parallel_for(h) })
}

// TraceFunc receives each operator's name and duration in nanoseconds, on
// the goroutine that made the call, from inside it; it may call this
// package's functions.
type TraceFunc func(op string, durationNs int64)

// SetTraceCallback calls f after every operator call; nil turns tracing off.
func SetTraceCallback(f TraceFunc) error {
	var h C.uintptr_t
	if f != nil {
		h = C.uintptr_t(cgo.NewHandle(f))
	}
	return call("SetTraceCallback", func() C.st_status { return C.stride_go_set_trace_callback(h) })
}

// CUDADeviceCount is 0 when CUDA is not built in or there is no driver or GPU.
func CUDADeviceCount() (int, error) {
	var n C.int32_t
	err := call("CUDADeviceCount", func() C.st_status { return C.st_cuda_device_count(&n) })
	return int(n), err
}

// CUDASetStream uses the caller's cudaStream_t on device for this OS thread
// (nil: the default stream). Lock the goroutine to its thread first
// (runtime.LockOSThread) for the setting to mean anything.
func CUDASetStream(device int32, stream unsafe.Pointer) error {
	return call("CUDASetStream", func() C.st_status { return C.st_cuda_set_stream(C.int32_t(device), stream) })
}

// CUDASynchronize waits for the library's work on device.
func CUDASynchronize(device int32) error {
	return call("CUDASynchronize", func() C.st_status { return C.st_cuda_synchronize(C.int32_t(device)) })
}

// CUDAEmptyCache gives the library's cached device and pinned memory for
// device back to the driver.
func CUDAEmptyCache(device int32) error {
	return call("CUDAEmptyCache", func() C.st_status { return C.st_cuda_empty_cache(C.int32_t(device)) })
}
