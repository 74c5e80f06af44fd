#include "api/args.h"

namespace st {
namespace api {

void check_ndim(int32_t ndim, const char* arg) {
  ST_CHECK(ndim >= 0 && ndim <= kMaxDims, ST_ERROR_INVALID_ARGUMENT, "%s = %d is outside 0..%d", arg, ndim,
           kMaxDims);
}

DimVector read_dims(const int64_t* p, int32_t ndim, const char* arg) {
  check_ndim(ndim);
  ST_CHECK(p != nullptr || ndim == 0, ST_ERROR_INVALID_ARGUMENT, "%s is NULL but ndim = %d", arg, ndim);
  return DimVector(p, ndim);
}

ScalarType read_dtype(const st_dtype& d, const char* arg) {
  const int32_t v = enum_bits(d);
  ST_CHECK(is_valid_dtype(v), ST_ERROR_INVALID_ARGUMENT, "%s = %d is not an st_dtype", arg, v);
  return static_cast<ScalarType>(v);
}

Device read_device(st_device d, const char* arg) {
  ST_CHECK(d.type == ST_DEVICE_CPU || d.type == ST_DEVICE_CUDA || d.type == ST_DEVICE_CUDA_HOST,
           ST_ERROR_INVALID_ARGUMENT, "%s.type = %d is not an st_device_type", arg, d.type);
  ST_CHECK(d.index >= 0, ST_ERROR_INVALID_ARGUMENT, "%s.index = %d is negative", arg, d.index);
  ST_CHECK(d.type != ST_DEVICE_CPU || d.index == 0, ST_ERROR_INVALID_ARGUMENT,
           "%s.index = %d, but the CPU device has index 0", arg, d.index);
  return Device{static_cast<DeviceType>(d.type), d.index};
}

MemoryFormat read_memory_format(const st_memory_format& f, const char* arg) {
  const int32_t v = enum_bits(f);
  ST_CHECK(is_valid_memory_format(v), ST_ERROR_INVALID_ARGUMENT, "%s = %d is not an st_memory_format", arg, v);
  return static_cast<MemoryFormat>(v);
}

void check_struct_size(const void* p, size_t known, const char* what) {
  constexpr size_t kLargest = 4096;  // larger than any struct this library could know of: a caller's mistake
  size_t size;
  std::memcpy(&size, p, sizeof size);
  ST_CHECK(size >= known && size <= kLargest, ST_ERROR_INVALID_ARGUMENT,
           "%s->struct_size = %zu; expected the size of the struct, %zu, up to %zu", what, size, known, kLargest);
  const unsigned char* bytes = static_cast<const unsigned char*>(p);
  for (size_t i = known; i < size; ++i) {
    ST_CHECK(bytes[i] == 0, ST_ERROR_INVALID_ARGUMENT,
             "%s->struct_size = %zu and byte %zu is %u: a field this library (a struct of %zu bytes) does not know "
             "is set",
             what, size, i, static_cast<unsigned>(bytes[i]), known);
  }
}

}  // namespace api
}  // namespace st
