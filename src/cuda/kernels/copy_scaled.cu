// The scaled copy kernels: one strided kernel per pair of real dtypes.
#include "core/numeric/dtype_dispatch.h"
#include "cuda/kernels/copy_kernels.cuh"
#include "cuda/kernels/copy_launch.h"

namespace st {
namespace cuda {

void launch_copy_scaled(ScalarType dst, ScalarType src, const ScaledCopyArgs& args, cudaStream_t stream) {
  ST_DISPATCH_PAIR(dst, src, "scaled copy", [&] {
    if constexpr (!TakesScaledCopies<dst_t>::value || !TakesScaledCopies<src_t>::value) {
      fail(ST_ERROR_UNSUPPORTED_DTYPE, "scaled copy: %s <- %s is not a scaled copy (prepare_scale_shift checks it)",
           dtype_name(static_cast<int32_t>(dst)), dtype_name(static_cast<int32_t>(src)));
    } else {
      launch_scaled<dst_t, src_t>(args, stream);
    }
  });
}

}  // namespace cuda
}  // namespace st
