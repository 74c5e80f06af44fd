/* Releasing a handle while a call is using it: the caller's references and
 * the calls' own hold on a handle are counted apart, so a release beyond
 * the caller's references answers ST_ERROR_INVALID_HANDLE, and the tensor
 * the call works on lives until the call is done. Released from a trace
 * callback inside the call, from two threads at once while a third copies,
 * by eight threads that release more often than they hold, and by a thread
 * that frees a handle another has just had back as its own answer. */
/* ctest-labels: concurrency */
#include <pthread.h>
#include <stdlib.h>

#include "portable.h"
#include "support.h"

/* ---- from a trace callback ------------------------------------------------ */

typedef struct releaser {
  st_tensor victim; /* released twice at the first report */
  int reports;
  st_status first, second;
} releaser;

static void release_twice(void* ctx, const char* op_name, int64_t duration_ns) {
  (void)op_name;
  (void)duration_ns;
  releaser* r = ctx;
  if (r->reports++ > 0) return;
  r->first = st_tensor_release(r->victim);
  r->second = st_tensor_release(r->victim);
}

static int trace_off(void** state) {
  (void)state;
  st_set_trace_callback(NULL, NULL);
  return restore_default_allocator(state);
}

/* st_contiguous of a transposed matrix reports empty_strided before it
 * copies: the source's last reference goes there, and the copy still reads
 * the source's memory. */
static void release_twice_from_a_trace_callback_inside_contiguous(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  st_tensor base = make_iota_f32(DIMS(5, 7), 2), t = {0}, out = {GARBAGE_ID};
  EXPECT_OK(st_transpose(base, 0, 1, &t));
  EXPECT_OK(st_tensor_release(base)); /* t holds the storage alone */
  releaser r = {t, 0, -1, -1};
  EXPECT_OK(st_set_trace_callback(release_twice, &r));
  EXPECT_OK(st_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  EXPECT_OK(st_set_trace_callback(NULL, NULL));
  assert_true(r.reports > 1);
  EXPECT_STATUS(ST_OK, r.first);
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, r.second);
  expect_dead(t);
  /* out(i, j) = base(j, i) = j * 7 + i */
  expect_layout(out, 2, DIMS(7, 5), DIMS(5, 1), 0);
  for (int64_t i = 0; i < 7; ++i)
    for (int64_t j = 0; j < 5; ++j) assert_true(read_f32(out, DIMS(i, j)) == (float)(j * 7 + i));
  assert_int_equal(atomic_load(&c.frees), 1); /* the source's storage went once the call was done */
  EXPECT_OK(st_tensor_release(out));
  assert_int_equal(atomic_load(&c.frees), atomic_load(&c.allocs));
  assert_int_equal(atomic_load(&c.bad_frees), 0);
}

/* st_contiguous of a contiguous tensor answers with the source itself; when
 * its last reference went during the call, the answer is a new handle of
 * the same tensor. */
static void release_from_a_trace_callback_inside_a_contiguous_no_op(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  st_tensor t = make_iota_f32(DIMS(3, 4), 2), out = {GARBAGE_ID};
  void* data = NULL;
  EXPECT_OK(st_tensor_data_ptr(t, &data));
  releaser r = {t, 0, -1, -1};
  EXPECT_OK(st_set_trace_callback(release_twice, &r));
  EXPECT_OK(st_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  EXPECT_OK(st_set_trace_callback(NULL, NULL));
  EXPECT_STATUS(ST_OK, r.first);
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, r.second);
  expect_dead(t);
  assert_true(out.id != 0 && out.id != t.id);
  void* out_data = NULL;
  EXPECT_OK(st_tensor_data_ptr(out, &out_data));
  assert_ptr_equal(out_data, data);
  expect_layout(out, 2, DIMS(3, 4), DIMS(4, 1), 0);
  assert_true(read_f32(out, DIMS(2, 3)) == 11.0f);
  assert_int_equal(atomic_load(&c.frees), 0);
  EXPECT_OK(st_tensor_release(out));
  assert_int_equal(atomic_load(&c.frees), 1);
  assert_int_equal(atomic_load(&c.allocs), 1);
}

/* ---- two threads release while a third copies ----------------------------- */

enum { kDoubleReleaseRounds = 2000 };

typedef struct double_release {
  pthread_barrier_t start, done;
  atomic_ullong src;  /* this round's source's id: one reference */
  st_tensor dst;
  atomic_int stop;    /* tells the copier to end */
  atomic_int oks[2];  /* this round's ST_OK releases, per releasing thread */
  atomic_long bad;    /* statuses no call may answer */
} double_release;

static void* copier(void* arg) {
  double_release* d = arg;
  while (!atomic_load(&d->stop)) {
    st_tensor src = {atomic_load(&d->src)};
    const st_status s = st_copy(d->dst, src, 0);
    if (s != ST_OK && s != ST_ERROR_INVALID_HANDLE) atomic_fetch_add(&d->bad, 1);
  }
  return NULL;
}

typedef struct releasing_thread {
  double_release* d;
  int me;
} releasing_thread;

static void* double_releaser(void* arg) {
  releasing_thread* r = arg;
  double_release* d = r->d;
  for (int round = 0; round < kDoubleReleaseRounds; ++round) {
    pthread_barrier_wait(&d->start);
    st_tensor src = {atomic_load(&d->src)};
    const st_status s = st_tensor_release(src);
    if (s == ST_OK) atomic_fetch_add(&d->oks[r->me], 1);
    else if (s != ST_ERROR_INVALID_HANDLE) atomic_fetch_add(&d->bad, 1);
    pthread_barrier_wait(&d->done);
  }
  return NULL;
}

static void two_threads_release_one_reference_while_a_third_copies(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  static double_release d;
  memset(&d, 0, sizeof d);
  assert_int_equal(pthread_barrier_init(&d.start, NULL, 3), 0);
  assert_int_equal(pthread_barrier_init(&d.done, NULL, 3), 0);
  d.dst = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
  st_tensor first = make_iota_f32(DIMS(4, 4), 2);
  atomic_store(&d.src, first.id);
  pthread_t copy_thread, release_threads[2];
  releasing_thread args[2] = {{&d, 0}, {&d, 1}};
  assert_int_equal(pthread_create(&copy_thread, NULL, copier, &d), 0);
  for (int i = 0; i < 2; ++i) assert_int_equal(pthread_create(&release_threads[i], NULL, double_releaser, &args[i]), 0);
  int wrong_rounds = 0;
  for (int round = 0; round < kDoubleReleaseRounds; ++round) {
    pthread_barrier_wait(&d.start);
    pthread_barrier_wait(&d.done);
    /* Exactly one of the two releases spent the one reference. */
    const int oks = atomic_exchange(&d.oks[0], 0) + atomic_exchange(&d.oks[1], 0);
    if (oks != 1) ++wrong_rounds;
    st_tensor next = make_iota_f32(DIMS(4, 4), 2);
    atomic_store(&d.src, next.id);
  }
  atomic_store(&d.stop, 1);
  assert_int_equal(pthread_join(copy_thread, NULL), 0);
  for (int i = 0; i < 2; ++i) assert_int_equal(pthread_join(release_threads[i], NULL), 0);
  assert_int_equal(wrong_rounds, 0);
  assert_int_equal(atomic_load(&d.bad), 0);
  st_tensor last = {atomic_load(&d.src)};
  EXPECT_OK(st_tensor_release(last));
  /* whatever the copier copied last is one of the sources: 0, 1, ..., 15 */
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 4; ++j) {
      const float v = read_f32(d.dst, DIMS(i, j));
      assert_true(v == 0.0f || v == (float)(i * 4 + j));
    }
  EXPECT_OK(st_tensor_release(d.dst));
  assert_int_equal(atomic_load(&c.frees), atomic_load(&c.allocs));
  pthread_barrier_destroy(&d.start);
  pthread_barrier_destroy(&d.done);
}

/* ---- eight threads releasing more than they hold --------------------------
 * Each round the main thread makes six shared 4x4 tensors; eight threads
 * copy them into tensors of their own, view them, retain and release them,
 * and release them whether or not they hold a reference. Per tensor, the
 * releases that answer ST_OK never outnumber the references it had. */

enum { kStressThreads = 8, kStressHandles = 6, kStressRounds = 150, kStressOps = 300 };

typedef struct over_release {
  pthread_barrier_t start, done;
  st_tensor handles[kStressHandles]; /* each with one reference at the start of a round */
  atomic_int oks[kStressHandles];    /* ST_OK releases of each this round */
  atomic_int retains[kStressHandles];
  atomic_long bad;
} over_release;

typedef struct stress_thread {
  over_release* o;
  unsigned seed;
  st_tensor mine; /* 4x4 float32, written by this thread alone */
} stress_thread;

static void* over_releaser(void* arg) {
  stress_thread* me = arg;
  over_release* o = me->o;
  unsigned seed = me->seed;
  for (int round = 0; round < kStressRounds; ++round) {
    pthread_barrier_wait(&o->start);
    for (int op = 0; op < kStressOps; ++op) {
      const int a = test_rand_r(&seed) % kStressHandles;
      st_tensor out = {0};
      st_status s;
      switch (test_rand_r(&seed) % 8) {
        case 0: /* release whether or not this thread holds a reference */
          s = st_tensor_release(o->handles[a]);
          if (s == ST_OK) atomic_fetch_add(&o->oks[a], 1);
          break;
        case 1: /* a reference this thread drops again at once */
          s = st_tensor_retain(o->handles[a]);
          if (s == ST_OK) {
            atomic_fetch_add(&o->retains[a], 1);
            s = st_tensor_release(o->handles[a]);
            if (s == ST_OK) atomic_fetch_add(&o->oks[a], 1);
          }
          break;
        case 2:
          s = st_contiguous(o->handles[a], ST_MEMORY_FORMAT_CONTIGUOUS, &out);
          if (s == ST_OK) {
            /* a contiguous tensor is answered with its own handle and one
             * more reference (stride.h): a retain, which lets the other
             * threads' releases succeed once more */
            const int same = out.id == o->handles[a].id;
            if (same) atomic_fetch_add(&o->retains[a], 1);
            s = st_tensor_release(out);
            if (same && s == ST_OK) atomic_fetch_add(&o->oks[a], 1);
          }
          break;
        case 3:
          s = st_transpose(o->handles[a], 0, 1, &out);
          if (s == ST_OK) s = st_tensor_release(out);
          break;
        default: /* into a tensor of this thread's own: the shared ones are only read */
          s = st_copy(me->mine, o->handles[a], 0);
          break;
      }
      if (s != ST_OK && s != ST_ERROR_INVALID_HANDLE) atomic_fetch_add(&o->bad, 1);
    }
    pthread_barrier_wait(&o->done);
  }
  return NULL;
}

static void eight_threads_release_more_than_they_hold(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  static over_release o;
  memset(&o, 0, sizeof o);
  assert_int_equal(pthread_barrier_init(&o.start, NULL, kStressThreads + 1), 0);
  assert_int_equal(pthread_barrier_init(&o.done, NULL, kStressThreads + 1), 0);
  int64_t live_before = -1;
  EXPECT_OK(st_live_tensor_count(&live_before));
  stress_thread args[kStressThreads];
  pthread_t threads[kStressThreads];
  for (int i = 0; i < kStressThreads; ++i) {
    args[i].o = &o;
    args[i].seed = 1700u + (unsigned)i;
    args[i].mine = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
    assert_int_equal(pthread_create(&threads[i], NULL, over_releaser, &args[i]), 0);
  }
  int wrong = 0;
  for (int round = 0; round < kStressRounds; ++round) {
    for (int k = 0; k < kStressHandles; ++k) {
      /* 4x4 float32 tensors, transposed or not, so that copies take the small
       * path and the transposing one */
      st_tensor t = make_iota_f32(DIMS(4, 4), 2);
      if (k % 2) {
        st_tensor tt = {0};
        EXPECT_OK(st_transpose(t, 0, 1, &tt));
        EXPECT_OK(st_tensor_release(t));
        t = tt;
      }
      o.handles[k] = t;
    }
    pthread_barrier_wait(&o.start);
    pthread_barrier_wait(&o.done);
    for (int k = 0; k < kStressHandles; ++k) {
      /* one reference to start with, one per successful retain */
      const int held = 1 + atomic_exchange(&o.retains[k], 0);
      const int oks = atomic_exchange(&o.oks[k], 0);
      if (oks > held) ++wrong;
      if (oks < held) { /* nobody spent the first reference: it is still live */
        if (st_tensor_release(o.handles[k]) != ST_OK) ++wrong;
      } else if (st_tensor_release(o.handles[k]) != ST_ERROR_INVALID_HANDLE) {
        ++wrong;
      }
    }
  }
  for (int i = 0; i < kStressThreads; ++i) {
    assert_int_equal(pthread_join(threads[i], NULL), 0);
    /* what a thread copied last is one of the shared tensors: i * 4 + j at (i, j) or at (j, i) */
    for (int64_t r = 0; r < 4; ++r)
      for (int64_t c = 0; c < 4; ++c) {
        const float v = read_f32(args[i].mine, DIMS(r, c));
        assert_true(v == (float)(r * 4 + c) || v == (float)(c * 4 + r) || v == 0.0f);
      }
    EXPECT_OK(st_tensor_release(args[i].mine));
  }
  assert_int_equal(wrong, 0);
  assert_int_equal(atomic_load(&o.bad), 0);
  int64_t live_after = -1;
  EXPECT_OK(st_live_tensor_count(&live_after));
  assert_int_equal(live_after, live_before);
  assert_int_equal(atomic_load(&c.frees), atomic_load(&c.allocs));
  assert_int_equal(atomic_load(&c.bad_frees), 0);
  pthread_barrier_destroy(&o.start);
  pthread_barrier_destroy(&o.done);
}

/* ---- a handle given back as its own answer, then released elsewhere -------- */

/* The two threads order themselves through relaxed flags, which order the
 * steps but make nothing of one thread happen before the other's. So the
 * only thing that orders st_contiguous's reads of the tensor before the
 * other thread frees it is the handle's own word: the step that turns the
 * call's pin into the answer's reference must publish those reads (a
 * thread sanitizer build reports a race here every time if it does not). */
typedef struct handed_back {
  st_tensor h;
  st_tensor answer;
  st_status answered;
  atomic_int answered_flag;   /* relaxed on purpose */
  st_status first, second;
} handed_back;

static void* answer_with_itself(void* arg) {
  handed_back* hb = arg;
  hb->answered = st_contiguous(hb->h, ST_MEMORY_FORMAT_CONTIGUOUS, &hb->answer);
  atomic_store_explicit(&hb->answered_flag, 1, memory_order_relaxed);
  return NULL;
}

static void* release_both_references(void* arg) {
  handed_back* hb = arg;
  while (!atomic_load_explicit(&hb->answered_flag, memory_order_relaxed)) {
  }
  hb->first = st_tensor_release(hb->h);
  hb->second = st_tensor_release(hb->h); /* the last reference: frees the tensor */
  return NULL;
}

static void a_handle_answered_with_itself_is_freed_by_another_thread(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  for (int round = 0; round < 50; ++round) {
    static handed_back hb;
    memset(&hb, 0, sizeof hb);
    hb.h = make_iota_f32(DIMS(4, 4), 2);
    pthread_t a, b;
    assert_int_equal(pthread_create(&b, NULL, release_both_references, &hb), 0);
    assert_int_equal(pthread_create(&a, NULL, answer_with_itself, &hb), 0);
    assert_int_equal(pthread_join(a, NULL), 0);
    assert_int_equal(pthread_join(b, NULL), 0);
    assert_int_equal(hb.answered, ST_OK);
    assert_true(hb.answer.id == hb.h.id); /* a contiguous tensor answers with its own handle */
    assert_int_equal(hb.first, ST_OK);
    assert_int_equal(hb.second, ST_OK);
    assert_int_equal(st_tensor_release(hb.h), ST_ERROR_INVALID_HANDLE);
  }
  assert_int_equal(atomic_load(&c.frees), atomic_load(&c.allocs));
  assert_int_equal(atomic_load(&c.bad_frees), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(release_twice_from_a_trace_callback_inside_contiguous, trace_off),
      cmocka_unit_test_teardown(release_from_a_trace_callback_inside_a_contiguous_no_op, trace_off),
      cmocka_unit_test_teardown(two_threads_release_one_reference_while_a_third_copies, restore_default_allocator),
      cmocka_unit_test_teardown(eight_threads_release_more_than_they_hold, restore_default_allocator),
      cmocka_unit_test_teardown(a_handle_answered_with_itself_is_freed_by_another_thread, restore_default_allocator),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
