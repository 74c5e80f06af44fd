// Portable same-dtype copy pieces: the fallback on every machine, and the
// reference level the tests force to check the vector ones against.
#include <cstring>

#include "cpu/copy_kernel_table.h"

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

// Tiles small enough that a tile's rows of src and dst stay in L1.
template <int E>
void transpose_e(const Transpose2d& t) {
  constexpr int64_t kTile = E >= 8 ? 8 : 16;
  for (int64_t b = 0; b < t.batch; ++b) {
    char* dst = t.dst + b * t.dst_batch;
    const char* src = t.src + b * t.src_batch;
    for (int64_t j0 = 0; j0 < t.cols; j0 += kTile) {
      const int64_t j1 = j0 + kTile < t.cols ? j0 + kTile : t.cols;
      for (int64_t i0 = 0; i0 < t.rows; i0 += kTile) {
        const int64_t i1 = i0 + kTile < t.rows ? i0 + kTile : t.rows;
        for (int64_t j = j0; j < j1; ++j) {
          char* d = dst + j * t.dst_col;
          for (int64_t i = i0; i < i1; ++i) move_one<E>(d + i * E, src + i * t.src_row + j * E);
        }
      }
    }
  }
}

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
  static void run(const Transpose2d& t) { transpose_e<E>(t); }
};

void fill_rows(const Rows2d& r) { by_itemsize<Fill>(r); }
void gather_rows(const Rows2d& r) { by_itemsize<Gather>(r); }
void transpose(const Transpose2d& t) { by_itemsize<Transpose>(t); }

const CopyKernelTable kTable = {"scalar", stream_copy, copy_rows, fill_rows, gather_rows, transpose};

}  // namespace

const CopyKernelTable& scalar_copy_kernels() { return kTable; }

}  // namespace cpu
}  // namespace st
