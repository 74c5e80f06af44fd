/* st_copy_scaled on a GPU: the device kernel gives the CPU's results (NaN
 * for NaN) for every pair of real dtypes, per tensor and per channel, for
 * device -> device copies (contiguous and NHWC -> NCHW) and across the host
 * boundary both ways. Random bytes as sources, so every value a dtype can
 * hold appears.
 *
 * Needs a GPU: without one (or in a build without CUDA) it prints why and
 * exits 77, which ctest reports as skipped. */
#include <math.h>
#include <stdlib.h>

#include "copy_support.h"

static const st_device GPU0 = {ST_DEVICE_CUDA, 0};

static const st_dtype kReal[15] = {ST_BOOL,    ST_UINT8,   ST_INT8,     ST_INT16,  ST_INT32,
                                   ST_INT64,   ST_FLOAT16, ST_BFLOAT16, ST_FLOAT32, ST_FLOAT64,
                                   ST_UINT16,  ST_UINT32,  ST_UINT64,   ST_FLOAT8_E4M3FN, ST_FLOAT8_E5M2};

static int is_nan_element(st_dtype t, const unsigned char* p) {
  switch (t) {
    case ST_FLOAT32: { float f; memcpy(&f, p, 4); return isnan(f); }
    case ST_FLOAT64: { double d; memcpy(&d, p, 8); return isnan(d); }
    case ST_FLOAT16: { uint16_t h; memcpy(&h, p, 2); return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0; }
    case ST_BFLOAT16: { uint16_t h; memcpy(&h, p, 2); return (h & 0x7F80) == 0x7F80 && (h & 0x7F) != 0; }
    case ST_FLOAT8_E4M3FN: return (*p & 0x7F) == 0x7F;
    case ST_FLOAT8_E5M2: return (*p & 0x7C) == 0x7C && (*p & 0x3) != 0;
    default: return 0;
  }
}

/* The host bytes of a tensor (any device) laid out contiguously. */
static unsigned char* host_bytes(st_tensor t, const int64_t* sizes, int32_t ndim, st_dtype dt) {
  st_tensor h;
  EXPECT_OK(st_tensor_create(sizes, ndim, dt, CPU, &h));
  EXPECT_OK(st_copy(h, t, 0));
  int64_t n;
  EXPECT_OK(st_tensor_numel(h, &n));
  unsigned char* out = malloc((size_t)n * st_dtype_itemsize(dt) + 1);
  memcpy(out, data_ptr(h), (size_t)n * st_dtype_itemsize(dt));
  EXPECT_OK(st_tensor_release(h));
  return out;
}

static void expect_same_elements(const unsigned char* got, const unsigned char* want, int64_t n, st_dtype dt,
                                 const char* what) {
  const size_t e = st_dtype_itemsize(dt);
  for (int64_t i = 0; i < n; ++i) {
    const unsigned char* g = got + i * (int64_t)e;
    const unsigned char* w = want + i * (int64_t)e;
    if (is_nan_element(dt, w) && is_nan_element(dt, g)) continue;
    if (memcmp(g, w, e) != 0) fail_msg("%s: element %lld differs", what, (long long)i);
  }
}

static void device_results_equal_the_cpu(void** state) {
  (void)state;
  uint64_t rng = test_seed("device_results_equal_the_cpu", 0x6b0ULL);
  const int64_t sizes[4] = {2, 3, 17, 19}, nhwc[4] = {2, 17, 19, 3};
  const int64_t n = 2 * 3 * 17 * 19;
  const double scale[3] = {1.0 / 255, -2.0, 0.5}, shift[3] = {-0.5, 1.5, 3.0};
  char what[128];
  for (int a = 0; a < 15; ++a) {
    for (int b = 0; b < 15; ++b) {
      const st_dtype dt = kReal[a], st = kReal[b];
      buffer src = buffer_create(st, n, &rng);
      if (st == ST_BOOL)
        for (int64_t i = 0; i < n; ++i) src.bytes[i] &= 1;
      st_tensor host_src, dev_src, host_nhwc, dev_nhwc, src_nchw, dev_src_nchw;
      const layout l = row_major(4, sizes, 0), ln = row_major(4, nhwc, 0);
      host_src = buffer_view(&src, &l);
      host_nhwc = buffer_view(&src, &ln);
      EXPECT_OK(st_tensor_create(sizes, 4, st, GPU0, &dev_src));
      EXPECT_OK(st_copy(dev_src, host_src, 0));
      EXPECT_OK(st_tensor_create(nhwc, 4, st, GPU0, &dev_nhwc));
      EXPECT_OK(st_copy(dev_nhwc, host_nhwc, 0));
      EXPECT_OK(st_permute(host_nhwc, (const int32_t[]){0, 3, 1, 2}, 4, &src_nchw));
      EXPECT_OK(st_permute(dev_nhwc, (const int32_t[]){0, 3, 1, 2}, 4, &dev_src_nchw));
      for (int mode = 0; mode < 3; ++mode) {
        const st_scale_shift ss = {scale, shift, mode == 0 ? 1 : 3, 1, mode == 2};
        st_tensor want, dev_dst, host_dst;
        EXPECT_OK(st_tensor_create(sizes, 4, dt, CPU, &want));
        EXPECT_OK(st_tensor_create(sizes, 4, dt, GPU0, &dev_dst));
        EXPECT_OK(st_tensor_create(sizes, 4, dt, CPU, &host_dst));
        /* contiguous, device -> device */
        EXPECT_OK(st_copy_scaled(want, host_src, &ss, 0));
        EXPECT_OK(st_copy_scaled(dev_dst, dev_src, &ss, 0));
        unsigned char* w = host_bytes(want, sizes, 4, dt);
        unsigned char* g = host_bytes(dev_dst, sizes, 4, dt);
        snprintf(what, sizeof what, "%s <- %s mode %d, device", st_dtype_name(dt), st_dtype_name(st), mode);
        expect_same_elements(g, w, n, dt, what);
        free(g);
        /* host -> device, and device -> host */
        EXPECT_OK(st_copy_scaled(dev_dst, host_src, &ss, 0));
        g = host_bytes(dev_dst, sizes, 4, dt);
        snprintf(what, sizeof what, "%s <- %s mode %d, host to device", st_dtype_name(dt), st_dtype_name(st), mode);
        expect_same_elements(g, w, n, dt, what);
        free(g);
        EXPECT_OK(st_copy_scaled(host_dst, dev_src, &ss, 0));
        g = host_bytes(host_dst, sizes, 4, dt);
        snprintf(what, sizeof what, "%s <- %s mode %d, device to host", st_dtype_name(dt), st_dtype_name(st), mode);
        expect_same_elements(g, w, n, dt, what);
        free(g);
        free(w);
        /* NHWC -> NCHW on the device */
        EXPECT_OK(st_copy_scaled(want, src_nchw, &ss, 0));
        EXPECT_OK(st_copy_scaled(dev_dst, dev_src_nchw, &ss, 0));
        w = host_bytes(want, sizes, 4, dt);
        g = host_bytes(dev_dst, sizes, 4, dt);
        snprintf(what, sizeof what, "%s <- %s mode %d, NHWC to NCHW", st_dtype_name(dt), st_dtype_name(st), mode);
        expect_same_elements(g, w, n, dt, what);
        free(g);
        free(w);
        EXPECT_OK(st_tensor_release(want));
        EXPECT_OK(st_tensor_release(dev_dst));
        EXPECT_OK(st_tensor_release(host_dst));
      }
      const st_tensor all[] = {host_src, dev_src, host_nhwc, dev_nhwc, src_nchw, dev_src_nchw};
      for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) EXPECT_OK(st_tensor_release(all[i]));
      buffer_destroy(&src);
    }
  }
}

int main(void) {
  cuda_devices_or_skip();
  const struct CMUnitTest tests[] = {cmocka_unit_test(device_results_equal_the_cpu)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
