#include "block_test_support.h"

#include <stdlib.h>

const ref_format kAllFormats[REF_NUM_FORMATS] = {REF_MXFP8_E4M3, REF_MXFP8_E5M2, REF_MXFP6_E2M3, REF_MXFP6_E3M2,
                                                 REF_MXFP4_E2M1, REF_MXINT8,     REF_NVFP4};
const st_dtype kFloatDtypes[4] = {ST_FLOAT32, ST_FLOAT16, ST_BFLOAT16, ST_FLOAT64};

const char* format_name(ref_format f) {
  static const char* names[REF_NUM_FORMATS] = {"MXFP8_E4M3", "MXFP8_E5M2", "MXFP6_E2M3", "MXFP6_E3M2",
                                               "MXFP4_E2M1", "MXINT8",     "NVFP4"};
  return names[f];
}

st_dtype value_dtype(ref_format f) {
  switch (f) {
    case REF_MXFP8_E4M3: return ST_FLOAT8_E4M3FN;
    case REF_MXFP8_E5M2: return ST_FLOAT8_E5M2;
    case REF_MXFP6_E2M3: return ST_FLOAT6_E2M3FN;
    case REF_MXFP6_E3M2: return ST_FLOAT6_E3M2FN;
    case REF_MXINT8: return ST_INT8;
    default: return ST_FLOAT4_E2M1FN_X2;
  }
}

st_dtype scale_dtype(ref_format f) { return f == REF_NVFP4 ? ST_FLOAT8_E4M3FN : ST_FLOAT8_E8M0FNU; }

ref_float ref_float_of(st_dtype float_dtype) {
  switch (float_dtype) {
    case ST_FLOAT16: return REF_FLOAT16;
    case ST_BFLOAT16: return REF_BFLOAT16;
    case ST_FLOAT64: return REF_FLOAT64;
    default: return REF_FLOAT32;
  }
}

st_dtype float_dtype_of(ref_float t) {
  switch (t) {
    case REF_FLOAT16: return ST_FLOAT16;
    case REF_BFLOAT16: return ST_BFLOAT16;
    case REF_FLOAT64: return ST_FLOAT64;
    default: return ST_FLOAT32;
  }
}

int is_fp4(ref_format f) { return f == REF_MXFP4_E2M1 || f == REF_NVFP4; }

st_block_spec block_spec(ref_format f, ref_rule rule, int32_t dim, uint32_t global_scale_bits) {
  st_block_spec s;
  memset(&s, 0, sizeof s);
  s.struct_size = sizeof s;
  s.format = (st_block_format)f;
  s.dim = dim;
  s.scale_rule = (st_scale_rule)rule;
  memcpy(&s.global_scale, &global_scale_bits, sizeof s.global_scale);
  return s;
}

uint32_t f32_bits_of(float v) {
  uint32_t b;
  memcpy(&b, &v, sizeof b);
  return b;
}

uint64_t f64_bits_of(double v) {
  uint64_t b;
  memcpy(&b, &v, sizeof b);
  return b;
}

/* ---- Operands ------------------------------------------------------------------ */

static void shapes_of(const block_operands* o, int32_t ndim, const int64_t* sizes, int64_t* vsizes,
                      int64_t* ssizes) {
  const int64_t bs = ref_block_size(o->format);
  for (int32_t d = 0; d < ndim; ++d) vsizes[d] = ssizes[d] = sizes[d];
  if (is_fp4(o->format)) vsizes[o->dim] = sizes[o->dim] / 2;
  ssizes[o->dim] = (sizes[o->dim] + bs - 1) / bs;
}

static void make_operand(uint64_t* rng, st_dtype dtype, int32_t ndim, const int64_t* sizes, enum layout_kind kind,
                         layout* l, buffer* b) {
  int64_t numel = 1;
  if (kind == RANDOM_LAYOUT) {
    numel = random_layout(rng, ndim, sizes, 0, l);
  } else {
    *l = row_major(ndim, sizes, 0);
    for (int32_t d = 0; d < ndim; ++d) numel *= sizes[d];
  }
  *b = buffer_create(dtype, numel, rng);
}

void block_operands_create(block_operands* o, ref_format f, ref_rule rule, uint32_t global_scale_bits,
                           st_dtype float_dtype, int32_t ndim, const int64_t* sizes, int32_t dim, enum layout_kind kind,
                           uint64_t* rng) {
  memset(o, 0, sizeof *o);
  o->format = f;
  o->rule = rule;
  o->global_scale_bits = global_scale_bits;
  o->dim = dim;
  o->float_dtype = float_dtype;
  int64_t vsizes[ST_MAX_DIMS], ssizes[ST_MAX_DIMS];
  shapes_of(o, ndim, sizes, vsizes, ssizes);
  make_operand(rng, float_dtype, ndim, sizes, kind, &o->fl, &o->fb);
  make_operand(rng, value_dtype(f), ndim, vsizes, kind, &o->vl, &o->vb);
  make_operand(rng, scale_dtype(f), ndim, ssizes, kind, &o->sl, &o->sb);
}

void block_operands_destroy(block_operands* o) {
  buffer_destroy(&o->fb);
  buffer_destroy(&o->vb);
  buffer_destroy(&o->sb);
}

unsigned char* element_at(const buffer* b, const layout* l, const int64_t* index) {
  int64_t at = l->offset;
  for (int32_t d = 0; d < l->ndim; ++d) at += index[d] * l->strides[d];
  return b->bytes + at * (int64_t)b->itemsize;
}

uint64_t load_bits(const unsigned char* p, size_t itemsize) {
  switch (itemsize) {
    case 2: {
      uint16_t v;
      memcpy(&v, p, 2);
      return v;
    }
    case 4: {
      uint32_t v;
      memcpy(&v, p, 4);
      return v;
    }
    case 8: {
      uint64_t v;
      memcpy(&v, p, 8);
      return v;
    }
    default: return *p;
  }
}

void store_bits(unsigned char* p, size_t itemsize, uint64_t bits) {
  switch (itemsize) {
    case 2: {
      const uint16_t v = (uint16_t)bits;
      memcpy(p, &v, 2);
      break;
    }
    case 4: {
      const uint32_t v = (uint32_t)bits;
      memcpy(p, &v, 4);
      break;
    }
    case 8: memcpy(p, &bits, 8); break;
    default: *p = (unsigned char)bits;
  }
}

int64_t block_count(const block_operands* o) {
  int64_t n = 1;
  for (int32_t d = 0; d < o->sl.ndim; ++d) n *= o->sl.sizes[d];
  return n;
}

void for_each_block(block_operands* o, block_visitor visit, void* ctx) {
  const int32_t ndim = o->fl.ndim;
  for (int32_t d = 0; d < ndim; ++d) {
    if (o->fl.sizes[d] == 0) return;
  }
  const int64_t bs = ref_block_size(o->format), n = o->fl.sizes[o->dim];
  int64_t index[ST_MAX_DIMS] = {0};
  for (;;) {
    for (int64_t start = 0; start < n; start += bs) {
      index[o->dim] = start;
      visit(o, index, (int)(n - start < bs ? n - start : bs), ctx);
    }
    index[o->dim] = 0;
    int32_t d = ndim - 1;
    for (; d >= 0; --d) {
      if (d == o->dim) continue;
      if (++index[d] < o->fl.sizes[d]) break;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

/* ---- Random values ----------------------------------------------------------- */

typedef struct fill_ctx {
  uint64_t* rng;
  int specials, wide;
} fill_ctx;

/* A random value of t: a random mantissa at 2^e, or a special. */
static uint64_t random_value(ref_float t, uint64_t* rng, int e, int specials) {
  const int mbits = ref_bits(t) == 64 ? 52 : ref_bits(t) == 32 ? 23 : t == REF_FLOAT16 ? 10 : 7;
  const int64_t pick = rng_below(rng, 256);
  ref_value v = {REF_FINITE, (int)(rng_next(rng) & 1), 0, 0};
  if (specials && pick < 4) {
    v.kind = REF_NAN;
  } else if (specials && pick < 8) {
    v.kind = REF_INF;
  } else if (pick < 24) {
    v.mant = 0; /* ±0 */
  } else {
    v.mant = (rng_next(rng) >> (63 - mbits)) | (1ull << mbits);
    v.exp = e - mbits;
  }
  uint64_t bits = ref_encode(t, v);
  if (v.kind == REF_NAN) { /* any payload, either sign */
    bits |= rng_next(rng) & ((1ull << (mbits - 1)) - 1);
    if (v.negative) bits |= 1ull << (ref_bits(t) - 1);
  }
  return bits;
}

static void fill_block(block_operands* o, const int64_t* line, int n, void* vctx) {
  fill_ctx* c = vctx;
  const ref_float t = ref_float_of(o->float_dtype);
  int lo, hi; /* the binades of the block's largest element */
  switch (t) {
    case REF_FLOAT16: lo = -26, hi = 16; break;
    case REF_FLOAT64: lo = c->wide ? -1080 : -160, hi = c->wide ? 1024 : 140; break;
    default: lo = -152, hi = 128; break;
  }
  const int top = lo + (int)rng_below(c->rng, hi - lo + 1);
  const int spread = rng_below(c->rng, 4) == 0 ? 40 : 12;
  int64_t index[ST_MAX_DIMS];
  memcpy(index, line, sizeof(int64_t) * (size_t)o->fl.ndim);
  const int64_t first = line[o->dim];
  for (int i = 0; i < n; ++i) {
    index[o->dim] = first + i;
    const int e = top - (int)rng_below(c->rng, spread + 1);
    store_bits(element_at(&o->fb, &o->fl, index), o->fb.itemsize, random_value(t, c->rng, e, c->specials));
  }
}

void fill_random_floats(block_operands* o, uint64_t* rng, int specials, int wide) {
  fill_ctx c = {rng, specials, wide};
  for_each_block(o, fill_block, &c);
}

/* ---- Reading blocks ----------------------------------------------------------- */

void reference_block(const block_operands* o, const int64_t* line, int n, uint64_t* x, uint8_t* codes,
                     uint8_t* scale) {
  int64_t index[ST_MAX_DIMS];
  memcpy(index, line, sizeof(int64_t) * (size_t)o->fl.ndim);
  for (int i = 0; i < n; ++i) {
    index[o->dim] = line[o->dim] + i;
    x[i] = load_bits(element_at(&o->fb, &o->fl, index), o->fb.itemsize);
  }
  ref_quantize_block(o->format, o->rule, o->global_scale_bits, ref_float_of(o->float_dtype), x, n, codes, scale);
}

/* The address of element i's byte in values (FP4: the byte of the pair). */
static unsigned char* value_byte(const block_operands* o, const int64_t* line, int i) {
  int64_t index[ST_MAX_DIMS];
  memcpy(index, line, sizeof(int64_t) * (size_t)o->fl.ndim);
  const int64_t e = line[o->dim] + i;
  index[o->dim] = is_fp4(o->format) ? e / 2 : e;
  return element_at(&o->vb, &o->vl, index);
}

static unsigned char* scale_byte(const block_operands* o, const int64_t* line) {
  int64_t index[ST_MAX_DIMS];
  memcpy(index, line, sizeof(int64_t) * (size_t)o->fl.ndim);
  index[o->dim] = line[o->dim] / ref_block_size(o->format);
  return element_at(&o->sb, &o->sl, index);
}

void written_block(const block_operands* o, const int64_t* line, int n, uint8_t* codes, uint8_t* scale) {
  for (int i = 0; i < n; ++i) {
    const unsigned char byte = *value_byte(o, line, i);
    const int64_t e = line[o->dim] + i;
    codes[i] = is_fp4(o->format) ? (uint8_t)((e % 2 ? byte >> 4 : byte) & 0xF) : byte;
  }
  *scale = *scale_byte(o, line);
}

/* ---- Byte masks of the elements ------------------------------------------------- */

/* Sets mask[k] for every byte k of b that an element of l occupies. */
static void mark_elements(const buffer* b, const layout* l, unsigned char* mask) {
  for (int32_t d = 0; d < l->ndim; ++d) {
    if (l->sizes[d] == 0) return;
  }
  int64_t index[ST_MAX_DIMS] = {0};
  for (;;) {
    const unsigned char* p = element_at(b, l, index);
    memset(mask + (p - b->bytes), 1, b->itemsize);
    int32_t d = l->ndim - 1;
    for (; d >= 0; --d) {
      if (++index[d] < l->sizes[d]) break;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

static unsigned char* snapshot(const buffer* b) {
  const size_t n = (size_t)b->numel * b->itemsize;
  unsigned char* s = malloc(n);
  assert_non_null(s);
  memcpy(s, b->bytes, n);
  return s;
}

/* Every byte of b outside l's elements (every byte, with l NULL) is as in
 * `before`. */
static void expect_untouched(const buffer* b, const layout* l, const unsigned char* before, const char* operand,
                             const char* what) {
  const size_t n = (size_t)b->numel * b->itemsize;
  unsigned char* mask = calloc(n ? n : 1, 1);
  assert_non_null(mask);
  if (l) mark_elements(b, l, mask);
  for (size_t k = 0; k < n; ++k) {
    if (!mask[k] && b->bytes[k] != before[k]) {
      print_error("%s: %s byte %zu, outside what the call may write, changed from 0x%02X to 0x%02X\n", what, operand,
                  k, before[k], b->bytes[k]);
      free(mask);
      fail();
    }
  }
  free(mask);
}

static void describe_line(const block_operands* o, const int64_t* line, char* out, size_t cap) {
  int at = snprintf(out, cap, "%s %s g 0x%08X, %s, dim %d, block at (", format_name(o->format),
                    o->rule == REF_RCEIL ? "rceil" : "floor", (unsigned)o->global_scale_bits,
                    st_dtype_name(o->float_dtype), (int)o->dim);
  for (int32_t d = 0; d < o->fl.ndim && at > 0 && (size_t)at < cap; ++d) {
    at += snprintf(out + at, cap - (size_t)at, d ? ", %lld" : "%lld", (long long)line[d]);
  }
  if (at > 0 && (size_t)at < cap) snprintf(out + at, cap - (size_t)at, ")");
}

/* ---- Quantize ----------------------------------------------------------------- */

static void run_and_check(block_operands* o, int32_t spec_dim, const char* what, int quantize, block_visitor check);

typedef struct check_ctx {
  const char* what;
  int mismatches;
} check_ctx;

static void print_bytes(const char* label, const uint8_t* v, int n) {
  print_message("    %s:", label);
  for (int i = 0; i < n; ++i) print_message(" %02X", v[i]);
  print_message("\n");
}

static void check_quantized_block(block_operands* o, const int64_t* line, int n, void* vctx) {
  check_ctx* c = vctx;
  uint64_t x[32];
  uint8_t want[32], got[32], want_scale, got_scale;
  reference_block(o, line, n, x, want, &want_scale);
  written_block(o, line, n, got, &got_scale);
  if (want_scale == got_scale && memcmp(want, got, (size_t)n) == 0) return;
  if (c->mismatches++ < 3) {
    char where[256];
    describe_line(o, line, where, sizeof where);
    print_message("%s: %s, %d elements:\n    input bits:", c->what, where, n);
    for (int i = 0; i < n; ++i) print_message(" %llX", (unsigned long long)x[i]);
    print_message("\n    scale expected %02X, got %02X\n", want_scale, got_scale);
    print_bytes("codes expected", want, n);
    print_bytes("codes got     ", got, n);
  }
}

/* Runs the call (quantize: src -> values, scales; dequantize: values,
 * scales -> dst) on views of the operands, checks each block with `check`,
 * and that nothing outside the written elements changed. */
static void run_and_check(block_operands* o, int32_t spec_dim, const char* what, int quantize, block_visitor check) {
  unsigned char* fbefore = snapshot(&o->fb);
  unsigned char* vbefore = snapshot(&o->vb);
  unsigned char* sbefore = snapshot(&o->sb);
  st_tensor f = buffer_view(&o->fb, &o->fl), values = buffer_view(&o->vb, &o->vl), scales = buffer_view(&o->sb, &o->sl);
  const st_block_spec spec = block_spec(o->format, o->rule, spec_dim, o->global_scale_bits);
  const st_status s =
      quantize ? st_quantize_blocks(values, scales, f, &spec) : st_dequantize_blocks(f, values, scales, &spec);
  if (s != ST_OK) {
    print_error("%s: %s returned %s (%s)\n", what, quantize ? "st_quantize_blocks" : "st_dequantize_blocks",
                st_status_name(s), st_last_error_message());
    fail();
  }
  check_ctx c = {what, 0};
  for_each_block(o, check, &c);
  if (c.mismatches) {
    print_error("%s: %d of %lld blocks differ from the reference\n", what, c.mismatches, (long long)block_count(o));
    fail();
  }
  expect_untouched(&o->fb, quantize ? NULL : &o->fl, fbefore, quantize ? "src" : "dst", what);
  expect_untouched(&o->vb, quantize ? &o->vl : NULL, vbefore, "values", what);
  expect_untouched(&o->sb, quantize ? &o->sl : NULL, sbefore, "scales", what);
  EXPECT_OK(st_tensor_release(f));
  EXPECT_OK(st_tensor_release(values));
  EXPECT_OK(st_tensor_release(scales));
  free(fbefore);
  free(vbefore);
  free(sbefore);
}

void check_quantize(block_operands* o, int32_t spec_dim, const char* what) {
  run_and_check(o, spec_dim, what, 1, check_quantized_block);
}

/* ---- Dequantize ---------------------------------------------------------------- */

static void check_dequantized_block(block_operands* o, const int64_t* line, int n, void* vctx) {
  check_ctx* c = vctx;
  const ref_float t = ref_float_of(o->float_dtype);
  uint8_t codes[32], scale;
  uint64_t want[32], got[32];
  written_block(o, line, n, codes, &scale);
  ref_dequantize_block(o->format, o->global_scale_bits, t, codes, n, scale, want);
  int differs = 0;
  int64_t index[ST_MAX_DIMS];
  memcpy(index, line, sizeof(int64_t) * (size_t)o->fl.ndim);
  for (int i = 0; i < n; ++i) {
    index[o->dim] = line[o->dim] + i;
    got[i] = load_bits(element_at(&o->fb, &o->fl, index), o->fb.itemsize);
    if (ref_is_nan(t, want[i]) ? !ref_is_nan(t, got[i]) : got[i] != want[i]) differs = 1;
  }
  if (!differs || c->mismatches++ >= 3) return;
  char where[256];
  describe_line(o, line, where, sizeof where);
  print_message("%s: %s, %d elements, scale %02X:\n", c->what, where, n, scale);
  print_bytes("codes", codes, n);
  print_message("    expected:");
  for (int i = 0; i < n; ++i) print_message(" %llX", (unsigned long long)want[i]);
  print_message("\n    got     :");
  for (int i = 0; i < n; ++i) print_message(" %llX", (unsigned long long)got[i]);
  print_message("\n");
}

void check_dequantize(block_operands* o, int32_t spec_dim, const char* what) {
  run_and_check(o, spec_dim, what, 0, check_dequantized_block);
}
