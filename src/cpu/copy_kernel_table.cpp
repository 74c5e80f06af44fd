#include "cpu/copy_kernel_table.h"

#include "cpu/cpu_isa.h"

namespace st {
namespace cpu {

const CopyKernelTable& active_copy_kernels() {
  switch (cpu_isa()) {
    case CpuIsa::Avx512: return avx512_copy_kernels();
    case CpuIsa::Avx2: return avx2_copy_kernels();
    case CpuIsa::Scalar: break;
  }
  return scalar_copy_kernels();
}

}  // namespace cpu
}  // namespace st
