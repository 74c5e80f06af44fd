#define _GNU_SOURCE
#include "helpers.h"

#include <dlfcn.h>

#include "_cgo_export.h"

static void deleter_trampoline(void* data, void* ctx) { goStrideDeleter(data, (uintptr_t)ctx); }

st_status stride_from_data(void* data, const int64_t* sizes, const int64_t* strides, int32_t ndim,
                           st_dtype dtype, st_device device, uintptr_t handle, st_tensor* out) {
  return st_tensor_from_data(data, sizes, strides, ndim, dtype, device, handle ? deleter_trampoline : NULL,
                             (void*)handle, out);
}

static void* alloc_trampoline(void* ctx, size_t nbytes, size_t alignment) {
  return goStrideAlloc((uintptr_t)ctx, nbytes, alignment);
}
static void free_trampoline(void* ctx, void* ptr, size_t nbytes) { goStrideFree((uintptr_t)ctx, ptr, nbytes); }

st_status stride_go_set_allocator(uintptr_t handle) {
  if (handle == 0) return st_set_cpu_allocator(NULL);
  st_allocator a = {alloc_trampoline, free_trampoline, (void*)handle};
  return st_set_cpu_allocator(&a);
}

void* stride_lookup(const char* name) { return dlsym(RTLD_DEFAULT, name); }

st_status stride_call_reshape(void* f, st_tensor src, const int64_t* sizes, int32_t ndim, st_tensor* out) {
  return ((st_status(*)(st_tensor, const int64_t*, int32_t, st_tensor*))f)(src, sizes, ndim, out);
}
st_status stride_call_contiguous(void* f, st_tensor src, int32_t fmt, st_tensor* out) {
  return ((st_status(*)(st_tensor, int32_t, st_tensor*))f)(src, fmt, out);
}
st_status stride_call_clone(void* f, st_tensor src, int32_t fmt, st_tensor* out) {
  return ((st_status(*)(st_tensor, int32_t, st_tensor*))f)(src, fmt, out);
}
st_status stride_call_copy(void* f, st_tensor dst, st_tensor src, int32_t non_blocking) {
  return ((st_status(*)(st_tensor, st_tensor, int32_t))f)(dst, src, non_blocking);
}
st_status stride_call_to(void* f, st_tensor src, int32_t dtype, st_device device, int32_t fmt, st_tensor* out) {
  return ((st_status(*)(st_tensor, int32_t, st_device, int32_t, st_tensor*))f)(src, dtype, device, fmt, out);
}
st_status stride_call_fill(void* f, st_tensor dst, double value) {
  return ((st_status(*)(st_tensor, double))f)(dst, value);
}
st_status stride_call_zero(void* f, st_tensor dst) { return ((st_status(*)(st_tensor))f)(dst); }

static void parallel_for_trampoline(void* ctx, int64_t n, int64_t grain, stride_parallel_task task,
                                    void* task_ctx) {
  goStrideParallelFor((uintptr_t)ctx, n, grain, (void*)task, task_ctx);
}
st_status stride_call_set_parallel_for(void* f, uintptr_t handle) {
  st_status (*set)(stride_parallel_for_fn, void*) = (st_status(*)(stride_parallel_for_fn, void*))f;
  return handle ? set(parallel_for_trampoline, (void*)handle) : set(NULL, NULL);
}
void stride_run_task(stride_parallel_task task, void* task_ctx, int64_t begin, int64_t end) {
  task(task_ctx, begin, end);
}

static void trace_trampoline(void* ctx, const char* op_name, int64_t duration_ns) {
  goStrideTrace((uintptr_t)ctx, (char*)op_name, duration_ns);
}
st_status stride_call_set_trace_callback(void* f, uintptr_t handle) {
  st_status (*set)(stride_trace_fn, void*) = (st_status(*)(stride_trace_fn, void*))f;
  return handle ? set(trace_trampoline, (void*)handle) : set(NULL, NULL);
}

st_status stride_call_cuda_device_count(void* f, int32_t* out) { return ((st_status(*)(int32_t*))f)(out); }
st_status stride_call_cuda_set_stream(void* f, int32_t device, void* stream) {
  return ((st_status(*)(int32_t, void*))f)(device, stream);
}
st_status stride_call_cuda_synchronize(void* f, int32_t device) { return ((st_status(*)(int32_t))f)(device); }

void stride_call_dl_deleter(void* deleter, void* self) {
  ((void (*)(struct DLManagedTensor*))deleter)((struct DLManagedTensor*)self);
}
void stride_call_dl_versioned_deleter(void* deleter, void* self) {
  ((void (*)(struct DLManagedTensorVersioned*))deleter)((struct DLManagedTensorVersioned*)self);
}
