// CopyPart: one part of a device copy's iteration that fits 32-bit
// indexing, as the launch code reads it: the part's geometry and dtypes.
// The host helpers that turn a part into kernel arguments (plan_device_copy,
// transpose_col_dim, make_transpose_args, make_offset_calculator,
// scaled_copy_args) take a TensorIterator part or a CopyPart alike: the
// same accessors. st_copy launches its iterator's parts as CopyParts
// (launch_copy_part, cuda/device_copy.h); a copy plan (cuda/copy_plan.cpp)
// keeps RelativeParts and places them on each execute's memory, so both run
// one launch path. Host code.
#pragma once

#include <cstdint>
#include <vector>

#include "cuda/kernels/device_conversions.h"
#include "cuda/kernels/device_copy_plan.h"
#include "iter/tensor_iterator.h"

namespace st {
namespace cuda {

class CopyPart {
 public:
  // The geometry, dtypes and contiguity of an iterator's part (addresses included).
  explicit CopyPart(const TensorIterator& part)
      : geometry_(part.geometry()), ntensors_(part.ntensors()), contiguous_(part.is_contiguous()) {
    for (int k = 0; k < ntensors_; ++k) dtypes_[k] = part.dtype(k);
  }

  // TensorIterator's accessors, with its meanings.
  int ndim() const { return geometry_.ndim(); }
  const DimVector& shape() const { return geometry_.shape; }
  int64_t numel() const { return geometry_.numel(); }
  int ntensors() const { return ntensors_; }
  const DimVector& strides(int arg) const { return geometry_.strides[arg]; }
  char* data_ptr(int arg) const { return geometry_.data[arg]; }
  ScalarType dtype(int arg = 0) const { return dtypes_[arg]; }
  int64_t element_size(int arg) const { return static_cast<int64_t>(itemsize(dtypes_[arg])); }
  // The iterator's answer: a matter of the layout, which no move changes.
  bool is_contiguous() const { return contiguous_; }

  // Operand `arg`'s element (0, …, 0) of the part is at `data` from now on.
  void set_data_ptr(int arg, char* data) { geometry_.data[arg] = data; }

 private:
  Geometry geometry_;
  ScalarType dtypes_[kMaxOperands] = {};
  int ntensors_;
  bool contiguous_;
};

// A part whose dst (operand 0) and src (operand 1) addresses are kept as
// byte offsets from element (0, …, 0) of the whole copy's dst and src, as
// the CPU plan keeps its geometry (cpu/copy_plan.cpp), so that it can be
// placed on any memory laid out alike. Other operands (a scaled copy's
// scales and shifts) keep their addresses.
class RelativePart {
 public:
  RelativePart(const TensorIterator& part, const void* dst_origin, const void* src_origin) : part_(part) {
    offset_[0] = address(part.data_ptr(0)) - address(dst_origin);
    offset_[1] = address(part.data_ptr(1)) - address(src_origin);
    part_.set_data_ptr(0, nullptr);
    part_.set_data_ptr(1, nullptr);
  }

  // The part of the copy whose dst has element (0, …, 0) at `dst` and whose
  // src has it at `src`.
  CopyPart at(char* dst, const char* src) const {
    CopyPart placed = part_;
    placed.set_data_ptr(0, dst + offset_[0]);
    placed.set_data_ptr(1, const_cast<char*>(src) + offset_[1]);
    return placed;
  }

 private:
  static intptr_t address(const void* p) { return reinterpret_cast<intptr_t>(p); }

  CopyPart part_;  // its dst and src addresses are null: offset_ places them
  intptr_t offset_[2];
};

// The parts that with_32bit_indexing(limit) splits `iter` into, in its
// order, relative to `dst_origin` and `src_origin` (element (0, …, 0) of
// the tensors whose copy `iter` is, dst operand 0 and src operand 1); none
// for an empty iteration. The split depends on the layout only, so the
// parts serve any memory laid out alike.
inline std::vector<RelativePart> relative_parts(const TensorIterator& iter, const void* dst_origin,
                                                const void* src_origin,
                                                int64_t limit = TensorIterator::k32BitLimit) {
  std::vector<RelativePart> parts;
  if (iter.numel() == 0) return parts;
  iter.with_32bit_indexing([&](const TensorIterator& part) { parts.emplace_back(part, dst_origin, src_origin); },
                           limit);
  return parts;
}

// Whether the kernels take a copy dst_type ← src_type (`scaled`: a scaled
// copy) with element (0, …, 0) of dst at `dst` and of src at `src` as it
// is. Conversions and scaled copies load and store typed elements, which
// the device wants at element-aligned addresses, so copy_on_device and
// scaled_copy_on_device stage other memory through an aligned temporary;
// copies that keep the bits take any address. Every part of the copy is
// aligned as its element (0, …, 0) is: byte strides are multiples of the
// element size.
inline bool kernels_take(ScalarType dst_type, ScalarType src_type, bool scaled, const void* dst, const void* src) {
  return (!scaled && copies_bits(dst_type, src_type)) ||
         (is_aligned_to(dst, static_cast<int64_t>(itemsize(dst_type))) &&
          is_aligned_to(src, static_cast<int64_t>(itemsize(src_type))));
}

}  // namespace cuda
}  // namespace st
