#include "core/views.h"

#include <cstdint>
#include <cstdio>

#include "core/dims.h"
#include "core/error.h"
#include "core/extent.h"
#include "core/macros.h"
#include "core/overflow.h"

namespace st {

namespace {

// An empty view touches no element and keeps its source's offset: moving it
// by a stride of an empty source could leave the storage or overflow int64,
// as nothing bounds the strides of a tensor without elements.
inline bool moves_offset(const Tensor& src) { return src.numel() > 0; }

Tensor make_view(const Tensor& src, const DimVector& sizes, const DimVector& strides, int64_t offset) {
  return Tensor::make(src.storage(), sizes, strides, offset, src.dtype());
}

}  // namespace

Tensor as_strided(const Tensor& src, const DimVector& sizes, const DimVector& strides, int64_t storage_offset) {
  check_sizes_nonnegative(sizes);
  ST_CHECK(storage_offset >= 0, ST_ERROR_INVALID_ARGUMENT, "storage_offset = %lld is negative",
           static_cast<long long>(storage_offset));
  const int64_t item = static_cast<int64_t>(src.itemsize());
  const int64_t storage_elems = static_cast<int64_t>(src.storage()->nbytes()) / item;
  if (has_zero_size(sizes)) {
    ST_CHECK(storage_offset <= storage_elems, ST_ERROR_OUT_OF_BOUNDS,
             "storage_offset = %lld is beyond the storage of %lld elements", static_cast<long long>(storage_offset),
             static_cast<long long>(storage_elems));
    return make_view(src, sizes, strides, storage_offset);
  }
  Extent e;
  int64_t lo = 0, hi = 0;
  bool ok = compute_extent(sizes, strides, &e) && !add_overflows(storage_offset, e.lo, &lo) &&
            !add_overflows(storage_offset, e.hi, &hi);
  ST_CHECK(ok && lo >= 0 && hi < storage_elems, ST_ERROR_OUT_OF_BOUNDS,
           "sizes %s, strides %s and storage_offset %lld reach elements [%lld, %lld], outside the storage of %lld "
           "elements",
           format_dims(sizes).c_str(), format_dims(strides).c_str(), static_cast<long long>(storage_offset),
           ok ? static_cast<long long>(lo) : 0LL, ok ? static_cast<long long>(hi) : -1LL,
           static_cast<long long>(storage_elems));
  return make_view(src, sizes, strides, storage_offset);
}

Tensor permute(const Tensor& src, const InlineVector<int32_t>& dims) {
  const int ndim = src.ndim();
  ST_CHECK(dims.size() == ndim, ST_ERROR_INVALID_ARGUMENT,
           "ndim = %d, but the tensor has %d dim%s; permute needs one entry per dim", dims.size(), ndim, plural(ndim));
  DimVector sizes(ndim, 0), strides(ndim, 0);
  bool seen[kMaxDims] = {};
  for (int i = 0; i < ndim; ++i) {
    ST_CHECK(dims[i] >= -ndim && dims[i] < ndim, ST_ERROR_INVALID_ARGUMENT,
             "dims[%d] = %d is out of range for a tensor of %d dim%s", i, dims[i], ndim, plural(ndim));
    int d = dims[i] < 0 ? dims[i] + ndim : dims[i];
    ST_CHECK(!seen[d], ST_ERROR_INVALID_ARGUMENT, "dims[%d] = %d repeats dim %d", i, dims[i], d);
    seen[d] = true;
    sizes[i] = src.size(d);
    strides[i] = src.stride(d);
  }
  return make_view(src, sizes, strides, src.storage_offset());
}

Tensor transpose(const Tensor& src, int32_t dim0, int32_t dim1) {
  int d0 = wrap_dim(dim0, src.ndim(), "dim0");
  int d1 = wrap_dim(dim1, src.ndim(), "dim1");
  DimVector sizes = src.sizes(), strides = src.strides();
  std::swap(sizes[d0], sizes[d1]);
  std::swap(strides[d0], strides[d1]);
  return make_view(src, sizes, strides, src.storage_offset());
}

Tensor slice(const Tensor& src, int32_t dim, int64_t start, int64_t stop, int64_t step) {
  int d = wrap_dim(dim, src.ndim());
  ST_CHECK(step >= 1, ST_ERROR_INVALID_ARGUMENT, "step = %lld must be at least 1", static_cast<long long>(step));
  const int64_t n = src.size(d);
  auto clamp = [n](int64_t i) {
    if (i < 0) i = i < -n ? 0 : i + n;
    return i > n ? n : i;
  };
  start = clamp(start);
  stop = clamp(stop);
  if (stop < start) stop = start;
  DimVector sizes = src.sizes(), strides = src.strides();
  sizes[d] = stop > start ? (stop - start - 1) / step + 1 : 0;  // never overflows, whatever the step
  int64_t offset = src.storage_offset();
  if (sizes[d] > 0 && moves_offset(src)) offset += start * src.stride(d);
  // A stride times step can only overflow when one element remains, where it is never used.
  if (mul_overflows(src.stride(d), step, &strides[d])) strides[d] = src.stride(d);
  return make_view(src, sizes, strides, offset);
}

Tensor select(const Tensor& src, int32_t dim, int64_t index) {
  int d = wrap_dim(dim, src.ndim());
  const int64_t n = src.size(d);
  ST_CHECK(index >= -n && index < n, ST_ERROR_OUT_OF_BOUNDS,
           "index = %lld is out of range for dim %d of size %lld", static_cast<long long>(index), d,
           static_cast<long long>(n));
  if (index < 0) index += n;
  DimVector sizes = src.sizes(), strides = src.strides();
  sizes.erase(d);
  strides.erase(d);
  const int64_t offset = src.storage_offset() + (moves_offset(src) ? index * src.stride(d) : 0);
  return make_view(src, sizes, strides, offset);
}

Tensor expand(const Tensor& src, const DimVector& target) {
  const int ndim = target.size(), src_ndim = src.ndim();
  ST_CHECK(ndim >= src_ndim, ST_ERROR_SHAPE_MISMATCH,
           "ndim = %d is less than the tensor's %d dim%s; expand cannot drop dims", ndim, src_ndim, plural(src_ndim));
  DimVector sizes(ndim, 0), strides(ndim, 0);
  for (int i = ndim - 1; i >= 0; --i) {
    const int sd = i - (ndim - src_ndim);  // the source dim aligned with i, or < 0 for a new one
    int64_t size = sd >= 0 ? src.size(sd) : 1;
    int64_t stride = 1;
    if (sd >= 0) {
      stride = src.stride(sd);
    } else if (i < ndim - 1 && mul_overflows(sizes[i + 1], strides[i + 1], &stride)) {
      // A new leading dim of size 1 takes the stride a row-major layout
      // would give it (as PyTorch); an overflowing one is never stepped on.
      stride = 0;
    }
    const int64_t want = target[i];
    ST_CHECK(want >= -1, ST_ERROR_INVALID_ARGUMENT, "sizes[%d] = %lld is negative", i, static_cast<long long>(want));
    if (want == -1) {
      ST_CHECK(sd >= 0, ST_ERROR_INVALID_ARGUMENT, "sizes[%d] = -1 is not allowed in a new leading dim", i);
    } else if (want != size) {
      ST_CHECK(size == 1, ST_ERROR_SHAPE_MISMATCH,
               "sizes[%d] = %lld cannot expand dim %d of size %lld (only size-1 dims grow); sizes %s, tensor %s", i,
               static_cast<long long>(want), sd, static_cast<long long>(size), format_dims(target).c_str(),
               format_dims(src.sizes()).c_str());
      size = want;
      stride = 0;
    }
    sizes[i] = size;
    strides[i] = stride;
  }
  return make_view(src, sizes, strides, src.storage_offset());
}

Tensor unsqueeze(const Tensor& src, int32_t dim) {
  const int ndim = src.ndim();
  ST_CHECK(ndim < kMaxDims, ST_ERROR_INVALID_ARGUMENT, "the tensor already has %d dims, the most allowed", ndim);
  int d = wrap_dim(dim, ndim + 1);
  DimVector sizes = src.sizes(), strides = src.strides();
  int64_t stride = 1;
  if (d < ndim && mul_overflows(sizes[d], strides[d], &stride)) stride = 0;
  sizes.insert(d, 1);
  strides.insert(d, stride);
  return make_view(src, sizes, strides, src.storage_offset());
}

Tensor squeeze(const Tensor& src, int32_t dim) {
  if (src.ndim() == 0) {
    wrap_dim(dim, 1);  // a 0-d tensor accepts dim 0 and -1, as PyTorch
    return make_view(src, src.sizes(), src.strides(), src.storage_offset());
  }
  int d = wrap_dim(dim, src.ndim());
  DimVector sizes = src.sizes(), strides = src.strides();
  if (sizes[d] == 1) {
    sizes.erase(d);
    strides.erase(d);
  }
  return make_view(src, sizes, strides, src.storage_offset());
}

Tensor flip(const Tensor& src, int32_t dim) {
  int d = wrap_dim(dim, src.ndim());
  DimVector strides = src.strides();
  int64_t offset = src.storage_offset();
  if (src.size(d) > 1 && moves_offset(src)) offset += (src.size(d) - 1) * src.stride(d);
  // INT64_MIN cannot be negated; it only occurs where no element moves (a
  // dim of size 1 or an empty tensor), so it stays as it is, still negative.
  if (strides[d] != INT64_MIN) strides[d] = -strides[d];
  return make_view(src, src.sizes(), strides, offset);
}

DimVector infer_size(const DimVector& shape, int64_t numel) {
  DimVector out = shape;
  int infer = -1;
  int64_t known = 1;
  for (int i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      ST_CHECK(infer < 0, ST_ERROR_INVALID_ARGUMENT, "sizes[%d] = -1, but sizes[%d] is -1 already; only one may be",
               i, infer);
      infer = i;
    } else {
      ST_CHECK(shape[i] >= 0, ST_ERROR_INVALID_ARGUMENT, "sizes[%d] = %lld is negative", i,
               static_cast<long long>(shape[i]));
      ST_CHECK(!mul_overflows(known, shape[i], &known), ST_ERROR_SHAPE_MISMATCH,
               "sizes %s hold more elements than int64 counts", format_dims(shape).c_str());
    }
  }
  if (infer >= 0) {
    ST_CHECK(known != 0 && numel % known == 0, ST_ERROR_SHAPE_MISMATCH,
             "sizes %s cannot hold %lld elements", format_dims(shape).c_str(), static_cast<long long>(numel));
    out[infer] = numel / known;
  } else {
    ST_CHECK(known == numel, ST_ERROR_SHAPE_MISMATCH, "sizes %s hold %lld elements, the tensor has %lld",
             format_dims(shape).c_str(), static_cast<long long>(known), static_cast<long long>(numel));
  }
  return out;
}

bool compute_view_strides(const DimVector& sizes, const DimVector& strides, int64_t numel,
                          const DimVector& new_sizes, DimVector* new_strides) {
  const int new_ndim = new_sizes.size();
  DimVector out(new_ndim, 1);
  if (sizes.empty()) {  // a scalar views as any shape of one element
    *new_strides = out;
    return true;
  }
  if (numel == 0 && sizes == new_sizes) {
    *new_strides = strides;
    return true;
  }
  if (numel == 0) {
    for (int d = new_ndim - 2; d >= 0; --d) {
      int64_t s;
      out[d] = !mul_overflows(new_sizes[d + 1] > 1 ? new_sizes[d + 1] : 1, out[d + 1], &s) ? s : 0;
    }
    *new_strides = out;
    return true;
  }
  // Walk the old dims in chunks that are contiguous within themselves; each
  // chunk must be covered exactly by a run of new dims.
  int view_d = new_ndim - 1;
  int64_t chunk_base_stride = strides.back();
  int64_t tensor_numel = 1, view_numel = 1;
  for (int d = sizes.size() - 1; d >= 0; --d) {
    tensor_numel *= sizes[d];
    bool chunk_ends = d == 0;
    if (!chunk_ends && sizes[d - 1] != 1) {
      int64_t expect;
      chunk_ends = mul_overflows(tensor_numel, chunk_base_stride, &expect) || strides[d - 1] != expect;
    }
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[view_d] == 1)) {
      if (mul_overflows(view_numel, chunk_base_stride, &out[view_d])) return false;
      view_numel *= new_sizes[view_d];
      --view_d;
    }
    if (view_numel != tensor_numel) return false;
    if (d > 0) {
      chunk_base_stride = strides[d - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return false;
  *new_strides = out;
  return true;
}

Tensor view(const Tensor& src, const DimVector& sizes) {
  DimVector shape = infer_size(sizes, src.numel());
  DimVector strides;
  ST_CHECK(compute_view_strides(src.sizes(), src.strides(), src.numel(), shape, &strides), ST_ERROR_SHAPE_MISMATCH,
           "a tensor of sizes %s and strides %s cannot be viewed as %s without copying (st_reshape can)",
           format_dims(src.sizes()).c_str(), format_dims(src.strides()).c_str(), format_dims(shape).c_str());
  return make_view(src, shape, strides, src.storage_offset());
}

Tensor without_broadcast_dims(const Tensor& src) {
  DimVector sizes = src.sizes();
  bool changed = false;
  for (int d = 0; d < sizes.size(); ++d) {
    if (src.stride(d) == 0 && sizes[d] > 1) {
      sizes[d] = 1;
      changed = true;
    }
  }
  return changed ? make_view(src, sizes, src.strides(), src.storage_offset()) : src;
}

}  // namespace st
