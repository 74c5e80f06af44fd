/* When the system refuses to start the threads a kernel may use (a limit on
 * processes or address space), the kernel runs on the threads it could
 * start, the calling thread at least, and the process goes on. Here every
 * thread started after the refusal is switched on would need a stack as
 * large as the whole address space, through glibc's
 * pthread_setattr_default_np: elsewhere the test says so and is skipped. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "support.h"

#ifdef __GLIBC__

enum { kElements = 4 << 20 }; /* far above the grain: split across threads when they can be had */

typedef struct copy_result {
  st_status copy, fill;
  int64_t wrong;
} copy_result;

static void* copy_while_threads_are_refused(void* arg) {
  copy_result* r = arg;
  pthread_attr_t normal, huge;
  pthread_getattr_default_np(&normal);
  pthread_attr_init(&huge);
  pthread_attr_setstacksize(&huge, (size_t)1 << 47);
  pthread_setattr_default_np(&huge);

  st_tensor src = make_iota_f32(DIMS(kElements), 1), dst = make_tensor(DIMS(kElements), 1, ST_FLOAT32);
  r->copy = st_copy(dst, src, 0);
  float* p = NULL;
  st_tensor_data_ptr(dst, (void**)&p);
  for (int64_t i = 0; i < kElements; ++i) r->wrong += p[i] != (float)i;
  r->fill = st_fill(dst, 2.5);
  for (int64_t i = 0; i < kElements; ++i) r->wrong += p[i] != 2.5f;
  st_tensor_release(src);
  st_tensor_release(dst);

  pthread_setattr_default_np(&normal);
  pthread_attr_destroy(&huge);
  pthread_attr_destroy(&normal);
  return NULL;
}

static void kernels_run_on_the_threads_the_system_starts(void** state) {
  (void)state;
  EXPECT_OK(st_set_num_threads(8));
  /* A new thread: its OpenMP team starts from nothing. */
  copy_result r = {-1, -1, 0};
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, copy_while_threads_are_refused, &r), 0);
  assert_int_equal(pthread_join(th, NULL), 0);
  EXPECT_OK(r.copy);
  EXPECT_OK(r.fill);
  assert_int_equal(r.wrong, 0);
  /* Threads can be had again: the same work on this thread. */
  st_tensor src = make_iota_f32(DIMS(kElements), 1), dst = make_tensor(DIMS(kElements), 1, ST_FLOAT32);
  EXPECT_OK(st_copy(dst, src, 0));
  assert_true(read_f32(dst, DIMS(kElements - 1)) == (float)(kElements - 1));
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(dst));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(kernels_run_on_the_threads_the_system_starts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
#else
int main(void) {
  puts("skipped: the system is made to refuse threads through glibc's pthread_setattr_default_np, "
       "which this C library lacks");
  return 77;
}
#endif
