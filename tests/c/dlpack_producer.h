/* A stand-in DLPack producer for the tests: it owns a buffer, the shape and
 * strides arrays and a counter of deleter calls, as a framework's exported
 * tensor would. Header-only so that each DLPack test program can use it. */
#ifndef STRIDE_TEST_DLPACK_PRODUCER_H
#define STRIDE_TEST_DLPACK_PRODUCER_H

#include <stdatomic.h>
#include <stdlib.h>

#include "dlpack_abi.h"
#include "support.h"

typedef struct producer {
  DLManagedTensor classic;
  DLManagedTensorVersioned versioned;
  int64_t shape[ST_MAX_DIMS + 1];
  int64_t strides[ST_MAX_DIMS + 1];
  double buffer[64]; /* zeroed; aligned for every dtype */
  atomic_int deleter_calls;
} producer;

static inline void producer_classic_deleter(DLManagedTensor* self) {
  producer* p = (producer*)self->manager_ctx;
  atomic_fetch_add(&p->deleter_calls, 1);
}

static inline void producer_versioned_deleter(DLManagedTensorVersioned* self) {
  producer* p = (producer*)self->manager_ctx;
  atomic_fetch_add(&p->deleter_calls, 1);
}

/* A producer of an `ndim`-d tensor of `sizes` (strides NULL: none given) over
 * its buffer, of DLPack type (code, bits), on the CPU. Both structs describe
 * the same tensor; a test uses one of them. Freed with producer_free, which
 * the library never calls: the deleter only counts. */
static inline producer* producer_new(int32_t ndim, const int64_t* sizes, const int64_t* strides, uint8_t code,
                              uint8_t bits) {
  producer* p = (producer*)calloc(1, sizeof(producer));
  assert_non_null(p);
  atomic_init(&p->deleter_calls, 0);
  for (int32_t i = 0; i < ndim; ++i) {
    p->shape[i] = sizes[i];
    p->strides[i] = strides ? strides[i] : 0;
  }
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.data = p->buffer;
  t.device.device_type = kDLCPU;
  t.device.device_id = 0;
  t.ndim = ndim;
  t.dtype.code = code;
  t.dtype.bits = bits;
  t.dtype.lanes = 1;
  t.shape = p->shape;
  t.strides = strides ? p->strides : NULL;
  t.byte_offset = 0;
  p->classic.dl_tensor = t;
  p->classic.manager_ctx = p;
  p->classic.deleter = producer_classic_deleter;
  p->versioned.dl_tensor = t;
  p->versioned.manager_ctx = p;
  p->versioned.deleter = producer_versioned_deleter;
  p->versioned.version.major = 1;
  p->versioned.version.minor = 0;
  p->versioned.flags = 0;
  return p;
}

static inline int producer_calls(producer* p) { return atomic_load(&p->deleter_calls); }

static inline void producer_free(producer* p) { free(p); }

/* A counting st_deleter for tensors made with st_tensor_from_data. */
static inline void count_deleter(void* data, void* ctx) {
  (void)data;
  atomic_fetch_add((atomic_int*)ctx, 1);
}

#endif
