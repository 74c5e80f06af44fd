/* foreign_memory: hand memory you allocated to stride, with a deleter.
 *
 * st_tensor_from_data wraps a buffer without copying. With a deleter, the
 * tensor takes the buffer over: the deleter runs exactly once, when the
 * last tensor using the memory is gone -- and views count, so a view can
 * outlive the tensor it came from. If the wrap fails, the deleter is never
 * called and the buffer is still yours. */
#include <stdio.h>
#include <stdlib.h>

#include "stride.h"

#define CHECK(call)                                                                             \
  do {                                                                                          \
    st_status s_ = (call);                                                                      \
    if (s_ != ST_OK) {                                                                          \
      fprintf(stderr, "%s: %s\n  %s\n", #call, st_status_name(s_), st_last_error_message()); \
      return 1;                                                                                 \
    }                                                                                           \
  } while (0)

#define EXPECT(cond)                                              \
  do {                                                            \
    if (!(cond)) {                                                \
      fprintf(stderr, "line %d: %s is false\n", __LINE__, #cond); \
      return 1;                                                   \
    }                                                             \
  } while (0)

/* What the deleter was given, so the program can check it. */
struct freed {
  int calls;
  void* data;
};

/* Gets back the `data` and `deleter_ctx` passed to st_tensor_from_data. */
static void free_buffer(void* data, void* ctx) {
  struct freed* f = ctx;
  f->calls += 1;
  f->data = data;
  free(data);
}

int main(void) {
  const st_device cpu = {ST_DEVICE_CPU, 0};
  const int64_t sizes[2] = {3, 4};
  double* buf = malloc(12 * sizeof(double));
  EXPECT(buf != NULL);
  for (int i = 0; i < 12; ++i) buf[i] = i;

  /* After this succeeds the buffer belongs to the tensor: never free it yourself. */
  struct freed f = {0, NULL};
  st_tensor x = {0};
  CHECK(st_tensor_from_data(buf, sizes, NULL, 2, ST_FLOAT64, cpu, free_buffer, &f, &x));

  /* A view of row 2, reversed: it shares the buffer (and keeps it alive). */
  st_tensor row = {0}, reversed = {0};
  CHECK(st_select(x, 0, 2, &row));
  CHECK(st_flip(row, 0, &reversed));
  CHECK(st_tensor_release(row));
  CHECK(st_tensor_release(x));
  EXPECT(f.calls == 0); /* `reversed` still uses the memory */

  double* r = NULL;
  int64_t stride = 0;
  CHECK(st_tensor_data_ptr(reversed, (void**)&r));
  CHECK(st_tensor_strides(reversed, &stride, 1));
  printf("row 2 reversed: %g %g %g %g (stride %lld)\n", r[0], r[stride], r[2 * stride], r[3 * stride],
         (long long)stride);
  EXPECT(stride == -1 && r[0] == 11 && r[3 * stride] == 8);

  /* Several references are fine: the deleter waits for the last one. */
  CHECK(st_tensor_retain(reversed));
  CHECK(st_tensor_release(reversed));
  EXPECT(f.calls == 0);
  CHECK(st_tensor_release(reversed));
  EXPECT(f.calls == 1 && f.data == buf); /* exactly once, with the pointer we gave */

  /* A wrap that fails (a negative size) does not take the buffer over. */
  float* other = malloc(4 * sizeof(float));
  EXPECT(other != NULL);
  const int64_t bad_sizes[1] = {-4};
  struct freed g = {0, NULL};
  st_tensor y = {0};
  st_status s = st_tensor_from_data(other, bad_sizes, NULL, 1, ST_FLOAT32, cpu, free_buffer, &g, &y);
  printf("wrap with size -4: %s\n  %s\n", st_status_name(s), st_last_error_message());
  EXPECT(s == ST_ERROR_INVALID_ARGUMENT && y.id == 0 && g.calls == 0);
  free(other); /* still ours */

  printf("ok: the deleter ran %d time\n", f.calls);
  return 0;
}
