// The CPU kernel of copy_ (include/stride.h, st_copy) for host memory, pinned
// or not: the preconditions every backend shares (core/copy_preconditions.h),
// staging through a temporary when src and dst share memory, then the copy
// over the copy's canonical geometry (iter/tensor_iterator.h). The dispatch
// keys bring only host memory here (dispatch/dispatch_key_extractor.h). Host
// copies are synchronous, so non_blocking changes nothing here.
#include "cpu/copy_kernel.h"

#include "core/contiguity.h"
#include "core/copy_preconditions.h"
#include "core/empty.h"
#include "core/error.h"
#include "core/numeric/convert.h"
#include "core/numeric/dtype_dispatch.h"
#include "core/numeric/float_env.h"
#include "core/runtime/parallel.h"
#include "cpu/copy_convert.h"
#include "cpu/copy_same_dtype.h"
#include "cpu/levels/element_access.h"
#include "dispatch/registration.h"
#include "iter/tensor_iterator.h"

namespace st {
namespace cpu {
namespace {

// Pairs without a vectorized kernel: convert() element by element.
template <typename dst_t, typename src_t>
void convert_loop(const Geometry& g) {
  for_each(g, [](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
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
  }, kGrainSize);
}

}  // namespace

void copy_kernel(const Geometry& g, ScalarType dt, ScalarType st) {
  // The fast kernels split the work across threads themselves, so they
  // take the whole copy at once rather than for_each's chunks.
  if (dt == st) return copy_same_dtype(g, static_cast<int64_t>(itemsize(dt)));
  const DefaultFloatEnvironment float_env;  // Note [The caller's floating-point environment]
  if (copy_convert(g, dt, st)) return;
  ST_DISPATCH_PAIR(dt, st, "copy", [&] { convert_loop<dst_t, src_t>(g); });
}

namespace {

void run_copy(const Tensor& dst, const Tensor& src) {
  copy_kernel(TensorIterator::copy(dst, src).geometry(), dst.dtype(), src.dtype());
}

}  // namespace

void checked_host_copy(const Tensor& dst, const Tensor& src, bool transforms, HostCopyRun run) {
  const CopyAction action = check_copy(dst, src, transforms);
  if (action == CopyAction::Nothing) return;
  if (action == CopyAction::ViaTemporary) {
    // src is read in full before dst is written; the temporary has src's own
    // (unbroadcast) shape, so it is as small as src.
    Tensor staged = empty_cpu(src.sizes(), contiguous_strides(src.sizes()), src.dtype());
    run_copy(staged, src);
    run(dst, staged);
    return;
  }
  run(dst, src);
}

namespace {

void copy_cpu(dispatch::DispatchKeySet, const Tensor& dst, const Tensor& src, bool /*non_blocking*/) {
  checked_host_copy(dst, src, false, [](const Tensor& d, const Tensor& s) { run_copy(d, s); });
}
ST_REGISTER_KERNEL("copy_", CPU, copy_cpu);

}  // namespace
}  // namespace cpu
}  // namespace st
