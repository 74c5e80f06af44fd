// The steps of Note [The canonical geometry], and the loops over a geometry.
#include "iter/geometry.h"

#include <utility>

#include "core/checked_math.h"
#include "core/error.h"
#include "core/macros.h"
#include "core/parallel.h"
#include "core/views.h"
#include "iter/strided_walk.h"

namespace st {
namespace {

int64_t magnitude_of(int64_t v) { return v < 0 ? -v : v; }

bool same_strides_where_it_matters(const Tensor& a, const Tensor& b) {
  for (int d = 0; d < a.ndim(); ++d) {
    if (a.size(d) > 1 && a.stride(d) != b.stride(d)) return false;
  }
  return true;
}

// Both of one shape and one dense layout: element k of each is k items
// from its lowest address (PyTorch's fast_set_up).
bool dense_alike(const Tensor& a, const Tensor& b) {
  if (a.sizes() != b.sizes()) return false;
  if (a.is_contiguous() && b.is_contiguous()) return true;
  return a.is_non_overlapping_and_dense() && b.is_non_overlapping_and_dense() && same_strides_where_it_matters(a, b);
}

}  // namespace

int64_t Geometry::numel() const {
  // One pass: the product wraps harmlessly (unsigned) when a 0 comes after
  // sizes whose product overflows, and is then discarded.
  uint64_t n = 1;
  bool empty = false;
  for (int64_t s : shape) {
    empty |= s == 0;
    n *= static_cast<uint64_t>(s);
  }
  return empty ? 0 : static_cast<int64_t>(n);
}

bool set_operand_strides(Geometry& g, int k, const DimVector& sizes, const DimVector& strides, int64_t itemsize,
                         char* data) {
  const int n = sizes.size(), ndim = g.ndim();
  DimVector& out = g.strides[k];
  out.resize_for_overwrite(ndim);
  // The tensor's last dim is the geometry's dim 0; dims it lacks (on the
  // left) are broadcast.
  for (int d = n; d < ndim; ++d) out[d] = 0;
  for (int d = 0; d < n; ++d) {
    // Size-1 dims (broadcast ones included) never step: stride 0.
    int64_t bytes = 0;
    if (sizes[d] != 1 && !checked_mul(strides[d], itemsize, &bytes)) return false;
    out[n - 1 - d] = bytes;
  }
  g.data[k] = data;
  return true;
}

namespace {

// The steps below take the operand count as kOps when the caller knows it
// at compile time (the copy: 2), so that their loops over operands unroll,
// and 0 to read g.noperands: one implementation either way.
template <int kOps>
ST_FORCE_INLINE int operands_of(const Geometry& g) {
  return kOps > 0 ? kOps : g.noperands;
}

template <int kOps>
void sort_dims(Geometry& g, unsigned abstain, InlineVector<int>* perm_out) {
  const int ndim = g.shape.size(), nops = operands_of<kOps>(g);
  // 1 when dim0 must move after dim1, -1 when it must stay before, 0 when
  // no operand tells.
  auto should_swap = [&](int dim0, int dim1) {
    for (int k = 0; k < nops; ++k) {
      if (abstain & (1u << k)) continue;
      const int64_t s0 = magnitude_of(g.strides[k][dim0]), s1 = magnitude_of(g.strides[k][dim1]);
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (g.shape[dim0] > g.shape[dim1]) return 1;
    }
    return 0;
  };
  if (ndim == 2 && !perm_out) {  // most copies: one comparison, nothing to permute through
    if (should_swap(0, 1) <= 0) return;
    std::swap(g.shape[0], g.shape[1]);
    for (int k = 0; k < nops; ++k)
      if (!(abstain & (1u << k))) std::swap(g.strides[k][0], g.strides[k][1]);
    return;
  }
  // Insertion sort of the dims: the dims the operands leave ambiguous keep
  // their order.
  int perm[kMaxDims];
  for (int i = 0; i < ndim; ++i) perm[i] = i;
  bool moved = false;
  for (int i = 1; i < ndim; ++i) {
    int dim1 = i;
    for (int dim0 = i - 1; dim0 >= 0; --dim0) {
      const int c = should_swap(perm[dim0], perm[dim1]);
      if (c > 0) {
        const int t = perm[dim0];
        perm[dim0] = perm[dim1];
        perm[dim1] = t;
        dim1 = dim0;
        moved = true;
      } else if (c < 0) {
        break;
      }
    }
  }
  if (perm_out) perm_out->assign_from(perm, ndim);
  if (!moved) return;
  int64_t before[kMaxDims];
  for (int i = 0; i < ndim; ++i) before[i] = g.shape[i];
  for (int i = 0; i < ndim; ++i) g.shape[i] = before[perm[i]];
  for (int k = 0; k < nops; ++k) {
    if (abstain & (1u << k)) continue;
    DimVector& s = g.strides[k];
    for (int i = 0; i < ndim; ++i) before[i] = s[i];
    for (int i = 0; i < ndim; ++i) s[i] = before[perm[i]];
  }
}

template <int kOps>
void walk_negative_dims(Geometry& g) {
  const int nops = operands_of<kOps>(g);
  for (int64_t s : g.shape)
    if (s == 0) return;  // no element: nothing to walk, and no address to move
  for (int d = 0; d < g.ndim(); ++d) {
    if (g.shape[d] < 2) continue;
    int decider = 0;
    while (decider < nops && g.strides[decider][d] == 0) ++decider;
    if (decider == nops || g.strides[decider][d] > 0) continue;
    for (int k = 0; k < nops; ++k) {
      g.data[k] += (g.shape[d] - 1) * g.strides[k][d];
      g.strides[k][d] = -g.strides[k][d];
    }
  }
}

template <int kOps>
void coalesce(Geometry& g) {
  const int ndim = g.shape.size(), nops = operands_of<kOps>(g);
  if (ndim <= 1) return;
  auto can_coalesce = [&](int dim0, int dim1) {
    const int64_t size0 = g.shape[dim0], size1 = g.shape[dim1];
    if (size0 == 1 || size1 == 1) return true;
    for (int k = 0; k < nops; ++k) {
      int64_t reach;
      if (!checked_mul(size0, g.strides[k][dim0], &reach) || reach != g.strides[k][dim1]) return false;
    }
    return true;
  };
  auto take_stride = [&](int to, int from) {
    for (int k = 0; k < nops; ++k) g.strides[k][to] = g.strides[k][from];
  };
  int prev = 0;
  for (int d = 1; d < ndim; ++d) {
    int64_t merged;
    // The product only overflows in an empty space, which then keeps its dims.
    if (checked_mul(g.shape[prev], g.shape[d], &merged) && can_coalesce(prev, d)) {
      if (g.shape[prev] == 1) take_stride(prev, d);
      g.shape[prev] = merged;
    } else {
      ++prev;
      if (prev != d) {
        take_stride(prev, d);
        g.shape[prev] = g.shape[d];
      }
    }
  }
  g.shape.resize_for_overwrite(prev + 1);
  for (int k = 0; k < nops; ++k) g.strides[k].resize_for_overwrite(prev + 1);
}

}  // namespace

void sort_dims_fastest_first(Geometry& g, unsigned abstain, InlineVector<int>* perm) { sort_dims<0>(g, abstain, perm); }

void walk_negative_dims_forward(Geometry& g) { walk_negative_dims<0>(g); }

void coalesce_dims(Geometry& g) { coalesce<0>(g); }

void canonicalize(Geometry& g) {
  sort_dims<0>(g, 0, nullptr);
  walk_negative_dims<0>(g);
  coalesce<0>(g);
}

namespace {

// Step 1's shape: the tensor's sizes, last dim first.
void set_shape_fastest_first(Geometry& g, const DimVector& sizes) {
  const int n = sizes.size();
  g.shape.resize_for_overwrite(n);
  for (int d = 0; d < n; ++d) g.shape[d] = sizes[n - 1 - d];
}

// The one-dim shortcut of copy_geometry when it applies (true), else step 1
// for dst and src (false).
bool start_copy_geometry(Geometry& g, const Tensor& dst, const Tensor& src, bool dense_allowed) {
  g.noperands = 2;
  const int64_t de = static_cast<int64_t>(dst.itemsize()), se = static_cast<int64_t>(src.itemsize());
  if (dense_allowed && dense_alike(dst, src)) {
    // Only dims of size 1 can have negative strides in a dense layout, so
    // each data pointer is its lowest element.
    if (dst.ndim() >= 1) g.shape.push_back(dst.numel());
    g.strides[0].assign(g.ndim(), de);
    g.strides[1].assign(g.ndim(), se);
    g.data[0] = static_cast<char*>(dst.data());
    g.data[1] = static_cast<char*>(src.data());
    return true;
  }
  const DimVector& sizes = dst.sizes();
  set_shape_fastest_first(g, sizes);
  const bool ok = set_operand_strides(g, 0, dst.sizes(), dst.strides(), de, static_cast<char*>(dst.data())) &&
                  set_operand_strides(g, 1, src.sizes(), src.strides(), se, static_cast<char*>(src.data()));
  ST_CHECK(ok, ST_ERROR_OUT_OF_MEMORY, "copy: a stride of dst (strides %s) or src (strides %s) overflows int64 in bytes",
           format_dims(dst.strides()).c_str(), format_dims(src.strides()).c_str());
  return false;
}

}  // namespace

Geometry copy_geometry(const Tensor& dst, const Tensor& src) {
  Geometry g;
  if (start_copy_geometry(g, dst, src, true)) return g;
  sort_dims<2>(g, 0, nullptr);
  walk_negative_dims<2>(g);
  coalesce<2>(g);
  return g;
}

Geometry copy_geometry(const Tensor& dst, const Tensor& src, const ChannelOperands& channels) {
  Geometry g;
  // One value for all elements rides along the shortcut with stride 0.
  const bool dense = start_copy_geometry(g, dst, src, channels.dim < 0);
  g.noperands = 2 + channels.count;
  if (dense) {
    for (int i = 0; i < channels.count; ++i) {
      g.strides[2 + i].assign(g.ndim(), 0);
      g.data[2 + i] = channels.data[i];
    }
    return g;
  }
  // Sizes 1 but along dim: the dims of size 1 step nowhere, as for src.
  DimVector sizes(dst.ndim(), 1), strides(dst.ndim(), 0);
  if (channels.dim >= 0) {
    sizes[channels.dim] = dst.size(channels.dim);
    strides[channels.dim] = 1;
  }
  for (int i = 0; i < channels.count; ++i) {
    // A channel stride is an itemsize, so its bytes never overflow.
    set_operand_strides(g, 2 + i, sizes, strides, channels.itemsize, channels.data[i]);
  }
  canonicalize(g);
  return g;
}

Geometry fill_geometry(const Tensor& dst) {
  Geometry g;
  g.noperands = 1;
  const int64_t item = static_cast<int64_t>(dst.itemsize());
  g.data[0] = static_cast<char*>(dst.data());
  if (dst.is_non_overlapping_and_dense()) {
    // As copy_geometry's shortcut: one run from the lowest element.
    if (dst.ndim() >= 1) g.shape.push_back(dst.numel());
    g.strides[0].assign(g.ndim(), item);
    return g;
  }
  DimVector sizes = dst.sizes();
  for (int d = 0; d < sizes.size(); ++d)
    if (dst.stride(d) == 0) sizes[d] = 1;
  set_shape_fastest_first(g, sizes);
  ST_CHECK(set_operand_strides(g, 0, sizes, dst.strides(), item, g.data[0]), ST_ERROR_OUT_OF_MEMORY,
           "fill: a stride of dst (strides %s) overflows int64 in bytes", format_dims(dst.strides()).c_str());
  canonicalize(g);
  return g;
}

void serial_for_each(const Geometry& g, Loop2d loop, Range range) {
  if (range.size() <= 0) return;
  const int nt = g.noperands, nd = g.ndim();
  // Dim 0's strides, then dim 1's: the loop's strides argument.
  int64_t strides[2 * kMaxOperands];
  for (int k = 0; k < nt; ++k) {
    strides[k] = nd > 0 ? g.strides[k][0] : 0;
    strides[nt + k] = nd > 1 ? g.strides[k][1] : 0;
  }
  char* ptrs[kMaxOperands];
  if (nd <= 1) {
    for (int k = 0; k < nt; ++k) ptrs[k] = g.data[k] + range.begin * strides[k];
    loop(ptrs, strides, range.size(), 1);
    return;
  }
  const int64_t size0 = g.shape[0], plane = size0 * g.shape[1];  // the range is not empty: no overflow
  StridedWalk<kMaxOperands> outer;
  for (int d = 2; d < nd; ++d) outer.add_dim(g, d);
  outer.seek(range.begin / plane);
  // Element (i0, i1) of the current plane, n0 × n1 of them.
  auto block = [&](int64_t i0, int64_t i1, int64_t n0, int64_t n1) {
    for (int k = 0; k < nt; ++k) ptrs[k] = g.data[k] + outer.offset(k) + i0 * strides[k] + i1 * strides[nt + k];
    loop(ptrs, strides, n0, n1);
  };
  int64_t at = range.begin;
  for (;;) {
    const int64_t plane_start = at - at % plane;
    const int64_t stop = range.end - plane_start < plane ? range.end - plane_start : plane;
    int64_t pos = at - plane_start;
    if (pos % size0 != 0) {  // the rest of a row
      const int64_t n0 = size0 - pos % size0 < stop - pos ? size0 - pos % size0 : stop - pos;
      block(pos % size0, pos / size0, n0, 1);
      pos += n0;
    }
    const int64_t rows = (stop - pos) / size0;
    if (rows > 0) {
      block(0, pos / size0, size0, rows);
      pos += rows * size0;
    }
    if (pos < stop) {  // the start of a row
      block(0, pos / size0, stop - pos, 1);
      pos = stop;
    }
    at = plane_start + pos;
    if (at >= range.end) return;
    outer.next();
  }
}

void for_each(const Geometry& g, Loop2d loop, int64_t grain) {
  const int64_t n = g.numel();
  if (n == 0) return;
  parallel_for(0, n, grain, [&](int64_t begin, int64_t end) { serial_for_each(g, loop, Range{begin, end}); });
}

}  // namespace st
