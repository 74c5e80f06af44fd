// Layout predicates and stride builders, computed as PyTorch computes them
// (c10/core/Contiguity.h, TensorImpl::compute_*): dims of size 1 never
// decide anything, an empty tensor is contiguous, and the channels-last
// rules apply their stride test even to empty tensors.
#pragma once

#include "core/dim_vector.h"
#include "core/memory_format.h"

namespace st {

bool compute_contiguous(const DimVector& sizes, const DimVector& strides, int64_t numel);
bool compute_channels_last_2d(const DimVector& sizes, const DimVector& strides);
bool compute_channels_last_3d(const DimVector& sizes, const DimVector& strides);
// Some permutation of the dims is contiguous (no gaps, no overlap, no negative stride).
bool compute_non_overlapping_and_dense(const DimVector& sizes, const DimVector& strides);

// The stride builders throw ST_ERROR_OUT_OF_MEMORY when a stride overflows
// int64 (as PyTorch's "Stride calculation overflowed"); in a tensor with no
// elements such a stride is 0 instead.

// Row-major strides; a size-0 dim counts as 1 (as PyTorch).
DimVector contiguous_strides(const DimVector& sizes);
// NHWC order for a 4-d NCHW shape / NDHWC for a 5-d NCDHW shape, from the
// sizes as they are (as PyTorch): a size-0 dim makes the slower strides 0.
DimVector channels_last_strides_2d(const DimVector& sizes);
DimVector channels_last_strides_3d(const DimVector& sizes);
// Dense strides in the stride order of `strides` (PyTorch's
// infer_dense_strides, the same order TensorIterator picks). Negative
// strides count by their absolute value (NumPy's order 'K').
DimVector infer_dense_strides(const DimVector& sizes, const DimVector& strides);

}  // namespace st
