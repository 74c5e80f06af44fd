// Portable same-dtype copy pieces: the fallback on every machine, and the
// reference level the tests force to check the vector ones against.
#include <cstring>

#include "cpu/copy_kernel_table.h"
#include "cpu/transpose_blocked.h"

namespace st {
namespace cpu {
namespace {

// An element of E bytes, moved with one fixed-size memcpy (one load and one
// store after optimization, with no alignment or aliasing assumptions).
template <int E>
struct Bytes {
  unsigned char b[E];
};

template <int E>
inline void move_one(char* dst, const char* src) {
  Bytes<E> v;
  std::memcpy(&v, src, E);
  std::memcpy(dst, &v, E);
}

void stream_copy(char* dst, const char* src, int64_t nbytes) { std::memcpy(dst, src, static_cast<size_t>(nbytes)); }

void copy_rows(const Rows2d& r) {
  const size_t row_bytes = static_cast<size_t>(r.n * r.itemsize);
  for (int64_t k = 0; k < r.m; ++k) std::memcpy(r.dst + k * r.dst_outer, r.src + k * r.src_outer, row_bytes);
}

template <int E>
void fill_rows_e(const Rows2d& r) {
  for (int64_t k = 0; k < r.m; ++k) {
    Bytes<E> v;
    std::memcpy(&v, r.src + k * r.src_outer, E);
    char* d = r.dst + k * r.dst_outer;
    for (int64_t i = 0; i < r.n; ++i) std::memcpy(d + i * E, &v, E);
  }
}

template <int E>
void gather_rows_e(const Rows2d& r) {
  for (int64_t k = 0; k < r.m; ++k) {
    char* d = r.dst + k * r.dst_outer;
    const char* s = r.src + k * r.src_outer;
    for (int64_t i = 0; i < r.n; ++i) move_one<E>(d + i * E, s + i * r.src_inner);
  }
}

// An 8x8 or 16x16 tile element by element, dst rows innermost.
template <int ElemSize>
struct Tile {
  static constexpr int64_t E = ElemSize, Ti = E >= 8 ? 8 : 16, Tj = Ti;
  template <bool Full, bool NT>
  static inline void run(const char* src, int64_t srow, char* dst, int64_t dcol, int64_t ri, int64_t cj) {
    const int64_t rows = Full ? Ti : ri, cols = Full ? Tj : cj;
    for (int64_t j = 0; j < cols; ++j) {
      char* d = dst + j * dcol;
      for (int64_t i = 0; i < rows; ++i) move_one<E>(d + i * E, src + i * srow + j * E);
    }
  }
};

template <template <int> class F, typename Args>
void by_itemsize(const Args& a) {
  switch (a.itemsize) {
    case 1: return F<1>::run(a);
    case 2: return F<2>::run(a);
    case 4: return F<4>::run(a);
    case 8: return F<8>::run(a);
    default: return F<16>::run(a);
  }
}

template <int E>
struct Fill {
  static void run(const Rows2d& r) { fill_rows_e<E>(r); }
};
template <int E>
struct Gather {
  static void run(const Rows2d& r) { gather_rows_e<E>(r); }
};
template <int E>
struct Transpose {
  static void run(const Transpose2d& t) { transpose_blocked<Tile<E>>(t); }
};

void fill_rows(const Rows2d& r) { by_itemsize<Fill>(r); }
void gather_rows(const Rows2d& r) { by_itemsize<Gather>(r); }
void transpose(const Transpose2d& t) { by_itemsize<Transpose>(t); }

const CopyKernelTable kTable = {"scalar", stream_copy, copy_rows, fill_rows, gather_rows, transpose};

}  // namespace

const CopyKernelTable& scalar_copy_kernels() { return kTable; }

}  // namespace cpu
}  // namespace st
