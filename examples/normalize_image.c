/* ToTensor + Normalize in one call: a batch of uint8 images in NHWC (as an
 * image decoder writes them) becomes float32 NCHW (as a network reads it),
 * each channel scaled to (x / 255 - mean) / std, in a single pass.
 *
 *   scale[c] = 1 / (255 * std[c]),  shift[c] = -mean[c] / std[c]
 *   dst = fma(x, scale[c], shift[c])
 */
#include <stdint.h>
#include <stdio.h>

#include "stride.h"

#define CHECK(call)                                                                    \
  do {                                                                                 \
    st_status s_ = (call);                                                             \
    if (s_ != ST_OK) {                                                                 \
      fprintf(stderr, "%s failed: %s (%s)\n", #call, st_status_name(s_), st_last_error_message()); \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)

enum { N = 2, H = 4, W = 5, C = 3 };

int main(void) {
  /* The decoder's pixels: N images of H x W pixels of C bytes each. */
  static uint8_t pixels[N][H][W][C];
  for (int n = 0; n < N; ++n)
    for (int h = 0; h < H; ++h)
      for (int w = 0; w < W; ++w)
        for (int c = 0; c < C; ++c) pixels[n][h][w][c] = (uint8_t)(n * 100 + h * 20 + w * 4 + c * 50);

  /* torchvision's ImageNet statistics. */
  const double mean[C] = {0.485, 0.456, 0.406}, std_dev[C] = {0.229, 0.224, 0.225};
  double scale[C], shift[C];
  for (int c = 0; c < C; ++c) {
    scale[c] = 1.0 / (255.0 * std_dev[c]);
    shift[c] = -mean[c] / std_dev[c];
  }

  /* Wrap the pixels (no copy), and view them as NCHW: dims (N, C, H, W). */
  const int64_t nhwc_sizes[4] = {N, H, W, C};
  st_tensor nhwc, as_nchw, out;
  CHECK(st_tensor_from_data(pixels, nhwc_sizes, NULL, 4, ST_UINT8, (st_device){ST_DEVICE_CPU, 0}, NULL, NULL, &nhwc));
  const int32_t to_nchw[4] = {0, 3, 1, 2};
  CHECK(st_permute(nhwc, to_nchw, 4, &as_nchw));

  /* The network's input: a new contiguous float32 NCHW tensor. */
  const int64_t nchw_sizes[4] = {N, C, H, W};
  CHECK(st_tensor_create(nchw_sizes, 4, ST_FLOAT32, (st_device){ST_DEVICE_CPU, 0}, &out));

  /* One pass: convert, transpose and normalize; dim 1 (C) picks the channel. */
  const st_scale_shift normalize = {scale, shift, C, 1, 0};
  CHECK(st_copy_scaled(out, as_nchw, &normalize, 0));

  /* Check every element against the textbook formula. */
  void* data;
  CHECK(st_tensor_data_ptr(out, &data));
  const float* x = data;
  double worst = 0;
  for (int n = 0; n < N; ++n)
    for (int c = 0; c < C; ++c)
      for (int h = 0; h < H; ++h)
        for (int w = 0; w < W; ++w) {
          const double want = (pixels[n][h][w][c] / 255.0 - mean[c]) / std_dev[c];
          double err = x[((n * C + c) * H + h) * W + w] - want;
          if (err < 0) err = -err;
          if (err > worst) worst = err;
        }
  printf("out[0][0][0][0] = %.4f, out[1][2][3][4] = %.4f, largest error %.1e\n", x[0],
         x[((1 * C + 2) * H + 3) * W + 4], worst);

  CHECK(st_tensor_release(out));
  CHECK(st_tensor_release(as_nchw));
  CHECK(st_tensor_release(nhwc));
  return worst < 1e-5 ? 0 : 1;
}
