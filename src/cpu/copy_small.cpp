#include "cpu/copy_small.h"

#include <cstring>

#include "core/convert.h"
#include "core/dtype_dispatch.h"
#include "cpu/element_access.h"

namespace st {
namespace cpu {
namespace {

// Up to four dims, dim 3 innermost, in dst's dim order; byte strides per
// operand (0 where src is broadcast). Unused outer dims have size 1.
struct SmallLayout {
  int64_t size[kSmallCopyMaxDims];
  int64_t dst_stride[kSmallCopyMaxDims];
  int64_t src_stride[kSmallCopyMaxDims];
};

bool small_layout(const Tensor& dst, const Tensor& src, SmallLayout* g) {
  const int nd = dst.ndim(), lead = nd - src.ndim();
  const int64_t dst_item = static_cast<int64_t>(dst.itemsize()), src_item = static_cast<int64_t>(src.itemsize());
  int k = kSmallCopyMaxDims;
  for (int d = nd - 1; d >= 0; --d) {
    const int64_t n = dst.size(d);
    if (n == 1) continue;
    if (k == 0) return false;
    --k;
    g->size[k] = n;
    // Strides × itemsize fit int64: a dim of size > 1 lies within the
    // tensor's byte span, which fits.
    g->dst_stride[k] = dst.stride(d) * dst_item;
    const int s = d - lead;
    g->src_stride[k] = s >= 0 && src.size(s) != 1 ? src.stride(s) * src_item : 0;
  }
  for (int i = 0; i < k; ++i) {
    g->size[i] = 1;
    g->dst_stride[i] = 0;
    g->src_stride[i] = 0;
  }
  return true;
}

template <typename Element>
void walk(const SmallLayout& g, char* dst, const char* src, Element element) {
  const int64_t n3 = g.size[3], ds3 = g.dst_stride[3], ss3 = g.src_stride[3];
  for (int64_t i0 = 0; i0 < g.size[0]; ++i0) {
    for (int64_t i1 = 0; i1 < g.size[1]; ++i1) {
      for (int64_t i2 = 0; i2 < g.size[2]; ++i2) {
        char* d = dst + i0 * g.dst_stride[0] + i1 * g.dst_stride[1] + i2 * g.dst_stride[2];
        const char* s = src + i0 * g.src_stride[0] + i1 * g.src_stride[1] + i2 * g.src_stride[2];
        for (int64_t i3 = 0; i3 < n3; ++i3) element(d + i3 * ds3, s + i3 * ss3);
      }
    }
  }
}

template <int kSize>
void copy_bytes(const SmallLayout& g, char* dst, const char* src) {
  walk(g, dst, src, [](char* d, const char* s) { std::memcpy(d, s, kSize); });
}

template <typename dst_t, typename src_t>
void copy_converting(const SmallLayout& g, char* dst, const char* src) {
  walk(g, dst, src, [](char* d, const char* s) { store<dst_t>(d, convert<dst_t>(load<src_t>(s))); });
}

}  // namespace

bool copy_small(const Tensor& dst, const Tensor& src) {
  if (dst.numel() > kSmallCopyMaxElements) return false;
  SmallLayout g;
  if (!small_layout(dst, src, &g)) return false;
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
