// Views: new TensorImpls over the same storage, with PyTorch's rules plus
// negative strides. Each validates its arguments and throws st::Error with a
// message naming the argument and its value; none touches the data.
#pragma once

#include "core/tensor.h"

namespace st {

Tensor as_strided(const Tensor& src, const DimVector& sizes, const DimVector& strides, int64_t storage_offset);
Tensor permute(const Tensor& src, const InlineVector<int32_t>& dims);
Tensor transpose(const Tensor& src, int32_t dim0, int32_t dim1);
Tensor slice(const Tensor& src, int32_t dim, int64_t start, int64_t stop, int64_t step);
Tensor select(const Tensor& src, int32_t dim, int64_t index);
Tensor expand(const Tensor& src, const DimVector& sizes);
Tensor unsqueeze(const Tensor& src, int32_t dim);
Tensor squeeze(const Tensor& src, int32_t dim);
Tensor flip(const Tensor& src, int32_t dim);
Tensor view(const Tensor& src, const DimVector& sizes);

// The same elements with every dim of stride 0 (an expanded dim) shrunk to
// size 1: each address once. For fills, where an expanded dst is allowed.
Tensor without_broadcast_dims(const Tensor& src);

// Replaces one -1 in `shape` by what makes the element count `numel`
// (PyTorch's infer_size). Throws INVALID_ARGUMENT / SHAPE_MISMATCH.
DimVector infer_size(const DimVector& shape, int64_t numel);

// PyTorch's computeStride: strides that show `new_sizes` over the elements
// of (sizes, strides) in the same order, or false when no view can.
bool compute_view_strides(const DimVector& sizes, const DimVector& strides, int64_t numel,
                          const DimVector& new_sizes, DimVector* new_strides);

}  // namespace st
