// The per-instruction-set pieces of the same-dtype copy kernels. The
// drivers (copy_same_dtype.cpp, copy_transpose.cpp) plan a copy, cut it into
// tasks and call these on 2-d pieces. copy_kernels.inl fills one table per
// level (copy_kernels_<level>.cpp). Only plain data crosses this header, so
// files built with different instruction-set flags share no inline code.
#pragma once

#include <cstdint>

namespace st {
namespace cpu {

// A 2-d piece of a copy: m rows of n elements of `itemsize` bytes.
// Element (r, i) is at dst + r*dst_outer + i*dst_inner, likewise for src.
struct Rows2d {
  char* dst;
  const char* src;
  int64_t n, m;
  int64_t dst_inner, src_inner;  // bytes
  int64_t dst_outer, src_outer;  // bytes
  int64_t itemsize;              // 1, 2, 4, 8 or 16
  bool nt;                       // stream the stores past the caches
};

// A batch of 2-d transposes: for b < batch, i < rows, j < cols,
//   dst[b*dst_batch + i*itemsize + j*dst_col] = src[b*src_batch + i*src_row + j*itemsize]
// i.e. dst is contiguous along i and src along j.
struct Transpose2d {
  char* dst;
  const char* src;
  int64_t rows, cols, batch;
  int64_t src_row, dst_col;  // bytes, any sign
  int64_t src_batch, dst_batch;
  int64_t itemsize;  // 1, 2, 4, 8 or 16
  bool nt;           // stream full 64-byte dst lines; set only when every
                     // tile row of `rows` elements starts 64-byte aligned
  bool streamed;     // the copy is larger than the caches
  // Blocks span block_dst_bytes of each dst row by block_src_bytes of each
  // src row (powers of two, at least 64), and src is prefetched
  // prefetch_bytes ahead of the tiles (0: not at all): see Note [Transpose
  // blocking]; cpu/transpose_tuning.h chooses them.
  int64_t block_dst_bytes, block_src_bytes, prefetch_bytes;
  bool prefetch_head;     // prefetch this piece's first blocks (no earlier
                          // piece of the same task range did)
  const char* next_src;   // the src of the piece the caller transposes next
                          // with the same shape (prefetched ahead), or null
};

// A transpose whose src is already in the caches (a conversion's scratch)
// needs no long runs: blocks of this many bytes of each dst and src row.
constexpr int64_t kCachedBlockDstBytes = 128;
constexpr int64_t kCachedBlockSrcBytes = 1024;

struct CopyKernelTable {
  const char* name;
  // nbytes contiguous bytes with non-temporal stores (any alignment).
  void (*stream_copy)(char* dst, const char* src, int64_t nbytes);
  // dst_inner == itemsize, src_inner == itemsize: row copies.
  void (*copy_rows)(const Rows2d& r);
  // dst_inner == itemsize, src_inner == 0: each row filled with one value.
  void (*fill_rows)(const Rows2d& r);
  // dst_inner == itemsize, any other src_inner (reversed, strided).
  void (*gather_rows)(const Rows2d& r);
  void (*transpose)(const Transpose2d& t);
};

const CopyKernelTable& scalar_copy_kernels();
const CopyKernelTable& avx2_copy_kernels();    // call only at CpuIsa::Avx2 or above
const CopyKernelTable& avx512_copy_kernels();  // call only at CpuIsa::Avx512
const CopyKernelTable& neon_copy_kernels();    // call only at CpuIsa::Neon

// The table for cpu_isa() now.
const CopyKernelTable& active_copy_kernels();

}  // namespace cpu
}  // namespace st
