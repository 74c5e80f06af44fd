// The block rows' tables (cpu/levels/block_rows.h) of every level this
// CPU runs, the scalar one first: what the block row tests call directly.
#pragma once

#include <cstdio>
#include <vector>

#include "cpu/cpu_isa.h"
#include "cpu/levels/block_rows.h"

inline std::vector<const st::cpu::BlockRowsTable*> block_row_levels() {
  namespace cpu = st::cpu;
  std::vector<const cpu::BlockRowsTable*> v{&cpu::scalar_block_rows()};
#if ST_CPU_X86_LEVELS
  const cpu::CpuIsa detected = cpu::detected_cpu_isa();
  if (detected >= cpu::CpuIsa::Avx2) v.push_back(&cpu::avx2_block_rows());
  if (detected >= cpu::CpuIsa::Avx512) v.push_back(&cpu::avx512_block_rows());
  if (cpu::cpu_has_avx512_bf16()) {
    v.push_back(&cpu::avx512_bf16_block_rows());
  } else if (detected >= cpu::CpuIsa::Avx512) {
    static const bool said = std::printf("AVX512_BF16's block rows not checked: this CPU lacks AVX512_BF16\n") > 0;
    (void)said;
  }
#elif ST_CPU_NEON_LEVEL
  if (cpu::detected_cpu_isa() >= cpu::CpuIsa::Neon) v.push_back(&cpu::neon_block_rows());
#endif
  return v;
}
