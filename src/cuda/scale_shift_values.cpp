#include "cuda/scale_shift_values.h"

#include <cstring>

#include "core/contiguity.h"
#include "core/empty.h"
#include "cuda/cross_device_copy.h"
#include "cuda/empty.h"

namespace st {
namespace cuda {

Tensor scale_shift_values(const ScaleShift& ss, Device device) {
  const DimVector count{2 * ss.n};
  const Tensor host_values = empty_cpu(count, contiguous_strides(count), ss.compute);
  if (ss.n > 0) std::memcpy(host_values.data(), ss.scale_data(), static_cast<size_t>(2 * ss.n * ss.value_size()));
  const Tensor values = empty_contiguous_on(count, ss.compute, device);
  copy_across_devices(values, host_values, false);  // waits for the stream: blocking from pageable memory
  return values;
}

}  // namespace cuda
}  // namespace st
