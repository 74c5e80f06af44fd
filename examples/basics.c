/* basics: create a tensor, look at it through views, and read errors.
 *
 * Every stride call returns an st_status. ST_OK means it worked; anything
 * else names what went wrong, and st_last_error_message() says it in words
 * (function, argument, values). A failed call writes nothing but a null
 * handle to its `out`. The program exits with 1 if anything is not as the
 * comments say. */
#include <stdio.h>
#include <string.h>

#include "stride.h"

/* Stops the program with the status and message of a call that should have worked. */
#define CHECK(call)                                                                             \
  do {                                                                                          \
    st_status s_ = (call);                                                                      \
    if (s_ != ST_OK) {                                                                          \
      fprintf(stderr, "%s: %s\n  %s\n", #call, st_status_name(s_), st_last_error_message()); \
      return 1;                                                                                 \
    }                                                                                           \
  } while (0)

#define EXPECT(cond)                                            \
  do {                                                          \
    if (!(cond)) {                                              \
      fprintf(stderr, "line %d: %s is false\n", __LINE__, #cond); \
      return 1;                                                 \
    }                                                           \
  } while (0)

int main(void) {
  /* A 2x3 int32 tensor on the CPU. Its memory is uninitialized: fill it. */
  const int64_t sizes[2] = {2, 3};
  st_tensor x = {0};
  CHECK(st_tensor_create(sizes, 2, ST_INT32, (st_device){ST_DEVICE_CPU, 0}, &x));
  int32_t* data = NULL;
  CHECK(st_tensor_data_ptr(x, (void**)&data));
  for (int i = 0; i < 6; ++i) data[i] = 10 * i; /* x = [[0 10 20] [30 40 50]] */

  /* A view reads the same memory through other sizes and strides (in
   * elements). Column 2 of x: select dim 1, index 2 -> sizes {2}, strides {3}. */
  st_tensor col = {0};
  CHECK(st_select(x, 1, 2, &col));
  int64_t n = 0, stride = 0;
  int32_t* c = NULL;
  CHECK(st_tensor_numel(col, &n));
  CHECK(st_tensor_strides(col, &stride, 1));
  CHECK(st_tensor_data_ptr(col, (void**)&c));
  EXPECT(n == 2 && stride == 3);
  EXPECT(c[0] == 20 && c[1 * stride] == 50);
  printf("column 2 of x: %d %d (stride %lld)\n", c[0], c[stride], (long long)stride);

  /* A failing call: dim 5 does not exist. The status says which kind of
   * error, the message says exactly what, and `out` is the null handle. */
  st_tensor bad = {12345};
  st_status s = st_transpose(x, 0, 5, &bad);
  printf("st_transpose(x, 0, 5): %s\n  %s\n", st_status_name(s), st_last_error_message());
  EXPECT(s == ST_ERROR_INVALID_ARGUMENT);
  EXPECT(bad.id == 0);
  EXPECT(strstr(st_last_error_message(), "st_transpose") != NULL);

  /* Releasing x leaves col working: the view holds the memory too. */
  CHECK(st_tensor_release(x));
  EXPECT(c[1 * stride] == 50);

  /* A released handle is detected, never a crash. */
  int32_t ndim = -1;
  s = st_tensor_ndim(x, &ndim);
  printf("st_tensor_ndim(released x): %s\n  %s\n", st_status_name(s), st_last_error_message());
  EXPECT(s == ST_ERROR_INVALID_HANDLE && ndim == -1); /* nothing was written */

  /* Successful calls leave the last message alone; decide by the status. */
  CHECK(st_tensor_ndim(col, &ndim));
  EXPECT(ndim == 1);
  EXPECT(strstr(st_last_error_message(), "st_tensor_ndim") != NULL);

  CHECK(st_tensor_release(col)); /* the memory is freed here */
  printf("ok\n");
  return 0;
}
