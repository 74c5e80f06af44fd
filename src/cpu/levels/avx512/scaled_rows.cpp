// The scaled copies' rows (scaled_rows.inl) at the AVX-512 level, built
// with its flags (chosen by folder in src/CMakeLists.txt).
#include "cpu/vec/vec_avx512.h"
#include "cpu/levels/scaled_rows.inl"

const st::cpu::ScaledRowsTable& st::cpu::avx512_scaled_rows() { return kScaledRows<VecAvx512>; }
