/* st_quantize_blocks and st_dequantize_blocks on a GPU: for every format,
 * element dtype and scale rule, the device writes the bytes the CPU writes,
 * along the last dim and along an outer one, through a transposed view, and
 * with a global scale; operands on two devices are refused, pinned host
 * memory counts as the host, and a failing call writes nothing.
 *
 * Needs a GPU: without one (or in a build without CUDA) it prints why and
 * exits 77, which ctest reports as skipped. */
#include <math.h>
#include <stdlib.h>

#include "copy_support.h"

static const st_device GPU0 = {ST_DEVICE_CUDA, 0};
static const st_device PINNED = {ST_DEVICE_CUDA_HOST, 0};

static const st_dtype kElements[4] = {ST_FLOAT32, ST_FLOAT16, ST_BFLOAT16, ST_FLOAT64};

static st_dtype values_dtype(st_block_format f) {
  switch (f) {
    case ST_BLOCK_MXFP8_E4M3: return ST_FLOAT8_E4M3FN;
    case ST_BLOCK_MXFP8_E5M2: return ST_FLOAT8_E5M2;
    case ST_BLOCK_MXFP6_E2M3: return ST_FLOAT6_E2M3FN;
    case ST_BLOCK_MXFP6_E3M2: return ST_FLOAT6_E3M2FN;
    case ST_BLOCK_MXINT8: return ST_INT8;
    default: return ST_FLOAT4_E2M1FN_X2;
  }
}

/* The contiguous host bytes of a tensor on any device. */
static unsigned char* host_bytes(st_tensor t, int64_t* nbytes) {
  st_tensor h;
  st_dtype dt;
  EXPECT_OK(st_tensor_dtype(t, &dt));
  EXPECT_OK(st_to(t, dt, CPU, ST_MEMORY_FORMAT_CONTIGUOUS, &h));
  int64_t n;
  EXPECT_OK(st_tensor_numel(h, &n));
  *nbytes = n * (int64_t)st_dtype_itemsize(dt);
  unsigned char* out = malloc((size_t)*nbytes + 1);
  memcpy(out, data_ptr(h), (size_t)*nbytes);
  EXPECT_OK(st_tensor_release(h));
  return out;
}

static void expect_same_on_both(st_tensor a, st_tensor b, const char* what) {
  int64_t na, nb;
  unsigned char* x = host_bytes(a, &na);
  unsigned char* y = host_bytes(b, &nb);
  assert_int_equal(na, nb);
  if (memcmp(x, y, (size_t)na) != 0) fail_msg("%s: the device's bytes differ from the CPU's", what);
  free(x);
  free(y);
}

/* A (rows, n) source of `dt` with values of every magnitude, on the CPU. */
static st_tensor random_source(uint64_t* rng, int64_t rows, int64_t n, st_dtype dt) {
  st_tensor f64, out;
  EXPECT_OK(st_tensor_create(DIMS(rows, n), 2, ST_FLOAT64, CPU, &f64));
  double* p = data_ptr(f64);
  for (int64_t i = 0; i < rows * n; ++i)
    p[i] = ldexp((double)((int64_t)(rng_next(rng) % 20001) - 10000) / 997.0, (int)(rng_next(rng) % 40) - 20);
  p[rng_next(rng) % (uint64_t)(rows * n)] = NAN;
  EXPECT_OK(st_to(f64, dt, CPU, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  EXPECT_OK(st_tensor_release(f64));
  return out;
}

static void device_bytes_equal_the_cpu(void** state) {
  (void)state;
  uint64_t rng = test_seed("device_bytes_equal_the_cpu", 0x42ULL);
  const int64_t rows = 37, n = 166; /* blocks of 32 and 16 with a partial one */
  for (int f = 0; f <= ST_BLOCK_NVFP4; ++f) {
    const st_block_format format = (st_block_format)f;
    const int64_t block = format == ST_BLOCK_NVFP4 ? 16 : 32;
    const int64_t per_byte = values_dtype(format) == ST_FLOAT4_E2M1FN_X2 ? 2 : 1;
    const st_dtype sdt = format == ST_BLOCK_NVFP4 ? ST_FLOAT8_E4M3FN : ST_FLOAT8_E8M0FNU;
    for (int e = 0; e < 4; ++e) {
      for (int rule = 0; rule < 2; ++rule) {
        for (int outer = 0; outer < 2; ++outer) {
          /* outer: the blocks run along dim 0 of the transposed (n, rows) view. */
          st_tensor src = random_source(&rng, rows, n, kElements[e]), gsrc, view, gview;
          EXPECT_OK(st_to(src, kElements[e], GPU0, ST_MEMORY_FORMAT_CONTIGUOUS, &gsrc));
          if (outer) {
            EXPECT_OK(st_transpose(src, 0, 1, &view));
            EXPECT_OK(st_transpose(gsrc, 0, 1, &gview));
          } else {
            EXPECT_OK(st_tensor_retain(src));
            view = src;
            EXPECT_OK(st_tensor_retain(gsrc));
            gview = gsrc;
          }
          const int64_t vsizes[2] = {outer ? n / per_byte : rows, outer ? rows : n / per_byte};
          const int64_t ssizes[2] = {outer ? (n + block - 1) / block : rows, outer ? rows : (n + block - 1) / block};
          st_tensor v, s, gv, gs;
          EXPECT_OK(st_tensor_create(vsizes, 2, values_dtype(format), CPU, &v));
          EXPECT_OK(st_tensor_create(ssizes, 2, sdt, CPU, &s));
          EXPECT_OK(st_tensor_create(vsizes, 2, values_dtype(format), GPU0, &gv));
          EXPECT_OK(st_tensor_create(ssizes, 2, sdt, GPU0, &gs));
          const st_block_spec spec = {sizeof(st_block_spec), format, outer ? 0 : -1, (st_scale_rule)rule,
                                      rule ? 0.0f : 0.375f};
          char what[128];
          snprintf(what, sizeof what, "format %d, %s, rule %d, %s", f, st_dtype_name(kElements[e]), rule,
                   outer ? "along dim 0 of a transposed view" : "along the last dim");
          EXPECT_OK(st_quantize_blocks(v, s, view, &spec));
          EXPECT_OK(st_quantize_blocks(gv, gs, gview, &spec));
          expect_same_on_both(v, gv, what);
          expect_same_on_both(s, gs, what);
          st_tensor d, gd;
          EXPECT_OK(st_tensor_create(DIMS(outer ? n : rows, outer ? rows : n), 2, kElements[e], CPU, &d));
          EXPECT_OK(st_tensor_create(DIMS(outer ? n : rows, outer ? rows : n), 2, kElements[e], GPU0, &gd));
          EXPECT_OK(st_dequantize_blocks(d, v, s, &spec));
          EXPECT_OK(st_dequantize_blocks(gd, gv, gs, &spec));
          expect_same_on_both(d, gd, what);
          const st_tensor all[] = {src, gsrc, view, gview, v, s, gv, gs, d, gd};
          for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) EXPECT_OK(st_tensor_release(all[i]));
        }
      }
    }
  }
}

/* Operands on the device and the host are refused, nothing written;
 * pinned host memory is the host's. */
static void devices_must_agree(void** state) {
  (void)state;
  st_tensor src, gv, s, ps, pv;
  EXPECT_OK(st_tensor_create(DIMS(64), 1, ST_FLOAT32, CPU, &src));
  EXPECT_OK(st_fill(src, 3.0));
  EXPECT_OK(st_tensor_create(DIMS(64), 1, ST_FLOAT8_E4M3FN, GPU0, &gv));
  EXPECT_OK(st_tensor_create(DIMS(2), 1, ST_FLOAT8_E8M0FNU, CPU, &s));
  EXPECT_OK(st_fill(gv, 0.0));
  EXPECT_OK(st_fill(s, 1.0));
  const st_block_spec spec = {sizeof(st_block_spec), ST_BLOCK_MXFP8_E4M3, 0, ST_SCALE_FLOOR, 0.0f};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_quantize_blocks(gv, s, src, &spec));
  expect_message_contains("different devices");
  int64_t nb;
  unsigned char* bytes = host_bytes(gv, &nb);
  for (int64_t i = 0; i < nb; ++i) assert_int_equal(bytes[i], 0);
  free(bytes);
  bytes = host_bytes(s, &nb);
  assert_int_equal(bytes[0], 0x7F);
  free(bytes);
  EXPECT_OK(st_tensor_create(DIMS(64), 1, ST_FLOAT8_E4M3FN, PINNED, &pv));
  EXPECT_OK(st_tensor_create(DIMS(2), 1, ST_FLOAT8_E8M0FNU, PINNED, &ps));
  EXPECT_OK(st_quantize_blocks(pv, ps, src, &spec)); /* CPU and pinned memory: the host */
  bytes = host_bytes(ps, &nb);
  assert_int_equal(bytes[0], 0x78); /* amax 3: k = 1 - 8 */
  free(bytes);
  const st_tensor all[] = {src, gv, s, ps, pv};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) EXPECT_OK(st_tensor_release(all[i]));
}

int main(void) {
  cuda_devices_or_skip();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(device_bytes_equal_the_cpu),
      cmocka_unit_test(devices_must_agree),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
