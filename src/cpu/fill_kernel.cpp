// The CPU kernel of fill_ (include/stride.h, st_fill) for host memory: every
// element becomes `value` converted to dst's dtype by the conversion rules; dst
// may overlap itself (an expanded view), and each address is written once.
#include <cstring>

#include "core/copy_preconditions.h"
#include "core/numeric/convert.h"
#include "core/numeric/dtype_dispatch.h"
#include "core/numeric/float_env.h"
#include "core/overlap.h"
#include "core/runtime/parallel.h"
#include "core/views.h"
#include "cpu/levels/element_access.h"
#include "dispatch/registration.h"
#include "iter/tensor_iterator.h"

namespace st {
namespace cpu {

namespace {

void fill_cpu(dispatch::DispatchKeySet, const Tensor& dst, double value) {
  check_fill(dst);
  if (dst.numel() == 0) return;
  // Without its broadcast dims dst may still overlap itself (as_strided
  // views); then one thread writes, so no two threads ever store to the
  // same address.
  const bool non_overlapping =
      dst.is_non_overlapping_and_dense() || is_non_overlapping(without_broadcast_dims(dst));
  const int64_t grain = non_overlapping ? kGrainSize : INT64_MAX;
  const TensorIterator iter = TensorIterator::fill(dst);
  const Geometry& g = iter.geometry();
  const DefaultFloatEnvironment float_env;  // Note [The caller's floating-point environment]
  ST_DISPATCH_ALL_TYPES(dst.dtype(), "fill", [&] {
    if constexpr (IsPacked<scalar_t>::value) {
      fail_unsupported_dtype("fill", dst.dtype());  // check_fill refused it
    } else {
      const scalar_t v = convert<scalar_t>(value);
      char pattern[sizeof(scalar_t)];
      store<scalar_t>(pattern, v);
      constexpr int64_t kSize = sizeof(scalar_t);
      for_each(
          g,
          [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
            for (int64_t j = 0; j < n1; ++j) {
              char* d = data[0] + j * strides[1];
              if (strides[0] == kSize) {
                for (int64_t i = 0; i < n0; ++i) std::memcpy(d + i * kSize, pattern, kSize);
              } else {
                for (int64_t i = 0; i < n0; ++i) std::memcpy(d + i * strides[0], pattern, kSize);
              }
            }
          },
          grain);
    }
  });
}
ST_REGISTER_KERNEL("fill_", CPU, fill_cpu);

}  // namespace

}  // namespace cpu
}  // namespace st
