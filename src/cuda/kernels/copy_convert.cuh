// The converting copies from one source dtype to every other, for the
// copy_convert_part*.cu files.
//
// Note [Splitting the converting copies]
// Every (dst, src) pair has three kernels, too many for one translation
// unit to compile in reasonable time, so the pairs are split by source
// dtype over kConvertParts files. Part k defines ST_CONVERT_PART to k and
// includes this header, which walks the dtype table (Note [The dtype
// table]) and explicitly instantiates ConvertingCopies<src_t> for the
// dtypes whose value is k modulo kConvertParts. The other rows instantiate
// an empty ConvertingCopies<src_t, k + 1> instead (an explicit
// instantiation cannot be skipped by a condition), which names each of
// those specializations in exactly one file. A new dtype needs no edit here.
#pragma once

#ifndef ST_CONVERT_PART
#error "define ST_CONVERT_PART (0 to kConvertParts - 1) before including cuda/kernels/copy_convert.cuh"
#endif

#include "core/numeric/dtype_dispatch.h"
#include "cuda/kernels/copy_kernels.cuh"
#include "cuda/kernels/copy_launch.h"
#include "cuda/kernels/device_conversions.h"

namespace st {
namespace cuda {

constexpr int kConvertParts = 4;

[[noreturn]] inline void fail_no_converting_kernel(const char* kernel, ScalarType dst, ScalarType src) {
  fail(ST_ERROR_INTERNAL, "%s: %s <- %s has no converting kernel (Note [Integer conversions on the device])", kernel,
       dtype_name(static_cast<int32_t>(dst)), dtype_name(static_cast<int32_t>(src)));
}

// Pairs that copy bits take the raw-byte kernels, and integer pairs the
// kernels of the unsigned destination (Note [Integer conversions on the
// device]): only has_converting_kernels pairs are instantiated.
template <typename src_t, int kPart>
void ConvertingCopies<src_t, kPart>::vectorized(ScalarType dst, const VectorCopyArgs& args, cudaStream_t stream) {
  ST_DISPATCH_ALL_TYPES_AS(dst, "vectorized copy", dst_t, [&] {
    if constexpr (has_converting_kernels(scalar_type_of<dst_t>, scalar_type_of<src_t>)) {
      launch_vectorized<dst_t, src_t>(args, stream);
    } else {
      fail_no_converting_kernel("vectorized copy", dst, scalar_type_of<src_t>);
    }
  });
}

template <typename src_t, int kPart>
void ConvertingCopies<src_t, kPart>::strided(ScalarType dst, const StridedCopyArgs& args, cudaStream_t stream) {
  ST_DISPATCH_ALL_TYPES_AS(dst, "strided copy", dst_t, [&] {
    if constexpr (has_converting_kernels(scalar_type_of<dst_t>, scalar_type_of<src_t>)) {
      launch_strided<dst_t, src_t>(args, stream);
    } else {
      fail_no_converting_kernel("strided copy", dst, scalar_type_of<src_t>);
    }
  });
}

template <typename src_t, int kPart>
void ConvertingCopies<src_t, kPart>::transpose(ScalarType dst, const TransposeCopyArgs& args, cudaStream_t stream) {
  ST_DISPATCH_ALL_TYPES_AS(dst, "transpose copy", dst_t, [&] {
    if constexpr (has_converting_kernels(scalar_type_of<dst_t>, scalar_type_of<src_t>)) {
      launch_transpose<dst_t, src_t>(args, stream);
    } else {
      fail_no_converting_kernel("transpose copy", dst, scalar_type_of<src_t>);
    }
  });
}

// The placeholder the rows of other parts instantiate: no kernels.
template <typename src_t>
struct ConvertingCopies<src_t, ST_CONVERT_PART + 1> {};

}  // namespace cuda
}  // namespace st

#define ST_INSTANTIATE_CONVERTING_COPIES_(NAME_, CPP_TYPE, VALUE, ...)                         \
  template struct ::st::cuda::ConvertingCopies<CPP_TYPE, (VALUE) % ::st::cuda::kConvertParts == \
                                                                 ST_CONVERT_PART                \
                                                             ? 0                                \
                                                             : ST_CONVERT_PART + 1>;
ST_FORALL_DTYPES(ST_INSTANTIATE_CONVERTING_COPIES_, )
#undef ST_INSTANTIATE_CONVERTING_COPIES_
