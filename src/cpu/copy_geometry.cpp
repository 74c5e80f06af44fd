#include "cpu/copy_geometry.h"

namespace st {
namespace cpu {

int64_t geometry_numel(const CopyGeometry& g) {
  int64_t n = 1;
  for (int d = 0; d < g.ndim; ++d) n *= g.sizes[d];
  return n;
}

CopyGeometry normalize_geometry(const CopyGeometry& g) {
  CopyGeometry out;
  out.dst = g.dst;
  out.src = g.src;
  for (int d = 0; d < g.ndim; ++d) {
    if (g.sizes[d] == 0) {
      out.ndim = 1;
      out.sizes[0] = 0;
      out.dst_strides[0] = out.src_strides[0] = 0;
      return out;
    }
  }
  int n = 0;
  for (int d = 0; d < g.ndim; ++d) {
    const int64_t size = g.sizes[d];
    if (size == 1) continue;
    int64_t ds = g.dst_strides[d], ss = g.src_strides[d];
    if (ds < 0) {
      out.dst += (size - 1) * ds;
      out.src += (size - 1) * ss;
      ds = -ds;
      ss = -ss;
    }
    // Insertion by dst stride; on equal dst strides (only possible for a
    // dst that overlaps itself, which the front rejects) the order is kept.
    int pos = n;
    while (pos > 0 && out.dst_strides[pos - 1] > ds) {
      out.sizes[pos] = out.sizes[pos - 1];
      out.dst_strides[pos] = out.dst_strides[pos - 1];
      out.src_strides[pos] = out.src_strides[pos - 1];
      --pos;
    }
    out.sizes[pos] = size;
    out.dst_strides[pos] = ds;
    out.src_strides[pos] = ss;
    ++n;
  }
  // Merge dim d+1 into d when stepping d+1 once is stepping d size[d]
  // times, for both operands (as TensorIterator's coalesce_dimensions).
  int m = 0;
  for (int d = 0; d < n; ++d) {
    if (m > 0 && out.dst_strides[m - 1] * out.sizes[m - 1] == out.dst_strides[d] &&
        out.src_strides[m - 1] * out.sizes[m - 1] == out.src_strides[d]) {
      out.sizes[m - 1] *= out.sizes[d];
      continue;
    }
    out.sizes[m] = out.sizes[d];
    out.dst_strides[m] = out.dst_strides[d];
    out.src_strides[m] = out.src_strides[d];
    ++m;
  }
  out.ndim = m;
  return out;
}

}  // namespace cpu
}  // namespace st
