/* A translation unit that includes include/stride.h as a user's code does
 * and uses its kinds of declaration: functions, enums, structs, function
 * pointer types and the st_api table. It is compiled, never run, as C99,
 * C11, C++11 and C++17 with -Wall -Wextra -pedantic -Werror by each
 * compiler (tests/header/CMakeLists.txt), so it is written in the common
 * part of C and C++: no compound literals, no designated initializers. */
#include <stride.h>

static void free_with_ctx(void* data, void* ctx) {
  (void)data;
  (void)ctx;
}

st_status header_use_wrap(float* data, st_tensor* out);
st_status header_use_wrap(float* data, st_tensor* out) {
  const int64_t sizes[2] = {2, 3};
  const int64_t strides[2] = {3, 1};
  st_device cpu;
  st_deleter deleter = free_with_ctx;
  cpu.type = ST_DEVICE_CPU;
  cpu.index = 0;
  return st_tensor_from_data(data, sizes, strides, 2, ST_FLOAT32, cpu, deleter, NULL, out);
}

const char* header_use_describe(st_tensor t);
const char* header_use_describe(st_tensor t) {
  st_dtype dtype = ST_UINT8;
  if (st_tensor_dtype(t, &dtype) != ST_OK) {
    return st_status_name(ST_ERROR_INVALID_HANDLE);
  }
  return st_dtype_name(dtype);
}

int32_t header_use_table_is_new_enough(uint32_t version);
int32_t header_use_table_is_new_enough(uint32_t version) {
  const st_api* api = st_get_api(version);
  st_scale_shift ss = {NULL, NULL, 1, 0, 0};
  st_copy_plan plan = {0};
  (void)ss;
  (void)plan;
  return api != NULL && api->copy_plan_release != NULL && st_version() >= ST_VERSION_MAJOR * 10000u + ST_VERSION_MINOR * 100u;
}
