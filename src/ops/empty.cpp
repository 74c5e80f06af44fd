#include "ops/empty.h"

#include <cstdint>

#include "core/contiguity.h"
#include "core/cuda_hooks.h"
#include "core/empty.h"
#include "core/error.h"

namespace st {
namespace ops {

Tensor empty_strided(const DimVector& sizes, const DimVector& strides, ScalarType dtype, Device device) {
  check_empty_layout(sizes, strides);  // argument errors before the device's answer
  if (device.type != DeviceType::CPU) cuda_hooks().check_device(device);
  ST_CHECK(device.type == DeviceType::CPU, ST_ERROR_NOT_IMPLEMENTED, "no allocator for device type %s",
           device_type_name(static_cast<int32_t>(device.type)));
  return empty_cpu(sizes, strides, dtype);
}

Tensor empty(const DimVector& sizes, ScalarType dtype, Device device) {
  return empty_strided(sizes, contiguous_strides(sizes), dtype, device);
}

namespace {

// A dense source keeps its strides, with the sign dropped: allocated tensors
// never have negative strides. A dense tensor can only have one on a dim of
// size 1 or when it is empty, where no element moves (INT64_MIN, which has no
// absolute value, becomes 0 there).
DimVector absolute_strides(const Tensor& src) {
  DimVector strides = src.strides();
  for (int64_t& s : strides) s = s == INT64_MIN ? 0 : (s < 0 ? -s : s);
  return strides;
}

}  // namespace

DimVector strides_like(const Tensor& src, MemoryFormat fmt) {
  switch (fmt) {
    case MemoryFormat::Contiguous:
      return contiguous_strides(src.sizes());
    case MemoryFormat::ChannelsLast:
      ST_CHECK(src.ndim() == 4, ST_ERROR_INVALID_ARGUMENT, "fmt = channels_last needs 4 dims, the tensor has %d",
               src.ndim());
      return channels_last_strides_2d(src.sizes());
    case MemoryFormat::ChannelsLast3d:
      ST_CHECK(src.ndim() == 5, ST_ERROR_INVALID_ARGUMENT,
               "fmt = channels_last_3d needs 5 dims, the tensor has %d", src.ndim());
      return channels_last_strides_3d(src.sizes());
    case MemoryFormat::Preserve:
      return src.is_non_overlapping_and_dense() ? absolute_strides(src) : infer_dense_strides(src.sizes(), src.strides());
  }
  fail(ST_ERROR_INVALID_ARGUMENT, "fmt = %d is not an st_memory_format", static_cast<int>(fmt));
}

Tensor empty_like(const Tensor& src, MemoryFormat fmt) {
  return empty_strided(src.sizes(), strides_like(src, fmt), src.dtype(), src.device());
}

}  // namespace ops
}  // namespace st
