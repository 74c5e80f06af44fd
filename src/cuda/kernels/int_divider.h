// IntDivider: division by a divisor fixed before a kernel launches, as
// PyTorch's IntegerDivider.cuh. A GPU has no integer divide instruction; an
// OffsetCalculator divides by every size for every element, so the 32-bit
// divider trades each division for a multiply-high, an add and a shift.
//
// Note [Division by invariant integers]
// Granlund and Montgomery, "Division by Invariant Integers using
// Multiplication" (PLDI 1994), Figure 4.1: for a divisor 1 <= d < 2^N let
// s = ceil(log2 d) and m = floor(2^N (2^s - d) / d) + 1, which fits in N
// bits. Then for every 0 <= n < 2^N, with t = floor(m n / 2^N),
//   floor(n / d) = floor((t + n) / 2^s).
// PyTorch adds t + n in 32 bits and so limits n and d to [0, 2^31); here
// the sum is taken in 64 bits, so every uint32 dividend and divisor works
// (tests/cpp/test_int_divider.cpp checks the edges against plain division).
#pragma once

#include <cstdint>

#include "core/error.h"
#include "core/macros.h"

namespace st {
namespace cuda {

template <typename Value>
struct DivMod {
  Value div;
  Value mod;
};

// Any unsigned type: plain division (64-bit indexing is the rare path).
template <typename Value>
struct IntDivider {
  IntDivider() = default;
  explicit IntDivider(Value d) : divisor(d) {
    ST_CHECK(d != 0, ST_ERROR_INTERNAL, "IntDivider built with divisor 0");
  }

  ST_HOST_DEVICE ST_FORCE_INLINE Value div(Value n) const { return n / divisor; }
  ST_HOST_DEVICE ST_FORCE_INLINE Value mod(Value n) const { return n % divisor; }
  ST_HOST_DEVICE ST_FORCE_INLINE DivMod<Value> divmod(Value n) const { return {n / divisor, n % divisor}; }

  Value divisor = 1;
};

// 32-bit: multiply-high by a magic number (Note [Division by invariant integers]).
template <>
struct IntDivider<uint32_t> {
  IntDivider() = default;  // divides by 1
  explicit IntDivider(uint32_t d) : divisor(d) {
    ST_CHECK(d != 0, ST_ERROR_INTERNAL, "IntDivider built with divisor 0");
    while ((uint64_t{1} << shift) < d) ++shift;
    const uint64_t m = (uint64_t{1} << 32) * ((uint64_t{1} << shift) - d) / d + 1;
    ST_CHECK(m <= UINT32_MAX, ST_ERROR_INTERNAL, "IntDivider magic for %u does not fit in 32 bits", d);
    magic = static_cast<uint32_t>(m);
  }

  ST_HOST_DEVICE ST_FORCE_INLINE uint32_t div(uint32_t n) const {
#if defined(__CUDA_ARCH__)
    const uint32_t t = __umulhi(n, magic);
#else
    const uint32_t t = static_cast<uint32_t>((static_cast<uint64_t>(n) * magic) >> 32);
#endif
    return static_cast<uint32_t>((static_cast<uint64_t>(t) + n) >> shift);
  }
  ST_HOST_DEVICE ST_FORCE_INLINE uint32_t mod(uint32_t n) const { return n - div(n) * divisor; }
  ST_HOST_DEVICE ST_FORCE_INLINE DivMod<uint32_t> divmod(uint32_t n) const {
    const uint32_t q = div(n);
    return {q, n - q * divisor};
  }

  uint32_t divisor = 1;
  uint32_t magic = 1;  // with shift 0: t = 0 and n / 1 = n
  uint32_t shift = 0;  // 0..32
};

}  // namespace cuda
}  // namespace st
