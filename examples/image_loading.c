/* image_loading: a batch of 8-bit images, as decoders write them (NHWC:
 * row by row, the channels of each pixel side by side), turned into the
 * float32 NCHW tensor a network expects, in one st_copy.
 *
 * Nothing is copied to change the layout first: the decoder's buffer is
 * wrapped as an NHWC tensor, a permuted view of it reads it as NCHW, and
 * st_copy converts uint8 to float32 while it writes the contiguous NCHW
 * destination. (stride does not scale: dividing by 255 is the network's
 * own first step, or yours.) */
#include <stdint.h>
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

enum { N = 2, H = 4, W = 5, C = 3 };

int main(void) {
  /* What a decoder hands over: N images of H x W pixels, C bytes each. */
  static uint8_t pixels[N * H * W * C];
  for (int i = 0; i < N * H * W * C; ++i) pixels[i] = (uint8_t)(i * 7 % 256);

  /* Wrap it without copying. NULL strides: row-major over the NHWC sizes.
   * NULL deleter: the buffer stays ours (it is static here). */
  const st_device cpu = {ST_DEVICE_CPU, 0};
  const int64_t nhwc_sizes[4] = {N, H, W, C};
  st_tensor nhwc = {0};
  CHECK(st_tensor_from_data(pixels, nhwc_sizes, NULL, 4, ST_UINT8, cpu, NULL, NULL, &nhwc));

  /* Dim i of the view is dim perm[i] of the wrap: sizes {N, C, H, W},
   * strides {H*W*C, 1, W*C, C} -- NCHW indexing over NHWC memory. */
  const int32_t perm[4] = {0, 3, 1, 2};
  st_tensor as_nchw = {0};
  CHECK(st_permute(nhwc, perm, 4, &as_nchw));

  /* The destination: float32, contiguous NCHW. One call converts and lays out. */
  const int64_t nchw_sizes[4] = {N, C, H, W};
  st_tensor input = {0};
  CHECK(st_tensor_create(nchw_sizes, 4, ST_FLOAT32, cpu, &input));
  CHECK(st_copy(input, as_nchw, 0));

  /* Check every element against the decoder's buffer, by hand. */
  const float* x = NULL;
  CHECK(st_tensor_data_ptr(input, (void**)&x));
  int wrong = 0;
  for (int n = 0; n < N; ++n)
    for (int c = 0; c < C; ++c)
      for (int h = 0; h < H; ++h)
        for (int w = 0; w < W; ++w) {
          float want = (float)pixels[((n * H + h) * W + w) * C + c];
          float got = x[((n * C + c) * H + h) * W + w];
          if (got != want && wrong++ < 5) fprintf(stderr, "[%d][%d][%d][%d]: %g, want %g\n", n, c, h, w, got, want);
        }
  printf("image 1, channel 2, first row: %g %g %g %g %g\n", x[(1 * C + 2) * H * W + 0], x[(1 * C + 2) * H * W + 1],
         x[(1 * C + 2) * H * W + 2], x[(1 * C + 2) * H * W + 3], x[(1 * C + 2) * H * W + 4]);

  CHECK(st_tensor_release(as_nchw));
  CHECK(st_tensor_release(nhwc));
  CHECK(st_tensor_release(input));
  if (wrong) {
    fprintf(stderr, "%d elements differ\n", wrong);
    return 1;
  }
  printf("ok: %d x %d x %d x %d uint8 NHWC -> float32 NCHW\n", N, H, W, C);
  return 0;
}
