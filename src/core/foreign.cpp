#include "core/foreign.h"

#include <cstdint>

#include "core/contiguity.h"
#include "core/dims.h"
#include "core/error.h"
#include "core/extent.h"
#include "core/macros.h"
#include "core/overflow.h"
#include "core/runtime/cuda_hooks.h"

namespace st {

Tensor wrap_foreign(void* data, const DimVector& sizes, const DimVector* given_strides, ScalarType dtype,
                    Device device, bool read_only, const char* data_name) {
  check_sizes_nonnegative(sizes);
  const DimVector strides = given_strides ? *given_strides : contiguous_strides(sizes);
  const int64_t item = static_cast<int64_t>(itemsize(dtype));
  int64_t bytes = 0, lowest = 0;  // the span in bytes, and element (0, …, 0)'s place in it
  if (!has_zero_size(sizes)) {
    ST_CHECK(data != nullptr, ST_ERROR_INVALID_ARGUMENT, "%s is NULL for a tensor of sizes %s", data_name,
             format_dims(sizes).c_str());
    Extent e;
    int64_t span;
    ST_CHECK(compute_extent(sizes, strides, &e) && extent_elements(e, &span) &&
                 !mul_overflows(span, item, &bytes),
             ST_ERROR_OUT_OF_MEMORY, "sizes %s with strides %s span more than int64 bytes",
             format_dims(sizes).c_str(), format_dims(strides).c_str());
    lowest = e.lo;  // -bytes < lowest * item <= 0
    // The wrapped bytes must fit in the address space around `data`: a span
    // that would reach below address 0 or past the top cannot be memory the
    // caller owns, and stepping a pointer there is undefined behaviour.
    const uintptr_t address = reinterpret_cast<uintptr_t>(data);
    const uintptr_t below = static_cast<uintptr_t>(-lowest) * static_cast<uintptr_t>(item);
    ST_CHECK(address >= below && static_cast<uintptr_t>(bytes) - 1 <= UINTPTR_MAX - (address - below),
             ST_ERROR_INVALID_ARGUMENT,
             "data = %p with sizes %s and strides %s would reach outside the address space", data,
             format_dims(sizes).c_str(), format_dims(strides).c_str());
  }
  char* base = data ? static_cast<char*>(data) + lowest * item : nullptr;
  if (device.type == DeviceType::CPU) {
    cuda_hooks().check_host_memory(base, static_cast<size_t>(bytes), data_name);
  } else {
    cuda_hooks().check_foreign_memory(base, static_cast<size_t>(bytes), device, data_name);
  }
  Storage storage = Storage::make(base, static_cast<size_t>(bytes), device, MemoryRelease{}, read_only, true);
  return Tensor::make(storage, sizes, strides, -lowest, dtype);
}

}  // namespace st
