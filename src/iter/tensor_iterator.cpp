// TensorIterator::build, step by step as PyTorch's TensorIteratorBase::build:
// populate operands, overlap checks, shape, types, then either the fast
// set-up (one flat dim) or strides → reorder → allocate → coalesce.
#include "iter/tensor_iterator.h"

#include <cstdlib>

#include "core/checked_math.h"
#include "core/contiguity.h"
#include "core/empty.h"
#include "core/error.h"
#include "core/overlap.h"
#include "core/views.h"

namespace st {
namespace {

int64_t magnitude_of(int64_t v) { return v < 0 ? -v : v; }

// DimVector's assignment copies its whole inline capacity; build() copies
// only the dims in use, which is most of its cost saved for small tensors.
void assign_dims(DimVector& dst, const DimVector& src) {
  dst.resize(src.size());
  for (int i = 0; i < src.size(); ++i) dst[i] = src[i];
}

void fill_dims(DimVector& dst, int n, int64_t value) {
  dst.resize(n);
  for (int i = 0; i < n; ++i) dst[i] = value;
}

Tensor allocate_on_cpu(const DimVector& sizes, const DimVector& strides, ScalarType dtype, Device device) {
  ST_CHECK(device.type == DeviceType::CPU, ST_ERROR_NOT_IMPLEMENTED,
           "TensorIterator allocates CPU outputs only; an output on %s needs allocate_outputs_with",
           device_type_name(static_cast<int32_t>(device.type)));
  return empty_cpu(sizes, strides, dtype);
}

bool same_strides_where_it_matters(const Tensor& a, const Tensor& b) {
  for (int d = 0; d < a.ndim(); ++d) {
    if (a.size(d) > 1 && a.stride(d) != b.stride(d)) return false;
  }
  return true;
}

}  // namespace

TensorIterator::TensorIterator(const TensorIteratorConfig& config) {
  populate_operands(config);
  compute_mem_overlaps(config);
  compute_shape(config);
  compute_types(config);
  if (!fast_set_up(config)) {
    compute_strides();
    InlineVector<int> perm;
    reorder_dimensions(&perm);
    allocate_outputs(config, perm);
    walk_negative_dims_forward();
    coalesce_dimensions();
  }
}

std::string TensorIterator::name_of(int arg) const {
  if (operands_[arg].name) return operands_[arg].name;
  const bool out = arg < noutputs_;
  return std::string(out ? "output " : "input ") + std::to_string(out ? arg : arg - noutputs_);
}

void TensorIterator::populate_operands(const TensorIteratorConfig& config) {
  ntensors_ = config.ntensors_;
  noutputs_ = config.noutputs_;
  ST_CHECK(ntensors_ > 0, ST_ERROR_INTERNAL, "TensorIterator: no operands");
  for (int i = 0; i < ntensors_; ++i) {
    Operand& op = operands_[i];
    op.tensor = config.tensors_[i];
    op.name = config.names_[i];
    op.is_output = i < noutputs_;
    if (op.tensor.defined()) {
      op.data = static_cast<char*>(op.tensor.data());
      op.dtype = op.tensor.dtype();
      op.device = op.tensor.device();
    } else {
      ST_CHECK(op.is_output, ST_ERROR_INVALID_ARGUMENT, "%s is undefined; only outputs may be", name_of(i).c_str());
      ST_CHECK(config.resize_outputs_, ST_ERROR_INVALID_ARGUMENT,
               "%s is undefined, but its shape is fixed (resize_outputs(false))", name_of(i).c_str());
      op.will_allocate = true;
    }
  }
}

void TensorIterator::compute_mem_overlaps(const TensorIteratorConfig& config) const {
  if (!config.check_mem_overlap_) return;
  for (int i = 0; i < noutputs_; ++i) {
    const Tensor& out = operands_[i].tensor;
    if (!out.defined()) continue;
    if (!is_non_overlapping(out)) assert_no_internal_overlap(out, name_of(i).c_str());
    for (int j = noutputs_; j < ntensors_; ++j) {
      const Tensor& in = operands_[j].tensor;
      if (get_overlap_status(out, in) == OverlapStatus::Partial) {
        assert_no_partial_overlap(out, in, name_of(i).c_str(), name_of(j).c_str());
      }
    }
  }
}

void TensorIterator::compute_shape(const TensorIteratorConfig&) {
  // A defined output fixes the shape (tensors are immutable; nothing is
  // resized) and inputs broadcast to it, never the reverse (as PyTorch's
  // copy_: an input with more dims fails even when they are 1).
  int fixed = -1;
  for (int i = 0; i < noutputs_; ++i) {
    const Tensor& out = operands_[i].tensor;
    if (!out.defined()) continue;
    if (fixed < 0) {
      fixed = i;
      assign_dims(shape_, out.sizes());
      continue;
    }
    ST_CHECK(out.sizes() == shape_, ST_ERROR_SHAPE_MISMATCH, "%s has sizes %s but %s has sizes %s", name_of(i).c_str(),
             format_dims(out.sizes()).c_str(), name_of(fixed).c_str(), format_dims(shape_).c_str());
  }
  if (fixed >= 0) {
    for (int j = noutputs_; j < ntensors_; ++j) {
      const DimVector& in = operands_[j].tensor.sizes();
      if (in == shape_) continue;
      all_ops_same_shape_ = false;
      const int ndim = shape_.size(), lead = ndim - in.size();
      ST_CHECK(lead >= 0, ST_ERROR_SHAPE_MISMATCH,
               "%s of sizes %s cannot be broadcast to %s's sizes %s: it has %d dims, %s has %d (inputs broadcast "
               "to the output, never the reverse)",
               name_of(j).c_str(), format_dims(in).c_str(), name_of(fixed).c_str(), format_dims(shape_).c_str(),
               in.size(), name_of(fixed).c_str(), ndim);
      for (int d = lead; d < ndim; ++d) {
        const int64_t s = in[d - lead];
        ST_CHECK(s == shape_[d] || s == 1, ST_ERROR_SHAPE_MISMATCH,
                 "%s of sizes %s cannot be broadcast to %s's sizes %s: at dim %d the size is %lld, not %lld or 1",
                 name_of(j).c_str(), format_dims(in).c_str(), name_of(fixed).c_str(), format_dims(shape_).c_str(), d,
                 static_cast<long long>(s), static_cast<long long>(shape_[d]));
      }
    }
    return;
  }
  // No defined output: the inputs' broadcast shape (PyTorch's infer_size).
  ST_CHECK(ninputs() > 0, ST_ERROR_INVALID_ARGUMENT, "no operand is defined, so nothing gives the shape");
  assign_dims(shape_, operands_[noutputs_].tensor.sizes());
  for (int j = noutputs_ + 1; j < ntensors_; ++j) {
    const DimVector& in = operands_[j].tensor.sizes();
    if (in == shape_) continue;
    all_ops_same_shape_ = false;
    const int ndim = in.size() > shape_.size() ? in.size() : shape_.size();
    DimVector result(ndim, 1);
    for (int d = ndim - 1; d >= 0; --d) {
      const int da = d - (ndim - shape_.size()), db = d - (ndim - in.size());
      const int64_t a = da >= 0 ? shape_[da] : 1, b = db >= 0 ? in[db] : 1;
      ST_CHECK(a == b || a == 1 || b == 1, ST_ERROR_SHAPE_MISMATCH,
               "%s of sizes %s cannot be broadcast with sizes %s (the inputs before it): at dim %d the sizes are "
               "%lld and %lld, and neither is 1",
               name_of(j).c_str(), format_dims(in).c_str(), format_dims(shape_).c_str(), d, static_cast<long long>(b),
               static_cast<long long>(a));
      result[d] = a == 1 ? b : a;
    }
    assign_dims(shape_, result);
  }
  int64_t numel = 1;
  for (int64_t s : shape_) {
    ST_CHECK(checked_mul(numel, s, &numel), ST_ERROR_OUT_OF_MEMORY,
             "the broadcast shape %s holds more elements than int64 counts", format_dims(shape_).c_str());
  }
}

void TensorIterator::compute_types(const TensorIteratorConfig& config) {
  const Operand& first_input = operands_[noutputs_ < ntensors_ ? noutputs_ : 0];
  for (int i = 0; i < noutputs_; ++i) {
    Operand& op = operands_[i];
    if (!op.will_allocate) continue;
    op.dtype = config.has_static_dtype_ ? config.static_dtype_ : first_input.dtype;
    op.device = first_input.device;
  }
  for (int i = 1; i < ntensors_; ++i) {
    ST_CHECK(!config.check_all_same_dtype_ || operands_[i].dtype == operands_[0].dtype, ST_ERROR_UNSUPPORTED_DTYPE,
             "%s has dtype %s but %s has dtype %s; this operation needs one dtype", name_of(i).c_str(),
             dtype_name(static_cast<int32_t>(operands_[i].dtype)), name_of(0).c_str(),
             dtype_name(static_cast<int32_t>(operands_[0].dtype)));
    ST_CHECK(!config.check_all_same_device_ || operands_[i].device == operands_[0].device, ST_ERROR_INVALID_ARGUMENT,
             "%s is on %s:%d but %s is on %s:%d; this operation needs one device", name_of(i).c_str(),
             device_type_name(static_cast<int32_t>(operands_[i].device.type)), operands_[i].device.index,
             name_of(0).c_str(), device_type_name(static_cast<int32_t>(operands_[0].device.type)),
             operands_[0].device.index);
  }
}

// When every operand has the iteration shape and all share one dense,
// non-overlapping layout (contiguous, channels-last, or the same permuted
// dense strides), element k of every operand is k × itemsize bytes from
// its lowest address: one flat dim (PyTorch's fast_set_up).
bool TensorIterator::fast_set_up(const TensorIteratorConfig& config) {
  if (!all_ops_same_shape_) return false;
  int layout_of = -1;
  bool contiguous = true, channels_last = true, channels_last_3d = true, same_dense = true;
  for (int i = 0; i < ntensors_; ++i) {
    const Tensor& t = operands_[i].tensor;
    if (!t.defined()) continue;
    if (layout_of < 0) layout_of = i;
    contiguous = contiguous && t.is_contiguous();
    channels_last = channels_last && t.is_contiguous(MemoryFormat::ChannelsLast);
    channels_last_3d = channels_last_3d && t.is_contiguous(MemoryFormat::ChannelsLast3d);
    same_dense =
        same_dense && t.is_non_overlapping_and_dense() && same_strides_where_it_matters(t, operands_[layout_of].tensor);
  }
  if (!contiguous && !channels_last && !channels_last_3d && !same_dense) return false;
  for (int i = 0; i < noutputs_; ++i) {
    Operand& op = operands_[i];
    if (!op.will_allocate) continue;
    DimVector strides;
    if (contiguous) {
      strides = contiguous_strides(shape_);
    } else if (channels_last) {
      strides = channels_last_strides_2d(shape_);
    } else if (channels_last_3d) {
      strides = channels_last_strides_3d(shape_);
    } else {
      strides = operands_[layout_of].tensor.strides();
      for (int64_t& s : strides) s = magnitude_of(s);  // only size-1 dims can be negative here
    }
    allocate(config, op, shape_, strides);
  }
  const int64_t n = numel();
  if (ndim() >= 1) fill_dims(shape_, 1, n);
  for (int i = 0; i < ntensors_; ++i) fill_dims(operands_[i].stride_bytes, ndim(), element_size(i));
  return true;
}

void TensorIterator::compute_strides() {
  const int ndim = shape_.size();
  for (int i = 0; i < ntensors_; ++i) {
    Operand& op = operands_[i];
    if (op.will_allocate) continue;
    const Tensor& t = op.tensor;
    const int lead = ndim - t.ndim();
    fill_dims(op.stride_bytes, ndim, 0);
    for (int d = 0; d < t.ndim(); ++d) {
      // Size-1 dims (broadcast ones included) never step: stride 0.
      if (t.size(d) == 1) continue;
      ST_CHECK(checked_mul(t.stride(d), element_size(i), &op.stride_bytes[lead + d]), ST_ERROR_OUT_OF_MEMORY,
               "%s: stride %lld of dim %d overflows int64 in bytes", name_of(i).c_str(),
               static_cast<long long>(t.stride(d)), d);
    }
  }
}

// Insertion sort of the dims, fastest first, by |byte stride|: the first
// operand with a strict answer decides (outputs come first); broadcast
// strides abstain; equal strides put the smaller size first. Dims the
// operands leave ambiguous keep their order, last dim fastest (as
// PyTorch's reorder_dimensions).
void TensorIterator::reorder_dimensions(InlineVector<int>* perm_out) {
  const int ndim = shape_.size();
  InlineVector<int>& perm = *perm_out;
  perm.resize(ndim);
  for (int i = 0; i < ndim; ++i) perm[i] = ndim - 1 - i;
  if (ndim <= 1) return;
  auto should_swap = [&](int dim0, int dim1) {
    for (int i = 0; i < ntensors_; ++i) {
      const Operand& op = operands_[i];
      if (op.will_allocate) continue;
      const int64_t s0 = magnitude_of(op.stride_bytes[dim0]), s1 = magnitude_of(op.stride_bytes[dim1]);
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (shape_[dim0] > shape_[dim1]) return 1;
    }
    return 0;
  };
  for (int i = 1; i < ndim; ++i) {
    int dim1 = i;
    for (int dim0 = i - 1; dim0 >= 0; --dim0) {
      const int c = should_swap(perm[dim0], perm[dim1]);
      if (c > 0) {
        const int t = perm[dim0];
        perm[dim0] = perm[dim1];
        perm[dim1] = t;
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  int64_t before[kMaxDims];
  for (int i = 0; i < ndim; ++i) before[i] = shape_[i];
  for (int i = 0; i < ndim; ++i) shape_[i] = before[perm[i]];
  for (int k = 0; k < ntensors_; ++k) {
    Operand& op = operands_[k];
    if (op.will_allocate) continue;
    for (int i = 0; i < ndim; ++i) before[i] = op.stride_bytes[i];
    for (int i = 0; i < ndim; ++i) op.stride_bytes[i] = before[perm[i]];
  }
}

// An undefined output becomes dense in the iteration order, so it has the
// inputs' layout (PyTorch's allocate_or_resize_outputs with
// compatible_stride); strides are positive whatever the inputs' signs.
void TensorIterator::allocate_outputs(const TensorIteratorConfig& config, const InlineVector<int>& perm) {
  const int ndim = shape_.size();
  for (int i = 0; i < noutputs_; ++i) {
    Operand& op = operands_[i];
    if (!op.will_allocate) continue;
    DimVector sizes(ndim, 0), strides(ndim, 0);
    int64_t next = 1;
    for (int k = 0; k < ndim; ++k) {
      sizes[perm[k]] = shape_[k];
      strides[perm[k]] = next;
      int64_t grown;
      // Only an empty tensor can overflow here, and its strides are never used.
      if (checked_mul(next, shape_[k] > 1 ? shape_[k] : 1, &grown)) next = grown;
    }
    allocate(config, op, sizes, strides);
    fill_dims(op.stride_bytes, ndim, 0);
    for (int k = 0; k < ndim; ++k) {
      int64_t bytes;
      if (shape_[k] != 1 && checked_mul(strides[perm[k]], element_size(i), &bytes)) op.stride_bytes[k] = bytes;
    }
  }
}

void TensorIterator::allocate(const TensorIteratorConfig& config, Operand& op, const DimVector& sizes,
                              const DimVector& strides) {
  TensorIteratorConfig::AllocateFn fn = config.allocate_ ? config.allocate_ : allocate_on_cpu;
  op.tensor = fn(sizes, strides, op.dtype, op.device);
  ST_CHECK(op.tensor.defined() && op.tensor.sizes() == sizes && op.tensor.dtype() == op.dtype, ST_ERROR_INTERNAL,
           "the output allocator returned a tensor other than the one asked for (sizes %s)",
           format_dims(sizes).c_str());
  op.data = static_cast<char*>(op.tensor.data());
  op.will_allocate = false;
}

// A dim where the first operand that moves along it goes backwards is
// walked from its other end by every operand: the same elements paired the
// same way, in memory order for that operand, and ready to coalesce.
void TensorIterator::walk_negative_dims_forward() {
  if (numel() == 0) return;
  for (int d = 0; d < ndim(); ++d) {
    if (shape_[d] < 2) continue;
    int decider = 0;
    while (decider < ntensors_ && operands_[decider].stride_bytes[d] == 0) ++decider;
    if (decider == ntensors_ || operands_[decider].stride_bytes[d] > 0) continue;
    for (int k = 0; k < ntensors_; ++k) {
      Operand& op = operands_[k];
      op.data += (shape_[d] - 1) * op.stride_bytes[d];
      op.stride_bytes[d] = -op.stride_bytes[d];
    }
  }
}

// Merges dims d and d+1 wherever stride[d+1] == shape[d] × stride[d] for
// every operand, or either has size 1 (PyTorch's coalesce_dimensions).
void TensorIterator::coalesce_dimensions() {
  const int ndim = shape_.size();
  if (ndim <= 1) return;
  auto can_coalesce = [&](int dim0, int dim1) {
    const int64_t size0 = shape_[dim0], size1 = shape_[dim1];
    if (size0 == 1 || size1 == 1) return true;
    for (int k = 0; k < ntensors_; ++k) {
      const DimVector& s = operands_[k].stride_bytes;
      int64_t reach;
      if (!checked_mul(size0, s[dim0], &reach) || reach != s[dim1]) return false;
    }
    return true;
  };
  auto take_stride = [&](int to, int from) {
    for (int k = 0; k < ntensors_; ++k) operands_[k].stride_bytes[to] = operands_[k].stride_bytes[from];
  };
  int prev = 0;
  for (int d = 1; d < ndim; ++d) {
    int64_t merged;
    // The product only overflows in an empty space, which then keeps its dims.
    if (checked_mul(shape_[prev], shape_[d], &merged) && can_coalesce(prev, d)) {
      if (shape_[prev] == 1) take_stride(prev, d);
      shape_[prev] = merged;
    } else {
      ++prev;
      if (prev != d) {
        take_stride(prev, d);
        shape_[prev] = shape_[d];
      }
    }
  }
  shape_.resize(prev + 1);
  for (int k = 0; k < ntensors_; ++k) operands_[k].stride_bytes.resize(prev + 1);
}

int64_t TensorIterator::numel() const {
  // Zero first: the other sizes of an empty space may multiply past int64.
  for (int64_t s : shape_)
    if (s == 0) return 0;
  int64_t n = 1;
  for (int64_t s : shape_) n *= s;
  return n;
}

bool TensorIterator::has_contiguous_first_dim() const {
  if (ndim() == 0) return true;
  for (int k = 0; k < ntensors_; ++k) {
    if (operands_[k].stride_bytes[0] != element_size(k)) return false;
  }
  return true;
}

bool TensorIterator::is_contiguous() const {
  if (numel() == 1) return true;
  return ndim() == 1 && has_contiguous_first_dim();
}

}  // namespace st
