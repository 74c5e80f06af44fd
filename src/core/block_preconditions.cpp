#include "core/block_preconditions.h"

#include <cmath>

#include "core/copy_preconditions.h"
#include "core/dims.h"
#include "core/error.h"
#include "core/overlap.h"

namespace st {
namespace {

const char* name_of(ScalarType t) { return dtype_name(static_cast<int32_t>(t)); }

void check_dtype(const Tensor& t, ScalarType want, const char* name, const BlockSpec& spec) {
  ST_CHECK(t.dtype() == want, ST_ERROR_UNSUPPORTED_DTYPE, "%s has dtype %s; %s takes %s", name, name_of(t.dtype()),
           spec.info().name, name_of(want));
}

void check_shape(const Tensor& t, const DimVector& want, const char* name, const Tensor& elements,
                 const char* elements_name) {
  ST_CHECK(t.sizes() == want, ST_ERROR_SHAPE_MISMATCH, "%s has sizes %s; %s of sizes %s needs %s", name,
           format_dims(t.sizes()).c_str(), elements_name, format_dims(elements.sizes()).c_str(),
           format_dims(want).c_str());
}

// Written tensors: writable, free of self-overlap, and touching no byte of
// the other operands.
void check_written(const Tensor& t, const char* name, const Tensor& a, const char* a_name, const Tensor& b,
                   const char* b_name) {
  check_writable(t, name);
  assert_no_internal_overlap(t, name);
  ST_CHECK(get_overlap_status(t, a) == OverlapStatus::No, ST_ERROR_OVERLAP, "%s and %s share memory", name, a_name);
  ST_CHECK(get_overlap_status(t, b) == OverlapStatus::No, ST_ERROR_OVERLAP, "%s and %s share memory", name, b_name);
}

}  // namespace

BlockSpec make_block_spec(BlockFormat format, ScaleRule rule, int32_t dim, float global_scale, const Tensor& elements,
                          const char* elements_name) {
  BlockSpec spec;
  spec.format = format;
  spec.rule = rule;
  if (format == BlockFormat::NvFp4) {
    ST_CHECK(std::isfinite(global_scale) && global_scale >= 0.0f, ST_ERROR_INVALID_ARGUMENT,
             "spec->global_scale = %g; NVFP4 takes a finite global scale >= 0 (0 meaning 1)",
             static_cast<double>(global_scale));
    spec.g = global_scale == 0.0f ? 1.0 : static_cast<double>(global_scale);
  }
  ST_CHECK(elements.ndim() > 0, ST_ERROR_INVALID_ARGUMENT, "spec->dim = %d, but %s is 0-d: it has no dim to block",
           static_cast<int>(dim), elements_name);
  spec.dim = wrap_dim(dim, elements.ndim(), "spec->dim");
  const int64_t n = elements.size(spec.dim);
  ST_CHECK(spec.info().per_byte == 1 || n % 2 == 0, ST_ERROR_INVALID_ARGUMENT,
           "%s has %lld elements along dim %d; %s holds two values a byte and needs an even count", elements_name,
           static_cast<long long>(n), spec.dim, spec.info().name);
  return spec;
}

DimVector block_values_shape(const DimVector& elements, const BlockSpec& spec) {
  DimVector s = elements;
  s[spec.dim] /= spec.info().per_byte;
  return s;
}

DimVector block_scales_shape(const DimVector& elements, const BlockSpec& spec) {
  DimVector s = elements;
  const int64_t block = spec.info().block;
  s[spec.dim] = s[spec.dim] / block + (s[spec.dim] % block != 0 ? 1 : 0);
  return s;
}

void check_block_operands(const Tensor& elements, const Tensor& values, const Tensor& scales, const BlockSpec& spec,
                          bool quantize) {
  const char* elements_name = quantize ? "src" : "dst";
  const Device d = elements.device();
  const auto same_device = [&](const Tensor& t) {
    const Device o = t.device();
    return o.is_host() ? d.is_host() : o == d;
  };
  ST_CHECK(same_device(values) && same_device(scales), ST_ERROR_INVALID_ARGUMENT,
           "%s, values and scales are on different devices (%s %d, %s %d, %s %d)", elements_name,
           device_type_name(static_cast<int32_t>(d.type)), static_cast<int>(d.index),
           device_type_name(static_cast<int32_t>(values.device().type)), static_cast<int>(values.device().index),
           device_type_name(static_cast<int32_t>(scales.device().type)), static_cast<int>(scales.device().index));
  ST_CHECK(is_block_source_dtype(elements.dtype()), ST_ERROR_UNSUPPORTED_DTYPE,
           "%s has dtype %s; block formats take float32, float16, bfloat16 or float64", elements_name,
           name_of(elements.dtype()));
  check_dtype(values, spec.info().values, "values", spec);
  check_dtype(scales, spec.info().scales, "scales", spec);
  check_shape(values, block_values_shape(elements.sizes(), spec), "values", elements, elements_name);
  check_shape(scales, block_scales_shape(elements.sizes(), spec), "scales", elements, elements_name);
  if (quantize) {
    check_written(values, "values", scales, "scales", elements, elements_name);
    check_written(scales, "scales", values, "values", elements, elements_name);
  } else {
    check_written(elements, elements_name, values, "values", scales, "scales");
  }
}

}  // namespace st
