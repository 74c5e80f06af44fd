#include "cpu/convert_kernel_table.h"

#include "cpu/cpu_isa.h"

namespace st {
namespace cpu {

const ConvertKernelTable& active_convert_kernels() {
  switch (cpu_isa()) {
    case CpuIsa::Avx512: return avx512_convert_kernels();
    case CpuIsa::Avx2: return avx2_convert_kernels();
    case CpuIsa::Scalar: break;
  }
  return scalar_convert_kernels();
}

}  // namespace cpu
}  // namespace st
