#include "helpers.h"

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

static void parallel_for_trampoline(void* ctx, int64_t n, int64_t grain, st_parallel_task task, void* task_ctx) {
  goStrideParallelFor((uintptr_t)ctx, n, grain, (void*)task, task_ctx);
}
st_status stride_go_set_parallel_for(uintptr_t handle) {
  return handle ? st_set_parallel_for(parallel_for_trampoline, (void*)handle) : st_set_parallel_for(NULL, NULL);
}
void stride_run_task(st_parallel_task task, void* task_ctx, int64_t begin, int64_t end) {
  task(task_ctx, begin, end);
}

static void trace_trampoline(void* ctx, const char* op_name, int64_t duration_ns) {
  goStrideTrace((uintptr_t)ctx, (char*)op_name, duration_ns);
}
st_status stride_go_set_trace_callback(uintptr_t handle) {
  return handle ? st_set_trace_callback(trace_trampoline, (void*)handle) : st_set_trace_callback(NULL, NULL);
}

void stride_call_dl_deleter(void* deleter, void* self) {
  ((void (*)(struct DLManagedTensor*))deleter)((struct DLManagedTensor*)self);
}
void stride_call_dl_versioned_deleter(void* deleter, void* self) {
  ((void (*)(struct DLManagedTensorVersioned*))deleter)((struct DLManagedTensorVersioned*)self);
}
