/* st_quantize_blocks and st_dequantize_blocks as a caller uses them: blocks
 * of every format worked out by hand from the rules of include/stride.h
 * (the scale from amax, each element on its grid, ties to even, saturation,
 * NaN and infinity, NVFP4's scales), the same results through strided,
 * flipped and transposed views and along an outer dim, partial and empty
 * blocks, the cuBLAS "128x4" scale layout written through a view, work
 * split over a job system's threads, and every error status, each with the
 * outputs filled with a sentinel first and found unchanged. */
#include <math.h>
#include <stdlib.h>

#include "copy_support.h"
#include "dlpack_producer.h"

#define SENTINEL 0xA5

/* Memory the test owns, wrapped whole by st_tensor_from_data (no deleter). */
static st_tensor wrap(void* data, st_dtype dtype, int32_t ndim, const int64_t* sizes, const int64_t* strides) {
  st_tensor t;
  EXPECT_OK(st_tensor_from_data(data, sizes, strides, ndim, dtype, CPU, NULL, NULL, &t));
  return t;
}

static st_block_spec spec_of(st_block_format format, int32_t dim, st_scale_rule rule, float g) {
  st_block_spec s;
  memset(&s, 0, sizeof s);
  s.struct_size = sizeof(st_block_spec);
  s.format = format;
  s.dim = dim;
  s.scale_rule = rule;
  s.global_scale = g;
  return s;
}

static void expect_bytes(const unsigned char* got, const unsigned char* want, size_t n, const char* what) {
  for (size_t i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      print_error("%s: byte %zu is 0x%02x, expected 0x%02x\n", what, i, got[i], want[i]);
      fail();
    }
  }
}

static void expect_all(const unsigned char* got, unsigned char want, size_t n, const char* what) {
  for (size_t i = 0; i < n; ++i) {
    if (got[i] != want) {
      print_error("%s: byte %zu is 0x%02x, expected 0x%02x (left unchanged)\n", what, i, got[i], want);
      fail();
    }
  }
}

static void expect_f32(const float* got, const float* want, size_t n, const char* what) {
  for (size_t i = 0; i < n; ++i) {
    const int same = isnan(want[i]) ? isnan(got[i]) : (got[i] == want[i] && !signbit(got[i]) == !signbit(want[i]));
    if (!same) {
      print_error("%s: element %zu is %.9g, expected %.9g\n", what, i, (double)got[i], (double)want[i]);
      fail();
    }
  }
}

/* The dtypes of a format's values and scales (include/stride.h). */
static st_dtype values_dtype(st_block_format format) {
  switch (format) {
    case ST_BLOCK_MXFP8_E4M3: return ST_FLOAT8_E4M3FN;
    case ST_BLOCK_MXFP8_E5M2: return ST_FLOAT8_E5M2;
    case ST_BLOCK_MXFP6_E2M3: return ST_FLOAT6_E2M3FN;
    case ST_BLOCK_MXFP6_E3M2: return ST_FLOAT6_E3M2FN;
    case ST_BLOCK_MXINT8: return ST_INT8;
    case ST_BLOCK_MXFP4_E2M1:
    case ST_BLOCK_NVFP4: break;
  }
  return ST_FLOAT4_E2M1FN_X2;
}

static st_dtype scales_dtype(st_block_format format) {
  return format == ST_BLOCK_NVFP4 ? ST_FLOAT8_E4M3FN : ST_FLOAT8_E8M0FNU;
}

/* Quantizes the 1-d float32 `src` of n elements into fresh values and
 * scales, which it compares with the hand-computed ones. */
static void expect_quantized(st_block_format format, st_scale_rule rule, float g, const float* src, int64_t n,
                             const unsigned char* want_values, int64_t nvalues, const unsigned char* want_scales,
                             int64_t nscales, const char* what) {
  const st_dtype vdtype = values_dtype(format), sdtype = scales_dtype(format);
  unsigned char values[64], scales[8];
  memset(values, SENTINEL, sizeof values);
  memset(scales, SENTINEL, sizeof scales);
  st_tensor x = wrap((void*)src, ST_FLOAT32, 1, DIMS(n), NULL);
  st_tensor v = wrap(values, vdtype, 1, DIMS(nvalues), NULL);
  st_tensor s = wrap(scales, sdtype, 1, DIMS(nscales), NULL);
  const st_block_spec spec = spec_of(format, -1, rule, g);
  EXPECT_OK(st_quantize_blocks(v, s, x, &spec));
  expect_bytes(values, want_values, (size_t)nvalues, what);
  expect_bytes(scales, want_scales, (size_t)nscales, what);
  expect_all(values + nvalues, SENTINEL, sizeof values - (size_t)nvalues, "past the values");
  expect_all(scales + nscales, SENTINEL, sizeof scales - (size_t)nscales, "past the scales");
  st_tensor_release(x);
  st_tensor_release(v);
  st_tensor_release(s);
}

/* Dequantizes values and scales into n float32 and compares them with `want`. */
static void expect_dequantized(st_block_format format, float g, const unsigned char* values, int64_t nvalues,
                               const unsigned char* scales, int64_t nscales, const float* want, int64_t n,
                               const char* what) {
  const st_dtype vdtype = values_dtype(format), sdtype = scales_dtype(format);
  float dst[64];
  st_tensor d = wrap(dst, ST_FLOAT32, 1, DIMS(n), NULL);
  st_tensor v = wrap((void*)values, vdtype, 1, DIMS(nvalues), NULL);
  st_tensor s = wrap((void*)scales, sdtype, 1, DIMS(nscales), NULL);
  const st_block_spec spec = spec_of(format, 0, ST_SCALE_FLOOR, g);
  EXPECT_OK(st_dequantize_blocks(d, v, s, &spec));
  expect_f32(dst, want, (size_t)n, what);
  st_tensor_release(d);
  st_tensor_release(v);
  st_tensor_release(s);
}

/* ---- Hand-computed blocks ---------------------------------------------------- */

/* MXFP8 E4M3. amax 100: floor(log2 100) = 6, k = 6 - 8 = -2, X = 1/4, scale
 * 127 - 2 = 125 (0x7D); RCEIL's smallest k with 100 <= 448 · 2^k is -2 too.
 * x / X: 24 = 1.5·2^4 (0x5C), -3 = -1.5·2^1 (0xC4), 0, -0 (0x80), 400 =
 * 1.1001b·2^8, the tie between 384 and 416 that goes to even 384 (0x7C),
 * 4e-6 far below half of 2^-9 (0). Dequantized: 6, -0.75, 0, -0, 96, 0. */
static void mxfp8_e4m3_block_by_hand(void** state) {
  (void)state;
  float src[32] = {6.0f, -0.75f, 0.0f, -0.0f, 100.0f, 1e-6f};
  unsigned char values[32] = {0x5C, 0xC4, 0x00, 0x80, 0x7C, 0x00};
  const unsigned char scale[1] = {0x7D};
  expect_quantized(ST_BLOCK_MXFP8_E4M3, ST_SCALE_FLOOR, 0, src, 32, values, 32, scale, 1, "E4M3 floor");
  expect_quantized(ST_BLOCK_MXFP8_E4M3, ST_SCALE_RCEIL, 0, src, 32, values, 32, scale, 1, "E4M3 rceil");
  float back[32] = {6.0f, -0.75f, 0.0f, -0.0f, 96.0f, 0.0f};
  expect_dequantized(ST_BLOCK_MXFP8_E4M3, 0, values, 32, scale, 1, back, 32, "E4M3 back");
}

/* amax 480: FLOOR takes k = 8 - 8 = 0 (scale 0x7F) and 480 saturates to 448
 * (0x7E); RCEIL takes the smallest k with 480 <= 448 · 2^k, 1 (0x80), and
 * 240 = 1.875·2^7 (0x77), 1 / 2 = 0.5 (0x30). */
static void floor_saturates_and_rceil_does_not(void** state) {
  (void)state;
  float src[32] = {480.0f, 1.0f};
  const unsigned char floor_values[32] = {0x7E, 0x38}, floor_scale[1] = {0x7F};
  expect_quantized(ST_BLOCK_MXFP8_E4M3, ST_SCALE_FLOOR, 0, src, 32, floor_values, 32, floor_scale, 1, "floor");
  const unsigned char rceil_values[32] = {0x77, 0x30}, rceil_scale[1] = {0x80};
  expect_quantized(ST_BLOCK_MXFP8_E4M3, ST_SCALE_RCEIL, 0, src, 32, rceil_values, 32, rceil_scale, 1, "rceil");
}

/* amax 2^k - 1 ulp: float32 0x1.fffffep3 just below 16. floor(log2) is 3,
 * not 4 (a float log2 rounds it up): k = 3 - 8 = -5 (0x7A), and the value
 * / 2^-5 = 0x1.fffffep8 rounds to 512, beyond 448: 0x7E. */
static void amax_one_ulp_below_a_power_of_two(void** state) {
  (void)state;
  float src[32] = {0x1.fffffep3f};
  const unsigned char values[32] = {0x7E}, scale[1] = {0x7A};
  expect_quantized(ST_BLOCK_MXFP8_E4M3, ST_SCALE_FLOOR, 0, src, 32, values, 32, scale, 1, "2^4 - ulp");
  /* RCEIL: 0x1.fffffep3 <= 448 · 2^k first at k = -4 (28): 0x1.fffffep7 = 256 - 2^-16, rounds to 256 (0x78). */
  const unsigned char rvalues[32] = {0x78}, rscale[1] = {0x7B};
  expect_quantized(ST_BLOCK_MXFP8_E4M3, ST_SCALE_RCEIL, 0, src, 32, rvalues, 32, rscale, 1, "2^4 - ulp, rceil");
}

/* MXFP8 E5M2 (emax 15). amax 3: floor(log2) = 1, k = -14 (0x71); x / X =
 * x · 2^14: 3·2^14 = 1.5·2^15 (field 30, mantissa 10: 0x7A), 1·2^14
 * (field 29: 0x74), -2^-10·2^14 = -16 (field 19: 0xCC). */
static void mxfp8_e5m2_block_by_hand(void** state) {
  (void)state;
  float src[32] = {3.0f, 1.0f, -0x1p-10f};
  const unsigned char values[32] = {0x7A, 0x74, 0xCC}, scale[1] = {0x71};
  expect_quantized(ST_BLOCK_MXFP8_E5M2, ST_SCALE_FLOOR, 0, src, 32, values, 32, scale, 1, "E5M2");
  const float back[32] = {3.0f, 1.0f, -0x1p-10f};
  expect_dequantized(ST_BLOCK_MXFP8_E5M2, 0, values, 32, scale, 1, back, 32, "E5M2 back");
}

/* MXFP6 E2M3 (emax 2, largest 7.5). amax 7: k = 0 (0x7F); 7 (1.75·2^2:
 * field 3, mantissa 110: 0x1E), 0.0625 half the smallest subnormal 0.125,
 * a tie to even 0, 0.1875 = 1.5 · 0.125 a tie to even 0.25 (0x02), -5.25 =
 * 1.3125·2^2, the tie between 5 and 5.5 to even 5 (sign 0x20, field 3,
 * mantissa 010: 0x3A). */
static void mxfp6_e2m3_block_by_hand(void** state) {
  (void)state;
  float src[32] = {7.0f, 0.0625f, 0.1875f, -5.25f};
  const unsigned char values[32] = {0x1E, 0x00, 0x02, 0x3A}, scale[1] = {0x7F};
  expect_quantized(ST_BLOCK_MXFP6_E2M3, ST_SCALE_FLOOR, 0, src, 32, values, 32, scale, 1, "E2M3");
  const float back[32] = {7.0f, 0.0f, 0.25f, -5.0f};
  expect_dequantized(ST_BLOCK_MXFP6_E2M3, 0, values, 32, scale, 1, back, 32, "E2M3 back");
}

/* MXFP6 E3M2 (emax 4, largest 28). amax 40: floor(log2) = 5, k = 1 (0x80):
 * 40 / 2 = 20 (1.25·2^4: field 7, mantissa 01: 0x1D); 0.25 / 2 = 0.125,
 * below the smallest normal 2^-2: the subnormal 2 · 2^-4 (0x02). RCEIL:
 * 40 <= 28 · 2^k first at k = 1, the same. */
static void mxfp6_e3m2_block_by_hand(void** state) {
  (void)state;
  float src[32] = {40.0f, 0.25f};
  const unsigned char values[32] = {0x1D, 0x02}, scale[1] = {0x80};
  expect_quantized(ST_BLOCK_MXFP6_E3M2, ST_SCALE_FLOOR, 0, src, 32, values, 32, scale, 1, "E3M2");
  expect_quantized(ST_BLOCK_MXFP6_E3M2, ST_SCALE_RCEIL, 0, src, 32, values, 32, scale, 1, "E3M2 rceil");
}

/* MXFP4 E2M1 (codes 0, 0.5, 1, 1.5, 2, 3, 4, 6 for 0 to 7). amax 7: k = 0.
 * 1 (2), 2 (4), 3 (5), 4 (6), 5 the tie between 4 and 6 to even 4 (6), 6
 * (7), -7 saturates to -6 (0xF), 0.25 the tie between 0 and 0.5 to 0.
 * Pairs in bytes, the first in the low nibble. RCEIL: 7 <= 6 · 2^k at k =
 * 1 (0x80): 0.5 (1), 1 (2), 1.5 (3), 2 (4), 2.5 the tie to even 2 (4), 3
 * (5), -3.5 the tie to even -4 (0xE), 0.125 (0). */
static void mxfp4_block_by_hand(void** state) {
  (void)state;
  float src[32] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, -7.0f, 0.25f};
  const unsigned char values[16] = {0x42, 0x65, 0x76, 0x0F}, scale[1] = {0x7F};
  expect_quantized(ST_BLOCK_MXFP4_E2M1, ST_SCALE_FLOOR, 0, src, 32, values, 16, scale, 1, "E2M1");
  const unsigned char rvalues[16] = {0x21, 0x43, 0x54, 0x0E}, rscale[1] = {0x80};
  expect_quantized(ST_BLOCK_MXFP4_E2M1, ST_SCALE_RCEIL, 0, src, 32, rvalues, 16, rscale, 1, "E2M1 rceil");
  const float back[32] = {1.0f, 2.0f, 3.0f, 4.0f, 4.0f, 6.0f, -6.0f, 0.0f};
  expect_dequantized(ST_BLOCK_MXFP4_E2M1, 0, values, 16, scale, 1, back, 32, "E2M1 back");
}

/* MXINT8: code · 2^-6. amax 1.9921875 (255/128): k = 0; codes x · 64: 64,
 * -32, 0.3f · 64 = 19.20000076 -> 19, -1.9921875 · 64 = -127.5, the tie
 * between -127 and -128 to even -128, saturated to -127 (0x81). */
static void mxint8_block_by_hand(void** state) {
  (void)state;
  float src[32] = {1.0f, -0.5f, 0.3f, -1.9921875f};
  const unsigned char values[32] = {0x40, 0xE0, 0x13, 0x81}, scale[1] = {0x7F};
  expect_quantized(ST_BLOCK_MXINT8, ST_SCALE_FLOOR, 0, src, 32, values, 32, scale, 1, "INT8");
  const float back[32] = {1.0f, -0.5f, 0.296875f, -1.984375f};
  expect_dequantized(ST_BLOCK_MXINT8, 0, values, 32, scale, 1, back, 32, "INT8 back");
  /* 0x80 is never written, and reads as -128 · 2^-6 = -2. */
  const unsigned char minus_two[32] = {0x80};
  const float want[32] = {-2.0f};
  expect_dequantized(ST_BLOCK_MXINT8, 0, minus_two, 32, scale, 1, want, 32, "INT8 0x80");
}

/* NVFP4, blocks of 16. g 0 (meaning 1): amax 12, s = 12 / 6 = 2 (e4m3
 * 0x40); x / 2: 3 (5), 6 (7), -1.5 (0xB), 0.05 (0). With g = 0.5: s = 12 /
 * 3 = 4 (0x48) and x / (s g) the same. The second block, amax 1e-3: s =
 * 1e-3 / 6 below half of 2^-9, so 0 (no lower clamp), and every element
 * ±0 with its sign (-0: 0x8). */
static void nvfp4_block_by_hand(void** state) {
  (void)state;
  float src[32] = {6.0f, 12.0f, -3.0f, 0.1f};
  src[16] = 1e-3f;
  src[17] = -1e-3f;
  const unsigned char values[16] = {0x75, 0x0B, 0, 0, 0, 0, 0, 0, 0x80}, scale[2] = {0x40, 0x00};
  expect_quantized(ST_BLOCK_NVFP4, ST_SCALE_FLOOR, 0.0f, src, 32, values, 16, scale, 2, "NVFP4");
  const unsigned char gscale[2] = {0x48, 0x00};
  expect_quantized(ST_BLOCK_NVFP4, ST_SCALE_FLOOR, 0.5f, src, 32, values, 16, gscale, 2, "NVFP4 g 0.5");
  float back[32] = {6.0f, 12.0f, -3.0f, 0.0f};
  back[17] = -0.0f;
  expect_dequantized(ST_BLOCK_NVFP4, 0.0f, values, 16, scale, 2, back, 32, "NVFP4 back");
  expect_dequantized(ST_BLOCK_NVFP4, 0.5f, values, 16, gscale, 2, back, 32, "NVFP4 back, g 0.5");
}

/* NVFP4's scale beyond 448 is 448: amax 6 · 1000 with g 1 gives 1000 ->
 * 448 (0x7E), and 6000 / 448 = 13.4 saturates to 6 (7). */
static void nvfp4_scale_saturates_at_448(void** state) {
  (void)state;
  float src[16] = {6000.0f, 448.0f};
  const unsigned char values[8] = {0x27}, scale[1] = {0x7E};
  expect_quantized(ST_BLOCK_NVFP4, ST_SCALE_FLOOR, 0.0f, src, 16, values, 8, scale, 1, "NVFP4 448");
}

/* NaN and infinity. MX: a NaN or ±inf poisons the block: scale 0xFF,
 * elements 0x7F (E4M3). NVFP4: a NaN gives scale 0x7F and elements 7; ±inf
 * without NaN gives scale 448, ±6 for the infinities and x / 448 for the
 * rest (3 / 448 rounds to 0). Dequantizing a NaN scale makes the whole
 * block NaN. */
static void nan_and_infinity(void** state) {
  (void)state;
  float src[32] = {1.0f, NAN, 2.0f};
  unsigned char poisoned[32];
  memset(poisoned, 0x7F, sizeof poisoned);
  const unsigned char nan_scale[1] = {0xFF};
  expect_quantized(ST_BLOCK_MXFP8_E4M3, ST_SCALE_FLOOR, 0, src, 32, poisoned, 32, nan_scale, 1, "MX NaN");
  src[1] = -INFINITY;
  expect_quantized(ST_BLOCK_MXFP8_E4M3, ST_SCALE_RCEIL, 0, src, 32, poisoned, 32, nan_scale, 1, "MX -inf");
  unsigned char int8_poisoned[32];
  memset(int8_poisoned, 0x7F, sizeof int8_poisoned);
  expect_quantized(ST_BLOCK_MXINT8, ST_SCALE_FLOOR, 0, src, 32, int8_poisoned, 32, nan_scale, 1, "INT8 -inf");
  unsigned char fp6_poisoned[32];
  memset(fp6_poisoned, 0x1F, sizeof fp6_poisoned);
  expect_quantized(ST_BLOCK_MXFP6_E3M2, ST_SCALE_FLOOR, 0, src, 32, fp6_poisoned, 32, nan_scale, 1, "FP6 -inf");

  float nv[16] = {1.0f, NAN, -INFINITY};
  unsigned char nv_poisoned[8];
  memset(nv_poisoned, 0x77, sizeof nv_poisoned);
  const unsigned char nv_nan_scale[1] = {0x7F};
  expect_quantized(ST_BLOCK_NVFP4, ST_SCALE_FLOOR, 0.0f, nv, 16, nv_poisoned, 8, nv_nan_scale, 1, "NVFP4 NaN");
  float inf_block[16] = {INFINITY, 3.0f, -INFINITY, -2000.0f};
  /* 2000 / 448 = 4.46: between 4 and 6, nearer 4 (code 6, negative 0xE). */
  const unsigned char inf_values[8] = {0x07, 0xEF}, inf_scale[1] = {0x7E};
  expect_quantized(ST_BLOCK_NVFP4, ST_SCALE_FLOOR, 0.0f, inf_block, 16, inf_values, 8, inf_scale, 1, "NVFP4 inf");

  const unsigned char values[32] = {0x38, 0x00, 0x80};
  float all_nan[32];
  for (int i = 0; i < 32; ++i) all_nan[i] = NAN;
  expect_dequantized(ST_BLOCK_MXFP8_E4M3, 0, values, 32, nan_scale, 1, all_nan, 32, "NaN scale");
  /* Element NaN and infinity codes of E5M2 dequantize to NaN and ±inf. */
  const unsigned char e5m2[32] = {0x7C, 0xFC, 0x7E}, one[1] = {0x7F};
  float want[32] = {INFINITY, -INFINITY, NAN};
  expect_dequantized(ST_BLOCK_MXFP8_E5M2, 0, e5m2, 32, one, 1, want, 32, "E5M2 codes");
}

/* An all-zero block has the smallest scale, 0x00 (k clamped at -127), and
 * ±0 elements; a block whose k would pass 127 (float64 1e300: floor(log2) =
 * 996) is a NaN block. */
static void zero_blocks_and_huge_blocks(void** state) {
  (void)state;
  float zeros[32] = {0.0f, -0.0f};
  const unsigned char values[32] = {0x00, 0x80}, scale[1] = {0x00};
  expect_quantized(ST_BLOCK_MXFP8_E4M3, ST_SCALE_FLOOR, 0, zeros, 32, values, 32, scale, 1, "zero block");
  const float back[32] = {0.0f, -0.0f};
  expect_dequantized(ST_BLOCK_MXFP8_E4M3, 0, values, 32, scale, 1, back, 32, "zero block back");

  double big[32] = {1e300, 1.0};
  unsigned char v[32], s[1];
  st_tensor x = wrap(big, ST_FLOAT64, 1, DIMS(32), NULL);
  st_tensor vt = wrap(v, ST_FLOAT8_E4M3FN, 1, DIMS(32), NULL);
  st_tensor stt = wrap(s, ST_FLOAT8_E8M0FNU, 1, DIMS(1), NULL);
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP8_E4M3, 0, ST_SCALE_RCEIL, 0);
  EXPECT_OK(st_quantize_blocks(vt, stt, x, &spec));
  assert_int_equal(s[0], 0xFF);
  expect_all(v, 0x7F, 32, "k above 127");
  st_tensor_release(x);
  st_tensor_release(vt);
  st_tensor_release(stt);
}

/* Source dtypes: float16, bfloat16 and float64 blocks of the same values as
 * a float32 block give its bits; dequantizing into them gives the values. */
static void every_source_dtype(void** state) {
  (void)state;
  /* 1.5, -0.25, 3: exact in every source dtype. amax 3: k = 1 - 8 = -7
   * (0x78): 192 = 1.5·2^7 (0x74), -32 = -2^5 (0xE0), 384 (0x7C). */
  const uint16_t f16[32] = {0x3E00, 0xB400, 0x4200};
  const uint16_t bf16[32] = {0x3FC0, 0xBE80, 0x4040};
  const double f64[32] = {1.5, -0.25, 3.0};
  const void* sources[3] = {f16, bf16, f64};
  const st_dtype dtypes[3] = {ST_FLOAT16, ST_BFLOAT16, ST_FLOAT64};
  const unsigned char want_values[32] = {0x74, 0xE0, 0x7C}, want_scale[1] = {0x78};
  for (int k = 0; k < 3; ++k) {
    unsigned char v[32], s[1];
    memset(v, SENTINEL, sizeof v);
    s[0] = SENTINEL;
    st_tensor x = wrap((void*)sources[k], dtypes[k], 1, DIMS(32), NULL);
    st_tensor vt = wrap(v, ST_FLOAT8_E4M3FN, 1, DIMS(32), NULL);
    st_tensor stt = wrap(s, ST_FLOAT8_E8M0FNU, 1, DIMS(1), NULL);
    const st_block_spec spec = spec_of(ST_BLOCK_MXFP8_E4M3, 0, ST_SCALE_FLOOR, 0);
    EXPECT_OK(st_quantize_blocks(vt, stt, x, &spec));
    expect_bytes(v, want_values, 32, st_dtype_name(dtypes[k]));
    expect_bytes(s, want_scale, 1, st_dtype_name(dtypes[k]));
    unsigned char back[32 * 8];
    st_tensor d = wrap(back, dtypes[k], 1, DIMS(32), NULL);
    EXPECT_OK(st_dequantize_blocks(d, vt, stt, &spec));
    expect_bytes(back, (const unsigned char*)sources[k], 32 * st_dtype_itemsize(dtypes[k]), "round trip");
    st_tensor_release(x);
    st_tensor_release(vt);
    st_tensor_release(stt);
    st_tensor_release(d);
  }
}

/* ---- Layouts ---------------------------------------------------------------- */

/* A partial final block uses the elements present: 40 elements are a block
 * of 32 and one of 8, whose amax is its own. */
static void partial_final_block(void** state) {
  (void)state;
  float src[40];
  for (int i = 0; i < 40; ++i) src[i] = i < 32 ? 1.0f : 0.5f;
  unsigned char values[40], scales[2];
  st_tensor x = wrap(src, ST_FLOAT32, 1, DIMS(40), NULL);
  st_tensor v = wrap(values, ST_FLOAT8_E4M3FN, 1, DIMS(40), NULL);
  st_tensor s = wrap(scales, ST_FLOAT8_E8M0FNU, 1, DIMS(2), NULL);
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP8_E4M3, 0, ST_SCALE_FLOOR, 0);
  EXPECT_OK(st_quantize_blocks(v, s, x, &spec));
  /* Block 0: amax 1, k = -8 (0x77), 1 · 2^8 = 256 (0x78); block 1: amax
   * 0.5, k = -9 (0x76), 0.5 · 2^9 = 256 (0x78). */
  assert_int_equal(scales[0], 0x77);
  assert_int_equal(scales[1], 0x76);
  expect_all(values, 0x78, 40, "values");
  st_tensor_release(x);
  st_tensor_release(v);
  st_tensor_release(s);
}

/* One quantize of a (rows, n) float32 source along `dim`, the same data
 * laid out in every way below, must give the same bytes as the plain
 * row-major one, read through each layout's own strides. */
typedef struct layout_case {
  const char* name;
  int32_t dim;        /* along which the blocks run, as passed */
  int transposed;     /* src, values and scales are views with the two dims swapped */
  int flipped;        /* dim 0 of each view walks backwards */
  int64_t gap;        /* extra elements between rows */
} layout_case;

static void layouts_give_the_plain_bytes(void** state) {
  (void)state;
  enum { ROWS = 5, N = 70, NV = 35, NB = 3 };
  const layout_case cases[] = {
      {"row-major", -1, 0, 0, 0},         {"padded rows", 1, 0, 0, 9}, {"flipped rows", -1, 0, 1, 3},
      {"transposed", 0, 1, 0, 0},         {"transposed, padded", -2, 1, 0, 5},
  };
  float src[ROWS * N];
  uint64_t rng = test_seed("layouts_give_the_plain_bytes", 42);
  for (int i = 0; i < ROWS * N; ++i) src[i] = (float)((int64_t)(rng_next(&rng) % 2001) - 1000) / 64.0f;
  for (int f = 0; f < 2; ++f) {
    const st_block_format format = f == 0 ? ST_BLOCK_MXFP4_E2M1 : ST_BLOCK_NVFP4;
    const int64_t nb = f == 0 ? NB : 5;
    /* The plain result. */
    unsigned char want_v[ROWS * NV], want_s[ROWS * 5];
    st_tensor x = wrap(src, ST_FLOAT32, 2, DIMS(ROWS, N), NULL);
    st_tensor v = wrap(want_v, ST_FLOAT4_E2M1FN_X2, 2, DIMS(ROWS, NV), NULL);
    st_tensor s = wrap(want_s, f == 0 ? ST_FLOAT8_E8M0FNU : ST_FLOAT8_E4M3FN, 2, DIMS(ROWS, nb), NULL);
    const st_block_spec plain = spec_of(format, 1, ST_SCALE_FLOOR, 0);
    EXPECT_OK(st_quantize_blocks(v, s, x, &plain));
    st_tensor_release(x);
    st_tensor_release(v);
    st_tensor_release(s);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
      const layout_case* lc = &cases[c];
      /* Each operand in a buffer of its own, row r of the plain layout at
       * (flipped ? ROWS - 1 - r : r) · (width + gap), or its transpose. */
      const int64_t widths[3] = {N, NV, nb};
      const size_t items[3] = {4, 1, 1};
      unsigned char* bufs[3];
      st_tensor views[3];
      for (int k = 0; k < 3; ++k) {
        const int64_t w = widths[k], pitch = w + lc->gap;
        bufs[k] = malloc((size_t)(ROWS * pitch) * items[k]);
        assert_non_null(bufs[k]);
        memset(bufs[k], SENTINEL, (size_t)(ROWS * pitch) * items[k]);
        const st_dtype dt = k == 0   ? ST_FLOAT32
                            : k == 1 ? ST_FLOAT4_E2M1FN_X2
                                     : scales_dtype(format);
        if (k == 0) {
          for (int r = 0; r < ROWS; ++r) {
            const int64_t row = lc->flipped ? ROWS - 1 - r : r;
            memcpy(bufs[0] + (size_t)(row * pitch) * 4, src + r * N, N * 4);
          }
        }
        st_tensor whole = wrap(bufs[k], dt, 1, DIMS(ROWS * pitch), NULL), view;
        const int64_t offset = lc->flipped ? (ROWS - 1) * pitch : 0;
        const int64_t row_stride = lc->flipped ? -pitch : pitch;
        EXPECT_OK(st_as_strided(whole, DIMS(ROWS, w), DIMS(row_stride, 1), 2, offset, &view));
        st_tensor_release(whole);
        if (lc->transposed) {
          st_tensor t;
          EXPECT_OK(st_transpose(view, 0, 1, &t));
          st_tensor_release(view);
          view = t;
        }
        views[k] = view;
      }
      const st_block_spec spec = spec_of(format, lc->dim, ST_SCALE_FLOOR, 0);
      EXPECT_OK(st_quantize_blocks(views[1], views[2], views[0], &spec));
      for (int k = 1; k < 3; ++k) {
        const int64_t w = widths[k], pitch = w + lc->gap;
        for (int r = 0; r < ROWS; ++r) {
          const int64_t row = lc->flipped ? ROWS - 1 - r : r;
          const unsigned char* want = (k == 1 ? want_v + r * NV : want_s + r * nb);
          expect_bytes(bufs[k] + row * pitch, want, (size_t)w, lc->name);
          expect_all(bufs[k] + row * pitch + w, SENTINEL, (size_t)lc->gap, "the gap");
        }
      }
      /* Dequantizing through the views gives what dequantizing the plain layout gives. */
      float back[ROWS * N], plain_back[ROWS * N];
      st_tensor pb = wrap(plain_back, ST_FLOAT32, 2, DIMS(ROWS, N), NULL);
      st_tensor pv = wrap(want_v, ST_FLOAT4_E2M1FN_X2, 2, DIMS(ROWS, NV), NULL);
      st_tensor ps = wrap(want_s, f == 0 ? ST_FLOAT8_E8M0FNU : ST_FLOAT8_E4M3FN, 2, DIMS(ROWS, nb), NULL);
      EXPECT_OK(st_dequantize_blocks(pb, pv, ps, &plain));
      st_tensor b = wrap(back, ST_FLOAT32, 2, DIMS(ROWS, N), NULL), bview = b;
      if (lc->transposed) EXPECT_OK(st_transpose(b, 0, 1, &bview));
      EXPECT_OK(st_dequantize_blocks(bview, views[1], views[2], &spec));
      expect_f32(back, plain_back, ROWS * N, lc->name);
      if (lc->transposed) st_tensor_release(bview);
      st_tensor_release(b);
      st_tensor_release(pb);
      st_tensor_release(pv);
      st_tensor_release(ps);
      for (int k = 0; k < 3; ++k) {
        st_tensor_release(views[k]);
        free(bufs[k]);
      }
    }
  }
}

/* Blocks along an outer dim: a (64, 3) source along dim 0 has 2 blocks in
 * each of its 3 columns, each block's scale from its own column. */
static void blocks_along_an_outer_dim(void** state) {
  (void)state;
  float src[64 * 3];
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 3; ++c) src[r * 3 + c] = (float)(c + 1) * (r < 32 ? 1.0f : 4.0f);
  unsigned char values[64 * 3], scales[2 * 3];
  st_tensor x = wrap(src, ST_FLOAT32, 2, DIMS(64, 3), NULL);
  st_tensor v = wrap(values, ST_FLOAT8_E4M3FN, 2, DIMS(64, 3), NULL);
  st_tensor s = wrap(scales, ST_FLOAT8_E8M0FNU, 2, DIMS(2, 3), NULL);
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP8_E4M3, 0, ST_SCALE_FLOOR, 0);
  EXPECT_OK(st_quantize_blocks(v, s, x, &spec));
  /* Column c's amax is c + 1 in block 0 and 4(c + 1) in block 1: floor(log2)
   * 0, 1, 1 and 2, 3, 3; scales 127 + that - 8. */
  const unsigned char want_scales[6] = {0x77, 0x78, 0x78, 0x79, 0x7A, 0x7A};
  expect_bytes(scales, want_scales, 6, "scales");
  float back[64 * 3];
  st_tensor d = wrap(back, ST_FLOAT32, 2, DIMS(64, 3), NULL);
  EXPECT_OK(st_dequantize_blocks(d, v, s, &spec));
  expect_f32(back, src, 64 * 3, "round trip");  /* 1..12 are exact in E4M3 */
  st_tensor_release(x);
  st_tensor_release(v);
  st_tensor_release(s);
  st_tensor_release(d);
}

/* Empty tensors are a no-op, whatever the spec's dim, once the shapes fit. */
static void empty_tensors_write_nothing(void** state) {
  (void)state;
  unsigned char byte = SENTINEL;
  float f = 0;
  st_tensor x = wrap(&f, ST_FLOAT32, 2, DIMS(0, 64), NULL);
  st_tensor v = wrap(&byte, ST_FLOAT4_E2M1FN_X2, 2, DIMS(0, 32), NULL);
  st_tensor s = wrap(&byte, ST_FLOAT8_E8M0FNU, 2, DIMS(0, 2), NULL);
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP4_E2M1, 1, ST_SCALE_FLOOR, 0);
  EXPECT_OK(st_quantize_blocks(v, s, x, &spec));
  EXPECT_OK(st_dequantize_blocks(x, v, s, &spec));
  assert_int_equal(byte, SENTINEL);
  st_tensor_release(x);
  st_tensor_release(v);
  st_tensor_release(s);
  /* Along an empty dim: no blocks, so scales of size 0 too. */
  st_tensor x2 = wrap(&f, ST_FLOAT32, 2, DIMS(3, 0), NULL);
  st_tensor v2 = wrap(&byte, ST_INT8, 2, DIMS(3, 0), NULL);
  st_tensor s2 = wrap(&byte, ST_FLOAT8_E8M0FNU, 2, DIMS(3, 0), NULL);
  const st_block_spec int8 = spec_of(ST_BLOCK_MXINT8, -1, ST_SCALE_RCEIL, 0);
  EXPECT_OK(st_quantize_blocks(v2, s2, x2, &int8));
  assert_int_equal(byte, SENTINEL);
  st_tensor_release(x2);
  st_tensor_release(v2);
  st_tensor_release(s2);
}

/* cuBLAS's "128x4" scale layout, reached through a view (include/stride.h):
 * M = 128, K = 256, MXFP8 (B = 32): scales (128, 8), Kp = 8; viewed as (1,
 * 4, 32, 2, 4) with strides (1024, 4, 16, 512, 1), scale (r, c) lands at
 * byte (c / 4) · 512 + (r % 32) · 16 + (r / 32) · 4 + c % 4. */
static void swizzled_scales_through_a_view(void** state) {
  (void)state;
  enum { M = 128, K = 256, KB = 8 };
  float* src = malloc(sizeof(float) * M * K);
  unsigned char* values = malloc(M * K);
  unsigned char* plain_values = malloc(M * K);
  unsigned char plain[M * KB], swizzled[M * KB];
  assert_non_null(src);
  assert_non_null(values);
  assert_non_null(plain_values);
  uint64_t rng = test_seed("swizzled_scales_through_a_view", 7);
  for (int i = 0; i < M * K; ++i)
    src[i] = ldexpf((float)(rng_next(&rng) % 1000) + 1.0f, (int)(rng_next(&rng) % 40) - 20);
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP8_E4M3, -1, ST_SCALE_RCEIL, 0);
  st_tensor x = wrap(src, ST_FLOAT32, 2, DIMS(M, K), NULL);
  st_tensor pv = wrap(plain_values, ST_FLOAT8_E4M3FN, 2, DIMS(M, K), NULL);
  st_tensor ps = wrap(plain, ST_FLOAT8_E8M0FNU, 2, DIMS(M, KB), NULL);
  EXPECT_OK(st_quantize_blocks(pv, ps, x, &spec));
  /* The same through the five-dim views. */
  st_tensor x5, v5, d, s5;
  EXPECT_OK(st_view(x, DIMS(1, 4, 32, 2, 128), 5, &x5));
  st_tensor vt = wrap(values, ST_FLOAT8_E4M3FN, 2, DIMS(M, K), NULL);
  EXPECT_OK(st_view(vt, DIMS(1, 4, 32, 2, 128), 5, &v5));
  d = wrap(swizzled, ST_FLOAT8_E8M0FNU, 1, DIMS(M * KB), NULL);
  EXPECT_OK(st_as_strided(d, DIMS(1, 4, 32, 2, 4), DIMS(128 * KB, 4, 16, 512, 1), 5, 0, &s5));
  EXPECT_OK(st_quantize_blocks(v5, s5, x5, &spec));
  expect_bytes(values, plain_values, M * K, "values");
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < KB; ++c) {
      const int at = (c / 4) * 512 + (r % 32) * 16 + (r / 32 % 4) * 4 + c % 4;
      if (swizzled[at] != plain[r * KB + c]) {
        print_error("scale (%d, %d) at byte %d is 0x%02x, expected 0x%02x\n", r, c, at, swizzled[at],
                    plain[r * KB + c]);
        fail();
      }
    }
  st_tensor all[] = {x, pv, ps, x5, vt, v5, d, s5};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) st_tensor_release(all[i]);
  free(src);
  free(values);
  free(plain_values);
}

/* ---- Threads ---------------------------------------------------------------- */

typedef struct chunk_count {
  atomic_int chunks;
} chunk_count;

/* A job system that runs the chunks one after another on this thread and
 * counts them: the library cut the work into that many parts for threads. */
static void counting_parallel_for(void* ctx, int64_t n, int64_t grain, st_parallel_task task, void* task_ctx) {
  chunk_count* c = (chunk_count*)ctx;
  const int64_t step = grain > 0 ? grain : 1;
  for (int64_t begin = 0; begin < n; begin += step) {
    atomic_fetch_add(&c->chunks, 1);
    task(task_ctx, begin, begin + step < n ? begin + step : n);
  }
}

/* A (4096, 4096) float32 quantize along the last dim is cut for several
 * threads; the result is the one a single thread gives. */
static void large_quantize_is_split_between_threads(void** state) {
  (void)state;
  enum { M = 4096, K = 4096 };
  float* src = malloc(sizeof(float) * (size_t)M * K);
  unsigned char* values = malloc((size_t)M * K / 2);
  unsigned char* values1 = malloc((size_t)M * K / 2);
  unsigned char* scales = malloc((size_t)M * K / 32);
  unsigned char* scales1 = malloc((size_t)M * K / 32);
  assert_true(src && values && values1 && scales && scales1);
  for (size_t i = 0; i < (size_t)M * K; ++i) src[i] = (float)((int)(i * 2654435761u % 2001) - 1000) * 0.01f;
  st_tensor x = wrap(src, ST_FLOAT32, 2, DIMS(M, K), NULL);
  st_tensor v = wrap(values, ST_FLOAT4_E2M1FN_X2, 2, DIMS(M, K / 2), NULL);
  st_tensor s = wrap(scales, ST_FLOAT8_E8M0FNU, 2, DIMS(M, K / 32), NULL);
  st_tensor v1 = wrap(values1, ST_FLOAT4_E2M1FN_X2, 2, DIMS(M, K / 2), NULL);
  st_tensor s1 = wrap(scales1, ST_FLOAT8_E8M0FNU, 2, DIMS(M, K / 32), NULL);
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP4_E2M1, -1, ST_SCALE_FLOOR, 0);
  EXPECT_OK(st_set_num_threads(4));
  chunk_count c;
  atomic_init(&c.chunks, 0);
  EXPECT_OK(st_set_parallel_for(counting_parallel_for, &c));
  EXPECT_OK(st_quantize_blocks(v, s, x, &spec));
  EXPECT_OK(st_set_parallel_for(NULL, NULL));
  print_message("a (4096, 4096) quantize ran in %d chunks\n", atomic_load(&c.chunks));
  assert_true(atomic_load(&c.chunks) > 1);
  EXPECT_OK(st_set_num_threads(1));
  EXPECT_OK(st_quantize_blocks(v1, s1, x, &spec));
  EXPECT_OK(st_set_num_threads(2));
  assert_memory_equal(values, values1, (size_t)M * K / 2);
  assert_memory_equal(scales, scales1, (size_t)M * K / 32);
  st_tensor all[] = {x, v, s, v1, s1};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) st_tensor_release(all[i]);
  free(src);
  free(values);
  free(values1);
  free(scales);
  free(scales1);
}

/* Lines over two outer dims (a permuted (40, 33, 520) source, blocks along
 * its last dim) cut by a job system into chunks that start and end inside
 * lines: the same bytes as one thread writes. */
static void chunks_that_cut_lines_over_two_outer_dims(void** state) {
  (void)state;
  enum { A = 40, B = 33, N = 520 };
  float* src = malloc(sizeof(float) * A * B * N);
  unsigned char* v = malloc((size_t)A * B * N), *v1 = malloc((size_t)A * B * N);
  unsigned char s[A * B * 17], s1[A * B * 17];
  assert_true(src && v && v1);
  for (size_t i = 0; i < (size_t)A * B * N; ++i) src[i] = (float)((int)(i * 2246822519u % 4001) - 2000) * 0.125f;
  /* Stored (B, A, N), viewed (A, B, N): the outer dims are not one run. */
  st_tensor base = wrap(src, ST_FLOAT32, 3, DIMS(B, A, N), NULL), x;
  EXPECT_OK(st_transpose(base, 0, 1, &x));
  st_tensor vt = wrap(v, ST_FLOAT8_E5M2, 3, DIMS(A, B, N), NULL);
  st_tensor st_ = wrap(s, ST_FLOAT8_E8M0FNU, 3, DIMS(A, B, 17), NULL);
  st_tensor vt1 = wrap(v1, ST_FLOAT8_E5M2, 3, DIMS(A, B, N), NULL);
  st_tensor st1 = wrap(s1, ST_FLOAT8_E8M0FNU, 3, DIMS(A, B, 17), NULL);
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP8_E5M2, 2, ST_SCALE_RCEIL, 0);
  EXPECT_OK(st_set_num_threads(3));
  chunk_count c;
  atomic_init(&c.chunks, 0);
  EXPECT_OK(st_set_parallel_for(counting_parallel_for, &c));
  EXPECT_OK(st_quantize_blocks(vt, st_, x, &spec));
  EXPECT_OK(st_set_parallel_for(NULL, NULL));
  print_message("%d chunks\n", atomic_load(&c.chunks));
  assert_true(atomic_load(&c.chunks) > 1);
  EXPECT_OK(st_set_num_threads(1));
  EXPECT_OK(st_quantize_blocks(vt1, st1, x, &spec));
  EXPECT_OK(st_set_num_threads(2));
  assert_memory_equal(v, v1, (size_t)A * B * N);
  assert_memory_equal(s, s1, sizeof s);
  const st_tensor all[] = {base, x, vt, st_, vt1, st1};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) st_tensor_release(all[i]);
  free(src);
  free(v);
  free(v1);
}

/* ---- Errors: each status, and nothing written ------------------------------- */

/* A quantize of (2, 64) float32 by MXFP4 along dim 1 whose outputs hold the
 * sentinel, for the error tests to spoil one argument at a time. */
typedef struct fixture {
  float src[2 * 64];
  unsigned char values[2 * 32];
  unsigned char scales[2 * 2];
  float dst[2 * 64];
  st_tensor x, v, s, d;
} fixture;

static fixture* fixture_new(void) {
  fixture* f = calloc(1, sizeof(fixture));
  assert_non_null(f);
  for (int i = 0; i < 128; ++i) f->src[i] = (float)i;
  memset(f->values, SENTINEL, sizeof f->values);
  memset(f->scales, SENTINEL, sizeof f->scales);
  memset(f->dst, SENTINEL, sizeof f->dst);
  f->x = wrap(f->src, ST_FLOAT32, 2, DIMS(2, 64), NULL);
  f->v = wrap(f->values, ST_FLOAT4_E2M1FN_X2, 2, DIMS(2, 32), NULL);
  f->s = wrap(f->scales, ST_FLOAT8_E8M0FNU, 2, DIMS(2, 2), NULL);
  f->d = wrap(f->dst, ST_FLOAT32, 2, DIMS(2, 64), NULL);
  return f;
}

static void fixture_expect_untouched(const fixture* f) {
  expect_all(f->values, SENTINEL, sizeof f->values, "values");
  expect_all(f->scales, SENTINEL, sizeof f->scales, "scales");
  expect_all((const unsigned char*)f->dst, SENTINEL, sizeof f->dst, "dst");
  for (int i = 0; i < 128; ++i) assert_true(f->src[i] == (float)i);
}

static void fixture_free(fixture* f) {
  st_tensor_release(f->x);
  st_tensor_release(f->v);
  st_tensor_release(f->s);
  st_tensor_release(f->d);
  free(f);
}

/* Expects `status` from both calls on the fixture with `spec`, nothing written. */
static void expect_both_fail(st_status status, const st_block_spec* spec) {
  fixture* f = fixture_new();
  EXPECT_STATUS(status, st_quantize_blocks(f->v, f->s, f->x, spec));
  EXPECT_STATUS(status, st_dequantize_blocks(f->d, f->v, f->s, spec));
  fixture_expect_untouched(f);
  fixture_free(f);
}

static void fixture_works(void** state) {
  (void)state;
  fixture* f = fixture_new();
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP4_E2M1, 1, ST_SCALE_FLOOR, 0);
  EXPECT_OK(st_quantize_blocks(f->v, f->s, f->x, &spec));
  EXPECT_OK(st_dequantize_blocks(f->d, f->v, f->s, &spec));
  fixture_free(f);
}

static void spec_errors_are_invalid_argument(void** state) {
  (void)state;
  expect_both_fail(ST_ERROR_INVALID_ARGUMENT, NULL);
  expect_message_contains("spec is NULL");
  st_block_spec s = spec_of(ST_BLOCK_MXFP4_E2M1, 1, ST_SCALE_FLOOR, 0);
  s.struct_size = 23;
  expect_both_fail(ST_ERROR_INVALID_ARGUMENT, &s);
  expect_message_contains("struct_size");
  s.struct_size = 0;
  expect_both_fail(ST_ERROR_INVALID_ARGUMENT, &s);
  s = spec_of((st_block_format)7, 1, ST_SCALE_FLOOR, 0);
  expect_both_fail(ST_ERROR_INVALID_ARGUMENT, &s);
  expect_message_contains("format");
  s = spec_of((st_block_format)-1, 1, ST_SCALE_FLOOR, 0);
  expect_both_fail(ST_ERROR_INVALID_ARGUMENT, &s);
  s = spec_of(ST_BLOCK_MXFP4_E2M1, 1, (st_scale_rule)2, 0);
  expect_both_fail(ST_ERROR_INVALID_ARGUMENT, &s);
  expect_message_contains("scale_rule");
  /* NVFP4 checks its rule too, though it has one. */
  s = spec_of(ST_BLOCK_NVFP4, 1, (st_scale_rule)-3, 0);
  expect_both_fail(ST_ERROR_INVALID_ARGUMENT, &s);
  /* dim out of range. */
  s = spec_of(ST_BLOCK_MXFP4_E2M1, 2, ST_SCALE_FLOOR, 0);
  expect_both_fail(ST_ERROR_INVALID_ARGUMENT, &s);
  expect_message_contains("spec->dim");
  s.dim = -3;
  expect_both_fail(ST_ERROR_INVALID_ARGUMENT, &s);
}

/* A larger struct (a newer caller's) is read when its extra bytes are 0,
 * and refused when one is not: a field this library cannot honour. */
static void larger_specs(void** state) {
  (void)state;
  struct {
    st_block_spec known;
    unsigned char newer[40];
  } big;
  memset(&big, 0, sizeof big);
  big.known = spec_of(ST_BLOCK_MXFP4_E2M1, 1, ST_SCALE_FLOOR, 0);
  big.known.struct_size = sizeof big;
  fixture* f = fixture_new();
  EXPECT_OK(st_quantize_blocks(f->v, f->s, f->x, &big.known));
  fixture_free(f);
  big.newer[39] = 1;
  expect_both_fail(ST_ERROR_INVALID_ARGUMENT, &big.known);
  expect_message_contains("byte 63");
  big.newer[39] = 0;
  big.known.struct_size = 4097;
  expect_both_fail(ST_ERROR_INVALID_ARGUMENT, &big.known);
}

static void nvfp4_global_scale(void** state) {
  (void)state;
  /* NVFP4 blocks of 16: the fixture's values fit, its scales (2, 2) do
   * not: the global scale is checked first. */
  const float bad[] = {-1.0f, NAN, INFINITY, -INFINITY, -0x1p-149f};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    const st_block_spec s = spec_of(ST_BLOCK_NVFP4, 1, ST_SCALE_FLOOR, bad[i]);
    expect_both_fail(ST_ERROR_INVALID_ARGUMENT, &s);
    expect_message_contains("global_scale");
  }
  /* -0 counts as 0, meaning 1; MX formats ignore the field. */
  float src[16] = {6.0f};
  const unsigned char want[8] = {0x07}, scale[1] = {0x38};
  expect_quantized(ST_BLOCK_NVFP4, ST_SCALE_FLOOR, -0.0f, src, 16, want, 8, scale, 1, "g -0");
  fixture* f = fixture_new();
  const st_block_spec mx = spec_of(ST_BLOCK_MXFP4_E2M1, 1, ST_SCALE_FLOOR, NAN);
  EXPECT_OK(st_quantize_blocks(f->v, f->s, f->x, &mx));
  fixture_free(f);
}

/* An odd size along the dim for the two-a-byte formats, whatever the
 * values' shape; a 0-d tensor has no dim. */
static void odd_sizes_and_scalars(void** state) {
  (void)state;
  float src[3] = {1, 2, 3};
  unsigned char v[4], s[1];
  memset(v, SENTINEL, sizeof v);
  s[0] = SENTINEL;
  st_tensor x = wrap(src, ST_FLOAT32, 1, DIMS(3), NULL);
  const st_block_format formats[2] = {ST_BLOCK_MXFP4_E2M1, ST_BLOCK_NVFP4};
  for (int k = 0; k < 2; ++k) {
    st_tensor vt = wrap(v, ST_FLOAT4_E2M1FN_X2, 1, DIMS(1), NULL);
    st_tensor vt2 = wrap(v, ST_FLOAT4_E2M1FN_X2, 1, DIMS(2), NULL);
    st_tensor stt = wrap(s, k == 0 ? ST_FLOAT8_E8M0FNU : ST_FLOAT8_E4M3FN, 1, DIMS(1), NULL);
    const st_block_spec spec = spec_of(formats[k], 0, ST_SCALE_FLOOR, 0);
    EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_quantize_blocks(vt, stt, x, &spec));
    expect_message_contains("even");
    EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_quantize_blocks(vt2, stt, x, &spec));
    EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_dequantize_blocks(x, vt, stt, &spec));
    st_tensor_release(vt);
    st_tensor_release(vt2);
    st_tensor_release(stt);
  }
  expect_all(v, SENTINEL, sizeof v, "values");
  assert_int_equal(s[0], SENTINEL);
  st_tensor_release(x);
  float one = 1.0f;
  st_tensor scalar = wrap(&one, ST_FLOAT32, 0, NULL, NULL);
  st_tensor v0 = wrap(v, ST_FLOAT8_E4M3FN, 0, NULL, NULL), s0 = wrap(s, ST_FLOAT8_E8M0FNU, 0, NULL, NULL);
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP8_E4M3, 0, ST_SCALE_FLOOR, 0);
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_quantize_blocks(v0, s0, scalar, &spec));
  expect_message_contains("0-d");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_dequantize_blocks(scalar, v0, s0, &spec));
  assert_int_equal(v[0], SENTINEL);
  st_tensor_release(scalar);
  st_tensor_release(v0);
  st_tensor_release(s0);
}

static void released_handles(void** state) {
  (void)state;
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP4_E2M1, 1, ST_SCALE_FLOOR, 0);
  for (int which = 0; which < 3; ++which) {
    fixture* f = fixture_new();
    st_tensor dead;
    EXPECT_OK(st_tensor_create(DIMS(1), 1, ST_FLOAT32, CPU, &dead));
    EXPECT_OK(st_tensor_release(dead));
    EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_quantize_blocks(which == 0 ? dead : f->v, which == 1 ? dead : f->s,
                                                              which == 2 ? dead : f->x, &spec));
    EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_dequantize_blocks(which == 0 ? dead : f->d, which == 1 ? dead : f->v,
                                                                which == 2 ? dead : f->s, &spec));
    const st_tensor null_handle = {0};
    EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_quantize_blocks(f->v, f->s, null_handle, &spec));
    fixture_expect_untouched(f);
    fixture_free(f);
  }
}

static void wrong_dtypes(void** state) {
  (void)state;
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP4_E2M1, 1, ST_SCALE_FLOOR, 0);
  fixture* f = fixture_new();
  /* The source and the destination: float32, float16, bfloat16, float64 only. */
  int32_t ints[128] = {0};
  st_tensor xi = wrap(ints, ST_INT32, 2, DIMS(2, 64), NULL);
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_quantize_blocks(f->v, f->s, xi, &spec));
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_dequantize_blocks(xi, f->v, f->s, &spec));
  st_tensor_release(xi);
  unsigned char c64[2 * 64 * 8];
  st_tensor xc = wrap(c64, ST_COMPLEX64, 2, DIMS(2, 64), NULL);
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_quantize_blocks(f->v, f->s, xc, &spec));
  st_tensor_release(xc);
  /* Values and scales of another dtype than the format's. */
  st_tensor vu = wrap(f->values, ST_UINT8, 2, DIMS(2, 32), NULL);
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_quantize_blocks(vu, f->s, f->x, &spec));
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_dequantize_blocks(f->d, vu, f->s, &spec));
  st_tensor_release(vu);
  st_tensor se = wrap(f->scales, ST_FLOAT8_E4M3FN, 2, DIMS(2, 2), NULL);
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_quantize_blocks(f->v, se, f->x, &spec));
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_dequantize_blocks(f->d, f->v, se, &spec));
  st_tensor_release(se);
  /* NVFP4's scales are float8_e4m3fn, not e8m0. */
  const st_block_spec nv = spec_of(ST_BLOCK_NVFP4, 1, ST_SCALE_FLOOR, 0);
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_quantize_blocks(f->v, f->s, f->x, &nv));
  fixture_expect_untouched(f);
  fixture_free(f);
}

static void wrong_shapes(void** state) {
  (void)state;
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP4_E2M1, 1, ST_SCALE_FLOOR, 0);
  fixture* f = fixture_new();
  /* Values of src's own size along the dim (not half of it), of another row
   * count, of another rank; scales of the wrong count. */
  st_tensor v64 = wrap(f->values, ST_FLOAT4_E2M1FN_X2, 2, DIMS(1, 64), NULL);
  st_tensor v31 = wrap(f->values, ST_FLOAT4_E2M1FN_X2, 2, DIMS(2, 31), NULL);
  st_tensor v1d = wrap(f->values, ST_FLOAT4_E2M1FN_X2, 1, DIMS(64), NULL);
  st_tensor s3 = wrap(f->scales, ST_FLOAT8_E8M0FNU, 2, DIMS(1, 3), NULL);
  st_tensor s21 = wrap(f->scales, ST_FLOAT8_E8M0FNU, 2, DIMS(2, 1), NULL);
  const st_tensor bad_values[] = {v64, v31, v1d};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_quantize_blocks(bad_values[i], f->s, f->x, &spec));
    EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_dequantize_blocks(f->d, bad_values[i], f->s, &spec));
  }
  expect_message_contains("values has sizes");
  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_quantize_blocks(f->v, s3, f->x, &spec));
  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_quantize_blocks(f->v, s21, f->x, &spec));
  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_dequantize_blocks(f->d, f->v, s21, &spec));
  expect_message_contains("scales has sizes");
  /* MXFP8 keeps the size along the dim; blocks of 32 round up: 33 -> 2. */
  float src33[33] = {0};
  unsigned char v33[33], s2[2];
  memset(v33, SENTINEL, sizeof v33);
  st_tensor x33 = wrap(src33, ST_FLOAT32, 1, DIMS(33), NULL);
  st_tensor vt = wrap(v33, ST_FLOAT8_E4M3FN, 1, DIMS(33), NULL);
  st_tensor s1 = wrap(s2, ST_FLOAT8_E8M0FNU, 1, DIMS(1), NULL);
  const st_block_spec e4 = spec_of(ST_BLOCK_MXFP8_E4M3, 0, ST_SCALE_FLOOR, 0);
  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_quantize_blocks(vt, s1, x33, &e4));
  expect_all(v33, SENTINEL, sizeof v33, "values");
  const st_tensor all[] = {v64, v31, v1d, s3, s21, x33, vt, s1};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) st_tensor_release(all[i]);
  fixture_expect_untouched(f);
  fixture_free(f);
}

static void overlapping_operands(void** state) {
  (void)state;
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP4_E2M1, 1, ST_SCALE_FLOOR, 0);
  fixture* f = fixture_new();
  /* Values that overlap themselves: an expanded row. */
  st_tensor row = wrap(f->values, ST_FLOAT4_E2M1FN_X2, 2, DIMS(1, 32), NULL), expanded;
  EXPECT_OK(st_expand(row, DIMS(2, 32), 2, &expanded));
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_quantize_blocks(expanded, f->s, f->x, &spec));
  st_tensor srow = wrap(f->scales, ST_FLOAT8_E8M0FNU, 2, DIMS(1, 2), NULL), sexp;
  EXPECT_OK(st_expand(srow, DIMS(2, 2), 2, &sexp));
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_quantize_blocks(f->v, sexp, f->x, &spec));
  /* Values and scales in the same bytes. */
  st_tensor s_in_values = wrap(f->values + 8, ST_FLOAT8_E8M0FNU, 2, DIMS(2, 2), NULL);
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_quantize_blocks(f->v, s_in_values, f->x, &spec));
  /* Values written over the source. */
  st_tensor v_in_src = wrap(f->src, ST_FLOAT4_E2M1FN_X2, 2, DIMS(2, 32), NULL);
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_quantize_blocks(v_in_src, f->s, f->x, &spec));
  /* Scales inside the source's span, between its rows. */
  float gapped[2 * 80];
  for (int i = 0; i < 160; ++i) gapped[i] = 1.0f;
  st_tensor xg = wrap(gapped, ST_FLOAT32, 2, DIMS(2, 64), DIMS(80, 1));
  st_tensor s_in_gap = wrap(gapped + 64, ST_FLOAT8_E8M0FNU, 2, DIMS(2, 2), NULL);
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_quantize_blocks(f->v, s_in_gap, xg, &spec));
  for (int i = 0; i < 160; ++i) assert_true(gapped[i] == 1.0f);
  /* Dequantize: dst over the values or the scales; dst overlapping itself. */
  st_tensor d_over_v = wrap(f->values, ST_FLOAT32, 2, DIMS(2, 8), NULL);
  const st_block_spec fp8 = spec_of(ST_BLOCK_MXFP8_E4M3, 1, ST_SCALE_FLOOR, 0);
  st_tensor v8 = wrap(f->values + 32, ST_FLOAT8_E4M3FN, 2, DIMS(2, 8), NULL);
  st_tensor s8 = wrap(f->scales, ST_FLOAT8_E8M0FNU, 2, DIMS(2, 1), NULL);
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_dequantize_blocks(d_over_v, v8, s8, &fp8));
  float dbuf[16];
  memset(dbuf, SENTINEL, sizeof dbuf);
  st_tensor d_over_s = wrap(dbuf, ST_FLOAT32, 2, DIMS(2, 8), NULL);
  st_tensor s_in_d = wrap((unsigned char*)dbuf + 4, ST_FLOAT8_E8M0FNU, 2, DIMS(2, 1), NULL);
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_dequantize_blocks(d_over_s, v8, s_in_d, &fp8));
  expect_all((const unsigned char*)dbuf, SENTINEL, sizeof dbuf, "dst over the scales");
  st_tensor drow = wrap(f->dst, ST_FLOAT32, 2, DIMS(1, 64), NULL), dexp;
  EXPECT_OK(st_expand(drow, DIMS(2, 64), 2, &dexp));
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_dequantize_blocks(dexp, f->v, f->s, &spec));
  /* Reading values and scales from overlapping memory is allowed. */
  unsigned char shared[16];
  memset(shared, 0x38, sizeof shared);
  float out[16];
  st_tensor sv = wrap(shared, ST_FLOAT8_E4M3FN, 1, DIMS(16), NULL);
  st_tensor ss = wrap(shared, ST_FLOAT8_E8M0FNU, 1, DIMS(1), NULL);
  st_tensor so = wrap(out, ST_FLOAT32, 1, DIMS(16), NULL);
  const st_block_spec one_block = spec_of(ST_BLOCK_MXFP8_E4M3, 0, ST_SCALE_FLOOR, 0);
  EXPECT_OK(st_dequantize_blocks(so, sv, ss, &one_block));
  const st_tensor all[] = {row,      expanded, srow,   sexp, s_in_values, v_in_src, xg, s_in_gap, d_over_v,
                           v8,       s8,       d_over_s, s_in_d, drow,     dexp,     sv, ss,       so};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) st_tensor_release(all[i]);
  fixture_expect_untouched(f);
  fixture_free(f);
}

/* Outputs imported read-only (a versioned DLPack flag) are refused. */
static void read_only_outputs(void** state) {
  (void)state;
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP8_E4M3, 0, ST_SCALE_FLOOR, 0);
  float src[32] = {1.0f};
  st_tensor x = wrap(src, ST_FLOAT32, 1, DIMS(32), NULL);
  unsigned char v[32], s[1];
  memset(v, SENTINEL, sizeof v);
  s[0] = SENTINEL;
  st_tensor vt = wrap(v, ST_FLOAT8_E4M3FN, 1, DIMS(32), NULL), stt = wrap(s, ST_FLOAT8_E8M0FNU, 1, DIMS(1), NULL);
  for (int which = 0; which < 3; ++which) {
    const int64_t n = which == 1 ? 1 : 32;
    producer* p = producer_new(1, DIMS(n), NULL, which == 0 ? ST_DLPACK_CODE_FLOAT8_E4M3FN
                                                : which == 1 ? ST_DLPACK_CODE_FLOAT8_E8M0FNU
                                                             : kDLFloat, which == 2 ? 32 : 8);
    memset(p->buffer, SENTINEL, sizeof p->buffer);
    p->versioned.flags = ST_DLPACK_FLAG_READ_ONLY;
    p->versioned.version.minor = 1;
    st_tensor ro;
    EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &ro));
    if (which < 2) {
      EXPECT_STATUS(ST_ERROR_READ_ONLY, st_quantize_blocks(which == 0 ? ro : vt, which == 1 ? ro : stt, x, &spec));
    } else {
      EXPECT_STATUS(ST_ERROR_READ_ONLY, st_dequantize_blocks(ro, vt, stt, &spec));
    }
    expect_all((const unsigned char*)p->buffer, SENTINEL, sizeof p->buffer, "read-only memory");
    st_tensor_release(ro);
    producer_free(p);
  }
  expect_all(v, SENTINEL, sizeof v, "values");
  assert_int_equal(s[0], SENTINEL);
  st_tensor_release(x);
  st_tensor_release(vt);
  st_tensor_release(stt);
}

/* Pinned host memory counts as the host: on a machine with CUDA, operands
 * on different devices are refused; without it, a CUDA operand cannot be
 * made, and the device statuses are those of st_copy. */
static void devices(void** state) {
  (void)state;
  int32_t count = 0;
  EXPECT_OK(st_cuda_device_count(&count));
  if (count == 0) {
    print_message("devices: no CUDA device here, so no operand on one: operands on different devices not tried\n");
    st_tensor t;
    EXPECT_STATUS(ST_ERROR_DEVICE_UNAVAILABLE,
                  st_tensor_create(DIMS(32), 1, ST_FLOAT8_E4M3FN, (st_device){ST_DEVICE_CUDA, 0}, &t));
    return;
  }
  const st_block_spec spec = spec_of(ST_BLOCK_MXFP8_E4M3, 0, ST_SCALE_FLOOR, 0);
  fixture* f = fixture_new();
  st_tensor x, v, s;
  EXPECT_OK(st_tensor_create(DIMS(64), 1, ST_FLOAT32, (st_device){ST_DEVICE_CUDA, 0}, &x));
  EXPECT_OK(st_tensor_create(DIMS(64), 1, ST_FLOAT8_E4M3FN, CPU, &v));
  EXPECT_OK(st_tensor_create(DIMS(2), 1, ST_FLOAT8_E8M0FNU, (st_device){ST_DEVICE_CUDA, 0}, &s));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_quantize_blocks(v, s, x, &spec));
  expect_message_contains("different devices");
  st_tensor_release(x);
  st_tensor_release(v);
  st_tensor_release(s);
  fixture_free(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(mxfp8_e4m3_block_by_hand),
      cmocka_unit_test(floor_saturates_and_rceil_does_not),
      cmocka_unit_test(amax_one_ulp_below_a_power_of_two),
      cmocka_unit_test(mxfp8_e5m2_block_by_hand),
      cmocka_unit_test(mxfp6_e2m3_block_by_hand),
      cmocka_unit_test(mxfp6_e3m2_block_by_hand),
      cmocka_unit_test(mxfp4_block_by_hand),
      cmocka_unit_test(mxint8_block_by_hand),
      cmocka_unit_test(nvfp4_block_by_hand),
      cmocka_unit_test(nvfp4_scale_saturates_at_448),
      cmocka_unit_test(nan_and_infinity),
      cmocka_unit_test(zero_blocks_and_huge_blocks),
      cmocka_unit_test(every_source_dtype),
      cmocka_unit_test(partial_final_block),
      cmocka_unit_test(layouts_give_the_plain_bytes),
      cmocka_unit_test(blocks_along_an_outer_dim),
      cmocka_unit_test(empty_tensors_write_nothing),
      cmocka_unit_test(swizzled_scales_through_a_view),
      cmocka_unit_test(large_quantize_is_split_between_threads),
      cmocka_unit_test(chunks_that_cut_lines_over_two_outer_dims),
      cmocka_unit_test(fixture_works),
      cmocka_unit_test(spec_errors_are_invalid_argument),
      cmocka_unit_test(larger_specs),
      cmocka_unit_test(nvfp4_global_scale),
      cmocka_unit_test(odd_sizes_and_scalars),
      cmocka_unit_test(released_handles),
      cmocka_unit_test(wrong_dtypes),
      cmocka_unit_test(wrong_shapes),
      cmocka_unit_test(overlapping_operands),
      cmocka_unit_test(read_only_outputs),
      cmocka_unit_test(devices),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
