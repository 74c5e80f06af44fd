// Same-dtype copy pieces with AVX2. Built with the flags for that level
// (src/CMakeLists.txt); called only when cpu_isa() is Avx2 or higher.
// Everything stays in an unnamed namespace (see copy_kernels_avx512.cpp).
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

#include <cstring>

namespace st {
namespace cpu {
namespace {

inline __m256i load(const char* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }

template <bool NT>
inline void store(char* p, __m256i v) {
  if (NT) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v);
  } else {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
  }
}

template <int E>
inline void move_one(char* dst, const char* src) {
  unsigned char v[E];
  std::memcpy(v, src, E);
  std::memcpy(dst, v, E);
}

// ---------------------------------------------------------------------------
// Contiguous bytes.

void stream_body(char* dst, const char* src, int64_t n) {
  if (n < 256) {
    std::memcpy(dst, src, static_cast<size_t>(n));
    return;
  }
  const int64_t head = (64 - static_cast<int64_t>(reinterpret_cast<uintptr_t>(dst) & 63)) & 63;
  std::memcpy(dst, src, static_cast<size_t>(head));
  dst += head;
  src += head;
  n -= head;
  int64_t i = 0;
  for (; i + 128 <= n; i += 128) {
    const __m256i a = load(src + i), b = load(src + i + 32), c = load(src + i + 64), d = load(src + i + 96);
    store<true>(dst + i, a);
    store<true>(dst + i + 32, b);
    store<true>(dst + i + 64, c);
    store<true>(dst + i + 96, d);
  }
  for (; i + 32 <= n; i += 32) store<true>(dst + i, load(src + i));
  std::memcpy(dst + i, src + i, static_cast<size_t>(n - i));
}

void stream_copy(char* dst, const char* src, int64_t n) {
  stream_body(dst, src, n);
  _mm_sfence();
}

void copy_rows(const Rows2d& r) {
  const int64_t bytes = r.n * r.itemsize;
  if (r.nt && bytes >= 256) {
    for (int64_t k = 0; k < r.m; ++k) stream_body(r.dst + k * r.dst_outer, r.src + k * r.src_outer, bytes);
    _mm_sfence();
    return;
  }
  for (int64_t k = 0; k < r.m; ++k) std::memcpy(r.dst + k * r.dst_outer, r.src + k * r.src_outer, static_cast<size_t>(bytes));
}

// ---------------------------------------------------------------------------
// Rows filled with one value: one 32-byte pattern, elements one by one at
// the unaligned ends.

void fill_row(char* dst, int64_t n, const char* value, int64_t itemsize, bool nt) {
  alignas(32) unsigned char pattern[32];
  for (int64_t o = 0; o < 32; o += itemsize) std::memcpy(pattern + o, value, static_cast<size_t>(itemsize));
  const __m256i v = _mm256_load_si256(reinterpret_cast<const __m256i*>(pattern));
  const int64_t per = 32 / itemsize;
  int64_t i = 0;
  if (nt && (reinterpret_cast<uintptr_t>(dst) % itemsize) == 0) {
    while (i < n && (reinterpret_cast<uintptr_t>(dst + i * itemsize) & 31) != 0) {
      std::memcpy(dst + i * itemsize, value, static_cast<size_t>(itemsize));
      ++i;
    }
    for (; i + per <= n; i += per) store<true>(dst + i * itemsize, v);
  } else {
    for (; i + per <= n; i += per) store<false>(dst + i * itemsize, v);
  }
  for (; i < n; ++i) std::memcpy(dst + i * itemsize, value, static_cast<size_t>(itemsize));
}

void fill_rows(const Rows2d& r) {
  for (int64_t k = 0; k < r.m; ++k) fill_row(r.dst + k * r.dst_outer, r.n, r.src + k * r.src_outer, r.itemsize, r.nt);
  if (r.nt) _mm_sfence();
}

// ---------------------------------------------------------------------------
// Strided sources into contiguous rows.

template <int E>
inline __m256i reverse(__m256i v) {
  if (E == 4) return _mm256_permutevar8x32_epi32(v, _mm256_set_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  if (E == 8) return _mm256_permute4x64_epi64(v, 0x1B);
  if (E == 16) return _mm256_permute2x128_si256(v, v, 0x01);
  const __m128i lane = E == 2 ? _mm_set_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)
                              : _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m256i in_lane = _mm256_shuffle_epi8(v, _mm256_broadcastsi128_si256(lane));
  return _mm256_permute2x128_si256(in_lane, in_lane, 0x01);
}

template <int E>
inline __m256i every_second(const char* p) {
  const __m256i a = load(p), b = load(p + 32);
  if (E == 4) {
    const __m256i idx = _mm256_set_epi32(6, 4, 2, 0, 6, 4, 2, 0);
    return _mm256_blend_epi32(_mm256_permutevar8x32_epi32(a, idx), _mm256_permutevar8x32_epi32(b, idx), 0xF0);
  }
  if (E == 8) {
    return _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(a, b), 0xD8);
  }
  if (E == 16) return _mm256_permute2x128_si256(a, b, 0x20);
  // 1 and 2 bytes: keep the even elements of each pair, pack the halves.
  if (E == 2) {
    const __m256i lo = _mm256_blend_epi16(a, _mm256_setzero_si256(), 0xAA);
    const __m256i hi = _mm256_blend_epi16(b, _mm256_setzero_si256(), 0xAA);
    return _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi), 0xD8);
  }
  const __m256i lo = _mm256_and_si256(a, _mm256_set1_epi16(0xFF)), hi = _mm256_and_si256(b, _mm256_set1_epi16(0xFF));
  return _mm256_permute4x64_epi64(_mm256_packus_epi16(lo, hi), 0xD8);
}

template <int E, typename Make, typename Move>
inline void write_row(char* dst, int64_t n, bool nt, Make make, Move move) {
  constexpr int64_t kPer = 32 / E;
  int64_t i = 0;
  if (nt) {
    while (i < n && (reinterpret_cast<uintptr_t>(dst + i * E) & 31) != 0) move(i++);
    for (; i + kPer <= n; i += kPer) store<true>(dst + i * E, make(i));
  } else {
    for (; i + kPer <= n; i += kPer) store<false>(dst + i * E, make(i));
  }
  for (; i < n; ++i) move(i);
}

template <int E>
void gather_rows_e(const Rows2d& r) {
  constexpr int64_t kPer = 32 / E;
  const int64_t ss = r.src_inner;
  const bool nt = r.nt && (reinterpret_cast<uintptr_t>(r.dst) % E) == 0 && r.dst_outer % E == 0;
  for (int64_t k = 0; k < r.m; ++k) {
    char* d = r.dst + k * r.dst_outer;
    const char* s = r.src + k * r.src_outer;
    auto move = [&](int64_t i) { move_one<E>(d + i * E, s + i * ss); };
    if (ss == -E) {
      write_row<E>(d, r.n, nt, [&](int64_t i) { return reverse<E>(load(s - (i + kPer - 1) * E)); }, move);
    } else if (ss == 2 * E) {
      write_row<E>(d, r.n, nt, [&](int64_t i) { return every_second<E>(s + i * 2 * E); }, move);
    } else {
      for (int64_t i = 0; i < r.n; ++i) move(i);
    }
  }
  if (nt) _mm_sfence();
}

// ---------------------------------------------------------------------------
// Transposes: 8x8 dword tiles in registers; 2- and 1-byte elements are first
// paired into dwords along the dst-contiguous dim, 8-byte ones use 4x4
// qword tiles. Partial tiles at the edges go element by element. The
// blocking is transpose_blocked.h's.

inline void transpose8x8_epi32(__m256i r[8]) {
  __m256i t[8], u[8];
#pragma GCC unroll 4
  for (int k = 0; k < 4; ++k) {
    t[2 * k] = _mm256_unpacklo_epi32(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm256_unpackhi_epi32(r[2 * k], r[2 * k + 1]);
  }
  // u[4g+e], lane L: column 4L+e of rows 4g..4g+3.
#pragma GCC unroll 2
  for (int g = 0; g < 2; ++g) {
    u[4 * g + 0] = _mm256_unpacklo_epi64(t[4 * g], t[4 * g + 2]);
    u[4 * g + 1] = _mm256_unpackhi_epi64(t[4 * g], t[4 * g + 2]);
    u[4 * g + 2] = _mm256_unpacklo_epi64(t[4 * g + 1], t[4 * g + 3]);
    u[4 * g + 3] = _mm256_unpackhi_epi64(t[4 * g + 1], t[4 * g + 3]);
  }
#pragma GCC unroll 4
  for (int e = 0; e < 4; ++e) {
    r[e] = _mm256_permute2x128_si256(u[e], u[4 + e], 0x20);
    r[4 + e] = _mm256_permute2x128_si256(u[e], u[4 + e], 0x31);
  }
}

inline void transpose4x4_epi64(__m256i r[4]) {
  const __m256i t0 = _mm256_unpacklo_epi64(r[0], r[1]), t1 = _mm256_unpackhi_epi64(r[0], r[1]);
  const __m256i t2 = _mm256_unpacklo_epi64(r[2], r[3]), t3 = _mm256_unpackhi_epi64(r[2], r[3]);
  r[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
  r[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
  r[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
  r[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
}

template <int E>
inline void tile_scalar(const char* src, int64_t srow, char* dst, int64_t dcol, int64_t ri, int64_t cj) {
  for (int64_t c = 0; c < cj; ++c) {
    for (int64_t i = 0; i < ri; ++i) move_one<E>(dst + c * dcol + i * E, src + i * srow + c * E);
  }
}

// A full tile: Ti rows by Tj columns, each dst row one 32-byte store.
template <int E>
struct Tile;

template <>
struct Tile<4> {
  static constexpr int64_t E = 4, Ti = 8, Tj = 8;
  template <bool Full, bool NT>
  static inline void run(const char* src, int64_t srow, char* dst, int64_t dcol, int64_t ri, int64_t cj) {
    if (!Full) return tile_scalar<E>(src, srow, dst, dcol, ri, cj);
    __m256i r[8];
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) r[k] = load(src + k * srow);
    transpose8x8_epi32(r);
#pragma GCC unroll 8
    for (int c = 0; c < 8; ++c) store<NT>(dst + c * dcol, r[c]);
  }
};

template <>
struct Tile<8> {
  static constexpr int64_t E = 8, Ti = 4, Tj = 4;
  template <bool Full, bool NT>
  static inline void run(const char* src, int64_t srow, char* dst, int64_t dcol, int64_t ri, int64_t cj) {
    if (!Full) return tile_scalar<E>(src, srow, dst, dcol, ri, cj);
    __m256i r[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; ++k) r[k] = load(src + k * srow);
    transpose4x4_epi64(r);
#pragma GCC unroll 4
    for (int c = 0; c < 4; ++c) store<NT>(dst + c * dcol, r[c]);
  }
};

template <>
struct Tile<16> {
  static constexpr int64_t E = 16, Ti = 2, Tj = 2;
  template <bool Full, bool NT>
  static inline void run(const char* src, int64_t srow, char* dst, int64_t dcol, int64_t ri, int64_t cj) {
    if (!Full) return tile_scalar<E>(src, srow, dst, dcol, ri, cj);
    const __m256i a = load(src), b = load(src + srow);
    store<NT>(dst, _mm256_permute2x128_si256(a, b, 0x20));
    store<NT>(dst + dcol, _mm256_permute2x128_si256(a, b, 0x31));
  }
};

template <>
struct Tile<2> {
  static constexpr int64_t E = 2, Ti = 16, Tj = 8;
  template <bool Full, bool NT>
  static inline void run(const char* src, int64_t srow, char* dst, int64_t dcol, int64_t ri, int64_t cj) {
    if (!Full) return tile_scalar<E>(src, srow, dst, dcol, ri, cj);
    __m256i r[8];
#pragma GCC unroll 8
    for (int q = 0; q < 8; ++q) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + (2 * q) * srow));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + (2 * q + 1) * srow));
      r[q] = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpacklo_epi16(a, b)), _mm_unpackhi_epi16(a, b), 1);
    }
    transpose8x8_epi32(r);
#pragma GCC unroll 8
    for (int c = 0; c < 8; ++c) store<NT>(dst + c * dcol, r[c]);
  }
};

template <>
struct Tile<1> {
  static constexpr int64_t E = 1, Ti = 32, Tj = 8;
  template <bool Full, bool NT>
  static inline void run(const char* src, int64_t srow, char* dst, int64_t dcol, int64_t ri, int64_t cj) {
    if (!Full) return tile_scalar<E>(src, srow, dst, dcol, ri, cj);
    __m256i r[8];
#pragma GCC unroll 8
    for (int q = 0; q < 8; ++q) {
      __m128i x[4];
#pragma GCC unroll 4
      for (int s = 0; s < 4; ++s) x[s] = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(src + (4 * q + s) * srow));
      const __m128i ab = _mm_unpacklo_epi8(x[0], x[1]), cd = _mm_unpacklo_epi8(x[2], x[3]);
      r[q] = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpacklo_epi16(ab, cd)), _mm_unpackhi_epi16(ab, cd), 1);
    }
    transpose8x8_epi32(r);
#pragma GCC unroll 8
    for (int c = 0; c < 8; ++c) store<NT>(dst + c * dcol, r[c]);
  }
};

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
  switch (t.itemsize) {
    case 1: transpose_blocked<Tile<1>>(t); break;
    case 2: transpose_blocked<Tile<2>>(t); break;
    case 4: transpose_blocked<Tile<4>>(t); break;
    case 8: transpose_blocked<Tile<8>>(t); break;
    default: transpose_blocked<Tile<16>>(t); break;
  }
  if (t.nt) _mm_sfence();
}

const CopyKernelTable kTable = {"avx2", stream_copy, copy_rows, fill_rows, gather_rows, transpose};

}  // namespace

const CopyKernelTable& avx2_copy_kernels() { return kTable; }

}  // namespace cpu
}  // namespace st

#else  // not x86-64: never selected (cpu_isa() is Scalar there)

namespace st {
namespace cpu {
const CopyKernelTable& avx2_copy_kernels() { return scalar_copy_kernels(); }
}  // namespace cpu
}  // namespace st

#endif
