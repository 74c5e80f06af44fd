// The same-dtype copy pieces of CopyKernelTable, written once over a
// level's vector traits V (vec_base.h lists them) and compiled once per
// level: copy_kernels_<level>.cpp includes its traits and this file and
// hands out kCopyKernels<V>. Everything is in an unnamed namespace, so each
// level's instantiations (and the code built with its flags) stay in its
// own file.
#pragma once

#include <cstring>
#include <type_traits>

#include "core/macros.h"
#include "cpu/levels/copy_kernel_table.h"
#include "cpu/levels/stream_pages.h"
#include "cpu/levels/stream_settings.h"
#include "cpu/levels/transpose_blocked.h"
#include "cpu/vec/vec_lines.h"

namespace st {
namespace cpu {
namespace {

template <int E>
inline void move_one(char* dst, const char* src) {
  unsigned char v[E];
  std::memcpy(v, src, E);
  std::memcpy(dst, v, E);
}

// f(std::integral_constant<int, E>) for the element size (1, 2, 4, 8, 16).
template <typename F>
inline void by_itemsize(int64_t itemsize, F f) {
  switch (itemsize) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 8: return f(std::integral_constant<int, 8>{});
    default: return f(std::integral_constant<int, 16>{});
  }
}

inline int64_t misalignment(const char* p, int64_t align) {
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(p) & static_cast<uintptr_t>(align - 1));
}

// ---------------------------------------------------------------------------
// Contiguous bytes.

// Streaming stores from the first 64-byte line on (whole lines for the
// write combining), in the order stream_tuning() chose; no fence (callers
// fence once).
template <class V>
void stream_body(char* dst, const char* src, int64_t n) {
  constexpr int64_t W = V::kBytes;
  if (!V::kStream || n < 256) {
    std::memcpy(dst, src, static_cast<size_t>(n));
    return;
  }
  const int64_t head = (64 - misalignment(dst, 64)) & 63;
  if (head) {
    V::copy_small(dst, src, head);
    dst += head;
    src += head;
    n -= head;
  }
  const int64_t units = n / (4 * W);
  for_each_unit(units, 4 * W, stream_pages(), [&](int64_t k) {
    const int64_t i = k * 4 * W;
    const auto a = V::load(src + i), b = V::load(src + i + W);
    const auto c = V::load(src + i + 2 * W), d = V::load(src + i + 3 * W);
    V::stream(dst + i, a);
    V::stream(dst + i + W, b);
    V::stream(dst + i + 2 * W, c);
    V::stream(dst + i + 3 * W, d);
  });
  int64_t i = units * 4 * W;
  for (; i + W <= n; i += W) V::stream(dst + i, V::load(src + i));
  if (i < n) V::copy_small(dst + i, src + i, n - i);
}

template <class V>
void stream_copy(char* dst, const char* src, int64_t n) {
  stream_body<V>(dst, src, n);
  V::fence();
}

template <class V>
void copy_rows(const Rows2d& r) {
  const int64_t bytes = r.n * r.itemsize;
  if (bytes <= V::kBytes) {
    for (int64_t k = 0; k < r.m; ++k) V::copy_small(r.dst + k * r.dst_outer, r.src + k * r.src_outer, bytes);
    return;
  }
  if (V::kStream && r.nt && bytes >= 256) {
    for (int64_t k = 0; k < r.m; ++k) stream_body<V>(r.dst + k * r.dst_outer, r.src + k * r.src_outer, bytes);
    V::fence();
    return;
  }
  for (int64_t k = 0; k < r.m; ++k) std::memcpy(r.dst + k * r.dst_outer, r.src + k * r.src_outer, static_cast<size_t>(bytes));
}

// ---------------------------------------------------------------------------
// Rows filled with one value.

// Writes `bytes` bytes of the pattern v (whose period divides the vector)
// at dst, streaming from the first aligned vector on when nt.
template <class V>
ST_FORCE_INLINE void fill_bytes(char* dst, int64_t bytes, typename V::Vec v, bool nt) {
  constexpr int64_t W = V::kBytes;
  int64_t i = 0;
  if (V::kStream && nt && bytes >= 256) {
    const int64_t head = (W - misalignment(dst, W)) & (W - 1);
    if (head) {
      // The pattern at dst + head starts mid-period unless head is a
      // multiple of it; rotating v by head bytes keeps it in phase.
      V::store_part(dst, v, V::mask(head));
      alignas(64) char twice[2 * W];
      V::store(twice, v);
      V::store(twice + W, v);
      v = V::load(twice + head);
      i = head;
    }
    for (; i + W <= bytes; i += W) V::stream(dst + i, v);
  } else {
    for (; i + W <= bytes; i += W) V::store(dst + i, v);
  }
  if (i < bytes) V::store_part(dst + i, v, V::mask(bytes - i));
}

// The element at p repeated over a vector.
template <class V, int E>
inline typename V::Vec splat(const char* p) {
  if constexpr (E == 16) {
    return V::splat16(p);
  } else {
    uint64_t v = 0;
    std::memcpy(&v, p, E);
    if constexpr (E < 8) v *= ~uint64_t{0} / ((uint64_t{1} << (8 * E)) - 1);  // 0x01..01 in E-byte units
    return V::splat8(v);
  }
}

template <class V>
void fill_rows(const Rows2d& r) {
  if (r.n <= 0) return;  // empty rows have no value to read
  by_itemsize(r.itemsize, [&](auto e) {
    constexpr int E = decltype(e)::value;
    for (int64_t k = 0; k < r.m; ++k) {
      fill_bytes<V>(r.dst + k * r.dst_outer, r.n * E, splat<V, E>(r.src + k * r.src_outer), r.nt);
    }
  });
  if (r.nt) V::fence();
}

// ---------------------------------------------------------------------------
// Strided sources into contiguous rows.

// A contiguous dst row of n elements whose vectors come from make(i) (i:
// the index of the vector's first element); elements before the first
// aligned vector (when streaming) and after the last full one go one by one
// through move(i).
template <class V, int E, typename Make, typename Move>
inline void write_row(char* dst, int64_t n, bool nt, Make make, Move move) {
  constexpr int64_t kPer = V::kBytes / E;
  int64_t i = 0;
  if (nt) {
    while (i < n && misalignment(dst + i * E, V::kBytes) != 0) move(i++);
    for (; i + kPer <= n; i += kPer) V::stream(dst + i * E, make(i));
  } else {
    for (; i + kPer <= n; i += kPer) V::store(dst + i * E, make(i));
  }
  for (; i < n; ++i) move(i);
}

template <class V, int E>
void gather_rows_e(const Rows2d& r) {
  constexpr int64_t kPer = V::kBytes / E;
  const int64_t ss = r.src_inner;
  // Streaming needs element-aligned rows to ever reach an aligned vector.
  const bool nt = V::kStream && r.nt && misalignment(r.dst, E) == 0 && r.dst_outer % E == 0;
  for (int64_t k = 0; k < r.m; ++k) {
    char* d = r.dst + k * r.dst_outer;
    const char* s = r.src + k * r.src_outer;
    auto move = [&](int64_t i) { move_one<E>(d + i * E, s + i * ss); };
    if (ss == -E) {
      auto reversed = [&](int64_t i) { return V::template reverse<E>(V::load(s - (i + kPer - 1) * E)); };
      write_row<V, E>(d, r.n, nt, reversed, move);
      continue;
    }
    if (ss == 2 * E) {
      // A vector's loads end with the element after its last one: the
      // vectors stop one element short, so nothing past the row is read.
      write_row<V, E>(d, r.n - 1, nt, [&](int64_t i) { return V::template every_second<E>(s + i * 2 * E); }, move);
      if (r.n > 0) move(r.n - 1);
      continue;
    }
    if constexpr (V::kGather && (E == 4 || E == 8)) {
      if (V::template can_gather<E>(ss)) {
        const auto index = V::template gather_index<E>(ss);
        write_row<V, E>(d, r.n, nt, [&](int64_t i) { return V::template gather<E>(s + i * ss, index); }, move);
        continue;
      }
    }
    for (int64_t i = 0; i < r.n; ++i) move(i);
  }
  if (nt) V::fence();
}

template <class V>
void gather_rows(const Rows2d& r) {
  by_itemsize(r.itemsize, [&](auto e) { gather_rows_e<V, decltype(e)::value>(r); });
}

// ---------------------------------------------------------------------------
// Transposes: transpose_blocked.h walks the blocks and tiles; a tile is Ti
// rows (contiguous in dst) by Tj columns (contiguous in src).
//
// In registers: Tj vectors of Tj dwords, qwords or 16-byte elements, each
// dst row one vector store; 1- and 2-byte elements are first zipped into
// dwords along i (4 or 2 src rows per register). Partial tiles at the edges
// are masked where the level has masks, and go element by element where it
// has not. The portable level moves every tile element by element (8x8 or
// 16x16, dst rows innermost).
template <class V, int ElemSize>
struct Tile {
  using Vec = typename V::Vec;
  static constexpr int64_t E = ElemSize;
  static constexpr int64_t Tj = V::kRegisterTiles ? V::kBytes / (E < 4 ? 4 : E) : (E >= 8 ? 8 : 16);
  static constexpr int64_t Ti = V::kRegisterTiles && E < 4 ? Tj * (4 / E) : Tj;

  template <bool Full, bool NT>
  static inline void run(const char* src, int64_t srow, char* dst, int64_t dcol, int64_t ri, int64_t cj) {
    if constexpr (V::kRegisterTiles && (Full || V::kMasked)) {
      Vec r[Tj];
      load<Full>(src, srow, r, ri, cj);
      transpose(r);
      if constexpr (Full) {
#pragma GCC unroll 16
        for (int c = 0; c < Tj; ++c) {
          if constexpr (NT) {
            V::stream(dst + c * dcol, r[c]);
          } else {
            V::store(dst + c * dcol, r[c]);
          }
        }
      } else {
        const auto m = V::mask(ri * E);
        for (int c = 0; c < cj; ++c) V::store_part(dst + c * dcol, r[c], m);
      }
    } else {
      const int64_t rows = Full ? Ti : ri, cols = Full ? Tj : cj;
      for (int64_t j = 0; j < cols; ++j) {
        char* d = dst + j * dcol;
        for (int64_t i = 0; i < rows; ++i) move_one<E>(d + i * E, src + i * srow + j * E);
      }
    }
  }

  // Two full tiles, src rows i and i + Ti, streamed: each dst row gets
  // its two pieces one after the other, so that a 64-byte tile row becomes
  // 128 contiguous bytes (Note [Transpose blocking]).
  static inline void run_pair_streamed(const char* src, int64_t srow, char* dst, int64_t dcol) {
    if constexpr (V::kRegisterTiles) {
      Vec a[Tj], b[Tj];
      load<true>(src, srow, a, Ti, Tj);
      transpose(a);
      load<true>(src + Ti * srow, srow, b, Ti, Tj);
      transpose(b);
#pragma GCC unroll 16
      for (int c = 0; c < Tj; ++c) {
        V::stream(dst + c * dcol, a[c]);
        V::stream(dst + c * dcol + Ti * E, b[c]);
      }
    } else {
      run<true, true>(src, srow, dst, dcol, Ti, Tj);
      run<true, true>(src + Ti * srow, srow, dst + Ti * E, dcol, Ti, Tj);
    }
  }

  // Register k gets src row k (zipped rows for E < 4), zero past ri rows.
  template <bool Full>
  static inline void load(const char* src, int64_t srow, Vec* r, int64_t ri, int64_t cj) {
    const auto m = V::mask(Full ? 0 : cj * E);
    auto row = [&](int k) {
      if constexpr (Full) return V::load(src + k * srow);
      else return k < ri ? V::load_part(src + k * srow, m) : V::zero();
    };
    auto half = [&](int k) {
      if constexpr (Full) return V::load_half(src + k * srow);
      else return k < ri ? V::load_half_part(src + k * srow, m) : typename V::Half{};
    };
    auto quarter = [&](int k) {
      if constexpr (Full) return V::load_quarter(src + k * srow);
      else return k < ri ? V::load_quarter_part(src + k * srow, m) : typename V::Quarter{};
    };
#pragma GCC unroll 16
    for (int k = 0; k < Tj; ++k) {
      if constexpr (E >= 4) {
        r[k] = row(k);
      } else if constexpr (E == 2) {
        r[k] = V::zip2_epi16(half(2 * k), half(2 * k + 1));
      } else {
        r[k] = V::zip4_epi8(quarter(4 * k), quarter(4 * k + 1), quarter(4 * k + 2), quarter(4 * k + 3));
      }
    }
  }

  // r[k] (row k) becomes column k.
  static inline void transpose(Vec* r) {
    if constexpr (E <= 4) {
      // 4x4 dwords within the lanes of each 4 registers, then the lanes.
      Vec t[Tj], u[Tj];
#pragma GCC unroll 8
      for (int k = 0; k < Tj / 2; ++k) {
        t[2 * k] = V::unpacklo32(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = V::unpackhi32(r[2 * k], r[2 * k + 1]);
      }
      // u[4g+e], lane L: column 4L+e of rows 4g..4g+3.
#pragma GCC unroll 4
      for (int g = 0; g < Tj / 4; ++g) {
        u[4 * g + 0] = V::unpacklo64(t[4 * g], t[4 * g + 2]);
        u[4 * g + 1] = V::unpackhi64(t[4 * g], t[4 * g + 2]);
        u[4 * g + 2] = V::unpacklo64(t[4 * g + 1], t[4 * g + 3]);
        u[4 * g + 3] = V::unpackhi64(t[4 * g + 1], t[4 * g + 3]);
      }
      lanes<4>(u, r);
    } else if constexpr (E == 8) {
      // 2x2 qwords within the lanes of each 2 registers, then the lanes.
      Vec t[Tj];
#pragma GCC unroll 8
      for (int k = 0; k < Tj / 2; ++k) {
        t[2 * k] = V::unpacklo64(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = V::unpackhi64(r[2 * k], r[2 * k + 1]);
      }
      // t[2g+e], lane L: column 2L+e of rows 2g, 2g+1.
      lanes<2>(t, r);
    } else {
      lanes<1>(r, r);
    }
  }

  // out[S*L + e] = lane L of in[e], in[S + e], in[2S + e], ... (one lane
  // from each): a transpose of the lanes of every S-th register.
  template <int S>
  static inline void lanes(const Vec* in, Vec* out) {
    constexpr int G = static_cast<int>(V::kBytes / 16);
#pragma GCC unroll 4
    for (int e = 0; e < S; ++e) {
      Vec l[G];
#pragma GCC unroll 4
      for (int g = 0; g < G; ++g) l[g] = in[S * g + e];
      V::transpose_lanes(l);
#pragma GCC unroll 4
      for (int g = 0; g < G; ++g) out[S * g + e] = l[g];
    }
  }
};

// Transposes with one tiny dim of 4-byte elements (2 to 4: NHWC with 3
// channels, complex parts), where the level has the small permutes: a few
// two-table permutes per vector instead of a mostly masked tile.

// dst row c (c < cols) gets src elements c, c + cols, c + 2*cols, ... of
// the contiguous src block.
template <class V>
void deinterleave4(const Transpose2d& t) {
  for (int64_t b = 0; b < t.batch; ++b) {
    deinterleave_lines<V, Dwords>(t.dst + b * t.dst_batch, t.dst_col, t.src + b * t.src_batch, t.rows,
                                  static_cast<int>(t.cols), t.nt);
  }
}

// The contiguous dst block takes element j of src row i at j*rows + i.
template <class V>
void interleave4(const Transpose2d& t) {
  constexpr int64_t kPer = V::kBytes / 4;
  const int n = static_cast<int>(t.rows);
  const auto& p = V::interleave_permute(n);
  for (int64_t b = 0; b < t.batch; ++b) {
    const char* src = t.src + b * t.src_batch;
    char* dst = t.dst + b * t.dst_batch;
    const bool nt = t.streamed && misalignment(dst, 64) == 0;
    int64_t j = 0;
    typename V::Vec in[4];
    for (; j + kPer <= t.cols; j += kPer) {
      for (int q = 0; q < 4; ++q) in[q] = q < n ? V::load(src + q * t.src_row + j * 4) : in[0];
      char* d = dst + j * 4 * n;
      for (int k = 0; k < n; ++k) {
        if (nt) {
          V::stream(d + V::kBytes * k, p.apply(k, in));
        } else {
          V::store(d + V::kBytes * k, p.apply(k, in));
        }
      }
    }
    if (j < t.cols) {
      const int64_t left = t.cols - j, flat = left * n;
      const auto m = V::mask(left * 4);
      for (int q = 0; q < 4; ++q) in[q] = q < n ? V::load_part(src + q * t.src_row + j * 4, m) : in[0];
      char* d = dst + j * 4 * n;
      for (int k = 0; k < n; ++k) V::store_part(d + V::kBytes * k, p.apply(k, in), V::mask((flat - kPer * k) * 4));
    }
    if (nt) V::fence();
  }
}

template <class V>
bool tiny_dim_transpose(const Transpose2d& t) {
  if constexpr (V::kSmallPermute) {
    if (t.itemsize == 4 && t.cols >= 2 && t.cols <= 4 && t.src_row == 4 * t.cols) {
      deinterleave4<V>(t);
      return true;
    }
    if (t.itemsize == 4 && t.rows >= 2 && t.rows <= 4 && t.dst_col == 4 * t.rows) {
      interleave4<V>(t);
      return true;
    }
  }
  return false;
}

template <class V>
void transpose(const Transpose2d& t) {
  if (!tiny_dim_transpose<V>(t)) {
    by_itemsize(t.itemsize, [&](auto e) { transpose_blocked<Tile<V, decltype(e)::value>>(t); });
  }
  if (t.nt) V::fence();
}

template <class V>
constexpr CopyKernelTable kCopyKernels = {V::kName, stream_copy<V>, copy_rows<V>, fill_rows<V>, gather_rows<V>,
                                          transpose<V>};

}  // namespace
}  // namespace cpu
}  // namespace st
