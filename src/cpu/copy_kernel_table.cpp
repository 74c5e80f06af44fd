#include "cpu/copy_kernel_table.h"

#include "cpu/cpu_isa.h"

namespace st {
namespace cpu {

const CopyKernelTable& active_copy_kernels() {
  return for_cpu_isa(scalar_copy_kernels, avx2_copy_kernels, avx512_copy_kernels);
}

}  // namespace cpu
}  // namespace st
