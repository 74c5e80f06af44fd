#include "core/scale_shift.h"

#include "core/error.h"
#include "core/macros.h"
#include "core/numeric/dtype_dispatch.h"
#include "core/numeric/float_env.h"
#include "core/numeric/scaled_convert.h"
#include "core/overflow.h"

namespace st {
namespace {

void check_scalable(ScalarType t, const char* name) {
  const int32_t v = static_cast<int32_t>(t);
  const bool takes =
      dispatch_dtype(t, "copy_scaled", [](auto tag) { return TakesScaledCopies<typename decltype(tag)::type>::value; });
  ST_CHECK(takes, ST_ERROR_UNSUPPORTED_DTYPE,
           "%s has dtype %s (%d); scaled copies take real dtypes other than float8_e8m0fnu, float6 and float4",
           name, dtype_name(v), static_cast<int>(v));
}

}  // namespace

ScalarType scaled_compute_type(ScalarType dst, ScalarType src) {
  return dispatch_dtype(dst, "copy_scaled", [&](auto d) {
    return dispatch_dtype(src, "copy_scaled", [&](auto s) {
      using C = scaled_compute_t<typename decltype(d)::type, typename decltype(s)::type>;
      return std::is_same<C, double>::value ? ScalarType::Float64 : ScalarType::Float32;
    });
  });
}

ScaleShift prepare_scale_shift(const Tensor& dst, const Tensor& src, const double* scale, const double* shift,
                               int64_t n, int32_t dim, int32_t saturate) {
  check_scalable(dst.dtype(), "dst");
  check_scalable(src.dtype(), "src");
  ST_CHECK(saturate == 0 || saturate == 1, ST_ERROR_INVALID_ARGUMENT, "ss->saturate = %d (expected 0 or 1)",
           static_cast<int>(saturate));
  ScaleShift ss;
  ss.compute = scaled_compute_type(dst.dtype(), src.dtype());
  ss.saturate = saturate != 0;
  if (n != 1) {
    const int nd = dst.ndim();
    ST_CHECK(nd > 0 && dim >= -nd && dim < nd, ST_ERROR_INVALID_ARGUMENT,
             "ss->dim = %d is out of range for dst of %d dim%s (expected %d..%d)", static_cast<int>(dim),
             nd, plural(nd), -nd, nd - 1);
    ss.dim = dim < 0 ? dim + nd : dim;
    ST_CHECK(n == dst.size(ss.dim), ST_ERROR_INVALID_ARGUMENT,
             "ss->n = %lld, expected 1 or dst's size %lld along dim %d", static_cast<long long>(n),
             static_cast<long long>(dst.size(ss.dim)), static_cast<int>(dim));
  }
  ss.n = n;
  // n may be any size of an empty dst (2^61, say): holding its values is
  // then out of memory, whatever the container would throw.
  int64_t values = 0;
  ST_CHECK(!mul_overflows(n, 2, &values) && static_cast<uint64_t>(values) <= ss.storage.max_size(),
           ST_ERROR_OUT_OF_MEMORY, "ss->n = %lld scales and as many shifts cannot be held in memory",
           static_cast<long long>(n));
  ss.storage.resize(static_cast<size_t>(values));
  if (ss.compute == ScalarType::Float64) {
    double* v = ss.storage.data();
    for (int64_t i = 0; i < n; ++i) {
      v[i] = scale ? scale[i] : 1.0;
      v[n + i] = shift ? shift[i] : 0.0;
    }
  } else {
    // Rounded to float once, here, to nearest even whatever the caller's mode
    // (Note [The caller's floating-point environment]).
    const DefaultFloatEnvironment float_env;
    float* v = reinterpret_cast<float*>(ss.storage.data());
    for (int64_t i = 0; i < n; ++i) {
      v[i] = static_cast<float>(scale ? scale[i] : 1.0);
      v[n + i] = static_cast<float>(shift ? shift[i] : 0.0);
    }
  }
  return ss;
}

}  // namespace st
