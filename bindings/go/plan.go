package stride

// #include "stride.h"
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

// CopyPlan is dst.CopyFrom(src) prepared once (st_copy_plan_create) for
// tensors laid out as these: Execute runs it on tensors with the same
// shapes, strides, dtypes and devices (data and storage offsets may
// differ), ExecuteRaw on the addresses of element (0, ..., 0) of such
// tensors. The results are CopyFrom's, overlap included. The plan keeps
// neither tensor; Release (or the garbage collector) frees it. One plan
// may be executed from several goroutines at once on different data.
//
// As with Tensor, a copy of the pointer or of the struct is the same plan.
type CopyPlan struct {
	*planRef
}

// planRef holds the handle, shared by copies of a CopyPlan struct and
// finalized once (see tensorRef).
type planRef struct {
	mu sync.Mutex
	h  C.st_copy_plan
}

// NewCopyPlan prepares the copy; with measure, it times its candidates on
// dst and src (ST_PLAN_MEASURE), and dst then holds the copy.
func NewCopyPlan(dst, src *Tensor, measure bool) (*CopyPlan, error) {
	flags := C.int32_t(C.ST_PLAN_ESTIMATE)
	if measure {
		flags = C.int32_t(C.ST_PLAN_MEASURE)
	}
	var h C.st_copy_plan
	err := dst.useWith("NewCopyPlan", "dst", src, "src", func(d, s C.st_tensor) C.st_status {
		return C.st_copy_plan_create(d, s, nil, flags, &h)
	})
	if err != nil {
		return nil, err
	}
	r := &planRef{h: h}
	runtime.SetFinalizer(r, (*planRef).finalize)
	return &CopyPlan{r}, nil
}

func (r *planRef) finalize() {
	if r.h.id != 0 {
		C.st_copy_plan_release(r.h)
	}
}

func (p *CopyPlan) handle() C.st_copy_plan {
	if p == nil || p.planRef == nil {
		return C.st_copy_plan{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.h
}

// Handle is the st_copy_plan id (0 once released).
func (p *CopyPlan) Handle() uint64 { return uint64(p.handle().id) }

// live is p's handle for a call of method, or an error saying p was released.
func (p *CopyPlan) live(method string) (C.st_copy_plan, error) {
	h := p.handle()
	if h.id == 0 {
		return h, errorf(StatusInvalidHandle, method, "the plan was released")
	}
	return h, nil
}

// Execute copies src into dst; both must match the plan's layouts.
func (p *CopyPlan) Execute(dst, src *Tensor, nonBlocking bool) error {
	h, err := p.live("Execute")
	if err != nil {
		return err
	}
	err = dst.useWith("Execute", "dst", src, "src", func(d, s C.st_tensor) C.st_status {
		return C.st_copy_plan_execute(h, d, s, cBool(nonBlocking))
	})
	runtime.KeepAlive(p)
	return err
}

// ExecuteRaw copies between the addresses of element (0, ..., 0) of a dst
// and a src laid out as the plan's tensors; the memory around them must
// hold every element of those layouts (it is not checked) and must not be
// Go memory that holds Go pointers. Keep the owners of the memory
// reachable until it returns (runtime.KeepAlive).
func (p *CopyPlan) ExecuteRaw(dst unsafe.Pointer, src unsafe.Pointer, nonBlocking bool) error {
	h, err := p.live("ExecuteRaw")
	if err != nil {
		return err
	}
	err = call("ExecuteRaw", func() C.st_status { return C.st_copy_plan_execute_raw(h, dst, src, cBool(nonBlocking)) })
	runtime.KeepAlive(p)
	return err
}

// Release frees the plan now. Releasing twice is not an error.
func (p *CopyPlan) Release() error {
	if p == nil || p.planRef == nil {
		return nil
	}
	p.mu.Lock()
	h := p.h
	p.h.id = 0
	p.mu.Unlock()
	runtime.SetFinalizer(p.planRef, nil)
	if h.id == 0 {
		return nil
	}
	return call("Release", func() C.st_status { return C.st_copy_plan_release(h) })
}

// LivePlanCount is the number of plans created and not released, for leak checks.
func LivePlanCount() (int64, error) {
	var n C.int64_t
	err := call("LivePlanCount", func() C.st_status { return C.st_live_plan_count(&n) })
	return int64(n), err
}
