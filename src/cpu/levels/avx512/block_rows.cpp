// The block-scaled formats' rows (block_rows.inl) at the AVX-512 level, built
// with its flags (chosen by folder in src/CMakeLists.txt).
#include "cpu/vec/vec_avx512.h"
#include "cpu/levels/block_rows.inl"

const st::cpu::BlockRowsTable& st::cpu::avx512_block_rows() { return kBlockRows<VecAvx512>; }
