// What each thread of the copy kernels does, as host/device functions of
// (block, thread). The __global__ kernels (copy_kernels.cuh) only read
// blockIdx and threadIdx and call these; the host tests call them for every
// (block, thread) of a launch over host memory and compare the result with
// the CPU copy, so the index math and the conversions of the kernels are
// checked on machines without a GPU.
//
// Elements are converted by convert<To>(From) (core/numeric/convert.h), the CPU
// kernel's own rules. Copies that keep the dtype move Word<N> (or Bytes<N>
// when unaligned) and never interpret the bits, as the CPU's memcpy.
#pragma once

#include <cstdint>

#include "core/macros.h"
#include "core/numeric/convert.h"
#include "core/numeric/scaled_convert.h"
#include "cuda/kernels/copy_args.h"
#include "cuda/kernels/element_io.h"
#include "cuda/kernels/transpose_tile.h"
#include "cuda/kernels/vectorize.h"

namespace st {
namespace cuda {

// Threads per block of the elementwise kernels, and elements (or words)
// each thread moves: four independent accesses in flight per thread (as
// PyTorch's thread_work_size; Note [Loads before stores]).
//
// Note [Loads before stores]
// A thread of the bytes, strided and scaled kernels issues the loads of all
// its kCopyUnroll elements into registers, then converts and stores them,
// as PyTorch's unrolled elementwise loop (its policy's load, then compute
// and store): the loads are in flight together, so a thread waits for
// memory once rather than kCopyUnroll times. Written as load, store, load,
// store, the compiler must keep that order, since a store may write what
// the next load reads; tests/cuda/check_kernel_code.py reads the kernels'
// PTX and fails when a store comes before the unroll's last load.
// ST_RESTRICT says what is true: a copy's dst never overlaps its src (the
// copy front stages overlapping copies, core/copy_preconditions.h), and a
// scaled copy's scale and shift are values of their own; its src may be its
// dst (in place), so that one pointer is left unqualified.
constexpr int kCopyThreads = 128;
constexpr int kCopyUnroll = 4;

// Blocks that cover `work` items at `per_block` items per block; at least
// one, so that a launch with only a head or a tail still runs. A count
// beyond uint32 saturates, for check_launch_shape to refuse (cuda/kernels/launch_shape.h).
inline uint32_t blocks_for(int64_t work, int64_t per_block) {
  const int64_t blocks = (work + per_block - 1) / per_block;
  if (blocks > int64_t{UINT32_MAX}) return UINT32_MAX;
  return static_cast<uint32_t>(blocks > 0 ? blocks : 1);
}

template <typename D, typename S>
ST_HOST_DEVICE ST_FORCE_INLINE void convert_element(char* dst, const char* src) {
  store_value<D>(dst, convert<D>(load_value<S>(src)));
}

// ---- Bytes: blocks_for(words, kCopyThreads * kCopyUnroll) blocks.

template <int W>
ST_HOST_DEVICE ST_FORCE_INLINE void copy_bytes_thread(const BytesCopyArgs& a, uint32_t block, uint32_t tid) {
  const BytesPlan& p = a.plan;
  char* ST_RESTRICT dst = a.dst + p.head;
  const char* ST_RESTRICT src = a.src + p.head;
  const uint32_t words = static_cast<uint32_t>(p.words);
  const uint32_t first = block * (kCopyThreads * kCopyUnroll) + tid;
  Word<W> v[kCopyUnroll] = {};  // Note [Loads before stores]
  ST_UNROLL
  for (int j = 0; j < kCopyUnroll; ++j) {
    const uint32_t w = first + static_cast<uint32_t>(j * kCopyThreads);
    if (w < words) v[j] = load_as<Word<W>>(src + static_cast<size_t>(w) * W);
  }
  ST_UNROLL
  for (int j = 0; j < kCopyUnroll; ++j) {
    const uint32_t w = first + static_cast<uint32_t>(j * kCopyThreads);
    if (w < words) store_as<Word<W>>(dst + static_cast<size_t>(w) * W, v[j]);
  }
  if (block == 0) {  // head and tail are shorter than a word, so shorter than a block
    if (tid < p.head) a.dst[tid] = a.src[tid];
    if (tid < p.tail) {
      const size_t at = static_cast<size_t>(p.head) + static_cast<size_t>(p.words) * W + tid;
      a.dst[at] = a.src[at];
    }
  }
}

// ---- Vectorized conversion: blocks_for(vectors, kCopyThreads) blocks, one
// vector of vector_elements(sizeof D, sizeof S) elements per thread.

template <typename D, typename S>
struct VectorShape {
  static constexpr int kVec = vector_elements(sizeof(memory_t<D>), sizeof(memory_t<S>));
  static constexpr int kSrcChunks = kVec / Chunk16<S>::kCount;
  static constexpr int kDstChunks = kVec / Chunk16<D>::kCount;
  static_assert(kSrcChunks >= 1 && kDstChunks >= 1, "a vector fills whole 16-byte chunks on both sides");
};

template <typename D, typename S>
ST_HOST_DEVICE ST_FORCE_INLINE void convert_vectorized_thread(const VectorCopyArgs& a, uint32_t block, uint32_t tid) {
  using Shape = VectorShape<D, S>;
  constexpr size_t kDstSize = sizeof(memory_t<D>), kSrcSize = sizeof(memory_t<S>);
  const VectorPlan& p = a.plan;
  const uint32_t v = block * kCopyThreads + tid;
  if (v < static_cast<uint32_t>(p.vectors)) {
    const size_t first = static_cast<size_t>(p.head) + static_cast<size_t>(v) * Shape::kVec;
    const char* src = a.src + first * kSrcSize;
    char* dst = a.dst + first * kDstSize;
    Chunk16<S> in[Shape::kSrcChunks];
    ST_UNROLL
    for (int c = 0; c < Shape::kSrcChunks; ++c) in[c] = load_as<Chunk16<S>>(src + 16 * c);
    // One destination chunk at a time: a widening vector (bool to
    // complex128 writes 256 bytes) would otherwise hold its whole output
    // in registers and spill (ptxas -warn-spills found it).
    ST_UNROLL
    for (int c = 0; c < Shape::kDstChunks; ++c) {
      Chunk16<D> out;
      ST_UNROLL
      for (int k = 0; k < Chunk16<D>::kCount; ++k) {
        const int i = c * Chunk16<D>::kCount + k;
        out.v[k] = to_memory<D>(convert<D>(from_memory<S>(in[i / Chunk16<S>::kCount].v[i % Chunk16<S>::kCount])));
      }
      store_as<Chunk16<D>>(dst + 16 * c, out);
    }
  }
  if (block == 0) {  // head and tail hold fewer than kVec <= 16 elements
    if (tid < p.head) convert_element<D, S>(a.dst + tid * kDstSize, a.src + tid * kSrcSize);
    if (tid < p.tail) {
      const size_t at = static_cast<size_t>(p.head) + static_cast<size_t>(p.vectors) * Shape::kVec + tid;
      convert_element<D, S>(a.dst + at * kDstSize, a.src + at * kSrcSize);
    }
  }
}

// ---- Strided: blocks_for(numel, kCopyThreads * kCopyUnroll) blocks. D and
// S are dtypes' C++ types (a conversion), or both Word<N> / Bytes<N>.

template <typename D, typename S>
ST_HOST_DEVICE ST_FORCE_INLINE void copy_strided_thread(const StridedCopyArgs& a, uint32_t block, uint32_t tid) {
  char* ST_RESTRICT dst = a.dst;
  const char* ST_RESTRICT src = a.src;
  const uint32_t first = block * (kCopyThreads * kCopyUnroll) + tid;
  S in[kCopyUnroll] = {};  // Note [Loads before stores]
  OffsetCalculator<2>::Offset dst_at[kCopyUnroll] = {};
  ST_UNROLL
  for (int j = 0; j < kCopyUnroll; ++j) {
    const uint32_t i = first + static_cast<uint32_t>(j * kCopyThreads);
    if (i < a.numel) {
      const auto o = a.offsets.get(i);
      dst_at[j] = o[0];
      in[j] = load_value<S>(src + o[1]);
    }
  }
  ST_UNROLL
  for (int j = 0; j < kCopyUnroll; ++j) {
    const uint32_t i = first + static_cast<uint32_t>(j * kCopyThreads);
    if (i < a.numel) store_value<D>(dst + dst_at[j], convert<D>(in[j]));
  }
}

// ---- Scaled, any layout: blocks_for(numel, kCopyThreads * kCopyUnroll)
// blocks; D and S are dtypes' C++ types, never complex. The element rule is
// the CPU's (core/numeric/scaled_convert.h), so the bits are the same.

template <typename D, typename S>
ST_HOST_DEVICE ST_FORCE_INLINE void copy_scaled_thread(const ScaledCopyArgs& a, uint32_t block, uint32_t tid) {
  using C = scaled_compute_t<D, S>;
  const char* ST_RESTRICT scale = a.scale;
  const char* ST_RESTRICT shift = a.shift;
  const uint32_t first = block * (kCopyThreads * kCopyUnroll) + tid;
  S in[kCopyUnroll] = {};  // Note [Loads before stores]
  C scales[kCopyUnroll] = {}, shifts[kCopyUnroll] = {};
  OffsetCalculator<4>::Offset dst_at[kCopyUnroll] = {};
  ST_UNROLL
  for (int j = 0; j < kCopyUnroll; ++j) {
    const uint32_t i = first + static_cast<uint32_t>(j * kCopyThreads);
    if (i < a.numel) {
      const auto o = a.offsets.get(i);
      dst_at[j] = o[0];
      in[j] = load_value<S>(a.src + o[1]);
      scales[j] = load_value<C>(scale + o[2]);
      shifts[j] = load_value<C>(shift + o[3]);
    }
  }
  ST_UNROLL
  for (int j = 0; j < kCopyUnroll; ++j) {
    const uint32_t i = first + static_cast<uint32_t>(j * kCopyThreads);
    if (i < a.numel) store_value<D>(a.dst + dst_at[j], scaled_convert<D>(in[j], scales[j], shifts[j], a.saturate));
  }
}

// ---- Transpose: a grid of (col_tiles, min(row_tiles, 65535),
// min(batch_tiles, 65535)) blocks of kTransposeThreads threads; each block
// loops over row tiles and batch tiles, and for each runs the load phase, a
// barrier, the store phase and a barrier. The shared tile holds dst
// elements (converted while loaded).

template <typename D>
using TileOf = TransposeTile<static_cast<int>(sizeof(memory_t<D>))>;

// The (dst, src) byte offsets of the matrix each of a thread's steps falls
// in: one matrix per tile, or several side by side (Note [Transpose tiles
// for small extents]). The same in both phases, so computed once per batch tile.
using TransposeOffsets = OffsetCalculator<2>::Offsets;

ST_HOST_DEVICE ST_FORCE_INLINE void transpose_batch_offsets(const TransposeCopyArgs& a, uint32_t batch_tile,
                                                            int thread, TransposeOffsets (&out)[kTransposeSteps]) {
  if (a.tile.log_batches == 0) {
    const TransposeOffsets o = a.batch_offsets.get(batch_tile);
    ST_UNROLL
    for (int step = 0; step < kTransposeSteps; ++step) out[step] = o;
    return;
  }
  ST_UNROLL
  for (int step = 0; step < kTransposeSteps; ++step) {
    const uint32_t batch = transpose_batch(a.tile, batch_tile, thread, step);
    out[step] = a.batch_offsets.get(batch < a.batches ? batch : 0);  // beyond the last: the step is skipped
  }
}

ST_HOST_DEVICE ST_FORCE_INLINE TileAt<uint32_t> transpose_tile_at(const TransposeCopyArgs& a, uint32_t batch_tile,
                                                                  uint32_t row_tile, uint32_t col_tile) {
  return TileAt<uint32_t>{a.tile, batch_tile, row_tile, col_tile, a.batches, a.rows, a.cols};
}

template <typename D, typename S>
ST_HOST_DEVICE ST_FORCE_INLINE void transpose_load_phase(const TransposeCopyArgs& a, memory_t<D>* tile,
                                                         const TransposeOffsets (&offsets)[kTransposeSteps],
                                                         const TileAt<uint32_t>& at, int thread) {
  constexpr int kItem = static_cast<int>(sizeof(memory_t<D>));
  ST_UNROLL
  for (int step = 0; step < kTransposeSteps; ++step) {
    const TileElement<uint32_t> e = transpose_load<kItem>(at, thread, step);
    if (e.inside) {
      const int64_t from = offsets[step][1] + static_cast<int64_t>(e.row) * a.src_row_stride +
                           static_cast<int64_t>(e.col) * a.src_col_stride;
      tile[e.shared] = to_memory<D>(convert<D>(load_value<S>(a.src + from)));
    }
  }
}

template <typename D>
ST_HOST_DEVICE ST_FORCE_INLINE void transpose_store_phase(const TransposeCopyArgs& a, const memory_t<D>* tile,
                                                          const TransposeOffsets (&offsets)[kTransposeSteps],
                                                          const TileAt<uint32_t>& at, int thread) {
  constexpr int kItem = static_cast<int>(sizeof(memory_t<D>));
  ST_UNROLL
  for (int step = 0; step < kTransposeSteps; ++step) {
    const TileElement<uint32_t> e = transpose_store<kItem>(at, thread, step);
    if (e.inside) {
      const int64_t to = offsets[step][0] + static_cast<int64_t>(e.row) * a.dst_row_stride +
                         static_cast<int64_t>(e.col) * a.dst_col_stride;
      store_as<memory_t<D>>(a.dst + to, tile[e.shared]);
    }
  }
}

// ---- Fill, contiguous: blocks_for(words, kCopyThreads * kCopyUnroll)
// blocks of 16-byte stores; N-byte elements at the head and the tail.

template <int N>
ST_HOST_DEVICE ST_FORCE_INLINE void fill_contiguous_thread(const FillContiguousArgs& a, uint32_t block, uint32_t tid) {
  const BytesPlan& p = a.plan;
  char* words_start = a.dst + p.head;
  const uint32_t words = static_cast<uint32_t>(p.words);
  const uint32_t first = block * (kCopyThreads * kCopyUnroll) + tid;
  ST_UNROLL
  for (int j = 0; j < kCopyUnroll; ++j) {
    const uint32_t w = first + static_cast<uint32_t>(j * kCopyThreads);
    if (w < words) store_as<Word16>(words_start + static_cast<size_t>(w) * 16, a.pattern);
  }
  if (block == 0) {
    static_assert(N <= 16, "an element fits the pattern");
    const Word<N> element = load_as<Word<N>>(reinterpret_cast<const char*>(&a.pattern));
    const uint32_t head = static_cast<uint32_t>(p.head) / N, tail = static_cast<uint32_t>(p.tail) / N;
    if (tid < head) store_as<Word<N>>(a.dst + static_cast<size_t>(tid) * N, element);
    if (tid < tail) store_as<Word<N>>(words_start + static_cast<size_t>(words) * 16 + static_cast<size_t>(tid) * N, element);
  }
}

// ---- Fill, strided: blocks_for(numel, kCopyThreads * kCopyUnroll) blocks.

template <typename T>
ST_HOST_DEVICE ST_FORCE_INLINE void fill_strided_thread(const FillStridedArgs<T>& a, uint32_t block, uint32_t tid) {
  const uint32_t first = block * (kCopyThreads * kCopyUnroll) + tid;
  ST_UNROLL
  for (int j = 0; j < kCopyUnroll; ++j) {
    const uint32_t i = first + static_cast<uint32_t>(j * kCopyThreads);
    if (i < a.numel) store_as<T>(a.dst + a.offsets.get(i)[0], a.value);
  }
}

}  // namespace cuda
}  // namespace st
