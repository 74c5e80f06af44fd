// The steps of Note [The canonical geometry], and the 32-bit split.
#include "iter/tensor_iterator.h"

#include <utility>

#include "core/dims.h"
#include "core/error.h"
#include "core/macros.h"
#include "core/overflow.h"
#include "core/views.h"

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

// Step 1's shape: the tensor's sizes, last dim first.
void set_shape_fastest_first(Geometry& g, const DimVector& sizes) {
  const int n = sizes.size();
  g.shape.resize_for_overwrite(n);
  for (int d = 0; d < n; ++d) g.shape[d] = sizes[n - 1 - d];
}

// Step 1 (broadcast) for operand k, a tensor of `sizes` and `strides`
// (elements) that broadcasts to g.shape, `itemsize` bytes per element,
// element (0, …, 0) at `data`. False (g unchanged for operand k's data)
// when a stride in bytes overflows int64; the caller names it.
bool broadcast(Geometry& g, int k, const DimVector& sizes, const DimVector& strides, int64_t itemsize, char* data) {
  const int n = sizes.size(), ndim = g.ndim();
  DimVector& out = g.strides[k];
  out.resize_for_overwrite(ndim);
  // The tensor's last dim is the geometry's dim 0; dims it lacks (on the
  // left) are broadcast.
  for (int d = n; d < ndim; ++d) out[d] = 0;
  for (int d = 0; d < n; ++d) {
    // Size-1 dims (broadcast ones included) never step: stride 0.
    int64_t bytes = 0;
    if (sizes[d] != 1 && mul_overflows(strides[d], itemsize, &bytes)) return false;
    out[n - 1 - d] = bytes;
  }
  g.data[k] = data;
  return true;
}

// The steps below take the operand count as kOps when the caller knows it
// at compile time (the copy: 2), so that their loops over operands unroll,
// and 0 to read g.noperands: one implementation either way.
template <int kOps>
ST_FORCE_INLINE int operands_of(const Geometry& g) {
  return kOps > 0 ? kOps : g.noperands;
}

// Step 2.
template <int kOps>
void reorder(Geometry& g) {
  const int ndim = g.shape.size(), nops = operands_of<kOps>(g);
  // 1 when dim0 must move after dim1, -1 when it must stay before, 0 when
  // no operand tells.
  auto should_swap = [&](int dim0, int dim1) {
    for (int k = 0; k < nops; ++k) {
      const int64_t s0 = magnitude_of(g.strides[k][dim0]), s1 = magnitude_of(g.strides[k][dim1]);
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (g.shape[dim0] > g.shape[dim1]) return 1;
    }
    return 0;
  };
  if (ndim == 2) {  // most copies: one comparison, nothing to permute through
    if (should_swap(0, 1) <= 0) return;
    std::swap(g.shape[0], g.shape[1]);
    for (int k = 0; k < nops; ++k) std::swap(g.strides[k][0], g.strides[k][1]);
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
  if (!moved) return;
  int64_t before[kMaxDims];
  for (int i = 0; i < ndim; ++i) before[i] = g.shape[i];
  for (int i = 0; i < ndim; ++i) g.shape[i] = before[perm[i]];
  for (int k = 0; k < nops; ++k) {
    DimVector& s = g.strides[k];
    for (int i = 0; i < ndim; ++i) before[i] = s[i];
    for (int i = 0; i < ndim; ++i) s[i] = before[perm[i]];
  }
}

// Step 3.
template <int kOps>
void flip(Geometry& g) {
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

// Step 4.
template <int kOps>
void coalesce(Geometry& g) {
  const int ndim = g.shape.size(), nops = operands_of<kOps>(g);
  if (ndim <= 1) return;
  auto can_coalesce = [&](int dim0, int dim1) {
    const int64_t size0 = g.shape[dim0], size1 = g.shape[dim1];
    if (size0 == 1 || size1 == 1) return true;
    for (int k = 0; k < nops; ++k) {
      int64_t reach;
      if (mul_overflows(size0, g.strides[k][dim0], &reach) || reach != g.strides[k][dim1]) return false;
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
    if (!mul_overflows(g.shape[prev], g.shape[d], &merged) && can_coalesce(prev, d)) {
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

template <int kOps>
void canonical_steps(Geometry& g) {
  reorder<kOps>(g);
  flip<kOps>(g);
  coalesce<kOps>(g);
}

// The one-dim shortcut of a copy when it applies (true), else step 1 for
// dst and src (false).
bool start_copy(Geometry& g, const Tensor& dst, const Tensor& src, bool dense_allowed) {
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
  set_shape_fastest_first(g, dst.sizes());
  const bool ok = broadcast(g, 0, dst.sizes(), dst.strides(), de, static_cast<char*>(dst.data())) &&
                  broadcast(g, 1, src.sizes(), src.strides(), se, static_cast<char*>(src.data()));
  ST_CHECK(ok, ST_ERROR_OUT_OF_MEMORY, "copy: a stride of dst (strides %s) or src (strides %s) overflows int64 in bytes",
           format_dims(dst.strides()).c_str(), format_dims(src.strides()).c_str());
  return false;
}

uint64_t magnitude(int64_t v) { return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); }

// The dim with the largest byte extent among dims of size >= 2; -1 if none.
int dim_to_split(const Geometry& g) {
  int best = -1;
  uint64_t best_extent = 0;
  for (int d = g.ndim() - 1; d >= 0; --d) {
    if (g.shape[d] < 2) continue;
    for (int k = 0; k < g.noperands; ++k) {
      uint64_t extent;
      if (mul_overflows(static_cast<uint64_t>(g.shape[d] - 1), magnitude(g.strides[k][d]), &extent)) {
        extent = UINT64_MAX;
      }
      if (best < 0 || extent > best_extent) {
        best = d;
        best_extent = extent;
      }
    }
  }
  // Every operand broadcast along every dim: split the longest.
  if (best >= 0 && best_extent == 0) {
    for (int d = 0; d < g.ndim(); ++d)
      if (g.shape[d] > g.shape[best]) best = d;
  }
  return best;
}

// Restricts dim `dim` to [start, start + size), size >= 1.
void narrow(Geometry& g, int dim, int64_t start, int64_t size) {
  g.shape[dim] = size;
  for (int k = 0; k < g.noperands; ++k) g.data[k] += g.strides[k][dim] * start;
  if (size == 1) coalesce<0>(g);
}

}  // namespace

TensorIterator TensorIterator::copy(const Tensor& dst, const Tensor& src) {
  TensorIterator it;
  it.dtypes_[0] = dst.dtype();
  it.dtypes_[1] = src.dtype();
  if (start_copy(it.geometry_, dst, src, true)) return it;
  canonical_steps<2>(it.geometry_);
  return it;
}

TensorIterator TensorIterator::scaled_copy(const Tensor& dst, const Tensor& src, const ScaleShift& ss,
                                           const void* values) {
  TensorIterator it;
  Geometry& g = it.geometry_;
  const int64_t value_size = ss.value_size();
  it.dtypes_[0] = dst.dtype();
  it.dtypes_[1] = src.dtype();
  it.dtypes_[2] = it.dtypes_[3] = ss.compute;
  // Read only: operands 2 and 3 are never written.
  char* scales = const_cast<char*>(static_cast<const char*>(values));
  char* shifts = scales + ss.n * value_size;
  // One value for all elements rides along the shortcut with stride 0.
  const bool dense = start_copy(g, dst, src, ss.dim < 0);
  g.noperands = 4;
  if (dense) {
    g.strides[2].assign(g.ndim(), 0);
    g.strides[3].assign(g.ndim(), 0);
    g.data[2] = scales;
    g.data[3] = shifts;
    return it;
  }
  // Sizes 1 but along dim: the dims of size 1 step nowhere, as for src.
  DimVector sizes(dst.ndim(), 1), strides(dst.ndim(), 0);
  if (ss.dim >= 0) {
    sizes[ss.dim] = dst.size(ss.dim);
    strides[ss.dim] = 1;
  }
  // A value stride is an itemsize, so its bytes never overflow.
  broadcast(g, 2, sizes, strides, value_size, scales);
  broadcast(g, 3, sizes, strides, value_size, shifts);
  canonical_steps<0>(g);
  return it;
}

TensorIterator TensorIterator::fill(const Tensor& dst) {
  TensorIterator it;
  Geometry& g = it.geometry_;
  it.dtypes_[0] = dst.dtype();
  g.noperands = 1;
  const int64_t item = static_cast<int64_t>(dst.itemsize());
  g.data[0] = static_cast<char*>(dst.data());
  if (dst.is_non_overlapping_and_dense()) {
    // As the copy's shortcut: one run from the lowest element.
    if (dst.ndim() >= 1) g.shape.push_back(dst.numel());
    g.strides[0].assign(g.ndim(), item);
    return it;
  }
  DimVector sizes = dst.sizes();
  for (int d = 0; d < sizes.size(); ++d)
    if (dst.stride(d) == 0) sizes[d] = 1;
  set_shape_fastest_first(g, sizes);
  ST_CHECK(broadcast(g, 0, sizes, dst.strides(), item, g.data[0]), ST_ERROR_OUT_OF_MEMORY,
           "fill: a stride of dst (strides %s) overflows int64 in bytes", format_dims(dst.strides()).c_str());
  canonical_steps<0>(g);
  return it;
}

void TensorIterator::canonicalize(Geometry& g) { canonical_steps<0>(g); }

bool TensorIterator::is_contiguous() const {
  if (numel() == 1) return true;
  if (ndim() != 1) return false;
  for (int k = 0; k < ntensors(); ++k) {
    if (geometry_.strides[k][0] != element_size(k)) return false;
  }
  return true;
}

bool TensorIterator::can_use_32bit_indexing(int64_t limit) const {
  const int64_t n = numel();
  if (n == 0) return true;
  if (n > limit) return false;
  for (int k = 0; k < ntensors(); ++k) {
    // Offsets run between −Σ and +Σ of (size − 1)·|stride|; with the
    // element itself this bounds both ends.
    uint64_t reach = 1;
    for (int d = 0; d < ndim(); ++d) {
      uint64_t step;
      if (mul_overflows(static_cast<uint64_t>(geometry_.shape[d] - 1), magnitude(geometry_.strides[k][d]),
                                 &step) ||
          add_overflows(reach, step, &reach)) {
        return false;
      }
    }
    if (reach > static_cast<uint64_t>(limit)) return false;
  }
  return true;
}

void TensorIterator::with_32bit_indexing(FunctionRef<void(const TensorIterator&)> f, int64_t limit) const {
  ST_CHECK(limit >= 1, ST_ERROR_INTERNAL, "with_32bit_indexing: limit = %lld", static_cast<long long>(limit));
  if (can_use_32bit_indexing(limit)) {
    f(*this);
    return;
  }
  const int dim = dim_to_split(geometry_);
  ST_CHECK(dim >= 0, ST_ERROR_INTERNAL, "with_32bit_indexing: an iteration of one element exceeds %lld bytes",
           static_cast<long long>(limit));
  // One copy per level: the depth is at most Σ log2(size) + ndim.
  const int64_t half = geometry_.shape[dim] / 2;
  TensorIterator part = *this;
  narrow(part.geometry_, dim, 0, half);
  part.with_32bit_indexing(f, limit);
  part = *this;
  narrow(part.geometry_, dim, half, geometry_.shape[dim] - half);
  part.with_32bit_indexing(f, limit);
}

}  // namespace st
