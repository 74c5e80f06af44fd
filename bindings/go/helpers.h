/* C side of the Go binding: trampolines into Go callbacks. */
#ifndef STRIDE_GO_HELPERS_H
#define STRIDE_GO_HELPERS_H

#include <stdint.h>

#include "stride.h"

/* ---- callbacks into Go (each ctx is a runtime/cgo.Handle) ---------------- */
/* st_tensor_from_data whose deleter runs the Go func behind `handle` (0: none). */
st_status stride_from_data(void* data, const int64_t* sizes, const int64_t* strides, int32_t ndim,
                           st_dtype dtype, st_device device, uintptr_t handle, st_tensor* out);
st_status stride_go_set_allocator(uintptr_t handle);

/* Installs the Go ParallelFor / TraceFunc behind `handle` (0: the built-in pool / tracing off). */
st_status stride_go_set_parallel_for(uintptr_t handle);
st_status stride_go_set_trace_callback(uintptr_t handle);
void stride_run_task(st_parallel_task task, void* task_ctx, int64_t begin, int64_t end);

/* DLPack deleters, called from Go. */
void stride_call_dl_deleter(void* deleter, void* self);
void stride_call_dl_versioned_deleter(void* deleter, void* self);

#endif
