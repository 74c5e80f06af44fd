#include "cpu/copy_small.h"

#include <cstring>

#include "core/convert.h"
#include "core/dtype_dispatch.h"
#include "core/macros.h"
#include "cpu/element_access.h"

namespace st {
namespace cpu {
namespace {

// Up to four dims, dim 3 innermost, in dst's dim order; byte strides per
// operand (0 where src is broadcast). Unused outer dims have size 1.
struct SmallLayout {
  int64_t size[kSmallCopyMaxDims] = {1, 1, 1, 1};
  int64_t dst_stride[kSmallCopyMaxDims] = {0, 0, 0, 0};
  int64_t src_stride[kSmallCopyMaxDims] = {0, 0, 0, 0};
};

bool small_layout(const Tensor& dst, const Tensor& src, SmallLayout* g) {
  const int nd = dst.ndim(), lead = nd - src.ndim();
  const int64_t dst_item = static_cast<int64_t>(dst.itemsize()), src_item = static_cast<int64_t>(src.itemsize());
  int k = kSmallCopyMaxDims;  // the slot of the last dim placed
  for (int d = nd - 1; d >= 0; --d) {
    const int64_t n = dst.size(d);
    if (n == 1) continue;
    // Strides × itemsize fit int64: a dim of size > 1 lies within the
    // tensor's byte span, which fits.
    const int64_t ds = dst.stride(d) * dst_item;
    const int s = d - lead;
    const int64_t ss = s >= 0 && src.size(s) != 1 ? src.stride(s) * src_item : 0;
    if (k < kSmallCopyMaxDims && ds == g->dst_stride[k] * g->size[k] && ss == g->src_stride[k] * g->size[k]) {
      g->size[k] *= n;  // one run with the dim inside it, for both operands
      continue;
    }
    if (k == 0) return false;
    --k;
    g->size[k] = n;
    g->dst_stride[k] = ds;
    g->src_stride[k] = ss;
  }
  return true;
}

// Runs element(dst_address, src_address) over `rows` rows of n elements:
// element (r, i) is at dst + r·drow + i·ds and src + r·srow + i·ss.
template <typename Element>
ST_FORCE_INLINE void walk_2d(char* dst, const char* src, int64_t rows, int64_t drow, int64_t srow, int64_t n,
                             int64_t ds, int64_t ss, Element element) {
  for (int64_t r = 0; r < rows; ++r) {
    char* d = dst + r * drow;
    const char* s = src + r * srow;
    for (int64_t i = 0; i < n; ++i) element(d + i * ds, s + i * ss);
  }
}

// Calls element(dst_address, src_address) for every element. The layout
// is read into locals first: stores through char* could alias it otherwise.
template <typename Element>
void walk(const SmallLayout& g, char* dst, const char* src, Element element) {
  const int64_t n0 = g.size[0], n1 = g.size[1], n2 = g.size[2], n3 = g.size[3];
  const int64_t d0 = g.dst_stride[0], d1 = g.dst_stride[1], d2 = g.dst_stride[2], d3 = g.dst_stride[3];
  const int64_t s0 = g.src_stride[0], s1 = g.src_stride[1], s2 = g.src_stride[2], s3 = g.src_stride[3];
  if (n0 == 1 && n1 == 1) {
    walk_2d(dst, src, n2, d2, s2, n3, d3, s3, element);
    return;
  }
  for (int64_t i0 = 0; i0 < n0; ++i0) {
    for (int64_t i1 = 0; i1 < n1; ++i1) {
      walk_2d(dst + (i0 * d0 + i1 * d1), src + (i0 * s0 + i1 * s1), n2, d2, s2, n3, d3, s3, element);
    }
  }
}

template <int kSize>
void copy_bytes(const SmallLayout& g, char* dst, const char* src) {
  if (g.dst_stride[3] == kSize && g.src_stride[3] == kSize) {
    // Rows contiguous in both: one memcpy each (all of it when both are contiguous).
    SmallLayout rows = g;
    const size_t row_bytes = static_cast<size_t>(g.size[3]) * kSize;
    rows.size[3] = 1;
    walk(rows, dst, src, [row_bytes](char* d, const char* s) { std::memcpy(d, s, row_bytes); });
    return;
  }
  walk(g, dst, src, [](char* d, const char* s) { std::memcpy(d, s, kSize); });
}

template <typename dst_t, typename src_t>
void copy_converting(const SmallLayout& g, char* dst, const char* src) {
  walk(g, dst, src, [](char* d, const char* s) { store<dst_t>(d, convert<dst_t>(load<src_t>(s))); });
}

}  // namespace

bool copy_small(const Tensor& dst, const Tensor& src) {
  const int64_t n = dst.numel();
  if (n > kSmallCopyMaxElements) return false;
  SmallLayout g;
  if (dst.is_contiguous() && src.is_contiguous() && src.numel() == n) {
    // Both in row-major order with nothing broadcast (src broadcasts to dst
    // and has as many elements): one run.
    g.size[3] = n;
    g.dst_stride[3] = static_cast<int64_t>(dst.itemsize());
    g.src_stride[3] = static_cast<int64_t>(src.itemsize());
  } else if (!small_layout(dst, src, &g)) {
    return false;
  }
  char* d = static_cast<char*>(dst.data());
  const char* s = static_cast<const char*>(src.data());
  const ScalarType dt = dst.dtype(), st = src.dtype();
  if (dt == st) {
    // Equal dtypes copy bytes, as copy_kernel does (a bool byte other than
    // 0 or 1 stays as it is).
    switch (dst.itemsize()) {
      case 1: copy_bytes<1>(g, d, s); return true;
      case 2: copy_bytes<2>(g, d, s); return true;
      case 4: copy_bytes<4>(g, d, s); return true;
      case 8: copy_bytes<8>(g, d, s); return true;
      case 16: copy_bytes<16>(g, d, s); return true;
    }
    return false;
  }
  ST_DISPATCH_PAIR(dt, st, "copy", [&] { copy_converting<dst_t, src_t>(g, d, s); });
  return true;
}

}  // namespace cpu
}  // namespace st
