// The row converters (convert_kernels.inl) at the NEON level, built for
// AArch64 targets only (src/CMakeLists.txt).
#include "cpu/vec/vec_neon.h"
#include "cpu/levels/convert_kernels.inl"

const st::cpu::ConvertKernelTable& st::cpu::neon_convert_kernels() { return convert_kernels<VecNeon>(); }
