/* st_copy and st_to between every pair of the 12 dtypes (API.md, Conversion
 * rules), on vectors of special values whose expected results are written
 * out below by hand: one table per source dtype, one row per source value,
 * one column per destination dtype.
 *
 * Columns: bool, uint8, int8, int16, int32, int64, float16 bits, bfloat16
 * bits, float32, float64. A real value converts to complex as (the float32
 * or float64 column, +0), so the R() rows fill the complex columns from
 * those; complex sources spell out every column with C(). */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "copy_support.h"

#define R(b, u8, i8, i16, i32, i64, f16, bf16, f32, f64) \
  { (b), (u8), (i8), (i16), (i32), (i64), (f16), (bf16), (f32), (f64), {(f32), 0.0f}, {(f64), 0.0} }
#define C(b, u8, i8, i16, i32, i64, f16, bf16, f32, f64, c64_re, c64_im, c128_re, c128_im) \
  { (b), (u8), (i8), (i16), (i32), (i64), (f16), (bf16), (f32), (f64), {(c64_re), (c64_im)}, {(c128_re), (c128_im)} }

#define ZERO_ROW R(0, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0)
#define ONE_ROW R(1, 1, 1, 1, 1, 1, 0x3C00, 0x3F80, 1.0f, 1.0)
#define MINUS_ONE_ROW R(1, 255, -1, -1, -1, -1, 0xBC00, 0xBF80, -1.0f, -1.0)
#define NEGATIVE_ZERO_ROW R(0, 0, 0, 0, 0, 0, 0x8000, 0x8000, -0.0f, -0.0)
/* float → integer saturates; → bool is "nonzero"; NaN → 0 for integers */
#define INF_ROW R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F80, INFINITY, INFINITY)
#define MINUS_INF_ROW R(1, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xFF80, -INFINITY, -INFINITY)
#define NAN_ROW R(1, 0, 0, 0, 0, 0, 0x7E00, 0x7FC0, NAN, NAN)
#define MINUS_NAN_ROW R(1, 0, 0, 0, 0, 0, 0xFE00, 0xFFC0, -NAN, -NAN)

/* ---- bool ------------------------------------------------------------------ */

static const uint8_t bool_src[] = {0, 1};
static const every_dtype bool_want[] = {ZERO_ROW, ONE_ROW};

/* ---- uint8: widening keeps the value; int8 wraps ---------------------------- */

static const uint8_t uint8_src[] = {0, 1, 127, 128, 200, 255};
static const every_dtype uint8_want[] = {
    ZERO_ROW,
    ONE_ROW,
    R(1, 127, 127, 127, 127, 127, 0x57F0, 0x42FE, 127.0f, 127.0),
    R(1, 128, -128, 128, 128, 128, 0x5800, 0x4300, 128.0f, 128.0),
    R(1, 200, -56, 200, 200, 200, 0x5A40, 0x4348, 200.0f, 200.0),
    R(1, 255, -1, 255, 255, 255, 0x5BF8, 0x437F, 255.0f, 255.0),
};

/* ---- int8: uint8 wraps ------------------------------------------------------ */

static const int8_t int8_src[] = {0, 1, -1, 127, -128, -56};
static const every_dtype int8_want[] = {
    ZERO_ROW,
    ONE_ROW,
    MINUS_ONE_ROW,
    R(1, 127, 127, 127, 127, 127, 0x57F0, 0x42FE, 127.0f, 127.0),
    R(1, 128, -128, -128, -128, -128, 0xD800, 0xC300, -128.0f, -128.0),
    R(1, 200, -56, -56, -56, -56, 0xD300, 0xC260, -56.0f, -56.0),
};

/* ---- int16 ------------------------------------------------------------------ */

static const int16_t int16_src[] = {0, -1, 200, -129, 32767, -32768, 2049, 300};
static const every_dtype int16_want[] = {
    ZERO_ROW,
    MINUS_ONE_ROW,
    R(1, 200, -56, 200, 200, 200, 0x5A40, 0x4348, 200.0f, 200.0),
    R(1, 127, 127, -129, -129, -129, 0xD808, 0xC301, -129.0f, -129.0),  /* -129 wraps to 127 in 8 bits */
    R(1, 255, -1, 32767, 32767, 32767, 0x7800, 0x4700, 32767.0f, 32767.0), /* rounds to 32768 in 16 bits */
    R(1, 0, 0, -32768, -32768, -32768, 0xF800, 0xC700, -32768.0f, -32768.0),
    R(1, 1, 1, 2049, 2049, 2049, 0x6800, 0x4500, 2049.0f, 2049.0), /* float16 tie 2048|2050 → even 2048 */
    R(1, 44, 44, 300, 300, 300, 0x5CB0, 0x4396, 300.0f, 300.0),
};

/* ---- int32 ------------------------------------------------------------------ */

static const int32_t int32_src[] = {0, -1, 70000, -129, INT32_MAX, INT32_MIN, 16777217, 2051, 259};
static const every_dtype int32_want[] = {
    ZERO_ROW,
    MINUS_ONE_ROW,
    R(1, 112, 112, 4464, 70000, 70000, 0x7C00, 0x4789, 70000.0f, 70000.0), /* 0x11170; float16 overflows */
    R(1, 127, 127, -129, -129, -129, 0xD808, 0xC301, -129.0f, -129.0),
    R(1, 255, -1, -1, INT32_MAX, INT32_MAX, 0x7C00, 0x4F00, 2147483648.0f, 2147483647.0),
    R(1, 0, 0, 0, INT32_MIN, INT32_MIN, 0xFC00, 0xCF00, -2147483648.0f, -2147483648.0),
    R(1, 1, 1, 1, 16777217, 16777217, 0x7C00, 0x4B80, 16777216.0f, 16777217.0), /* float32 tie → even */
    R(1, 3, 3, 2051, 2051, 2051, 0x6802, 0x4500, 2051.0f, 2051.0),              /* float16 tie → 2052 */
    R(1, 3, 3, 259, 259, 259, 0x5C0C, 0x4382, 259.0f, 259.0),                   /* bfloat16 tie → 260 */
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
                                    65520};
static const every_dtype int64_want[] = {
    ZERO_ROW,
    MINUS_ONE_ROW,
    R(1, 255, -1, -1, -1, INT64_MAX, 0x7C00, 0x5F00, 0x1p63f, 0x1p63),
    R(1, 0, 0, 0, 0, INT64_MIN, 0xFC00, 0xDF00, -0x1p63f, -0x1p63),
    /* Just above a bfloat16 tie: rounded once it goes up to 2^32 + 2^25
     * (0x4F81); through float32 (2^32 + 2^24, a tie) it would go to even 2^32. */
    R(1, 1, 1, 1, 16777217, INT64_C(4311744513), 0x7C00, 0x4F81, 4311744512.0f, 4311744513.0),
    R(1, 0, 0, 0, 50331648, INT64_C(4345298944), 0x7C00, 0x4F82, 4345298944.0f, 4345298944.0), /* tie → even */
    R(1, 1, 1, 1, 1, INT64_C(9007199254740993), 0x7C00, 0x5A00, 0x1p53f, 0x1p53), /* float64 tie → even */
    R(1, 212, -44, -300, -300, -300, 0xDCB0, 0xC396, -300.0f, -300.0),
    R(1, 240, -16, -16, 65520, 65520, 0x7C00, 0x4780, 65520.0f, 65520.0), /* float16: tie 65504|65536 → inf */
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
};
static const every_dtype float16_want[] = {
    ZERO_ROW,
    NEGATIVE_ZERO_ROW,
    ONE_ROW,
    R(1, 0, -1, -1, -1, -1, 0xBE00, 0xBFC0, -1.5f, -1.5), /* truncates to -1; uint8 saturates to 0 */
    R(1, 255, 127, 300, 300, 300, 0x5CB2, 0x4396, 300.5f, 300.5),
    R(1, 255, 127, 32767, 65504, 65504, 0x7BFF, 0x4780, 65504.0f, 65504.0), /* bfloat16 rounds up to 65536 */
    R(1, 0, -128, -32768, -65504, -65504, 0xFBFF, 0xC780, -65504.0f, -65504.0),
    INF_ROW,
    MINUS_INF_ROW,
    NAN_ROW,
    R(1, 0, 0, 0, 0, 0, 0x3800, 0x3F00, 0.5f, 0.5),
    R(1, 0, 0, 0, 0, 0, 0x0001, 0x3380, 0x1p-24f, 0x1p-24),
    MINUS_NAN_ROW,
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
};
static const every_dtype bfloat16_want[] = {
    ZERO_ROW,
    NEGATIVE_ZERO_ROW,
    R(1, 1, 1, 1, 1, 1, 0x3C08, 0x3F81, 1.0078125f, 1.0078125),
    R(1, 0, -128, -320, -320, -320, 0xDD00, 0xC3A0, -320.0f, -320.0),
    R(1, 255, 127, 32767, 65536, 65536, 0x7C00, 0x4780, 65536.0f, 65536.0),
    R(1, 255, 127, 32767, 65280, 65280, 0x7BF8, 0x477F, 65280.0f, 65280.0),
    R(1, 0, 0, 0, 0, 0, 0x0000, 0x3300, 0x1p-25f, 0x1p-25),         /* float16: half the smallest → even 0 */
    R(1, 0, 0, 0, 0, 0, 0x0001, 0x3340, 0x1.8p-25f, 0x1.8p-25),     /* three quarters of it → up */
    INF_ROW,
    MINUS_INF_ROW,
    NAN_ROW,
    R(1, 255, 127, 32767, INT32_MAX, INT64_C(2147483648), 0x7C00, 0x4F00, 0x1p31f, 0x1p31),
    R(1, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xDF00, -0x1p63f, -0x1p63), /* int64: exactly its min */
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F00, 0x1p63f, 0x1p63),    /* one past int64's max */
};

/* ---- float32 ------------------------------------------------------------------ */

static const float float32_src[] = {
    0.0f, -0.0f, 0.5f, -1.5f, 300.5f, -200.5f, 65504.0f, 65520.0f, 65519.99609375f, 1.00390625f,
    1.01171875f, 3.0e9f, -1e20f, INFINITY, -INFINITY, NAN, -NAN, FLT_MAX, -0x1p-26f, 0x1.8p-24f,
};
static const every_dtype float32_want[] = {
    ZERO_ROW,
    NEGATIVE_ZERO_ROW,
    R(1, 0, 0, 0, 0, 0, 0x3800, 0x3F00, 0.5f, 0.5), /* → bool: nonzero, though it truncates to 0 */
    R(1, 0, -1, -1, -1, -1, 0xBE00, 0xBFC0, -1.5f, -1.5),
    R(1, 255, 127, 300, 300, 300, 0x5CB2, 0x4396, 300.5f, 300.5),
    R(1, 0, -128, -200, -200, -200, 0xDA44, 0xC348, -200.5f, -200.5), /* bfloat16 tie 200|201 → even 200 */
    R(1, 255, 127, 32767, 65504, 65504, 0x7BFF, 0x4780, 65504.0f, 65504.0),
    R(1, 255, 127, 32767, 65520, 65520, 0x7C00, 0x4780, 65520.0f, 65520.0), /* float16: tie → inf */
    R(1, 255, 127, 32767, 65519, 65519, 0x7BFF, 0x4780, 65519.99609375f, 65519.99609375), /* just below it */
    R(1, 1, 1, 1, 1, 1, 0x3C04, 0x3F80, 1.00390625f, 1.00390625), /* bfloat16 tie → even, down */
    R(1, 1, 1, 1, 1, 1, 0x3C0C, 0x3F82, 1.01171875f, 1.01171875), /* bfloat16 tie → even, up */
    R(1, 255, 127, 32767, INT32_MAX, INT64_C(3000000000), 0x7C00, 0x4F33, 3.0e9f, 3.0e9),
    R(1, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xE0AD, -1e20f, (double)-1e20f),
    INF_ROW,
    MINUS_INF_ROW,
    NAN_ROW,
    MINUS_NAN_ROW,
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F80, FLT_MAX, (double)FLT_MAX), /* bfloat16 overflows */
    R(1, 0, 0, 0, 0, 0, 0x8000, 0xB280, -0x1p-26f, -0x1p-26),   /* float16 underflows to -0 */
    R(1, 0, 0, 0, 0, 0, 0x0002, 0x33C0, 0x1.8p-24f, 0x1.8p-24), /* float16 subnormal tie 1|2 → 2 */
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
                                     -0.99};
static const every_dtype float64_want[] = {
    ZERO_ROW,
    NEGATIVE_ZERO_ROW,
    /* Rounded once: just above the float16 tie 1 | 1 + 2^-10, so up (0x3C01);
     * through float32 it would be the tie 1 + 2^-11 and go to even 1 (0x3C00). */
    R(1, 1, 1, 1, 1, 1, 0x3C01, 0x3F80, 0x1.002p0f, 0x1.0020000001p0),
    /* The same for bfloat16: 0x3F81 once, 0x3F80 through float32. */
    R(1, 1, 1, 1, 1, 1, 0x3C04, 0x3F81, 0x1.01p0f, 0x1.01000004p0),
    R(1, 255, 127, 300, 300, 300, 0x5CB2, 0x4396, 300.5f, 300.5),
    R(1, 0, -1, -1, -1, -1, 0xBE00, 0xBFC0, -1.5f, -1.5),
    /* float16 65504 once; through float32 (65520, a tie) it would be inf. */
    R(1, 255, 127, 32767, 65519, 65519, 0x7BFF, 0x4780, 65520.0f, 0x1.ffdffffffff8p15),
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F80, INFINITY, 1e300),
    R(1, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xFF80, -INFINITY, -1e300),
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F00, 0x1p63f, 0x1p63),
    R(1, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xDF00, -0x1p63f, -0x1p63),
    R(1, 255, 127, 32767, INT32_MAX, INT64_C(2147483647), 0x7C00, 0x4F00, 0x1p31f, 2147483647.9),
    R(1, 0, -128, -32768, INT32_MIN, INT64_C(-2147483649), 0xFC00, 0xCF00, -0x1p31f, -2147483649.5),
    INF_ROW,
    MINUS_INF_ROW,
    NAN_ROW,
    R(1, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 1e-310),
    R(1, 255, 127, 255, 255, 255, 0x5C00, 0x4380, 255.99f, 255.99),
    R(1, 0, 0, 0, 0, 0, 0xBBEC, 0xBF7D, -0.99f, -0.99),
};

/* ---- complex64: → real keeps the real part; → bool looks at both parts -------- */

static const float complex64_src[][2] = {
    {0.0f, 0.0f},  {0.0f, 1.0f}, {-0.0f, 0.0f},         {300.5f, -2.0f},   {-1.5f, 0.0f},
    {NAN, 0.0f},   {0.0f, NAN},  {INFINITY, -INFINITY}, {1e10f, 65520.0f}, {1.00390625f, 5.0f},
};
static const every_dtype complex64_want[] = {
    C(0, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0.0f, 0.0f, 0.0, 0.0),
    C(1, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0.0f, 1.0f, 0.0, 1.0),
    C(0, 0, 0, 0, 0, 0, 0x8000, 0x8000, -0.0f, -0.0, -0.0f, 0.0f, -0.0, 0.0),
    C(1, 255, 127, 300, 300, 300, 0x5CB2, 0x4396, 300.5f, 300.5, 300.5f, -2.0f, 300.5, -2.0),
    C(1, 0, -1, -1, -1, -1, 0xBE00, 0xBFC0, -1.5f, -1.5, -1.5f, 0.0f, -1.5, 0.0),
    C(1, 0, 0, 0, 0, 0, 0x7E00, 0x7FC0, NAN, NAN, NAN, 0.0f, NAN, 0.0),
    C(1, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0.0f, NAN, 0.0, NAN),
    C(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F80, INFINITY, INFINITY, INFINITY, -INFINITY, INFINITY,
      -INFINITY),
    C(1, 255, 127, 32767, INT32_MAX, INT64_C(10000000000), 0x7C00, 0x5015, 1e10f, 1e10, 1e10f, 65520.0f, 1e10,
      65520.0),
    C(1, 1, 1, 1, 1, 1, 0x3C04, 0x3F80, 1.00390625f, 1.00390625, 1.00390625f, 5.0f, 1.00390625, 5.0),
};

/* ---- complex128 --------------------------------------------------------------- */

static const double complex128_src[][2] = {
    {0.0, 0.0},   {-0.0, -0.0},  {0.0, 1e-310},        {0x1.0020000001p0, 1e300},
    {-1e300, NAN}, {300.5, 0.0}, {-2147483649.5, 3.0}, {NAN, NAN},
};
static const every_dtype complex128_want[] = {
    C(0, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0.0f, 0.0f, 0.0, 0.0),
    C(0, 0, 0, 0, 0, 0, 0x8000, 0x8000, -0.0f, -0.0, -0.0f, -0.0f, -0.0, -0.0),
    /* nonzero only in a subnormal imaginary part, which float32 flushes to +0 */
    C(1, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0.0f, 0.0f, 0.0, 1e-310),
    C(1, 1, 1, 1, 1, 1, 0x3C01, 0x3F80, 0x1.002p0f, 0x1.0020000001p0, 0x1.002p0f, INFINITY, 0x1.0020000001p0,
      1e300),
    C(1, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xFF80, -INFINITY, -1e300, -INFINITY, NAN, -1e300, NAN),
    C(1, 255, 127, 300, 300, 300, 0x5CB2, 0x4396, 300.5f, 300.5, 300.5f, 0.0f, 300.5, 0.0),
    C(1, 0, -128, -32768, INT32_MIN, INT64_C(-2147483649), 0xFC00, 0xCF00, -0x1p31f, -2147483649.5, -0x1p31f, 3.0f,
      -2147483649.5, 3.0),
    C(1, 0, 0, 0, 0, 0, 0x7E00, 0x7FC0, NAN, NAN, NAN, NAN, NAN, NAN),
};

/* ---- Running the tables --------------------------------------------------------- */

typedef struct table {
  st_dtype dtype;
  const void* src;
  int32_t rows;
  const every_dtype* want;
} table;

#define TABLE(dtype, name) \
  { (dtype), name##_src, (int32_t)(sizeof name##_src / sizeof name##_src[0]), name##_want }

static const table tables[NUM_DTYPES] = {
    TABLE(ST_BOOL, bool),       TABLE(ST_UINT8, uint8),     TABLE(ST_INT8, int8),
    TABLE(ST_INT16, int16),     TABLE(ST_INT32, int32),     TABLE(ST_INT64, int64),
    TABLE(ST_FLOAT16, float16), TABLE(ST_BFLOAT16, bfloat16), TABLE(ST_FLOAT32, float32),
    TABLE(ST_FLOAT64, float64), TABLE(ST_COMPLEX64, complex64), TABLE(ST_COMPLEX128, complex128),
};

/* Every table has as many expected rows as source values. */
#define SAME_LENGTH(name) (sizeof name##_src / sizeof name##_src[0] == sizeof name##_want / sizeof name##_want[0])
_Static_assert(SAME_LENGTH(bool) && SAME_LENGTH(uint8) && SAME_LENGTH(int8) && SAME_LENGTH(int16) &&
                   SAME_LENGTH(int32) && SAME_LENGTH(int64) && SAME_LENGTH(float16) && SAME_LENGTH(bfloat16) &&
                   SAME_LENGTH(float32) && SAME_LENGTH(float64) && SAME_LENGTH(complex64) &&
                   SAME_LENGTH(complex128),
               "a conversion table has a row for each source value");

static st_tensor source_of(const table* t) {
  st_tensor src = {0};
  int64_t n = t->rows;
  EXPECT_OK(st_tensor_from_data((void*)t->src, &n, NULL, 1, t->dtype, CPU, NULL, NULL, &src));
  return src;
}

/* Checks the `rows` elements at `got` (`stride` elements apart) against the table. */
static void expect_rows(const table* t, st_dtype dst_dtype, const unsigned char* got, int64_t stride,
                        const char* how) {
  size_t item = st_dtype_itemsize(dst_dtype);
  for (int32_t i = 0; i < t->rows; ++i) {
    char what[96];
    snprintf(what, sizeof what, "%s, %s row %d", how, st_dtype_name(t->dtype), (int)i);
    expect_element(dst_dtype, got + (size_t)(i * stride) * item, &t->want[i], what);
  }
}

static void copy_table_to_every_dtype(st_dtype src_dtype) {
  const table* t = &tables[src_dtype];
  st_tensor src = source_of(t);
  int64_t n = t->rows;
  for (int d = 0; d < NUM_DTYPES; ++d) {
    st_tensor dst = make_tensor(&n, 1, (st_dtype)d);
    EXPECT_OK(st_copy(dst, src, 0));
    expect_rows(t, (st_dtype)d, data_ptr(dst), 1, "st_copy");
    EXPECT_OK(st_tensor_release(dst));
  }
  EXPECT_OK(st_tensor_release(src));
}

static void to_table_to_every_dtype(st_dtype src_dtype) {
  const table* t = &tables[src_dtype];
  st_tensor src = source_of(t);
  for (int d = 0; d < NUM_DTYPES; ++d) {
    st_tensor out = {0};
    st_dtype got_dtype = ST_BOOL;
    EXPECT_OK(st_to(src, (st_dtype)d, CPU, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
    EXPECT_OK(st_tensor_dtype(out, &got_dtype));
    assert_int_equal(got_dtype, d);
    expect_rows(t, (st_dtype)d, data_ptr(out), 1, "st_to");
    EXPECT_OK(st_tensor_release(out));
  }
  EXPECT_OK(st_tensor_release(src));
}

#define SENTINEL 0xA5

/* The table read backwards through a negative stride (every other element
 * of a buffer) into every third element of a padded buffer: the strided
 * conversion loops, and nothing written between the elements. */
static void copy_table_between_strided_views(st_dtype src_dtype) {
  const table* t = &tables[src_dtype];
  const int64_t n = t->rows;
  const size_t src_item = st_dtype_itemsize(src_dtype);
  unsigned char* src_buf = malloc((size_t)(2 * n) * src_item);
  assert_non_null(src_buf);
  memset(src_buf, SENTINEL, (size_t)(2 * n) * src_item);
  for (int64_t i = 0; i < n; ++i) /* row i at element 1 + 2 * (n - 1 - i) */
    memcpy(src_buf + (size_t)(1 + 2 * (n - 1 - i)) * src_item, (const unsigned char*)t->src + (size_t)i * src_item,
           src_item);
  st_tensor src = {0};
  int64_t src_stride = -2;
  EXPECT_OK(st_tensor_from_data(src_buf + (size_t)(1 + 2 * (n - 1)) * src_item, &n, &src_stride, 1, src_dtype, CPU,
                                NULL, NULL, &src));
  for (int d = 0; d < NUM_DTYPES; ++d) {
    const size_t item = st_dtype_itemsize((st_dtype)d), nbytes = (size_t)(3 * n + 2) * item;
    unsigned char* dst_buf = malloc(nbytes);
    assert_non_null(dst_buf);
    memset(dst_buf, SENTINEL, nbytes);
    st_tensor dst = {0};
    int64_t dst_stride = 3;
    EXPECT_OK(st_tensor_from_data(dst_buf + item, &n, &dst_stride, 1, (st_dtype)d, CPU, NULL, NULL, &dst));
    EXPECT_OK(st_copy(dst, src, 0));
    expect_rows(t, (st_dtype)d, dst_buf + item, 3, "st_copy between strided views");
    for (size_t b = 0; b < nbytes; ++b) {
      size_t element = b / item;
      int written = element >= 1 && (element - 1) % 3 == 0 && (element - 1) / 3 < (size_t)n;
      if (!written && dst_buf[b] != SENTINEL) {
        print_error("%s → %s: byte %zu outside the copied elements changed\n", st_dtype_name(src_dtype),
                    st_dtype_name((st_dtype)d), b);
        fail();
      }
    }
    EXPECT_OK(st_tensor_release(dst));
    free(dst_buf);
  }
  EXPECT_OK(st_tensor_release(src));
  free(src_buf);
}

#define TABLE_TESTS(name, dtype)                                                                            \
  static void copy_from_##name##_to_every_dtype(void** state) {                                            \
    (void)state;                                                                                            \
    copy_table_to_every_dtype(dtype);                                                                       \
  }                                                                                                         \
  static void to_from_##name##_to_every_dtype(void** state) {                                              \
    (void)state;                                                                                            \
    to_table_to_every_dtype(dtype);                                                                         \
  }                                                                                                         \
  static void copy_from_##name##_through_strided_views(void** state) {                                     \
    (void)state;                                                                                            \
    copy_table_between_strided_views(dtype);                                                                \
  }

TABLE_TESTS(bool, ST_BOOL)
TABLE_TESTS(uint8, ST_UINT8)
TABLE_TESTS(int8, ST_INT8)
TABLE_TESTS(int16, ST_INT16)
TABLE_TESTS(int32, ST_INT32)
TABLE_TESTS(int64, ST_INT64)
TABLE_TESTS(float16, ST_FLOAT16)
TABLE_TESTS(bfloat16, ST_BFLOAT16)
TABLE_TESTS(float32, ST_FLOAT32)
TABLE_TESTS(float64, ST_FLOAT64)
TABLE_TESTS(complex64, ST_COMPLEX64)
TABLE_TESTS(complex128, ST_COMPLEX128)

/* ---- The rules that differ from PyTorch, each on its own ----------------------- */

static st_tensor scalar_of(st_dtype dtype, void* value) {
  st_tensor t = {0};
  EXPECT_OK(st_tensor_from_data(value, NULL, NULL, 0, dtype, CPU, NULL, NULL, &t));
  return t;
}

static void float64_to_float16_rounds_once_from_the_exact_value(void** state) {
  (void)state;
  double v = 0x1.0020000001p0; /* float32 would hold 1 + 2^-11, a float16 tie that goes to even 1.0 */
  uint16_t got = 0;
  st_tensor src = scalar_of(ST_FLOAT64, &v), dst = scalar_of(ST_FLOAT16, &got);
  EXPECT_OK(st_copy(dst, src, 0));
  assert_int_equal(got, 0x3C01); /* 1 + 2^-10 */
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(dst));
}

static void int64_to_bfloat16_near_a_tie_rounds_once(void** state) {
  (void)state;
  int64_t v = INT64_C(4311744513); /* float32 would hold 2^32 + 2^24, a bfloat16 tie that goes to even 2^32 */
  uint16_t got = 0;
  st_tensor src = scalar_of(ST_INT64, &v), dst = scalar_of(ST_BFLOAT16, &got);
  EXPECT_OK(st_copy(dst, src, 0));
  assert_int_equal(got, 0x4F81); /* 2^32 + 2^25 */
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(dst));
}

static void complex_to_bool_is_true_when_either_part_is_nonzero(void** state) {
  (void)state;
  float v[4][2] = {{0.0f, 2.0f}, {3.0f, 0.0f}, {-0.0f, 0.0f}, {0.0f, -0.0f}};
  uint8_t got[4] = {7, 7, 7, 7};
  int64_t n = 4;
  st_tensor src = {0}, dst = {0};
  EXPECT_OK(st_tensor_from_data(v, &n, NULL, 1, ST_COMPLEX64, CPU, NULL, NULL, &src));
  EXPECT_OK(st_tensor_from_data(got, &n, NULL, 1, ST_BOOL, CPU, NULL, NULL, &dst));
  EXPECT_OK(st_copy(dst, src, 0));
  assert_int_equal(got[0], 1); /* PyTorch 1.13 looks at the real part only and says 0 */
  assert_int_equal(got[1], 1);
  assert_int_equal(got[2], 0);
  assert_int_equal(got[3], 0);
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(dst));
}

static void float_to_integer_truncates_then_saturates(void** state) {
  (void)state;
  float v[4] = {300.5f, -1.5f, 128.0f, NAN};
  uint8_t u[4] = {0};
  int8_t s[4] = {0};
  int64_t n = 4;
  st_tensor src = {0}, du = {0}, ds = {0};
  EXPECT_OK(st_tensor_from_data(v, &n, NULL, 1, ST_FLOAT32, CPU, NULL, NULL, &src));
  EXPECT_OK(st_tensor_from_data(u, &n, NULL, 1, ST_UINT8, CPU, NULL, NULL, &du));
  EXPECT_OK(st_tensor_from_data(s, &n, NULL, 1, ST_INT8, CPU, NULL, NULL, &ds));
  EXPECT_OK(st_copy(du, src, 0));
  EXPECT_OK(st_copy(ds, src, 0));
  assert_int_equal(u[0], 255);
  assert_int_equal(u[1], 0);
  assert_int_equal(u[2], 128);
  assert_int_equal(u[3], 0);
  assert_int_equal(s[0], 127);
  assert_int_equal(s[1], -1);
  assert_int_equal(s[2], 127); /* saturates; an integer 128 would wrap to -128 */
  assert_int_equal(s[3], 0);
  st_tensor ts[] = {src, du, ds};
  for (int i = 0; i < 3; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

#define TABLE_ENTRIES(name)                                                                                   \
  cmocka_unit_test(copy_from_##name##_to_every_dtype), cmocka_unit_test(to_from_##name##_to_every_dtype),     \
      cmocka_unit_test(copy_from_##name##_through_strided_views)

int main(void) {
  const struct CMUnitTest tests[] = {
      TABLE_ENTRIES(bool),
      TABLE_ENTRIES(uint8),
      TABLE_ENTRIES(int8),
      TABLE_ENTRIES(int16),
      TABLE_ENTRIES(int32),
      TABLE_ENTRIES(int64),
      TABLE_ENTRIES(float16),
      TABLE_ENTRIES(bfloat16),
      TABLE_ENTRIES(float32),
      TABLE_ENTRIES(float64),
      TABLE_ENTRIES(complex64),
      TABLE_ENTRIES(complex128),
      cmocka_unit_test(float64_to_float16_rounds_once_from_the_exact_value),
      cmocka_unit_test(int64_to_bfloat16_near_a_tie_rounds_once),
      cmocka_unit_test(complex_to_bool_is_true_when_either_part_is_nonzero),
      cmocka_unit_test(float_to_integer_truncates_then_saturates),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
