// The per-instruction-set row converters of the hot dtype pairs: n
// contiguous src elements to n contiguous dst elements, bit-identical to
// convert_rules.h. copy_convert.cpp drives them over a copy's canonical geometry.
#pragma once

#include <cstdint>

namespace st {
namespace cpu {

enum class ConvertPair : int {
  Float32ToFloat16 = 0,
  Float32ToBFloat16,
  Int64ToFloat64,
  UInt8ToFloat32,
  Float16ToFloat32,
  BFloat16ToFloat32,
  Float32ToFloat8E4M3FN,
  Float32ToFloat8E5M2,
  Float8E4M3FNToFloat32,
  Float8E5M2ToFloat32,
  Float16ToFloat8E4M3FN,
  Float16ToFloat8E5M2,
  BFloat16ToFloat8E4M3FN,
  BFloat16ToFloat8E5M2,
  Float8E4M3FNToFloat16,
  Float8E5M2ToFloat16,
  Float8E4M3FNToBFloat16,
  Float8E5M2ToBFloat16,
  UInt16ToFloat32,
  UInt32ToFloat32,
  UInt64ToFloat32,
  UInt16ToFloat64,
  UInt32ToFloat64,
  UInt64ToFloat64,
  Int8ToFloat32,
  Int16ToFloat32,
  Int32ToFloat32,
  Int32ToFloat64,
  Float32ToInt32,
  Float32ToUInt8,
  Float32ToFloat64,
  Float64ToFloat32,
  Int32ToInt64,
  Int64ToInt32,
};
constexpr int kNumConvertPairs = 34;

// nt: stream the stores past the caches (the output is large).
using ConvertRowFn = void (*)(char* dst, const char* src, int64_t n, bool nt);

// A converting transpose from a tiny contiguous src dim: src holds rows of
// `cols` (2 to 4) adjacent elements, dst row j (at dst + j*dst_col) gets
// element j of each src row, converted: dst[j*dst_col + i] = src[i*cols + j].
// Returns false, writing nothing, when the level has no kernel for it.
using ConvertDeinterleaveFn = bool (*)(ConvertPair pair, char* dst, int64_t dst_col, const char* src, int64_t rows,
                                       int64_t cols, bool nt);

struct ConvertKernelTable {
  const char* name;
  ConvertRowFn row[kNumConvertPairs];
  ConvertDeinterleaveFn deinterleave;  // may be null
};

const ConvertKernelTable& scalar_convert_kernels();
const ConvertKernelTable& avx2_convert_kernels();    // call only at CpuIsa::Avx2 or above
const ConvertKernelTable& avx512_convert_kernels();  // call only at CpuIsa::Avx512
// The AVX-512 table with float32 -> bfloat16 by AVX512_BF16's instruction:
// call only where cpu_has_avx512_bf16().
const ConvertKernelTable& avx512_bf16_convert_kernels();
const ConvertKernelTable& neon_convert_kernels();    // call only at CpuIsa::Neon

// The table for cpu_isa() now.
const ConvertKernelTable& active_convert_kernels();

}  // namespace cpu
}  // namespace st
