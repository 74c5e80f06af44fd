/* Every error class of API.md's "Errors" paragraph for st_quantize_blocks
 * and st_dequantize_blocks, each found before anything is written: all the
 * operands live in one arena filled with a sentinel (the sources with
 * values), and after each refused call every byte of it is as it was.
 * Operands on different devices, DEVICE_UNAVAILABLE and DEVICE_FAILURE need
 * a CUDA device: a CPU build has no CUDA tensor to pass. */
#include "block_test_support.h"
#include "dlpack_producer.h"

enum { SENTINEL = 0x5A, ARENA = 16384, SRC_AT = 0, VALUES_AT = 2048, SCALES_AT = 4096, DST_AT = 8192 };

static _Alignas(64) unsigned char g_arena[ARENA];
static unsigned char g_before[ARENA];

static void arena_reset(void) {
  memset(g_arena, SENTINEL, sizeof g_arena);
  for (int i = 0; i < 256; ++i) {
    const float v = (float)(i % 9) - 4.0f;
    memcpy(g_arena + SRC_AT + 4 * i, &v, 4);
  }
  memcpy(g_before, g_arena, sizeof g_arena);
}

static void expect_arena_unchanged(const char* what) {
  for (size_t k = 0; k < sizeof g_arena; ++k) {
    if (g_arena[k] != g_before[k]) {
      print_error("%s: byte %zu changed from 0x%02X to 0x%02X\n", what, k, g_before[k], g_arena[k]);
      fail();
    }
  }
}

static st_tensor wrap(size_t at, int32_t ndim, const int64_t* sizes, const int64_t* strides, st_dtype dtype) {
  st_tensor t = {0};
  EXPECT_OK(st_tensor_from_data(g_arena + at, sizes, strides, ndim, dtype, CPU, NULL, NULL, &t));
  return t;
}

static void release(st_tensor t) { EXPECT_OK(st_tensor_release(t)); }

/* A valid call to refuse in one way: src / dst (2, 64) float32, MXFP8 E4M3
 * values (2, 64), scales (2, 2), along dim -1. */
typedef struct call {
  st_tensor src, values, scales, dst;
} call;

static call base_call(ref_format f) {
  arena_reset();
  const int64_t fsz[2] = {2, 64}, vsz[2] = {2, is_fp4(f) ? 32 : 64}, ssz[2] = {2, f == REF_NVFP4 ? 4 : 2};
  call c;
  c.src = wrap(SRC_AT, 2, fsz, NULL, ST_FLOAT32);
  c.values = wrap(VALUES_AT, 2, vsz, NULL, value_dtype(f));
  c.scales = wrap(SCALES_AT, 2, ssz, NULL, scale_dtype(f));
  c.dst = wrap(DST_AT, 2, fsz, NULL, ST_FLOAT32);
  return c;
}

static void release_call(call* c) {
  release(c->src);
  release(c->values);
  release(c->scales);
  release(c->dst);
}

static void expect_status_of(st_status want, st_status got, const char* call, const char* what) {
  if (want != got) {
    print_error("%s: %s returned %s, expected %s (message: \"%s\")\n", what, call, st_status_name(got),
                st_status_name(want), st_last_error_message());
    fail();
  }
}

/* Both calls refused with `status`, the arena untouched, the message naming the call. */
static void expect_refused(st_status status, const call* c, const st_block_spec* spec, const char* what) {
  expect_status_of(status, st_quantize_blocks(c->values, c->scales, c->src, spec), "st_quantize_blocks", what);
  expect_message_contains("st_quantize_blocks");
  expect_arena_unchanged(what);
  expect_status_of(status, st_dequantize_blocks(c->dst, c->values, c->scales, spec), "st_dequantize_blocks", what);
  expect_message_contains("st_dequantize_blocks");
  expect_arena_unchanged(what);
}

static void expect_quantize_refused(st_status status, st_tensor values, st_tensor scales, st_tensor src,
                                    const st_block_spec* spec, const char* what) {
  expect_status_of(status, st_quantize_blocks(values, scales, src, spec), "st_quantize_blocks", what);
  expect_arena_unchanged(what);
}

static void expect_dequantize_refused(st_status status, st_tensor dst, st_tensor values, st_tensor scales,
                                      const st_block_spec* spec, const char* what) {
  expect_status_of(status, st_dequantize_blocks(dst, values, scales, spec), "st_dequantize_blocks", what);
  expect_arena_unchanged(what);
}

/* Both calls succeed: they write (the scales at least). */
static void expect_accepted(const call* c, const st_block_spec* spec, const char* what) {
  expect_status_of(ST_OK, st_quantize_blocks(c->values, c->scales, c->src, spec), "st_quantize_blocks", what);
  assert_true(memcmp(g_arena + SCALES_AT, g_before + SCALES_AT, 4) != 0);
  expect_status_of(ST_OK, st_dequantize_blocks(c->dst, c->values, c->scales, spec), "st_dequantize_blocks", what);
  assert_true(memcmp(g_arena + DST_AT, g_before + DST_AT, 512) != 0);
}

/* ---- INVALID_ARGUMENT ----------------------------------------------------------- */

static void spec_null_and_struct_sizes(void** state) {
  (void)state;
  call c = base_call(REF_MXFP8_E4M3);
  expect_refused(ST_ERROR_INVALID_ARGUMENT, &c, NULL, "spec NULL");
  static const size_t bad[] = {0, 8, 23, 4097, (size_t)-1};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
    st_block_spec spec = block_spec(REF_MXFP8_E4M3, REF_FLOOR, -1, 0);
    spec.struct_size = bad[k];
    char what[96];
    snprintf(what, sizeof what, "struct_size %zu", bad[k]);
    expect_refused(ST_ERROR_INVALID_ARGUMENT, &c, &spec, what);
  }
  assert_int_equal(sizeof(st_block_spec), 24);
  release_call(&c);
}

/* A newer caller's larger struct: accepted when every byte past the 24
 * known is zero, refused when one is not (as Linux's openat2). */
static void larger_spec_accepted_only_with_zero_tail(void** state) {
  (void)state;
  static const size_t sizes[] = {25, 32, 64, 4096};
  static _Alignas(8) unsigned char big[4096];
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
    memset(big, 0, sizeof big);
    st_block_spec spec = block_spec(REF_MXFP8_E4M3, REF_FLOOR, -1, 0);
    spec.struct_size = sizes[k];
    memcpy(big, &spec, sizeof spec);
    char what[96];
    snprintf(what, sizeof what, "struct_size %zu, tail zero", sizes[k]);
    call c = base_call(REF_MXFP8_E4M3);
    expect_accepted(&c, (const st_block_spec*)(const void*)big, what);
    release_call(&c);
    for (size_t at = 24; at < sizes[k]; at += (sizes[k] - 24 + 2) / 3) {
      big[at] = 1;
      snprintf(what, sizeof what, "struct_size %zu, byte %zu not zero", sizes[k], at);
      c = base_call(REF_MXFP8_E4M3);
      expect_refused(ST_ERROR_INVALID_ARGUMENT, &c, (const st_block_spec*)(const void*)big, what);
      release_call(&c);
      big[at] = 0;
    }
    big[sizes[k] - 1] = 0x80;
    snprintf(what, sizeof what, "struct_size %zu, last byte not zero", sizes[k]);
    c = base_call(REF_MXFP8_E4M3);
    expect_refused(ST_ERROR_INVALID_ARGUMENT, &c, (const st_block_spec*)(const void*)big, what);
    release_call(&c);
  }
}

static void unknown_format_and_scale_rule(void** state) {
  (void)state;
  call c = base_call(REF_MXFP8_E4M3);
  static const int32_t formats[] = {7, 8, -1, 1000};
  for (size_t k = 0; k < sizeof formats / sizeof formats[0]; ++k) {
    st_block_spec spec = block_spec(REF_MXFP8_E4M3, REF_FLOOR, -1, 0);
    spec.format = (st_block_format)formats[k];
    expect_refused(ST_ERROR_INVALID_ARGUMENT, &c, &spec, "unknown format");
  }
  static const int32_t rules[] = {2, -1, 77};
  for (size_t k = 0; k < sizeof rules / sizeof rules[0]; ++k) {
    st_block_spec spec = block_spec(REF_MXFP8_E4M3, REF_FLOOR, -1, 0);
    spec.scale_rule = (st_scale_rule)rules[k];
    expect_refused(ST_ERROR_INVALID_ARGUMENT, &c, &spec, "unknown scale_rule");
  }
  release_call(&c);
  /* NVFP4 checks the rule it does not use */
  c = base_call(REF_NVFP4);
  st_block_spec spec = block_spec(REF_NVFP4, REF_FLOOR, -1, 0);
  spec.scale_rule = (st_scale_rule)2;
  expect_refused(ST_ERROR_INVALID_ARGUMENT, &c, &spec, "NVFP4, unknown scale_rule");
  release_call(&c);
}

static void dim_out_of_range(void** state) {
  (void)state;
  call c = base_call(REF_MXFP8_E4M3);
  static const int32_t dims[] = {2, 3, -3, 25, -26, 1000};
  for (size_t k = 0; k < sizeof dims / sizeof dims[0]; ++k) {
    const st_block_spec spec = block_spec(REF_MXFP8_E4M3, REF_FLOOR, dims[k], 0);
    char what[32];
    snprintf(what, sizeof what, "dim %d of 2", (int)dims[k]);
    expect_refused(ST_ERROR_INVALID_ARGUMENT, &c, &spec, what);
  }
  release_call(&c);
  /* a 0-d src has no dim at all */
  arena_reset();
  st_tensor src = wrap(SRC_AT, 0, NULL, NULL, ST_FLOAT32), values = wrap(VALUES_AT, 0, NULL, NULL, ST_FLOAT8_E4M3FN),
            scales = wrap(SCALES_AT, 0, NULL, NULL, ST_FLOAT8_E8M0FNU), dst = wrap(DST_AT, 0, NULL, NULL, ST_FLOAT32);
  for (int32_t d = -1; d <= 0; ++d) {
    const st_block_spec spec = block_spec(REF_MXFP8_E4M3, REF_FLOOR, d, 0);
    expect_quantize_refused(ST_ERROR_INVALID_ARGUMENT, values, scales, src, &spec, "0-d src");
    expect_dequantize_refused(ST_ERROR_INVALID_ARGUMENT, dst, values, scales, &spec, "0-d dst");
  }
  release(src);
  release(values);
  release(scales);
  release(dst);
}

static void nvfp4_global_scale_negative_nan_or_infinite(void** state) {
  (void)state;
  static const uint32_t bad[] = {0xBF800000, 0x80000001, 0xFF7FFFFF, 0x7FC00000, 0xFFC00000, 0x7F800001,
                                 0x7F800000, 0xFF800000};
  call c = base_call(REF_NVFP4);
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
    const st_block_spec spec = block_spec(REF_NVFP4, REF_FLOOR, -1, bad[k]);
    char what[48];
    snprintf(what, sizeof what, "global_scale 0x%08X", (unsigned)bad[k]);
    expect_refused(ST_ERROR_INVALID_ARGUMENT, &c, &spec, what);
  }
  release_call(&c);
  /* MX formats ignore it */
  c = base_call(REF_MXFP8_E4M3);
  const st_block_spec spec = block_spec(REF_MXFP8_E4M3, REF_FLOOR, -1, 0x7FC00000);
  expect_accepted(&c, &spec, "MX with a NaN global_scale");
  release_call(&c);
}

/* MXFP4 and NVFP4 need an even size along dim, whatever values' shape. */
static void odd_size_along_dim_for_fp4(void** state) {
  (void)state;
  static const ref_format fp4[2] = {REF_MXFP4_E2M1, REF_NVFP4};
  for (int f = 0; f < 2; ++f) {
    arena_reset();
    const int64_t fsz[2] = {2, 63}, ssz[2] = {2, fp4[f] == REF_NVFP4 ? 4 : 2};
    static const int64_t vlen[3] = {31, 32, 63};
    st_tensor src = wrap(SRC_AT, 2, fsz, NULL, ST_FLOAT32), dst = wrap(DST_AT, 2, fsz, NULL, ST_FLOAT32),
              scales = wrap(SCALES_AT, 2, ssz, NULL, scale_dtype(fp4[f]));
    const st_block_spec spec = block_spec(fp4[f], REF_FLOOR, 1, 0);
    for (int k = 0; k < 3; ++k) {
      const int64_t vsz[2] = {2, vlen[k]};
      st_tensor values = wrap(VALUES_AT, 2, vsz, NULL, ST_FLOAT4_E2M1FN_X2);
      char what[96];
      snprintf(what, sizeof what, "%s, 63 along dim, values (2, %lld)", format_name(fp4[f]), (long long)vlen[k]);
      expect_quantize_refused(ST_ERROR_INVALID_ARGUMENT, values, scales, src, &spec, what);
      expect_dequantize_refused(ST_ERROR_INVALID_ARGUMENT, dst, values, scales, &spec, what);
      release(values);
    }
    release(src);
    release(dst);
    release(scales);
  }
}

/* ---- UNSUPPORTED_DTYPE ------------------------------------------------------------ */

static void dtypes_not_listed(void** state) {
  (void)state;
  static const st_dtype not_float[] = {ST_BOOL,     ST_UINT8,        ST_INT8,        ST_INT32,
                                       ST_INT64,    ST_COMPLEX64,    ST_FLOAT8_E4M3FN, ST_FLOAT8_E5M2,
                                       ST_UINT16,   ST_FLOAT8_E8M0FNU};
  const int64_t fsz[2] = {2, 64};
  const st_block_spec spec = block_spec(REF_MXFP8_E4M3, REF_FLOOR, -1, 0);
  for (size_t k = 0; k < sizeof not_float / sizeof not_float[0]; ++k) {
    call c = base_call(REF_MXFP8_E4M3);
    st_tensor bad = wrap(SRC_AT, 2, fsz, NULL, not_float[k]);
    char what[96];
    snprintf(what, sizeof what, "src / dst %s", st_dtype_name(not_float[k]));
    expect_quantize_refused(ST_ERROR_UNSUPPORTED_DTYPE, c.values, c.scales, bad, &spec, what);
    release(bad);
    bad = wrap(DST_AT, 2, fsz, NULL, not_float[k]);
    expect_dequantize_refused(ST_ERROR_UNSUPPORTED_DTYPE, bad, c.values, c.scales, &spec, what);
    release(bad);
    release_call(&c);
  }
  /* values of another element type, scales of the other family */
  static const struct {
    ref_format format;
    st_dtype values, scales;
  } wrong[] = {
      {REF_MXFP8_E4M3, ST_FLOAT8_E5M2, ST_FLOAT8_E8M0FNU},      {REF_MXFP8_E5M2, ST_FLOAT8_E4M3FN, ST_FLOAT8_E8M0FNU},
      {REF_MXFP6_E2M3, ST_FLOAT6_E3M2FN, ST_FLOAT8_E8M0FNU},    {REF_MXFP6_E3M2, ST_UINT8, ST_FLOAT8_E8M0FNU},
      {REF_MXINT8, ST_UINT8, ST_FLOAT8_E8M0FNU},                {REF_MXINT8, ST_INT8, ST_UINT8},
      {REF_MXFP8_E4M3, ST_FLOAT8_E4M3FN, ST_FLOAT8_E4M3FN},     {REF_MXINT8, ST_INT8, ST_FLOAT8_E4M3FN},
      {REF_MXFP4_E2M1, ST_UINT8, ST_FLOAT8_E8M0FNU},            {REF_NVFP4, ST_INT8, ST_FLOAT8_E4M3FN},
      {REF_NVFP4, ST_FLOAT4_E2M1FN_X2, ST_FLOAT8_E8M0FNU},      {REF_MXFP4_E2M1, ST_FLOAT4_E2M1FN_X2, ST_FLOAT8_E4M3FN},
  };
  for (size_t k = 0; k < sizeof wrong / sizeof wrong[0]; ++k) {
    const ref_format f = wrong[k].format;
    call c = base_call(f);
    const int64_t v[2] = {2, is_fp4(f) ? 32 : 64}, sc[2] = {2, f == REF_NVFP4 ? 4 : 2};
    st_tensor values = wrap(VALUES_AT, 2, v, NULL, wrong[k].values), scales = wrap(SCALES_AT, 2, sc, NULL, wrong[k].scales);
    const st_block_spec s = block_spec(f, REF_FLOOR, -1, 0);
    char what[96];
    snprintf(what, sizeof what, "%s with %s values and %s scales", format_name(f), st_dtype_name(wrong[k].values),
             st_dtype_name(wrong[k].scales));
    expect_quantize_refused(ST_ERROR_UNSUPPORTED_DTYPE, values, scales, c.src, &s, what);
    expect_dequantize_refused(ST_ERROR_UNSUPPORTED_DTYPE, c.dst, values, scales, &s, what);
    release(values);
    release(scales);
    release_call(&c);
  }
}

/* ---- SHAPE_MISMATCH -------------------------------------------------------------- */

static void shapes_that_do_not_match(void** state) {
  (void)state;
  static const struct {
    ref_format format;
    int32_t vndim, sndim;
    int64_t v[2], s[2];
  } cases[] = {
      {REF_MXFP8_E4M3, 2, 2, {2, 63}, {2, 2}}, {REF_MXFP8_E4M3, 2, 2, {2, 65}, {2, 2}},
      {REF_MXFP8_E4M3, 2, 2, {1, 64}, {2, 2}}, {REF_MXFP8_E4M3, 1, 2, {128, 0}, {2, 2}},
      {REF_MXFP8_E4M3, 2, 2, {2, 64}, {2, 1}}, {REF_MXFP8_E4M3, 2, 2, {2, 64}, {2, 3}},
      {REF_MXFP8_E4M3, 2, 2, {2, 64}, {1, 2}}, {REF_MXFP8_E4M3, 2, 1, {2, 64}, {4, 0}},
      {REF_MXFP8_E4M3, 2, 2, {2, 64}, {2, 64}}, {REF_MXFP4_E2M1, 2, 2, {2, 64}, {2, 2}},
      {REF_MXFP4_E2M1, 2, 2, {2, 31}, {2, 2}}, {REF_NVFP4, 2, 2, {2, 32}, {2, 2}},
      {REF_NVFP4, 2, 2, {2, 16}, {2, 4}},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    call c = base_call(cases[k].format);
    st_tensor values = wrap(VALUES_AT, cases[k].vndim, cases[k].v, NULL, value_dtype(cases[k].format)),
              scales = wrap(SCALES_AT, cases[k].sndim, cases[k].s, NULL, scale_dtype(cases[k].format));
    const st_block_spec spec = block_spec(cases[k].format, REF_FLOOR, -1, 0);
    char what[96];
    snprintf(what, sizeof what, "%s: values (%lld, %lld), scales (%lld, %lld) for (2, 64)",
             format_name(cases[k].format), (long long)cases[k].v[0], (long long)cases[k].v[1],
             (long long)cases[k].s[0], (long long)cases[k].s[1]);
    expect_quantize_refused(ST_ERROR_SHAPE_MISMATCH, values, scales, c.src, &spec, what);
    expect_dequantize_refused(ST_ERROR_SHAPE_MISMATCH, c.dst, values, scales, &spec, what);
    release(values);
    release(scales);
    release_call(&c);
  }
  /* dst of another shape than values and scales say */
  call c = base_call(REF_MXFP8_E4M3);
  static const int64_t dsz[3][2] = {{2, 32}, {2, 65}, {4, 64}};
  const st_block_spec spec = block_spec(REF_MXFP8_E4M3, REF_FLOOR, -1, 0);
  for (int k = 0; k < 3; ++k) {
    st_tensor dst = wrap(DST_AT, 2, dsz[k], NULL, ST_FLOAT32);
    expect_dequantize_refused(ST_ERROR_SHAPE_MISMATCH, dst, c.values, c.scales, &spec, "dst shape");
    release(dst);
  }
  release_call(&c);
}

/* ---- OVERLAP ---------------------------------------------------------------------- */

/* st_copy's rule for each written tensor, and no written tensor's byte range
 * (lowest to highest element) meeting another operand's. */
static void overlapping_operands(void** state) {
  (void)state;
  const st_block_spec spec = block_spec(REF_MXFP8_E4M3, REF_FLOOR, -1, 0);
  const int64_t fsz[2] = {2, 64}, ssz[2] = {2, 2};
  /* values expanded along rows: its two rows are the same bytes */
  {
    call c = base_call(REF_MXFP8_E4M3);
    const int64_t st[2] = {0, 1};
    st_tensor values = wrap(VALUES_AT, 2, fsz, st, ST_FLOAT8_E4M3FN);
    expect_quantize_refused(ST_ERROR_OVERLAP, values, c.scales, c.src, &spec, "values self-overlapping");
    release(values);
    st_tensor scales = wrap(SCALES_AT, 2, ssz, st, ST_FLOAT8_E8M0FNU);
    expect_quantize_refused(ST_ERROR_OVERLAP, c.values, scales, c.src, &spec, "scales self-overlapping");
    release(scales);
    const int64_t half[2] = {32, 1}; /* rows 32 apart, 64 long */
    st_tensor dst = wrap(DST_AT, 2, fsz, half, ST_FLOAT32);
    expect_dequantize_refused(ST_ERROR_OVERLAP, dst, c.values, c.scales, &spec, "dst self-overlapping");
    release(dst);
    release_call(&c);
  }
  /* two operands over the same bytes (each wrapped on its own, so the
   * overlap is of addresses, not of one storage) */
  {
    call c = base_call(REF_MXFP8_E4M3);
    st_tensor scales_in_values = wrap(VALUES_AT + 60, 2, ssz, NULL, ST_FLOAT8_E8M0FNU);
    expect_quantize_refused(ST_ERROR_OVERLAP, c.values, scales_in_values, c.src, &spec, "scales inside values");
    /* dequantize writes neither: the two may share bytes */
    EXPECT_OK(st_dequantize_blocks(c.dst, c.values, scales_in_values, &spec));
    arena_reset();
    release(scales_in_values);
    st_tensor values_on_src = wrap(SRC_AT + 100, 2, fsz, NULL, ST_FLOAT8_E4M3FN);
    expect_quantize_refused(ST_ERROR_OVERLAP, values_on_src, c.scales, c.src, &spec, "values over src");
    release(values_on_src);
    st_tensor scales_on_src = wrap(SRC_AT + 511, 2, ssz, NULL, ST_FLOAT8_E8M0FNU);
    expect_quantize_refused(ST_ERROR_OVERLAP, c.values, scales_on_src, c.src, &spec, "scales over src's last byte");
    release(scales_on_src);
    st_tensor dst_on_values = wrap(VALUES_AT - 4, 2, fsz, NULL, ST_FLOAT32);
    expect_dequantize_refused(ST_ERROR_OVERLAP, dst_on_values, c.values, c.scales, &spec, "dst over values");
    release(dst_on_values);
    st_tensor dst_on_scales = wrap(SCALES_AT - 508, 2, fsz, NULL, ST_FLOAT32);
    expect_dequantize_refused(ST_ERROR_OVERLAP, dst_on_scales, c.values, c.scales, &spec, "dst over scales");
    release(dst_on_scales);
    release_call(&c);
  }
  /* interleaved: values on the even bytes, scales on odd ones between
   * them; no byte shared, but the ranges meet */
  {
    call c = base_call(REF_MXFP8_E4M3);
    const int64_t vst[2] = {128, 2}, sst[2] = {4, 2};
    st_tensor values = wrap(VALUES_AT, 2, fsz, vst, ST_FLOAT8_E4M3FN);
    st_tensor scales = wrap(VALUES_AT + 1, 2, ssz, sst, ST_FLOAT8_E8M0FNU);
    expect_quantize_refused(ST_ERROR_OVERLAP, values, scales, c.src, &spec, "scales between values' bytes");
    release(values);
    release(scales);
    release_call(&c);
  }
  /* side by side, not meeting: accepted */
  {
    call c = base_call(REF_MXFP8_E4M3);
    st_tensor scales = wrap(VALUES_AT + 128, 2, ssz, NULL, ST_FLOAT8_E8M0FNU);
    EXPECT_OK(st_quantize_blocks(c.values, scales, c.src, &spec));
    release(scales);
    release_call(&c);
  }
}

/* ---- INVALID_HANDLE and READ_ONLY -------------------------------------------------------- */

static void null_and_released_handles(void** state) {
  (void)state;
  const st_block_spec spec = block_spec(REF_MXFP8_E4M3, REF_FLOOR, -1, 0);
  call c = base_call(REF_MXFP8_E4M3);
  const st_tensor null = {0};
  const int64_t fsz[2] = {2, 64};
  st_tensor dead = wrap(DST_AT + 1024, 2, fsz, NULL, ST_FLOAT32);
  release(dead);
  const st_tensor bad[2] = {null, dead};
  for (int k = 0; k < 2; ++k) {
    expect_quantize_refused(ST_ERROR_INVALID_HANDLE, bad[k], c.scales, c.src, &spec, "values");
    expect_quantize_refused(ST_ERROR_INVALID_HANDLE, c.values, bad[k], c.src, &spec, "scales");
    expect_quantize_refused(ST_ERROR_INVALID_HANDLE, c.values, c.scales, bad[k], &spec, "src");
    expect_dequantize_refused(ST_ERROR_INVALID_HANDLE, bad[k], c.values, c.scales, &spec, "dst");
    expect_dequantize_refused(ST_ERROR_INVALID_HANDLE, c.dst, bad[k], c.scales, &spec, "values");
    expect_dequantize_refused(ST_ERROR_INVALID_HANDLE, c.dst, c.values, bad[k], &spec, "scales");
  }
  release_call(&c);
}

/* A tensor imported read-only (DLPack flag) is refused as values, scales or
 * dst, and read as src, values or scales. */
static st_tensor import_read_only(producer** p, int32_t ndim, const int64_t* sizes, uint8_t code, uint8_t bits) {
  *p = producer_new(ndim, sizes, NULL, code, bits);
  memset((*p)->buffer, 0x38, sizeof (*p)->buffer); /* float32 0x38383838, E4M3 and E8M0 0x38 */
  (*p)->versioned.flags = ST_DLPACK_FLAG_READ_ONLY;
  st_tensor t = {0};
  EXPECT_OK(st_from_dlpack_versioned(&(*p)->versioned, &t));
  return t;
}

static void read_only_outputs(void** state) {
  (void)state;
  const st_block_spec spec = block_spec(REF_MXINT8, REF_FLOOR, -1, 0);
  const int64_t fsz[2] = {2, 64}, ssz[2] = {2, 2};
  arena_reset();
  st_tensor src = wrap(SRC_AT, 2, fsz, NULL, ST_FLOAT32), values = wrap(VALUES_AT, 2, fsz, NULL, ST_INT8),
            scales = wrap(SCALES_AT, 2, ssz, NULL, ST_FLOAT8_E8M0FNU), dst = wrap(DST_AT, 2, fsz, NULL, ST_FLOAT32);
  producer *pv, *ps, *pd;
  st_tensor ro_values = import_read_only(&pv, 2, fsz, kDLInt, 8);
  st_tensor ro_scales = import_read_only(&ps, 2, ssz, 14 /* kDLFloat8_e8m0fnu */, 8);
  st_tensor ro_dst = import_read_only(&pd, 2, fsz, kDLFloat, 32);
  unsigned char before[512];
  memcpy(before, pv->buffer, sizeof before);
  expect_quantize_refused(ST_ERROR_READ_ONLY, ro_values, scales, src, &spec, "read-only values");
  expect_quantize_refused(ST_ERROR_READ_ONLY, values, ro_scales, src, &spec, "read-only scales");
  expect_dequantize_refused(ST_ERROR_READ_ONLY, ro_dst, values, scales, &spec, "read-only dst");
  assert_memory_equal(pv->buffer, before, sizeof before);
  assert_memory_equal(ps->buffer, before, sizeof before);
  assert_memory_equal(pd->buffer, before, sizeof before);
  /* reading them is allowed */
  EXPECT_OK(st_quantize_blocks(values, scales, ro_dst, &spec));
  EXPECT_OK(st_dequantize_blocks(dst, ro_values, ro_scales, &spec));
  release(src);
  release(values);
  release(scales);
  release(dst);
  release(ro_values);
  release(ro_scales);
  release(ro_dst);
  producer_free(pv);
  producer_free(ps);
  producer_free(pd);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(spec_null_and_struct_sizes),
      cmocka_unit_test(larger_spec_accepted_only_with_zero_tail),
      cmocka_unit_test(unknown_format_and_scale_rule),
      cmocka_unit_test(dim_out_of_range),
      cmocka_unit_test(nvfp4_global_scale_negative_nan_or_infinite),
      cmocka_unit_test(odd_size_along_dim_for_fp4),
      cmocka_unit_test(dtypes_not_listed),
      cmocka_unit_test(shapes_that_do_not_match),
      cmocka_unit_test(overlapping_operands),
      cmocka_unit_test(null_and_released_handles),
      cmocka_unit_test(read_only_outputs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
