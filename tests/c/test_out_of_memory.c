/* Allocation failure, the way SQLite tests it: an allocator installed with
 * st_set_cpu_allocator refuses its k-th allocation, and one representative
 * sequence of calls (create, views, contiguous, clone, a copy that stages
 * through a temporary because its operands overlap, to, reshape,
 * create_like) runs for k = 1, 2, ... until it completes. Every run that
 * meets the refusal must answer ST_ERROR_OUT_OF_MEMORY at that call, with
 * no handle issued and the destination unchanged, and once everything is
 * released the allocations are balanced and no handle is live.
 *
 * st_set_cpu_allocator routes tensor data (and copy temporaries); the
 * library's own bookkeeping (handles, tensor and storage records) comes from
 * operator new, whose failures tests/cpp/test_out_of_memory_new.cpp covers. */
#include <stdlib.h>

#include "portable.h"
#include "support.h"

typedef struct failing_allocator {
  atomic_long calls;   /* alloc calls, refused ones included */
  atomic_long fail_at; /* the call (1-based) that gets NULL; 0 for none */
  atomic_long allocs;
  atomic_long frees;
  atomic_llong live_bytes;
} failing_allocator;

static void* failing_alloc(void* ctx, size_t nbytes, size_t alignment) {
  failing_allocator* a = ctx;
  const long call = atomic_fetch_add(&a->calls, 1) + 1;
  if (call == atomic_load(&a->fail_at)) return NULL;
  void* p = test_aligned_alloc(alignment, nbytes);
  if (p) {
    atomic_fetch_add(&a->allocs, 1);
    atomic_fetch_add(&a->live_bytes, (long long)nbytes);
  }
  return p;
}

static void failing_free(void* ctx, void* ptr, size_t nbytes) {
  failing_allocator* a = ctx;
  atomic_fetch_add(&a->frees, 1);
  atomic_fetch_sub(&a->live_bytes, (long long)nbytes);
  test_aligned_free(ptr);
}

/* Everything the sequence made, released at the end whatever happened. */
#define MAX_MADE 16
typedef struct sequence {
  st_tensor made[MAX_MADE];
  int count;
  const char* failed_at; /* the call that answered OUT_OF_MEMORY, or NULL */
} sequence;

static void keep(sequence* s, st_tensor t) {
  assert_true(s->count < MAX_MADE);
  s->made[s->count++] = t;
}

static void release_all(sequence* s) {
  for (int i = 0; i < s->count; ++i) EXPECT_OK(st_tensor_release(s->made[i]));
  s->count = 0;
}

/* A call that makes a tensor: on failure it must be OUT_OF_MEMORY with out
 * reset; returns 0 when the sequence stops here. */
static int made(sequence* s, const char* name, st_status status, st_tensor out) {
  if (status == ST_OK) {
    keep(s, out);
    return 1;
  }
  EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, status);
  expect_null_handle(out);
  expect_message_contains(name);
  s->failed_at = name;
  return 0;
}

/* The values of x (4 x 6, float32) are 0..23 in row-major order. */
static float* data_of(st_tensor t) {
  float* p = NULL;
  EXPECT_OK(st_tensor_data_ptr(t, (void**)&p));
  return p;
}

static void run_sequence(sequence* s) {
  st_tensor x = {GARBAGE_ID}, xt = {0}, xf = {0}, c = {GARBAGE_ID}, k = {GARBAGE_ID}, d = {GARBAGE_ID};
  st_tensor r = {GARBAGE_ID}, l = {GARBAGE_ID}, rows_dst = {0}, rows_src = {0};
  s->failed_at = NULL;
  if (!made(s, "st_tensor_create", st_tensor_create(DIMS(4, 6), 2, ST_FLOAT32, CPU, &x), x)) return;
  float* p = data_of(x);
  for (int i = 0; i < 24; ++i) p[i] = (float)i;

  /* views allocate no tensor memory */
  EXPECT_OK(st_transpose(x, 0, 1, &xt));
  keep(s, xt);
  EXPECT_OK(st_flip(x, 1, &xf));
  keep(s, xf);

  if (!made(s, "st_contiguous", st_contiguous(xt, ST_MEMORY_FORMAT_CONTIGUOUS, &c), c)) return;
  if (!made(s, "st_clone", st_clone(xf, ST_MEMORY_FORMAT_PRESERVE, &k), k)) return;

  /* rows 1..3 = rows 0..2 of the same tensor: the operands overlap, so the
   * copy stages through a temporary */
  EXPECT_OK(st_slice(x, 0, 1, 4, 1, &rows_dst));
  keep(s, rows_dst);
  EXPECT_OK(st_slice(x, 0, 0, 3, 1, &rows_src));
  keep(s, rows_src);
  float before[24];
  memcpy(before, p, sizeof before);
  st_status copied = st_copy(rows_dst, rows_src, 0);
  if (copied != ST_OK) {
    EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, copied);
    expect_message_contains("st_copy");
    assert_memory_equal(p, before, sizeof before); /* the destination is unchanged */
    s->failed_at = "st_copy";
    return;
  }
  for (int i = 0; i < 6; ++i) assert_true(p[i] == (float)i);        /* row 0 stays */
  for (int i = 6; i < 24; ++i) assert_true(p[i] == (float)(i - 6)); /* rows 1..3 = old rows 0..2 */

  if (!made(s, "st_to", st_to(x, ST_FLOAT64, CPU, ST_MEMORY_FORMAT_CONTIGUOUS, &d), d)) return;
  if (!made(s, "st_reshape", st_reshape(xt, DIMS(24), 1, &r), r)) return;
  if (!made(s, "st_tensor_create_like", st_tensor_create_like(xt, ST_MEMORY_FORMAT_PRESERVE, &l), l)) return;

  /* The complete run computed the right values: c and k were made before
   * the copy changed x, r and d after it. */
  const float* cv = data_of(c);
  const float* kv = data_of(k);
  const float* rv = data_of(r);
  const double* dv = NULL;
  EXPECT_OK(st_tensor_data_ptr(d, (void**)&dv));
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 6; ++j) {
      const float now = (float)(i == 0 ? j : (i - 1) * 6 + j); /* x[i][j] after the copy */
      assert_true(cv[j * 4 + i] == (float)(i * 6 + j));        /* c = x^T before it */
      assert_true(kv[i * 6 + j] == (float)(i * 6 + 5 - j));    /* k = x flipped before it */
      assert_true(rv[j * 4 + i] == now);                       /* r = x^T after it, flattened */
      assert_true(dv[i * 6 + j] == (double)now);
    }
  }
}

static void every_allocation_failure_is_out_of_memory_and_leaks_nothing(void** state) {
  (void)state;
  int64_t live_before = -1;
  EXPECT_OK(st_live_tensor_count(&live_before));
  failing_allocator a;
  st_allocator record = {failing_alloc, failing_free, &a};
  int runs = 0;
  for (long k = 1;; ++k) {
    atomic_init(&a.calls, 0);
    atomic_init(&a.fail_at, k);
    atomic_init(&a.allocs, 0);
    atomic_init(&a.frees, 0);
    atomic_init(&a.live_bytes, 0);
    EXPECT_OK(st_set_cpu_allocator(&record));
    sequence s = {{{0}}, 0, NULL};
    run_sequence(&s);
    release_all(&s);
    EXPECT_OK(st_set_cpu_allocator(NULL));

    assert_int_equal(atomic_load(&a.allocs), atomic_load(&a.frees));
    assert_int_equal(atomic_load(&a.live_bytes), 0);
    int64_t live = -1;
    EXPECT_OK(st_live_tensor_count(&live));
    assert_int_equal(live, live_before);
    ++runs;
    if (!s.failed_at) {
      /* the k-th allocation never came: the sequence makes k - 1 */
      assert_int_equal(atomic_load(&a.calls), k - 1);
      break;
    }
    /* it stopped exactly at the refused allocation */
    assert_int_equal(atomic_load(&a.calls), k);
    print_message("k = %ld: %s answered ST_ERROR_OUT_OF_MEMORY\n", k, s.failed_at);
  }
  /* create, contiguous, clone, the copy's temporary, to, reshape, create_like */
  assert_int_equal(runs, 8);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(every_allocation_failure_is_out_of_memory_and_leaks_nothing, restore_default_allocator),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
