// The block-scaled formats' rows (block_rows.inl) at the NEON level, built
// for AArch64 targets only (src/CMakeLists.txt).
#include "cpu/vec/vec_neon.h"
#include "cpu/levels/block_rows.inl"

const st::cpu::BlockRowsTable& st::cpu::neon_block_rows() { return kBlockRows<VecNeon>; }
