// The block-scaled formats' rows (block_rows.inl) at the AVX2 level, built
// with its flags (chosen by folder in src/CMakeLists.txt).
#include "cpu/vec/vec_avx2.h"
#include "cpu/levels/block_rows.inl"

const st::cpu::BlockRowsTable& st::cpu::avx2_block_rows() { return kBlockRows<VecAvx2>; }
