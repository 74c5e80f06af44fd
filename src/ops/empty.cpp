// The factory operator empty_strided, and empty and strides_like. Tensor
// creation goes through the dispatcher: empty_strided dispatches on its
// device argument (Note [Factories dispatch on their device]); the
// backends' kernels live in src/cpu and src/cuda; empty_like is composite
// (ops/empty_like.cpp).
#include "ops/empty.h"

#include <cstdint>

#include "core/contiguity.h"
#include "core/empty.h"
#include "core/error.h"
#include "core/runtime/cuda_hooks.h"
#include "dispatch/registration.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(EmptyStrided, "empty_strided",
                   "empty_strided(int[] size, int[] stride, ScalarType dtype, Device device) -> Tensor",
                   Tensor(const DimVector&, const DimVector&, ScalarType, Device));

// For a device whose backend has no kernel (CUDA in a build without it, or
// no device type at all): the layout is checked first (an argument error
// comes before the device's answer), then the CUDA hooks say why the
// device cannot be used; a device they accept still has no allocator here.
Tensor empty_strided_without_backend(dispatch::DispatchKeySet, const DimVector& sizes, const DimVector& strides,
                                     ScalarType, Device device) {
  check_empty_layout(sizes, strides);
  cuda_hooks().check_device(device);
  fail(ST_ERROR_NOT_IMPLEMENTED, "empty_strided: no allocator for device %s:%d in this build",
       device_type_name(static_cast<int32_t>(device.type)), device.index);
}
ST_REGISTER_KERNEL("empty_strided", CompositeImplicit, empty_strided_without_backend);

}  // namespace

Tensor empty_strided(const DimVector& sizes, const DimVector& strides, ScalarType dtype, Device device) {
  return EmptyStrided::call(sizes, strides, dtype, device);
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

}  // namespace ops
}  // namespace st
