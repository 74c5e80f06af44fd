// The block-scaled formats: st_quantize_blocks and st_dequantize_blocks.
// The spec is read here (its size, its enums, the fields a newer caller
// may have appended); its checks against the tensors and the operands'
// own are core/block_preconditions.h's, all before the operator writes.
#include <cstddef>
#include <cstring>

#include "api/returning.h"
#include "ops/block_scaled.h"

using namespace st;
using namespace st::api;

namespace {

static_assert(sizeof(st_block_spec) == 24 && offsetof(st_block_spec, format) == 8 &&
                  offsetof(st_block_spec, dim) == 12 && offsetof(st_block_spec, scale_rule) == 16 &&
                  offsetof(st_block_spec, global_scale) == 20,
              "st_block_spec keeps its 0.3 layout");

// A spec larger than any this library could know of is a caller's mistake.
constexpr size_t kMaxSpecSize = 4096;

// The fields of the caller's spec, its enums read as the integers a C
// caller may have put there (api/args.h, enum_bits).
struct SpecFields {
  int32_t format;
  int32_t dim;
  int32_t rule;
  float global_scale;
};

// Reads *spec: struct_size from 24 to 4096 and any bytes past the 24 known
// all 0 (a field appended by a newer header, which this library cannot
// honour, as Linux's openat2 treats its struct open_how), the format and
// the rule known values.
SpecFields read_spec(const st_block_spec* spec) {
  ST_CHECK(spec != nullptr, ST_ERROR_INVALID_ARGUMENT, "spec is NULL");
  size_t size;
  std::memcpy(&size, spec, sizeof size);
  ST_CHECK(size >= sizeof(st_block_spec) && size <= kMaxSpecSize, ST_ERROR_INVALID_ARGUMENT,
           "spec->struct_size = %zu; expected sizeof(st_block_spec), %zu, up to %zu", size, sizeof(st_block_spec),
           kMaxSpecSize);
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(spec);
  for (size_t i = sizeof(st_block_spec); i < size; ++i) {
    ST_CHECK(bytes[i] == 0, ST_ERROR_INVALID_ARGUMENT,
             "spec->struct_size = %zu and byte %zu is %u: a field this library (st_block_spec of %zu bytes) does "
             "not know is set",
             size, i, static_cast<unsigned>(bytes[i]), sizeof(st_block_spec));
  }
  SpecFields f;
  std::memcpy(&f.format, bytes + offsetof(st_block_spec, format), sizeof f.format);
  std::memcpy(&f.dim, bytes + offsetof(st_block_spec, dim), sizeof f.dim);
  std::memcpy(&f.rule, bytes + offsetof(st_block_spec, scale_rule), sizeof f.rule);
  std::memcpy(&f.global_scale, bytes + offsetof(st_block_spec, global_scale), sizeof f.global_scale);
  ST_CHECK(is_valid_block_format(f.format), ST_ERROR_INVALID_ARGUMENT, "spec->format = %d is not an st_block_format",
           static_cast<int>(f.format));
  ST_CHECK(is_valid_scale_rule(f.rule), ST_ERROR_INVALID_ARGUMENT, "spec->scale_rule = %d is not an st_scale_rule",
           static_cast<int>(f.rule));
  return f;
}

BlockSpec spec_for(const SpecFields& f, const Tensor& elements, const char* elements_name) {
  return make_block_spec(static_cast<BlockFormat>(f.format), static_cast<ScaleRule>(f.rule), f.dim, f.global_scale,
                         elements, elements_name);
}

}  // namespace

extern "C" {

st_status st_quantize_blocks(st_tensor values, st_tensor scales, st_tensor src, const st_block_spec* spec) {
  return guarded("st_quantize_blocks", [&] {
    const SpecFields f = read_spec(spec);
    PinnedHandle v(values, "values");
    PinnedHandle s(scales, "scales");
    PinnedHandle x(src, "src");
    ops::quantize_blocks(*v, *s, *x, spec_for(f, *x, "src"));
  });
}

st_status st_dequantize_blocks(st_tensor dst, st_tensor values, st_tensor scales, const st_block_spec* spec) {
  return guarded("st_dequantize_blocks", [&] {
    const SpecFields f = read_spec(spec);
    PinnedHandle d(dst, "dst");
    PinnedHandle v(values, "values");
    PinnedHandle s(scales, "scales");
    ops::dequantize_blocks(*d, *v, *s, spec_for(f, *d, "dst"));
  });
}

}  // extern "C"
