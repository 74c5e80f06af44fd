// The row converters of ConvertKernelTable, written once over a level's
// vector traits V (vec_base.h lists them) and compiled once per level:
// convert_kernels_<level>.cpp includes its traits and this file and hands
// out kConvertKernels<V>. Every result is bit-identical to convert_rules.h.
// Everything is in an unnamed namespace (see copy_kernels.inl).
//
// A pair is one struct: its element types and scalar rule (Rule: for
// levels without its vector conversion and for tails where a level has no
// masks), and line<V>(...) over the traits (vec_lines.h says what a line
// gets); then one entry in kConvertKernels. A pair that only some levels
// can vectorize says which in `vectorized` (by default, every level with
// kConvert); the others convert it by the rule.
#pragma once

#include <cstring>

#include "cpu/convert_kernel_table.h"
#include "cpu/convert_rules.h"
#include "cpu/vec_lines.h"

namespace st {
namespace cpu {
namespace {

template <typename F, typename T, T (*R)(F)>
struct Rule {
  using From = F;
  using To = T;
  static T rule(F v) { return R(v); }
  template <class V>
  static constexpr bool vectorized = V::kConvert;
};

inline float u8_to_float(uint8_t v) { return static_cast<float>(v); }

struct F32ToF16 : Rule<float, uint16_t, float_to_half_bits> {
  template <class V>
  static typename V::Vec line(typename V::Vec a, typename V::Vec b) {
    return V::concat(V::f32_to_f16(a), V::f32_to_f16(b));
  }
};

struct F32ToBF16 : Rule<float, uint16_t, float_to_bfloat16_bits> {
  template <class V>
  static typename V::Vec line(typename V::Vec a, typename V::Vec b) {
    return V::narrow_u32_u16(V::bf16_round(a), V::bf16_round(b));
  }
};

struct I64ToF64 : Rule<int64_t, double, int64_to_double> {
  template <class V>
  static typename V::Vec line(typename V::Vec v) {
    return V::i64_to_f64(v);
  }
};

struct U8ToF32 : Rule<uint8_t, float, u8_to_float> {
  template <class V>
  static typename V::Vec line(typename V::Quarter q) {
    return V::i32_to_f32(V::widen_u8(q));
  }
};

struct F16ToF32 : Rule<uint16_t, float, half_bits_to_float> {
  template <class V>
  static typename V::Vec line(typename V::Half h) {
    return V::f16_to_f32(h);
  }
};

struct BF16ToF32 : Rule<uint16_t, float, bfloat16_bits_to_float> {
  template <class V>
  static typename V::Vec line(typename V::Half h) {
    return V::shl32(V::widen_u16(h), 16);
  }
};

// n elements by the scalar rule.
template <class P>
void by_rule(char* d, const char* s, int64_t n) {
  using From = typename P::From;
  using To = typename P::To;
  for (int64_t i = 0; i < n; ++i) {
    From v;
    std::memcpy(&v, s + i * static_cast<int64_t>(sizeof(From)), sizeof(From));
    const To r = P::rule(v);
    std::memcpy(d + i * static_cast<int64_t>(sizeof(To)), &r, sizeof(To));
  }
}

// Fewer than a line of elements: one masked line, or by the rule.
template <class V, class P>
inline void part(char* d, const char* s, int64_t n) {
  if constexpr (V::kMasked) {
    V::store_part(d, Lines<V, P>::line_part(s, n), V::mask(n * Lines<V, P>::kOut));
  } else {
    by_rule<P>(d, s, n);
  }
}

// Streams need aligned vectors: the elements before the first one go
// through part(); so does the tail.
template <class V, class P>
void row(char* dst, const char* src, int64_t n, bool nt) {
  if constexpr (!P::template vectorized<V>) {
    by_rule<P>(dst, src, n);
  } else {
    using L = Lines<V, P>;
    int64_t i = 0;
    const uintptr_t at = reinterpret_cast<uintptr_t>(dst);
    if (nt && at % L::kOut == 0) {
      const int64_t head = ((V::kBytes - static_cast<int64_t>(at % V::kBytes)) % V::kBytes) / L::kOut;
      i = head < n ? head : n;
      if (i) part<V, P>(dst, src, i);
      for (; i + L::kPer <= n; i += L::kPer) V::stream(dst + i * L::kOut, L::line(src + i * L::kIn));
      V::fence();
    } else {
      for (; i + L::kPer <= n; i += L::kPer) V::store(dst + i * L::kOut, L::line(src + i * L::kIn));
    }
    if (i < n) part<V, P>(dst + i * L::kOut, src + i * L::kIn, n - i);
  }
}

// uint8 pixels of 2-4 channels to float32 planes (NHWC -> NCHW), converted
// in registers and split into channels by the level's small permutes.
template <class V>
bool deinterleave(ConvertPair pair, char* dst, int64_t dst_col, const char* src, int64_t rows, int64_t cols, bool nt) {
  if (pair != ConvertPair::UInt8ToFloat32 || cols < 2 || cols > 4) return false;
  const bool stream = nt && (reinterpret_cast<uintptr_t>(dst) & 63) == 0 && (dst_col & 63) == 0;
  deinterleave_lines<V, U8ToF32>(dst, dst_col, src, rows, static_cast<int>(cols), stream);
  if (stream) V::fence();
  return true;
}

template <class V>
constexpr ConvertDeinterleaveFn fused_deinterleave() {
  if constexpr (V::kSmallPermute) {
    return deinterleave<V>;
  } else {
    return nullptr;
  }
}

// In ConvertPair order.
template <class V>
constexpr ConvertKernelTable kConvertKernels = {
    V::kName,
    {row<V, F32ToF16>, row<V, F32ToBF16>, row<V, I64ToF64>, row<V, U8ToF32>, row<V, F16ToF32>, row<V, BF16ToF32>},
    fused_deinterleave<V>(),
};

}  // namespace
}  // namespace cpu
}  // namespace st
