#include "core/contiguity.h"

#include <cstdint>

#include "core/dims.h"
#include "core/error.h"
#include "core/macros.h"
#include "core/overflow.h"

namespace st {

// In the predicates below, a product of sizes that overflows int64 can equal
// no stride, so the walk stops at the next dim that has to match it.

bool compute_contiguous(const DimVector& sizes, const DimVector& strides, int64_t numel) {
  if (numel == 0) return true;
  int64_t expected = 1;
  bool overflow = false;
  for (int d = sizes.size() - 1; d >= 0; --d) {
    if (sizes[d] == 1) continue;
    if (overflow || strides[d] != expected) return false;
    overflow = mul_overflows(expected, sizes[d], &expected);
  }
  return true;
}

namespace {

bool has_no_elements(const DimVector& sizes) {
  for (int64_t s : sizes) {
    if (s == 0) return true;
  }
  return false;
}

// The strides that strides_in_order builds, 0 past an overflow included.
template <int N>
bool channels_last_in_order(const DimVector& sizes, const DimVector& strides, const int (&order)[N]) {
  if (sizes.size() != N) return false;
  int64_t expected = 1;
  bool overflow = false;
  for (int d : order) {
    if (sizes[d] == 1) continue;
    if (overflow ? strides[d] != 0 || !has_no_elements(sizes) : strides[d] != expected) return false;
    overflow = overflow || mul_overflows(expected, sizes[d], &expected);
  }
  return true;
}

// Strides built from the fastest dim out: each is the previous one times the
// previous dim's size (a size-0 dim counts as 1 when `zero_as_one`). A stride
// that some dim takes and that overflows int64 throws, unless the tensor has
// no elements: it addresses nothing, so it is 0, and the empty tensor exists
// whatever its sizes (include/stride.h, st_tensor_create). The product after
// the slowest dim is never needed.
struct StrideBuilder {
  bool zero_as_one;
  int64_t next = 1;
  bool overflow = false;

  int64_t take(const DimVector& sizes) {
    if (!overflow) return next;
    ST_CHECK(has_no_elements(sizes), ST_ERROR_OUT_OF_MEMORY, "the strides of sizes %s overflow int64",
             format_dims(sizes).c_str());
    return 0;
  }
  void step(int64_t size) {
    if (zero_as_one && size < 1) size = 1;
    overflow = overflow || mul_overflows(next, size, &next);
  }
};

// As PyTorch's get_channels_last_strides_2d/3d: the sizes as they are, so a
// size-0 dim gives the slower dims stride 0, which is what the channels-last
// predicate expects of an empty tensor.
template <int N>
DimVector strides_in_order(const DimVector& sizes, const int (&order)[N]) {
  DimVector strides(sizes.size(), 0);
  StrideBuilder b{false};
  for (int d : order) {
    strides[d] = b.take(sizes);
    b.step(sizes[d]);
  }
  return strides;
}

constexpr int kChannelsLast2dOrder[4] = {1, 3, 2, 0};     // C fastest, then W, H, N
constexpr int kChannelsLast3dOrder[5] = {1, 4, 3, 2, 0};  // C, W, H, D, N

}  // namespace

bool compute_channels_last_2d(const DimVector& sizes, const DimVector& strides) {
  return channels_last_in_order(sizes, strides, kChannelsLast2dOrder);
}

bool compute_channels_last_3d(const DimVector& sizes, const DimVector& strides) {
  return channels_last_in_order(sizes, strides, kChannelsLast3dOrder);
}

bool compute_non_overlapping_and_dense(const DimVector& sizes, const DimVector& strides) {
  const int ndim = sizes.size();
  if (ndim == 1) return sizes[0] < 2 || strides[0] == 1;
  // Dims ordered by stride; dims of size < 2 sort last and end the walk.
  InlineVector<int> perm(ndim, 0);
  for (int i = 0; i < ndim; ++i) perm[i] = i;
  for (int i = 1; i < ndim; ++i) {
    for (int j = i; j > 0; --j) {
      int a = perm[j - 1], b = perm[j];
      bool b_first = sizes[a] < 2 ? sizes[b] >= 2 : (sizes[b] >= 2 && strides[b] < strides[a]);
      if (!b_first) break;
      perm[j - 1] = b;
      perm[j] = a;
    }
  }
  int64_t required = 1;
  bool overflow = false;
  for (int i = 0; i < ndim; ++i) {
    int d = perm[i];
    if (sizes[d] < 2) return true;
    if (overflow || strides[d] != required) return false;
    overflow = mul_overflows(required, sizes[d], &required);
  }
  return true;
}

DimVector contiguous_strides(const DimVector& sizes) {
  DimVector strides;
  strides.resize_for_overwrite(sizes.size());
  StrideBuilder b{true};
  for (int d = sizes.size() - 1; d >= 0; --d) {
    strides[d] = b.take(sizes);
    b.step(sizes[d]);
  }
  return strides;
}

DimVector channels_last_strides_2d(const DimVector& sizes) { return strides_in_order(sizes, kChannelsLast2dOrder); }

DimVector channels_last_strides_3d(const DimVector& sizes) { return strides_in_order(sizes, kChannelsLast3dOrder); }

DimVector infer_dense_strides(const DimVector& sizes, const DimVector& strides) {
  const int ndim = sizes.size();
  if (ndim == 0) return DimVector();
  if (ndim == 1) return DimVector(1, 1);
  // perm[0] is the fastest-moving dim; start from row-major order.
  InlineVector<int> perm(ndim, 0);
  for (int i = 0; i < ndim; ++i) perm[i] = ndim - 1 - i;
  // -1: dim0 before dim1, 1: after, 0: ambiguous (a zero stride never moves).
  auto should_swap = [&](int dim0, int dim1) {
    // in uint64: INT64_MIN (possible on a size-1 dim) has no int64 absolute value
    auto magnitude = [](int64_t s) { return s < 0 ? 0 - static_cast<uint64_t>(s) : static_cast<uint64_t>(s); };
    uint64_t s0 = magnitude(strides[dim0]), s1 = magnitude(strides[dim1]);
    if (s0 == 0 || s1 == 0) return 0;
    if (s0 < s1) return -1;
    if (s0 > s1) return 1;
    return sizes[dim0] > sizes[dim1] ? 1 : 0;
  };
  for (int i = 1; i < ndim; ++i) {
    int dim1 = i;
    for (int dim0 = i - 1; dim0 >= 0; --dim0) {
      int c = should_swap(perm[dim0], perm[dim1]);
      if (c > 0) {
        int t = perm[dim0];
        perm[dim0] = perm[dim1];
        perm[dim1] = t;
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  DimVector out(ndim, 0);
  StrideBuilder b{true};
  for (int i = 0; i < ndim; ++i) {
    int d = perm[i];
    out[d] = b.take(sizes);
    b.step(sizes[d]);
  }
  return out;
}

}  // namespace st
