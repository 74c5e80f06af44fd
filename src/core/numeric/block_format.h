// The block-scaled formats of include/stride.h (st_block_format): for each,
// the dtypes of its values and scales, its block length and the facts of
// its element type that the scale rules need (OCP MX v1.0 section 5 and
// table 1; NVIDIA's NVFP4). One table for the checks of the C boundary and
// one traits struct per format for the kernels (block_scaling.h), both
// written from the same numbers below.
#pragma once

#include <cstdint>

#include "core/macros.h"
#include "core/numeric/dtype.h"
#include "core/numeric/dtype_traits.h"
#include "core/numeric/scalar_types.h"

namespace st {

// st_block_format's numbers.
enum class BlockFormat : int32_t {
  MxFp8E4M3 = 0,
  MxFp8E5M2 = 1,
  MxFp6E2M3 = 2,
  MxFp6E3M2 = 3,
  MxFp4E2M1 = 4,
  MxInt8 = 5,
  NvFp4 = 6,
};
constexpr int kNumBlockFormats = 7;

// st_scale_rule's numbers.
enum class ScaleRule : int32_t { Floor = 0, RCeil = 1 };
constexpr int kNumScaleRules = 2;

// What a format is made of. The element type's largest magnitude is
// (1 + max_fraction / 128) · 2^emax: 448 = 1.75 · 2^8, 57344 = 1.75 · 2^15,
// 7.5 = 1.875 · 2^2, 28 = 1.75 · 2^4, 6 = 1.5 · 2^2, and MXINT8's 127/64 =
// 1.984375 · 2^0; emax is the exponent of OCP's FLOOR rule (section 6.3).
struct BlockFormatInfo {
  BlockFormat format;
  const char* name;
  ScalarType values;  // the values' dtype
  ScalarType scales;  // the scales' dtype
  int block;          // elements per block along the dim
  int per_byte;       // values a byte of `values` holds: 2 for the FP4 formats
  int emax;
  uint32_t max_fraction;  // in 128ths
};

// Rows in st_block_format order.
constexpr BlockFormatInfo kBlockFormats[kNumBlockFormats] = {
    {BlockFormat::MxFp8E4M3, "MXFP8_E4M3", ScalarType::Float8_e4m3fn, ScalarType::Float8_e8m0fnu, 32, 1, 8, 96},
    {BlockFormat::MxFp8E5M2, "MXFP8_E5M2", ScalarType::Float8_e5m2, ScalarType::Float8_e8m0fnu, 32, 1, 15, 96},
    {BlockFormat::MxFp6E2M3, "MXFP6_E2M3", ScalarType::Float6_e2m3fn, ScalarType::Float8_e8m0fnu, 32, 1, 2, 112},
    {BlockFormat::MxFp6E3M2, "MXFP6_E3M2", ScalarType::Float6_e3m2fn, ScalarType::Float8_e8m0fnu, 32, 1, 4, 96},
    {BlockFormat::MxFp4E2M1, "MXFP4_E2M1", ScalarType::Float4_e2m1fn_x2, ScalarType::Float8_e8m0fnu, 32, 2, 2, 64},
    {BlockFormat::MxInt8, "MXINT8", ScalarType::Int8, ScalarType::Float8_e8m0fnu, 32, 1, 0, 126},
    {BlockFormat::NvFp4, "NVFP4", ScalarType::Float4_e2m1fn_x2, ScalarType::Float8_e4m3fn, 16, 2, 2, 64},
};

constexpr bool block_format_rows_in_order() {
  for (int i = 0; i < kNumBlockFormats; ++i) {
    if (static_cast<int>(kBlockFormats[i].format) != i) return false;
  }
  return true;
}
static_assert(block_format_rows_in_order(), "kBlockFormats lists the formats in st_block_format order");

constexpr bool is_valid_block_format(int32_t v) { return v >= 0 && v < kNumBlockFormats; }
constexpr bool is_valid_scale_rule(int32_t v) { return v >= 0 && v < kNumScaleRules; }

constexpr const BlockFormatInfo& block_format_info(BlockFormat f) { return kBlockFormats[static_cast<int>(f)]; }

// The dtypes a block format is quantized from and dequantized into.
constexpr bool is_block_source_dtype(ScalarType t) {
  return t == ScalarType::Float32 || t == ScalarType::Float16 || t == ScalarType::BFloat16 ||
         t == ScalarType::Float64;
}

// The element type of a format, for the kernels (block_scaling.h):
// Element is its values' C++ type (a pair of E2M1 for FP4), Format the
// narrow-float layout it rounds to (void for MXINT8's integers).
template <typename T>
struct NarrowFormatOf {
  using type = typename T::format;
};
template <>
struct NarrowFormatOf<int8_t> {
  using type = void;
};

template <BlockFormat F>
struct BlockTraits {
  static constexpr BlockFormatInfo kInfo = kBlockFormats[static_cast<int>(F)];
  using Element = cpp_type_t<kInfo.values>;
  using Format = typename NarrowFormatOf<Element>::type;
  static constexpr int kBlock = kInfo.block;
  static constexpr int kValuesPerBlock = kInfo.block / kInfo.per_byte;
  static constexpr int kEmax = kInfo.emax;
  static constexpr uint32_t kMaxFraction = kInfo.max_fraction;
  static constexpr bool kPacked = kInfo.per_byte == 2;
  static constexpr bool kNvFp4 = F == BlockFormat::NvFp4;
};

}  // namespace st
