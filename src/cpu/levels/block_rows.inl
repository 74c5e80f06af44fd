// The rows of cpu/levels/block_rows.h, written once over a level's vector
// traits V (vec_base.h) and compiled once per level: block_rows.cpp in the
// level's folder includes its traits and this file and hands out
// kBlockRows<V>. Each row walks its blocks with the rule of
// core/numeric/block_scaling.h, the code the CUDA kernels run too, except
// the blocks a level with V::kBlockScale takes in vector steps (Note
// [Block rows in vector steps]): whole blocks of contiguous elements and
// values, of the formats and dtypes block_vector.h's steps cover.
// Everything is in an unnamed namespace (see copy_kernels.inl).
#pragma once

#include <cstdint>

#include "core/numeric/block_format.h"
#include "core/numeric/block_scaling.h"
#include "core/numeric/dtype_traits.h"
#include "cpu/levels/block_rows.h"
#include "cpu/levels/block_vector.h"

namespace st {
namespace cpu {
namespace {

// Block b of line r of each operand: the byte where its elements, values
// and scale start.
template <BlockFormat F>
struct BlockAt {
  static constexpr int64_t kBlock = BlockTraits<F>::kBlock;
  static constexpr int64_t kValuesPerBlock = BlockTraits<F>::kValuesPerBlock;

  static char* elements(const BlockRows& r, int64_t row, int64_t b) {
    return r.elements.ptr + row * r.elements.row + b * kBlock * r.elements.step;
  }
  static char* values(const BlockRows& r, int64_t row, int64_t b) {
    return r.values.ptr + row * r.values.row + b * kValuesPerBlock * r.values.step;
  }
  static char* scale(const BlockRows& r, int64_t row, int64_t b) {
    return r.scales.ptr + row * r.scales.row + b * r.scales.step;
  }
  static int64_t count(const BlockRows& r, int64_t b) {
    const int64_t left = r.n - b * kBlock;
    return left < kBlock ? left : kBlock;
  }
};

// Walks a call's blocks: bands of up to W::kBandLanes lines (a multiple
// of W::kLanes) at a time where the lines' elements are adjacent and the
// blocks run along an outer dim (Note [Block rows in vector steps]: each
// row of a band of blocks is read or written across the lines; values and
// scales in any layout), runs of W::kLanes whole contiguous blocks by
// W::group, other whole contiguous blocks by W::block, and the rest, or
// what W leaves, by `rule`(elements, count, values, scale). W is
// VectorQuantize or VectorDequantize of element dtype T.
template <BlockFormat F, typename T, class W, typename Rule>
void walk_rows(const BlockRows& r, const Rule& rule) {
  using At = BlockAt<F>;
  constexpr int64_t kItem = static_cast<int64_t>(sizeof(T));
  int64_t first_row = 0;
  if constexpr (W::value) {
    constexpr int64_t kLanes = W::kLanes;
    const typename W::Call call(r.params);
    if (r.elements.row == kItem && r.elements.step != kItem && r.rows >= kLanes) {
      first_row = r.rows / kLanes * kLanes;
      // Along the rows of the elements while the values lie as they do;
      // down a strip of lines, block after block, where each line's values
      // are a run of their own (a weight stored the other way). Each band
      // prefetches what the next one reads of the same rows.
      const bool along_rows = r.values.row == 1;
      const int64_t ahead_elements = along_rows ? W::kBandLanes * kItem : At::kBlock * r.elements.step;
      const int64_t ahead_values = W::kBandLanes;
      const auto band = [&](int64_t b, int64_t row) {
        const int64_t lanes = first_row - row < W::kBandLanes ? first_row - row : W::kBandLanes;
        const int64_t count = At::count(r, b);
        if (count == At::kBlock) {
          W::band(At::elements(r, row, b), r.elements.step, At::values(r, row, b), r.values.row, r.values.step,
                  At::scale(r, row, b), r.scales.row, lanes, W::kQuantize ? ahead_elements : ahead_values, call);
        } else {
          for (int64_t l = row; l < row + lanes; ++l)
            rule(At::elements(r, l, b), count, At::values(r, l, b), At::scale(r, l, b));
        }
      };
      if (along_rows) {
        for (int64_t b = r.first_block; b < r.last_block; ++b)
          for (int64_t row = 0; row < first_row; row += W::kBandLanes) band(b, row);
      } else {
        for (int64_t row = 0; row < first_row; row += W::kBandLanes)
          for (int64_t b = r.first_block; b < r.last_block; ++b) band(b, row);
      }
    }
    if (r.elements.step == kItem && r.values.step == 1) {
      // Contiguous lines: whole blocks in vector steps, the final partial one by the rule.
      const int64_t whole = r.n / At::kBlock < r.last_block ? r.n / At::kBlock : r.last_block;
      for (int64_t row = first_row; row < r.rows; ++row) {
        int64_t b = r.first_block;
        if constexpr (W::kGroup) {
          for (; b + kLanes <= whole; b += kLanes)
            W::group(At::elements(r, row, b), At::values(r, row, b), At::scale(r, row, b), r.scales.step, call);
        }
        for (; b < r.last_block; ++b) {
          char* const e = At::elements(r, row, b);
          char* const v = At::values(r, row, b);
          char* const s = At::scale(r, row, b);
          if (b >= whole || !W::block(e, v, s, call)) rule(e, At::count(r, b), v, s);
        }
      }
      return;
    }
  }
  for (int64_t row = first_row; row < r.rows; ++row)
    for (int64_t b = r.first_block; b < r.last_block; ++b)
      rule(At::elements(r, row, b), At::count(r, b), At::values(r, row, b), At::scale(r, row, b));
}

template <class V, BlockFormat F, typename S>
void quantize_rows(const BlockRows& r) {
  walk_rows<F, S, VectorQuantize<V, F, S>>(r, [&r](char* e, int64_t count, char* v, char* s) {
    blocks::quantize_block<F, S>(e, r.elements.step, count, v, r.values.step, s, r.params);
  });
}

template <class V, BlockFormat F, typename D>
void dequantize_rows(const BlockRows& r) {
  walk_rows<F, D, VectorDequantize<V, F, D>>(r, [&r](char* e, int64_t count, char* v, char* s) {
    blocks::dequantize_block<F, D>(e, r.elements.step, count, v, r.values.step, s, r.params);
  });
}

// A table row: one format's kernels FN<V, F, T> for each element dtype T,
// in kBlockElementTypes' order.
static_assert(kBlockElementTypes[0] == ScalarType::Float32 && kBlockElementTypes[1] == ScalarType::Float16 &&
                  kBlockElementTypes[2] == ScalarType::BFloat16 && kBlockElementTypes[3] == ScalarType::Float64,
              "ST_BLOCK_FORMAT_ROWS_ lists the element dtypes in kBlockElementTypes' order");
#define ST_BLOCK_FORMAT_ROWS_(FN, F) {FN<V, F, float>, FN<V, F, Half>, FN<V, F, BFloat16>, FN<V, F, double>}
#define ST_BLOCK_ROWS_(FN)                                                                                    \
  {ST_BLOCK_FORMAT_ROWS_(FN, BlockFormat::MxFp8E4M3), ST_BLOCK_FORMAT_ROWS_(FN, BlockFormat::MxFp8E5M2),       \
   ST_BLOCK_FORMAT_ROWS_(FN, BlockFormat::MxFp6E2M3), ST_BLOCK_FORMAT_ROWS_(FN, BlockFormat::MxFp6E3M2),       \
   ST_BLOCK_FORMAT_ROWS_(FN, BlockFormat::MxFp4E2M1), ST_BLOCK_FORMAT_ROWS_(FN, BlockFormat::MxInt8),          \
   ST_BLOCK_FORMAT_ROWS_(FN, BlockFormat::NvFp4)}
static_assert(kNumBlockFormats == 7, "ST_BLOCK_ROWS_ lists every format, in st_block_format order");

template <class V>
constexpr BlockRowsTable kBlockRows = {V::kName, ST_BLOCK_ROWS_(quantize_rows), ST_BLOCK_ROWS_(dequantize_rows)};

#undef ST_BLOCK_ROWS_
#undef ST_BLOCK_FORMAT_ROWS_

}  // namespace
}  // namespace cpu
}  // namespace st
