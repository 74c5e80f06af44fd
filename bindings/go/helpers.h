/* C side of the Go binding: trampolines into Go callbacks, and the
 * functions a library build may not have yet, looked up with dlsym. */
#ifndef STRIDE_GO_HELPERS_H
#define STRIDE_GO_HELPERS_H

#include <stdint.h>

#include "stride.h"

/* ---- callbacks into Go (each ctx is a runtime/cgo.Handle) ---------------- */
/* st_tensor_from_data whose deleter runs the Go func behind `handle` (0: none). */
st_status stride_from_data(void* data, const int64_t* sizes, const int64_t* strides, int32_t ndim,
                           st_dtype dtype, st_device device, uintptr_t handle, st_tensor* out);
st_status stride_go_set_allocator(uintptr_t handle);

/* ---- functions resolved at run time -------------------------------------
 * Once include/stride.h declares them all, call them directly and delete
 * this section, the lookups in helpers.c and the Go `pending` table. */
typedef void (*stride_parallel_task)(void* task_ctx, int64_t begin, int64_t end);
typedef void (*stride_parallel_for_fn)(void* ctx, int64_t n, int64_t grain, stride_parallel_task task,
                                       void* task_ctx);
typedef void (*stride_trace_fn)(void* ctx, const char* op_name, int64_t duration_ns);

void* stride_lookup(const char* name);
st_status stride_call_reshape(void* f, st_tensor src, const int64_t* sizes, int32_t ndim, st_tensor* out);
st_status stride_call_contiguous(void* f, st_tensor src, int32_t fmt, st_tensor* out);
st_status stride_call_clone(void* f, st_tensor src, int32_t fmt, st_tensor* out);
st_status stride_call_copy(void* f, st_tensor dst, st_tensor src, int32_t non_blocking);
st_status stride_call_to(void* f, st_tensor src, int32_t dtype, st_device device, int32_t fmt, st_tensor* out);
st_status stride_call_fill(void* f, st_tensor dst, double value);
st_status stride_call_zero(void* f, st_tensor dst);
st_status stride_call_set_parallel_for(void* f, uintptr_t handle); /* handle 0: the built-in pool */
st_status stride_call_set_trace_callback(void* f, uintptr_t handle); /* handle 0: off */
st_status stride_call_cuda_device_count(void* f, int32_t* out);
st_status stride_call_cuda_set_stream(void* f, int32_t device, void* stream);
st_status stride_call_cuda_synchronize(void* f, int32_t device);
void stride_run_task(stride_parallel_task task, void* task_ctx, int64_t begin, int64_t end);

/* DLPack deleters, called from Go. */
void stride_call_dl_deleter(void* deleter, void* self);
void stride_call_dl_versioned_deleter(void* deleter, void* self);

#endif
