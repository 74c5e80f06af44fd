/* Floating-point environments a caller may leave its threads in, for the
 * tests that the conversions ignore them (test_fp_environment*.c): the four
 * rounding modes, each with and without flushing denormals (the MXCSR's
 * DAZ and FTZ bits on x86, FPCR's FZ on AArch64), and the checks that a
 * call leaves the environment as it found it. Also the fast check of a
 * large converted buffer against a conversion table repeated. */
#ifndef STRIDE_TEST_FP_ENVIRONMENT_H
#define STRIDE_TEST_FP_ENVIRONMENT_H

#include "conversion_tables.h"

typedef struct fp_env {
  int rounding;        /* FE_TONEAREST, FE_UPWARD, FE_DOWNWARD or FE_TOWARDZERO */
  int flush_denormals; /* DAZ and FTZ set (x86), FZ (AArch64) */
} fp_env;

/* The environments, the default first: 8 on x86 and AArch64, the 4
 * rounding modes elsewhere (printed once: there is no flush to set). */
int fp_env_count(void);
fp_env fp_env_at(int i);
/* "FE_UPWARD + DAZ/FTZ", say. */
const char* fp_env_name(fp_env env);

/* Puts `env` in place on this thread, with the overflow and divide-by-zero
 * exception flags raised, as a caller's earlier work may have left them. */
void fp_env_enter(fp_env env);
/* Asserts that this thread's environment is still `env`: the rounding
 * mode, DAZ/FTZ and the exception masks as fp_env_enter set them, and the
 * flags it raised still raised (a call may raise flags, never clear one). */
void expect_fp_env_is(fp_env env, const char* after);
/* The default environment again, every flag cleared. */
void fp_env_leave(void);

/* For threads the test does not assert on (a job system's): nonzero when
 * this thread's environment is `env` as fp_env_enter left it. */
int fp_env_holds(fp_env env);
/* fp_env_enter without the flags, for such threads. */
void fp_env_set(fp_env env);

/* Asserts that the n elements of `dst_dtype` at got, got + stride, ...
 * (in elements) are rows rows[0], rows[1], ... of table t converted, as
 * expect_element compares them; a byte comparison first, so that large
 * buffers are checked quickly. */
void expect_table_rows(const conversion_table* t, st_dtype dst_dtype, const unsigned char* got, int64_t n,
                       int64_t stride, const int32_t* rows, const char* context);

/* Elements of the large cases: more than two of the library's grains
 * (32768), so that two threads share them. */
#define LARGE_COLS 7
#define LARGE_ROWS 5715
#define LARGE (LARGE_COLS * LARGE_ROWS)

typedef enum table_layout {
  TABLE_SMALL,      /* the table itself, contiguous: a few hundred bytes at most */
  TABLE_CONTIGUOUS, /* repeated to LARGE elements, contiguous: the vector kernels */
  TABLE_STRIDED,    /* repeated, read backwards through stride -2 into every third element */
  TABLE_TRANSPOSED, /* repeated, a (LARGE_COLS, LARGE_ROWS) source read transposed */
} table_layout;

/* st_copy(dst, src) under `env`, the environment checked after it. */
void fp_env_copy(fp_env env, st_tensor dst, st_tensor src);

/* st_copy of every table into every dtype in `layout`, each call under
 * `env` (the environment checked after it), the result checked against
 * the table. */
void copy_tables_under(fp_env env, table_layout layout);

/* st_fill with each float64 row into a small tensor of every dtype, and
 * with every fourth row into a LARGE one, under `env`, checked likewise. */
void fill_rows_under(fp_env env);

#endif
