#include "core/dims.h"

#include "core/error.h"

namespace st {

std::string format_dims(const DimVector& dims) {
  std::string s = "(";
  for (int i = 0; i < dims.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(dims[i]);
  }
  return s + ")";
}

int wrap_dim(int64_t dim, int ndim, const char* arg) {
  ST_CHECK(ndim > 0 && dim >= -ndim && dim < ndim, ST_ERROR_INVALID_ARGUMENT,
           "%s = %lld is out of range for a tensor of %d dim%s (expected %d..%d)", arg, static_cast<long long>(dim),
           ndim, plural(ndim), -ndim, ndim - 1);
  return static_cast<int>(dim < 0 ? dim + ndim : dim);
}

void check_sizes_nonnegative(const DimVector& sizes, const char* arg) {
  for (int i = 0; i < sizes.size(); ++i) {
    ST_CHECK(sizes[i] >= 0, ST_ERROR_INVALID_ARGUMENT, "%s[%d] = %lld is negative", arg, i,
             static_cast<long long>(sizes[i]));
  }
}

}  // namespace st
