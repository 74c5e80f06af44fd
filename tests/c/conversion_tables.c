/* The conversion tables (conversion_tables.h): every source value of each
 * dtype and what it must read as in every dtype. The values were worked
 * out from the rules (include/stride.h, conversion rules) with exact
 * rational arithmetic, independently of the library; the notes point at
 * the cases worth a look. The float8_e8m0fnu and float6 columns, and the
 * tables of those sources, were computed by a rule written apart from the
 * library (exact rationals; each narrow format rounded by searching its
 * list of values for the nearest, ties to the even code).
 *
 * Columns: bool, uint8, int8, int16, int32, int64, float16 bits, bfloat16
 * bits, float32, float64, then uint16, uint32, uint64, float8_e4m3fn bits,
 * float8_e5m2 bits, float8_e8m0fnu bits, float6_e2m3fn bits, float6_e3m2fn
 * bits. A real value converts to complex as (the float32 or float64
 * column, +0), so the R() rows fill the complex columns from those;
 * complex sources spell out every column with C(). float4_e2m1fn_x2
 * converts to nothing else: its rows (P()) hold its own byte only. */
#include "conversion_tables.h"

#include <float.h>
#include <math.h>

#define R(b, u8, i8, i16, i32, i64, f16, bf16, f32, f64, u16, u32, u64, e4m3fn, e5m2, e8m0, e2m3, e3m2)          \
  {                                                                                                           \
    (b), (u8), (i8), (i16), (i32), (i64), (f16), (bf16), (f32), (f64), {(f32), 0.0f}, {(f64), 0.0}, (u16), (u32), \
        (u64), (e4m3fn), (e5m2), (e8m0), 0, (e2m3), (e3m2)                                                    \
  }
#define C(b, u8, i8, i16, i32, i64, f16, bf16, f32, f64, c64_re, c64_im, c128_re, c128_im, u16, u32, u64, e4m3fn, e5m2, \
          e8m0, e2m3, e3m2)                                                                                          \
  {                                                                                                                  \
    (b), (u8), (i8), (i16), (i32), (i64), (f16), (bf16), (f32), (f64), {(c64_re), (c64_im)}, {(c128_re), (c128_im)},  \
        (u16), (u32), (u64), (e4m3fn), (e5m2), (e8m0), 0, (e2m3), (e3m2)                                              \
  }
/* A float4_e2m1fn_x2 byte: its own column only. */
#define P(byte) \
  { .f4e2m1fn_x2 = (byte) }

#define ZERO_ROW R(0, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0, 0, 0, 0x00, 0x00, 0x00, 0x00, 0x00)
#define ONE_ROW R(1, 1, 1, 1, 1, 1, 0x3C00, 0x3F80, 1.0f, 1.0, 1, 1, 1, 0x38, 0x3C, 0x7F, 0x08, 0x0C)
/* an integer -1: every unsigned width wraps to its maximum */
#define MINUS_ONE_ROW R(1, 255, -1, -1, -1, -1, 0xBC00, 0xBF80, -1.0f, -1.0, 65535, UINT32_MAX, UINT64_MAX, 0xB8, 0xBC, 0x7F, 0x28, 0x2C)
#define NEGATIVE_ZERO_ROW R(0, 0, 0, 0, 0, 0, 0x8000, 0x8000, -0.0f, -0.0, 0, 0, 0, 0x80, 0x80, 0x00, 0x20, 0x20)
/* float → integer saturates; → bool is "nonzero"; NaN → 0 for integers;
 * float8_e4m3fn has no infinity: ±inf becomes NaN (0x7F, 0xFF) */
#define INF_ROW \
  R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F80, INFINITY, INFINITY, 65535, UINT32_MAX, UINT64_MAX, 0x7F, 0x7C, 0xFF, 0x1F, 0x1F)
#define MINUS_INF_ROW R(1, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xFF80, -INFINITY, -INFINITY, 0, 0, 0, 0xFF, 0xFC, 0xFF, 0x3F, 0x3F)
#define NAN_ROW R(1, 0, 0, 0, 0, 0, 0x7E00, 0x7FC0, NAN, NAN, 0, 0, 0, 0x7F, 0x7E, 0xFF, 0x1F, 0x1F)
#define MINUS_NAN_ROW R(1, 0, 0, 0, 0, 0, 0xFE00, 0xFFC0, -NAN, -NAN, 0, 0, 0, 0xFF, 0xFE, 0xFF, 0x1F, 0x1F)

/* ---- bool ------------------------------------------------------------------ */

static const uint8_t bool_src[] = {0, 1};
static const every_dtype bool_want[] = {ZERO_ROW, ONE_ROW};

/* ---- uint8: widening keeps the value; int8 wraps ---------------------------- */

static const uint8_t uint8_src[] = {0, 1, 127, 128, 200, 255};
static const every_dtype uint8_want[] = {
    ZERO_ROW,
    ONE_ROW,
    R(1, 127, 127, 127, 127, 127, 0x57F0, 0x42FE, 127.0f, 127.0, 127, 127, 127, 0x70, 0x58, 0x86, 0x1F, 0x1F),
    R(1, 128, -128, 128, 128, 128, 0x5800, 0x4300, 128.0f, 128.0, 128, 128, 128, 0x70, 0x58, 0x86, 0x1F, 0x1F),
    R(1, 200, -56, 200, 200, 200, 0x5A40, 0x4348, 200.0f, 200.0, 200, 200, 200, 0x74, 0x5A, 0x87, 0x1F, 0x1F),
    R(1, 255, -1, 255, 255, 255, 0x5BF8, 0x437F, 255.0f, 255.0, 255, 255, 255, 0x78, 0x5C, 0x87, 0x1F, 0x1F),
};

/* ---- int8: uint8 wraps ------------------------------------------------------ */

static const int8_t int8_src[] = {0, 1, -1, 127, -128, -56};
static const every_dtype int8_want[] = {
    ZERO_ROW,
    ONE_ROW,
    MINUS_ONE_ROW,
    R(1, 127, 127, 127, 127, 127, 0x57F0, 0x42FE, 127.0f, 127.0, 127, 127, 127, 0x70, 0x58, 0x86, 0x1F, 0x1F),
    R(1, 128, -128, -128, -128, -128, 0xD800, 0xC300, -128.0f, -128.0, 65408, 4294967168u, UINT64_C(18446744073709551488), 0xF0, 0xD8, 0x86, 0x3F, 0x3F),
    R(1, 200, -56, -56, -56, -56, 0xD300, 0xC260, -56.0f, -56.0, 65480, 4294967240u, UINT64_C(18446744073709551560), 0xE6, 0xD3, 0x85, 0x3F, 0x3F),
};

/* ---- int16 ------------------------------------------------------------------ */

static const int16_t int16_src[] = {0, -1, 200, -129, 32767, -32768, 2049, 300, 464, 465, -464};
static const every_dtype int16_want[] = {
    ZERO_ROW,
    MINUS_ONE_ROW,
    R(1, 200, -56, 200, 200, 200, 0x5A40, 0x4348, 200.0f, 200.0, 200, 200, 200, 0x74, 0x5A, 0x87, 0x1F, 0x1F),
    R(1, 127, 127, -129, -129, -129, 0xD808, 0xC301, -129.0f, -129.0, 65407, 4294967167u, UINT64_C(18446744073709551487), 0xF0, 0xD8, 0x86, 0x3F, 0x3F),  /* -129 wraps to 127 in 8 bits */
    R(1, 255, -1, 32767, 32767, 32767, 0x7800, 0x4700, 32767.0f, 32767.0, 32767, 32767, 32767, 0x7F, 0x78, 0x8E, 0x1F, 0x1F), /* rounds to 32768 in 16 bits */
    R(1, 0, 0, -32768, -32768, -32768, 0xF800, 0xC700, -32768.0f, -32768.0, 32768, 4294934528u, UINT64_C(18446744073709518848), 0xFF, 0xF8, 0x8E, 0x3F, 0x3F),
    R(1, 1, 1, 2049, 2049, 2049, 0x6800, 0x4500, 2049.0f, 2049.0, 2049, 2049, 2049, 0x7F, 0x68, 0x8A, 0x1F, 0x1F), /* float16 tie 2048|2050 → even 2048 */
    R(1, 44, 44, 300, 300, 300, 0x5CB0, 0x4396, 300.0f, 300.0, 300, 300, 300, 0x79, 0x5D, 0x87, 0x1F, 0x1F),
    R(1, 208, -48, 464, 464, 464, 0x5F40, 0x43E8, 464.0f, 464.0, 464, 464, 464, 0x7E, 0x5F, 0x88, 0x1F, 0x1F), /* float8_e4m3fn: the tie 448 | 480 goes to even 448 */
    R(1, 209, -47, 465, 465, 465, 0x5F44, 0x43E8, 465.0f, 465.0, 465, 465, 465, 0x7F, 0x5F, 0x88, 0x1F, 0x1F), /* just above 464: NaN in float8_e4m3fn */
    R(1, 48, 48, -464, -464, -464, 0xDF40, 0xC3E8, -464.0f, -464.0, 65072, 4294966832u, UINT64_C(18446744073709551152), 0xFE, 0xDF, 0x88, 0x3F, 0x3F),
};

/* ---- int32 ------------------------------------------------------------------ */

static const int32_t int32_src[] = {0, -1, 70000, -129, INT32_MAX, INT32_MIN, 16777217, 2051, 259, 61439, 61440};
static const every_dtype int32_want[] = {
    ZERO_ROW,
    MINUS_ONE_ROW,
    R(1, 112, 112, 4464, 70000, 70000, 0x7C00, 0x4789, 70000.0f, 70000.0, 4464, 70000, 70000, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F), /* 0x11170; float16 overflows */
    R(1, 127, 127, -129, -129, -129, 0xD808, 0xC301, -129.0f, -129.0, 65407, 4294967167u, UINT64_C(18446744073709551487), 0xF0, 0xD8, 0x86, 0x3F, 0x3F),
    R(1, 255, -1, -1, INT32_MAX, INT32_MAX, 0x7C00, 0x4F00, 2147483648.0f, 2147483647.0, 65535, 2147483647, 2147483647, 0x7F, 0x7C, 0x9E, 0x1F, 0x1F),
    R(1, 0, 0, 0, INT32_MIN, INT32_MIN, 0xFC00, 0xCF00, -2147483648.0f, -2147483648.0, 0, 2147483648u, UINT64_C(18446744071562067968), 0xFF, 0xFC, 0x9E, 0x3F, 0x3F),
    R(1, 1, 1, 1, 16777217, 16777217, 0x7C00, 0x4B80, 16777216.0f, 16777217.0, 1, 16777217, 16777217, 0x7F, 0x7C, 0x97, 0x1F, 0x1F), /* float32 tie → even */
    R(1, 3, 3, 2051, 2051, 2051, 0x6802, 0x4500, 2051.0f, 2051.0, 2051, 2051, 2051, 0x7F, 0x68, 0x8A, 0x1F, 0x1F),              /* float16 tie → 2052 */
    R(1, 3, 3, 259, 259, 259, 0x5C0C, 0x4382, 259.0f, 259.0, 259, 259, 259, 0x78, 0x5C, 0x87, 0x1F, 0x1F),                   /* bfloat16 tie → 260 */
    R(1, 255, -1, -4097, 61439, 61439, 0x7B80, 0x4770, 61439.0f, 61439.0, 61439, 61439, 61439, 0x7F, 0x7B, 0x8F, 0x1F, 0x1F),
    R(1, 0, 0, -4096, 61440, 61440, 0x7B80, 0x4770, 61440.0f, 61440.0, 61440, 61440, 61440, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F), /* float8_e5m2: the tie 57344 | 65536 goes to even 65536, beyond the largest: inf */
};

/* ---- int64 ------------------------------------------------------------------ */

static const int64_t int64_src[] = {0,
                                    -1,
                                    INT64_MAX,
                                    INT64_MIN,
                                    INT64_C(4311744513), /* 2^32 + 2^24 + 1 */
                                    INT64_C(4345298944), /* 2^32 + 3 * 2^24 */
                                    INT64_C(9007199254740993), /* 2^53 + 1 */
                                    -300,
                                    65520,
                                    -57344,
                                    -61440};
static const every_dtype int64_want[] = {
    ZERO_ROW,
    MINUS_ONE_ROW,
    R(1, 255, -1, -1, -1, INT64_MAX, 0x7C00, 0x5F00, 0x1p63f, 0x1p63, 65535, UINT32_MAX, UINT64_C(9223372036854775807), 0x7F, 0x7C, 0xBE, 0x1F, 0x1F),
    R(1, 0, 0, 0, 0, INT64_MIN, 0xFC00, 0xDF00, -0x1p63f, -0x1p63, 0, 0, UINT64_C(9223372036854775808), 0xFF, 0xFC, 0xBE, 0x3F, 0x3F),
    /* Just above a bfloat16 tie: rounded once it goes up to 2^32 + 2^25
     * (0x4F81); through float32 (2^32 + 2^24, a tie) it would go to even 2^32. */
    R(1, 1, 1, 1, 16777217, INT64_C(4311744513), 0x7C00, 0x4F81, 4311744512.0f, 4311744513.0, 1, 16777217, UINT64_C(4311744513), 0x7F, 0x7C, 0x9F, 0x1F, 0x1F),
    R(1, 0, 0, 0, 50331648, INT64_C(4345298944), 0x7C00, 0x4F82, 4345298944.0f, 4345298944.0, 0, 50331648, UINT64_C(4345298944), 0x7F, 0x7C, 0x9F, 0x1F, 0x1F), /* tie → even */
    R(1, 1, 1, 1, 1, INT64_C(9007199254740993), 0x7C00, 0x5A00, 0x1p53f, 0x1p53, 1, 1, UINT64_C(9007199254740993), 0x7F, 0x7C, 0xB4, 0x1F, 0x1F), /* float64 tie → even */
    R(1, 212, -44, -300, -300, -300, 0xDCB0, 0xC396, -300.0f, -300.0, 65236, 4294966996u, UINT64_C(18446744073709551316), 0xF9, 0xDD, 0x87, 0x3F, 0x3F),
    R(1, 240, -16, -16, 65520, 65520, 0x7C00, 0x4780, 65520.0f, 65520.0, 65520, 65520, 65520, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F), /* float16: tie 65504|65536 → inf */
    R(1, 0, 0, 8192, -57344, -57344, 0xFB00, 0xC760, -57344.0f, -57344.0, 8192, 4294909952u, UINT64_C(18446744073709494272), 0xFF, 0xFB, 0x8F, 0x3F, 0x3F),
    R(1, 0, 0, 4096, -61440, -61440, 0xFB80, 0xC770, -61440.0f, -61440.0, 4096, 4294905856u, UINT64_C(18446744073709490176), 0xFF, 0xFC, 0x8F, 0x3F, 0x3F),
};

/* ---- float16 (bit patterns) --------------------------------------------------- */

static const uint16_t float16_src[] = {
    0x0000, 0x8000, 0x3C00, /* 1 */
    0xBE00,                 /* -1.5 */
    0x5CB2,                 /* 300.5 */
    0x7BFF,                 /* 65504, the largest */
    0xFBFF, 0x7C00, 0xFC00, /* -65504, inf, -inf */
    0x7E00,                 /* NaN */
    0x3800,                 /* 0.5 */
    0x0001,                 /* 2^-24, the smallest */
    0xFE00,                 /* -NaN */
    0x5F40,                 /* 464 */
    0x5F41,                 /* 464.25 */
    0x7B80,                 /* 61440 */
    0x7B7F,                 /* 61408 */
    0x1400,                 /* 2^-10 */
    0x1401,                 /* 2^-10 + 2^-20 */
    0x0080,                 /* 2^-17 */
};
static const every_dtype float16_want[] = {
    ZERO_ROW,
    NEGATIVE_ZERO_ROW,
    ONE_ROW,
    R(1, 0, -1, -1, -1, -1, 0xBE00, 0xBFC0, -1.5f, -1.5, 0, 0, 0, 0xBC, 0xBE, 0x80, 0x2C, 0x2E), /* truncates to -1; uint8 saturates to 0 */
    R(1, 255, 127, 300, 300, 300, 0x5CB2, 0x4396, 300.5f, 300.5, 300, 300, 300, 0x79, 0x5D, 0x87, 0x1F, 0x1F),
    R(1, 255, 127, 32767, 65504, 65504, 0x7BFF, 0x4780, 65504.0f, 65504.0, 65504, 65504, 65504, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F), /* bfloat16 rounds up to 65536 */
    R(1, 0, -128, -32768, -65504, -65504, 0xFBFF, 0xC780, -65504.0f, -65504.0, 0, 0, 0, 0xFF, 0xFC, 0x8F, 0x3F, 0x3F),
    INF_ROW,
    MINUS_INF_ROW,
    NAN_ROW,
    R(1, 0, 0, 0, 0, 0, 0x3800, 0x3F00, 0.5f, 0.5, 0, 0, 0, 0x30, 0x38, 0x7E, 0x04, 0x08),
    R(1, 0, 0, 0, 0, 0, 0x0001, 0x3380, 0x1p-24f, 0x1p-24, 0, 0, 0, 0x00, 0x00, 0x67, 0x00, 0x00),
    MINUS_NAN_ROW,
    R(1, 255, 127, 464, 464, 464, 0x5F40, 0x43E8, 464.0f, 464.0, 464, 464, 464, 0x7E, 0x5F, 0x88, 0x1F, 0x1F),
    R(1, 255, 127, 464, 464, 464, 0x5F41, 0x43E8, 464.25f, 464.25, 464, 464, 464, 0x7F, 0x5F, 0x88, 0x1F, 0x1F),
    R(1, 255, 127, 32767, 61440, 61440, 0x7B80, 0x4770, 61440.0f, 61440.0, 61440, 61440, 61440, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 255, 127, 32767, 61408, 61408, 0x7B7F, 0x4770, 61408.0f, 61408.0, 61408, 61408, 61408, 0x7F, 0x7B, 0x8F, 0x1F, 0x1F),
    R(1, 0, 0, 0, 0, 0, 0x1400, 0x3A80, 0.0009765625f, 0.0009765625, 0, 0, 0, 0x00, 0x14, 0x75, 0x00, 0x00), /* float8_e4m3fn: half the smallest subnormal, a tie → even 0 */
    R(1, 0, 0, 0, 0, 0, 0x1401, 0x3A80, 0x1.004p-10f, 0x1.004p-10, 0, 0, 0, 0x01, 0x14, 0x75, 0x00, 0x00),
    R(1, 0, 0, 0, 0, 0, 0x0080, 0x3700, 0x1p-17f, 0x1p-17, 0, 0, 0, 0x00, 0x00, 0x6E, 0x00, 0x00), /* float8_e5m2 subnormal: half the smallest, a tie → 0 */
};

/* ---- bfloat16 (bit patterns) -------------------------------------------------- */

static const uint16_t bfloat16_src[] = {
    0x0000, 0x8000, 0x3F81, /* 1 + 2^-7 */
    0xC3A0,                 /* -320 */
    0x4780,                 /* 65536 */
    0x477F,                 /* 65280 */
    0x3300,                 /* 2^-25 */
    0x3340,                 /* 1.5 * 2^-25 */
    0x7F80, 0xFF80, 0x7FC0, /* inf, -inf, NaN */
    0x4F00,                 /* 2^31 */
    0xDF00,                 /* -2^63 */
    0x5F00,                 /* 2^63 */
    0x43E8,                 /* 464 */
    0x43E9,                 /* 466 */
    0x5F80,                 /* 2^64 */
    0xBF80,                 /* -1 */
};
static const every_dtype bfloat16_want[] = {
    ZERO_ROW,
    NEGATIVE_ZERO_ROW,
    R(1, 1, 1, 1, 1, 1, 0x3C08, 0x3F81, 1.0078125f, 1.0078125, 1, 1, 1, 0x38, 0x3C, 0x7F, 0x08, 0x0C),
    R(1, 0, -128, -320, -320, -320, 0xDD00, 0xC3A0, -320.0f, -320.0, 0, 0, 0, 0xFA, 0xDD, 0x87, 0x3F, 0x3F),
    R(1, 255, 127, 32767, 65536, 65536, 0x7C00, 0x4780, 65536.0f, 65536.0, 65535, 65536, 65536, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 255, 127, 32767, 65280, 65280, 0x7BF8, 0x477F, 65280.0f, 65280.0, 65280, 65280, 65280, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 0, 0, 0, 0, 0, 0x0000, 0x3300, 0x1p-25f, 0x1p-25, 0, 0, 0, 0x00, 0x00, 0x66, 0x00, 0x00),         /* float16: half the smallest → even 0 */
    R(1, 0, 0, 0, 0, 0, 0x0001, 0x3340, 0x1.8p-25f, 0x1.8p-25, 0, 0, 0, 0x00, 0x00, 0x67, 0x00, 0x00),     /* three quarters of it → up */
    INF_ROW,
    MINUS_INF_ROW,
    NAN_ROW,
    R(1, 255, 127, 32767, INT32_MAX, INT64_C(2147483648), 0x7C00, 0x4F00, 0x1p31f, 0x1p31, 65535, 2147483648u, UINT64_C(2147483648), 0x7F, 0x7C, 0x9E, 0x1F, 0x1F),
    R(1, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xDF00, -0x1p63f, -0x1p63, 0, 0, 0, 0xFF, 0xFC, 0xBE, 0x3F, 0x3F), /* int64: exactly its min */
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F00, 0x1p63f, 0x1p63, 65535, UINT32_MAX, UINT64_C(9223372036854775808), 0x7F, 0x7C, 0xBE, 0x1F, 0x1F),    /* one past int64's max */
    R(1, 255, 127, 464, 464, 464, 0x5F40, 0x43E8, 464.0f, 464.0, 464, 464, 464, 0x7E, 0x5F, 0x88, 0x1F, 0x1F),
    R(1, 255, 127, 466, 466, 466, 0x5F48, 0x43E9, 466.0f, 466.0, 466, 466, 466, 0x7F, 0x5F, 0x88, 0x1F, 0x1F),
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F80, 0x1p+64f, 0x1p+64, 65535, UINT32_MAX, UINT64_MAX, 0x7F, 0x7C, 0xBF, 0x1F, 0x1F),
    R(1, 0, -1, -1, -1, -1, 0xBC00, 0xBF80, -1.0f, -1.0, 0, 0, 0, 0xB8, 0xBC, 0x7F, 0x28, 0x2C), /* -1 float into unsigned saturates to 0; an integer -1 wraps */
};

/* ---- float32 ------------------------------------------------------------------ */

static const float float32_src[] = {
    0.0f, -0.0f, 0.5f, -1.5f, 300.5f, -200.5f, 65504.0f, 65520.0f, 65519.99609375f, 1.00390625f,
    1.01171875f, 3.0e9f, -1e20f, INFINITY, -INFINITY, NAN, -NAN, FLT_MAX, -0x1p-26f, 0x1.8p-24f,
    448.0f, 464.0f, 0x1.d00002p8f /* just above 464 */, 480.0f, 57344.0f, 61440.0f, 0x1.dffffep15f /* below 61440 */,
    0x1p-9f, 0x1p-10f, 0x1.8p-10f, 0x1p-16f, 0x1p-17f, 0x1.000002p-17f, 0x1p64f, 0x1.fffffep63f, 0x1p32f, -1.0f,
    0x1p-130f /* subnormal, a bfloat16 subnormal too */, -0x1p-149f /* the smallest subnormal */,
};
static const every_dtype float32_want[] = {
    ZERO_ROW,
    NEGATIVE_ZERO_ROW,
    R(1, 0, 0, 0, 0, 0, 0x3800, 0x3F00, 0.5f, 0.5, 0, 0, 0, 0x30, 0x38, 0x7E, 0x04, 0x08), /* → bool: nonzero, though it truncates to 0 */
    R(1, 0, -1, -1, -1, -1, 0xBE00, 0xBFC0, -1.5f, -1.5, 0, 0, 0, 0xBC, 0xBE, 0x80, 0x2C, 0x2E),
    R(1, 255, 127, 300, 300, 300, 0x5CB2, 0x4396, 300.5f, 300.5, 300, 300, 300, 0x79, 0x5D, 0x87, 0x1F, 0x1F),
    R(1, 0, -128, -200, -200, -200, 0xDA44, 0xC348, -200.5f, -200.5, 0, 0, 0, 0xF5, 0xDA, 0x87, 0x3F, 0x3F), /* bfloat16 tie 200|201 → even 200 */
    R(1, 255, 127, 32767, 65504, 65504, 0x7BFF, 0x4780, 65504.0f, 65504.0, 65504, 65504, 65504, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 255, 127, 32767, 65520, 65520, 0x7C00, 0x4780, 65520.0f, 65520.0, 65520, 65520, 65520, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F), /* float16: tie → inf */
    R(1, 255, 127, 32767, 65519, 65519, 0x7BFF, 0x4780, 65519.99609375f, 65519.99609375, 65519, 65519, 65519, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F), /* just below it */
    R(1, 1, 1, 1, 1, 1, 0x3C04, 0x3F80, 1.00390625f, 1.00390625, 1, 1, 1, 0x38, 0x3C, 0x7F, 0x08, 0x0C), /* bfloat16 tie → even, down */
    R(1, 1, 1, 1, 1, 1, 0x3C0C, 0x3F82, 1.01171875f, 1.01171875, 1, 1, 1, 0x38, 0x3C, 0x7F, 0x08, 0x0C), /* bfloat16 tie → even, up */
    R(1, 255, 127, 32767, INT32_MAX, INT64_C(3000000000), 0x7C00, 0x4F33, 3.0e9f, 3.0e9, 65535, 3000000000u, UINT64_C(3000000000), 0x7F, 0x7C, 0x9E, 0x1F, 0x1F),
    R(1, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xE0AD, -1e20f, (double)-1e20f, 0, 0, 0, 0xFF, 0xFC, 0xC1, 0x3F, 0x3F),
    INF_ROW,
    MINUS_INF_ROW,
    NAN_ROW,
    MINUS_NAN_ROW,
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F80, FLT_MAX, (double)FLT_MAX, 65535, UINT32_MAX, UINT64_MAX, 0x7F, 0x7C, 0xFF, 0x1F, 0x1F), /* bfloat16 overflows */
    R(1, 0, 0, 0, 0, 0, 0x8000, 0xB280, -0x1p-26f, -0x1p-26, 0, 0, 0, 0x80, 0x80, 0x65, 0x20, 0x20),   /* float16 underflows to -0 */
    R(1, 0, 0, 0, 0, 0, 0x0002, 0x33C0, 0x1.8p-24f, 0x1.8p-24, 0, 0, 0, 0x00, 0x00, 0x68, 0x00, 0x00), /* float16 subnormal tie 1|2 → 2 */
    R(1, 255, 127, 448, 448, 448, 0x5F00, 0x43E0, 448.0f, 448.0, 448, 448, 448, 0x7E, 0x5F, 0x88, 0x1F, 0x1F),
    R(1, 255, 127, 464, 464, 464, 0x5F40, 0x43E8, 464.0f, 464.0, 464, 464, 464, 0x7E, 0x5F, 0x88, 0x1F, 0x1F),
    R(1, 255, 127, 464, 464, 464, 0x5F40, 0x43E8, 464.0000305175781f, 464.0000305175781, 464, 464, 464, 0x7F, 0x5F, 0x88, 0x1F, 0x1F), /* just above the tie: NaN */
    R(1, 255, 127, 480, 480, 480, 0x5F80, 0x43F0, 480.0f, 480.0, 480, 480, 480, 0x7F, 0x60, 0x88, 0x1F, 0x1F),
    R(1, 255, 127, 32767, 57344, 57344, 0x7B00, 0x4760, 57344.0f, 57344.0, 57344, 57344, 57344, 0x7F, 0x7B, 0x8F, 0x1F, 0x1F),
    R(1, 255, 127, 32767, 61440, 61440, 0x7B80, 0x4770, 61440.0f, 61440.0, 61440, 61440, 61440, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 255, 127, 32767, 61439, 61439, 0x7B80, 0x4770, 61439.99609375f, 61439.99609375, 61439, 61439, 61439, 0x7F, 0x7B, 0x8F, 0x1F, 0x1F),
    R(1, 0, 0, 0, 0, 0, 0x1800, 0x3B00, 0.001953125f, 0.001953125, 0, 0, 0, 0x01, 0x18, 0x76, 0x00, 0x00),
    R(1, 0, 0, 0, 0, 0, 0x1400, 0x3A80, 0.0009765625f, 0.0009765625, 0, 0, 0, 0x00, 0x14, 0x75, 0x00, 0x00),
    R(1, 0, 0, 0, 0, 0, 0x1600, 0x3AC0, 0.00146484375f, 0.00146484375, 0, 0, 0, 0x01, 0x16, 0x76, 0x00, 0x00),
    R(1, 0, 0, 0, 0, 0, 0x0100, 0x3780, 0x1p-16f, 0x1p-16, 0, 0, 0, 0x00, 0x01, 0x6F, 0x00, 0x00),
    R(1, 0, 0, 0, 0, 0, 0x0080, 0x3700, 0x1p-17f, 0x1p-17, 0, 0, 0, 0x00, 0x00, 0x6E, 0x00, 0x00),
    R(1, 0, 0, 0, 0, 0, 0x0080, 0x3700, 0x1.000002p-17f, 0x1.000002p-17, 0, 0, 0, 0x00, 0x01, 0x6E, 0x00, 0x00),
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F80, 0x1p+64f, 0x1p+64, 65535, UINT32_MAX, UINT64_MAX, 0x7F, 0x7C, 0xBF, 0x1F, 0x1F), /* 2^64: uint64 saturates to 2^64 - 1 */
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F80, 0x1.fffffep+63f, 0x1.fffffep+63, 65535, UINT32_MAX, UINT64_C(18446742974197923840), 0x7F, 0x7C, 0xBF, 0x1F, 0x1F),
    R(1, 255, 127, 32767, INT32_MAX, INT64_C(4294967296), 0x7C00, 0x4F80, 4294967296.0f, 4294967296.0, 65535, UINT32_MAX, UINT64_C(4294967296), 0x7F, 0x7C, 0x9F, 0x1F, 0x1F),
    R(1, 0, -1, -1, -1, -1, 0xBC00, 0xBF80, -1.0f, -1.0, 0, 0, 0, 0xB8, 0xBC, 0x7F, 0x28, 0x2C), /* floats saturate: 0 in every unsigned width */
    /* Subnormals are kept (never flushed): nonzero for bool, exact in float64 and bfloat16. */
    R(1, 0, 0, 0, 0, 0, 0x0000, 0x0008, 0x1p-130f, 0x1p-130, 0, 0, 0, 0x00, 0x00, 0x00, 0x00, 0x00),
    R(1, 0, 0, 0, 0, 0, 0x8000, 0x8000, -0x1p-149f, -0x1p-149, 0, 0, 0, 0x80, 0x80, 0x00, 0x20, 0x20), /* bfloat16: below half its smallest, -0 */
};

/* ---- float64 ------------------------------------------------------------------ */

static const double float64_src[] = {0.0,
                                     -0.0,
                                     0x1.0020000001p0, /* 1 + 2^-11 + 2^-40 */
                                     0x1.01000004p0,   /* 1 + 2^-8 + 2^-30 */
                                     300.5,
                                     -1.5,
                                     0x1.ffdffffffff8p15, /* 65520 - 2^-30 */
                                     1e300,
                                     -1e300,
                                     0x1p63,
                                     -0x1p63,
                                     2147483647.9,
                                     -2147483649.5,
                                     INFINITY,
                                     -INFINITY,
                                     NAN,
                                     1e-310,
                                     255.99,
                                     -0.99,
                                     464.0 + 0x1p-30,   /* float32 would round it to the tie 464 */
                                     61440.0 - 0x1p-20, /* float32 would round it to the tie 61440 */
                                     0x1p-10 + 0x1p-60,
                                     0x1p64,
                                     0x1p64 - 2048,
                                     0x1p32 - 0.5,
                                     65535.99,
                                     -1e-300,
                                     0x1.000001p0, /* 1 + 2^-24: a float32 tie */
                                     0x1p-140};    /* a float32 subnormal */
static const every_dtype float64_want[] = {
    ZERO_ROW,
    NEGATIVE_ZERO_ROW,
    /* Rounded once: just above the float16 tie 1 | 1 + 2^-10, so up (0x3C01);
     * through float32 it would be the tie 1 + 2^-11 and go to even 1 (0x3C00). */
    R(1, 1, 1, 1, 1, 1, 0x3C01, 0x3F80, 0x1.002p0f, 0x1.0020000001p0, 1, 1, 1, 0x38, 0x3C, 0x7F, 0x08, 0x0C),
    /* The same for bfloat16: 0x3F81 once, 0x3F80 through float32. */
    R(1, 1, 1, 1, 1, 1, 0x3C04, 0x3F81, 0x1.01p0f, 0x1.01000004p0, 1, 1, 1, 0x38, 0x3C, 0x7F, 0x08, 0x0C),
    R(1, 255, 127, 300, 300, 300, 0x5CB2, 0x4396, 300.5f, 300.5, 300, 300, 300, 0x79, 0x5D, 0x87, 0x1F, 0x1F),
    R(1, 0, -1, -1, -1, -1, 0xBE00, 0xBFC0, -1.5f, -1.5, 0, 0, 0, 0xBC, 0xBE, 0x80, 0x2C, 0x2E),
    /* float16 65504 once; through float32 (65520, a tie) it would be inf. */
    R(1, 255, 127, 32767, 65519, 65519, 0x7BFF, 0x4780, 65520.0f, 0x1.ffdffffffff8p15, 65519, 65519, 65519, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F80, INFINITY, 1e300, 65535, UINT32_MAX, UINT64_MAX, 0x7F, 0x7C, 0xFF, 0x1F, 0x1F),
    R(1, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xFF80, -INFINITY, -1e300, 0, 0, 0, 0xFF, 0xFC, 0xFF, 0x3F, 0x3F),
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F00, 0x1p63f, 0x1p63, 65535, UINT32_MAX, UINT64_C(9223372036854775808), 0x7F, 0x7C, 0xBE, 0x1F, 0x1F),
    R(1, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xDF00, -0x1p63f, -0x1p63, 0, 0, 0, 0xFF, 0xFC, 0xBE, 0x3F, 0x3F),
    R(1, 255, 127, 32767, INT32_MAX, INT64_C(2147483647), 0x7C00, 0x4F00, 0x1p31f, 2147483647.9, 65535, 2147483647, 2147483647, 0x7F, 0x7C, 0x9E, 0x1F, 0x1F),
    R(1, 0, -128, -32768, INT32_MIN, INT64_C(-2147483649), 0xFC00, 0xCF00, -0x1p31f, -2147483649.5, 0, 0, 0, 0xFF, 0xFC, 0x9E, 0x3F, 0x3F),
    INF_ROW,
    MINUS_INF_ROW,
    NAN_ROW,
    R(1, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 1e-310, 0, 0, 0, 0x00, 0x00, 0x00, 0x00, 0x00),
    R(1, 255, 127, 255, 255, 255, 0x5C00, 0x4380, 255.99f, 255.99, 255, 255, 255, 0x78, 0x5C, 0x87, 0x1F, 0x1F),
    R(1, 0, 0, 0, 0, 0, 0xBBEC, 0xBF7D, -0.99f, -0.99, 0, 0, 0, 0xB8, 0xBC, 0x7F, 0x28, 0x2C),
    R(1, 255, 127, 464, 464, 464, 0x5F40, 0x43E8, 464.0f, 464.0000000009313, 464, 464, 464, 0x7F, 0x5F, 0x88, 0x1F, 0x1F), /* once: above 464, NaN (through float32: 464, a tie, → 448) */
    R(1, 255, 127, 32767, 61439, 61439, 0x7B80, 0x4770, 61440.0f, 61439.999999046326, 61439, 61439, 61439, 0x7F, 0x7B, 0x8F, 0x1F, 0x1F), /* once: 57344 (through float32: 61440, a tie, → inf) */
    R(1, 0, 0, 0, 0, 0, 0x1400, 0x3A80, 0.0009765625f, 0x1.0000000000004p-10, 0, 0, 0, 0x01, 0x14, 0x75, 0x00, 0x00), /* once: above the tie → 2^-9 (through float32: the tie → 0) */
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F80, 0x1p+64f, 0x1p+64, 65535, UINT32_MAX, UINT64_MAX, 0x7F, 0x7C, 0xBF, 0x1F, 0x1F), /* uint64: 2^64 saturates */
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F80, 0x1p+64f, 0x1.fffffffffffffp+63, 65535, UINT32_MAX, UINT64_C(18446744073709549568), 0x7F, 0x7C, 0xBF, 0x1F, 0x1F),
    R(1, 255, 127, 32767, INT32_MAX, INT64_C(4294967295), 0x7C00, 0x4F80, 4294967296.0f, 4294967295.5, 65535, UINT32_MAX, UINT64_C(4294967295), 0x7F, 0x7C, 0x9F, 0x1F, 0x1F),
    R(1, 255, 127, 32767, 65535, 65535, 0x7C00, 0x4780, 65535.98828125f, 65535.99, 65535, 65535, 65535, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 0, 0, 0, 0, 0, 0x8000, 0x8000, -0.0f, -1e-300, 0, 0, 0, 0x80, 0x80, 0x00, 0x20, 0x20),
    R(1, 1, 1, 1, 1, 1, 0x3C00, 0x3F80, 1.0f, 0x1.000001p0, 1, 1, 1, 0x38, 0x3C, 0x7F, 0x08, 0x0C), /* float32: the tie → even 1 */
    R(1, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0x1p-140f, 0x1p-140, 0, 0, 0, 0x00, 0x00, 0x00, 0x00, 0x00), /* float32 keeps it; bfloat16 underflows */
};

/* ---- complex64: → real keeps the real part; → bool looks at both parts -------- */

static const float complex64_src[][2] = {
    {0.0f, 0.0f},  {0.0f, 1.0f}, {-0.0f, 0.0f},         {300.5f, -2.0f},   {-1.5f, 0.0f},
    {NAN, 0.0f},   {0.0f, NAN},  {INFINITY, -INFINITY}, {1e10f, 65520.0f}, {1.00390625f, 5.0f},
};
static const every_dtype complex64_want[] = {
    C(0, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0.0f, 0.0f, 0.0, 0.0, 0, 0, 0, 0x00, 0x00, 0x00, 0x00, 0x00),
    C(1, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0.0f, 1.0f, 0.0, 1.0, 0, 0, 0, 0x00, 0x00, 0x00, 0x00, 0x00),
    C(0, 0, 0, 0, 0, 0, 0x8000, 0x8000, -0.0f, -0.0, -0.0f, 0.0f, -0.0, 0.0, 0, 0, 0, 0x80, 0x80, 0x00, 0x20, 0x20),
    C(1, 255, 127, 300, 300, 300, 0x5CB2, 0x4396, 300.5f, 300.5, 300.5f, -2.0f, 300.5, -2.0, 300, 300, 300, 0x79, 0x5D, 0x87, 0x1F, 0x1F),
    C(1, 0, -1, -1, -1, -1, 0xBE00, 0xBFC0, -1.5f, -1.5, -1.5f, 0.0f, -1.5, 0.0, 0, 0, 0, 0xBC, 0xBE, 0x80, 0x2C, 0x2E),
    C(1, 0, 0, 0, 0, 0, 0x7E00, 0x7FC0, NAN, NAN, NAN, 0.0f, NAN, 0.0, 0, 0, 0, 0x7F, 0x7E, 0xFF, 0x1F, 0x1F),
    C(1, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0.0f, NAN, 0.0, NAN, 0, 0, 0, 0x00, 0x00, 0x00, 0x00, 0x00),
    C(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F80, INFINITY, INFINITY, INFINITY, -INFINITY, INFINITY,
      -INFINITY, 65535, UINT32_MAX, UINT64_MAX, 0x7F, 0x7C, 0xFF, 0x1F, 0x1F),
    C(1, 255, 127, 32767, INT32_MAX, INT64_C(10000000000), 0x7C00, 0x5015, 1e10f, 1e10, 1e10f, 65520.0f, 1e10,
      65520.0, 65535, UINT32_MAX, UINT64_C(10000000000), 0x7F, 0x7C, 0xA0, 0x1F, 0x1F),
    C(1, 1, 1, 1, 1, 1, 0x3C04, 0x3F80, 1.00390625f, 1.00390625, 1.00390625f, 5.0f, 1.00390625, 5.0, 1, 1, 1, 0x38, 0x3C, 0x7F, 0x08, 0x0C),
};

/* ---- complex128 --------------------------------------------------------------- */

static const double complex128_src[][2] = {
    {0.0, 0.0},   {-0.0, -0.0},  {0.0, 1e-310},        {0x1.0020000001p0, 1e300},
    {-1e300, NAN}, {300.5, 0.0}, {-2147483649.5, 3.0}, {NAN, NAN},
};
static const every_dtype complex128_want[] = {
    C(0, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0.0f, 0.0f, 0.0, 0.0, 0, 0, 0, 0x00, 0x00, 0x00, 0x00, 0x00),
    C(0, 0, 0, 0, 0, 0, 0x8000, 0x8000, -0.0f, -0.0, -0.0f, -0.0f, -0.0, -0.0, 0, 0, 0, 0x80, 0x80, 0x00, 0x20, 0x20),
    /* nonzero only in a subnormal imaginary part, which float32 flushes to +0 */
    C(1, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0.0f, 0.0f, 0.0, 1e-310, 0, 0, 0, 0x00, 0x00, 0x00, 0x00, 0x00),
    C(1, 1, 1, 1, 1, 1, 0x3C01, 0x3F80, 0x1.002p0f, 0x1.0020000001p0, 0x1.002p0f, INFINITY, 0x1.0020000001p0,
      1e300, 1, 1, 1, 0x38, 0x3C, 0x7F, 0x08, 0x0C),
    C(1, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xFF80, -INFINITY, -1e300, -INFINITY, NAN, -1e300, NAN, 0, 0, 0, 0xFF, 0xFC, 0xFF, 0x3F, 0x3F),
    C(1, 255, 127, 300, 300, 300, 0x5CB2, 0x4396, 300.5f, 300.5, 300.5f, 0.0f, 300.5, 0.0, 300, 300, 300, 0x79, 0x5D, 0x87, 0x1F, 0x1F),
    C(1, 0, -128, -32768, INT32_MIN, INT64_C(-2147483649), 0xFC00, 0xCF00, -0x1p31f, -2147483649.5, -0x1p31f, 3.0f,
      -2147483649.5, 3.0, 0, 0, 0, 0xFF, 0xFC, 0x9E, 0x3F, 0x3F),
    C(1, 0, 0, 0, 0, 0, 0x7E00, 0x7FC0, NAN, NAN, NAN, NAN, NAN, NAN, 0, 0, 0, 0x7F, 0x7E, 0xFF, 0x1F, 0x1F),
};

/* ---- uint16: int8/int16 wrap; float8 rounds once, e4m3fn to NaN past 464 ----- */

static const uint16_t uint16_src[] = {0, 1, 255, 256, 448, 464, 465, 2049, 32768, 57344, 61439, 61440, 65504, 65520, 65535};
static const every_dtype uint16_want[] = {
    ZERO_ROW,
    ONE_ROW,
    R(1, 255, -1, 255, 255, 255, 0x5BF8, 0x437F, 255.0f, 255.0, 255, 255, 255, 0x78, 0x5C, 0x87, 0x1F, 0x1F),
    R(1, 0, 0, 256, 256, 256, 0x5C00, 0x4380, 256.0f, 256.0, 256, 256, 256, 0x78, 0x5C, 0x87, 0x1F, 0x1F),
    R(1, 192, -64, 448, 448, 448, 0x5F00, 0x43E0, 448.0f, 448.0, 448, 448, 448, 0x7E, 0x5F, 0x88, 0x1F, 0x1F),
    R(1, 208, -48, 464, 464, 464, 0x5F40, 0x43E8, 464.0f, 464.0, 464, 464, 464, 0x7E, 0x5F, 0x88, 0x1F, 0x1F),
    R(1, 209, -47, 465, 465, 465, 0x5F44, 0x43E8, 465.0f, 465.0, 465, 465, 465, 0x7F, 0x5F, 0x88, 0x1F, 0x1F),
    R(1, 1, 1, 2049, 2049, 2049, 0x6800, 0x4500, 2049.0f, 2049.0, 2049, 2049, 2049, 0x7F, 0x68, 0x8A, 0x1F, 0x1F),
    R(1, 0, 0, -32768, 32768, 32768, 0x7800, 0x4700, 32768.0f, 32768.0, 32768, 32768, 32768, 0x7F, 0x78, 0x8E, 0x1F, 0x1F),
    R(1, 0, 0, -8192, 57344, 57344, 0x7B00, 0x4760, 57344.0f, 57344.0, 57344, 57344, 57344, 0x7F, 0x7B, 0x8F, 0x1F, 0x1F),
    R(1, 255, -1, -4097, 61439, 61439, 0x7B80, 0x4770, 61439.0f, 61439.0, 61439, 61439, 61439, 0x7F, 0x7B, 0x8F, 0x1F, 0x1F),
    R(1, 0, 0, -4096, 61440, 61440, 0x7B80, 0x4770, 61440.0f, 61440.0, 61440, 61440, 61440, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 224, -32, -32, 65504, 65504, 0x7BFF, 0x4780, 65504.0f, 65504.0, 65504, 65504, 65504, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 240, -16, -16, 65520, 65520, 0x7C00, 0x4780, 65520.0f, 65520.0, 65520, 65520, 65520, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 255, -1, -1, 65535, 65535, 0x7C00, 0x4780, 65535.0f, 65535.0, 65535, 65535, 65535, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
};

/* ---- uint32 ------------------------------------------------------------------- */

static const uint32_t uint32_src[] = {
    0, 1, 464, 61440, 65535, 65536, 70000, 16777217, 16842753 /* 2^24 + 2^16 + 1 */, 0x80000000u, 0xFFFFFF7Fu,
    0xFFFFFF80u /* a float32 tie */, UINT32_MAX,
};
static const every_dtype uint32_want[] = {
    ZERO_ROW,
    ONE_ROW,
    R(1, 208, -48, 464, 464, 464, 0x5F40, 0x43E8, 464.0f, 464.0, 464, 464, 464, 0x7E, 0x5F, 0x88, 0x1F, 0x1F),
    R(1, 0, 0, -4096, 61440, 61440, 0x7B80, 0x4770, 61440.0f, 61440.0, 61440, 61440, 61440, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 255, -1, -1, 65535, 65535, 0x7C00, 0x4780, 65535.0f, 65535.0, 65535, 65535, 65535, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 0, 0, 0, 65536, 65536, 0x7C00, 0x4780, 65536.0f, 65536.0, 0, 65536, 65536, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 112, 112, 4464, 70000, 70000, 0x7C00, 0x4789, 70000.0f, 70000.0, 4464, 70000, 70000, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 1, 1, 1, 16777217, 16777217, 0x7C00, 0x4B80, 16777216.0f, 16777217.0, 1, 16777217, 16777217, 0x7F, 0x7C, 0x97, 0x1F, 0x1F),
    R(1, 1, 1, 1, 16842753, 16842753, 0x7C00, 0x4B81, 16842752.0f, 16842753.0, 1, 16842753, 16842753, 0x7F, 0x7C, 0x97, 0x1F, 0x1F),
    R(1, 0, 0, 0, INT32_MIN, INT64_C(2147483648), 0x7C00, 0x4F00, 2147483648.0f, 2147483648.0, 0, 2147483648u, UINT64_C(2147483648), 0x7F, 0x7C, 0x9E, 0x1F, 0x1F),
    R(1, 127, 127, -129, -129, INT64_C(4294967167), 0x7C00, 0x4F80, 4294967040.0f, 4294967167.0, 65407, 4294967167u, UINT64_C(4294967167), 0x7F, 0x7C, 0x9F, 0x1F, 0x1F),
    R(1, 128, -128, -128, -128, INT64_C(4294967168), 0x7C00, 0x4F80, 4294967296.0f, 4294967168.0, 65408, 4294967168u, UINT64_C(4294967168), 0x7F, 0x7C, 0x9F, 0x1F, 0x1F),
    R(1, 255, -1, -1, -1, INT64_C(4294967295), 0x7C00, 0x4F80, 4294967296.0f, 4294967295.0, 65535, UINT32_MAX, UINT64_C(4294967295), 0x7F, 0x7C, 0x9F, 0x1F, 0x1F),
};

/* ---- uint64: values of 2^63 and more, rounded once into every float ------------ */

static const uint64_t uint64_src[] = {
    0,
    1,
    464,
    61440,
    UINT64_C(4294967296),          /* 2^32 */
    UINT64_C(9007199254740993),    /* 2^53 + 1: a float64 tie */
    UINT64_C(9223372036854775808), /* 2^63 */
    UINT64_C(9223372036854775809), /* 2^63 + 1 */
    UINT64_C(9223372586610589696), /* 2^63 + 2^39: a float32 tie, to even 2^63 */
    UINT64_C(9223372586610589697), /* just above it */
    UINT64_C(9223373686122217472), /* 2^63 + 2^40 + 2^39: a float32 tie, to even 2^63 + 2^41 */
    UINT64_C(9223372036854776832), /* 2^63 + 2^10: a float64 tie, to even 2^63 */
    UINT64_C(9223372036854776833), /* just above it */
    UINT64_C(18446744073709550591), /* 2^64 - 1025: float64 2^64 - 2048 */
    UINT64_C(18446744073709550592), /* 2^64 - 1024: a float64 tie, to even 2^64 */
    UINT64_MAX,
};
static const every_dtype uint64_want[] = {
    ZERO_ROW,
    ONE_ROW,
    R(1, 208, -48, 464, 464, 464, 0x5F40, 0x43E8, 464.0f, 464.0, 464, 464, 464, 0x7E, 0x5F, 0x88, 0x1F, 0x1F),
    R(1, 0, 0, -4096, 61440, 61440, 0x7B80, 0x4770, 61440.0f, 61440.0, 61440, 61440, 61440, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 0, 0, 0, 0, INT64_C(4294967296), 0x7C00, 0x4F80, 4294967296.0f, 4294967296.0, 0, 0, UINT64_C(4294967296), 0x7F, 0x7C, 0x9F, 0x1F, 0x1F),
    R(1, 1, 1, 1, 1, INT64_C(9007199254740993), 0x7C00, 0x5A00, 9007199254740992.0f, 9007199254740992.0, 1, 1, UINT64_C(9007199254740993), 0x7F, 0x7C, 0xB4, 0x1F, 0x1F),
    R(1, 0, 0, 0, 0, INT64_MIN, 0x7C00, 0x5F00, 0x1p+63f, 0x1p+63, 0, 0, UINT64_C(9223372036854775808), 0x7F, 0x7C, 0xBE, 0x1F, 0x1F),
    R(1, 1, 1, 1, 1, INT64_C(-9223372036854775807), 0x7C00, 0x5F00, 0x1p+63f, 0x1p+63, 1, 1, UINT64_C(9223372036854775809), 0x7F, 0x7C, 0xBE, 0x1F, 0x1F),
    R(1, 0, 0, 0, 0, INT64_C(-9223371487098961920), 0x7C00, 0x5F00, 0x1p+63f, 0x1.000001p+63, 0, 0, UINT64_C(9223372586610589696), 0x7F, 0x7C, 0xBE, 0x1F, 0x1F),
    R(1, 1, 1, 1, 1, INT64_C(-9223371487098961919), 0x7C00, 0x5F00, 0x1.000002p+63f, 0x1.000001p+63, 1, 1, UINT64_C(9223372586610589697), 0x7F, 0x7C, 0xBE, 0x1F, 0x1F),
    R(1, 0, 0, 0, 0, INT64_C(-9223370387587334144), 0x7C00, 0x5F00, 0x1.000004p+63f, 0x1.000003p+63, 0, 0, UINT64_C(9223373686122217472), 0x7F, 0x7C, 0xBE, 0x1F, 0x1F),
    R(1, 0, 0, 1024, 1024, INT64_C(-9223372036854774784), 0x7C00, 0x5F00, 0x1p+63f, 0x1p+63, 1024, 1024, UINT64_C(9223372036854776832), 0x7F, 0x7C, 0xBE, 0x1F, 0x1F),
    R(1, 1, 1, 1025, 1025, INT64_C(-9223372036854774783), 0x7C00, 0x5F00, 0x1p+63f, 0x1.0000000000001p+63, 1025, 1025, UINT64_C(9223372036854776833), 0x7F, 0x7C, 0xBE, 0x1F, 0x1F),
    R(1, 255, -1, -1025, -1025, -1025, 0x7C00, 0x5F80, 0x1p+64f, 0x1.fffffffffffffp+63, 64511, 4294966271u, UINT64_C(18446744073709550591), 0x7F, 0x7C, 0xBF, 0x1F, 0x1F),
    R(1, 0, 0, -1024, -1024, -1024, 0x7C00, 0x5F80, 0x1p+64f, 0x1p+64, 64512, 4294966272u, UINT64_C(18446744073709550592), 0x7F, 0x7C, 0xBF, 0x1F, 0x1F),
    R(1, 255, -1, -1, -1, -1, 0x7C00, 0x5F80, 0x1p+64f, 0x1p+64, 65535, UINT32_MAX, UINT64_MAX, 0x7F, 0x7C, 0xBF, 0x1F, 0x1F),
};

/* ---- float8_e4m3fn (bit patterns): no infinity, S.1111.111 is NaN -------------- */

static const uint8_t float8_e4m3fn_src[] = {
    0x00, 0x80, 0x01, /* 2^-9, the smallest */
    0x07,             /* 7 * 2^-9, the largest subnormal */
    0x08,             /* 2^-6, the smallest normal */
    0x38,             /* 1 */
    0x39,             /* 1.125: a float8_e5m2 tie, to even 1 */
    0x3B,             /* 1.375: a float8_e5m2 tie, to even 1.5 */
    0xC4,             /* -3 */
    0x6F,             /* 120 */
    0x7E, 0xFE,       /* ±448, the largest */
    0x7F, 0xFF,       /* ±NaN */
};
static const every_dtype float8_e4m3fn_want[] = {
    ZERO_ROW,
    NEGATIVE_ZERO_ROW,
    R(1, 0, 0, 0, 0, 0, 0x1800, 0x3B00, 0.001953125f, 0.001953125, 0, 0, 0, 0x01, 0x18, 0x76, 0x00, 0x00),
    R(1, 0, 0, 0, 0, 0, 0x2300, 0x3C60, 0.013671875f, 0.013671875, 0, 0, 0, 0x07, 0x23, 0x79, 0x00, 0x00),
    R(1, 0, 0, 0, 0, 0, 0x2400, 0x3C80, 0.015625f, 0.015625, 0, 0, 0, 0x08, 0x24, 0x79, 0x00, 0x00),
    R(1, 1, 1, 1, 1, 1, 0x3C00, 0x3F80, 1.0f, 1.0, 1, 1, 1, 0x38, 0x3C, 0x7F, 0x08, 0x0C),
    R(1, 1, 1, 1, 1, 1, 0x3C80, 0x3F90, 1.125f, 1.125, 1, 1, 1, 0x39, 0x3C, 0x7F, 0x09, 0x0C),
    R(1, 1, 1, 1, 1, 1, 0x3D80, 0x3FB0, 1.375f, 1.375, 1, 1, 1, 0x3B, 0x3E, 0x7F, 0x0B, 0x0E),
    R(1, 0, -3, -3, -3, -3, 0xC200, 0xC040, -3.0f, -3.0, 0, 0, 0, 0xC4, 0xC2, 0x81, 0x34, 0x32),
    R(1, 120, 120, 120, 120, 120, 0x5780, 0x42F0, 120.0f, 120.0, 120, 120, 120, 0x6F, 0x58, 0x86, 0x1F, 0x1F),
    R(1, 255, 127, 448, 448, 448, 0x5F00, 0x43E0, 448.0f, 448.0, 448, 448, 448, 0x7E, 0x5F, 0x88, 0x1F, 0x1F),
    R(1, 0, -128, -448, -448, -448, 0xDF00, 0xC3E0, -448.0f, -448.0, 0, 0, 0, 0xFE, 0xDF, 0x88, 0x3F, 0x3F),
    R(1, 0, 0, 0, 0, 0, 0x7E00, 0x7FC0, NAN, NAN, 0, 0, 0, 0x7F, 0x7E, 0xFF, 0x1F, 0x1F),
    R(1, 0, 0, 0, 0, 0, 0xFE00, 0xFFC0, -NAN, -NAN, 0, 0, 0, 0xFF, 0xFE, 0xFF, 0x1F, 0x1F),
};

/* ---- float8_e5m2 (bit patterns): the upper byte of a float16 ------------------- */

static const uint8_t float8_e5m2_src[] = {
    0x00, 0x80, 0x01, /* 2^-16, the smallest */
    0x03,             /* 3 * 2^-16 */
    0x04,             /* 2^-14, the smallest normal */
    0x14,             /* 2^-10: a float8_e4m3fn tie, to even 0 */
    0x15,             /* 1.25 * 2^-10: above it, to 2^-9 */
    0x1A,             /* 1.5 * 2^-9: a float8_e4m3fn tie, to even 2^-8 */
    0x3C,             /* 1 */
    0xBF,             /* -1.75 */
    0x5F,             /* 448 */
    0x60,             /* 512 */
    0x7B, 0xFB,       /* ±57344, the largest */
    0x7C, 0xFC,       /* ±inf */
    0x7E, 0xFE,       /* ±NaN */
};
static const every_dtype float8_e5m2_want[] = {
    ZERO_ROW,
    NEGATIVE_ZERO_ROW,
    R(1, 0, 0, 0, 0, 0, 0x0100, 0x3780, 0x1p-16f, 0x1p-16, 0, 0, 0, 0x00, 0x01, 0x6F, 0x00, 0x00),
    R(1, 0, 0, 0, 0, 0, 0x0300, 0x3840, 0x1.8p-15f, 0x1.8p-15, 0, 0, 0, 0x00, 0x03, 0x71, 0x00, 0x00),
    R(1, 0, 0, 0, 0, 0, 0x0400, 0x3880, 0x1p-14f, 0x1p-14, 0, 0, 0, 0x00, 0x04, 0x71, 0x00, 0x00),
    R(1, 0, 0, 0, 0, 0, 0x1400, 0x3A80, 0.0009765625f, 0.0009765625, 0, 0, 0, 0x00, 0x14, 0x75, 0x00, 0x00),
    R(1, 0, 0, 0, 0, 0, 0x1500, 0x3AA0, 0.001220703125f, 0.001220703125, 0, 0, 0, 0x01, 0x15, 0x75, 0x00, 0x00),
    R(1, 0, 0, 0, 0, 0, 0x1A00, 0x3B40, 0.0029296875f, 0.0029296875, 0, 0, 0, 0x02, 0x1A, 0x77, 0x00, 0x00),
    R(1, 1, 1, 1, 1, 1, 0x3C00, 0x3F80, 1.0f, 1.0, 1, 1, 1, 0x38, 0x3C, 0x7F, 0x08, 0x0C),
    R(1, 0, -1, -1, -1, -1, 0xBF00, 0xBFE0, -1.75f, -1.75, 0, 0, 0, 0xBE, 0xBF, 0x80, 0x2E, 0x2F),
    R(1, 255, 127, 448, 448, 448, 0x5F00, 0x43E0, 448.0f, 448.0, 448, 448, 448, 0x7E, 0x5F, 0x88, 0x1F, 0x1F),
    R(1, 255, 127, 512, 512, 512, 0x6000, 0x4400, 512.0f, 512.0, 512, 512, 512, 0x7F, 0x60, 0x88, 0x1F, 0x1F),
    R(1, 255, 127, 32767, 57344, 57344, 0x7B00, 0x4760, 57344.0f, 57344.0, 57344, 57344, 57344, 0x7F, 0x7B, 0x8F, 0x1F, 0x1F),
    R(1, 0, -128, -32768, -57344, -57344, 0xFB00, 0xC760, -57344.0f, -57344.0, 0, 0, 0, 0xFF, 0xFB, 0x8F, 0x3F, 0x3F),
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F80, INFINITY, INFINITY, 65535, UINT32_MAX, UINT64_MAX, 0x7F, 0x7C, 0xFF, 0x1F, 0x1F),
    R(1, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xFF80, -INFINITY, -INFINITY, 0, 0, 0, 0xFF, 0xFC, 0xFF, 0x3F, 0x3F),
    R(1, 0, 0, 0, 0, 0, 0x7E00, 0x7FC0, NAN, NAN, 0, 0, 0, 0x7F, 0x7E, 0xFF, 0x1F, 0x1F),
    R(1, 0, 0, 0, 0, 0, 0xFE00, 0xFFC0, -NAN, -NAN, 0, 0, 0, 0xFF, 0xFE, 0xFF, 0x1F, 0x1F),
};

/* ---- float8_e8m0fnu (bit patterns): 2^(b - 127), 0xFF NaN; into it by c10's rule ---- */

static const uint8_t float8_e8m0fnu_src[] = {
    0x00,  /* 2^-127, the smallest: a float32 subnormal */
    0x01,  /* 2^-126 */
    0x76,  /* 2^-9 */
    0x75,  /* 2^-10 */
    0x6F,  /* 2^-16 */
    0x6E,  /* 2^-17 */
    0x7E,  /* 0.5 */
    0x7F,  /* 1 */
    0x80,  /* 2 */
    0x81,  /* 4 */
    0x82,  /* 8 */
    0x86,  /* 128 */
    0x87,  /* 256 */
    0x8E,  /* 32768 */
    0x8F,  /* 65536: beyond float16 and uint16 */
    0x9E,  /* 2^31 */
    0x9F,  /* 2^32 */
    0xBE,  /* 2^63 */
    0xBF,  /* 2^64 */
    0xFE,  /* 2^127, the largest */
    0xFF,  /* NaN */
};
static const every_dtype float8_e8m0fnu_want[] = {
    R(1, 0, 0, 0, 0, INT64_C(0), 0x0000, 0x0040, 0x1p-127f, 0x1p-127, 0, 0u, UINT64_C(0), 0x00, 0x00, 0x00, 0x00, 0x00),
    R(1, 0, 0, 0, 0, INT64_C(0), 0x0000, 0x0080, 0x1p-126f, 0x1p-126, 0, 0u, UINT64_C(0), 0x00, 0x00, 0x01, 0x00, 0x00),
    R(1, 0, 0, 0, 0, INT64_C(0), 0x1800, 0x3B00, 0x1p-9f, 0x1p-9, 0, 0u, UINT64_C(0), 0x01, 0x18, 0x76, 0x00, 0x00),
    R(1, 0, 0, 0, 0, INT64_C(0), 0x1400, 0x3A80, 0x1p-10f, 0x1p-10, 0, 0u, UINT64_C(0), 0x00, 0x14, 0x75, 0x00, 0x00),
    R(1, 0, 0, 0, 0, INT64_C(0), 0x0100, 0x3780, 0x1p-16f, 0x1p-16, 0, 0u, UINT64_C(0), 0x00, 0x01, 0x6F, 0x00, 0x00),
    R(1, 0, 0, 0, 0, INT64_C(0), 0x0080, 0x3700, 0x1p-17f, 0x1p-17, 0, 0u, UINT64_C(0), 0x00, 0x00, 0x6E, 0x00, 0x00),
    R(1, 0, 0, 0, 0, INT64_C(0), 0x3800, 0x3F00, 0x1p-1f, 0x1p-1, 0, 0u, UINT64_C(0), 0x30, 0x38, 0x7E, 0x04, 0x08),
    R(1, 1, 1, 1, 1, INT64_C(1), 0x3C00, 0x3F80, 0x1p+0f, 0x1p+0, 1, 1u, UINT64_C(1), 0x38, 0x3C, 0x7F, 0x08, 0x0C),
    R(1, 2, 2, 2, 2, INT64_C(2), 0x4000, 0x4000, 0x1p+1f, 0x1p+1, 2, 2u, UINT64_C(2), 0x40, 0x40, 0x80, 0x10, 0x10),
    R(1, 4, 4, 4, 4, INT64_C(4), 0x4400, 0x4080, 0x1p+2f, 0x1p+2, 4, 4u, UINT64_C(4), 0x48, 0x44, 0x81, 0x18, 0x14),
    R(1, 8, 8, 8, 8, INT64_C(8), 0x4800, 0x4100, 0x1p+3f, 0x1p+3, 8, 8u, UINT64_C(8), 0x50, 0x48, 0x82, 0x1F, 0x18),
    R(1, 128, 127, 128, 128, INT64_C(128), 0x5800, 0x4300, 0x1p+7f, 0x1p+7, 128, 128u, UINT64_C(128), 0x70, 0x58, 0x86, 0x1F, 0x1F),
    R(1, 255, 127, 256, 256, INT64_C(256), 0x5C00, 0x4380, 0x1p+8f, 0x1p+8, 256, 256u, UINT64_C(256), 0x78, 0x5C, 0x87, 0x1F, 0x1F),
    R(1, 255, 127, 32767, 32768, INT64_C(32768), 0x7800, 0x4700, 0x1p+15f, 0x1p+15, 32768, 32768u, UINT64_C(32768), 0x7F, 0x78, 0x8E, 0x1F, 0x1F),
    R(1, 255, 127, 32767, 65536, INT64_C(65536), 0x7C00, 0x4780, 0x1p+16f, 0x1p+16, 65535, 65536u, UINT64_C(65536), 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 255, 127, 32767, INT32_MAX, INT64_C(2147483648), 0x7C00, 0x4F00, 0x1p+31f, 0x1p+31, 65535, 2147483648u, UINT64_C(2147483648), 0x7F, 0x7C, 0x9E, 0x1F, 0x1F),
    R(1, 255, 127, 32767, INT32_MAX, INT64_C(4294967296), 0x7C00, 0x4F80, 0x1p+32f, 0x1p+32, 65535, UINT32_MAX, UINT64_C(4294967296), 0x7F, 0x7C, 0x9F, 0x1F, 0x1F),
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F00, 0x1p+63f, 0x1p+63, 65535, UINT32_MAX, UINT64_C(9223372036854775808), 0x7F, 0x7C, 0xBE, 0x1F, 0x1F),
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F80, 0x1p+64f, 0x1p+64, 65535, UINT32_MAX, UINT64_MAX, 0x7F, 0x7C, 0xBF, 0x1F, 0x1F),
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F00, 0x1p+127f, 0x1p+127, 65535, UINT32_MAX, UINT64_MAX, 0x7F, 0x7C, 0xFE, 0x1F, 0x1F),
    R(1, 0, 0, 0, 0, INT64_C(0), 0x7E00, 0x7FC0, NAN, NAN, 0, 0u, UINT64_C(0), 0x7F, 0x7E, 0xFF, 0x1F, 0x1F),
};

/* ---- float4_e2m1fn_x2 (bytes): copies only to itself, byte for byte ---------- */

static const uint8_t float4_e2m1fn_x2_src[] = {0x00, 0x21, 0xF7, 0x88, 0x5A};
static const every_dtype float4_e2m1fn_x2_want[] = {P(0x00), P(0x21), P(0xF7), P(0x88), P(0x5A)};

/* ---- float6_e2m3fn (bit patterns, the low 6 bits read): saturate, NaN -> +7.5 --- */

static const uint8_t float6_e2m3fn_src[] = {
    0x00,  /* 0 */
    0x20,  /* -0 */
    0x01,  /* 0.125, the smallest */
    0x02,  /* 0.25 */
    0x07,  /* 0.875, the largest subnormal */
    0x08,  /* 1 */
    0x09,  /* 1.125 */
    0x0D,  /* 1.625 */
    0x16,  /* 3.5 */
    0x1E,  /* 7 */
    0x1F,  /* 7.5, the largest */
    0x3F,  /* -7.5 */
    0x2C,  /* -1.5 */
    0x28,  /* -1 */
    0xC9,  /* 1.125 with the high bits set, which are ignored */
    0x7F,  /* -7.5 with a high bit set */
};
static const every_dtype float6_e2m3fn_want[] = {
    R(0, 0, 0, 0, 0, INT64_C(0), 0x0000, 0x0000, 0.0f, 0.0, 0, 0u, UINT64_C(0), 0x00, 0x00, 0x00, 0x00, 0x00),
    R(0, 0, 0, 0, 0, INT64_C(0), 0x8000, 0x8000, -0.0f, -0.0, 0, 0u, UINT64_C(0), 0x80, 0x80, 0x00, 0x20, 0x20),
    R(1, 0, 0, 0, 0, INT64_C(0), 0x3000, 0x3E00, 0x1p-3f, 0x1p-3, 0, 0u, UINT64_C(0), 0x20, 0x30, 0x7C, 0x01, 0x02),
    R(1, 0, 0, 0, 0, INT64_C(0), 0x3400, 0x3E80, 0x1p-2f, 0x1p-2, 0, 0u, UINT64_C(0), 0x28, 0x34, 0x7D, 0x02, 0x04),
    R(1, 0, 0, 0, 0, INT64_C(0), 0x3B00, 0x3F60, 0x1.cp-1f, 0x1.cp-1, 0, 0u, UINT64_C(0), 0x36, 0x3B, 0x7F, 0x07, 0x0B),
    R(1, 1, 1, 1, 1, INT64_C(1), 0x3C00, 0x3F80, 0x1p+0f, 0x1p+0, 1, 1u, UINT64_C(1), 0x38, 0x3C, 0x7F, 0x08, 0x0C),
    R(1, 1, 1, 1, 1, INT64_C(1), 0x3C80, 0x3F90, 0x1.2p+0f, 0x1.2p+0, 1, 1u, UINT64_C(1), 0x39, 0x3C, 0x7F, 0x09, 0x0C),
    R(1, 1, 1, 1, 1, INT64_C(1), 0x3E80, 0x3FD0, 0x1.ap+0f, 0x1.ap+0, 1, 1u, UINT64_C(1), 0x3D, 0x3E, 0x80, 0x0D, 0x0E),
    R(1, 3, 3, 3, 3, INT64_C(3), 0x4300, 0x4060, 0x1.cp+1f, 0x1.cp+1, 3, 3u, UINT64_C(3), 0x46, 0x43, 0x81, 0x16, 0x13),
    R(1, 7, 7, 7, 7, INT64_C(7), 0x4700, 0x40E0, 0x1.cp+2f, 0x1.cp+2, 7, 7u, UINT64_C(7), 0x4E, 0x47, 0x82, 0x1E, 0x17),
    R(1, 7, 7, 7, 7, INT64_C(7), 0x4780, 0x40F0, 0x1.ep+2f, 0x1.ep+2, 7, 7u, UINT64_C(7), 0x4F, 0x48, 0x82, 0x1F, 0x18),
    R(1, 0, -7, -7, -7, INT64_C(-7), 0xC780, 0xC0F0, -0x1.ep+2f, -0x1.ep+2, 0, 0u, UINT64_C(0), 0xCF, 0xC8, 0x82, 0x3F, 0x38),
    R(1, 0, -1, -1, -1, INT64_C(-1), 0xBE00, 0xBFC0, -0x1.8p+0f, -0x1.8p+0, 0, 0u, UINT64_C(0), 0xBC, 0xBE, 0x80, 0x2C, 0x2E),
    R(1, 0, -1, -1, -1, INT64_C(-1), 0xBC00, 0xBF80, -0x1p+0f, -0x1p+0, 0, 0u, UINT64_C(0), 0xB8, 0xBC, 0x7F, 0x28, 0x2C),
    R(1, 1, 1, 1, 1, INT64_C(1), 0x3C80, 0x3F90, 0x1.2p+0f, 0x1.2p+0, 1, 1u, UINT64_C(1), 0x39, 0x3C, 0x7F, 0xC9, 0x0C),
    R(1, 0, -7, -7, -7, INT64_C(-7), 0xC780, 0xC0F0, -0x1.ep+2f, -0x1.ep+2, 0, 0u, UINT64_C(0), 0xCF, 0xC8, 0x82, 0x7F, 0x38),
};

/* ---- float6_e3m2fn (bit patterns, the low 6 bits read): saturate, NaN -> +28 ---- */

static const uint8_t float6_e3m2fn_src[] = {
    0x00,  /* 0 */
    0x20,  /* -0 */
    0x01,  /* 0.0625, the smallest */
    0x03,  /* 0.1875 */
    0x04,  /* 0.25, the smallest normal */
    0x0C,  /* 1 */
    0x0D,  /* 1.25 */
    0x0F,  /* 1.75 */
    0x12,  /* 3 */
    0x17,  /* 7 */
    0x1B,  /* 12 */
    0x1E,  /* 24 */
    0x1F,  /* 28, the largest */
    0x3F,  /* -28 */
    0x32,  /* -3 */
    0x8C,  /* 1 with a high bit set */
};
static const every_dtype float6_e3m2fn_want[] = {
    R(0, 0, 0, 0, 0, INT64_C(0), 0x0000, 0x0000, 0.0f, 0.0, 0, 0u, UINT64_C(0), 0x00, 0x00, 0x00, 0x00, 0x00),
    R(0, 0, 0, 0, 0, INT64_C(0), 0x8000, 0x8000, -0.0f, -0.0, 0, 0u, UINT64_C(0), 0x80, 0x80, 0x00, 0x20, 0x20),
    R(1, 0, 0, 0, 0, INT64_C(0), 0x2C00, 0x3D80, 0x1p-4f, 0x1p-4, 0, 0u, UINT64_C(0), 0x18, 0x2C, 0x7B, 0x00, 0x01),
    R(1, 0, 0, 0, 0, INT64_C(0), 0x3200, 0x3E40, 0x1.8p-3f, 0x1.8p-3, 0, 0u, UINT64_C(0), 0x24, 0x32, 0x7D, 0x02, 0x03),
    R(1, 0, 0, 0, 0, INT64_C(0), 0x3400, 0x3E80, 0x1p-2f, 0x1p-2, 0, 0u, UINT64_C(0), 0x28, 0x34, 0x7D, 0x02, 0x04),
    R(1, 1, 1, 1, 1, INT64_C(1), 0x3C00, 0x3F80, 0x1p+0f, 0x1p+0, 1, 1u, UINT64_C(1), 0x38, 0x3C, 0x7F, 0x08, 0x0C),
    R(1, 1, 1, 1, 1, INT64_C(1), 0x3D00, 0x3FA0, 0x1.4p+0f, 0x1.4p+0, 1, 1u, UINT64_C(1), 0x3A, 0x3D, 0x7F, 0x0A, 0x0D),
    R(1, 1, 1, 1, 1, INT64_C(1), 0x3F00, 0x3FE0, 0x1.cp+0f, 0x1.cp+0, 1, 1u, UINT64_C(1), 0x3E, 0x3F, 0x80, 0x0E, 0x0F),
    R(1, 3, 3, 3, 3, INT64_C(3), 0x4200, 0x4040, 0x1.8p+1f, 0x1.8p+1, 3, 3u, UINT64_C(3), 0x44, 0x42, 0x81, 0x14, 0x12),
    R(1, 7, 7, 7, 7, INT64_C(7), 0x4700, 0x40E0, 0x1.cp+2f, 0x1.cp+2, 7, 7u, UINT64_C(7), 0x4E, 0x47, 0x82, 0x1E, 0x17),
    R(1, 14, 14, 14, 14, INT64_C(14), 0x4B00, 0x4160, 0x1.cp+3f, 0x1.cp+3, 14, 14u, UINT64_C(14), 0x56, 0x4B, 0x83, 0x1F, 0x1B),
    R(1, 24, 24, 24, 24, INT64_C(24), 0x4E00, 0x41C0, 0x1.8p+4f, 0x1.8p+4, 24, 24u, UINT64_C(24), 0x5C, 0x4E, 0x84, 0x1F, 0x1E),
    R(1, 28, 28, 28, 28, INT64_C(28), 0x4F00, 0x41E0, 0x1.cp+4f, 0x1.cp+4, 28, 28u, UINT64_C(28), 0x5E, 0x4F, 0x84, 0x1F, 0x1F),
    R(1, 0, -28, -28, -28, INT64_C(-28), 0xCF00, 0xC1E0, -0x1.cp+4f, -0x1.cp+4, 0, 0u, UINT64_C(0), 0xDE, 0xCF, 0x84, 0x3F, 0x3F),
    R(1, 0, -3, -3, -3, INT64_C(-3), 0xC200, 0xC040, -0x1.8p+1f, -0x1.8p+1, 0, 0u, UINT64_C(0), 0xC4, 0xC2, 0x81, 0x34, 0x32),
    R(1, 1, 1, 1, 1, INT64_C(1), 0x3C00, 0x3F80, 0x1p+0f, 0x1p+0, 1, 1u, UINT64_C(1), 0x38, 0x3C, 0x7F, 0x08, 0x8C),
};

/* ---- The tables, by source dtype ------------------------------------------------- */

#define TABLE(dtype, name) \
  { (dtype), name##_src, (int32_t)(sizeof name##_src / sizeof name##_src[0]), name##_want }

const conversion_table conversion_tables[NUM_DTYPES] = {
    TABLE(ST_BOOL, bool),       TABLE(ST_UINT8, uint8),     TABLE(ST_INT8, int8),
    TABLE(ST_INT16, int16),     TABLE(ST_INT32, int32),     TABLE(ST_INT64, int64),
    TABLE(ST_FLOAT16, float16), TABLE(ST_BFLOAT16, bfloat16), TABLE(ST_FLOAT32, float32),
    TABLE(ST_FLOAT64, float64), TABLE(ST_COMPLEX64, complex64), TABLE(ST_COMPLEX128, complex128),
    TABLE(ST_UINT16, uint16),   TABLE(ST_UINT32, uint32),   TABLE(ST_UINT64, uint64),
    TABLE(ST_FLOAT8_E4M3FN, float8_e4m3fn), TABLE(ST_FLOAT8_E5M2, float8_e5m2),
    TABLE(ST_FLOAT8_E8M0FNU, float8_e8m0fnu), TABLE(ST_FLOAT4_E2M1FN_X2, float4_e2m1fn_x2),
    TABLE(ST_FLOAT6_E2M3FN, float6_e2m3fn), TABLE(ST_FLOAT6_E3M2FN, float6_e3m2fn),
};

/* Every table has as many expected rows as source values. */
#define SAME_LENGTH(name) (sizeof name##_src / sizeof name##_src[0] == sizeof name##_want / sizeof name##_want[0])
_Static_assert(SAME_LENGTH(bool) && SAME_LENGTH(uint8) && SAME_LENGTH(int8) && SAME_LENGTH(int16) &&
                   SAME_LENGTH(int32) && SAME_LENGTH(int64) && SAME_LENGTH(float16) && SAME_LENGTH(bfloat16) &&
                   SAME_LENGTH(float32) && SAME_LENGTH(float64) && SAME_LENGTH(complex64) &&
                   SAME_LENGTH(complex128) && SAME_LENGTH(uint16) && SAME_LENGTH(uint32) && SAME_LENGTH(uint64) &&
                   SAME_LENGTH(float8_e4m3fn) && SAME_LENGTH(float8_e5m2) && SAME_LENGTH(float8_e8m0fnu) &&
                   SAME_LENGTH(float4_e2m1fn_x2) && SAME_LENGTH(float6_e2m3fn) && SAME_LENGTH(float6_e3m2fn),
               "a conversion table has a row for each source value");
