// Reading C arguments into internal types. Each reader validates what it
// reads and throws ST_ERROR_INVALID_ARGUMENT with the argument's name and
// value, so an exported function is a list of reads and one call.
#pragma once

#include "core/device.h"
#include "core/dim_vector.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/memory_format.h"
#include "stride.h"

namespace st {
namespace api {

void check_ndim(int32_t ndim, const char* arg = "ndim");
// `ndim` int64 values; `p` may be NULL only when ndim is 0.
DimVector read_dims(const int64_t* p, int32_t ndim, const char* arg);
ScalarType read_dtype(st_dtype d, const char* arg = "dtype");
// Checks the type and index; whether a CUDA device exists is the backend's answer.
Device read_device(st_device d, const char* arg = "device");
MemoryFormat read_memory_format(st_memory_format f, const char* arg = "fmt");

template <typename T>
T* check_out(T* out, const char* arg = "out") {
  ST_CHECK(out != nullptr, ST_ERROR_INVALID_ARGUMENT, "%s is NULL", arg);
  return out;
}

}  // namespace api
}  // namespace st
