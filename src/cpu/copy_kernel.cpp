// The CPU kernel of copy_ (API.md, st_copy) for host memory, pinned or
// not: the preconditions every backend shares (core/copy_preconditions.h),
// staging through a temporary when src and dst share memory, then the copy
// itself over a TensorIterator (small tensors skip the iterator:
// cpu/copy_small.h). Host copies are synchronous, so non_blocking changes
// nothing here.
#include "cpu/copy_kernel.h"

#include "core/contiguity.h"
#include "core/convert.h"
#include "core/copy_preconditions.h"
#include "core/cuda_hooks.h"
#include "core/dtype_dispatch.h"
#include "core/empty.h"
#include "core/error.h"
#include "cpu/copy_convert.h"
#include "cpu/copy_geometry.h"
#include "cpu/copy_same_dtype.h"
#include "cpu/copy_small.h"
#include "cpu/element_access.h"
#include "dispatch/registration.h"

namespace st {
namespace cpu {
namespace {

// The geometry the fast kernels take: the iterator's dims (reordered and
// coalesced, dst fastest first) with per-operand byte strides.
CopyGeometry geometry_of(const TensorIterator& iter) {
  CopyGeometry g;
  g.ndim = iter.ndim();
  for (int d = 0; d < g.ndim; ++d) {
    g.sizes[d] = iter.shape()[d];
    g.dst_strides[d] = iter.strides(0)[d];
    g.src_strides[d] = iter.strides(1)[d];
  }
  g.dst = iter.data_ptr(0);
  g.src = iter.data_ptr(1);
  return g;
}

// Pairs without a vectorized kernel: convert() element by element.
template <typename dst_t, typename src_t>
void convert_loop(const TensorIterator& iter) {
  iter.for_each([](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    const int64_t ds0 = strides[0], ss0 = strides[1], ds1 = strides[2], ss1 = strides[3];
    for (int64_t j = 0; j < n1; ++j) {
      char* d = data[0] + j * ds1;
      const char* s = data[1] + j * ss1;
      if (ds0 == static_cast<int64_t>(sizeof(dst_t)) && ss0 == static_cast<int64_t>(sizeof(src_t))) {
        for (int64_t i = 0; i < n0; ++i)  // contiguous rows: a loop the compiler can vectorize
          store<dst_t>(d + i * static_cast<int64_t>(sizeof(dst_t)),
                       convert<dst_t>(load<src_t>(s + i * static_cast<int64_t>(sizeof(src_t)))));
      } else {
        for (int64_t i = 0; i < n0; ++i) store<dst_t>(d + i * ds0, convert<dst_t>(load<src_t>(s + i * ss0)));
      }
    }
  });
}

}  // namespace

void copy_kernel(const TensorIterator& iter) {
  const ScalarType dt = iter.dtype(0), st = iter.dtype(1);
  // The fast kernels split the work across threads themselves, so they
  // take the whole copy at once rather than for_each's chunks.
  if (dt == st) return copy_same_dtype(geometry_of(iter), iter.element_size(0));
  if (has_fast_convert(dt, st) && copy_convert(geometry_of(iter), dt, st)) return;
  ST_DISPATCH_PAIR(dt, st, "copy", [&] { convert_loop<dst_t, src_t>(iter); });
}

namespace {

void run_copy(const Tensor& dst, const Tensor& src) {
  if (copy_small(dst, src)) return;
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(dst, "dst")
                            .add_input(src, "src")
                            .resize_outputs(false)
                            .check_all_same_dtype(false)
                            .check_all_same_device(false)
                            .check_mem_overlap(false)  // check_copy decided already
                            .build();
  copy_kernel(iter);
}

void copy_cpu(dispatch::DispatchKeySet, const Tensor& dst, const Tensor& src, bool /*non_blocking*/) {
  const CopyAction action = check_copy(dst, src);
  if (action == CopyAction::Nothing) return;
  if (!dst.device().is_host() || !src.device().is_host()) {
    cuda_hooks().check_device(dst.device().is_host() ? src.device() : dst.device());
  }
  ST_CHECK(dst.device().is_host() && src.device().is_host(), ST_ERROR_NOT_IMPLEMENTED,
           "copy between device memory and the host is not available in this build");
  if (action == CopyAction::ViaTemporary) {
    // src is read in full before dst is written; the temporary has src's own
    // (unbroadcast) shape, so it is as small as src.
    Tensor staged = empty_cpu(src.sizes(), contiguous_strides(src.sizes()), src.dtype());
    run_copy(staged, src);
    run_copy(dst, staged);
    return;
  }
  run_copy(dst, src);
}
ST_REGISTER_KERNEL("copy_", CPU, copy_cpu);

}  // namespace

}  // namespace cpu
}  // namespace st
