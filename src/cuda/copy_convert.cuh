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
#error "define ST_CONVERT_PART (0 to kConvertParts - 1) before including cuda/copy_convert.cuh"
#endif

#include <type_traits>

#include "core/dtype_dispatch.h"
#include "cuda/copy_kernels.cuh"
#include "cuda/copy_launch.h"

namespace st {
namespace cuda {

constexpr int kConvertParts = 4;

[[noreturn]] inline void fail_same_dtype_conversion(const char* kernel, ScalarType t) {
  fail(ST_ERROR_INTERNAL, "%s: a same-dtype copy (%s) reached the converting kernels", kernel,
       dtype_name(static_cast<int32_t>(t)));
}

// Same-dtype copies take the raw-byte kernels, so dst_t == src_t is never launched here.
template <typename src_t, int kPart>
void ConvertingCopies<src_t, kPart>::vectorized(ScalarType dst, const VectorCopyArgs& args, cudaStream_t stream) {
  ST_DISPATCH_ALL_TYPES_AS(dst, "vectorized copy", dst_t, [&] {
    if constexpr (std::is_same<dst_t, src_t>::value) {
      fail_same_dtype_conversion("vectorized copy", dst);
    } else {
      launch_vectorized<dst_t, src_t>(args, stream);
    }
  });
}

template <typename src_t, int kPart>
void ConvertingCopies<src_t, kPart>::strided(ScalarType dst, const StridedCopyArgs& args, cudaStream_t stream) {
  ST_DISPATCH_ALL_TYPES_AS(dst, "strided copy", dst_t, [&] {
    if constexpr (std::is_same<dst_t, src_t>::value) {
      fail_same_dtype_conversion("strided copy", dst);
    } else {
      launch_strided<dst_t, src_t>(args, stream);
    }
  });
}

template <typename src_t, int kPart>
void ConvertingCopies<src_t, kPart>::transpose(ScalarType dst, const TransposeCopyArgs& args, cudaStream_t stream) {
  ST_DISPATCH_ALL_TYPES_AS(dst, "transpose copy", dst_t, [&] {
    if constexpr (std::is_same<dst_t, src_t>::value) {
      fail_same_dtype_conversion("transpose copy", dst);
    } else {
      launch_transpose<dst_t, src_t>(args, stream);
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
