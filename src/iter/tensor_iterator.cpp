// TensorIterator::build, step by step as PyTorch's TensorIteratorBase::build:
// populate operands, overlap checks, shape, types, then either the fast
// set-up (one flat dim) or strides → reorder → allocate → coalesce.
#include "iter/tensor_iterator.h"

#include <cstdlib>
#include <utility>

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
    // Note [The canonical geometry], with the outputs still to be made
    // allocated in the sorted order, so that they share the inputs' layout.
    // The shape, in the tensors' order so far, is taken last first.
    DimVector& shape = geometry_.shape;
    for (int i = 0, j = shape.size() - 1; i < j; ++i, --j) std::swap(shape[i], shape[j]);
    compute_strides();
    unsigned to_allocate = 0;
    for (int i = 0; i < noutputs_; ++i) to_allocate |= operands_[i].will_allocate ? 1u << i : 0u;
    InlineVector<int> perm;
    sort_dims_fastest_first(geometry_, to_allocate, &perm);
    allocate_outputs(config, perm);
    walk_negative_dims_forward(geometry_);
    coalesce_dims(geometry_);
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
  geometry_.noperands = ntensors_;
  ST_CHECK(ntensors_ > 0, ST_ERROR_INTERNAL, "TensorIterator: no operands");
  for (int i = 0; i < ntensors_; ++i) {
    Operand& op = operands_[i];
    op.tensor = config.tensors_[i];
    op.name = config.names_[i];
    op.is_output = i < noutputs_;
    if (op.tensor.defined()) {
      geometry_.data[i] = static_cast<char*>(op.tensor.data());
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
      assign_dims(geometry_.shape, out.sizes());
      continue;
    }
    ST_CHECK(out.sizes() == geometry_.shape, ST_ERROR_SHAPE_MISMATCH, "%s has sizes %s but %s has sizes %s", name_of(i).c_str(),
             format_dims(out.sizes()).c_str(), name_of(fixed).c_str(), format_dims(geometry_.shape).c_str());
  }
  if (fixed >= 0) {
    for (int j = noutputs_; j < ntensors_; ++j) {
      const DimVector& in = operands_[j].tensor.sizes();
      if (in == geometry_.shape) continue;
      all_ops_same_shape_ = false;
      const int ndim = geometry_.shape.size(), lead = ndim - in.size();
      ST_CHECK(lead >= 0, ST_ERROR_SHAPE_MISMATCH,
               "%s of sizes %s cannot be broadcast to %s's sizes %s: it has %d dim%s, %s has %d (inputs broadcast "
               "to the output, never the reverse)",
               name_of(j).c_str(), format_dims(in).c_str(), name_of(fixed).c_str(), format_dims(geometry_.shape).c_str(),
               in.size(), plural(in.size()), name_of(fixed).c_str(), ndim);
      for (int d = lead; d < ndim; ++d) {
        const int64_t s = in[d - lead];
        ST_CHECK(s == geometry_.shape[d] || s == 1, ST_ERROR_SHAPE_MISMATCH,
                 "%s of sizes %s cannot be broadcast to %s's sizes %s: at dim %d the size is %lld, not %lld or 1",
                 name_of(j).c_str(), format_dims(in).c_str(), name_of(fixed).c_str(), format_dims(geometry_.shape).c_str(), d,
                 static_cast<long long>(s), static_cast<long long>(geometry_.shape[d]));
      }
    }
    return;
  }
  // No defined output: the inputs' broadcast shape (PyTorch's infer_size).
  ST_CHECK(ninputs() > 0, ST_ERROR_INVALID_ARGUMENT, "no operand is defined, so nothing gives the shape");
  assign_dims(geometry_.shape, operands_[noutputs_].tensor.sizes());
  for (int j = noutputs_ + 1; j < ntensors_; ++j) {
    const DimVector& in = operands_[j].tensor.sizes();
    if (in == geometry_.shape) continue;
    all_ops_same_shape_ = false;
    const int ndim = in.size() > geometry_.shape.size() ? in.size() : geometry_.shape.size();
    DimVector result(ndim, 1);
    for (int d = ndim - 1; d >= 0; --d) {
      const int da = d - (ndim - geometry_.shape.size()), db = d - (ndim - in.size());
      const int64_t a = da >= 0 ? geometry_.shape[da] : 1, b = db >= 0 ? in[db] : 1;
      ST_CHECK(a == b || a == 1 || b == 1, ST_ERROR_SHAPE_MISMATCH,
               "%s of sizes %s cannot be broadcast with sizes %s (the inputs before it): at dim %d the sizes are "
               "%lld and %lld, and neither is 1",
               name_of(j).c_str(), format_dims(in).c_str(), format_dims(geometry_.shape).c_str(), d, static_cast<long long>(b),
               static_cast<long long>(a));
      result[d] = a == 1 ? b : a;
    }
    assign_dims(geometry_.shape, result);
  }
  int64_t numel = 1;
  for (int64_t s : geometry_.shape) {
    ST_CHECK(checked_mul(numel, s, &numel), ST_ERROR_OUT_OF_MEMORY,
             "the broadcast shape %s holds more elements than int64 counts", format_dims(geometry_.shape).c_str());
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
      strides = contiguous_strides(geometry_.shape);
    } else if (channels_last) {
      strides = channels_last_strides_2d(geometry_.shape);
    } else if (channels_last_3d) {
      strides = channels_last_strides_3d(geometry_.shape);
    } else {
      strides = operands_[layout_of].tensor.strides();
      for (int64_t& s : strides) s = magnitude_of(s);  // only size-1 dims can be negative here
    }
    allocate(config, op, geometry_.shape, strides);
  }
  const int64_t n = numel();
  if (ndim() >= 1) geometry_.shape.assign(1, n);
  for (int i = 0; i < ntensors_; ++i) geometry_.strides[i].assign(ndim(), element_size(i));
  return true;
}

void TensorIterator::compute_strides() {
  for (int i = 0; i < ntensors_; ++i) {
    const Operand& op = operands_[i];
    if (op.will_allocate) continue;
    const Tensor& t = op.tensor;
    if (!set_operand_strides(geometry_, i, t.sizes(), t.strides(), element_size(i), geometry_.data[i])) {
      for (int d = 0; d < t.ndim(); ++d) {
        int64_t bytes;
        ST_CHECK(t.size(d) == 1 || checked_mul(t.stride(d), element_size(i), &bytes), ST_ERROR_OUT_OF_MEMORY,
                 "%s: stride %lld of dim %d overflows int64 in bytes", name_of(i).c_str(),
                 static_cast<long long>(t.stride(d)), d);
      }
    }
  }
}

// An undefined output becomes dense in the iteration order, so it has the
// inputs' layout (PyTorch's allocate_or_resize_outputs with
// compatible_stride); strides are positive whatever the inputs' signs.
void TensorIterator::allocate_outputs(const TensorIteratorConfig& config, const InlineVector<int>& perm) {
  const int ndim = geometry_.shape.size();
  for (int i = 0; i < noutputs_; ++i) {
    Operand& op = operands_[i];
    if (!op.will_allocate) continue;
    DimVector sizes(ndim, 0), strides(ndim, 0);
    int64_t next = 1;
    // perm[k] counts the tensors' dims last first (geometry.h, step 1).
    for (int k = 0; k < ndim; ++k) {
      sizes[ndim - 1 - perm[k]] = geometry_.shape[k];
      strides[ndim - 1 - perm[k]] = next;
      int64_t grown;
      // Only an empty tensor can overflow here, and its strides are never used.
      if (checked_mul(next, geometry_.shape[k] > 1 ? geometry_.shape[k] : 1, &grown)) next = grown;
    }
    allocate(config, op, sizes, strides);
    DimVector& bytes = geometry_.strides[i];
    bytes.assign(ndim, 0);
    for (int k = 0; k < ndim; ++k) {
      int64_t b;
      if (geometry_.shape[k] != 1 && checked_mul(strides[ndim - 1 - perm[k]], element_size(i), &b)) bytes[k] = b;
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
  geometry_.data[&op - operands_] = static_cast<char*>(op.tensor.data());
  op.will_allocate = false;
}

bool TensorIterator::has_contiguous_first_dim() const {
  if (ndim() == 0) return true;
  for (int k = 0; k < ntensors_; ++k) {
    if (geometry_.strides[k][0] != element_size(k)) return false;
  }
  return true;
}

bool TensorIterator::is_contiguous() const {
  if (numel() == 1) return true;
  return ndim() == 1 && has_contiguous_first_dim();
}

}  // namespace st
