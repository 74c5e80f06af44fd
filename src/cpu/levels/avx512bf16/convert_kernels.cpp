// The AVX-512 row converters with float32 -> bfloat16 by AVX512_BF16's
// instruction, built with the AVX-512 flags and -mavx512bf16 (chosen by
// folder in src/CMakeLists.txt); active_kernel_tables.cpp hands it out
// on CPUs that have it (cpu_has_avx512_bf16).
#include "cpu/vec/vec_avx512.h"
#include "cpu/levels/convert_kernels.inl"

namespace st {
namespace cpu {
namespace {

// Note [bfloat16 by its instruction]
// VCVTNE2PS2BF16 rounds two vectors of float32 to nearest even into one of
// bfloat16, as the rule does, and quiets a NaN keeping its upper bits, as
// the rule does; but it treats a subnormal input as zero. A line holding
// one (rare in practice) goes the integer way (bf16_lanes). The instruction
// and the check take about half the time of the integer rounding
// (docs/tuning.md, "Why").
struct F32ToBF16ByInstruction : F32ToBF16 {
  template <class V>
  static typename V::Vec line(typename V::Vec a, typename V::Vec b) {
    constexpr int kSubnormal = 0x20;  // VFPCLASSPS's "denormal"
    const __m512 fa = _mm512_castsi512_ps(a), fb = _mm512_castsi512_ps(b);
    if (ST_UNLIKELY((_mm512_fpclass_ps_mask(fa, kSubnormal) | _mm512_fpclass_ps_mask(fb, kSubnormal)) != 0)) {
      return V::narrow_u32_u16(bf16_lanes<V, true>(a), bf16_lanes<V, true>(b));
    }
    return reinterpret_cast<__m512i>(_mm512_cvtne2ps_pbh(fb, fa));  // b's elements in the upper half
  }
};

}  // namespace
}  // namespace cpu
}  // namespace st

// The AVX-512 table with that one row replaced: made at the first call
// (nothing of a level's file runs when the library loads).
const st::cpu::ConvertKernelTable& st::cpu::avx512_bf16_convert_kernels() {
  static const ConvertKernelTable table = [] {
    ConvertKernelTable t = avx512_convert_kernels();
    t.name = "avx512_bf16";
    t.row[static_cast<int>(ConvertPair::Float32ToBFloat16)] = row<VecAvx512, F32ToBF16ByInstruction>;
    return t;
  }();
  return table;
}
