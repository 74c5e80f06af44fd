// Overflow-checked integer arithmetic: the one way sizes, spans and byte
// counts are computed. Every one that reaches an allocation or an index
// computation goes through these, so that overflow is reported instead of
// wrapping.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/macros.h"

namespace st {

template <typename T>
struct NoDeduce {
  using type = T;
};

// a + b, a - b and a * b in T, computed as if in infinite precision: true
// when the result does not fit T (*out then holds it wrapped), false with
// *out the exact result otherwise. T comes from `out`; a and b are
// converted to it first.
#if !ST_COMPILER_MSVC
template <typename T>
inline bool add_overflows(typename NoDeduce<T>::type a, typename NoDeduce<T>::type b, T* out) {
  return __builtin_add_overflow(a, b, out);
}
template <typename T>
inline bool sub_overflows(typename NoDeduce<T>::type a, typename NoDeduce<T>::type b, T* out) {
  return __builtin_sub_overflow(a, b, out);
}
template <typename T>
inline bool mul_overflows(typename NoDeduce<T>::type a, typename NoDeduce<T>::type b, T* out) {
  return __builtin_mul_overflow(a, b, out);
}
#else
// The wrapped result; T's signed overflow would be undefined, so the
// arithmetic runs in the unsigned type of the same width.
template <typename T>
using UnsignedOf = typename std::make_unsigned<T>::type;

template <typename T>
inline bool add_overflows(typename NoDeduce<T>::type a, typename NoDeduce<T>::type b, T* out) {
  *out = static_cast<T>(static_cast<UnsignedOf<T>>(a) + static_cast<UnsignedOf<T>>(b));
  return std::is_signed<T>::value ? (a < 0) == (b < 0) && (*out < 0) != (a < 0) : *out < a;
}
template <typename T>
inline bool sub_overflows(typename NoDeduce<T>::type a, typename NoDeduce<T>::type b, T* out) {
  *out = static_cast<T>(static_cast<UnsignedOf<T>>(a) - static_cast<UnsignedOf<T>>(b));
  return std::is_signed<T>::value ? (a < 0) != (b < 0) && (*out < 0) != (a < 0) : a < b;
}
template <typename T>
inline bool mul_overflows(typename NoDeduce<T>::type a, typename NoDeduce<T>::type b, T* out) {
  *out = static_cast<T>(static_cast<UnsignedOf<T>>(a) * static_cast<UnsignedOf<T>>(b));
  if (a == 0 || b == 0) return false;
  constexpr T kMax = std::numeric_limits<T>::max(), kMin = std::numeric_limits<T>::min();
  if (!std::is_signed<T>::value) return a > kMax / b;
  if (a > 0) return b > 0 ? a > kMax / b : b < kMin / a;
  return b > 0 ? a < kMin / b : b < kMax / a;
}
#endif

}  // namespace st
