// The scaled copies' rows (scaled_rows.inl) at the NEON level, built for
// AArch64 targets only (src/CMakeLists.txt).
#include "cpu/vec/vec_neon.h"
#include "cpu/levels/scaled_rows.inl"

const st::cpu::ScaledRowsTable& st::cpu::neon_scaled_rows() { return kScaledRows<VecNeon>; }
