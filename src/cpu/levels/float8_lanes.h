// float32 -> float8 on the 32-bit lanes of a level's vector traits V:
// shared by the converting copies (convert_kernels.inl) and the scaled
// copies' rows (scaled_rows.inl), so that both round to float8 the
// one way. Include only from a level's files, after its traits.
#pragma once

#include "core/macros.h"
#include "cpu/levels/convert_rules.h"

namespace st {
namespace cpu {
namespace {

// The lane helpers are forced inline: called several times per line,
// they were otherwise kept out of line, constants reloaded per call.
//
// float32 -> float8 on 32-bit lanes, by the steps of the scalar rule
// (Note [Float8 kernels on float32 bits]): float32 bits in, the float8
// magnitude's code in the low byte of each lane out (the sign goes in as
// the lanes are packed, f32_to_f8_line).
//
// `saturated_at`: 0, or the float32 bits of the format's largest finite
// value, which a larger magnitude (±inf too) is clamped to first (the
// scaled copies' saturation, Note [The scaled copy's arithmetic]). The
// clamp takes one minimum on the magnitude, where one on the value takes
// two (a maximum and a minimum); a NaN stays NaN.
template <class V, class B, uint32_t saturated_at>
ST_FORCE_INLINE typename V::Vec f32_to_f8_magnitudes(typename V::Vec x) {
  using Vec = typename V::Vec;
  Vec a = V::and32(x, V::splat32(0x7fffffff));
  if constexpr (saturated_at != 0) a = V::f32_min(V::splat32(saturated_at), a);
  // Normal: rebias in place and round, the rebias folded into the rounding
  // constant (bit kShift of the rebias is 0, so the lowest kept bit is
  // a's); lanes below the smallest normal wrap around here and take the
  // other branch. (a is below 2^31: signed comparisons serve.)
  static_assert(((B::kRebias >> B::kShift) & 1) == 0, "the rebias leaves the lowest kept bit alone");
  const Vec lowest_kept = V::and32(V::template srl32<B::kShift>(a), V::splat32(1));
  const Vec rounded = V::template srl32<B::kShift>(
      V::add32(V::add32(a, V::splat32((1u << (B::kShift - 1)) - 1 - B::kRebias)), lowest_kept));
  const Vec normal = V::min_u32(rounded, V::splat32(B::kOverflow));
  // Subnormal: |x| + 2^(23 - kSubnormalExp) rounds |x| to a multiple of
  // the smallest subnormal, to nearest even; its bits less the magic's are
  // that multiple (float32 subnormals give 0 either way, so a host's
  // denormals-are-zero flag changes nothing).
  const Vec magic = V::splat32(B::kSubnormalMagic);
  Vec r = V::select_sub32(V::gt_s32(V::splat32(B::kMinNormal), a), V::f32_add_nearest(a, magic), magic, normal);
  // NaN: e4m3fn's is its largest code, which the clamp above gives;
  // e5m2's keeps the top payload bit.
  if constexpr (B::kHasInf) {
    const Vec nan = V::or32(V::splat32(B::kQuietNaN), V::and32(V::template srl32<B::kShift>(a), V::splat32(B::kMantMask)));
    r = V::select(V::gt_s32(a, V::splat32(0x7f800000)), nan, r);
  }
  return r;
}

// Four vectors of float32 lanes to a line of float8 bits: the magnitudes,
// packed with the sign bits of the lanes.
template <class V, class B, uint32_t saturated_at = 0>
ST_FORCE_INLINE typename V::Vec f32_to_f8_line(typename V::Vec x0, typename V::Vec x1, typename V::Vec x2,
                                               typename V::Vec x3) {
  using Vec = typename V::Vec;
  const Vec m0 = f32_to_f8_magnitudes<V, B, saturated_at>(x0), m1 = f32_to_f8_magnitudes<V, B, saturated_at>(x1);
  const Vec m2 = f32_to_f8_magnitudes<V, B, saturated_at>(x2), m3 = f32_to_f8_magnitudes<V, B, saturated_at>(x3);
  return V::pack_u32_u8_signs(m0, m1, m2, m3, x0, x1, x2, x3);
}

}  // namespace
}  // namespace cpu
}  // namespace st
