// The row converters (convert_kernels.inl) at the portable level: the
// fallback on every machine and the level the tests check the others
// against.
#include "cpu/vec/vec_scalar.h"
#include "cpu/levels/convert_kernels.inl"

const st::cpu::ConvertKernelTable& st::cpu::scalar_convert_kernels() { return convert_kernels<VecScalar>(); }
