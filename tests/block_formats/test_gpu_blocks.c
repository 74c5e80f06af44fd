/* st_quantize_blocks and st_dequantize_blocks on CUDA: the bits of the CPU
 * (which test_block_*.c check against the reference) for every format,
 * contiguous and transposed; operands on different devices refused with
 * INVALID_ARGUMENT and nothing written; pinned host memory taken as the
 * host. Without a GPU: skipped, saying why. */
#include <stdlib.h>

#include "block_test_support.h"

static const st_device kCuda = {ST_DEVICE_CUDA, 0};

/* A contiguous tensor of t's sizes and dtype on `device`, holding t's values. */
static st_tensor copy_to(st_tensor t, st_device device) {
  int32_t ndim = 0;
  int64_t sizes[ST_MAX_DIMS];
  st_dtype dtype;
  EXPECT_OK(st_tensor_ndim(t, &ndim));
  EXPECT_OK(st_tensor_sizes(t, sizes, ST_MAX_DIMS));
  EXPECT_OK(st_tensor_dtype(t, &dtype));
  st_tensor out = {0};
  EXPECT_OK(st_tensor_create(sizes, ndim, dtype, device, &out));
  EXPECT_OK(st_copy(out, t, 0));
  return out;
}

/* A contiguous tensor of t's sizes and dtype on `device`, every byte 0xA5:
 * an output that a call which writes nothing leaves showing. */
static st_tensor sentinel_like(st_tensor t, st_device device) {
  st_tensor host = copy_to(t, CPU);
  int64_t numel = 0;
  st_dtype dtype;
  EXPECT_OK(st_tensor_numel(host, &numel));
  EXPECT_OK(st_tensor_dtype(host, &dtype));
  memset(data_ptr(host), 0xA5, (size_t)numel * st_dtype_itemsize(dtype));
  st_tensor out = copy_to(host, device);
  EXPECT_OK(st_tensor_release(host));
  return out;
}

/* The bytes of t (any device), row-major, into a malloc'ed buffer. */
static unsigned char* bytes_of(st_tensor t, size_t* nbytes) {
  st_tensor host = copy_to(t, CPU);
  int64_t numel = 0;
  st_dtype dtype;
  EXPECT_OK(st_tensor_numel(host, &numel));
  EXPECT_OK(st_tensor_dtype(host, &dtype));
  *nbytes = (size_t)numel * st_dtype_itemsize(dtype);
  unsigned char* out = malloc(*nbytes ? *nbytes : 1);
  assert_non_null(out);
  memcpy(out, data_ptr(host), *nbytes);
  EXPECT_OK(st_tensor_release(host));
  return out;
}

static void expect_same(st_tensor a, st_tensor b, const char* what) {
  size_t na, nb;
  unsigned char* x = bytes_of(a, &na);
  unsigned char* y = bytes_of(b, &nb);
  assert_int_equal(na, nb);
  expect_same_bytes(x, y, na, 1, what);
  free(x);
  free(y);
}

/* Quantize and dequantize on the CPU (checked against the reference), then
 * the same on CUDA from a device copy of src (transposed: a device tensor
 * stored (K, M) viewed as (M, K)): the same bytes. */
static void cuda_gives_the_cpu_bits(void** state) {
  (void)state;
  uint64_t rng = test_seed("cuda_gives_the_cpu_bits", 20260320ull);
  /* (37, 96): lines of whole blocks whose count fills no whole warp of the
   * warp kernel (cuda/kernels/block_warp_loops.h) */
  static const int64_t kShapes[2][2] = {{48, 160}, {37, 96}};
  for (int f = 0; f < REF_NUM_FORMATS; ++f) {
    for (int d = 0; d < 8; ++d) {
      for (int transposed = 0; transposed < 2; ++transposed) {
        const int64_t* sizes = kShapes[d / 4];
        const uint32_t g = kAllFormats[f] == REF_NVFP4 ? 0x3DCCCCCD : 0;
        block_operands o;
        block_operands_create(&o, kAllFormats[f], (ref_rule)(d % 2), g, kFloatDtypes[d % 4], 2, sizes, 1,
                              ROW_MAJOR_LAYOUT, &rng);
        fill_random_floats(&o, &rng, 1, 0);
        char what[96];
        snprintf(what, sizeof what, "%s %s (%lld, %lld)%s", format_name(kAllFormats[f]),
                 st_dtype_name(kFloatDtypes[d % 4]), (long long)sizes[0], (long long)sizes[1],
                 transposed ? ", transposed src" : "");
        check_quantize(&o, 1, what);
        st_tensor src = buffer_view(&o.fb, &o.fl), values = buffer_view(&o.vb, &o.vl),
                  scales = buffer_view(&o.sb, &o.sl);
        st_tensor src_d;
        if (transposed) { /* stored (K, M) on the device, viewed (M, K) */
          st_tensor t = {0}, stored = {0};
          EXPECT_OK(st_transpose(src, 0, 1, &t));
          stored = copy_to(t, kCuda);
          EXPECT_OK(st_transpose(stored, 0, 1, &src_d));
          EXPECT_OK(st_tensor_release(t));
          EXPECT_OK(st_tensor_release(stored));
        } else {
          src_d = copy_to(src, kCuda);
        }
        st_tensor values_d = sentinel_like(values, kCuda), scales_d = sentinel_like(scales, kCuda);
        const st_block_spec spec = block_spec(o.format, o.rule, -1, g);
        EXPECT_OK(st_quantize_blocks(values_d, scales_d, src_d, &spec));
        expect_same(values_d, values, what);
        expect_same(scales_d, scales, what);
        /* dequantize both ways */
        st_tensor dst = sentinel_like(src, CPU), dst_d = sentinel_like(src, kCuda);
        EXPECT_OK(st_dequantize_blocks(dst, values, scales, &spec));
        EXPECT_OK(st_dequantize_blocks(dst_d, values_d, scales_d, &spec));
        expect_same(dst_d, dst, what);
        st_tensor all[] = {src, values, scales, src_d, values_d, scales_d, dst, dst_d};
        for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k) EXPECT_OK(st_tensor_release(all[k]));
        block_operands_destroy(&o);
      }
    }
  }
}

/* One operand on the GPU, the others on the CPU: INVALID_ARGUMENT, and
 * neither the host outputs nor the device ones written. */
static void operands_on_different_devices(void** state) {
  (void)state;
  uint64_t rng = 20260321ull;
  const int64_t sizes[2] = {4, 64};
  block_operands o;
  block_operands_create(&o, REF_MXFP8_E4M3, REF_FLOOR, 0, ST_FLOAT32, 2, sizes, 1, ROW_MAJOR_LAYOUT, &rng);
  fill_random_floats(&o, &rng, 0, 0);
  st_tensor src = buffer_view(&o.fb, &o.fl), values = buffer_view(&o.vb, &o.vl), scales = buffer_view(&o.sb, &o.sl);
  st_tensor src_d = copy_to(src, kCuda), values_d = copy_to(values, kCuda), scales_d = copy_to(scales, kCuda);
  size_t nv, ns;
  unsigned char* values_before = bytes_of(values, &nv);
  unsigned char* scales_before = bytes_of(scales, &ns);
  const st_block_spec spec = block_spec(REF_MXFP8_E4M3, REF_FLOOR, -1, 0);
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_quantize_blocks(values, scales, src_d, &spec));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_quantize_blocks(values_d, scales, src, &spec));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_quantize_blocks(values, scales_d, src, &spec));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_dequantize_blocks(src_d, values, scales, &spec));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_dequantize_blocks(src, values_d, scales_d, &spec));
  size_t n;
  unsigned char* now = bytes_of(values, &n);
  expect_same_bytes(now, values_before, nv, 1, "host values");
  free(now);
  now = bytes_of(values_d, &n);
  expect_same_bytes(now, values_before, nv, 1, "device values");
  free(now);
  now = bytes_of(scales_d, &n);
  expect_same_bytes(now, scales_before, ns, 1, "device scales");
  free(now);
  now = bytes_of(scales, &n);
  expect_same_bytes(now, scales_before, ns, 1, "host scales");
  free(now);
  free(values_before);
  free(scales_before);
  st_tensor all[] = {src, values, scales, src_d, values_d, scales_d};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k) EXPECT_OK(st_tensor_release(all[k]));
  block_operands_destroy(&o);
}

/* Pinned host memory counts as the host: values and scales in it, src on
 * the CPU, the bytes the CPU writes. */
static void pinned_host_memory_is_the_host(void** state) {
  (void)state;
  uint64_t rng = 20260322ull;
  const int64_t sizes[2] = {8, 96};
  block_operands o;
  block_operands_create(&o, REF_MXFP4_E2M1, REF_RCEIL, 0, ST_FLOAT32, 2, sizes, 1, ROW_MAJOR_LAYOUT, &rng);
  fill_random_floats(&o, &rng, 0, 0);
  check_quantize(&o, 1, "pinned");
  st_tensor src = buffer_view(&o.fb, &o.fl), values = buffer_view(&o.vb, &o.vl), scales = buffer_view(&o.sb, &o.sl);
  const st_device pinned = {ST_DEVICE_CUDA_HOST, 0};
  st_tensor values_p = sentinel_like(values, pinned), scales_p = sentinel_like(scales, pinned);
  const st_block_spec spec = block_spec(REF_MXFP4_E2M1, REF_RCEIL, 1, 0);
  EXPECT_OK(st_quantize_blocks(values_p, scales_p, src, &spec));
  expect_same(values_p, values, "pinned values");
  expect_same(scales_p, scales, "pinned scales");
  st_tensor all[] = {src, values, scales, values_p, scales_p};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k) EXPECT_OK(st_tensor_release(all[k]));
  block_operands_destroy(&o);
}

int main(void) {
  cuda_devices_or_skip();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cuda_gives_the_cpu_bits),
      cmocka_unit_test(operands_on_different_devices),
      cmocka_unit_test(pinned_host_memory_is_the_host),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
