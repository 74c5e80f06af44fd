// The scaled copies' rows (scaled_rows.inl) at the portable level: the
// element rule, the fallback on every machine.
#include "cpu/vec/vec_scalar.h"
#include "cpu/levels/scaled_rows.inl"

const st::cpu::ScaledRowsTable& st::cpu::scalar_scaled_rows() { return kScaledRows<VecScalar>; }
