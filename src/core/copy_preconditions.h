// What st_copy demands of its operands before any byte moves, shared by
// every backend's copy_ kernel so that CPU and CUDA answer alike.
#pragma once

#include "core/overlap.h"
#include "core/tensor.h"

namespace st {

enum class CopyAction {
  Nothing,      // no element to copy, or dst and src are the very same elements
  Direct,       // copy straight from src into dst
  ViaTemporary  // src and dst share memory: read src in full first
};

// Checks, in this order: a pair of dtypes the conversion rules take
// (ST_ERROR_UNSUPPORTED_DTYPE: float4_e2m1fn_x2 copies only to itself), dst
// writable (ST_ERROR_READ_ONLY for a read-only import), src broadcastable
// to dst's shape and never the reverse
// (ST_ERROR_SHAPE_MISMATCH naming both shapes), dst provably free of
// self-overlap (ST_ERROR_OVERLAP). Then says how to copy. A copy that
// changes the values (`transforms`: a scaled copy) of the very same
// elements runs in place (Direct), each element read before it is written.
CopyAction check_copy(const Tensor& dst, const Tensor& src, bool transforms = false);

// The checks of check_copy that depend on metadata alone (not on where the
// data lies): what a copy plan checks once, when it is made.
void check_copy_layouts(const Tensor& dst, const Tensor& src);

// Throws ST_ERROR_READ_ONLY when `t` views memory its producer marked read-only.
void check_writable(const Tensor& t, const char* name);

// Throws ST_ERROR_UNSUPPORTED_DTYPE unless the conversion rules take
// dst <- src (float4_e2m1fn_x2 copies only to itself): the first check of
// check_copy, and what st_to asks before it allocates its result.
void check_converts(ScalarType dst, ScalarType src);

// What st_fill demands of dst: a dtype that holds one number
// (ST_ERROR_UNSUPPORTED_DTYPE for float4_e2m1fn_x2), and writable.
void check_fill(const Tensor& dst);

// Throws ST_ERROR_SHAPE_MISMATCH unless `src` broadcasts to `dst_sizes`
// (aligned from the right; src may have fewer dims, and a src dim is 1 or equal).
void check_broadcastable_to(const DimVector& src_sizes, const DimVector& dst_sizes);

}  // namespace st
