// The kernel tables of the level cpu_isa() selects now; the scalar ones on
// a target with neither the x86 levels nor NEON (cpu/cpu_isa.h).
#include "cpu/cpu_isa.h"
#include "cpu/levels/block_rows.h"
#include "cpu/levels/convert_kernel_table.h"
#include "cpu/levels/copy_kernel_table.h"
#include "cpu/levels/scaled_rows.h"

namespace st {
namespace cpu {

#if ST_CPU_X86_LEVELS
const CopyKernelTable& active_copy_kernels() {
  return for_cpu_isa(scalar_copy_kernels, avx2_copy_kernels, avx512_copy_kernels);
}

const ConvertKernelTable& active_convert_kernels() {
  return for_cpu_isa(scalar_convert_kernels, avx2_convert_kernels,
                     cpu_has_avx512_bf16() ? avx512_bf16_convert_kernels : avx512_convert_kernels);
}

const ScaledRowsTable& active_scaled_rows() {
  return for_cpu_isa(scalar_scaled_rows, avx2_scaled_rows, avx512_scaled_rows);
}

const BlockRowsTable& active_block_rows() {
  return for_cpu_isa(scalar_block_rows, avx2_block_rows,
                     cpu_has_avx512_bf16() ? avx512_bf16_block_rows : avx512_block_rows);
}
#elif ST_CPU_NEON_LEVEL
const CopyKernelTable& active_copy_kernels() { return for_cpu_isa(scalar_copy_kernels, neon_copy_kernels); }

const ConvertKernelTable& active_convert_kernels() {
  return for_cpu_isa(scalar_convert_kernels, neon_convert_kernels);
}

const ScaledRowsTable& active_scaled_rows() { return for_cpu_isa(scalar_scaled_rows, neon_scaled_rows); }

const BlockRowsTable& active_block_rows() { return for_cpu_isa(scalar_block_rows, neon_block_rows); }
#else
const CopyKernelTable& active_copy_kernels() { return scalar_copy_kernels(); }
const ConvertKernelTable& active_convert_kernels() { return scalar_convert_kernels(); }
const ScaledRowsTable& active_scaled_rows() { return scalar_scaled_rows(); }
const BlockRowsTable& active_block_rows() { return scalar_block_rows(); }
#endif

}  // namespace cpu
}  // namespace st
