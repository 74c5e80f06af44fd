// The copy kernels (copy_kernels.inl) at the NEON level, built for
// AArch64 targets only (src/CMakeLists.txt).
#include "cpu/vec/vec_neon.h"
#include "cpu/levels/copy_kernels.inl"

const st::cpu::CopyKernelTable& st::cpu::neon_copy_kernels() { return kCopyKernels<VecNeon>; }
