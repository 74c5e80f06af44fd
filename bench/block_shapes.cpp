#include "block_shapes.h"

#include <cstring>

#include "bench.h"

namespace bench {

int block_length(st_block_format f) { return f == ST_BLOCK_NVFP4 ? 16 : 32; }

const char* block_format_name(st_block_format f) {
  switch (f) {
    case ST_BLOCK_MXFP8_E4M3: return "MXFP8 E4M3";
    case ST_BLOCK_MXFP8_E5M2: return "MXFP8 E5M2";
    case ST_BLOCK_MXFP6_E2M3: return "MXFP6 E2M3";
    case ST_BLOCK_MXFP6_E3M2: return "MXFP6 E3M2";
    case ST_BLOCK_MXFP4_E2M1: return "MXFP4";
    case ST_BLOCK_MXINT8: return "MXINT8";
    case ST_BLOCK_NVFP4: return "NVFP4";
  }
  return "?";
}

bool packed(st_block_format f) { return f == ST_BLOCK_MXFP4_E2M1 || f == ST_BLOCK_NVFP4; }

st_dtype value_dtype(st_block_format f) {
  if (f == ST_BLOCK_MXFP8_E4M3) return ST_FLOAT8_E4M3FN;
  if (packed(f)) return ST_FLOAT4_E2M1FN_X2;
  die("block case: no values dtype for format %d", static_cast<int>(f));
}

st_dtype scale_dtype(st_block_format f) { return f == ST_BLOCK_NVFP4 ? ST_FLOAT8_E4M3FN : ST_FLOAT8_E8M0FNU; }

std::vector<int64_t> values_sizes(std::vector<int64_t> sizes, int d, st_block_format f) {
  if (packed(f)) sizes[static_cast<size_t>(d)] /= 2;
  return sizes;
}

std::vector<int64_t> scales_sizes(std::vector<int64_t> sizes, int d, st_block_format f) {
  const int64_t b = block_length(f);
  sizes[static_cast<size_t>(d)] = (sizes[static_cast<size_t>(d)] + b - 1) / b;
  return sizes;
}

st_block_spec block_spec(st_block_format format, int32_t dim, st_scale_rule rule) {
  st_block_spec s;
  std::memset(&s, 0, sizeof s);
  s.struct_size = sizeof s;
  s.format = format;
  s.dim = dim;
  s.scale_rule = rule;
  s.global_scale = 0.0f;
  return s;
}

}  // namespace bench
