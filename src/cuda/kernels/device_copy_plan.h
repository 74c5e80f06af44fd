// Which copy kernel moves one 32-bit part of a device-to-device copy. Host
// code, a pure function of the part's geometry, dtypes and addresses, so
// that the choice and the plans it carries are tested on the host. A part
// is a TensorIterator or a CopyPart (cuda/kernels/copy_part.h): the same accessors.
//
//  - Bytes: the same bits on both sides (one dtype, or integers of one
//    width: Note [Integer conversions on the device]), contiguous on both
//    sides — a byte range moved in the widest words both addresses allow
//    (Note [Vectorized contiguous copies]);
//  - Vectorized: a conversion, contiguous on both sides, with a head that
//    aligns both to 16 bytes;
//  - Transpose: dst and src fastest along different dims
//    (Note [When to transpose through tiles]);
//  - Strided: everything else, through an OffsetCalculator.
#pragma once

#include <cstdint>

#include "core/error.h"
#include "cuda/kernels/device_conversions.h"
#include "cuda/kernels/transpose_plan.h"
#include "cuda/kernels/vectorize.h"
#include "iter/tensor_iterator.h"

namespace st {
namespace cuda {

enum class CopyKernel { Bytes, Vectorized, Transpose, Strided };

struct DeviceCopyPlan {
  CopyKernel kernel;
  // dst and src hold the same bits (copies_bits): the raw-byte kernels.
  bool same;
  // The dtype the converting kernels write (conversion_kernel_dst).
  ScalarType kernel_dst;
  // Every operand's address is a multiple of its element size (byte strides
  // always are). Copies of unaligned memory that keep the bits take
  // byte-wise elements; conversions need aligned operands (the caller stages).
  bool aligned;
  BytesPlan bytes;         // Bytes
  VectorPlan vector;       // Vectorized
  int transpose_col = 0;   // Transpose: the dim along which src is fastest
};

inline bool is_aligned_to(const void* p, int64_t size) {
  return reinterpret_cast<uintptr_t>(p) % static_cast<uintptr_t>(size) == 0;
}

// The tensor's element (0, …, 0) sits at a multiple of its element size.
inline bool element_aligned(const Tensor& t) { return is_aligned_to(t.data(), static_cast<int64_t>(t.itemsize())); }

// `part` (dst is operand 0, src operand 1) fits 32-bit indexing and has elements.
template <typename Part>
DeviceCopyPlan plan_device_copy(const Part& part) {
  const bool same = copies_bits(part.dtype(0), part.dtype(1));
  const int64_t dsize = part.element_size(0), ssize = part.element_size(1);
  DeviceCopyPlan plan{};
  plan.same = same;
  plan.kernel_dst = conversion_kernel_dst(part.dtype(0), part.dtype(1));
  plan.aligned = is_aligned_to(part.data_ptr(0), dsize) && is_aligned_to(part.data_ptr(1), ssize);
  ST_CHECK(same || plan.aligned, ST_ERROR_INTERNAL,
           "device copy: a conversion between unaligned operands reached the kernels unstaged");
  const uintptr_t dst = reinterpret_cast<uintptr_t>(part.data_ptr(0));
  const uintptr_t src = reinterpret_cast<uintptr_t>(part.data_ptr(1));
  if (part.is_contiguous()) {
    if (same) {
      plan.kernel = CopyKernel::Bytes;
      plan.bytes = plan_copy_bytes(dst, src, part.numel() * dsize);
      return plan;
    }
    plan.vector = plan_vectorized(dst, src, static_cast<int>(dsize), static_cast<int>(ssize), part.numel());
    if (plan.vector.vec != 0) {
      plan.kernel = CopyKernel::Vectorized;
      return plan;
    }
  }
  if (plan.aligned) {
    plan.transpose_col = transpose_col_dim(part);
    if (plan.transpose_col != 0) {
      plan.kernel = CopyKernel::Transpose;
      return plan;
    }
  }
  plan.kernel = CopyKernel::Strided;
  return plan;
}

}  // namespace cuda
}  // namespace st
