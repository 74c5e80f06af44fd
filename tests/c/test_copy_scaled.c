/* st_copy_scaled: every error status (nothing written), hand-computed values
 * for each rule (ties at .5, saturation edges, NaN, ±inf), and random cases
 * of every pair of real dtypes over random layouts, per tensor and per
 * channel, broadcast and overlapping, against the reference below. The
 * reference is written here from the contract alone: the element's exact
 * value, one fma in the compute type (C's fma, test_fmaf), then C's rint (the
 * test runs in the default rounding mode) or an encoder of the small float
 * formats written for this test. */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "copy_support.h"
#include "dlpack_producer.h"
#include "portable.h"

/* ---- The small float formats, written for the test --------------------- */

typedef struct small_format {
  int ebits, mbits;
  int finite_nan; /* float8_e4m3fn: no infinity, the all-ones code is NaN */
} small_format;

static const small_format kF16 = {5, 10, 0}, kBF16 = {8, 7, 0}, kE4M3 = {4, 3, 1}, kE5M2 = {5, 2, 0};

static double small_max(small_format f) {
  const int bias = (1 << (f.ebits - 1)) - 1;
  if (f.finite_nan) return (2.0 - ldexp(1.0, 1 - f.mbits)) * ldexp(1.0, (1 << f.ebits) - 1 - bias);
  return (2.0 - ldexp(1.0, -f.mbits)) * ldexp(1.0, (1 << f.ebits) - 2 - bias);
}

static double small_decode(uint32_t bits, small_format f) {
  const int bias = (1 << (f.ebits - 1)) - 1;
  const uint32_t mant = bits & ((1u << f.mbits) - 1), e = (bits >> f.mbits) & ((1u << f.ebits) - 1);
  const int negative = (bits >> (f.ebits + f.mbits)) & 1;
  double v;
  if (f.finite_nan && e == (1u << f.ebits) - 1 && mant == (1u << f.mbits) - 1) {
    v = NAN;
  } else if (!f.finite_nan && e == (1u << f.ebits) - 1) {
    v = mant ? NAN : INFINITY;
  } else if (e == 0) {
    v = ldexp((double)mant, 1 - bias - f.mbits);
  } else {
    v = ldexp((double)(mant | (1u << f.mbits)), (int)e - bias - f.mbits);
  }
  return negative ? -v : v;
}

/* v rounded once to nearest even into format f. */
static uint32_t small_encode(double v, small_format f) {
  const int bias = (1 << (f.ebits - 1)) - 1, emin = 1 - bias;
  const uint32_t sign = signbit(v) ? 1u << (f.ebits + f.mbits) : 0;
  const uint32_t exp_ones = ((1u << f.ebits) - 1) << f.mbits;
  const uint32_t nan = f.finite_nan ? exp_ones | ((1u << f.mbits) - 1) : exp_ones | (1u << (f.mbits - 1));
  if (isnan(v)) return sign | nan;
  const double a = fabs(v);
  if (isinf(a)) return sign | (f.finite_nan ? nan : exp_ones);
  int e;
  frexp(a, &e);
  e -= 1; /* a = 1.x * 2^e */
  if (a == 0 || e < emin) e = emin;
  const double quantum = ldexp(1.0, e - f.mbits);
  const double r = rint(a / quantum) * quantum; /* exact: a power-of-two quotient */
  if (r > small_max(f)) return sign | (f.finite_nan ? nan : exp_ones);
  if (r < ldexp(1.0, emin)) return sign | (uint32_t)(r / ldexp(1.0, emin - f.mbits));
  int re;
  frexp(r, &re);
  re -= 1;
  const uint32_t mant = (uint32_t)(r / ldexp(1.0, re - f.mbits)) - (1u << f.mbits);
  return sign | ((uint32_t)(re + bias) << f.mbits) | mant;
}

static const small_format* small_format_of(st_dtype t) {
  switch (t) {
    case ST_FLOAT16: return &kF16;
    case ST_BFLOAT16: return &kBF16;
    case ST_FLOAT8_E4M3FN: return &kE4M3;
    case ST_FLOAT8_E5M2: return &kE5M2;
    default: return NULL;
  }
}

static int is_float_dtype(st_dtype t) {
  return t == ST_FLOAT32 || t == ST_FLOAT64 || small_format_of(t) != NULL;
}

static int needs_double(st_dtype t) {
  return t == ST_FLOAT64 || t == ST_INT32 || t == ST_INT64 || t == ST_UINT32 || t == ST_UINT64;
}

/* ---- Reading and writing elements --------------------------------------- */

static size_t itemsize_of(st_dtype t) { return (size_t)st_dtype_itemsize(t); }

/* The element's value in the compute type (float values kept in a double). */
static double compute_value(st_dtype t, const unsigned char* p, int dbl) {
  double v = 0;
  switch (t) {
    case ST_BOOL: v = *p != 0; break;
    case ST_UINT8: v = *p; break;
    case ST_INT8: { int8_t x; memcpy(&x, p, 1); v = x; break; }
    case ST_INT16: { int16_t x; memcpy(&x, p, 2); v = x; break; }
    case ST_UINT16: { uint16_t x; memcpy(&x, p, 2); v = x; break; }
    case ST_INT32: { int32_t x; memcpy(&x, p, 4); v = x; break; }
    case ST_UINT32: { uint32_t x; memcpy(&x, p, 4); v = x; break; }
    case ST_INT64: { int64_t x; memcpy(&x, p, 8); v = (double)x; break; }
    case ST_UINT64: { uint64_t x; memcpy(&x, p, 8); v = (double)x; break; }
    case ST_FLOAT32: { float x; memcpy(&x, p, 4); v = x; break; }
    case ST_FLOAT64: memcpy(&v, p, 8); break;
    case ST_FLOAT16: case ST_BFLOAT16: { uint16_t x; memcpy(&x, p, 2); v = small_decode(x, *small_format_of(t)); break; }
    case ST_FLOAT8_E4M3FN: case ST_FLOAT8_E5M2: v = small_decode(*p, *small_format_of(t)); break;
    default: fail_msg("no reference for dtype %d", (int)t);
  }
  return dbl ? v : (double)(float)v; /* every float-computed dtype is exact in float */
}

/* The element as a double (NaN and -0 kept), for comparisons. */
static double element_value(st_dtype t, const unsigned char* p) { return compute_value(t, p, 1); }

static void write_integer(st_dtype t, unsigned char* p, double y) {
  /* Round half to even (the test runs in the default mode), clamp, NaN -> 0. */
  const double r = isnan(y) ? 0.0 : rint(y);
#define CLAMPED(T, LO, HI)                                       \
  {                                                              \
    T x = r <= (double)(LO) ? (LO) : r >= (double)(HI) ? (HI) : (T)r; \
    memcpy(p, &x, sizeof x);                                     \
  }
  switch (t) {
    case ST_UINT8: CLAMPED(uint8_t, 0, UINT8_MAX) break;
    case ST_INT8: CLAMPED(int8_t, INT8_MIN, INT8_MAX) break;
    case ST_INT16: CLAMPED(int16_t, INT16_MIN, INT16_MAX) break;
    case ST_UINT16: CLAMPED(uint16_t, 0, UINT16_MAX) break;
    case ST_INT32: CLAMPED(int32_t, INT32_MIN, INT32_MAX) break;
    case ST_UINT32: CLAMPED(uint32_t, 0, UINT32_MAX) break;
    case ST_INT64: CLAMPED(int64_t, INT64_MIN, INT64_MAX) break;
    case ST_UINT64: CLAMPED(uint64_t, 0, UINT64_MAX) break;
    default: fail_msg("not an integer dtype %d", (int)t);
  }
#undef CLAMPED
}

/* R(y) into an element of t. */
static void write_result(st_dtype t, unsigned char* p, double y, int saturate, int dbl) {
  if (t == ST_BOOL) {
    *p = y != 0;
    return;
  }
  if (!is_float_dtype(t)) {
    write_integer(t, p, y);
    return;
  }
  if (saturate && !isnan(y)) {
    const double m = t == ST_FLOAT32 ? (double)FLT_MAX : t == ST_FLOAT64 ? DBL_MAX : small_max(*small_format_of(t));
    if (y > m) y = m;
    if (y < -m) y = -m;
  }
  (void)dbl;
  if (t == ST_FLOAT32) {
    const float x = (float)y;
    memcpy(p, &x, 4);
  } else if (t == ST_FLOAT64) {
    memcpy(p, &y, 8);
  } else {
    const uint32_t bits = small_encode(y, *small_format_of(t));
    if (itemsize_of(t) == 1) {
      *p = (unsigned char)bits;
    } else {
      const uint16_t b = (uint16_t)bits;
      memcpy(p, &b, 2);
    }
  }
}

static double scaled_reference(st_dtype dt, st_dtype st, const unsigned char* src, double scale, double shift,
                               int* dbl_out) {
  const int dbl = needs_double(dt) || needs_double(st);
  *dbl_out = dbl;
  const double x = compute_value(st, src, dbl);
  if (dbl) return fma(x, scale, shift);
  return (double)test_fmaf((float)x, (float)scale, (float)shift);
}

/* Asserts the element equals want: bit patterns of integers, values of
 * floats with the sign of zero, any NaN for a NaN. */
static void expect_scaled_element(st_dtype t, const unsigned char* got, const unsigned char* want, const char* what) {
  if (!is_float_dtype(t)) {
    if (memcmp(got, want, itemsize_of(t)) != 0) {
      fail_msg("%s: %s element %g, expected %g", what, st_dtype_name(t), element_value(t, got), element_value(t, want));
    }
    return;
  }
  const double g = element_value(t, got), w = element_value(t, want);
  if (isnan(w) && isnan(g)) return;
  if (!(g == w) || signbit(g) != signbit(w)) {
    fail_msg("%s: %s element %.17g, expected %.17g", what, st_dtype_name(t), g, w);
  }
}

/* ---- Small tensors over caller memory ------------------------------------ */

static st_tensor wrap(void* data, st_dtype t, int32_t ndim, const int64_t* sizes) {
  st_tensor out;
  EXPECT_OK(st_tensor_from_data(data, sizes, NULL, ndim, t, CPU, NULL, NULL, &out));
  return out;
}

static const st_scale_shift kIdentity = {NULL, NULL, 1, 0, 0};

/* ---- Errors: each status, nothing written --------------------------------- */

static void errors_write_nothing(void** state) {
  (void)state;
  float src[6] = {1, 2, 3, 4, 5, 6};
  float dst[6] = {-7, -7, -7, -7, -7, -7};
  const float untouched[6] = {-7, -7, -7, -7, -7, -7};
  st_tensor d = wrap(dst, ST_FLOAT32, 2, DIMS(2, 3)), s = wrap(src, ST_FLOAT32, 2, DIMS(2, 3));
  const double three[3] = {1, 2, 3};
  st_scale_shift ss = {three, three, 3, 1, 0};

  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_scaled(d, s, NULL, 0));
  expect_message_contains("ss");
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_scaled((st_tensor){0}, s, &ss, 0));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_scaled(d, (st_tensor){0}, &ss, 0));
  ss.saturate = 2;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_scaled(d, s, &ss, 0));
  expect_message_contains("ss->saturate = 2");
  ss.saturate = -1;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_scaled(d, s, &ss, 0));
  ss.saturate = 0;
  ss.n = 2; /* dst has 3 along dim 1 */
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_scaled(d, s, &ss, 0));
  expect_message_contains("ss->n = 2");
  ss.n = 0;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_scaled(d, s, &ss, 0));
  ss.n = -3;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_scaled(d, s, &ss, 0));
  ss.n = 3;
  ss.dim = 0; /* size 2 there */
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_scaled(d, s, &ss, 0));
  expect_message_contains("ss->n = 3");
  ss.dim = 2;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_scaled(d, s, &ss, 0));
  expect_message_contains("ss->dim = 2");
  ss.dim = -3;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_scaled(d, s, &ss, 0));
  expect_message_contains("ss->dim = -3");
  ss.dim = -1; /* valid: dim 1 */

  /* complex either side */
  st_tensor c = make_tensor(DIMS(2, 3), 2, ST_COMPLEX64);
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_copy_scaled(d, c, &ss, 0));
  expect_message_contains("complex64");
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_copy_scaled(c, s, &ss, 0));
  /* the MX scale and element dtypes either side: st_quantize_blocks quantizes into them */
  const st_dtype mx[4] = {ST_FLOAT8_E8M0FNU, ST_FLOAT4_E2M1FN_X2, ST_FLOAT6_E2M3FN, ST_FLOAT6_E3M2FN};
  for (int k = 0; k < 4; ++k) {
    st_tensor m = make_tensor(DIMS(2, 3), 2, mx[k]);
    EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_copy_scaled(d, m, &ss, 0));
    expect_message_contains(st_dtype_name(mx[k]));
    EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_copy_scaled(m, s, &ss, 0));
    st_copy_plan plan = {GARBAGE_ID};
    EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_copy_plan_create(m, s, &ss, ST_PLAN_ESTIMATE, &plan));
    assert_int_equal(plan.id, 0);
    EXPECT_OK(st_tensor_release(m));
  }
  /* as st_copy: shapes and self-overlap (read-only dsts below) */
  st_tensor s4 = wrap(src, ST_FLOAT32, 1, DIMS(4));
  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_copy_scaled(d, s4, &kIdentity, 0));
  st_tensor row, expanded;
  EXPECT_OK(st_tensor_from_data(dst, DIMS(3), NULL, 1, ST_FLOAT32, CPU, NULL, NULL, &row));
  EXPECT_OK(st_expand(row, DIMS(2, 3), 2, &expanded));
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_copy_scaled(expanded, s, &kIdentity, 0));
  assert_memory_equal(dst, untouched, sizeof dst);

  /* a NULL array is the identity, and the call succeeds */
  ss.scale = NULL;
  EXPECT_OK(st_copy_scaled(d, s, &ss, 0));
  for (int i = 0; i < 6; ++i) assert_true(dst[i] == src[i] + (float)three[i % 3]);
  const st_tensor all[] = {d, s, c, s4, row, expanded};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) EXPECT_OK(st_tensor_release(all[i]));
}

/* A read-only dst (imported so through DLPack) is ST_ERROR_READ_ONLY; a
 * temporary for overlapping operands that cannot be allocated is
 * ST_ERROR_OUT_OF_MEMORY. Neither writes anything. */
static void read_only_and_out_of_memory_write_nothing(void** state) {
  (void)state;
  const double two = 2.0;
  const st_scale_shift ss = {&two, NULL, 1, 0, 0};
  producer* p = producer_new(2, DIMS(4, 4), NULL, kDLFloat, 32);
  p->versioned.flags = ST_DLPACK_FLAG_READ_ONLY;
  st_tensor read_only, src = make_iota_f32(DIMS(4, 4), 2);
  EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &read_only));
  EXPECT_STATUS(ST_ERROR_READ_ONLY, st_copy_scaled(read_only, src, &ss, 0));
  const float* ro = (const float*)p->buffer;
  for (int k = 0; k < 16; ++k) assert_true(ro[k] == 0.0f);
  EXPECT_OK(st_tensor_release(read_only));
  producer_free(p);
  EXPECT_OK(st_tensor_release(src));

  /* dst = whole[0:4096], src = whole[1:4097]: src is staged first. */
  st_tensor whole = make_iota_f32(DIMS(4097), 1), dst, shifted;
  EXPECT_OK(st_slice(whole, 0, 0, 4096, 1, &dst));
  EXPECT_OK(st_slice(whole, 0, 1, 4097, 1, &shifted));
  counting_allocator c;
  counting_allocator_install(&c);
  atomic_store(&c.fail, 1);
  EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_copy_scaled(dst, shifted, &ss, 0));
  const float* w = (const float*)data_ptr(whole);
  for (int k = 0; k < 4097; ++k) assert_true(w[k] == (float)k);
  atomic_store(&c.fail, 0);
  EXPECT_OK(st_copy_scaled(dst, shifted, &ss, 0));
  for (int k = 0; k < 4096; ++k) assert_true(w[k] == 2.0f * (float)(k + 1));
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(shifted));
  EXPECT_OK(st_tensor_release(whole));
  restore_default_allocator(NULL);
}

/* Empty operands of size 2^61 along the channel dim: the per-channel values
 * that n = 2^61 asks for cannot be held, which is out of memory (never
 * INTERNAL), for the copy and for a plan alike; no plan is made. */
static void per_channel_values_too_many_to_hold_are_out_of_memory(void** state) {
  (void)state;
  const int64_t huge = INT64_C(1) << 61;
  st_tensor dst = {0}, src = {0};
  st_copy_plan plan = {0};
  EXPECT_OK(st_tensor_create(DIMS(huge, 0), 2, ST_FLOAT32, CPU, &dst));
  EXPECT_OK(st_tensor_create(DIMS(huge, 0), 2, ST_UINT8, CPU, &src));
  const double one = 1.0;
  for (int with_values = 0; with_values < 2; ++with_values) {
    /* the values are never read: the count is refused first */
    const st_scale_shift ss = {with_values ? &one : NULL, with_values ? &one : NULL, huge, 0, 0};
    EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_copy_scaled(dst, src, &ss, 0));
    expect_message_contains("st_copy_scaled: ss->n = 2305843009213693952 scales and as many shifts cannot be held");
    EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_copy_plan_create(dst, src, &ss, ST_PLAN_ESTIMATE, &plan));
    assert_true(plan.id == 0);
  }
  /* one value for every element is fine on the same operands */
  const st_scale_shift one_value = {&one, NULL, 1, 0, 0};
  EXPECT_OK(st_copy_scaled(dst, src, &one_value, 0));
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
}

/* ---- Hand-computed values -------------------------------------------------- */

static void integer_dst_rounds_half_to_even_and_clamps(void** state) {
  (void)state;
  const float src[14] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 0.49999997f, 127.5f, 126.5f, 300.0f, -129.0f,
                         NAN, INFINITY, -INFINITY};
  const int8_t want[14] = {0, 2, 2, 0, -2, -2, 0, 127, 126, 127, -128, 0, 127, -128};
  int8_t dst[14];
  memset(dst, 0x55, sizeof dst);
  st_tensor d = wrap(dst, ST_INT8, 1, DIMS(14)), s = wrap((void*)src, ST_FLOAT32, 1, DIMS(14));
  EXPECT_OK(st_copy_scaled(d, s, &kIdentity, 0));
  assert_memory_equal(dst, want, sizeof want);
  /* the caller's rounding mode changes nothing */
  const int modes[3] = {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
  for (int m = 0; m < 3; ++m) {
    memset(dst, 0x55, sizeof dst);
    assert_int_equal(fesetround(modes[m]), 0);
    const st_status status = st_copy_scaled(d, s, &kIdentity, 0);
    fesetround(FE_TONEAREST);
    EXPECT_OK(status);
    assert_memory_equal(dst, want, sizeof want);
  }
  /* uint8: below 0 clamps to 0; -0.5 rounds to -0, which is 0 */
  const float usrc[5] = {-0.5f, -3.0f, 254.5f, 255.5f, 1e30f};
  const uint8_t uwant[5] = {0, 0, 254, 255, 255};
  uint8_t udst[5];
  st_tensor ud = wrap(udst, ST_UINT8, 1, DIMS(5)), us = wrap((void*)usrc, ST_FLOAT32, 1, DIMS(5));
  EXPECT_OK(st_copy_scaled(ud, us, &kIdentity, 0));
  assert_memory_equal(udst, uwant, sizeof uwant);
  /* int64 from float64 at its edges: 2^63 clamps, -2^63 is exact */
  const double lsrc[3] = {9223372036854775808.0, -9223372036854775808.0, 4503599627370497.5};
  const int64_t lwant[3] = {INT64_MAX, INT64_MIN, 4503599627370498};
  int64_t ldst[3];
  st_tensor ld = wrap(ldst, ST_INT64, 1, DIMS(3)), ls = wrap((void*)lsrc, ST_FLOAT64, 1, DIMS(3));
  EXPECT_OK(st_copy_scaled(ld, ls, &kIdentity, 0));
  assert_memory_equal(ldst, lwant, sizeof lwant);
  const st_tensor all[] = {d, s, ud, us, ld, ls};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) EXPECT_OK(st_tensor_release(all[i]));
}

static void quantize_per_channel_as_onnx(void** state) {
  (void)state;
  /* QuantizeLinear, axis 0: y = saturate(round(x / y_scale) + zero_point) */
  const float x[2][4] = {{0.0f, 0.25f, 0.75f, -1.0f}, {10.0f, 12.5f, -100.0f, 1000.0f}};
  const double inv_scale[2] = {1 / 0.5, 1 / 2.5}, zero_point[2] = {128, 3};
  const uint8_t want[2][4] = {{128, 128, 130, 126}, {7, 8, 0, 255}};
  uint8_t y[2][4];
  st_tensor d = wrap(y, ST_UINT8, 2, DIMS(2, 4)), s = wrap((void*)x, ST_FLOAT32, 2, DIMS(2, 4));
  const st_scale_shift ss = {inv_scale, zero_point, 2, 0, 0};
  EXPECT_OK(st_copy_scaled(d, s, &ss, 0));
  assert_memory_equal(y, want, sizeof want);
  /* DequantizeLinear back: (q - zp) * scale = fma(q, scale, -zp * scale) */
  const double scale[2] = {0.5, 2.5}, shift[2] = {-128 * 0.5, -3 * 2.5};
  const float back[2][4] = {{0.0f, 0.0f, 1.0f, -1.0f}, {10.0f, 12.5f, -7.5f, 630.0f}};
  float f[2][4];
  st_tensor fd = wrap(f, ST_FLOAT32, 2, DIMS(2, 4));
  const st_scale_shift deq = {scale, shift, 2, -2, 0};
  EXPECT_OK(st_copy_scaled(fd, d, &deq, 0));
  assert_memory_equal(f, back, sizeof back);
  const st_tensor all[] = {d, s, fd};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) EXPECT_OK(st_tensor_release(all[i]));
}

static void normalize_nhwc_uint8_into_nchw_float(void** state) {
  (void)state;
  /* ToTensor + Normalize: 1 image of 1x2 pixels, 3 channels */
  const uint8_t pixels[1][1][2][3] = {{{{0, 128, 255}, {255, 0, 51}}}};
  const double mean[3] = {0.5, 0.25, 0.0}, std_[3] = {0.5, 0.25, 0.2};
  double scale[3], shift[3];
  for (int c = 0; c < 3; ++c) {
    scale[c] = 1.0 / (255.0 * std_[c]);
    shift[c] = -mean[c] / std_[c];
  }
  float out[1][3][1][2];
  st_tensor nhwc = wrap((void*)pixels, ST_UINT8, 4, DIMS(1, 1, 2, 3)), src, d = wrap(out, ST_FLOAT32, 4, DIMS(1, 3, 1, 2));
  EXPECT_OK(st_permute(nhwc, (const int32_t[]){0, 3, 1, 2}, 4, &src));
  const st_scale_shift ss = {scale, shift, 3, 1, 0};
  EXPECT_OK(st_copy_scaled(d, src, &ss, 0));
  for (int c = 0; c < 3; ++c) {
    for (int w = 0; w < 2; ++w) {
      const float want = test_fmaf((float)pixels[0][0][w][c], (float)scale[c], (float)shift[c]);
      assert_true(memcmp(&out[0][c][0][w], &want, 4) == 0);
      /* and close to the textbook formula */
      assert_true(fabs(out[0][c][0][w] - (pixels[0][0][w][c] / 255.0 - mean[c]) / std_[c]) < 1e-5);
    }
  }
  const st_tensor all[] = {nhwc, src, d};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) EXPECT_OK(st_tensor_release(all[i]));
}

static void floating_dst_saturates_when_asked(void** state) {
  (void)state;
  const float src[7] = {500.0f, -1e9f, INFINITY, -INFINITY, NAN, 449.0f, 464.0f};
  /* float8_e4m3fn: 448 is 0x7E; NaN 0x7F */
  const uint8_t e4_sat[7] = {0x7E, 0xFE, 0x7E, 0xFE, 0x7F, 0x7E, 0x7E};
  const uint8_t e4_plain[7] = {0x7F, 0xFF, 0x7F, 0xFF, 0x7F, 0x7E, 0x7E};
  uint8_t e4[7];
  st_tensor d = wrap(e4, ST_FLOAT8_E4M3FN, 1, DIMS(7)), s = wrap((void*)src, ST_FLOAT32, 1, DIMS(7));
  st_scale_shift ss = {NULL, NULL, 1, 0, 1};
  EXPECT_OK(st_copy_scaled(d, s, &ss, 0));
  for (int i = 0; i < 7; ++i) {
    if (i == 4) {
      assert_int_equal(e4[i] & 0x7F, 0x7F);
    } else {
      assert_int_equal(e4[i], e4_sat[i]);
    }
  }
  ss.saturate = 0;
  EXPECT_OK(st_copy_scaled(d, s, &ss, 0));
  for (int i = 0; i < 7; ++i) {
    if ((e4_plain[i] & 0x7F) == 0x7F) {
      assert_int_equal(e4[i] & 0x7F, 0x7F); /* NaN, of either sign */
    } else {
      assert_int_equal(e4[i], e4_plain[i]);
    }
  }
  /* float16: 65504 is 0x7BFF, inf 0x7C00; float8_e5m2: 57344 is 0x7B, inf 0x7C */
  uint16_t h[2];
  uint8_t e5[2];
  const float big[2] = {70000.0f, -1e6f};
  st_tensor hd = wrap(h, ST_FLOAT16, 1, DIMS(2)), e5d = wrap(e5, ST_FLOAT8_E5M2, 1, DIMS(2)),
            bs = wrap((void*)big, ST_FLOAT32, 1, DIMS(2));
  const uint16_t h_want[2][2] = {{0x7C00, 0xFC00}, {0x7BFF, 0xFBFF}};
  const uint8_t e5_want[2][2] = {{0x7C, 0xFC}, {0x7B, 0xFB}};
  for (int sat = 0; sat < 2; ++sat) {
    ss.saturate = sat;
    EXPECT_OK(st_copy_scaled(hd, bs, &ss, 0));
    EXPECT_OK(st_copy_scaled(e5d, bs, &ss, 0));
    assert_memory_equal(h, h_want[sat], sizeof h);
    assert_memory_equal(e5, e5_want[sat], sizeof e5);
  }
  /* float32 from float64: beyond FLT_MAX */
  const double wide[2] = {1e300, -INFINITY};
  float f[2];
  st_tensor fd = wrap(f, ST_FLOAT32, 1, DIMS(2)), ws = wrap((void*)wide, ST_FLOAT64, 1, DIMS(2));
  ss.saturate = 1;
  EXPECT_OK(st_copy_scaled(fd, ws, &ss, 0));
  assert_true(f[0] == FLT_MAX && f[1] == -FLT_MAX);
  /* a scale folded in: 1000 * 0.5 = 500 saturates to 448 */
  const double half = 0.5;
  const float thousand = 1000.0f;
  st_tensor one_d = wrap(e4, ST_FLOAT8_E4M3FN, 1, DIMS(1)), one_s = wrap((void*)&thousand, ST_FLOAT32, 1, DIMS(1));
  const st_scale_shift scaled = {&half, NULL, 1, 0, 1};
  EXPECT_OK(st_copy_scaled(one_d, one_s, &scaled, 0));
  assert_int_equal(e4[0], 0x7E);
  const st_tensor all[] = {d, s, hd, e5d, bs, fd, ws, one_d, one_s};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) EXPECT_OK(st_tensor_release(all[i]));
}

static void one_fma_in_the_compute_type(void** state) {
  (void)state;
  /* float32 compute: x*s + b rounds once; a separate multiply would round twice */
  const float x = 1.0f + 0x1p-12f;
  const double s = 1.0 + 0x1p-12, b = -(1.0 + 0x1p-11);
  float got;
  st_tensor d = wrap(&got, ST_FLOAT32, 1, DIMS(1)), src = wrap((void*)&x, ST_FLOAT32, 1, DIMS(1));
  const st_scale_shift ss = {&s, &b, 1, 0, 0};
  EXPECT_OK(st_copy_scaled(d, src, &ss, 0));
  assert_true(got == 0x1p-24f); /* exact product 1 + 2^-11 + 2^-24 */
  /* int32 pairs compute in float64: 2^31 - 1 survives a scale of 1 */
  const int32_t big = INT32_MAX;
  int32_t out;
  st_tensor id = wrap(&out, ST_INT32, 1, DIMS(1)), is = wrap((void*)&big, ST_INT32, 1, DIMS(1));
  EXPECT_OK(st_copy_scaled(id, is, &kIdentity, 0));
  assert_int_equal(out, INT32_MAX);
  /* bool: nonzero */
  const float v[3] = {0.0f, -0.0f, 0.25f};
  uint8_t bl[3];
  st_tensor bd = wrap(bl, ST_BOOL, 1, DIMS(3)), bsrc = wrap((void*)v, ST_FLOAT32, 1, DIMS(3));
  EXPECT_OK(st_copy_scaled(bd, bsrc, &kIdentity, 0));
  assert_true(bl[0] == 0 && bl[1] == 0 && bl[2] == 1);
  const st_tensor all[] = {d, src, id, is, bd, bsrc};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) EXPECT_OK(st_tensor_release(all[i]));
}

/* ---- Random cases against the reference ----------------------------------- */

static const st_dtype kReal[15] = {ST_BOOL,     ST_UINT8,   ST_INT8,    ST_INT16,  ST_INT32,
                                   ST_INT64,    ST_FLOAT16, ST_BFLOAT16, ST_FLOAT32, ST_FLOAT64,
                                   ST_UINT16,   ST_UINT32,  ST_UINT64,  ST_FLOAT8_E4M3FN, ST_FLOAT8_E5M2};

/* Values with ties and edges: mostly k/2 and k/4 for |k| < 700, else raw bits. */
static void fill_values(buffer* b, uint64_t* rng) {
  for (int64_t i = 0; i < b->numel; ++i) {
    unsigned char* p = b->bytes + i * (int64_t)b->itemsize;
    if (rng_below(rng, 10) < 3) continue; /* keep the random bytes */
    const double v = (double)(rng_below(rng, 1400) - 700) / (double)(1 + rng_below(rng, 4));
    switch (b->dtype) {
      case ST_BOOL: *p = v > 0; break;
      case ST_FLOAT32: { const float f = (float)v; memcpy(p, &f, 4); break; }
      case ST_FLOAT64: memcpy(p, &v, 8); break;
      case ST_FLOAT16: case ST_BFLOAT16: {
        const uint16_t h = (uint16_t)small_encode(v, *small_format_of(b->dtype));
        memcpy(p, &h, 2);
        break;
      }
      case ST_FLOAT8_E4M3FN: case ST_FLOAT8_E5M2: *p = (unsigned char)small_encode(v, *small_format_of(b->dtype)); break;
      default: write_integer(b->dtype, p, v < 0 && (b->dtype == ST_UINT8 || b->dtype == ST_UINT16 ||
                                                   b->dtype == ST_UINT32 || b->dtype == ST_UINT64) ? -v : v);
    }
  }
  if (b->dtype == ST_BOOL)
    for (int64_t i = 0; i < b->numel; ++i) b->bytes[i] = b->bytes[i] & 1; /* bool bytes are 0 or 1 */
}

static double random_scale(uint64_t* rng) {
  static const double kScales[8] = {1.0, 0.5, 2.0, 0.25, 1.0 / 255, 3.0, -1.5, 1e-3};
  return kScales[rng_below(rng, 8)];
}

/* One random case: dst of 1-4 dims over a random layout, src broadcast or
 * not, per tensor or per channel, and dst and src possibly views of one
 * buffer (overlap). */
static void run_random_case(uint64_t* rng, st_dtype dt, st_dtype st, int overlap, char* context, size_t clen) {
  layout dl, sl;
  const int32_t ndim = 1 + (int32_t)rng_below(rng, 4);
  int64_t sizes[4];
  for (int i = 0; i < ndim; ++i) sizes[i] = 1 + rng_below(rng, 6);
  const int64_t dn = random_layout(rng, ndim, sizes, 0, &dl);
  int64_t ssizes[4];
  const int32_t sndim = ndim - (int32_t)rng_below(rng, 2);
  for (int i = 0; i < sndim; ++i) ssizes[i] = rng_below(rng, 3) == 0 ? 1 : sizes[ndim - sndim + i];
  buffer db = buffer_create(dt, dn, rng);
  buffer sb;
  int64_t sn = random_layout(rng, sndim, ssizes, 1, &sl);
  if (overlap && dt == st) {
    /* src is a view of dst's own buffer */
    if (sn > dn) sl = row_major(sndim, ssizes, 0);
    if (layout_numel(&sl) > dn) {
      buffer_destroy(&db);
      return;
    }
    sb = db;
  } else {
    overlap = 0;
    sb = buffer_create(st, sn, rng);
  }
  fill_values(&sb, rng);
  if (!overlap) fill_values(&db, rng);

  const int per_channel = (int)rng_below(rng, 3) != 0;
  const int32_t dim = per_channel ? (int32_t)rng_below(rng, ndim) : 0;
  const int64_t n = per_channel ? sizes[dim] : 1;
  double scale[8], shift[8];
  for (int64_t i = 0; i < n; ++i) {
    scale[i] = random_scale(rng);
    shift[i] = (double)(rng_below(rng, 9) - 4) * 0.5;
  }
  const int saturate = (int)rng_below(rng, 2);
  const st_scale_shift ss = {scale, rng_below(rng, 5) ? shift : NULL, n,
                             per_channel && rng_below(rng, 2) ? dim - ndim : dim, saturate};
  snprintf(context, clen, "%s <- %s, ndim %d, %s dim %d, saturate %d, overlap %d", st_dtype_name(dt),
           st_dtype_name(st), (int)ndim, per_channel ? "per channel" : "per tensor", (int)dim, saturate, overlap);

  /* The reference reads src before anything is written (src may be dst). */
  const size_t de = itemsize_of(dt), se = itemsize_of(st);
  unsigned char* want = malloc((size_t)dn * de);
  memcpy(want, db.bytes, (size_t)dn * de);
  const int64_t total = layout_numel(&dl);
  int64_t idx[4] = {0, 0, 0, 0};
  for (int64_t k = 0; k < total; ++k) {
    int64_t doff = dl.offset, soff = sl.offset;
    for (int i = 0; i < ndim; ++i) doff += idx[i] * dl.strides[i];
    for (int i = 0; i < sndim; ++i) {
      const int64_t j = idx[ndim - sndim + i];
      soff += (ssizes[i] == 1 ? 0 : j) * sl.strides[i];
    }
    const int64_t c = per_channel ? idx[dim] : 0;
    int dbl;
    const double y = scaled_reference(dt, st, sb.bytes + soff * (int64_t)se, scale[c], ss.shift ? shift[c] : 0.0, &dbl);
    write_result(dt, want + doff * (int64_t)de, y, saturate, dbl);
    for (int i = ndim - 1; i >= 0; --i) {
      if (++idx[i] < sizes[i]) break;
      idx[i] = 0;
    }
  }

  st_tensor d = buffer_view(&db, &dl), s = buffer_view(&sb, &sl);
  EXPECT_OK(st_copy_scaled(d, s, &ss, 0));
  /* Element by element (NaN-aware), then every other byte unchanged. */
  memset(idx, 0, sizeof idx);
  for (int64_t k = 0; k < total; ++k) {
    int64_t doff = dl.offset;
    for (int i = 0; i < ndim; ++i) doff += idx[i] * dl.strides[i];
    expect_scaled_element(dt, db.bytes + doff * (int64_t)de, want + doff * (int64_t)de, context);
    memcpy(db.bytes + doff * (int64_t)de, want + doff * (int64_t)de, de);
    for (int i = ndim - 1; i >= 0; --i) {
      if (++idx[i] < sizes[i]) break;
      idx[i] = 0;
    }
  }
  expect_same_bytes(db.bytes, want, (size_t)dn * de, de, context);
  free(want);
  EXPECT_OK(st_tensor_release(d));
  EXPECT_OK(st_tensor_release(s));
  if (!overlap) buffer_destroy(&sb);
  buffer_destroy(&db);
}

static void every_real_pair_matches_the_reference(void** state) {
  (void)state;
  uint64_t rng = test_seed("every_real_pair_matches_the_reference", 0x5ca1edULL);
  char context[256];
  for (int a = 0; a < 15; ++a)
    for (int b = 0; b < 15; ++b)
      for (int rep = 0; rep < 12; ++rep) run_random_case(&rng, kReal[a], kReal[b], 0, context, sizeof context);
}

static void overlapping_operands_read_src_first(void** state) {
  (void)state;
  uint64_t rng = test_seed("overlapping_operands_read_src_first", 0x0e1a9ULL);
  char context[256];
  for (int rep = 0; rep < 300; ++rep) {
    const st_dtype t = kReal[rng_below(&rng, 15)];
    run_random_case(&rng, t, t, 1, context, sizeof context);
  }
  /* in place, the very same elements: scaled, not skipped */
  float v[4] = {1, 2, 3, 4};
  st_tensor t = wrap(v, ST_FLOAT32, 1, DIMS(4));
  const double two = 2, one = 1;
  const st_scale_shift ss = {&two, &one, 1, 0, 0};
  EXPECT_OK(st_copy_scaled(t, t, &ss, 0));
  assert_true(v[0] == 3 && v[1] == 5 && v[2] == 7 && v[3] == 9);
  /* shifted by one: as if src were read in full first */
  float w[5] = {1, 2, 3, 4, 5};
  st_tensor whole = wrap(w, ST_FLOAT32, 1, DIMS(5)), lo, hi;
  EXPECT_OK(st_slice(whole, 0, 0, 4, 1, &lo));
  EXPECT_OK(st_slice(whole, 0, 1, 5, 1, &hi));
  EXPECT_OK(st_copy_scaled(hi, lo, &ss, 0));
  assert_true(w[0] == 1 && w[1] == 3 && w[2] == 5 && w[3] == 7 && w[4] == 9);
  const st_tensor all[] = {t, whole, lo, hi};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) EXPECT_OK(st_tensor_release(all[i]));
}

/* db (rows x cols, row-major) against the reference from sb; mode 0: one
 * scale and shift, 1: one per row, 2: one per column. */
static void expect_row_major_result(const buffer* db, const buffer* sb, int64_t rows, int64_t cols, int mode,
                                    const double* scale, const double* shift, int saturate, const char* context) {
  const size_t de = itemsize_of(db->dtype), se = itemsize_of(sb->dtype);
  unsigned char want[8];
  for (int64_t i = 0; i < rows * cols; ++i) {
    const int64_t c = mode == 0 ? 0 : mode == 1 ? i / cols : i % cols;
    int dbl;
    const double y = scaled_reference(db->dtype, sb->dtype, sb->bytes + i * (int64_t)se, scale[c], shift[c], &dbl);
    write_result(db->dtype, want, y, saturate, dbl);
    expect_scaled_element(db->dtype, db->bytes + i * (int64_t)de, want, context);
  }
}

static void finish_case(st_tensor d, st_tensor s, buffer* sb, buffer* db, double* scale, double* shift) {
  EXPECT_OK(st_tensor_release(d));
  EXPECT_OK(st_tensor_release(s));
  buffer_destroy(sb);
  buffer_destroy(db);
  free(scale);
  free(shift);
}

static void large_copies_match_across_threads(void** state) {
  (void)state;
  /* big enough for the parallel and vector paths: per row, per column, per
   * tensor; rows 1,040 floats apart (64-byte multiples) also take the
   * widening rows four at a time (Note [Rows that share their values]) */
  uint64_t rng = test_seed("large_copies_match_across_threads", 0x1a29eULL);
  const st_dtype pairs[][2] = {{ST_INT8, ST_FLOAT32},        {ST_UINT8, ST_FLOAT32},   {ST_FLOAT32, ST_INT8},
                               {ST_FLOAT32, ST_UINT8},       {ST_FLOAT8_E4M3FN, ST_FLOAT32}, {ST_FLOAT16, ST_FLOAT32},
                               {ST_FLOAT32, ST_FLOAT32},     {ST_INT32, ST_FLOAT64}};
  const int64_t rows = 67, col_counts[2] = {1031, 1040};
  char context[160];
  for (int k = 0; k < 2; ++k) {
    const int64_t cols = col_counts[k];
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; ++p) {
      for (int mode = 0; mode < 3; ++mode) {
        const st_dtype dt = pairs[p][0], st = pairs[p][1];
        buffer sb = buffer_create(st, rows * cols, &rng), db = buffer_create(dt, rows * cols, &rng);
        fill_values(&sb, &rng);
        const int64_t n = mode == 0 ? 1 : mode == 1 ? rows : cols;
        double* scale = malloc((size_t)n * sizeof(double));
        double* shift = malloc((size_t)n * sizeof(double));
        for (int64_t i = 0; i < n; ++i) {
          scale[i] = random_scale(&rng);
          shift[i] = (double)(rng_below(&rng, 9) - 4) * 0.5;
        }
        const st_scale_shift ss = {scale, shift, n, mode == 2 ? 1 : 0, mode == 0};
        layout l = row_major(2, DIMS(rows, cols), 0);
        st_tensor d = buffer_view(&db, &l), s = buffer_view(&sb, &l);
        EXPECT_OK(st_copy_scaled(d, s, &ss, 0));
        snprintf(context, sizeof context, "%s <- %s, mode %d, %lld columns", st_dtype_name(dt), st_dtype_name(st), mode,
                 (long long)cols);
        expect_row_major_result(&db, &sb, rows, cols, mode, scale, shift, ss.saturate, context);
        finish_case(d, s, &sb, &db, scale, shift);
      }
    }
  }
}

/* NHWC uint8 pixels into NCHW float32 planes, per channel: small images
 * (vector blocks and tails) and one whose output (18 MB) is streamed. */
static void nhwc_images_into_planes_match_the_reference(void** state) {
  (void)state;
  uint64_t rng = test_seed("nhwc_images_into_planes_match_the_reference", 0x1a9e5ULL);
  const int64_t shapes[2][4] = {{2, 37, 41, 3}, {10, 224, 224, 3}};
  const double scale[3] = {1 / (255 * 0.229), 1 / (255 * 0.224), 1 / (255 * 0.225)};
  const double shift[3] = {-0.485 / 0.229, -0.456 / 0.224, -0.406 / 0.225};
  for (int k = 0; k < 2; ++k) {
    const int64_t* sz = shapes[k];
    const int64_t n = sz[0] * sz[1] * sz[2] * sz[3];
    uint8_t* px = malloc((size_t)n);
    float* out = malloc((size_t)n * sizeof(float));
    for (int64_t i = 0; i < n; ++i) px[i] = (uint8_t)rng_next(&rng);
    st_tensor nhwc = wrap(px, ST_UINT8, 4, sz), src, d = wrap(out, ST_FLOAT32, 4, DIMS(sz[0], 3, sz[1], sz[2]));
    EXPECT_OK(st_permute(nhwc, (const int32_t[]){0, 3, 1, 2}, 4, &src));
    const st_scale_shift ss = {scale, shift, 3, 1, 0};
    EXPECT_OK(st_copy_scaled(d, src, &ss, 0));
    const int64_t hw = sz[1] * sz[2];
    for (int64_t b = 0; b < sz[0]; ++b)
      for (int c = 0; c < 3; ++c)
        for (int64_t p = 0; p < hw; ++p) {
          const float want = test_fmaf((float)px[(b * hw + p) * 3 + c], (float)scale[c], (float)shift[c]);
          const float got = out[(b * 3 + c) * hw + p];
          if (memcmp(&got, &want, 4) != 0) fail_msg("image %lld channel %d pixel %lld: %.9g, expected %.9g", (long long)b, c, (long long)p, got, want);
        }
    EXPECT_OK(st_tensor_release(d));
    EXPECT_OK(st_tensor_release(src));
    EXPECT_OK(st_tensor_release(nhwc));
    free(px);
    free(out);
  }
}

/* Outputs of 16 MB and more are streamed: float32 -> int8 and
 * float8_e4m3fn per tensor, int8 -> float32 per column, with rows 4,099
 * columns long and, for int8 -> float32, 4,096 (64-byte multiples apart:
 * four rows a step). */
static void streamed_outputs_match_the_reference(void** state) {
  (void)state;
  uint64_t rng = test_seed("streamed_outputs_match_the_reference", 0x57ea3ULL);
  const int64_t rows = 1025;
  const st_dtype pairs[4][2] = {
      {ST_INT8, ST_FLOAT32}, {ST_FLOAT8_E4M3FN, ST_FLOAT32}, {ST_FLOAT32, ST_INT8}, {ST_FLOAT32, ST_INT8}};
  const int64_t cols_of[4] = {4099, 4099, 4099, 4096};
  char context[96];
  for (int p = 0; p < 4; ++p) {
    const st_dtype dt = pairs[p][0], st = pairs[p][1];
    const int64_t cols = cols_of[p];
    const int64_t r = dt == ST_FLOAT32 ? rows : 4 * rows;
    buffer sb = buffer_create(st, r * cols, &rng), db = buffer_create(dt, r * cols, &rng);
    fill_values(&sb, &rng);
    double* scale = malloc((size_t)cols * sizeof(double));
    double* shift = malloc((size_t)cols * sizeof(double));
    for (int64_t i = 0; i < cols; ++i) {
      scale[i] = random_scale(&rng);
      shift[i] = (double)(rng_below(&rng, 9) - 4) * 0.5;
    }
    const int per_column = dt == ST_FLOAT32;
    const st_scale_shift ss = {scale, shift, per_column ? cols : 1, 1, 1};
    layout l = row_major(2, DIMS(r, cols), 0);
    st_tensor d = buffer_view(&db, &l), s = buffer_view(&sb, &l);
    EXPECT_OK(st_copy_scaled(d, s, &ss, 0));
    snprintf(context, sizeof context, "%s <- %s, streamed, %lld columns", st_dtype_name(dt), st_dtype_name(st),
             (long long)cols);
    expect_row_major_result(&db, &sb, r, cols, per_column ? 2 : 0, scale, shift, 1, context);
    finish_case(d, s, &sb, &db, scale, shift);
  }
}

static void record_op(void* ctx, const char* op_name, int64_t duration_ns) {
  (void)duration_ns;
  if (strcmp(op_name, "copy_scaled_") == 0) ++*(int*)ctx;
}

static void tracing_reports_the_operator(void** state) {
  (void)state;
  float v[2] = {1, 2}, out[2];
  st_tensor s = wrap(v, ST_FLOAT32, 1, DIMS(2)), d = wrap(out, ST_FLOAT32, 1, DIMS(2));
  int seen = 0;
  EXPECT_OK(st_set_trace_callback(record_op, &seen));
  EXPECT_OK(st_copy_scaled(d, s, &kIdentity, 0));
  EXPECT_OK(st_set_trace_callback(NULL, NULL));
  assert_int_equal(seen, 1);
  EXPECT_OK(st_tensor_release(s));
  EXPECT_OK(st_tensor_release(d));
}

static void the_api_table_has_it(void** state) {
  (void)state;
  const st_api* api = st_get_api(ST_API_VERSION);
  assert_non_null(api);
  assert_ptr_equal(api->copy_scaled, st_copy_scaled);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(errors_write_nothing),
      cmocka_unit_test(read_only_and_out_of_memory_write_nothing),
      cmocka_unit_test(integer_dst_rounds_half_to_even_and_clamps),
      cmocka_unit_test(quantize_per_channel_as_onnx),
      cmocka_unit_test(normalize_nhwc_uint8_into_nchw_float),
      cmocka_unit_test(floating_dst_saturates_when_asked),
      cmocka_unit_test(one_fma_in_the_compute_type),
      cmocka_unit_test(every_real_pair_matches_the_reference),
      cmocka_unit_test(overlapping_operands_read_src_first),
      cmocka_unit_test(large_copies_match_across_threads),
      cmocka_unit_test(nhwc_images_into_planes_match_the_reference),
      cmocka_unit_test(streamed_outputs_match_the_reference),
      cmocka_unit_test(tracing_reports_the_operator),
      cmocka_unit_test(per_channel_values_too_many_to_hold_are_out_of_memory),
      cmocka_unit_test(the_api_table_has_it),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
