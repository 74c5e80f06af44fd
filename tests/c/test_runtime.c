/* Runtime: the thread count, the default allocation alignment, and the CPU
 * allocator hook. */
#include <stdlib.h>

#include "portable.h"
#include "support.h"

/* main() sets ST_NUM_THREADS=3 before the first call into the library. */
static void default_thread_count_comes_from_st_num_threads(void** state) {
  (void)state;
  assert_int_equal(st_get_num_threads(), 3);
}

static void set_num_threads_changes_the_count(void** state) {
  (void)state;
  EXPECT_OK(st_set_num_threads(5));
  assert_int_equal(st_get_num_threads(), 5);
  EXPECT_OK(st_set_num_threads(1));
  assert_int_equal(st_get_num_threads(), 1);
}

static void set_num_threads_below_one_is_invalid_argument_and_keeps_the_count(void** state) {
  (void)state;
  EXPECT_OK(st_set_num_threads(2));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_set_num_threads(0));
  expect_message_contains("st_set_num_threads: n = 0");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_set_num_threads(-4));
  assert_int_equal(st_get_num_threads(), 2);
}

static void set_num_threads_above_the_most_is_invalid_argument_and_keeps_the_count(void** state) {
  (void)state;
  EXPECT_OK(st_set_num_threads(ST_MAX_THREADS));
  assert_int_equal(st_get_num_threads(), 1024);
  EXPECT_OK(st_set_num_threads(2));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_set_num_threads(1025));
  expect_message_contains("st_set_num_threads: n = 1025 must be from 1 to 1024");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_set_num_threads(4096));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_set_num_threads(INT32_MAX));
  assert_int_equal(st_get_num_threads(), 2);
}

static void default_allocations_are_64_byte_aligned(void** state) {
  (void)state;
  const int64_t lengths[] = {1, 3, 17, 64, 65, 1000, 4097};
  for (int d = 0; d < 12; ++d) {
    for (int i = 0; i < 7; ++i) {
      st_tensor t = make_tensor(&lengths[i], 1, (st_dtype)d);
      void* p = NULL;
      EXPECT_OK(st_tensor_data_ptr(t, &p));
      assert_int_equal((uintptr_t)p % 64, 0);
      EXPECT_OK(st_tensor_release(t));
    }
  }
}

static void allocator_gets_one_call_with_the_byte_count_and_alignment_64(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  st_tensor t = make_tensor(DIMS(2, 3), 2, ST_FLOAT64);
  assert_int_equal(atomic_load(&c.allocs), 1);
  assert_int_equal(atomic_load(&c.last_nbytes), 48);
  assert_int_equal(atomic_load(&c.last_alignment), 64);
  void* p = NULL;
  EXPECT_OK(st_tensor_data_ptr(t, &p));
  assert_int_equal((uintptr_t)p % 64, 0);
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(atomic_load(&c.frees), 1);
  assert_int_equal(atomic_load(&c.bad_frees), 0);
  assert_int_equal(atomic_load(&c.live_bytes), 0);
}

static void views_allocate_nothing_and_the_last_one_frees(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  st_tensor t = make_tensor(DIMS(4, 5), 2, ST_FLOAT32), a = {0}, b = {0}, e = {0};
  EXPECT_OK(st_transpose(t, 0, 1, &a));
  EXPECT_OK(st_slice(a, 0, 1, 3, 1, &b));
  EXPECT_OK(st_expand(b, DIMS(7, 2, 4), 3, &e));
  assert_int_equal(atomic_load(&c.allocs), 1);
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(a));
  EXPECT_OK(st_tensor_release(b));
  assert_int_equal(atomic_load(&c.frees), 0);
  EXPECT_OK(st_tensor_release(e));
  assert_int_equal(atomic_load(&c.frees), 1);
}

static void tensors_without_elements_allocate_nothing(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  st_tensor a = make_tensor(DIMS(0, 5), 2, ST_FLOAT32), b = {0}, l = {0};
  EXPECT_OK(st_tensor_create_strided(DIMS(3, 0), DIMS(100, 7), 2, ST_FLOAT64, CPU, &b));
  EXPECT_OK(st_tensor_create_like(a, ST_MEMORY_FORMAT_PRESERVE, &l));
  assert_int_equal(atomic_load(&c.allocs) + atomic_load(&c.refused), 0);
  EXPECT_OK(st_tensor_release(a));
  EXPECT_OK(st_tensor_release(b));
  EXPECT_OK(st_tensor_release(l));
  assert_int_equal(atomic_load(&c.frees), 0);
}

static void scalar_allocates_one_element(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  st_tensor s = make_tensor(NULL, 0, ST_COMPLEX128);
  assert_int_equal(atomic_load(&c.last_nbytes), 16);
  EXPECT_OK(st_tensor_release(s));
}

static void create_like_allocates_a_dense_copy_of_a_sparse_view(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  st_tensor x = make_tensor(DIMS(10, 10), 2, ST_INT32), s = {0}, l = {0};
  EXPECT_OK(st_slice(x, 1, 0, 10, 5, &s)); /* (10, 2): 20 elements spread over 100 */
  EXPECT_OK(st_tensor_create_like(s, ST_MEMORY_FORMAT_PRESERVE, &l));
  assert_int_equal(atomic_load(&c.allocs), 2);
  assert_int_equal(atomic_load(&c.last_nbytes), 20 * 4);
  st_tensor ts[] = {x, s, l};
  for (int i = 0; i < 3; ++i) EXPECT_OK(st_tensor_release(ts[i]));
  assert_int_equal(atomic_load(&c.frees), 2);
  assert_int_equal(atomic_load(&c.bad_frees), 0);
}

static void storage_is_freed_by_the_allocator_it_came_from(void** state) {
  (void)state;
  counting_allocator a, b;
  counting_allocator_install(&a);
  st_tensor from_a = make_tensor(DIMS(8), 1, ST_FLOAT32);
  counting_allocator_install(&b);
  st_tensor from_b = make_tensor(DIMS(8), 1, ST_FLOAT32);
  EXPECT_OK(st_set_cpu_allocator(NULL));
  st_tensor from_default = make_tensor(DIMS(8), 1, ST_FLOAT32);
  EXPECT_OK(st_tensor_release(from_a));
  assert_int_equal(atomic_load(&a.frees), 1);
  assert_int_equal(atomic_load(&b.frees), 0);
  EXPECT_OK(st_tensor_release(from_default));
  assert_int_equal(atomic_load(&a.frees), 1);
  assert_int_equal(atomic_load(&b.frees), 0);
  EXPECT_OK(st_tensor_release(from_b));
  assert_int_equal(atomic_load(&b.frees), 1);
  assert_int_equal(atomic_load(&a.allocs), 1);
  assert_int_equal(atomic_load(&b.allocs), 1);
}

static void null_allocator_restores_the_default(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  EXPECT_OK(st_set_cpu_allocator(NULL));
  st_tensor t = make_tensor(DIMS(16), 1, ST_FLOAT32);
  assert_int_equal(atomic_load(&c.allocs), 0);
  EXPECT_OK(st_tensor_release(t));
}

static void allocator_returning_null_is_out_of_memory(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  atomic_store(&c.fail, 1);
  st_tensor t = {GARBAGE_ID};
  EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_tensor_create(DIMS(4), 1, ST_FLOAT32, CPU, &t));
  expect_null_handle(t);
  expect_message_contains("allocator");
  expect_message_contains("16 bytes");
  atomic_store(&c.fail, 0);
  st_tensor src = make_tensor(DIMS(4), 1, ST_FLOAT32);
  atomic_store(&c.fail, 1);
  t.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_tensor_create_like(src, ST_MEMORY_FORMAT_CONTIGUOUS, &t));
  expect_null_handle(t);
  t.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_tensor_create_strided(DIMS(4), DIMS(2), 1, ST_FLOAT32, CPU, &t));
  expect_null_handle(t);
  assert_int_equal(atomic_load(&c.refused), 3);
  EXPECT_OK(st_tensor_release(src));
  assert_int_equal(atomic_load(&c.frees), atomic_load(&c.allocs));
}

static void allocator_without_alloc_or_free_is_invalid_argument_and_changes_nothing(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  st_allocator no_alloc = counting_allocator_record(&c), no_free = counting_allocator_record(&c);
  no_alloc.alloc = NULL;
  no_free.free = NULL;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_set_cpu_allocator(&no_alloc));
  expect_message_contains("alloc is NULL");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_set_cpu_allocator(&no_free));
  expect_message_contains("free is NULL");
  st_tensor t = make_tensor(DIMS(4), 1, ST_FLOAT32); /* still the counting allocator */
  assert_int_equal(atomic_load(&c.allocs), 1);
  EXPECT_OK(st_tensor_release(t));
}

static void allocator_record_is_copied_by_set(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  {
    st_allocator temporary = counting_allocator_record(&c);
    EXPECT_OK(st_set_cpu_allocator(&temporary));
    memset(&temporary, 0, sizeof temporary); /* the library keeps its own copy */
  }
  st_tensor t = make_tensor(DIMS(4), 1, ST_FLOAT32);
  assert_int_equal(atomic_load(&c.allocs), 1);
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(atomic_load(&c.frees), 1);
}

int main(void) {
  /* before any call into the library, so the default count reads it */
  test_setenv("ST_NUM_THREADS", "3");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(default_thread_count_comes_from_st_num_threads),
      cmocka_unit_test(set_num_threads_changes_the_count),
      cmocka_unit_test(set_num_threads_below_one_is_invalid_argument_and_keeps_the_count),
      cmocka_unit_test(set_num_threads_above_the_most_is_invalid_argument_and_keeps_the_count),
      cmocka_unit_test(default_allocations_are_64_byte_aligned),
      cmocka_unit_test_teardown(allocator_gets_one_call_with_the_byte_count_and_alignment_64,
                                restore_default_allocator),
      cmocka_unit_test_teardown(views_allocate_nothing_and_the_last_one_frees, restore_default_allocator),
      cmocka_unit_test_teardown(tensors_without_elements_allocate_nothing, restore_default_allocator),
      cmocka_unit_test_teardown(scalar_allocates_one_element, restore_default_allocator),
      cmocka_unit_test_teardown(create_like_allocates_a_dense_copy_of_a_sparse_view, restore_default_allocator),
      cmocka_unit_test_teardown(storage_is_freed_by_the_allocator_it_came_from, restore_default_allocator),
      cmocka_unit_test_teardown(null_allocator_restores_the_default, restore_default_allocator),
      cmocka_unit_test_teardown(allocator_returning_null_is_out_of_memory, restore_default_allocator),
      cmocka_unit_test_teardown(allocator_without_alloc_or_free_is_invalid_argument_and_changes_nothing,
                                restore_default_allocator),
      cmocka_unit_test_teardown(allocator_record_is_copied_by_set, restore_default_allocator),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
