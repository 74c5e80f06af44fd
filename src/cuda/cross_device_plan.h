// How a copy between two devices (host and CUDA, or two CUDA devices)
// moves its bytes: as one memcpy of a dense byte range, with at most one
// copy on each side around it. A pure function of the two layouts, tested
// on the host by carrying the plan out in host memory.
//
// Note [Staging a copy between devices]
// Only a dense range crosses the link, in one memcpy (cudaMemcpyAsync, or
// cudaMemcpyPeerAsync between GPUs). When dst and src have the same dtype
// and the same dense layout, that range is src itself and lands in dst
// itself. Otherwise a copy on one side or both makes it so:
//   src --(src-side copy)--> buffer --memcpy--> buffer --(dst-side copy)--> dst
// A side copy on a GPU is cheap (its memory is an order of magnitude faster
// than the host's or the link); on the host it costs a pass at host
// bandwidth. So:
//  - src on a GPU: when dst is dense, the src side does all the work,
//    writing dst's dtype in dst's layout, and the memcpy lands in dst. When
//    dst is not dense, the dst side must copy anyway; the src side only
//    makes src dense (contiguous) in the narrower of the two dtypes when
//    src is not already dense in the narrower dtype.
//  - src on the host: a dense src crosses as it is (its own layout and
//    dtype) and the GPU side finishes. A src that is not dense needs a
//    host pass anyway; it writes the narrower dtype (fewer bytes to move),
//    in dst's layout when that makes the dst side unnecessary (dst dense,
//    no broadcast, dst's dtype the narrower), else contiguous.
// PyTorch's copy_kernel_cuda stages similarly but always expands src to
// dst's shape first; here a broadcast src crosses at its own size.
#pragma once

#include <cstdint>

#include "core/contiguity.h"
#include "core/numeric/dtype.h"
#include "core/tensor.h"

namespace st {
namespace cuda {

struct CrossDevicePlan {
  // A src-side copy of src into a buffer of the layout below comes first;
  // else src itself is the memcpy's source.
  bool stage_src = false;
  // The memcpy lands in a dst-side buffer of the layout below, copied into
  // dst last; else it lands in dst itself.
  bool stage_dst = false;
  // The layout of the bytes that cross (of the buffers, or of src or dst
  // itself where a side is not staged): dense, strides >= 0.
  ScalarType dtype = ScalarType::Float32;
  DimVector sizes;
  DimVector strides;
  int64_t nbytes = 0;  // numel × itemsize of that layout
};

// The strides of a dense tensor with the sign of size-1 dims dropped (a
// dense tensor may have any stride there, allocation wants >= 0): the
// element addresses stay the same.
inline DimVector allocatable_dense_strides(const Tensor& t) {
  DimVector strides = t.strides();
  for (int d = 0; d < t.ndim(); ++d) {
    if (t.size(d) == 1) strides[d] = 1;
  }
  return strides;
}

// dst and src hold the same bytes in the same order: one memcpy of the
// dense range copies src into dst. src broadcasts to dst (check_copy), so
// equal element counts mean equal sizes on every dim of size > 1.
inline bool same_dense_layout(const Tensor& dst, const Tensor& src) {
  if (dst.dtype() != src.dtype() || dst.numel() != src.numel() || !dst.is_non_overlapping_and_dense() ||
      !src.is_non_overlapping_and_dense())
    return false;
  const int lead = dst.ndim() - src.ndim();
  for (int d = 0; d < dst.ndim(); ++d) {
    if (dst.size(d) > 1 && (d < lead || src.stride(d - lead) != dst.stride(d))) return false;
  }
  return true;
}

inline ScalarType narrower_dtype(ScalarType dst, ScalarType src) { return itemsize(dst) < itemsize(src) ? dst : src; }

// src_on_gpu says whether src is in device memory (else dst is). dst and
// src are not empty and src broadcasts to dst.
inline CrossDevicePlan plan_cross_device_copy(const Tensor& dst, const Tensor& src, bool src_on_gpu) {
  CrossDevicePlan plan;
  auto use_layout_of = [&](const Tensor& t) {
    plan.dtype = t.dtype();
    plan.sizes = t.sizes();
    plan.strides = allocatable_dense_strides(t);
  };
  auto use_contiguous = [&](ScalarType dtype) {
    plan.dtype = dtype;
    plan.sizes = src.sizes();
    plan.strides = contiguous_strides(src.sizes());
  };
  const ScalarType narrow = narrower_dtype(dst.dtype(), src.dtype());
  if (same_dense_layout(dst, src)) {
    use_layout_of(src);
  } else if (src_on_gpu) {
    if (dst.is_non_overlapping_and_dense()) {
      plan.stage_src = true;
      use_layout_of(dst);
    } else {
      plan.stage_dst = true;
      if (src.is_non_overlapping_and_dense() && narrow == src.dtype()) {
        use_layout_of(src);
      } else {
        plan.stage_src = true;
        use_contiguous(narrow);
      }
    }
  } else if (src.is_non_overlapping_and_dense()) {
    plan.stage_dst = true;
    use_layout_of(src);
  } else {
    plan.stage_src = true;
    if (dst.is_non_overlapping_and_dense() && narrow == dst.dtype() && src.numel() == dst.numel()) {
      use_layout_of(dst);
    } else {
      plan.stage_dst = true;
      use_contiguous(narrow);
    }
  }
  int64_t numel = 1;
  for (int64_t s : plan.sizes) numel *= s;
  plan.nbytes = numel * static_cast<int64_t>(itemsize(plan.dtype));
  return plan;
}

}  // namespace cuda
}  // namespace st
