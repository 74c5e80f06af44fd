/* quantize_mxfp4: a float32 weight stored transposed becomes MXFP4, with
 * its scales in the swizzled "128x4" layout that cuBLAS and cuDNN read,
 * and comes back as float32; the program prints the largest error of each
 * block and checks every one.
 *
 * A linear layer's weight W (M outputs x K inputs) is often stored as its
 * transpose, K x M. A block-scaled GEMM wants it (M, K), quantized along K
 * in blocks of 32 values sharing one power-of-two scale (OCP MX).
 * st_transpose gives the (M, K) view without copying, and
 * st_quantize_blocks reads it as it is. The scales go straight into the
 * layout the GEMM reads, through a view (docs/block-formats.md). */
#include <stdint.h>
#include <stdio.h>

#include "stride.h"

#define CHECK(call)                                                                                 \
  do {                                                                                              \
    st_status s_ = (call);                                                                          \
    if (s_ != ST_OK) {                                                                              \
      fprintf(stderr, "%s failed: %s (%s)\n", #call, st_status_name(s_), st_last_error_message()); \
      return 1;                                                                                     \
    }                                                                                               \
  } while (0)

/* M and K are multiples of 128 and of 4 blocks: no padding. */
enum { M = 128, K = 256, B = 32, KB = K / B, KP = 8 };

/* 2^e, exactly. */
static double pow2(int e) {
  double x = 1.0;
  for (; e > 0; --e) x *= 2.0;
  for (; e < 0; ++e) x /= 2.0;
  return x;
}

/* The byte of scale (r, c) in the 128x4 layout: tiles of 128 rows by 4
 * blocks, 512 bytes each, rows r, r + 32, r + 64, r + 96 side by side. */
static int swizzled(int r, int c) {
  return (r / 128 * (KP / 4) + c / 4) * 512 + (r % 32) * 16 + (r / 32 % 4) * 4 + c % 4;
}

int main(void) {
  const st_device cpu = {ST_DEVICE_CPU, 0};

  /* The weight as it is stored: K x M, pseudo-random in [-1, 1), each
   * output row at its own scale. */
  static float stored[K][M];
  uint32_t seed = 12345;
  for (int k = 0; k < K; ++k) {
    for (int m = 0; m < M; ++m) {
      seed = seed * 1103515245u + 12345u;
      stored[k][m] = (float)(((double)(seed >> 8) / 8388608.0 - 1.0) * pow2(m % 9 - 4));
    }
  }

  /* Wrap it (no copy) and view it as (M, K): strides (1, M). */
  const int64_t stored_sizes[2] = {K, M};
  st_tensor w_stored, w;
  CHECK(st_tensor_from_data(stored, stored_sizes, NULL, 2, ST_FLOAT32, cpu, NULL, NULL, &w_stored));
  CHECK(st_transpose(w_stored, 0, 1, &w));

  /* MXFP4 values: two to a byte, (M, K / 2). The scales: M x KP bytes in
   * the 128x4 layout (KP, the blocks of a row, rounded up to 4). */
  static uint8_t values[M][K / 2];
  static uint8_t scales[M * KP];
  const int64_t values_sizes[2] = {M, K / 2}, scales_size = M * KP;
  st_tensor v, d;
  CHECK(st_tensor_from_data(values, values_sizes, NULL, 2, ST_FLOAT4_E2M1FN_X2, cpu, NULL, NULL, &v));
  CHECK(st_tensor_from_data(scales, &scales_size, NULL, 1, ST_FLOAT8_E8M0FNU, cpu, NULL, NULL, &d));

  /* Split rows into tiles of 4 x 32 and K into groups of 4 blocks: the
   * weight and the values as (M/128, 4, 32, K/(4B), 4B), the scales' buffer
   * as the same five dims with the layout's strides. Quantizing along the
   * last dim then writes scale (r, c) where the GEMM looks for it. */
  const int64_t w5_sizes[5] = {M / 128, 4, 32, K / (4 * B), 4 * B};
  const int64_t v5_sizes[5] = {M / 128, 4, 32, K / (4 * B), 2 * B};
  const int64_t d5_sizes[5] = {M / 128, 4, 32, KP / 4, 4}, d5_strides[5] = {128 * KP, 4, 16, 512, 1};
  st_tensor w5, v5, d5;
  CHECK(st_view(w, w5_sizes, 5, &w5));
  CHECK(st_view(v, v5_sizes, 5, &v5));
  CHECK(st_as_strided(d, d5_sizes, d5_strides, 5, 0, &d5));

  const st_block_spec spec = {sizeof spec, ST_BLOCK_MXFP4_E2M1, -1, ST_SCALE_FLOOR, 0.0f};
  CHECK(st_quantize_blocks(v5, d5, w5, &spec));

  /* And back to float32 (M, K), through the same views. */
  static float back[M][K];
  const int64_t back_sizes[2] = {M, K};
  st_tensor b, b5;
  CHECK(st_tensor_from_data(back, back_sizes, NULL, 2, ST_FLOAT32, cpu, NULL, NULL, &b));
  CHECK(st_view(b, w5_sizes, 5, &b5));
  CHECK(st_dequantize_blocks(b5, v5, d5, &spec));

  /* The largest error of each block, in units of its scale X = 2^(byte -
   * 127). FLOOR puts the block's largest |w| / X in [4, 8): E2M1's spacing
   * there is 2, so rounding is off by at most X, and values from 6X to 8X
   * saturate to 6X: every error is at most 2X. */
  printf("largest |w - back| of each block of 32 along K (its scale):\n");
  double worst = 0;
  for (int r = 0; r < M; ++r) {
    if (r < 4) printf("row %d:", r);
    for (int c = 0; c < KB; ++c) {
      const int exponent = scales[swizzled(r, c)] - 127;
      double err = 0;
      for (int k = c * B; k < (c + 1) * B; ++k) {
        const double e = (double)stored[k][r] - (double)back[r][k];
        if (e > err || -e > err) err = e > 0 ? e : -e;
      }
      if (r < 4) printf(" %.4f (2^%d)", err, exponent);
      const double in_units = err / pow2(exponent);
      if (!(in_units <= 2.0)) {
        fprintf(stderr, "row %d block %d: error %g is %g times its scale, more than 2\n", r, c, err, in_units);
        return 1;
      }
      if (in_units > worst) worst = in_units;
    }
    if (r < 4) printf("\n");
  }
  printf("all %d blocks: the largest error is %.3f of its block's scale (at most 2)\n", M * KB, worst);

  st_tensor all[] = {w_stored, w, v, d, w5, v5, d5, b, b5};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) CHECK(st_tensor_release(all[i]));
  return 0;
}
