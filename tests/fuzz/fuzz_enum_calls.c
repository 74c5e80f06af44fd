/* The fuzz target passes enum arguments as plain int32 values, invalid ones
 * included. C++ may not hold an out-of-range value in an enum object (UBSan's
 * -fsanitize=enum reports the load), C may: these wrappers, compiled as C,
 * turn the integers into the API's enum parameters. */
#include "fuzz_enum_calls.h"

st_status fz_tensor_create(const int64_t* sizes, int32_t ndim, int32_t dtype, st_device device, st_tensor* out) {
  return st_tensor_create(sizes, ndim, (st_dtype)dtype, device, out);
}

st_status fz_tensor_create_strided(const int64_t* sizes, const int64_t* strides, int32_t ndim, int32_t dtype,
                                   st_device device, st_tensor* out) {
  return st_tensor_create_strided(sizes, strides, ndim, (st_dtype)dtype, device, out);
}

st_status fz_tensor_create_like(st_tensor src, int32_t fmt, st_tensor* out) {
  return st_tensor_create_like(src, (st_memory_format)fmt, out);
}

st_status fz_tensor_from_data(void* data, const int64_t* sizes, const int64_t* strides, int32_t ndim, int32_t dtype,
                              st_device device, st_deleter deleter, void* deleter_ctx, st_tensor* out) {
  return st_tensor_from_data(data, sizes, strides, ndim, (st_dtype)dtype, device, deleter, deleter_ctx, out);
}

st_status fz_tensor_dtype(st_tensor t, int32_t* out) {
  st_dtype d;
  st_status s = st_tensor_dtype(t, out ? &d : NULL);
  if (s == ST_OK) *out = (int32_t)d;
  return s;
}

st_status fz_tensor_is_contiguous(st_tensor t, int32_t fmt, int32_t* out) {
  return st_tensor_is_contiguous(t, (st_memory_format)fmt, out);
}

st_status fz_contiguous(st_tensor src, int32_t fmt, st_tensor* out) {
  return st_contiguous(src, (st_memory_format)fmt, out);
}

st_status fz_clone(st_tensor src, int32_t fmt, st_tensor* out) { return st_clone(src, (st_memory_format)fmt, out); }

st_status fz_to(st_tensor src, int32_t dtype, st_device device, int32_t fmt, st_tensor* out) {
  return st_to(src, (st_dtype)dtype, device, (st_memory_format)fmt, out);
}

int32_t fz_status_bits(st_status s) { return (int32_t)s; }
