// Reading C arguments into internal types. Each reader validates what it
// reads and throws ST_ERROR_INVALID_ARGUMENT with the argument's name and
// value, so an exported function is a list of reads and one call.
#pragma once

#include <cstring>

#include "core/device.h"
#include "core/dim_vector.h"
#include "core/error.h"
#include "core/memory_format.h"
#include "core/numeric/dtype.h"
#include "stride.h"

namespace st {
namespace api {

// The int32 a C caller passed for an enum parameter. C lets any int travel in
// an enum, but in C++ loading an enum object that holds a value outside the
// enum's range is undefined (UBSan's -fsanitize=enum), so the parameter is
// taken by reference and its bytes are read instead.
template <typename Enum>
int32_t enum_bits(const Enum& e) {
  static_assert(sizeof(Enum) == sizeof(int32_t), "the C API's enums are 32-bit");
  int32_t v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

void check_ndim(int32_t ndim, const char* arg = "ndim");
// `ndim` int64 values; `p` may be NULL only when ndim is 0.
DimVector read_dims(const int64_t* p, int32_t ndim, const char* arg);
// The enum readers take the caller's parameter by reference (see enum_bits).
ScalarType read_dtype(const st_dtype& d, const char* arg = "dtype");
// Checks the type and index; whether a CUDA device exists is the backend's answer.
Device read_device(st_device d, const char* arg = "device");
MemoryFormat read_memory_format(const st_memory_format& f, const char* arg = "fmt");

// Checks the struct_size (the first size_t) of a caller's struct that this
// library knows as `known` bytes: from `known` to 4096, and any byte past
// `known` 0, since such a byte is a field appended by a newer header that
// this library cannot honour (Linux's openat2 reads its struct open_how
// so). `what` names the argument ("opts").
void check_struct_size(const void* p, size_t known, const char* what);

template <typename T>
T* check_out(T* out, const char* arg = "out") {
  ST_CHECK(out != nullptr, ST_ERROR_INVALID_ARGUMENT, "%s is NULL", arg);
  return out;
}

}  // namespace api
}  // namespace st
