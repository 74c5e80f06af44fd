/* Handles: reference counts, stale and forged ids, the null handle in every
 * function, and handles used from two threads at once. */
/* ctest-labels: concurrency */
#include <pthread.h>

#include "support.h"

static void retain_adds_a_reference_that_release_drops(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(2, 3), 2, ST_FLOAT32);
  EXPECT_OK(st_tensor_retain(t));
  EXPECT_OK(st_tensor_release(t));
  expect_layout(t, 2, DIMS(2, 3), DIMS(3, 1), 0); /* one reference left */
  EXPECT_OK(st_tensor_release(t));
  expect_dead(t);
}

static void double_release_is_invalid_handle(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(2), 1, ST_FLOAT32);
  EXPECT_OK(st_tensor_release(t));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_release(t));
  expect_message_contains("st_tensor_release");
}

static void release_of_the_null_handle_is_ok(void** state) {
  (void)state;
  EXPECT_OK(st_tensor_release((st_tensor){0}));
}

static void retain_of_the_null_handle_is_invalid_handle(void** state) {
  (void)state;
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_retain((st_tensor){0}));
}

static void retain_of_a_released_handle_is_invalid_handle(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(2), 1, ST_FLOAT32);
  EXPECT_OK(st_tensor_release(t));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_retain(t));
  expect_dead(t); /* the failed retain did not revive it */
}

static void handles_are_distinct_and_never_zero(void** state) {
  (void)state;
  st_tensor t[8];
  for (int i = 0; i < 8; ++i) {
    t[i] = make_tensor(DIMS(1), 1, ST_INT8);
    assert_true(t[i].id != 0);
    for (int j = 0; j < i; ++j) assert_true(t[i].id != t[j].id);
  }
  for (int i = 0; i < 8; ++i) EXPECT_OK(st_tensor_release(t[i]));
}

static void stale_handle_stays_dead_when_its_slot_is_reused(void** state) {
  (void)state;
  st_tensor old = make_tensor(DIMS(2), 1, ST_FLOAT32);
  EXPECT_OK(st_tensor_release(old));
  st_tensor fresh[4];
  for (int i = 0; i < 4; ++i) {
    fresh[i] = make_tensor(DIMS(3), 1, ST_FLOAT32);
    assert_true(fresh[i].id != old.id);
  }
  expect_dead(old);
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_release(old));
  for (int i = 0; i < 4; ++i) {
    expect_layout(fresh[i], 1, DIMS(3), DIMS(1), 0); /* the stale release hit none of them */
    EXPECT_OK(st_tensor_release(fresh[i]));
  }
}

static void id_with_a_live_index_and_another_generation_is_invalid_handle(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(2), 1, ST_FLOAT32);
  /* the same low bits (the slot) with the high bits (the generation) changed */
  const uint64_t flips[] = {UINT64_C(1) << 32, UINT64_C(2) << 32, UINT64_C(0x80000000) << 32};
  for (int i = 0; i < 3; ++i) {
    st_tensor forged = {t.id ^ flips[i]};
    expect_dead(forged);
    EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_retain(forged));
    EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_release(forged));
  }
  st_tensor no_generation = {t.id & UINT64_C(0xffffffff)};
  expect_dead(no_generation);
  expect_layout(t, 1, DIMS(2), DIMS(1), 0);
  EXPECT_OK(st_tensor_release(t));
}

static void random_ids_are_invalid_handle(void** state) {
  (void)state;
  st_tensor live[4];
  for (int i = 0; i < 4; ++i) live[i] = make_tensor(DIMS(2), 1, ST_FLOAT32);
  const uint64_t seed = 0x9e3779b97f4a7c15ull;
  print_message("random ids from seed 0x%llx\n", (unsigned long long)seed);
  uint64_t x = seed;
  for (int n = 0; n < 10000; ++n) {
    x ^= x << 13; /* xorshift64 */
    x ^= x >> 7;
    x ^= x << 17;
    /* half the ids in the low slots that live handles use */
    uint64_t id = n % 2 ? x : (x & UINT64_C(0xffffffff0000000f));
    int is_live = 0;
    for (int i = 0; i < 4; ++i) is_live |= live[i].id == id;
    if (is_live || id == 0) continue;
    st_tensor forged = {id}, out = {GARBAGE_ID};
    int64_t numel = -3;
    EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_numel(forged, &numel));
    assert_int_equal(numel, -3);
    EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_retain(forged));
    EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_release(forged));
    EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_flip(forged, 0, &out));
    expect_null_handle(out);
  }
  for (int i = 0; i < 4; ++i) {
    expect_layout(live[i], 1, DIMS(2), DIMS(1), 0);
    EXPECT_OK(st_tensor_release(live[i]));
  }
}

static void views_keep_the_storage_alive_after_the_source_is_released(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(3, 4), 2), v = {0};
  EXPECT_OK(st_transpose(x, 0, 1, &v));
  EXPECT_OK(st_tensor_release(x));
  expect_dead(x);
  assert_true(read_f32(v, DIMS(3, 2)) == 11.0f);
  EXPECT_OK(st_tensor_release(v));
}

/* Calls every function that takes a tensor with `t`, which is not live,
 * and checks the status and that no out value was written but the handle's {0}. */
static void expect_not_live_everywhere(st_tensor t) {
  const st_status bad = ST_ERROR_INVALID_HANDLE;
  int32_t i32 = -5;
  int64_t i64 = -5, arr[4] = {-5, -5, -5, -5};
  st_dtype dtype = (st_dtype)-5;
  st_device dev = {-5, -5};
  void* ptr = (void*)&i32;
  st_tensor out = {GARBAGE_ID};

  EXPECT_STATUS(bad, st_tensor_retain(t));
  EXPECT_STATUS(bad, st_tensor_ndim(t, &i32));
  EXPECT_STATUS(bad, st_tensor_sizes(t, arr, 4));
  EXPECT_STATUS(bad, st_tensor_strides(t, arr, 4));
  EXPECT_STATUS(bad, st_tensor_dtype(t, &dtype));
  EXPECT_STATUS(bad, st_tensor_device(t, &dev));
  EXPECT_STATUS(bad, st_tensor_numel(t, &i64));
  EXPECT_STATUS(bad, st_tensor_storage_offset(t, &i64));
  EXPECT_STATUS(bad, st_tensor_data_ptr(t, &ptr));
  EXPECT_STATUS(bad, st_tensor_is_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, &i32));
  assert_int_equal(i32, -5);
  assert_int_equal(i64, -5);
  for (int i = 0; i < 4; ++i) assert_int_equal(arr[i], -5);
  assert_int_equal((int)dtype, -5);
  assert_int_equal(dev.type, -5);
  assert_int_equal(dev.index, -5);
  assert_ptr_equal(ptr, &i32);

#define EXPECT_BAD_OUT(call)   \
  do {                         \
    out.id = GARBAGE_ID;       \
    EXPECT_STATUS(bad, call);  \
    expect_null_handle(out);   \
  } while (0)
  EXPECT_BAD_OUT(st_tensor_create_like(t, ST_MEMORY_FORMAT_PRESERVE, &out));
  EXPECT_BAD_OUT(st_as_strided(t, DIMS(1), DIMS(1), 1, 0, &out));
  EXPECT_BAD_OUT(st_permute(t, (const int32_t[]){0}, 1, &out));
  EXPECT_BAD_OUT(st_transpose(t, 0, 0, &out));
  EXPECT_BAD_OUT(st_slice(t, 0, 0, 1, 1, &out));
  EXPECT_BAD_OUT(st_select(t, 0, 0, &out));
  EXPECT_BAD_OUT(st_expand(t, DIMS(2), 1, &out));
  EXPECT_BAD_OUT(st_unsqueeze(t, 0, &out));
  EXPECT_BAD_OUT(st_squeeze(t, 0, &out));
  EXPECT_BAD_OUT(st_flip(t, 0, &out));
  EXPECT_BAD_OUT(st_view(t, DIMS(1), 1, &out));
#undef EXPECT_BAD_OUT
}

static void null_handle_is_invalid_handle_in_every_function(void** state) {
  (void)state;
  expect_not_live_everywhere((st_tensor){0});
  expect_message_contains("null handle");
  EXPECT_OK(st_tensor_release((st_tensor){0}));
}

static void released_handle_is_invalid_handle_in_every_function(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(1), 1, ST_FLOAT32);
  EXPECT_OK(st_tensor_release(t));
  expect_not_live_everywhere(t);
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_release(t));
}

/* ---- two threads ------------------------------------------------------------
 * Each thread makes its own tensors and views, checks and releases them, and
 * also retains, views and releases two handles the main thread shares. Worker
 * threads cannot fail a cmocka test themselves, so they count mismatches. */

enum { kRounds = 3000 };

typedef struct worker_args {
  st_tensor shared;         /* a (4, 5) float32 iota, made with the counting allocator */
  st_tensor wrapped;        /* a (6,) wrap of caller memory with a counting deleter */
  atomic_int deleter_calls;
  int thread_no;
  long errors;
} worker_args;

static void count_deleter(void* data, void* ctx) {
  (void)data;
  atomic_fetch_add((atomic_int*)ctx, 1);
}

static int layout_is(st_tensor t, int32_t ndim, const int64_t* sizes, const int64_t* strides, int64_t offset) {
  int32_t n = -1;
  int64_t sz[ST_MAX_DIMS], st[ST_MAX_DIMS], off = -1;
  if (st_tensor_ndim(t, &n) != ST_OK || n != ndim) return 0;
  if (st_tensor_sizes(t, sz, ST_MAX_DIMS) != ST_OK || st_tensor_strides(t, st, ST_MAX_DIMS) != ST_OK) return 0;
  if (st_tensor_storage_offset(t, &off) != ST_OK || off != offset) return 0;
  for (int i = 0; i < ndim; ++i)
    if (sz[i] != sizes[i] || st[i] != strides[i]) return 0;
  return 1;
}

static void* worker(void* arg) {
  worker_args* w = arg;
  long errors = 0;
  const int64_t rows = 2 + w->thread_no; /* each thread its own shape */
  for (int r = 0; r < kRounds; ++r) {
    st_tensor t = {0}, tt = {0}, sl = {0}, sv = {0}, wv = {0};
    errors += st_tensor_create(DIMS(rows, 3), 2, ST_FLOAT32, CPU, &t) != ST_OK;
    float* p = NULL;
    errors += st_tensor_data_ptr(t, (void**)&p) != ST_OK;
    if (p) p[1 * 3 + 2] = (float)r;
    errors += st_transpose(t, 0, 1, &tt) != ST_OK;
    errors += st_tensor_release(t) != ST_OK;
    errors += !layout_is(tt, 2, DIMS(3, rows), DIMS(1, 3), 0);
    errors += st_slice(tt, 1, 1, 2, 1, &sl) != ST_OK;
    errors += st_tensor_release(tt) != ST_OK;
    errors += !layout_is(sl, 2, DIMS(3, 1), DIMS(1, 3), 3);
    float* q = NULL;
    errors += st_tensor_data_ptr(sl, (void**)&q) != ST_OK;
    if (q) errors += q[2] != (float)r; /* element (2, 0) of the slice is t[1][2] */
    errors += st_tensor_release(sl) != ST_OK;
    errors += st_tensor_release(sl) != ST_ERROR_INVALID_HANDLE;

    /* the shared handles: take a reference, make a view, drop both */
    errors += st_tensor_retain(w->shared) != ST_OK;
    errors += st_flip(w->shared, 0, &sv) != ST_OK;
    errors += !layout_is(sv, 2, DIMS(4, 5), DIMS(-5, 1), 15);
    errors += st_tensor_release(w->shared) != ST_OK;
    errors += st_tensor_release(sv) != ST_OK;
    errors += st_tensor_retain(w->wrapped) != ST_OK;
    errors += st_select(w->wrapped, 0, -1, &wv) != ST_OK;
    errors += !layout_is(wv, 0, NULL, NULL, 5);
    errors += st_tensor_release(wv) != ST_OK;
    errors += st_tensor_release(w->wrapped) != ST_OK;

    /* each thread's error message is its own */
    st_tensor bad = {GARBAGE_ID};
    errors += st_tensor_create(DIMS(-100 - w->thread_no), 1, ST_FLOAT32, CPU, &bad) != ST_ERROR_INVALID_ARGUMENT;
    errors += bad.id != 0;
    char want[32];
    snprintf(want, sizeof want, "sizes[0] = %d", -100 - w->thread_no);
    errors += strstr(st_last_error_message(), want) == NULL;
  }
  w->errors = errors;
  return NULL;
}

static void two_threads_create_view_and_release_concurrently(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  static float memory[6] = {0, 1, 2, 3, 4, 5};
  worker_args args[2];
  st_tensor shared = make_iota_f32(DIMS(4, 5), 2), wrapped = {0};
  for (int i = 0; i < 2; ++i) {
    args[i].shared = shared;
    atomic_init(&args[i].deleter_calls, 0);
    args[i].thread_no = i;
    args[i].errors = -1;
  }
  EXPECT_OK(st_tensor_from_data(memory, DIMS(6), NULL, 1, ST_FLOAT32, CPU, count_deleter, &args[0].deleter_calls,
                                &wrapped));
  args[0].wrapped = args[1].wrapped = wrapped;

  pthread_t th[2];
  for (int i = 0; i < 2; ++i) assert_int_equal(pthread_create(&th[i], NULL, worker, &args[i]), 0);
  for (int i = 0; i < 2; ++i) assert_int_equal(pthread_join(th[i], NULL), 0);
  assert_int_equal(args[0].errors, 0);
  assert_int_equal(args[1].errors, 0);

  /* every per-thread tensor is gone; the shared ones are intact and singly held */
  assert_int_equal(atomic_load(&c.allocs), 1 + 2 * kRounds);
  assert_int_equal(atomic_load(&c.frees), 2 * kRounds);
  assert_int_equal(atomic_load(&c.bad_frees), 0);
  expect_layout(shared, 2, DIMS(4, 5), DIMS(5, 1), 0);
  assert_true(read_f32(shared, DIMS(3, 4)) == 19.0f);
  assert_int_equal(atomic_load(&args[0].deleter_calls), 0);
  EXPECT_OK(st_tensor_release(shared));
  EXPECT_OK(st_tensor_release(wrapped));
  expect_dead(shared);
  expect_dead(wrapped);
  assert_int_equal(atomic_load(&c.frees), atomic_load(&c.allocs));
  assert_int_equal(atomic_load(&c.live_bytes), 0);
  assert_int_equal(atomic_load(&args[0].deleter_calls), 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(retain_adds_a_reference_that_release_drops),
      cmocka_unit_test(double_release_is_invalid_handle),
      cmocka_unit_test(release_of_the_null_handle_is_ok),
      cmocka_unit_test(retain_of_the_null_handle_is_invalid_handle),
      cmocka_unit_test(retain_of_a_released_handle_is_invalid_handle),
      cmocka_unit_test(handles_are_distinct_and_never_zero),
      cmocka_unit_test(stale_handle_stays_dead_when_its_slot_is_reused),
      cmocka_unit_test(id_with_a_live_index_and_another_generation_is_invalid_handle),
      cmocka_unit_test(random_ids_are_invalid_handle),
      cmocka_unit_test(views_keep_the_storage_alive_after_the_source_is_released),
      cmocka_unit_test(null_handle_is_invalid_handle_in_every_function),
      cmocka_unit_test(released_handle_is_invalid_handle_in_every_function),
      cmocka_unit_test_teardown(two_threads_create_view_and_release_concurrently, restore_default_allocator),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
