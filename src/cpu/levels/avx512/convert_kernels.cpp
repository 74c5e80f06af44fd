// The row converters (convert_kernels.inl) at the AVX-512 level, built with
// its flags (chosen by folder in src/CMakeLists.txt).
#include "cpu/vec/vec_avx512.h"
#include "cpu/levels/convert_kernels.inl"

const st::cpu::ConvertKernelTable& st::cpu::avx512_convert_kernels() { return convert_kernels<VecAvx512>(); }
