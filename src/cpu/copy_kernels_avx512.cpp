// Same-dtype copy pieces with AVX-512 (F, BW, VL, DQ). Built with the flags
// for that level (src/CMakeLists.txt); called only when cpu_isa() says the
// CPU has it. Everything here stays in an unnamed namespace so no inline
// code built with these flags can be picked by the linker for other files.
#include "cpu/copy_kernel_table.h"
#include "cpu/transpose_blocked.h"

#if defined(__x86_64__)

// GCC 12's AVX-512 headers make their "undefined" vectors by initializing
// them from themselves (GCC bug 105593), which -Wuninitialized reports in
// the header; the pragma covers the header's lines only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include "cpu/small_permute_avx512.h"

#include <cstring>

namespace st {
namespace cpu {
namespace {

// The first n lanes (none for n <= 0).
inline __mmask16 mask16(int64_t n) {
  return n >= 16 ? static_cast<__mmask16>(0xFFFF) : n <= 0 ? 0 : static_cast<__mmask16>((1u << n) - 1);
}
inline __mmask64 mask64(int64_t n) { return n >= 64 ? ~__mmask64{0} : n <= 0 ? 0 : static_cast<__mmask64>((1ull << n) - 1); }

inline __m512i load(const char* p) { return _mm512_loadu_si512(p); }

template <bool NT>
inline void store(char* p, __m512i v) {
  if (NT) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
  } else {
    _mm512_storeu_si512(p, v);
  }
}

// ---------------------------------------------------------------------------
// Contiguous bytes.

// The aligned middle with streaming stores; no fence (callers fence once).
void stream_body(char* dst, const char* src, int64_t n) {
  if (n < 256) {
    std::memcpy(dst, src, static_cast<size_t>(n));
    return;
  }
  const int64_t head = (64 - static_cast<int64_t>(reinterpret_cast<uintptr_t>(dst) & 63)) & 63;
  if (head) {
    _mm512_mask_storeu_epi8(dst, mask64(head), _mm512_maskz_loadu_epi8(mask64(head), src));
    dst += head;
    src += head;
    n -= head;
  }
  int64_t i = 0;
  for (; i + 256 <= n; i += 256) {
    const __m512i a = load(src + i), b = load(src + i + 64), c = load(src + i + 128), d = load(src + i + 192);
    store<true>(dst + i, a);
    store<true>(dst + i + 64, b);
    store<true>(dst + i + 128, c);
    store<true>(dst + i + 192, d);
  }
  for (; i + 64 <= n; i += 64) store<true>(dst + i, load(src + i));
  if (i < n) _mm512_mask_storeu_epi8(dst + i, mask64(n - i), _mm512_maskz_loadu_epi8(mask64(n - i), src + i));
}

void stream_copy(char* dst, const char* src, int64_t n) {
  stream_body(dst, src, n);
  _mm_sfence();
}

void copy_rows(const Rows2d& r) {
  const int64_t bytes = r.n * r.itemsize;
  if (bytes <= 64) {
    const __mmask64 m = mask64(bytes);
    for (int64_t k = 0; k < r.m; ++k) {
      _mm512_mask_storeu_epi8(r.dst + k * r.dst_outer, m, _mm512_maskz_loadu_epi8(m, r.src + k * r.src_outer));
    }
    return;
  }
  if (r.nt && bytes >= 256) {
    for (int64_t k = 0; k < r.m; ++k) stream_body(r.dst + k * r.dst_outer, r.src + k * r.src_outer, bytes);
    _mm_sfence();
    return;
  }
  for (int64_t k = 0; k < r.m; ++k) std::memcpy(r.dst + k * r.dst_outer, r.src + k * r.src_outer, static_cast<size_t>(bytes));
}

// ---------------------------------------------------------------------------
// Rows filled with one value.

inline __m512i splat(const char* p, int64_t itemsize) {
  switch (itemsize) {
    case 1: return _mm512_set1_epi8(static_cast<char>(*p));
    case 2: { int16_t v; std::memcpy(&v, p, 2); return _mm512_set1_epi16(v); }
    case 4: { int32_t v; std::memcpy(&v, p, 4); return _mm512_set1_epi32(v); }
    case 8: { long long v; std::memcpy(&v, p, 8); return _mm512_set1_epi64(v); }
    default: return _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
}

// Writes `bytes` bytes of the pattern v (whose period divides 64) at dst,
// streaming the 64-byte aligned middle when nt.
void fill_bytes(char* dst, int64_t bytes, __m512i v, bool nt) {
  int64_t i = 0;
  if (nt && bytes >= 256) {
    const int64_t head = (64 - static_cast<int64_t>(reinterpret_cast<uintptr_t>(dst) & 63)) & 63;
    // The pattern at dst+head starts mid-period unless head is a multiple
    // of it; rotating v by `head` bytes keeps it in phase.
    if (head) {
      _mm512_mask_storeu_epi8(dst, mask64(head), v);
      alignas(64) unsigned char twice[128];
      _mm512_store_si512(twice, v);
      _mm512_store_si512(twice + 64, v);
      const __m512i w = _mm512_loadu_si512(twice + head);
      i = head;
      for (; i + 64 <= bytes; i += 64) store<true>(dst + i, w);
      if (i < bytes) _mm512_mask_storeu_epi8(dst + i, mask64(bytes - i), w);
      return;
    }
    for (; i + 64 <= bytes; i += 64) store<true>(dst + i, v);
  } else {
    for (; i + 64 <= bytes; i += 64) store<false>(dst + i, v);
  }
  if (i < bytes) _mm512_mask_storeu_epi8(dst + i, mask64(bytes - i), v);
}

void fill_rows(const Rows2d& r) {
  const int64_t bytes = r.n * r.itemsize;
  for (int64_t k = 0; k < r.m; ++k) {
    fill_bytes(r.dst + k * r.dst_outer, bytes, splat(r.src + k * r.src_outer, r.itemsize), r.nt);
  }
  if (r.nt) _mm_sfence();
}

// ---------------------------------------------------------------------------
// Strided sources into contiguous rows.

// Reverses the order of the elements of a 64-byte vector.
template <int E>
inline __m512i reverse(__m512i v) {
  if (E == 4) return _mm512_permutexvar_epi32(_mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), v);
  if (E == 8) return _mm512_permutexvar_epi64(_mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7), v);
  if (E == 16) return _mm512_shuffle_i64x2(v, v, 0x1B);
  if (E == 2) {
    const __m512i w = _mm512_permutexvar_epi16(
        _mm512_set_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
                         26, 27, 28, 29, 30, 31),
        v);
    return w;
  }
  // Bytes: reverse within each 128-bit lane, then the lanes.
  const __m512i in_lane = _mm512_shuffle_epi8(
      v, _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
  return _mm512_shuffle_i64x2(in_lane, in_lane, 0x1B);
}

// Every second element of the 128 bytes at p (as src[0], src[2], ...).
template <int E>
inline __m512i every_second(const char* p) {
  const __m512i a = load(p), b = load(p + 64);
  if (E == 4) {
    return _mm512_permutex2var_epi32(a, _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0), b);
  }
  if (E == 8) return _mm512_permutex2var_epi64(a, _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0), b);
  if (E == 16) return _mm512_shuffle_i64x2(a, b, 0x88);
  if (E == 2) {
    return _mm512_permutex2var_epi16(a,
                                     _mm512_set_epi16(62, 60, 58, 56, 54, 52, 50, 48, 46, 44, 42, 40, 38, 36, 34, 32,
                                                      30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0),
                                     b);
  }
  // Bytes: keep the even bytes of each 16-bit pair, then pack the halves.
  const __m512i lo = _mm512_and_si512(a, _mm512_set1_epi16(0xFF)), hi = _mm512_and_si512(b, _mm512_set1_epi16(0xFF));
  const __m512i packed = _mm512_packus_epi16(lo, hi);  // per 128-bit lane: 8 of a, 8 of b
  return _mm512_permutexvar_epi64(_mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0), packed);
}

template <int E>
inline void move_one(char* dst, const char* src) {
  unsigned char v[E];
  std::memcpy(v, src, E);
  std::memcpy(dst, v, E);
}

// A contiguous dst row of n elements whose 64-byte vectors come from
// make(i) (i: the element index of the vector's first element); elements
// before the first aligned vector and after the last full one go one by one
// through move(i).
template <int E, typename Make, typename Move>
inline void write_row(char* dst, int64_t n, bool nt, Make make, Move move) {
  constexpr int64_t kPer = 64 / E;
  int64_t i = 0;
  if (nt) {
    while (i < n && (reinterpret_cast<uintptr_t>(dst + i * E) & 63) != 0) move(i++);
    for (; i + kPer <= n; i += kPer) store<true>(dst + i * E, make(i));
  } else {
    for (; i + kPer <= n; i += kPer) store<false>(dst + i * E, make(i));
  }
  for (; i < n; ++i) move(i);
}

template <int E>
void gather_rows_e(const Rows2d& r) {
  constexpr int64_t kPer = 64 / E;
  const int64_t ss = r.src_inner;
  // Streaming needs element-aligned rows to ever reach a 64-byte boundary.
  const bool nt = r.nt && (reinterpret_cast<uintptr_t>(r.dst) % E) == 0 && r.dst_outer % E == 0;
  for (int64_t k = 0; k < r.m; ++k) {
    char* d = r.dst + k * r.dst_outer;
    const char* s = r.src + k * r.src_outer;
    auto move = [&](int64_t i) { move_one<E>(d + i * E, s + i * ss); };
    if (ss == -E) {
      write_row<E>(d, r.n, nt, [&](int64_t i) { return reverse<E>(load(s - (i + kPer - 1) * E)); }, move);
    } else if (ss == 2 * E) {
      write_row<E>(d, r.n, nt, [&](int64_t i) { return every_second<E>(s + i * 2 * E); }, move);
    } else if (E == 4 && ss % 4 == 0 && ss / 4 < (int64_t{1} << 26) && ss / 4 > -(int64_t{1} << 26)) {
      const __m512i idx = _mm512_mullo_epi32(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                                             _mm512_set1_epi32(static_cast<int>(ss / 4)));
      write_row<E>(d, r.n, nt, [&](int64_t i) { return _mm512_i32gather_epi32(idx, s + i * ss, 4); }, move);
    } else if (E == 8 && ss % 8 == 0) {
      const __m512i idx = _mm512_mullo_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(ss / 8));
      write_row<E>(d, r.n, nt, [&](int64_t i) { return _mm512_i64gather_epi64(idx, s + i * ss, 8); }, move);
    } else {
      for (int64_t i = 0; i < r.n; ++i) move(i);
    }
  }
  if (nt) _mm_sfence();
}

// ---------------------------------------------------------------------------
// Transposes. A tile is Ti rows (dst-contiguous, one 64-byte dst line per
// tile row) by Tj columns (src-contiguous); rows and columns past ri / cj
// are masked off at the edges.

// 16x16 dwords in registers: r[c] becomes column c.
inline void transpose16x16_epi32(__m512i r[16]) {
  __m512i t[16];
#pragma GCC unroll 8
  for (int k = 0; k < 8; ++k) {
    t[2 * k] = _mm512_unpacklo_epi32(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm512_unpackhi_epi32(r[2 * k], r[2 * k + 1]);
  }
  // u[4g+e], lane L: column 4L+e of rows 4g..4g+3.
  __m512i u[16];
#pragma GCC unroll 4
  for (int g = 0; g < 4; ++g) {
    u[4 * g + 0] = _mm512_unpacklo_epi64(t[4 * g], t[4 * g + 2]);
    u[4 * g + 1] = _mm512_unpackhi_epi64(t[4 * g], t[4 * g + 2]);
    u[4 * g + 2] = _mm512_unpacklo_epi64(t[4 * g + 1], t[4 * g + 3]);
    u[4 * g + 3] = _mm512_unpackhi_epi64(t[4 * g + 1], t[4 * g + 3]);
  }
  // Column 4L+e, lane g = u[4g+e] lane L: a 4x4 transpose of lanes.
#pragma GCC unroll 4
  for (int e = 0; e < 4; ++e) {
    const __m512i v0 = _mm512_shuffle_i32x4(u[e], u[4 + e], 0x44);
    const __m512i v1 = _mm512_shuffle_i32x4(u[e], u[4 + e], 0xEE);
    const __m512i v2 = _mm512_shuffle_i32x4(u[8 + e], u[12 + e], 0x44);
    const __m512i v3 = _mm512_shuffle_i32x4(u[8 + e], u[12 + e], 0xEE);
    r[e] = _mm512_shuffle_i32x4(v0, v2, 0x88);
    r[4 + e] = _mm512_shuffle_i32x4(v0, v2, 0xDD);
    r[8 + e] = _mm512_shuffle_i32x4(v1, v3, 0x88);
    r[12 + e] = _mm512_shuffle_i32x4(v1, v3, 0xDD);
  }
}

// 8x8 qwords in registers: r[c] becomes column c.
inline void transpose8x8_epi64(__m512i r[8]) {
  __m512i t[8];
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    t[2 * k] = _mm512_unpacklo_epi64(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm512_unpackhi_epi64(r[2 * k], r[2 * k + 1]);
  }
  // t[2g+e], lane L: column 2L+e of rows 2g, 2g+1.
#pragma GCC unroll 2
  for (int e = 0; e < 2; ++e) {
    const __m512i v0 = _mm512_shuffle_i64x2(t[e], t[2 + e], 0x44);
    const __m512i v1 = _mm512_shuffle_i64x2(t[e], t[2 + e], 0xEE);
    const __m512i v2 = _mm512_shuffle_i64x2(t[4 + e], t[6 + e], 0x44);
    const __m512i v3 = _mm512_shuffle_i64x2(t[4 + e], t[6 + e], 0xEE);
    r[e] = _mm512_shuffle_i64x2(v0, v2, 0x88);
    r[2 + e] = _mm512_shuffle_i64x2(v0, v2, 0xDD);
    r[4 + e] = _mm512_shuffle_i64x2(v1, v3, 0x88);
    r[6 + e] = _mm512_shuffle_i64x2(v1, v3, 0xDD);
  }
}

// 4x4 of 16-byte elements: r[c] becomes column c.
inline void transpose4x4_epi128(__m512i r[4]) {
  const __m512i v0 = _mm512_shuffle_i64x2(r[0], r[1], 0x44);
  const __m512i v1 = _mm512_shuffle_i64x2(r[0], r[1], 0xEE);
  const __m512i v2 = _mm512_shuffle_i64x2(r[2], r[3], 0x44);
  const __m512i v3 = _mm512_shuffle_i64x2(r[2], r[3], 0xEE);
  r[0] = _mm512_shuffle_i64x2(v0, v2, 0x88);
  r[1] = _mm512_shuffle_i64x2(v0, v2, 0xDD);
  r[2] = _mm512_shuffle_i64x2(v1, v3, 0x88);
  r[3] = _mm512_shuffle_i64x2(v1, v3, 0xDD);
}

// Stores the Tj dst rows of a tile: full, or the first cj rows masked to ri
// elements.
template <int E, bool Full, bool NT, int Tj>
inline void store_tile(char* dst, int64_t dcol, const __m512i* out, int64_t ri, int64_t cj) {
  if (Full) {
#pragma GCC unroll 16
    for (int c = 0; c < Tj; ++c) store<NT>(dst + c * dcol, out[c]);
    return;
  }
  const __mmask64 m = mask64(ri * E);
  for (int c = 0; c < cj; ++c) _mm512_mask_storeu_epi8(dst + c * dcol, m, out[c]);
}

template <int E>
struct Tile;

template <>
struct Tile<4> {
  static constexpr int64_t E = 4, Ti = 16, Tj = 16;
  template <bool Full, bool NT>
  static inline void run(const char* src, int64_t srow, char* dst, int64_t dcol, int64_t ri, int64_t cj) {
    __m512i r[16];
    if (Full) {
#pragma GCC unroll 16
      for (int k = 0; k < 16; ++k) r[k] = load(src + k * srow);
    } else {
      const __mmask16 m = mask16(cj);
#pragma GCC unroll 16
      for (int k = 0; k < 16; ++k) r[k] = k < ri ? _mm512_maskz_loadu_epi32(m, src + k * srow) : _mm512_setzero_si512();
    }
    transpose16x16_epi32(r);
    store_tile<4, Full, NT, 16>(dst, dcol, r, ri, cj);
  }
};

template <>
struct Tile<8> {
  static constexpr int64_t E = 8, Ti = 8, Tj = 8;
  template <bool Full, bool NT>
  static inline void run(const char* src, int64_t srow, char* dst, int64_t dcol, int64_t ri, int64_t cj) {
    __m512i r[8];
    if (Full) {
#pragma GCC unroll 8
      for (int k = 0; k < 8; ++k) r[k] = load(src + k * srow);
    } else {
      const __mmask8 m = static_cast<__mmask8>(mask16(cj));
#pragma GCC unroll 8
      for (int k = 0; k < 8; ++k) r[k] = k < ri ? _mm512_maskz_loadu_epi64(m, src + k * srow) : _mm512_setzero_si512();
    }
    transpose8x8_epi64(r);
    store_tile<8, Full, NT, 8>(dst, dcol, r, ri, cj);
  }
};

template <>
struct Tile<16> {
  static constexpr int64_t E = 16, Ti = 4, Tj = 4;
  template <bool Full, bool NT>
  static inline void run(const char* src, int64_t srow, char* dst, int64_t dcol, int64_t ri, int64_t cj) {
    __m512i r[4];
    const __mmask8 m = static_cast<__mmask8>(mask16(2 * cj));
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) {
      r[k] = Full ? load(src + k * srow) : (k < ri ? _mm512_maskz_loadu_epi64(m, src + k * srow) : _mm512_setzero_si512());
    }
    transpose4x4_epi128(r);
    store_tile<16, Full, NT, 4>(dst, dcol, r, ri, cj);
  }
};

// 2-byte elements: rows 2q and 2q+1 interleaved into one row of dwords
// (element pairs that are neighbours in dst), then a 16x16 dword transpose.
template <>
struct Tile<2> {
  static constexpr int64_t E = 2, Ti = 32, Tj = 16;
  template <bool Full, bool NT>
  static inline void run(const char* src, int64_t srow, char* dst, int64_t dcol, int64_t ri, int64_t cj) {
    const __m512i idx = _mm512_set_epi16(47, 15, 46, 14, 45, 13, 44, 12, 43, 11, 42, 10, 41, 9, 40, 8, 39, 7, 38, 6,
                                         37, 5, 36, 4, 35, 3, 34, 2, 33, 1, 32, 0);
    const __mmask16 m = mask16(cj);
    __m512i r[16];
#pragma GCC unroll 16
    for (int q = 0; q < 16; ++q) {
      __m256i a, b;
      if (Full) {
        a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + (2 * q) * srow));
        b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + (2 * q + 1) * srow));
      } else {
        a = 2 * q < ri ? _mm256_maskz_loadu_epi16(m, src + (2 * q) * srow) : _mm256_setzero_si256();
        b = 2 * q + 1 < ri ? _mm256_maskz_loadu_epi16(m, src + (2 * q + 1) * srow) : _mm256_setzero_si256();
      }
      r[q] = _mm512_permutex2var_epi16(_mm512_castsi256_si512(a), idx, _mm512_castsi256_si512(b));
    }
    transpose16x16_epi32(r);
    store_tile<2, Full, NT, 16>(dst, dcol, r, ri, cj);
  }
};

// Bytes: rows 4q..4q+3 interleaved into one row of dwords, then a 16x16
// dword transpose.
template <>
struct Tile<1> {
  static constexpr int64_t E = 1, Ti = 64, Tj = 16;
  template <bool Full, bool NT>
  static inline void run(const char* src, int64_t srow, char* dst, int64_t dcol, int64_t ri, int64_t cj) {
    const __mmask16 m = mask16(cj);
    __m512i r[16];
#pragma GCC unroll 16
    for (int q = 0; q < 16; ++q) {
      __m128i x[4];
#pragma GCC unroll 4
      for (int s = 0; s < 4; ++s) {
        const char* p = src + (4 * q + s) * srow;
        if (Full) {
          x[s] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        } else {
          x[s] = 4 * q + s < ri ? _mm_maskz_loadu_epi8(m, p) : _mm_setzero_si128();
        }
      }
      const __m128i ab_lo = _mm_unpacklo_epi8(x[0], x[1]), ab_hi = _mm_unpackhi_epi8(x[0], x[1]);
      const __m128i cd_lo = _mm_unpacklo_epi8(x[2], x[3]), cd_hi = _mm_unpackhi_epi8(x[2], x[3]);
      const __m256i lo = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpacklo_epi16(ab_lo, cd_lo)),
                                                 _mm_unpackhi_epi16(ab_lo, cd_lo), 1);
      const __m256i hi = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpacklo_epi16(ab_hi, cd_hi)),
                                                 _mm_unpackhi_epi16(ab_hi, cd_hi), 1);
      r[q] = _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
    }
    transpose16x16_epi32(r);
    store_tile<1, Full, NT, 16>(dst, dcol, r, ri, cj);
  }
};

// ---------------------------------------------------------------------------
// Transposes with one tiny dim of 4-byte elements (2 to 4: NHWC with 3
// channels, complex parts), when the tiny side is contiguous: a few
// two-table permutes per 16 elements instead of a masked 16x16 tile.

// dst row c (c < cols <= 4) gets src elements c, c + cols, c + 2*cols, ...
// of the contiguous src block.
void deinterleave4(const Transpose2d& t) {
  const int n = static_cast<int>(t.cols);
  const SmallPermute& p = deinterleave_permute(n);
  for (int64_t b = 0; b < t.batch; ++b) {
    const char* src = t.src + b * t.src_batch;
    char* dst = t.dst + b * t.dst_batch;
    int64_t i = 0;
    __m512i in[4];
    for (; i + 16 <= t.rows; i += 16) {
      const char* s = src + i * 4 * n;
      for (int q = 0; q < 4; ++q) in[q] = q < n ? load(s + 64 * q) : in[0];
      for (int c = 0; c < n; ++c) {
        const __m512i v = p.apply(c, in);
        if (t.nt) {
          store<true>(dst + c * t.dst_col + i * 4, v);
        } else {
          store<false>(dst + c * t.dst_col + i * 4, v);
        }
      }
    }
    if (i < t.rows) {
      const int64_t left = t.rows - i, flat = left * n;
      const char* s = src + i * 4 * n;
      for (int q = 0; q < 4; ++q) in[q] = q < n ? _mm512_maskz_loadu_epi32(mask16(flat - 16 * q), s + 64 * q) : in[0];
      for (int c = 0; c < n; ++c) _mm512_mask_storeu_epi32(dst + c * t.dst_col + i * 4, mask16(left), p.apply(c, in));
    }
  }
}

// The contiguous dst block takes element j of src row i at j*rows + i.
void interleave4(const Transpose2d& t) {
  const int n = static_cast<int>(t.rows);
  const SmallPermute& p = interleave_permute(n);
  for (int64_t b = 0; b < t.batch; ++b) {
    const char* src = t.src + b * t.src_batch;
    char* dst = t.dst + b * t.dst_batch;
    const bool nt = t.prefetch && (reinterpret_cast<uintptr_t>(dst) & 63) == 0;
    int64_t j = 0;
    __m512i in[4];
    for (; j + 16 <= t.cols; j += 16) {
      for (int q = 0; q < 4; ++q) in[q] = q < n ? load(src + q * t.src_row + j * 4) : in[0];
      char* d = dst + j * 4 * n;
      for (int k = 0; k < n; ++k) {
        if (nt) {
          store<true>(d + 64 * k, p.apply(k, in));
        } else {
          store<false>(d + 64 * k, p.apply(k, in));
        }
      }
    }
    if (j < t.cols) {
      const int64_t left = t.cols - j, flat = left * n;
      for (int q = 0; q < 4; ++q) {
        in[q] = q < n ? _mm512_maskz_loadu_epi32(mask16(left), src + q * t.src_row + j * 4) : in[0];
      }
      char* d = dst + j * 4 * n;
      for (int k = 0; k < n; ++k) _mm512_mask_storeu_epi32(d + 64 * k, mask16(flat - 16 * k), p.apply(k, in));
    }
    if (nt) _mm_sfence();
  }
}

void gather_rows(const Rows2d& r) {
  switch (r.itemsize) {
    case 1: return gather_rows_e<1>(r);
    case 2: return gather_rows_e<2>(r);
    case 4: return gather_rows_e<4>(r);
    case 8: return gather_rows_e<8>(r);
    default: return gather_rows_e<16>(r);
  }
}

void transpose(const Transpose2d& t) {
  if (t.itemsize == 4 && t.cols <= 4 && t.src_row == 4 * t.cols) return deinterleave4(t);
  if (t.itemsize == 4 && t.rows <= 4 && t.dst_col == 4 * t.rows) return interleave4(t);
  switch (t.itemsize) {
    case 1: transpose_blocked<Tile<1>>(t); break;
    case 2: transpose_blocked<Tile<2>>(t); break;
    case 4: transpose_blocked<Tile<4>>(t); break;
    case 8: transpose_blocked<Tile<8>>(t); break;
    default: transpose_blocked<Tile<16>>(t); break;
  }
  if (t.nt) _mm_sfence();
}

const CopyKernelTable kTable = {"avx512", stream_copy, copy_rows, fill_rows, gather_rows, transpose};

}  // namespace

const CopyKernelTable& avx512_copy_kernels() { return kTable; }

}  // namespace cpu
}  // namespace st

#else  // not x86-64: never selected (cpu_isa() is Scalar there)

namespace st {
namespace cpu {
const CopyKernelTable& avx512_copy_kernels() { return scalar_copy_kernels(); }
}  // namespace cpu
}  // namespace st

#endif
