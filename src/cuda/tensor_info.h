// TensorInfo: a tensor as a kernel argument (data pointer, sizes, strides)
// and IndexToOffset, which maps a row-major linear element index to an
// element offset, as PyTorch's TensorInfo.cuh.
//
// Unlike PyTorch's, strides may be negative (NumPy-style views, st_flip), so
// they are stored signed and an offset is signed. Note [Wrapping offsets]:
// offsets are summed in the unsigned index type, where overflow wraps by
// definition, and the total is read back as signed. When the true offset
// fits the signed type (fits_32bit_indexing checks that for 32-bit indexing;
// every layout stride accepts fits int64), the result is exact, and no
// partial sum can be undefined behaviour on the way.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/error.h"
#include "core/macros.h"
#include "cuda/collapse_dims.h"
#include "stride.h"

namespace st {
namespace cuda {

constexpr int kMaxTensorInfoDims = ST_MAX_DIMS;

// The signed value of the two's-complement bits `u` (Note [Wrapping offsets]),
// without an implementation-defined conversion.
template <typename U>
ST_HOST_DEVICE ST_FORCE_INLINE std::make_signed_t<U> wrap_to_signed(U u) {
  using S = std::make_signed_t<U>;
  constexpr U kMax = static_cast<U>(~U{0}) >> 1;  // the largest S (numeric_limits is host-only)
  return u <= kMax ? static_cast<S>(u) : static_cast<S>(-static_cast<S>(~u) - 1);
}

template <typename T, typename IndexType>
struct TensorInfo {
  static_assert(std::is_unsigned<IndexType>::value, "IndexType is uint32_t or uint64_t");
  using Offset = std::make_signed_t<IndexType>;

  T* data;
  IndexType sizes[kMaxTensorInfoDims];
  Offset strides[kMaxTensorInfoDims];  // in elements, any sign
  int dims;

  ST_HOST_DEVICE bool is_contiguous() const { return dims == 1 && strides[0] == 1; }

  // Host: merges dims (collapse_dims); returns the excluded dim's new index.
  int collapse_dims(int excluded_dim = -1) {
    CollapsedDims r = cuda::collapse_dims(sizes, strides, dims, excluded_dim);
    dims = r.dims;
    return r.excluded_dim;
  }
};

// A TensorInfo of `ndim` (0..25) dims; a 0-d tensor becomes one dim of size 1,
// as PyTorch's getTensorInfo. Throws ST_ERROR_INTERNAL when a size, or the
// stride of a dim of size > 1, does not fit the index type (callers choose
// it with fits_32bit_indexing).
template <typename T, typename IndexType>
TensorInfo<T, IndexType> make_tensor_info(T* data, const int64_t* sizes, const int64_t* strides, int ndim) {
  using Info = TensorInfo<T, IndexType>;
  using Offset = typename Info::Offset;
  ST_CHECK(ndim >= 0 && ndim <= kMaxTensorInfoDims, ST_ERROR_INTERNAL, "TensorInfo with %d dims", ndim);
  Info info;
  info.data = data;
  info.dims = ndim == 0 ? 1 : ndim;
  info.sizes[0] = 1;
  info.strides[0] = 1;
  for (int d = 0; d < ndim; ++d) {
    const bool stride_fits =
        strides[d] >= std::numeric_limits<Offset>::min() && strides[d] <= std::numeric_limits<Offset>::max();
    ST_CHECK(sizes[d] >= 0 && static_cast<uint64_t>(sizes[d]) <= std::numeric_limits<IndexType>::max() &&
                 (stride_fits || sizes[d] == 1),
             ST_ERROR_INTERNAL, "dim %d (size %lld, stride %lld) does not fit a %d-bit TensorInfo", d,
             static_cast<long long>(sizes[d]), static_cast<long long>(strides[d]),
             static_cast<int>(8 * sizeof(IndexType)));
    info.sizes[d] = static_cast<IndexType>(sizes[d]);
    // A dim of size 1 adds nothing, whatever its stride (fits_32bit_indexing agrees).
    info.strides[d] = stride_fits ? static_cast<Offset>(strides[d]) : 0;
  }
  return info;
}

// The element offset of row-major element `linear` (< numel). Dims > 0 fixes
// the number of dims at compile time so the loop unrolls; -1 reads info.dims.
template <typename T, typename IndexType, int Dims>
struct IndexToOffset {
  using Offset = typename TensorInfo<T, IndexType>::Offset;
  static ST_HOST_DEVICE Offset get(IndexType linear, const TensorInfo<T, IndexType>& info) {
    IndexType offset = 0;
    ST_UNROLL
    for (int i = Dims - 1; i > 0; --i) {
      offset += (linear % info.sizes[i]) * static_cast<IndexType>(info.strides[i]);
      linear /= info.sizes[i];
    }
    return wrap_to_signed(static_cast<IndexType>(offset + linear * static_cast<IndexType>(info.strides[0])));
  }
};

template <typename T, typename IndexType>
struct IndexToOffset<T, IndexType, -1> {
  using Offset = typename TensorInfo<T, IndexType>::Offset;
  static ST_HOST_DEVICE Offset get(IndexType linear, const TensorInfo<T, IndexType>& info) {
    IndexType offset = 0;
    for (int i = info.dims - 1; i > 0; --i) {
      offset += (linear % info.sizes[i]) * static_cast<IndexType>(info.strides[i]);
      linear /= info.sizes[i];
    }
    return wrap_to_signed(static_cast<IndexType>(offset + linear * static_cast<IndexType>(info.strides[0])));
  }
};

}  // namespace cuda
}  // namespace st
