// The block-scaled formats' rows (block_rows.inl) at the portable level: the
// fallback on every machine.
#include "cpu/vec/vec_scalar.h"
#include "cpu/levels/block_rows.inl"

const st::cpu::BlockRowsTable& st::cpu::scalar_block_rows() { return kBlockRows<VecScalar>; }
