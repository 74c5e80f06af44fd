#include "cuda/scale_shift_values.h"

#include "core/contiguity.h"
#include "cuda/kernels/word_upload.h"
#include "cuda/runtime/device_guard.h"
#include "cuda/runtime/empty.h"
#include "cuda/runtime/stream.h"

namespace st {
namespace cuda {

Tensor scale_shift_values(const ScaleShift& ss, Device device) {
  const DimVector count{2 * ss.n};
  const Tensor values = empty_contiguous_on(count, ss.compute, device);
  if (ss.n == 0) return values;
  DeviceGuard guard(device.index);
  // The scales, then the shifts, as scale_data() lays them out.
  upload_words(values.data(), ss.scale_data(), static_cast<size_t>(2 * ss.n * ss.value_size()),
               current_stream(device.index));
  return values;
}

}  // namespace cuda
}  // namespace st
