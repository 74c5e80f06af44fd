// Memory overlap analysis, as PyTorch's MemoryOverlap but with stride's own
// rules (include/stride.h, st_copy): a tensor that is written must be provably
// free of self-overlap, and two tensors are compared by the bytes they touch.
#pragma once

#include "core/tensor.h"

namespace st {

// True when no two elements of the layout share an address, proven by the
// rule of st_copy's ST_ERROR_OVERLAP in include/stride.h: take the dims of
// size > 1 and sort them by |stride|; each |stride| must exceed the span
// Σ (size − 1)·|stride| of the dims before it. A stride 0 on a dim of
// size > 1 always fails; negative strides count by their magnitude. A
// layout without elements is non-overlapping. Exact for any int64 values
// (saturating arithmetic: no overflow).
bool is_non_overlapping(const DimVector& sizes, const DimVector& strides);
bool is_non_overlapping(const Tensor& t);

// Throws ST_ERROR_OVERLAP unless is_non_overlapping(t); the message names
// `what` ("the output"), its sizes and its strides.
void assert_no_internal_overlap(const Tensor& t, const char* what);

enum class OverlapStatus {
  No,       // no byte is touched by both
  Full,     // the very same elements in the same order: copying one into the other is a no-op
  Partial,  // the byte ranges intersect otherwise (conservative: interleaved views land here too)
};

// How the elements of `a` and `b` share memory. Decided by addresses, not by
// storage identity, so two storages wrapping the same memory (from_data
// twice) are still seen to overlap, and tensors on different storages over
// different memory never do. Full needs the same data pointer, dtype and
// sizes, and the same strides on every dim of size > 1. Tensors without
// elements never overlap. Under CUDA's unified addressing the host and every
// device occupy distinct address ranges, so comparing across devices is sound.
OverlapStatus get_overlap_status(const Tensor& a, const Tensor& b);

// Throws ST_ERROR_OVERLAP when get_overlap_status(out, in) is Partial (as
// PyTorch's assert_no_partial_overlap); the message names both layouts.
void assert_no_partial_overlap(const Tensor& out, const Tensor& in, const char* out_name, const char* in_name);

}  // namespace st
