/* C wrappers that take the C API's enum arguments as int32 (see
 * fuzz_enum_calls.c) and hand statuses back as int32. */
#ifndef STRIDE_FUZZ_ENUM_CALLS_H
#define STRIDE_FUZZ_ENUM_CALLS_H

#include "stride.h"

#ifdef __cplusplus
extern "C" {
#endif

st_status fz_tensor_create(const int64_t* sizes, int32_t ndim, int32_t dtype, st_device device, st_tensor* out);
st_status fz_tensor_create_strided(const int64_t* sizes, const int64_t* strides, int32_t ndim, int32_t dtype,
                                   st_device device, st_tensor* out);
st_status fz_tensor_create_like(st_tensor src, int32_t fmt, st_tensor* out);
st_status fz_tensor_from_data(void* data, const int64_t* sizes, const int64_t* strides, int32_t ndim, int32_t dtype,
                              st_device device, st_deleter deleter, void* deleter_ctx, st_tensor* out);
st_status fz_tensor_dtype(st_tensor t, int32_t* out);
st_status fz_tensor_is_contiguous(st_tensor t, int32_t fmt, int32_t* out);
st_status fz_contiguous(st_tensor src, int32_t fmt, st_tensor* out);
st_status fz_clone(st_tensor src, int32_t fmt, st_tensor* out);
st_status fz_to(st_tensor src, int32_t dtype, st_device device, int32_t fmt, st_tensor* out);
int32_t fz_status_bits(st_status s);

#ifdef __cplusplus
}
#endif

#endif
