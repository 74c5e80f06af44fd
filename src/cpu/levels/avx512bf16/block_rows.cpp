// The block-scaled formats' rows (block_rows.inl) at the AVX-512 level with
// dequantizing into bfloat16 rounded by AVX512_BF16's instruction, built
// with the AVX-512 flags and -mavx512bf16 (chosen by folder in
// src/CMakeLists.txt); active_kernel_tables.cpp hands it out on CPUs that
// have it (cpu_has_avx512_bf16).
#include "cpu/vec/vec_avx512.h"

namespace st {
namespace cpu {
namespace {

// VCVTNEPS2BF16 rounds to nearest even as the integer steps do, but takes
// a subnormal as zero: the block rows give it none (store_as).
struct VecAvx512Bf16 : VecAvx512 {
  static constexpr const char* kName = "avx512_bf16";
  static constexpr bool kBf16Store = true;
  static void store_bf16(char* p, Vec v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p),
                        reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(_mm512_castsi512_ps(v))));
  }
};

}  // namespace
}  // namespace cpu
}  // namespace st

#include "cpu/levels/block_rows.inl"

const st::cpu::BlockRowsTable& st::cpu::avx512_bf16_block_rows() { return kBlockRows<VecAvx512Bf16>; }
