// The copy kernels (copy_kernels.inl) at the AVX-512 level, built with its
// flags (chosen by folder in src/CMakeLists.txt).
#include "cpu/vec/vec_avx512.h"
#include "cpu/levels/copy_kernels.inl"

const st::cpu::CopyKernelTable& st::cpu::avx512_copy_kernels() { return kCopyKernels<VecAvx512>; }
