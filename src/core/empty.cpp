#include "core/empty.h"

#include "core/dims.h"
#include "core/error.h"
#include "core/extent.h"
#include "core/macros.h"
#include "core/overflow.h"
#include "core/runtime/allocator.h"
#include "core/tensor_block.h"

namespace st {

int64_t storage_span(const DimVector& sizes, const DimVector& strides, ScalarType dtype) {
  if (has_zero_size(sizes)) return 0;
  Extent e;
  int64_t span, bytes;
  bool ok = compute_extent(sizes, strides, &e) && extent_elements(e, &span) &&
            !mul_overflows(span, static_cast<int64_t>(itemsize(dtype)), &bytes);
  ST_CHECK(ok, ST_ERROR_OUT_OF_MEMORY, "sizes %s with strides %s span more than int64 bytes of %s",
           format_dims(sizes).c_str(), format_dims(strides).c_str(), dtype_name(static_cast<int32_t>(dtype)));
  return span;
}

void check_empty_layout(const DimVector& sizes, const DimVector& strides) {
  // Every value at once by its sign bit; the messages come from the walk below.
  int64_t any = 0;
  for (int64_t s : sizes) any |= s;
  for (int64_t s : strides) any |= s;
  if (any >= 0) return;
  check_sizes_nonnegative(sizes);
  for (int i = 0; i < strides.size(); ++i) {
    ST_CHECK(strides[i] >= 0, ST_ERROR_INVALID_ARGUMENT, "strides[%d] = %lld is negative", i,
             static_cast<long long>(strides[i]));
  }
}

size_t checked_storage_bytes(const DimVector& sizes, const DimVector& strides, ScalarType dtype) {
  check_empty_layout(sizes, strides);
  const size_t nbytes = static_cast<size_t>(storage_span(sizes, strides, dtype)) * itemsize(dtype);
  checked_numel(sizes, dtype);
  return nbytes;
}

namespace {

// The element count and the span of a layout with every size and stride
// positive or zero, at least one element, and nothing overflowing int64
// bytes of `item`, in one pass; false for any other layout, which the
// step-by-step checks then measure or refuse with a message.
bool measure_plain_layout(const DimVector& sizes, const DimVector& strides, int64_t item, int64_t* numel,
                          int64_t* span) {
  int64_t n = 1, hi = 0, end = 0, bytes = 0;
  bool ok = true;
  for (int d = 0; d < sizes.size(); ++d) {
    const int64_t size = sizes[d], stride = strides[d];
    int64_t reach;
    ok &= (size | stride) > -1;
    ok &= !mul_overflows(n, size, &n);
    ok &= !mul_overflows(size > 0 ? size - 1 : 0, stride, &reach);
    ok &= !add_overflows(hi, reach, &hi);
  }
  ok &= n > 0 && !add_overflows(hi, 1, &end) && !mul_overflows(n, item, &bytes) &&
        !mul_overflows(end, item, &bytes);
  *numel = n;
  *span = end;
  return ok;
}

}  // namespace

Tensor empty_cpu(const DimVector& sizes, const DimVector& strides, ScalarType dtype) {
  int64_t numel, span;
  if (!measure_plain_layout(sizes, strides, static_cast<int64_t>(itemsize(dtype)), &numel, &span)) {
    check_empty_layout(sizes, strides);
    span = storage_span(sizes, strides, dtype);
    numel = checked_numel(sizes, dtype);  // zero strides can span little and count too many elements
  }
  const size_t nbytes = static_cast<size_t>(span) * itemsize(dtype);
  if (fits_tensor_block(nbytes)) return make_tensor_in_block(sizes, strides, dtype, numel, nbytes);
  Storage storage = allocate_cpu_storage(nbytes);
  return Tensor::make(std::move(storage), sizes, strides, 0, dtype);
}

}  // namespace st
