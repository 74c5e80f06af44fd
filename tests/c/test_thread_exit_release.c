/* Handles released by a thread as it ends, from the destructor of a
 * pthread key (thread-specific data): each release gives its slot back for
 * reuse, and nothing is left allocated (the ASan build checks leaks). */
/* ctest-labels: concurrency */
#include <pthread.h>
#include <stdlib.h>

#include "support.h"

enum { kThreads = 300, kSettled = 100 };

static pthread_key_t g_key;
static atomic_int g_release_failures;

static void release_at_exit(void* value) {
  st_tensor t = {(uint64_t)(uintptr_t)value};
  if (st_tensor_release(t) != ST_OK) atomic_fetch_add(&g_release_failures, 1);
}

static void* hold_until_exit(void* arg) {
  /* The only call this thread makes is the release in the key's destructor. */
  pthread_setspecific(g_key, arg);
  return NULL;
}

static uint32_t slot_of(st_tensor t) { return (uint32_t)(t.id & 0xffffffffu); }

/* Hands a new handle to a new thread running `body` (which leaves it to the
 * key's destructor), waits for the thread to end, and returns the handle. */
static st_tensor hand_over_to_a_thread(void* (*body)(void*)) {
  st_tensor t = make_tensor(DIMS(3), 1, ST_FLOAT32);
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, body, (void*)(uintptr_t)t.id), 0);
  assert_int_equal(pthread_join(th, NULL), 0);
  expect_dead(t);
  return t;
}

static void expect_no_failure_and_no_live_handle_left(int64_t live_before) {
  assert_int_equal(atomic_load(&g_release_failures), 0);
  int64_t live_after = -1;
  EXPECT_OK(st_live_tensor_count(&live_after));
  assert_int_equal(live_after, live_before);
}

/* One thread after another receives a handle and releases it only in its
 * key's destructor. Once the main thread's own cache of free slots has run
 * dry, every new handle reuses the slot the last thread gave back; a slot
 * kept by a dead thread would make each round take a slot never used
 * before. */
static void releases_from_a_key_destructor_give_their_slots_back(void** state) {
  (void)state;
  assert_true(sizeof(uintptr_t) >= sizeof(uint64_t));
  assert_int_equal(pthread_key_create(&g_key, release_at_exit), 0);
  int64_t live_before = -1;
  EXPECT_OK(st_live_tensor_count(&live_before));
  uint32_t settled_slots[kThreads - kSettled];
  int distinct = 0;
  for (int i = 0; i < kThreads; ++i) {
    const st_tensor t = hand_over_to_a_thread(hold_until_exit);
    if (i >= kSettled) {
      int seen = 0;
      for (int k = 0; k < distinct; ++k) seen |= settled_slots[k] == slot_of(t);
      if (!seen) settled_slots[distinct++] = slot_of(t);
    }
  }
  expect_no_failure_and_no_live_handle_left(live_before);
  /* Released slots are reused: the settled rounds share very few slots. */
  if (distinct > 2) fprintf(stderr, "%d rounds used %d distinct slots\n", kThreads - kSettled, distinct);
  assert_true(distinct <= 2);
  assert_int_equal(pthread_key_delete(g_key), 0);
}

/* The same with threads that made and released tensors of their own before
 * they end, so that they hold free slots of their own when the key's
 * destructor releases one more. */
static void* work_then_hold_until_exit(void* arg) {
  for (int i = 0; i < 40; ++i) {
    st_tensor t = make_tensor(DIMS(2), 1, ST_INT8);
    if (st_tensor_release(t) != ST_OK) atomic_fetch_add(&g_release_failures, 1);
  }
  pthread_setspecific(g_key, arg);
  return NULL;
}

static void releases_from_a_key_destructor_after_other_work_give_their_slots_back(void** state) {
  (void)state;
  assert_int_equal(pthread_key_create(&g_key, release_at_exit), 0);
  int64_t live_before = -1;
  EXPECT_OK(st_live_tensor_count(&live_before));
  uint32_t highest_early = 0, highest_late = 0;
  for (int i = 0; i < kThreads; ++i) {
    const st_tensor t = hand_over_to_a_thread(work_then_hold_until_exit);
    uint32_t* highest = i < kSettled ? &highest_early : &highest_late;
    if (slot_of(t) > *highest) *highest = slot_of(t);
  }
  expect_no_failure_and_no_live_handle_left(live_before);
  /* No slot is lost with a dead thread: later rounds need no slot that the
   * early ones did not. */
  assert_true(highest_late <= highest_early);
  assert_int_equal(pthread_key_delete(g_key), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(releases_from_a_key_destructor_give_their_slots_back),
      cmocka_unit_test(releases_from_a_key_destructor_after_other_work_give_their_slots_back),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
