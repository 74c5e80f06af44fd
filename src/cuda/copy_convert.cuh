// The converting copies from one source dtype to each of the 11 others,
// for the copy_convert_from_*.cu files: each includes this and instantiates
// ST_INSTANTIATE_CONVERTING_COPIES(src_t) for its few source types, so the
// 132 pairs × 3 kernels spread over several translation units.
#pragma once

#include <type_traits>

#include "core/dtype_dispatch.h"
#include "cuda/copy_kernels.cuh"
#include "cuda/copy_launch.h"

namespace st {
namespace cuda {

[[noreturn]] inline void fail_same_dtype_conversion(const char* kernel, ScalarType t) {
  fail(ST_ERROR_INTERNAL, "%s: a same-dtype copy (%s) reached the converting kernels", kernel,
       dtype_name(static_cast<int32_t>(t)));
}

// Same-dtype copies take the raw-byte kernels, so dst_t == src_t is never launched here.
template <typename src_t>
void launch_convert_vectorized(ScalarType dst, const VectorCopyArgs& args, cudaStream_t stream) {
  ST_DISPATCH_ALL_TYPES_AS(dst, "vectorized copy", dst_t, [&] {
    if constexpr (std::is_same<dst_t, src_t>::value) {
      fail_same_dtype_conversion("vectorized copy", dst);
    } else {
      launch_vectorized<dst_t, src_t>(args, stream);
    }
  });
}

template <typename src_t>
void launch_convert_strided(ScalarType dst, const StridedCopyArgs& args, cudaStream_t stream) {
  ST_DISPATCH_ALL_TYPES_AS(dst, "strided copy", dst_t, [&] {
    if constexpr (std::is_same<dst_t, src_t>::value) {
      fail_same_dtype_conversion("strided copy", dst);
    } else {
      launch_strided<dst_t, src_t>(args, stream);
    }
  });
}

template <typename src_t>
void launch_convert_transpose(ScalarType dst, const TransposeCopyArgs& args, cudaStream_t stream) {
  ST_DISPATCH_ALL_TYPES_AS(dst, "transpose copy", dst_t, [&] {
    if constexpr (std::is_same<dst_t, src_t>::value) {
      fail_same_dtype_conversion("transpose copy", dst);
    } else {
      launch_transpose<dst_t, src_t>(args, stream);
    }
  });
}

}  // namespace cuda
}  // namespace st

#define ST_INSTANTIATE_CONVERTING_COPIES(src_t)                                                                     \
  template void st::cuda::launch_convert_vectorized<src_t>(::st::ScalarType, const ::st::cuda::VectorCopyArgs&,    \
                                                           cudaStream_t);                                           \
  template void st::cuda::launch_convert_strided<src_t>(::st::ScalarType, const ::st::cuda::StridedCopyArgs&,      \
                                                        cudaStream_t);                                              \
  template void st::cuda::launch_convert_transpose<src_t>(::st::ScalarType, const ::st::cuda::TransposeCopyArgs&,  \
                                                          cudaStream_t)
