/* channels_last: the same NCHW tensor in two memory orders.
 *
 * A tensor's shape says what its dims mean (N, C, H, W); its strides say
 * how they sit in memory. ST_MEMORY_FORMAT_CHANNELS_LAST keeps the NCHW
 * shape but stores the channels of a pixel side by side (NHWC order), as
 * many convolution kernels want. st_contiguous moves a tensor into a
 * format (copying only when it is not there already) and
 * st_tensor_is_contiguous asks whether it is. */
#include <stdio.h>

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

enum { N = 1, C = 3, H = 2, W = 2 };

/* 1 when t is laid out in fmt, 0 when not, -1 on error. */
static int is_in(st_tensor t, st_memory_format fmt) {
  int32_t yes = -1;
  return st_tensor_is_contiguous(t, fmt, &yes) == ST_OK ? yes : -1;
}

int main(void) {
  const int64_t sizes[4] = {N, C, H, W};
  st_tensor x = {0};
  CHECK(st_tensor_create(sizes, 4, ST_FLOAT32, (st_device){ST_DEVICE_CPU, 0}, &x));
  float* xd = NULL;
  CHECK(st_tensor_data_ptr(x, (void**)&xd));
  for (int i = 0; i < N * C * H * W; ++i) xd[i] = (float)i; /* x[0][c][h][w] = c*4 + h*2 + w */
  EXPECT(is_in(x, ST_MEMORY_FORMAT_CONTIGUOUS) == 1 && is_in(x, ST_MEMORY_FORMAT_CHANNELS_LAST) == 0);

  /* To channels-last: a copy, same sizes, strides {H*W*C, 1, W*C, C}. */
  st_tensor y = {0};
  CHECK(st_contiguous(x, ST_MEMORY_FORMAT_CHANNELS_LAST, &y));
  int64_t ys[4];
  CHECK(st_tensor_strides(y, ys, 4));
  printf("channels-last strides: %lld %lld %lld %lld\n", (long long)ys[0], (long long)ys[1], (long long)ys[2],
         (long long)ys[3]);
  EXPECT(ys[0] == H * W * C && ys[1] == 1 && ys[2] == W * C && ys[3] == C);
  EXPECT(is_in(y, ST_MEMORY_FORMAT_CHANNELS_LAST) == 1 && is_in(y, ST_MEMORY_FORMAT_CONTIGUOUS) == 0);

  /* Same element at the same index; in memory, the 3 channels of pixel (0, 0) come first. */
  float* yd = NULL;
  CHECK(st_tensor_data_ptr(y, (void**)&yd));
  for (int c = 0; c < C; ++c)
    for (int h = 0; h < H; ++h)
      for (int w = 0; w < W; ++w) EXPECT(yd[c * ys[1] + h * ys[2] + w * ys[3]] == xd[(c * H + h) * W + w]);
  printf("memory of y starts: %g %g %g (channels of pixel 0,0)\n", yd[0], yd[1], yd[2]);
  EXPECT(yd[0] == 0 && yd[1] == 4 && yd[2] == 8);

  /* Asking again costs nothing: y already is channels-last, so the answer
   * is y itself, with one more reference to release. */
  st_tensor y_again = {0};
  CHECK(st_contiguous(y, ST_MEMORY_FORMAT_CHANNELS_LAST, &y_again));
  EXPECT(y_again.id == y.id);
  CHECK(st_tensor_release(y_again));

  /* And back to row-major: equal to x, element for element and in memory. */
  st_tensor z = {0};
  CHECK(st_contiguous(y, ST_MEMORY_FORMAT_CONTIGUOUS, &z));
  EXPECT(is_in(z, ST_MEMORY_FORMAT_CONTIGUOUS) == 1);
  float* zd = NULL;
  CHECK(st_tensor_data_ptr(z, (void**)&zd));
  for (int i = 0; i < N * C * H * W; ++i) EXPECT(zd[i] == xd[i]);

  /* Channels-last is a 4-d format: a 3-d tensor cannot be put in it. */
  st_tensor plane = {0}, bad = {0};
  CHECK(st_select(x, 0, 0, &plane));
  st_status s = st_contiguous(plane, ST_MEMORY_FORMAT_CHANNELS_LAST, &bad);
  printf("3-d to channels-last: %s\n  %s\n", st_status_name(s), st_last_error_message());
  EXPECT(s == ST_ERROR_INVALID_ARGUMENT && bad.id == 0);

  st_tensor all[] = {x, y, z, plane};
  for (int i = 0; i < 4; ++i) CHECK(st_tensor_release(all[i]));
  printf("ok\n");
  return 0;
}
