// The copy kernels (copy_kernels.inl) at the portable level: the fallback
// on every machine and the level the tests check the others against.
#include "cpu/vec/vec_scalar.h"
#include "cpu/levels/copy_kernels.inl"

const st::cpu::CopyKernelTable& st::cpu::scalar_copy_kernels() { return kCopyKernels<VecScalar>; }
