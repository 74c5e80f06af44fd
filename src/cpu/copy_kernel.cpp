#include "cpu/copy_kernel.h"

#include "core/convert.h"
#include "core/dtype_dispatch.h"
#include "cpu/copy_convert.h"
#include "cpu/copy_geometry.h"
#include "cpu/copy_same_dtype.h"
#include "cpu/element_access.h"

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

}  // namespace cpu
}  // namespace st
