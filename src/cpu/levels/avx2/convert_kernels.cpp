// The row converters (convert_kernels.inl) at the AVX2 level, built with
// its flags (chosen by folder in src/CMakeLists.txt).
#include "cpu/vec/vec_avx2.h"
#include "cpu/levels/convert_kernels.inl"

const st::cpu::ConvertKernelTable& st::cpu::avx2_convert_kernels() { return convert_kernels<VecAvx2>(); }
