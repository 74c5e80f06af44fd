// What the memory system gives each half of a copy on its own: the source
// view only read, the destination only written, each in its own memory
// order (the order that operand alone streams best in), on the same
// threads as the copy.
//
// Note [Each operand alone]
// A copy cannot beat the slower of its two halves run alone. When both run
// at memcpy's byte rate or better (every permutation does: its source is a
// whole contiguous tensor read in another order), the copy's shortfall is
// not the memory system's bandwidth for its operands but the price of
// reading in one order and writing in another (Note [Transpose blocking] in
// src/cpu/levels/transpose_blocked.h); when one half alone is slow (a strided
// slice reads every cache line for half the elements), that half names the
// limit.
#pragma once

#include <cstdint>

#include "tensor_data.h"

namespace bench {

// Reads every element of `t` once (a broadcast element once per use) in t's
// memory order, folding them into a value that the compiler must assume is
// used, so that it keeps the reads. The bytes between elements less
// than a cache line apart are read too: the memory system moves whole
// lines either way.
void read_in_memory_order(const Layout& t, int threads);

// Writes every element of `t` once in t's memory order; contiguous runs with
// memset, or with streaming stores when `streaming`.
void write_in_memory_order(const Layout& t, int threads, bool streaming);

}  // namespace bench
