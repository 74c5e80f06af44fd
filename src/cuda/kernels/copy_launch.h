// Launches of the copy and fill kernels on a stream of the current device.
// Each checks its own launch's status and throws with the runtime's error
// (Note [A launch reports its own error] in cuda/kernels/kernel_launch.h). The kernels live in .cu files split so that no one
// translation unit instantiates more than a few dozen of them:
//   copy_same_dtype.cu      bytes, strided and transpose kernels by element size;
//   copy_convert_part*.cu   the converting pairs, split by source dtype;
//   copy_scaled.cu          the scaled copies, one kernel per pair of real dtypes;
//   fill.cu                 fill by element size.
#pragma once

#include <cuda_runtime_api.h>

#include "core/numeric/dtype.h"
#include "cuda/kernels/copy_args.h"

namespace st {
namespace cuda {

// ---- Same dtype: elements are moved as raw bytes of `item_size` (1, 2, 4, 8 or 16).
void launch_copy_bytes(const BytesCopyArgs& args, cudaStream_t stream);
// `aligned`: both data pointers are multiples of item_size (else byte-wise elements).
void launch_copy_strided_same(int item_size, bool aligned, const StridedCopyArgs& args, cudaStream_t stream);
void launch_copy_transpose_same(int item_size, const TransposeCopyArgs& args, cudaStream_t stream);

// ---- Conversions from `src_t` (a dtype's C++ type) to dtype `dst`, a pair
// with has_converting_kernels (cuda/kernels/device_conversions.h), operands aligned
// to their element size. ConvertingCopies<src_t> (kPart 0) is explicitly
// instantiated for every dtype by the copy_convert_part*.cu files (Note
// [Splitting the converting copies] in cuda/kernels/copy_convert.cuh).
template <typename src_t, int kPart = 0>
struct ConvertingCopies {
  static void vectorized(ScalarType dst, const VectorCopyArgs& args, cudaStream_t stream);
  static void strided(ScalarType dst, const StridedCopyArgs& args, cudaStream_t stream);
  static void transpose(ScalarType dst, const TransposeCopyArgs& args, cudaStream_t stream);
};

// ---- Scaled copies (include/stride.h, st_copy_scaled) between real dtypes,
// operands aligned to their element size.
void launch_copy_scaled(ScalarType dst, ScalarType src, const ScaledCopyArgs& args, cudaStream_t stream);

// ---- Fill with the `item_size`-byte element at the start of the pattern.
void launch_fill_contiguous(int item_size, const FillContiguousArgs& args, cudaStream_t stream);
// `value` holds the element's bytes; `aligned` as above.
void launch_fill_strided(int item_size, bool aligned, char* dst, const OffsetCalculator<1>& offsets, uint32_t numel,
                         const Word16& value, cudaStream_t stream);

}  // namespace cuda
}  // namespace st
