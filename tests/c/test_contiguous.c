/* st_contiguous, st_clone and st_to: which handle comes back, the layout of
 * a new tensor (include/stride.h, Operators: row-major, channels-last,
 * PRESERVE) and its values against the reference copy, on hand-made sources
 * and on random layouts (permuted, sliced with steps, flipped, expanded,
 * channels-last). Set ST_TEST_SEED to replay other random cases. */
#include <stdlib.h>

#include "copy_support.h"

#define CASES 1500

static void release_all(st_tensor* ts, int n) {
  for (int i = 0; i < n; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

static void expect_floats(st_tensor t, int64_t n, const float* want) {
  layout l = layout_of(t);
  const float* base = (const float*)storage_base(t);
  int64_t index[ST_MAX_DIMS] = {0};
  for (int64_t k = 0; k < n; ++k) { /* t's elements in row-major order */
    int64_t at = l.offset;
    for (int32_t d = 0; d < l.ndim; ++d) at += index[d] * l.strides[d];
    if (base[at] != want[k]) {
      print_error("element %lld in row-major order is %g, expected %g\n", (long long)k, (double)base[at],
                  (double)want[k]);
      fail();
    }
    for (int32_t d = l.ndim - 1; d >= 0 && ++index[d] == l.sizes[d]; --d) index[d] = 0;
  }
}

/* ---- st_contiguous ------------------------------------------------------------ */

static void contiguous_of_a_contiguous_tensor_is_the_same_handle_with_one_more_reference(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), out = {0};
  EXPECT_OK(st_contiguous(x, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  assert_true(out.id == x.id);
  EXPECT_OK(st_tensor_release(out));
  EXPECT_OK(st_tensor_release(x));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_release(x)); /* two references, two releases */
}

static void contiguous_channels_last_of_a_channels_last_tensor_is_the_same_handle(void** state) {
  (void)state;
  st_tensor x = {0}, out = {0};
  EXPECT_OK(st_tensor_create_strided(DIMS(2, 3, 2, 2), DIMS(12, 1, 6, 3), 4, ST_FLOAT32, CPU, &x));
  EXPECT_OK(st_contiguous(x, ST_MEMORY_FORMAT_CHANNELS_LAST, &out));
  assert_true(out.id == x.id);
  EXPECT_OK(st_tensor_release(out));
  /* the same tensor is not row-major: CONTIGUOUS copies it */
  EXPECT_OK(st_contiguous(x, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  assert_true(out.id != x.id);
  expect_layout(out, 4, DIMS(2, 3, 2, 2), DIMS(12, 4, 2, 1), 0);
  st_tensor ts[] = {x, out};
  release_all(ts, 2);
}

static void contiguous_of_a_transpose_is_a_row_major_copy(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), xt = {0}, out = {0};
  EXPECT_OK(st_transpose(x, 0, 1, &xt));
  EXPECT_OK(st_contiguous(xt, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  assert_true(out.id != xt.id);
  assert_true(data_ptr(out) != data_ptr(x));
  expect_layout(out, 2, DIMS(3, 2), DIMS(2, 1), 0);
  const float want[] = {0, 3, 1, 4, 2, 5};
  expect_floats(out, 6, want);
  st_tensor ts[] = {x, xt, out};
  release_all(ts, 3);
}

static void contiguous_channels_last_of_nchw_is_nhwc_in_memory(void** state) {
  (void)state;
  /* N=1, C=3, H=2, W=2 holding 0..11 in NCHW order */
  st_tensor x = make_iota_f32(DIMS(1, 3, 2, 2), 4), out = {0};
  EXPECT_OK(st_contiguous(x, ST_MEMORY_FORMAT_CHANNELS_LAST, &out));
  expect_layout(out, 4, DIMS(1, 3, 2, 2), DIMS(12, 1, 6, 3), 0);
  const float* p = data_ptr(out);
  /* memory holds (h, w, c): pixel (0, 0) is 0, 4, 8; pixel (0, 1) is 1, 5, 9; ... */
  const float want_memory[] = {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11};
  for (int i = 0; i < 12; ++i) assert_true(p[i] == want_memory[i]);
  st_tensor ts[] = {x, out};
  release_all(ts, 2);
}

static void contiguous_channels_last_3d_of_ncdhw_is_ndhwc_in_memory(void** state) {
  (void)state;
  /* N=1, C=2, D=2, H=1, W=2 holding 0..7 */
  st_tensor x = make_iota_f32(DIMS(1, 2, 2, 1, 2), 5), out = {0};
  EXPECT_OK(st_contiguous(x, ST_MEMORY_FORMAT_CHANNELS_LAST_3D, &out));
  expect_layout(out, 5, DIMS(1, 2, 2, 1, 2), DIMS(8, 1, 4, 4, 2), 0);
  const float* p = data_ptr(out);
  const float want_memory[] = {0, 4, 1, 5, 2, 6, 3, 7}; /* (d, h, w, c) */
  for (int i = 0; i < 8; ++i) assert_true(p[i] == want_memory[i]);
  st_tensor ts[] = {x, out};
  release_all(ts, 2);
}

/* ---- st_clone ------------------------------------------------------------------ */

static void clone_of_a_contiguous_tensor_is_new_storage(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), out = {0};
  EXPECT_OK(st_clone(x, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  assert_true(out.id != x.id);
  assert_true(data_ptr(out) != data_ptr(x));
  expect_layout(out, 2, DIMS(2, 3), DIMS(3, 1), 0);
  const float want[] = {0, 1, 2, 3, 4, 5};
  expect_floats(out, 6, want);
  ((float*)data_ptr(x))[0] = 100.0f; /* the clone does not see later writes */
  expect_floats(out, 6, want);
  st_tensor ts[] = {x, out};
  release_all(ts, 2);
}

static void clone_preserve_keeps_the_strides_of_a_dense_permuted_source(void** state) {
  (void)state;
  static const int32_t dims[3] = {2, 0, 1};
  st_tensor x = make_iota_f32(DIMS(2, 3, 4), 3), p = {0}, out = {0};
  EXPECT_OK(st_permute(x, dims, 3, &p)); /* sizes (4, 2, 3), strides (1, 12, 4) */
  EXPECT_OK(st_clone(p, ST_MEMORY_FORMAT_PRESERVE, &out));
  expect_layout(out, 3, DIMS(4, 2, 3), DIMS(1, 12, 4), 0);
  assert_true(data_ptr(out) != data_ptr(x));
  const float* q = data_ptr(out);
  for (int i = 0; i < 24; ++i) assert_true(q[i] == (float)i); /* the same order in memory */
  st_tensor ts[] = {x, p, out};
  release_all(ts, 3);
}

static void clone_preserve_of_a_stepped_slice_gets_dense_strides_in_its_order(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(3, 8), 2), xt = {0}, s = {0}, out = {0};
  EXPECT_OK(st_transpose(x, 0, 1, &xt));   /* (8, 3), strides (1, 8) */
  EXPECT_OK(st_slice(xt, 0, 0, 8, 2, &s)); /* (4, 3), strides (2, 8): dim 0 still moves fastest */
  EXPECT_OK(st_clone(s, ST_MEMORY_FORMAT_PRESERVE, &out));
  expect_layout(out, 2, DIMS(4, 3), DIMS(1, 4), 0);
  const float want[] = {0, 8, 16, 2, 10, 18, 4, 12, 20, 6, 14, 22};
  expect_floats(out, 12, want);
  st_tensor ts[] = {x, xt, s, out};
  release_all(ts, 4);
}

static void clone_preserve_of_a_flipped_source_has_no_negative_stride(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(3, 4), 2), f = {0}, xt = {0}, ft = {0}, out = {0}, out_t = {0};
  EXPECT_OK(st_flip(x, 0, &f)); /* strides (-4, 1) */
  EXPECT_OK(st_clone(f, ST_MEMORY_FORMAT_PRESERVE, &out));
  expect_layout(out, 2, DIMS(3, 4), DIMS(4, 1), 0);
  const float want[] = {8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3};
  expect_floats(out, 12, want);
  EXPECT_OK(st_transpose(x, 0, 1, &xt));
  EXPECT_OK(st_flip(xt, 1, &ft)); /* (4, 3), strides (1, -4) */
  EXPECT_OK(st_clone(ft, ST_MEMORY_FORMAT_PRESERVE, &out_t));
  expect_layout(out_t, 2, DIMS(4, 3), DIMS(1, 4), 0);
  const float want_t[] = {8, 4, 0, 9, 5, 1, 10, 6, 2, 11, 7, 3};
  expect_floats(out_t, 12, want_t);
  st_tensor ts[] = {x, f, xt, ft, out, out_t};
  release_all(ts, 6);
}

static void clone_preserve_of_an_expanded_source_is_row_major(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(1, 4), 2), e = {0}, out = {0};
  EXPECT_OK(st_expand(x, DIMS(3, 4), 2, &e)); /* strides (0, 1): a stride 0 never decides the order */
  EXPECT_OK(st_clone(e, ST_MEMORY_FORMAT_PRESERVE, &out));
  expect_layout(out, 2, DIMS(3, 4), DIMS(4, 1), 0);
  const float want[] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};
  expect_floats(out, 12, want);
  st_tensor ts[] = {x, e, out};
  release_all(ts, 3);
}

static void clone_channels_last_of_a_flipped_source(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(1, 2, 1, 3), 4), f = {0}, out = {0};
  EXPECT_OK(st_flip(x, 3, &f));
  EXPECT_OK(st_clone(f, ST_MEMORY_FORMAT_CHANNELS_LAST, &out));
  expect_layout(out, 4, DIMS(1, 2, 1, 3), DIMS(6, 1, 6, 2), 0);
  const float* p = data_ptr(out);
  const float want_memory[] = {2, 5, 1, 4, 0, 3}; /* (w, c) with w reversed */
  for (int i = 0; i < 6; ++i) assert_true(p[i] == want_memory[i]);
  st_tensor ts[] = {x, f, out};
  release_all(ts, 3);
}

/* ---- st_to ----------------------------------------------------------------------- */

static void to_with_matching_dtype_device_and_format_is_the_same_handle(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), out = {0};
  EXPECT_OK(st_to(x, ST_FLOAT32, CPU, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  assert_true(out.id == x.id);
  EXPECT_OK(st_tensor_release(out));
  EXPECT_OK(st_tensor_release(x));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_release(x));
}

static void to_preserve_with_matching_dtype_is_the_same_handle_even_when_not_contiguous(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 6), 2), s = {0}, out = {0};
  EXPECT_OK(st_slice(x, 1, 0, 6, 2, &s));
  EXPECT_OK(st_to(s, ST_FLOAT32, CPU, ST_MEMORY_FORMAT_PRESERVE, &out));
  assert_true(out.id == s.id);
  EXPECT_OK(st_tensor_release(out));
  /* asked for row-major, the same source is copied */
  EXPECT_OK(st_to(s, ST_FLOAT32, CPU, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  assert_true(out.id != s.id);
  expect_layout(out, 2, DIMS(2, 3), DIMS(3, 1), 0);
  const float want[] = {0, 2, 4, 6, 8, 10};
  expect_floats(out, 6, want);
  st_tensor ts[] = {x, s, out};
  release_all(ts, 3);
}

static void to_a_new_dtype_in_channels_last_converts_and_lays_out(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(1, 2, 2, 2), 4), out = {0};
  EXPECT_OK(st_to(x, ST_INT16, CPU, ST_MEMORY_FORMAT_CHANNELS_LAST, &out));
  st_dtype dtype = ST_BOOL;
  EXPECT_OK(st_tensor_dtype(out, &dtype));
  assert_int_equal(dtype, ST_INT16);
  expect_layout(out, 4, DIMS(1, 2, 2, 2), DIMS(8, 1, 4, 2), 0);
  const int16_t* p = data_ptr(out);
  const int16_t want_memory[] = {0, 4, 1, 5, 2, 6, 3, 7};
  for (int i = 0; i < 8; ++i) assert_int_equal(p[i], want_memory[i]);
  st_tensor ts[] = {x, out};
  release_all(ts, 2);
}

static void to_preserve_with_a_new_dtype_keeps_the_stride_order(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), xt = {0}, out = {0};
  EXPECT_OK(st_transpose(x, 0, 1, &xt)); /* (3, 2), strides (1, 3) */
  EXPECT_OK(st_to(xt, ST_FLOAT64, CPU, ST_MEMORY_FORMAT_PRESERVE, &out));
  expect_layout(out, 2, DIMS(3, 2), DIMS(1, 3), 0);
  const double* p = data_ptr(out);
  for (int i = 0; i < 6; ++i) assert_true(p[i] == (double)i);
  st_tensor ts[] = {x, xt, out};
  release_all(ts, 3);
}

/* ---- Random sources ----------------------------------------------------------------- */

typedef struct source {
  buffer b;
  layout l;
  st_tensor t;
} source;

/* A random layout of 1 to 6 dims (4 and 5 often, for the channels-last
 * formats) in a buffer of `dtype` holding small integers. */
static void random_source(uint64_t* rng, st_dtype dtype, source* s) {
  int32_t nd = rng_below(rng, 3) == 0 ? 4 + (int32_t)rng_below(rng, 2) : 1 + (int32_t)rng_below(rng, 6);
  int64_t sizes[ST_MAX_DIMS];
  for (int32_t d = 0; d < nd; ++d) sizes[d] = rng_below(rng, 20) == 0 ? 0 : 1 + rng_below(rng, 5);
  int64_t n = random_layout(rng, nd, sizes, 1, &s->l);
  s->b = buffer_create(dtype, n, rng);
  if (dtype != ST_FLOAT4_E2M1FN_X2) buffer_fill_small_ints(&s->b, dtype, rng); /* pairs of values: any bytes */
  s->t = buffer_view(&s->b, &s->l);
}

static void destroy_source(source* s) {
  EXPECT_OK(st_tensor_release(s->t));
  buffer_destroy(&s->b);
}

static const char* format_name(st_memory_format fmt) {
  switch (fmt) {
    case ST_MEMORY_FORMAT_CONTIGUOUS:
      return "contiguous";
    case ST_MEMORY_FORMAT_CHANNELS_LAST:
      return "channels_last";
    case ST_MEMORY_FORMAT_CHANNELS_LAST_3D:
      return "channels_last_3d";
    case ST_MEMORY_FORMAT_PRESERVE:
      return "preserve";
  }
  return "?";
}

/* The formats a tensor of `ndim` dims can be asked for (PRESERVE last). */
static int formats_for(int32_t ndim, st_memory_format* out) {
  int n = 0;
  out[n++] = ST_MEMORY_FORMAT_CONTIGUOUS;
  if (ndim == 4) out[n++] = ST_MEMORY_FORMAT_CHANNELS_LAST;
  if (ndim == 5) out[n++] = ST_MEMORY_FORMAT_CHANNELS_LAST_3D;
  out[n++] = ST_MEMORY_FORMAT_PRESERVE;
  return n;
}

static uint64_t magnitude(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }

static void fail_with(const char* context, const char* what) {
  print_error("%s: %s\n", context, what);
  fail();
}

/* The layout a new tensor made from `src` in `fmt` must have
 * (include/stride.h, st_clone): row-major or channels-last strides; with
 * PRESERVE the source's own strides (sign dropped) when it is
 * non-overlapping and dense, else dense strides in the order of its
 * |strides|. */
static void expect_new_layout(st_tensor out, const layout* src, st_memory_format fmt, const char* context) {
  layout got = layout_of(out);
  int64_t want[ST_MAX_DIMS];
  if (got.ndim != src->ndim || got.offset != 0) fail_with(context, "ndim or storage offset");
  for (int32_t d = 0; d < src->ndim; ++d) {
    if (got.sizes[d] != src->sizes[d]) fail_with(context, "sizes differ from the source's");
  }
  switch (fmt) {
    case ST_MEMORY_FORMAT_CONTIGUOUS:
      expected_contiguous_strides(src->ndim, src->sizes, want);
      break;
    case ST_MEMORY_FORMAT_CHANNELS_LAST:
    case ST_MEMORY_FORMAT_CHANNELS_LAST_3D:
      expected_channels_last_strides(src->ndim, src->sizes, want);
      break;
    case ST_MEMORY_FORMAT_PRESERVE: {
      int64_t abs_strides[ST_MAX_DIMS];
      for (int32_t d = 0; d < src->ndim; ++d) abs_strides[d] = (int64_t)magnitude(src->strides[d]);
      if (is_non_overlapping_and_dense(src->ndim, src->sizes, src->strides)) {
        memcpy(want, abs_strides, sizeof(int64_t) * (size_t)src->ndim);
        break;
      }
      /* dense, never negative, and ordered as the source's |strides| */
      if (!is_non_overlapping_and_dense(got.ndim, got.sizes, got.strides)) fail_with(context, "not dense");
      for (int32_t a = 0; a < src->ndim; ++a) {
        if (got.strides[a] < 0) fail_with(context, "a negative stride");
        for (int32_t b = 0; b < src->ndim; ++b) {
          if (src->sizes[a] < 2 || src->sizes[b] < 2 || abs_strides[a] == 0 || abs_strides[b] == 0) continue;
          if (abs_strides[a] < abs_strides[b] && !(got.strides[a] < got.strides[b]))
            fail_with(context, "the stride order differs from the source's");
        }
      }
      return;
    }
  }
  for (int32_t d = 0; d < src->ndim; ++d) {
    if (got.strides[d] != want[d]) {
      print_error("%s: dim %d has stride %lld, expected %lld\n", context, (int)d, (long long)got.strides[d],
                  (long long)want[d]);
      fail();
    }
  }
}

static void expect_new_storage(st_tensor out, const source* s, const char* context) {
  if (layout_numel(&s->l) == 0) return; /* nothing allocated, nothing to compare */
  unsigned char* p = data_ptr(out);
  if (p >= s->b.bytes && p < s->b.bytes + (size_t)s->b.numel * s->b.itemsize)
    fail_with(context, "the result points into the source's storage");
}

static void contiguous_of_random_sources_matches_the_reference(void** state) {
  (void)state;
  uint64_t seed = test_seed("contiguous_of_random_sources", 20240621ull);
  for (int i = 0; i < CASES; ++i) {
    uint64_t rng = seed ^ ((uint64_t)i * 0x9E3779B97F4A7C15ull);
    source s;
    random_source(&rng, (st_dtype)rng_below(&rng, NUM_DTYPES), &s);
    st_memory_format fmts[3];
    int nf = formats_for(s.l.ndim, fmts) - 1; /* not PRESERVE */
    for (int f = 0; f < nf; ++f) {
      char context[160];
      snprintf(context, sizeof context, "seed %llu case %d, st_contiguous(%s)", (unsigned long long)seed, i,
               format_name(fmts[f]));
      st_tensor out = {0};
      EXPECT_OK(st_contiguous(s.t, fmts[f], &out));
      if (is_contiguous_as(&s.l, fmts[f])) {
        if (out.id != s.t.id) fail_with(context, "a source already in the format must come back itself");
      } else {
        if (out.id == s.t.id) fail_with(context, "a source not in the format came back itself");
        expect_new_layout(out, &s.l, fmts[f], context);
        expect_new_storage(out, &s, context);
        expect_values_of(out, &s.b, &s.l, context);
      }
      EXPECT_OK(st_tensor_release(out));
    }
    destroy_source(&s);
  }
}

static void clone_of_random_sources_matches_the_reference(void** state) {
  (void)state;
  uint64_t seed = test_seed("clone_of_random_sources", 20240622ull);
  for (int i = 0; i < CASES; ++i) {
    uint64_t rng = seed ^ ((uint64_t)i * 0x9E3779B97F4A7C15ull);
    source s;
    random_source(&rng, (st_dtype)rng_below(&rng, NUM_DTYPES), &s);
    st_memory_format fmts[3];
    int nf = formats_for(s.l.ndim, fmts);
    for (int f = 0; f < nf; ++f) {
      char context[160];
      snprintf(context, sizeof context, "seed %llu case %d, st_clone(%s)", (unsigned long long)seed, i,
               format_name(fmts[f]));
      st_tensor out = {0};
      EXPECT_OK(st_clone(s.t, fmts[f], &out));
      if (out.id == s.t.id) fail_with(context, "a clone is a new tensor");
      expect_new_layout(out, &s.l, fmts[f], context);
      expect_new_storage(out, &s, context);
      expect_values_of(out, &s.b, &s.l, context);
      EXPECT_OK(st_tensor_release(out));
    }
    destroy_source(&s);
  }
}

/* For each source dtype, a dtype the small integers convert to exactly. */
static st_dtype other_dtype(st_dtype d, uint64_t* rng) {
  static const st_dtype wide[] = {ST_INT16,     ST_INT32,      ST_INT64,   ST_FLOAT32, ST_FLOAT64,
                                  ST_COMPLEX64, ST_COMPLEX128, ST_FLOAT16, ST_BFLOAT16};
  for (;;) {
    st_dtype o = wide[rng_below(rng, (int64_t)(sizeof wide / sizeof wide[0]))];
    if (o != d) return o;
  }
}

static void to_of_random_sources_matches_the_reference(void** state) {
  (void)state;
  uint64_t seed = test_seed("to_of_random_sources", 20240623ull);
  for (int i = 0; i < CASES; ++i) {
    uint64_t rng = seed ^ ((uint64_t)i * 0x9E3779B97F4A7C15ull);
    source s;
    st_dtype src_dtype = (st_dtype)rng_below(&rng, NUM_DTYPES);
    random_source(&rng, src_dtype, &s);
    st_memory_format fmts[3];
    int nf = formats_for(s.l.ndim, fmts);
    for (int f = 0; f < nf; ++f) {
      st_dtype to_dtype = rng_below(&rng, 3) == 0 ? src_dtype : other_dtype(src_dtype, &rng);
      if (src_dtype == ST_FLOAT4_E2M1FN_X2) to_dtype = src_dtype; /* it converts to nothing else */
      char context[160];
      snprintf(context, sizeof context, "seed %llu case %d, st_to(%s, %s)", (unsigned long long)seed, i,
               st_dtype_name(to_dtype), format_name(fmts[f]));
      st_tensor out = {0};
      EXPECT_OK(st_to(s.t, to_dtype, CPU, fmts[f], &out));
      int same = to_dtype == src_dtype && (fmts[f] == ST_MEMORY_FORMAT_PRESERVE || is_contiguous_as(&s.l, fmts[f]));
      if (same) {
        if (out.id != s.t.id) fail_with(context, "nothing to change, so the source itself is expected");
      } else {
        st_dtype got_dtype = ST_BOOL;
        EXPECT_OK(st_tensor_dtype(out, &got_dtype));
        if (out.id == s.t.id || got_dtype != to_dtype) fail_with(context, "a new tensor of the dtype expected");
        expect_new_layout(out, &s.l, fmts[f], context);
        expect_new_storage(out, &s, context);
        expect_values_of(out, &s.b, &s.l, context);
      }
      EXPECT_OK(st_tensor_release(out));
    }
    destroy_source(&s);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(contiguous_of_a_contiguous_tensor_is_the_same_handle_with_one_more_reference),
      cmocka_unit_test(contiguous_channels_last_of_a_channels_last_tensor_is_the_same_handle),
      cmocka_unit_test(contiguous_of_a_transpose_is_a_row_major_copy),
      cmocka_unit_test(contiguous_channels_last_of_nchw_is_nhwc_in_memory),
      cmocka_unit_test(contiguous_channels_last_3d_of_ncdhw_is_ndhwc_in_memory),
      cmocka_unit_test(clone_of_a_contiguous_tensor_is_new_storage),
      cmocka_unit_test(clone_preserve_keeps_the_strides_of_a_dense_permuted_source),
      cmocka_unit_test(clone_preserve_of_a_stepped_slice_gets_dense_strides_in_its_order),
      cmocka_unit_test(clone_preserve_of_a_flipped_source_has_no_negative_stride),
      cmocka_unit_test(clone_preserve_of_an_expanded_source_is_row_major),
      cmocka_unit_test(clone_channels_last_of_a_flipped_source),
      cmocka_unit_test(to_with_matching_dtype_device_and_format_is_the_same_handle),
      cmocka_unit_test(to_preserve_with_matching_dtype_is_the_same_handle_even_when_not_contiguous),
      cmocka_unit_test(to_a_new_dtype_in_channels_last_converts_and_lays_out),
      cmocka_unit_test(to_preserve_with_a_new_dtype_keeps_the_stride_order),
      cmocka_unit_test(contiguous_of_random_sources_matches_the_reference),
      cmocka_unit_test(clone_of_random_sources_matches_the_reference),
      cmocka_unit_test(to_of_random_sources_matches_the_reference),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
