/* Conversions follow the rules whatever floating-point environment the
 * calling thread is in: under each of the four rounding modes, with and
 * without flushing denormals (MXCSR DAZ and FTZ; FPCR FZ on AArch64), every
 * pair of dtypes converts the conversion tables (conversion_tables.c,
 * worked out by hand) exactly as under the default environment, on the
 * paths a copy can take: a small tensor, large contiguous ones (the vector
 * kernels), large strided and transposed ones (the strided loops and the
 * blocked transposes), on one thread and on two (the calling thread runs
 * a chunk, OpenMP's the other); st_fill converts each float64 row.
 * After every call the caller's environment is as it was: the rounding
 * mode, DAZ/FTZ, and the exception flags it had raised. */
#define _GNU_SOURCE /* feenableexcept */
#include <fenv.h>
#include <string.h>

#include "fp_environment.h"

static int set_one_thread(void** state) {
  (void)state;
  return st_set_num_threads(1) == ST_OK ? 0 : -1;
}

static void under_every_environment(table_layout layout) {
  for (int e = 0; e < fp_env_count(); ++e) copy_tables_under(fp_env_at(e), layout);
}

static void small_copies_follow_the_rules(void** state) {
  (void)state;
  under_every_environment(TABLE_SMALL);
}

static void large_contiguous_copies_follow_the_rules(void** state) {
  (void)state;
  under_every_environment(TABLE_CONTIGUOUS);
}

static void large_strided_copies_follow_the_rules(void** state) {
  (void)state;
  under_every_environment(TABLE_STRIDED);
}

static void large_transposed_copies_follow_the_rules(void** state) {
  (void)state;
  under_every_environment(TABLE_TRANSPOSED);
}

/* Two threads, the caller rounding upward, or downward with DAZ/FTZ. */
static void copies_on_two_threads_follow_the_rules(void** state) {
  (void)state;
  EXPECT_OK(st_set_num_threads(2));
  const int envs[2] = {1, fp_env_count() - 2};
  for (int i = 0; i < 2; ++i) {
    copy_tables_under(fp_env_at(envs[i]), TABLE_CONTIGUOUS);
    copy_tables_under(fp_env_at(envs[i]), TABLE_STRIDED);
    fill_rows_under(fp_env_at(envs[i]));
  }
  EXPECT_OK(st_set_num_threads(1));
}

static void fills_follow_the_rules(void** state) {
  (void)state;
  for (int e = 0; e < fp_env_count(); ++e) fill_rows_under(fp_env_at(e));
}

/* A scaled copy rounds its scale (double to the float32 compute type) and
 * its one fma to nearest even, and keeps subnormal sources: 1 + 2^-30 as a
 * scale is 1.0f, 1 · 1 + 2^-30 is 1.0f, 2^-140 · 1 + 0 stays 2^-140 (every
 * value worked out by hand; an upward mode would give 1 + 2^-23, DAZ 0). */
static void scaled_copies_follow_the_rules(void** state) {
  (void)state;
  const float one_bits_src[3] = {1.0f, 1.0f, 0x1p-140f};
  const float want[3] = {1.0f, 1.0f, 0x1p-140f};
  for (int e = 0; e < fp_env_count(); ++e) {
    const fp_env env = fp_env_at(e);
    float src[3], dst[3] = {-1, -1, -1};
    memcpy(src, one_bits_src, sizeof src);
    const int64_t n = 3;
    st_tensor s = {0}, d = {0};
    EXPECT_OK(st_tensor_from_data(src, &n, NULL, 1, ST_FLOAT32, CPU, NULL, NULL, &s));
    EXPECT_OK(st_tensor_from_data(dst, &n, NULL, 1, ST_FLOAT32, CPU, NULL, NULL, &d));
    const double scale[3] = {1.0 + 0x1p-30, 1.0, 1.0}, shift[3] = {0.0, 0x1p-30, 0.0};
    const st_scale_shift ss = {scale, shift, 3, 0, 0};
    fp_env_enter(env);
    const st_status status = st_copy_scaled(d, s, &ss, 0);
    expect_fp_env_is(env, "st_copy_scaled");
    fp_env_leave();
    EXPECT_OK(status);
    if (memcmp(dst, want, sizeof want) != 0)
      fail_msg("%s: st_copy_scaled gave %a %a %a, expected %a %a %a", fp_env_name(env), (double)dst[0],
               (double)dst[1], (double)dst[2], (double)want[0], (double)want[1], (double)want[2]);
    EXPECT_OK(st_tensor_release(s));
    EXPECT_OK(st_tensor_release(d));
  }
}

/* A copy plan runs the kernels st_copy runs, in the default environment
 * too: int32 16777217 -> float32 is 16777216 (the tie to even) under every
 * environment, through execute and execute_raw. */
static void copy_plans_follow_the_rules(void** state) {
  (void)state;
  int32_t src[4] = {16777217, 16777217, 16777217, 16777217};
  float dst[4];
  const int64_t n = 4;
  st_tensor s = {0}, d = {0};
  EXPECT_OK(st_tensor_from_data(src, &n, NULL, 1, ST_INT32, CPU, NULL, NULL, &s));
  EXPECT_OK(st_tensor_from_data(dst, &n, NULL, 1, ST_FLOAT32, CPU, NULL, NULL, &d));
  st_copy_plan plan = {0};
  EXPECT_OK(st_copy_plan_create(d, s, NULL, ST_PLAN_ESTIMATE, &plan));
  for (int e = 0; e < fp_env_count(); ++e) {
    const fp_env env = fp_env_at(e);
    for (int raw = 0; raw < 2; ++raw) {
      memset(dst, 0, sizeof dst);
      fp_env_enter(env);
      const st_status status = raw ? st_copy_plan_execute_raw(plan, dst, src, 0) : st_copy_plan_execute(plan, d, s, 0);
      expect_fp_env_is(env, raw ? "st_copy_plan_execute_raw" : "st_copy_plan_execute");
      fp_env_leave();
      EXPECT_OK(status);
      for (int i = 0; i < 4; ++i) {
        uint32_t bits;
        memcpy(&bits, &dst[i], 4);
        if (bits != 0x4B800000u) fail_msg("%s: element %d is 0x%08x, expected 0x4b800000", fp_env_name(env), i, bits);
      }
    }
  }
  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(s));
  EXPECT_OK(st_tensor_release(d));
}

/* The cases of the report that found it, spelled out. */
static void the_reported_cases(void** state) {
  (void)state;
  for (int e = 0; e < fp_env_count(); ++e) {
    const fp_env env = fp_env_at(e);
    int32_t i = 16777217;
    float f = 0;
    st_tensor src = {0}, dst = {0};
    EXPECT_OK(st_tensor_from_data(&i, NULL, NULL, 0, ST_INT32, CPU, NULL, NULL, &src));
    EXPECT_OK(st_tensor_from_data(&f, NULL, NULL, 0, ST_FLOAT32, CPU, NULL, NULL, &dst));
    fp_env_copy(env, dst, src);
    uint32_t bits;
    memcpy(&bits, &f, 4);
    assert_int_equal(bits, 0x4B800000u); /* 16777216: the tie to even */
    fp_env_enter(env);
    const st_status status = st_fill(dst, -1e300);
    expect_fp_env_is(env, "st_fill");
    EXPECT_OK(status);
    memcpy(&bits, &f, 4);
    assert_int_equal(bits, 0xFF800000u); /* -inf, not -FLT_MAX */
    EXPECT_OK(st_tensor_release(src));
    EXPECT_OK(st_tensor_release(dst));
  }
}

/* A caller that unmasked overflow, invalid and divide-by-zero (a debug
 * build hunting NaNs, say) gets no SIGFPE from a conversion that
 * overflows or is invalid, and keeps its traps. */
static void unmasked_exceptions_do_not_trap(void** state) {
  (void)state;
#if defined(__x86_64__) && defined(__GLIBC__)
  const int traps = FE_OVERFLOW | FE_INVALID | FE_DIVBYZERO;
  const conversion_table* t = &conversion_tables[ST_FLOAT64];
  int64_t n = t->rows;
  st_tensor src = {0};
  EXPECT_OK(st_tensor_from_data((void*)t->src, &n, NULL, 1, ST_FLOAT64, CPU, NULL, NULL, &src));
  int32_t rows[64];
  assert_true(n <= 64);
  for (int32_t i = 0; i < n; ++i) rows[i] = i;
  for (int d = 0; d < NUM_DTYPES; ++d) {
    if (d == ST_FLOAT4_E2M1FN_X2) continue; /* no value converts to it */
    st_tensor dst = make_tensor(&n, 1, (st_dtype)d);
    feenableexcept(traps);
    const st_status copied = st_copy(dst, src, 0);
    const st_status filled = st_fill(dst, -1e300);
    const int kept = fegetexcept();
    fedisableexcept(FE_ALL_EXCEPT);
    feclearexcept(FE_ALL_EXCEPT);
    EXPECT_OK(copied);
    EXPECT_OK(filled);
    assert_int_equal(kept, traps);
    /* The fill came last: every element is row 8, -1e300. */
    int32_t fill_rows[64];
    for (int32_t i = 0; i < n; ++i) fill_rows[i] = 8;
    assert_true(((const double*)t->src)[8] == -1e300);
    expect_table_rows(t, (st_dtype)d, data_ptr(dst), n, 1, fill_rows, "st_fill with traps enabled");
    EXPECT_OK(st_copy(dst, src, 0));
    expect_table_rows(t, (st_dtype)d, data_ptr(dst), n, 1, rows, "st_copy");
    EXPECT_OK(st_tensor_release(dst));
  }
  EXPECT_OK(st_tensor_release(src));
#else
  print_message("unmasked_exceptions_do_not_trap: feenableexcept is glibc's, the MXCSR x86's: not run here\n");
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_reported_cases),
      cmocka_unit_test(unmasked_exceptions_do_not_trap),
      cmocka_unit_test(small_copies_follow_the_rules),
      cmocka_unit_test(large_contiguous_copies_follow_the_rules),
      cmocka_unit_test(large_strided_copies_follow_the_rules),
      cmocka_unit_test(large_transposed_copies_follow_the_rules),
      cmocka_unit_test(fills_follow_the_rules),
      cmocka_unit_test(scaled_copies_follow_the_rules),
      cmocka_unit_test(copy_plans_follow_the_rules),
      cmocka_unit_test(copies_on_two_threads_follow_the_rules),
  };
  return cmocka_run_group_tests(tests, set_one_thread, NULL);
}
