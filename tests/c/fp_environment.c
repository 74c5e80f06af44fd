#include "fp_environment.h"

#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
/* Bits 7-12 mask the six exceptions, 13-14 round, 6 is DAZ, 15 FTZ. */
#define MXCSR_DAZ_FTZ 0x8040u
#define MXCSR_CONTROL 0xFFC0u
#else
#define HAVE_MXCSR 0
#endif

#if defined(__aarch64__)
#define HAVE_FPCR 1
/* Bits 22-23 round (nearest, upward, downward, toward zero), 24 is FZ. */
#define FPCR_FZ (1ull << 24)
static unsigned long long read_fpcr(void) {
  unsigned long long v;
  __asm__ __volatile__("mrs %0, fpcr" : "=r"(v));
  return v;
}
static void write_fpcr(unsigned long long v) { __asm__ __volatile__("msr fpcr, %0" : : "r"(v)); }
#else
#define HAVE_FPCR 0
#endif

/* Raised before each call; conversions never clear them. */
#define RAISED_FLAGS (FE_OVERFLOW | FE_DIVBYZERO)

static const int kRoundings[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};

int fp_env_count(void) {
#if HAVE_MXCSR || HAVE_FPCR
  return 8;
#else
  static int said = 0;
  if (!said) print_message("fp_environment: no MXCSR or FPCR on this architecture: the rounding modes only\n");
  said = 1;
  return 4;
#endif
}

fp_env fp_env_at(int i) {
  fp_env env = {kRoundings[i % 4], i / 4};
  return env;
}

const char* fp_env_name(fp_env env) {
#if HAVE_FPCR
#define FLUSH " + FZ"
#else
#define FLUSH " + DAZ/FTZ"
#endif
  static const char* const names[2][4] = {{"FE_TONEAREST", "FE_UPWARD", "FE_DOWNWARD", "FE_TOWARDZERO"},
                                          {"FE_TONEAREST" FLUSH, "FE_UPWARD" FLUSH, "FE_DOWNWARD" FLUSH,
                                           "FE_TOWARDZERO" FLUSH}};
  for (int r = 0; r < 4; ++r)
    if (kRoundings[r] == env.rounding) return names[env.flush_denormals != 0][r];
  return "an unknown rounding mode";
}

void fp_env_set(fp_env env) {
  fesetround(env.rounding);
#if HAVE_MXCSR
  unsigned csr = _mm_getcsr() & ~MXCSR_DAZ_FTZ;
  _mm_setcsr(env.flush_denormals ? csr | MXCSR_DAZ_FTZ : csr);
#elif HAVE_FPCR
  const unsigned long long fpcr = read_fpcr() & ~FPCR_FZ;
  write_fpcr(env.flush_denormals ? fpcr | FPCR_FZ : fpcr);
#endif
}

void fp_env_enter(fp_env env) {
  feclearexcept(FE_ALL_EXCEPT);
  feraiseexcept(RAISED_FLAGS);
  fp_env_set(env);
}

int fp_env_holds(fp_env env) {
  if (fegetround() != env.rounding) return 0;
#if HAVE_MXCSR
  /* The default masks (all six exceptions), the rounding fesetround set. */
  const unsigned want_rc = env.rounding == FE_TONEAREST ? 0u : env.rounding == FE_DOWNWARD ? 1u
                           : env.rounding == FE_UPWARD  ? 2u
                                                        : 3u;
  const unsigned want = 0x1F80u | (want_rc << 13) | (env.flush_denormals ? MXCSR_DAZ_FTZ : 0u);
  if ((_mm_getcsr() & MXCSR_CONTROL) != want) return 0;
#elif HAVE_FPCR
  /* Nothing else set: no trap, no default NaN, no FZ16, no AHP. */
  const unsigned long long want_rmode = env.rounding == FE_TONEAREST ? 0u : env.rounding == FE_UPWARD ? 1u
                                        : env.rounding == FE_DOWNWARD ? 2u
                                                                      : 3u;
  if (read_fpcr() != ((want_rmode << 22) | (env.flush_denormals ? FPCR_FZ : 0u))) return 0;
#endif
  return 1;
}

void expect_fp_env_is(fp_env env, const char* after) {
  const int holds = fp_env_holds(env);
  const int flags = fetestexcept(RAISED_FLAGS);
  const int rounding = fegetround();
#if HAVE_MXCSR
  const unsigned long long csr = _mm_getcsr();
#elif HAVE_FPCR
  const unsigned long long csr = read_fpcr();
#else
  const unsigned long long csr = 0;
#endif
  fp_env_leave();  /* cmocka and printf run in the default environment */
  if (!holds || flags != RAISED_FLAGS) {
    print_error("after %s under %s: rounding %d (want %d), control register (MXCSR or FPCR) 0x%llX, flags 0x%X "
                "(want 0x%X still raised)\n",
                after, fp_env_name(env), rounding, env.rounding, csr, (unsigned)flags, (unsigned)RAISED_FLAGS);
    fail();
  }
}

void fp_env_leave(void) {
  fp_env_set(fp_env_at(0));
  feclearexcept(FE_ALL_EXCEPT);
}

/* The bytes of `want`'s entry for `dtype`. */
static void want_bytes(st_dtype dtype, const every_dtype* want, unsigned char* out) {
  switch (dtype) {
    case ST_BOOL: memcpy(out, &want->b, 1); return;
    case ST_UINT8: memcpy(out, &want->u8, 1); return;
    case ST_INT8: memcpy(out, &want->i8, 1); return;
    case ST_INT16: memcpy(out, &want->i16, 2); return;
    case ST_INT32: memcpy(out, &want->i32, 4); return;
    case ST_INT64: memcpy(out, &want->i64, 8); return;
    case ST_FLOAT16: memcpy(out, &want->f16, 2); return;
    case ST_BFLOAT16: memcpy(out, &want->bf16, 2); return;
    case ST_FLOAT32: memcpy(out, &want->f32, 4); return;
    case ST_FLOAT64: memcpy(out, &want->f64, 8); return;
    case ST_COMPLEX64: memcpy(out, want->c64, 8); return;
    case ST_COMPLEX128: memcpy(out, want->c128, 16); return;
    case ST_UINT16: memcpy(out, &want->u16, 2); return;
    case ST_UINT32: memcpy(out, &want->u32, 4); return;
    case ST_UINT64: memcpy(out, &want->u64, 8); return;
    case ST_FLOAT8_E4M3FN: memcpy(out, &want->f8e4m3fn, 1); return;
    case ST_FLOAT8_E5M2: memcpy(out, &want->f8e5m2, 1); return;
    case ST_FLOAT8_E8M0FNU: memcpy(out, &want->f8e8m0fnu, 1); return;
    case ST_FLOAT4_E2M1FN_X2: memcpy(out, &want->f4e2m1fn_x2, 1); return;
    case ST_FLOAT6_E2M3FN: memcpy(out, &want->f6e2m3fn, 1); return;
    case ST_FLOAT6_E3M2FN: memcpy(out, &want->f6e3m2fn, 1); return;
  }
}

#define MAX_ROWS 64

/* memcmp(a, b, n) == 0 with a constant size, which compilers inline. */
static int same_element(const unsigned char* a, const unsigned char* b, size_t n) {
  switch (n) {
    case 1: return a[0] == b[0];
    case 2: return memcmp(a, b, 2) == 0;
    case 4: return memcmp(a, b, 4) == 0;
    case 8: return memcmp(a, b, 8) == 0;
    default: return memcmp(a, b, 16) == 0;
  }
}

void expect_table_rows(const conversion_table* t, st_dtype dst_dtype, const unsigned char* got, int64_t n,
                       int64_t stride, const int32_t* rows, const char* context) {
  const size_t item = st_dtype_itemsize(dst_dtype);
  unsigned char want[MAX_ROWS][16];
  assert_true(t->rows <= MAX_ROWS);
  for (int32_t r = 0; r < t->rows; ++r) want_bytes(dst_dtype, &t->want[r], want[r]);
  for (int64_t i = 0; i < n; ++i) {
    const unsigned char* g = got + (size_t)(i * stride) * item;
    if (same_element(g, want[rows[i]], item)) continue;
    /* Not the same bytes: a NaN of another payload passes expect_element, anything else fails it. */
    char what[200];
    snprintf(what, sizeof what, "%s: %s row %d (element %lld)", context, st_dtype_name(t->dtype), (int)rows[i],
             (long long)i);
    expect_element(dst_dtype, g, &t->want[rows[i]], what);
  }
}

/* ---- The tables converted under an environment ------------------------------- */

static const char* const kLayoutNames[] = {"small", "large contiguous", "large strided", "large transposed"};

/* Table t's values laid out for one case: the source view, and which row
 * each element of dst (in memory order) must hold. */
typedef struct table_case {
  unsigned char* buf;
  st_tensor src;
  int64_t n;
  int32_t* dst_rows;
} table_case;

static table_case make_case(const conversion_table* t, table_layout layout) {
  const size_t item = st_dtype_itemsize(t->dtype);
  table_case c;
  c.n = layout == TABLE_SMALL ? t->rows : LARGE;
  /* The strided source is every other element of its buffer, backwards. */
  int64_t stride = layout == TABLE_STRIDED ? -2 : 1;
  const int64_t span = layout == TABLE_STRIDED ? 2 * c.n - 1 : c.n;
  c.buf = calloc((size_t)span, item);
  c.dst_rows = malloc((size_t)c.n * sizeof *c.dst_rows);
  assert_non_null(c.buf);
  assert_non_null(c.dst_rows);
  unsigned char* first = c.buf + (stride < 0 ? (size_t)(span - 1) * item : 0);
  for (int64_t i = 0; i < c.n; ++i) {
    const int32_t row = (int32_t)(i % t->rows);
    memcpy(first + (ptrdiff_t)(i * stride) * (ptrdiff_t)item, (const unsigned char*)t->src + (size_t)row * item, item);
    c.dst_rows[i] = row;
  }
  st_tensor whole = {0};
  EXPECT_OK(st_tensor_from_data(first, &c.n, &stride, 1, t->dtype, CPU, NULL, NULL, &whole));
  if (layout != TABLE_TRANSPOSED) {
    c.src = whole;
    return c;
  }
  /* dst (r, c) of (LARGE_ROWS, LARGE_COLS) is source element c * LARGE_ROWS + r. */
  const int64_t sizes[2] = {LARGE_COLS, LARGE_ROWS};
  st_tensor matrix = {0};
  EXPECT_OK(st_reshape(whole, sizes, 2, &matrix));
  EXPECT_OK(st_transpose(matrix, 0, 1, &c.src));
  EXPECT_OK(st_tensor_release(matrix));
  EXPECT_OK(st_tensor_release(whole));
  for (int64_t r = 0; r < LARGE_ROWS; ++r)
    for (int64_t k = 0; k < LARGE_COLS; ++k) c.dst_rows[r * LARGE_COLS + k] = (int32_t)((k * LARGE_ROWS + r) % t->rows);
  return c;
}

static void case_destroy(table_case* c) {
  EXPECT_OK(st_tensor_release(c->src));
  free(c->buf);
  free(c->dst_rows);
}

void fp_env_copy(fp_env env, st_tensor dst, st_tensor src) {
  fp_env_enter(env);
  const st_status status = st_copy(dst, src, 0);
  expect_fp_env_is(env, "st_copy");
  EXPECT_OK(status);
}

void copy_tables_under(fp_env env, table_layout layout) {
  for (int s = 0; s < NUM_DTYPES; ++s) {
    const conversion_table* t = &conversion_tables[s];
    table_case c = make_case(t, layout);
    for (int d = 0; d < NUM_DTYPES; ++d) {
      const st_dtype dtype = (st_dtype)d;
      if (!dtype_converts(dtype, t->dtype)) continue; /* test_copy_dtypes.c checks the refusal */
      /* dst is contiguous, of the source's shape; every third element of a buffer when strided. */
      const int64_t dst_stride = layout == TABLE_STRIDED ? 3 : 1;
      unsigned char* dst_buf = calloc((size_t)(c.n * dst_stride), st_dtype_itemsize(dtype));
      assert_non_null(dst_buf);
      st_tensor flat = {0}, dst = {0};
      EXPECT_OK(st_tensor_from_data(dst_buf, &c.n, &dst_stride, 1, dtype, CPU, NULL, NULL, &flat));
      if (layout == TABLE_TRANSPOSED) {
        const int64_t sizes[2] = {LARGE_ROWS, LARGE_COLS};
        EXPECT_OK(st_reshape(flat, sizes, 2, &dst));
        EXPECT_OK(st_tensor_release(flat));
      } else {
        dst = flat;
      }
      fp_env_copy(env, dst, c.src);
      char context[160];
      snprintf(context, sizeof context, "st_copy (%s, %lld elements) to %s under %s", kLayoutNames[layout],
               (long long)c.n, st_dtype_name(dtype), fp_env_name(env));
      expect_table_rows(t, dtype, dst_buf, c.n, dst_stride, c.dst_rows, context);
      EXPECT_OK(st_tensor_release(dst));
      free(dst_buf);
    }
    case_destroy(&c);
  }
}

void fill_rows_under(fp_env env) {
  const conversion_table* t = &conversion_tables[ST_FLOAT64];
  int32_t* rows = malloc(LARGE * sizeof *rows);
  assert_non_null(rows);
  for (int32_t row = 0; row < t->rows; ++row) {
    const double value = ((const double*)t->src)[row];
    for (int64_t i = 0; i < LARGE; ++i) rows[i] = row;
    /* The value is converted once, on the calling thread: every fourth row
     * also fills a large tensor, written by the threads. */
    for (int k = 0; k < (row % 4 == 0 ? 2 : 1); ++k) {
      int64_t n = k == 0 ? 5 : LARGE;
      for (int d = 0; d < NUM_DTYPES; ++d) {
        if (d == ST_FLOAT4_E2M1FN_X2) continue; /* nothing converts to it (test_fill.c) */
        st_tensor dst = make_tensor(&n, 1, (st_dtype)d);
        fp_env_enter(env);
        const st_status status = st_fill(dst, value);
        expect_fp_env_is(env, "st_fill");
        EXPECT_OK(status);
        char context[160];
        snprintf(context, sizeof context, "st_fill of %lld elements of %s under %s", (long long)n,
                 st_dtype_name((st_dtype)d), fp_env_name(env));
        expect_table_rows(t, (st_dtype)d, data_ptr(dst), n, 1, rows, context);
        EXPECT_OK(st_tensor_release(dst));
      }
    }
  }
  free(rows);
}
