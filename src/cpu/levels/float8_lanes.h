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

// The lane helper is forced inline: called several times per line, it
// was otherwise kept out of line, constants reloaded per call.
//
// float32 -> float8 on 32-bit lanes, by the steps of the scalar rule
// (Note [Float8 kernels on float32 bits]): float32 bits in, float8 bits in
// the low byte of each lane out.
//
// `saturated_at`: 0, or the float32 bits of the format's largest finite
// value, which a larger magnitude (±inf too) is clamped to first (the
// scaled copies' saturation, Note [The scaled copy's arithmetic]). The
// clamp takes one minimum on the magnitude, where one on the value takes
// two (a maximum and a minimum); a NaN stays NaN, and the sign is x's.
template <class V, class B, uint32_t saturated_at = 0>
ST_FORCE_INLINE typename V::Vec f32_to_f8_lanes(typename V::Vec x) {
  using Vec = typename V::Vec;
  Vec a = V::and32(x, V::splat32(0x7fffffff));
  if constexpr (saturated_at != 0) a = V::f32_min(V::splat32(saturated_at), a);
  // Normal: rebias in place and round, the rebias folded into the rounding
  // constant (bit kShift of the rebias is 0, so the lowest kept bit is
  // a's); lanes below the smallest normal wrap around here and take the
  // other branch.
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
  Vec r = V::select_sub32(V::gt_u32(V::splat32(B::kMinNormal), a), V::f32_add_nearest(a, magic), magic, normal);
  if constexpr (B::kHasInf) {
    const Vec nan = V::or32(V::splat32(B::kQuietNaN), V::and32(V::template srl32<B::kShift>(a), V::splat32(B::kMantMask)));
    r = V::select(V::gt_u32(a, V::splat32(0x7f800000)), nan, r);
  }
  return V::or_and32(r, V::template srl32<24>(x), V::splat32(0x80));  // the sign
}

}  // namespace
}  // namespace cpu
}  // namespace st
