// NVFP4's codes by bounds, for the vector steps of the block rows
// (block_vector.h): the tables of one global scale g. Included once per
// level; everything is in an unnamed namespace (see copy_kernels.inl).
//
// Note [NVFP4 by bounds]
// An NVFP4 code, of the scale or of an element, counts the midpoints of
// its grid that the exact quotient lies above (at a tie, the even code's
// side). For a float32 magnitude a and an exact positive bound T = t · 6g
// or t · s · g (at most 31 significant bits: exact in float64), a > T
// exactly when a > RD(T), T rounded down to float32 (if T is not a
// float32, a > T means a >= the float32 above T); a >= T likewise, or a >
// pred(T) when T is a float32. So each bound is one float32, compared
// with a's bits as integers (bound_bits), and the tables of a g
// (nvfp4_tables: the scale's 126 bounds, the element bounds of each scale
// code, the factors for dequantizing) are computed once, in float64.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/macros.h"
#include "core/numeric/block_scaling.h"
#include "core/numeric/scalar_types.h"

namespace st {
namespace cpu {
namespace {
namespace block_vec {

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

constexpr uint32_t kInf32 = 0x7F800000u;

// The float32 bits b such that a finite float32 magnitude a lies above the
// exact positive t (at or above it when tie_up) exactly when a's bits, as
// an int32, lie above b (Note [NVFP4 by bounds]).
inline uint32_t bound_bits(double t, bool tie_up) {
  const float f = static_cast<float>(t);  // nearest even: MXCSR at its default
  const double back = static_cast<double>(f);
  return float_bits(f) - ((back > t || (back == t && tie_up)) ? 1u : 0u);
}

// What NVFP4 needs of one global scale g (Note [NVFP4 by bounds]).
struct NvFp4Tables {
  double g;                        // the g they are for; 0 before the first
  bool estimate;                   // 6g in [2^-100, 2^100]: scale codes estimated in float32
  uint32_t inv_6g;                 // 1 / (6g) rounded to float32, its bits
  uint32_t scale_bound[128];       // code >= c exactly when amax's bits > scale_bound[c]: [0] -1, [127] never
  uint32_t element_bound[128][8];  // at scale code c, the seven E2M1 midpoints' bounds and one never passed
  uint32_t factor[256];            // dequantizing: s(code) · g as float32 bits,
  bool factor_exact[256];          //   where every product with an element is exact
};

// The E2M1 midpoints; a tie goes to the even code above those marked.
constexpr double kE2M1Mid[7] = {0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0};
constexpr bool kE2M1TieUp[7] = {false, true, false, true, false, true, false};

inline double e4m3_value(int code) {
  return static_cast<double>(float8_to_float(Float8_e4m3fn{static_cast<uint8_t>(code)}));
}

inline void fill_nvfp4_tables(NvFp4Tables& t, double g) {
  constexpr uint32_t kNever = kInf32;  // above every finite magnitude
  const double six_g = 6.0 * g;        // exact: g is a float32
  t.estimate = six_g >= 0x1p-100 && six_g <= 0x1p100;
  t.inv_6g = float_bits(static_cast<float>(1.0 / six_g));
  t.scale_bound[0] = 0xFFFFFFFFu;
  for (int c = 1; c < 127; ++c)  // between codes c - 1 and c; a tie goes to the even one
    t.scale_bound[c] = bound_bits(0.5 * (e4m3_value(c - 1) + e4m3_value(c)) * six_g, c % 2 == 0);
  t.scale_bound[127] = kNever;
  for (int c = 0; c < 128; ++c) {
    const double sg = e4m3_value(c) * g;  // exact; NaN for c = 127, which no finite block gets
    for (int j = 0; j < 7; ++j)
      t.element_bound[c][j] = sg > 0.0 ? bound_bits(kE2M1Mid[j] * sg, kE2M1TieUp[j]) : kNever;
    t.element_bound[c][7] = kNever;
  }
  for (int c = 0; c < 256; ++c) {
    const double sg = e4m3_value(c) * g;
    const float f = static_cast<float>(sg);
    t.factor[c] = float_bits(f);
    // At most 22 significant bits, and every product normal and finite (or sg 0); not NaN.
    t.factor_exact[c] = (c & 0x7F) != 0x7F && static_cast<double>(f) == sg && (t.factor[c] & 3u) == 0 &&
                        (sg == 0.0 || (std::fabs(sg) >= 0x1p-125 && std::fabs(sg) <= 0x1p124));
  }
  t.g = g;
}

// The scale code of a block whose largest magnitude is the finite float32
// bits amax: the estimate and the bounds on either side, as
// VectorQuantize::scale_codes computes them lane by lane, or the rule
// where 6g is too far from 1 for the estimate.
inline uint32_t nvfp4_scale_code(uint32_t amax, const NvFp4Tables& t, double g) {
  float a;
  std::memcpy(&a, &amax, sizeof a);
  if (!t.estimate) {
    blocks::BlockAmax m;
    m.add(static_cast<double>(a));
    return blocks::nvfp4_scale_code(m, g);
  }
  float inv;
  std::memcpy(&inv, &t.inv_6g, sizeof inv);
  const float q = a * inv;
  const uint32_t qb = float_bits(q);
  uint32_t code = qb < (121u << 23) ? static_cast<uint32_t>(std::nearbyint(q * 512.0f))  // E4M3 subnormal
                                     : ((qb + (1u << 19)) >> 20) - (120u << 3);
  code = code < 126 ? code : 126;
  code += static_cast<int32_t>(amax) > static_cast<int32_t>(t.scale_bound[code + 1]) ? 1 : 0;
  return code - (static_cast<int32_t>(amax) > static_cast<int32_t>(t.scale_bound[code]) ? 0 : 1);
}

// The tables for g, kept per thread for the last g it met. Out of line,
// so that a caller keeps the pointer rather than the thread-local's
// address computation in its loops.
ST_NOINLINE inline const NvFp4Tables* nvfp4_tables(double g) {
  static thread_local NvFp4Tables tables{};
  if (tables.g != g) fill_nvfp4_tables(tables, g);
  return &tables;
}

}  // namespace block_vec
}  // namespace
}  // namespace cpu
}  // namespace st
