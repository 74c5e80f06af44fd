// OffsetCalculator: the byte offsets of element `linear` in each of NARGS
// operands that share one shape, as PyTorch's OffsetCalculator.cuh. This is
// how the generic strided kernel walks a TensorIterator: dim 0 is the
// fastest (the iterator's order), sizes are divided with IntDivider, and
// strides are per operand, in bytes, of any sign (Note [Wrapping offsets]).
//
// Note [Wrapping offsets]
// Strides may be negative (NumPy-style views, st_flip), so an offset is
// signed. Offsets are summed in the unsigned index type, where overflow
// wraps by definition, and the total is read back as signed. When the true
// offset fits the signed type (TensorIterator::can_use_32bit_indexing
// checks that before a 32-bit launch), the result is exact, and no partial
// sum can be undefined behaviour on the way.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/error.h"
#include "core/macros.h"
#include "cuda/kernels/int_divider.h"
#include "stride.h"

namespace st {
namespace cuda {

// The signed value of the two's-complement bits `u` (Note [Wrapping offsets]),
// without an implementation-defined conversion.
template <typename U>
ST_HOST_DEVICE ST_FORCE_INLINE std::make_signed_t<U> wrap_to_signed(U u) {
  using S = std::make_signed_t<U>;
  constexpr U kMax = static_cast<U>(~U{0}) >> 1;  // the largest S (numeric_limits is host-only)
  return u <= kMax ? static_cast<S>(u) : static_cast<S>(-static_cast<S>(~u) - 1);
}

constexpr int kMaxOffsetDims = ST_MAX_DIMS;

// A fixed-size array that can be a kernel argument and a return value, as
// PyTorch's at::detail::Array.
template <typename T, int N>
struct DeviceArray {
  T data[N];
  ST_HOST_DEVICE T operator[](int i) const { return data[i]; }
  ST_HOST_DEVICE T& operator[](int i) { return data[i]; }
};

template <int NARGS, typename IndexType = uint32_t>
struct OffsetCalculator {
  static_assert(std::is_unsigned<IndexType>::value, "IndexType is uint32_t or uint64_t");
  static constexpr int kArgs = NARGS > 0 ? NARGS : 1;
  using Offset = std::make_signed_t<IndexType>;
  using Offsets = DeviceArray<Offset, kArgs>;

  // `dims` (0..25) sizes, each >= 1 (an empty iteration launches no
  // kernel), dim 0 the fastest; strides[arg][dim] in bytes. Throws
  // ST_ERROR_INTERNAL when a size, or the stride of a dim of size > 1,
  // does not fit the index type.
  OffsetCalculator(int dims, const int64_t* sizes, const int64_t* const* strides) : dims_(dims) {
    ST_CHECK(dims >= 0 && dims <= kMaxOffsetDims, ST_ERROR_INTERNAL, "OffsetCalculator with %d dims", dims);
    for (int d = 0; d < kMaxOffsetDims; ++d) {
      for (int arg = 0; arg < kArgs; ++arg) strides_[d][arg] = 0;
    }
    for (int d = 0; d < dims; ++d) {
      ST_CHECK(sizes[d] >= 1 && static_cast<uint64_t>(sizes[d]) <= std::numeric_limits<IndexType>::max(),
               ST_ERROR_INTERNAL, "OffsetCalculator: sizes[%d] = %lld does not fit a %d-bit index", d,
               static_cast<long long>(sizes[d]), static_cast<int>(8 * sizeof(IndexType)));
      sizes_[d] = IntDivider<IndexType>(static_cast<IndexType>(sizes[d]));
      for (int arg = 0; arg < NARGS; ++arg) {
        // A dim of size 1 adds nothing, whatever its stride (can_use_32bit_indexing agrees).
        const int64_t s = sizes[d] == 1 ? 0 : strides[arg][d];
        ST_CHECK(s >= std::numeric_limits<Offset>::min() && s <= std::numeric_limits<Offset>::max(), ST_ERROR_INTERNAL,
                 "OffsetCalculator: strides[%d][%d] = %lld does not fit a %d-bit offset", arg, d,
                 static_cast<long long>(s), static_cast<int>(8 * sizeof(IndexType)));
        strides_[d][arg] = static_cast<IndexType>(s);
      }
    }
  }

  ST_HOST_DEVICE Offsets get(IndexType linear) const {
    IndexType sums[kArgs];
    ST_UNROLL
    for (int arg = 0; arg < kArgs; ++arg) sums[arg] = 0;
    // A loop of fixed length with an early exit unrolls; a loop to dims_ would not.
    ST_UNROLL
    for (int d = 0; d < kMaxOffsetDims; ++d) {
      if (d == dims_) break;
      const DivMod<IndexType> qr = sizes_[d].divmod(linear);
      linear = qr.div;
      ST_UNROLL
      for (int arg = 0; arg < kArgs; ++arg) sums[arg] += qr.mod * strides_[d][arg];
    }
    Offsets out;
    ST_UNROLL
    for (int arg = 0; arg < kArgs; ++arg) out[arg] = wrap_to_signed(sums[arg]);
    return out;
  }

  ST_HOST_DEVICE int dims() const { return dims_; }

 private:
  int dims_;
  IntDivider<IndexType> sizes_[kMaxOffsetDims];
  IndexType strides_[kMaxOffsetDims][kArgs];  // two's-complement bits of the byte strides
};

}  // namespace cuda
}  // namespace st
