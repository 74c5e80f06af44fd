// The rows of cpu/levels/scaled_rows.h, written once over a level's vector traits
// V (vec_base.h) and compiled once per level: scaled_rows_<level>.cpp
// includes its traits and this file and hands out kScaledRows<V>. Every
// result has the bits of core/numeric/scaled_convert.h (Note [The scaled copy's
// arithmetic]): one fma, and an explicit round-to-nearest-even where it
// rounds, whatever the caller's MXCSR. A level without kConvert (the
// portable one) runs that element rule on every element; one without
// masks, on the heads before an aligned streamed store and on the tails,
// which a masked level does as one partial vector or line.
// Everything is in an unnamed namespace (see copy_kernels.inl).
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/macros.h"
#include "core/numeric/scaled_convert.h"
#include "cpu/levels/element_access.h"
#include "cpu/levels/float8_lanes.h"
#include "cpu/levels/scaled_rows.h"
#include "cpu/levels/stream_pages.h"
#include "cpu/levels/stream_settings.h"

namespace st {
namespace cpu {
namespace {

// Elements from to to - 1 of a row by the element rule.
template <typename D, typename S>
void scaled_by_rule(char* dst, const char* src, int64_t from, int64_t to, const float* scale, const float* shift,
                    int64_t step, bool saturate) {
  for (int64_t i = from; i < to; ++i) {
    store<D>(dst + i * static_cast<int64_t>(sizeof(D)),
             scaled_convert<D>(load<S>(src + i * static_cast<int64_t>(sizeof(S))), scale[i * step], shift[i * step],
                               saturate));
  }
}

// The float32 lanes at p: a whole vector, or (kPart, masked levels) its
// first `count` lanes, reading nothing past them.
template <class V, bool kPart>
ST_FORCE_INLINE typename V::Vec load_f32(const float* p, int64_t count) {
  if constexpr (kPart) {
    return V::load_part(reinterpret_cast<const char*>(p), V::mask(4 * count));
  } else {
    return V::load(reinterpret_cast<const char*>(p));
  }
}

// A vector stored, or streamed past the caches.
template <class V>
ST_FORCE_INLINE void put(char* p, typename V::Vec v, bool stream) {
  stream ? V::stream(p, v) : V::store(p, v);
}

// A row of n elements of E bytes at dst, in steps of kStep elements,
// step(i, stream), from the first whose vector can stream (when `stream`);
// the elements before it and after the last step by part(from, to). The
// loop is written twice, `stream` a constant in each: the test and its
// register leave the loop.
template <class V, int64_t E, int64_t kStep, class Part, class Step>
ST_FORCE_INLINE void walk_row(const char* dst, int64_t n, bool stream, const Part& part, const Step& step) {
  int64_t i = 0;
  if (stream) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(dst);
    const int64_t head = static_cast<int64_t>((V::kBytes - at % V::kBytes) % V::kBytes) / E;
    i = head < n ? head : n;
    part(0, i);
    for (; i + kStep <= n; i += kStep) step(i, std::true_type{});
  } else {
    for (; i + kStep <= n; i += kStep) step(i, std::false_type{});
  }
  part(i, n);
}

// A row's scales and shifts for the lanes from element i: vectors of them
// per element, or its one value broadcast once before the loop (the
// compiler cannot tell that the stores to dst leave *scale alone, and
// would broadcast it every step).
template <class V, bool kPerElement>
struct RowValues {
  using Vec = typename V::Vec;
  const float *scale, *shift;
  Vec row_scale = V::splat_f32(*scale), row_shift = V::splat_f32(*shift);
  template <bool kPart = false>
  ST_FORCE_INLINE Vec scale_at(int64_t i, int64_t count = 0) const {
    return kPerElement ? load_f32<V, kPart>(scale + i, count) : row_scale;
  }
  template <bool kPart = false>
  ST_FORCE_INLINE Vec shift_at(int64_t i, int64_t count = 0) const {
    return kPerElement ? load_f32<V, kPart>(shift + i, count) : row_shift;
  }
};

// float32 -> D (1 byte), a line of one vector of results from four of
// float32 lanes a step (a partial line streamed would cost a
// partial write-combining flush): for int8 / uint8 rounded half to even,
// NaN -> 0, clamped, and narrowed by two packs and a permute; for
// float8_e4m3fn st_copy's rounding (float8_lanes.h), the saturation's
// clamp folded into it.
template <class V, typename D, typename S, bool kPerElement, bool kSaturate>
struct Narrow {
  using Vec = typename V::Vec;
  static constexpr int64_t kLanes = V::kBytes / 4;

  // The line of elements i on (kPart: of the first `count`).
  template <bool kPart>
  static ST_FORCE_INLINE Vec line(const float* s, const RowValues<V, kPerElement>& values, int64_t i, int64_t count) {
    auto lanes = [&](int64_t k) {
      const int64_t at = i + k * kLanes, left = count - k * kLanes;
      return V::f32_fma(load_f32<V, kPart>(s + at, left), values.template scale_at<kPart>(at, left),
                        values.template shift_at<kPart>(at, left));
    };
    const Vec y0 = lanes(0), y1 = lanes(1), y2 = lanes(2), y3 = lanes(3);
    if constexpr (std::is_same<D, Float8_e4m3fn>::value) {
      return f32_to_f8_line<V, E4M3Bits, kSaturate ? E4M3Bits::kLargestFinite : 0>(y0, y1, y2, y3);
    } else {
      constexpr float lo = detail::IntRange<D>::min, hi = detail::IntRange<D>::max;
      const Vec c0 = V::f32_to_i32_nearest_clamped(y0, lo, hi), c1 = V::f32_to_i32_nearest_clamped(y1, lo, hi);
      const Vec c2 = V::f32_to_i32_nearest_clamped(y2, lo, hi), c3 = V::f32_to_i32_nearest_clamped(y3, lo, hi);
      // In range already, so the saturating packs only narrow.
      return std::is_signed<D>::value ? V::pack_i32_i8(c0, c1, c2, c3) : V::pack_u32_u8(c0, c1, c2, c3);
    }
  }

  static void row(char* dst, const char* src, int64_t n, const float* scale, const float* shift, bool nt) {
    const float* s = reinterpret_cast<const float*>(src);
    const RowValues<V, kPerElement> values{scale, shift};
    auto part = [&](int64_t from, int64_t to) {
      if constexpr (V::kMasked) {
        if (from < to) V::store_part(dst + from, line<true>(s, values, from, to - from), V::mask(to - from));
      } else {
        scaled_by_rule<D, float>(dst, src, from, to, scale, shift, kPerElement, kSaturate);
      }
    };
    // Streamed, the source is prefetched as a converting row's is
    // (Note [Streaming stores]).
    const int64_t ahead = nt ? stream_prefetch_bytes() : 0;
    walk_row<V, 1, V::kBytes>(dst, n, nt, part, [&](int64_t i, auto streamed) {
      if (streamed) prefetch_ahead<4 * V::kBytes>(src + 4 * i, ahead);
      put<V>(dst + i, line<false>(s, values, i, V::kBytes), streamed);
    });
  }

  // Row by row: narrowing rows gain nothing from sharing their values' loads.
  static void run(char* dst, int64_t dst_row, const char* src, int64_t src_row, int64_t rows, int64_t n,
                  const float* scale, const float* shift, bool nt) {
    for (int64_t r = 0; r < rows; ++r) row(dst + r * dst_row, src + r * src_row, n, scale, shift, nt);
  }
};

// uint8 / int8 -> float32: a vector of float32 lanes a step, in K rows
// whose streamed stores align alike, each vector of values loaded once for
// the K (Note [Rows that share their values]).
template <class V, typename D, typename S, bool kPerElement, bool kSaturate>
struct Widen {
  using Vec = typename V::Vec;
  static constexpr int64_t kLanes = V::kBytes / 4;

  // Lanes i on of the K rows (kPart: the first `count`).
  template <int K, bool kPart>
  static ST_FORCE_INLINE void lanes(char* dst, int64_t dst_row, const char* src, int64_t src_row,
                                    const RowValues<V, kPerElement>& values, int64_t i, int64_t count, bool stream) {
    const Vec a = values.template scale_at<kPart>(i, count), b = values.template shift_at<kPart>(i, count);
    for (int k = 0; k < K; ++k) {
      typename V::Quarter bytes;
      if constexpr (kPart) {
        bytes = V::load_quarter_part(src + k * src_row + i, V::mask(count));
      } else {
        bytes = V::load_quarter(src + k * src_row + i);
      }
      Vec y = V::f32_fma(V::i32_to_f32(std::is_signed<S>::value ? V::widen_i8(bytes) : V::widen_u8(bytes)), a, b);
      // Only ±inf from a huge scale clamps; NaN stays (min/max answer their second operand).
      if constexpr (kSaturate) {
        y = V::f32_min(V::splat_f32(3.4028234663852886e38f), V::f32_max(V::splat_f32(-3.4028234663852886e38f), y));
      }
      if constexpr (kPart) {
        V::store_part(dst + k * dst_row + 4 * i, y, V::mask(4 * count));
      } else {
        put<V>(dst + k * dst_row + 4 * i, y, stream);
      }
    }
  }

  template <int K>
  static void k_rows(char* dst, int64_t dst_row, const char* src, int64_t src_row, int64_t n, const float* scale,
                     const float* shift, bool nt) {
    const RowValues<V, kPerElement> values{scale, shift};
    auto part = [&](int64_t from, int64_t to) {
      if constexpr (V::kMasked) {
        if (from < to) lanes<K, true>(dst, dst_row, src, src_row, values, from, to - from, false);
      } else {
        for (int k = 0; k < K; ++k) {
          scaled_by_rule<float, S>(dst + k * dst_row, src + k * src_row, from, to, scale, shift, kPerElement,
                                   kSaturate);
        }
      }
    };
    const bool stream = nt && reinterpret_cast<uintptr_t>(dst) % 4 == 0;
    walk_row<V, 4, kLanes>(dst, n, stream, part, [&](int64_t i, auto streamed) {
      lanes<K, false>(dst, dst_row, src, src_row, values, i, kLanes, streamed);
    });
  }

  // All `rows`, four a step where they can share it.
  static void run(char* dst, int64_t dst_row, const char* src, int64_t src_row, int64_t rows, int64_t n,
                  const float* scale, const float* shift, bool nt) {
    walk_rows_in_fours(
        rows, kPerElement, dst_row,
        [&](int64_t r) {  // only per element: one kernel of four rows, not a second for one value
          Widen<V, D, S, true, kSaturate>::template k_rows<4>(dst + r * dst_row, dst_row, src + r * src_row, src_row, n,
                                                           scale, shift, nt);
        },
        [&](int64_t r) { k_rows<1>(dst + r * dst_row, dst_row, src + r * src_row, src_row, n, scale, shift, nt); });
  }
};

// The ScaledRowsFn of a pair: the rule on a level without the vector
// arithmetic; else the row's constant choices (values per element,
// saturation) as template arguments of K<..., kPerElement, kSaturate>::run,
// no test in the loop.
template <class V, typename D, typename S, template <class, typename, typename, bool, bool> class K>
void rows_kernel(char* dst, int64_t dst_row, const char* src, int64_t src_row, int64_t rows, int64_t n,
                 const float* scale, const float* shift, int64_t step, bool saturate, bool nt) {
  if constexpr (!V::kConvert) {
    for (int64_t r = 0; r < rows; ++r)
      scaled_by_rule<D, S>(dst + r * dst_row, src + r * src_row, 0, n, scale, shift, step, saturate);
  } else if (step) {
    (saturate ? K<V, D, S, true, true>::run : K<V, D, S, true, false>::run)(dst, dst_row, src, src_row, rows, n,
                                                                              scale, shift, nt);
  } else {
    (saturate ? K<V, D, S, false, true>::run : K<V, D, S, false, false>::run)(dst, dst_row, src, src_row, rows, n,
                                                                                scale, shift, nt);
  }
}

// uint8 pixels of 3 channels -> 3 float32 planes, 16 pixels a step.
template <class V>
void u8_planes(char* dst, int64_t plane_bytes, const uint8_t* src, int64_t n, const float* scale, const float* shift,
               bool nt) {
  float* planes[3] = {reinterpret_cast<float*>(dst), reinterpret_cast<float*>(dst + plane_bytes),
                      reinterpret_cast<float*>(dst + 2 * plane_bytes)};
  int64_t i = 0;
  if constexpr (V::kConvert) {
    using Vec = typename V::Vec;
    constexpr int64_t kLanes = V::kBytes / 4;
    const bool stream = nt && reinterpret_cast<uintptr_t>(dst) % V::kBytes == 0 && plane_bytes % V::kBytes == 0;
    const Vec a[3] = {V::splat_f32(scale[0]), V::splat_f32(scale[1]), V::splat_f32(scale[2])};
    const Vec b[3] = {V::splat_f32(shift[0]), V::splat_f32(shift[1]), V::splat_f32(shift[2])};
    for (; i + 16 <= n; i += 16) {
      typename V::Bytes16 channels[3];
      V::channels16(src + 3 * i, channels);
      for (int c = 0; c < 3; ++c) {
        for (int k = 0; k < 16 / kLanes; ++k) {
          const Vec y = V::f32_fma(V::i32_to_f32(V::widen_u8(V::quarter_of16(channels[c], k))), a[c], b[c]);
          put<V>(reinterpret_cast<char*>(planes[c] + i + k * kLanes), y, stream);
        }
      }
    }
  }
  for (; i < n; ++i)
    for (int c = 0; c < 3; ++c) planes[c][i] = scaled_convert<float>(src[3 * i + c], scale[c], shift[c], false);
}

template <class V>
constexpr ScaledRowsTable kScaledRows = {
    V::kName,
    rows_kernel<V, float, uint8_t, Widen>,
    rows_kernel<V, float, int8_t, Widen>,
    rows_kernel<V, int8_t, float, Narrow>,
    rows_kernel<V, uint8_t, float, Narrow>,
    rows_kernel<V, Float8_e4m3fn, float, Narrow>,
    u8_planes<V>,
};

}  // namespace
}  // namespace cpu
}  // namespace st
