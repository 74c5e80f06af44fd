// What each lane of the warp kernels of the block-scaled formats does
// (include/stride.h, st_quantize_blocks, st_dequantize_blocks) where a
// call's lines are runs of whole blocks in dense memory, as host/device
// functions of (warp, lane). The __global__ kernels (block_scaled.cu) add
// only the shuffles that join a block's lanes; the host tests run these
// functions for every lane of the launch and join the lanes in a loop
// (tests/cpp/test_cuda_block_emulation.cpp).
//
// Note [Warps over whole blocks]
// One thread per block (block_loops.h) reads a block of float32 as 128
// bytes, one element at a time: its warp's loads touch 32 blocks, a sector
// each per load. Here a block of the format is read by the kLanes lanes it
// takes at 16 bytes a lane (kBlock · sizeof(T) / 16: 8 for float32 and MX,
// 4 for NVFP4), so a warp's load is 512 adjacent bytes. The lanes of a
// block join their amaxes by log2(kLanes) shuffles, each lane encodes its
// own elements by the block's scale and stores its codes in one access
// (kPerLane codes, half as many bytes for FP4), and the block's first lane
// writes the scale: a warp's code stores are adjacent, its scales 32 /
// kLanes adjacent bytes. Each lane loads kUnroll pieces, a warp's stride
// apart, before it joins or stores any, so two 16-byte loads a thread are
// in flight. Dequantizing needs no shuffle: each lane loads its codes and
// its block's scale and stores 16 bytes of elements.
//
// The layout this needs, checked on the host (warp_blocks_fit): lines of
// whole blocks (n a multiple of the block), the elements dense along each
// line with every line starting 16-byte aligned, the values dense with
// every line's codes aligned to a lane's code access. The other layouts
// (blocks along an outer dim, strided lines, partial blocks, memory wrapped
// at odd addresses) take the thread-per-block kernel.
#pragma once

#include <cstdint>

#include "core/macros.h"
#include "core/numeric/block_format.h"
#include "core/numeric/block_scaling.h"
#include "cuda/kernels/block_loops.h"
#include "cuda/kernels/element_io.h"
#include "cuda/kernels/launch_shape.h"
#include "iter/block_lines.h"

namespace st {
namespace cuda {

constexpr int kWarpLanes = 32;
constexpr int kBlockWarps = kBlockThreads / kWarpLanes;
// Pieces a lane loads before it stores (Note [Warps over whole blocks]).
constexpr int kWarpUnroll = 2;

template <BlockFormat F, typename T>
struct WarpBlocks {
  static constexpr int kBlock = BlockTraits<F>::kBlock;
  static constexpr int kPerLane = static_cast<int>(16 / sizeof(T));  // elements a lane loads or stores at once
  static constexpr int kLanes = kBlock / kPerLane;                   // lanes of one block of the format
  static constexpr int kBlocksPerWarp = kWarpLanes / kLanes;
  static constexpr int kCodeBytes = BlockTraits<F>::kPacked ? kPerLane / 2 : kPerLane;
  static_assert(kLanes >= 1 && kLanes <= kWarpLanes && kWarpLanes % kLanes == 0, "a warp holds whole blocks");
  static_assert(kCodeBytes == 1 || kCodeBytes == 2 || kCodeBytes == 4 || kCodeBytes == 8, "one access of codes");

  // A lane's part of a block: its elements and their amax.
  struct Piece {
    Chunk16<T> elements;
    blocks::BlockAmax amax;
  };

  // Blocks of the call are numbered line by line; a warp slot is
  // kBlocksPerWarp consecutive blocks.
  ST_HOST_DEVICE static uint64_t slots(const BlockKernelArgs& a) {
    return (a.total + kBlocksPerWarp - 1) / kBlocksPerWarp;
  }
  // The block of slot `slot` that `lane` works on (may be >= a.total in
  // the last slot), and the lane's piece of it.
  ST_HOST_DEVICE static uint64_t block_of(uint64_t slot, int lane) {
    return slot * kBlocksPerWarp + static_cast<uint64_t>(lane / kLanes);
  }
  ST_HOST_DEVICE static int piece_of(int lane) { return lane % kLanes; }

  // The piece's first element, its first code's byte, and its block's
  // scale (block_place, then the piece's offset: the elements and values
  // are dense).
  ST_HOST_DEVICE static BlockPlace place(const BlockKernelArgs& a, uint64_t block, int piece) {
    const uint64_t bpl = static_cast<uint64_t>(a.blocks_per_line);
    BlockPlace at = block_place<F>(a, block / bpl, static_cast<int64_t>(block % bpl));
    at.elements += piece * kPerLane * static_cast<int64_t>(sizeof(T));
    at.values += piece * kCodeBytes;
    return at;
  }

  ST_HOST_DEVICE static Piece load(const BlockKernelArgs& a, uint64_t block, int piece) {
    Piece p;
    p.elements = load_as<Chunk16<T>>(place(a, block, piece).elements);
    for (int i = 0; i < kPerLane; ++i) p.amax.add(blocks::exact_double(p.elements.v[i]));
    return p;
  }

  // Stores the piece's codes (and, from the block's first lane, the scale)
  // by `amax`, the amax of its whole block.
  ST_HOST_DEVICE static void store(const BlockKernelArgs& a, uint64_t block, int piece, const Piece& p,
                                   const blocks::BlockAmax& amax) {
    const blocks::BlockScale s = blocks::block_scale<F>(amax, a.params);
    const BlockPlace at = place(a, block, piece);
    uint64_t word = 0;
    for (int i = 0; i < kPerLane; ++i) {
      const uint64_t code = blocks::element_code<F>(s, blocks::exact_double(p.elements.v[i]));
      word |= BlockTraits<F>::kPacked ? code << (4 * i) : code << (8 * i);  // little-endian, low nibble first
    }
    store_as<Word<kCodeBytes>>(at.values, static_cast<Word<kCodeBytes>>(word));
    if (piece == 0) *reinterpret_cast<unsigned char*>(at.scale) = s.code;
  }

  // A lane's codes of a block and the block's scale code.
  struct Codes {
    uint64_t word;
    uint8_t scale;
  };
  ST_HOST_DEVICE static Codes load_codes(const BlockKernelArgs& a, uint64_t block, int piece) {
    const BlockPlace at = place(a, block, piece);
    return Codes{load_as<Word<kCodeBytes>>(at.values), *reinterpret_cast<const unsigned char*>(at.scale)};
  }

  ST_HOST_DEVICE static void dequantize(const BlockKernelArgs& a, uint64_t block, int piece, const Codes& c) {
    const double factor = blocks::block_factor<F>(c.scale, a.params);
    Chunk16<T> out;
    for (int i = 0; i < kPerLane; ++i) {
      const uint8_t code =
          static_cast<uint8_t>(BlockTraits<F>::kPacked ? (c.word >> (4 * i)) & 0x0F : (c.word >> (8 * i)) & 0xFF);
      out.v[i] = blocks::element_out<F, T>(code, factor);
    }
    store_as<Chunk16<T>>(place(a, block, piece).elements, out);
  }
};

// The slots warp `warp` of a launch of `grid` thread blocks takes: first,
// first + step, ... below count, kWarpUnroll at a time (first + j · step
// for j < kWarpUnroll in one round).
struct WarpSlots {
  uint64_t first;
  uint64_t step;
  uint64_t count;
};
ST_HOST_DEVICE ST_FORCE_INLINE WarpSlots warp_slots(uint64_t slots, uint32_t block, uint32_t warp_in_block,
                                                     uint32_t grid) {
  return WarpSlots{static_cast<uint64_t>(block) * kBlockWarps + warp_in_block,
                   static_cast<uint64_t>(grid) * kBlockWarps, slots};
}

// Enough warps for every slot at kWarpUnroll slots a warp, up to the grid's limit.
inline LaunchShape warp_kernel_shape(uint64_t slots) {
  const uint64_t warps = (slots + kWarpUnroll - 1) / kWarpUnroll;
  return block_grid_shape((warps + kBlockWarps - 1) / kBlockWarps);
}

// Whether the lines `b` of blocks of `info`, with elements of
// `element_size` bytes, have the layout of Note [Warps over whole blocks].
inline bool warp_blocks_fit(const BlockLines& b, int element_size, const BlockFormatInfo& info) {
  const int64_t per_lane = 16 / element_size;
  const int64_t code_bytes = per_lane / info.per_byte;
  if (b.n % info.block != 0 || b.step[kBlockElements] != element_size || b.step[kBlockValues] != 1) return false;
  const auto aligned = [&](int k, int64_t to) {
    if (reinterpret_cast<uintptr_t>(b.lines.data[k]) % static_cast<uintptr_t>(to) != 0) return false;
    for (int d = 0; d < b.lines.ndim(); ++d) {
      if (b.lines.shape[d] > 1 && b.lines.strides[k][d] % to != 0) return false;
    }
    return true;
  };
  return aligned(kBlockElements, 16) && aligned(kBlockValues, code_bytes);
}

}  // namespace cuda
}  // namespace st
