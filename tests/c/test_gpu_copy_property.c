/* The random cases of test_copy_property.c (random_copy_case: random or
 * channels-last dim orders, steps, flips, broadcast and expanded sources,
 * same-dtype and converting pairs) with dst and src on a GPU, through the
 * public API only: each padded buffer is created on its device
 * (st_tensor_create) and filled with st_copy from the host, the views are
 * st_as_strided of it, and after the copy the whole dst buffer is read back
 * and must equal the reference copy of copy_support.c byte for byte (and
 * src must be unchanged). Every case runs within a device, from and to
 * pageable and pinned host memory, and between two devices when there are
 * two; blocking and non_blocking alternate.
 *
 * Needs a GPU: without one (or in a build without CUDA) it prints why and
 * exits 77, which ctest reports as skipped. */
#include <stdlib.h>

#include "copy_support.h"

#define CASES 1500

static const st_device HOST = {ST_DEVICE_CPU, 0};
static const st_device PINNED = {ST_DEVICE_CUDA_HOST, 0};
static const st_device GPU0 = {ST_DEVICE_CUDA, 0};
static const st_device GPU1 = {ST_DEVICE_CUDA, 1};
static int32_t g_devices;

static const char* device_name(st_device d) {
  switch (d.type) {
    case ST_DEVICE_CPU: return "cpu";
    case ST_DEVICE_CUDA_HOST: return "pinned";
    default: return d.index == 0 ? "cuda:0" : "cuda:1";
  }
}

/* The whole buffer `b`, same bytes, in a new tensor on `device`. */
static st_tensor on_device(const buffer* b, st_device device) {
  st_tensor whole = {0};
  EXPECT_OK(st_tensor_create(&b->numel, 1, b->dtype, device, &whole));
  EXPECT_OK(st_copy(whole, b->whole, 0));
  return whole;
}

/* The bytes of a 1-d tensor made by on_device(), read back to the host. */
static unsigned char* read_back(st_tensor whole, st_dtype dtype, int64_t numel) {
  uint64_t rng = 1;
  buffer host = buffer_create(dtype, numel, &rng);
  EXPECT_OK(st_copy(host.whole, whole, 0));
  unsigned char* bytes = malloc((size_t)numel * host.itemsize);
  assert_non_null(bytes);
  memcpy(bytes, host.bytes, (size_t)numel * host.itemsize);
  buffer_destroy(&host);
  return bytes;
}

static st_tensor view_of(st_tensor whole, const layout* l) {
  st_tensor v = {0};
  EXPECT_OK(st_as_strided(whole, l->sizes, l->strides, l->ndim, l->offset, &v));
  return v;
}

/* c's copy with dst on `dd` and src on `sd`. */
static void check_on(const copy_case* c, st_device dd, st_device sd, int non_blocking, const char* what) {
  char context[512];
  snprintf(context, sizeof context, "%s: %s %s <- %s %s%s", what, device_name(dd), st_dtype_name(c->dst_dtype),
           device_name(sd), st_dtype_name(c->src_dtype), non_blocking ? " (non_blocking)" : "");
  const size_t dbytes = (size_t)c->db.numel * c->db.itemsize, sbytes = (size_t)c->sb.numel * c->sb.itemsize;
  unsigned char* want = malloc(dbytes);
  assert_non_null(want);
  memcpy(want, c->db.bytes, dbytes);
  reference_copy(want, c->dst_dtype, &c->dl, c->sb.bytes, c->src_dtype, &c->sl);

  st_tensor dw = on_device(&c->db, dd), sw = on_device(&c->sb, sd);
  st_tensor dv = view_of(dw, &c->dl), sv = view_of(sw, &c->sl);
  st_status s = st_copy(dv, sv, non_blocking);
  if (s != ST_OK) {
    print_error("%s: st_copy returned %s: %s\n", context, st_status_name(s), st_last_error_message());
    fail();
  }
  if (non_blocking) {
    for (int32_t d = 0; d < g_devices; ++d) EXPECT_OK(st_cuda_synchronize(d));
  }
  unsigned char* got = read_back(dw, c->dst_dtype, c->db.numel);
  expect_same_bytes(got, want, dbytes, c->db.itemsize, context);
  unsigned char* src_after = read_back(sw, c->src_dtype, c->sb.numel);
  expect_same_bytes(src_after, c->sb.bytes, sbytes, c->sb.itemsize, context);
  free(got);
  free(src_after);
  free(want);
  EXPECT_OK(st_tensor_release(dv));
  EXPECT_OK(st_tensor_release(sv));
  EXPECT_OK(st_tensor_release(dw));
  EXPECT_OK(st_tensor_release(sw));
}

/* Every case within cuda:0, and between it and pageable and pinned host
 * memory both ways, and between two devices when there are two. */
static void check_everywhere(const copy_case* c, int i, const char* what) {
  const int nb = i % 2;
  check_on(c, GPU0, GPU0, nb, what);
  check_on(c, GPU0, HOST, nb, what);
  check_on(c, HOST, GPU0, nb, what);
  check_on(c, GPU0, PINNED, nb, what);
  check_on(c, PINNED, GPU0, nb, what);
  if (g_devices >= 2) {
    check_on(c, GPU1, GPU0, nb, what);
    check_on(c, GPU0, GPU1, nb, what);
  }
}

static void run_random_cases(const char* name, uint64_t fixed_seed, int cases, int converting, enum source_kind kind) {
  run_random_copy_cases(name, fixed_seed, cases, converting, kind, check_everywhere);
}

static void same_dtype_copies_on_gpus_match_the_reference(void** state) {
  (void)state;
  run_random_cases("same_dtype_copies", 20240611ull, CASES, 0, ANY_SOURCE);
}

static void converting_copies_on_gpus_match_the_reference(void** state) {
  (void)state;
  run_random_cases("converting_copies", 20240612ull, CASES / 2, 1, ANY_SOURCE);
}

static void broadcasting_copies_on_gpus_match_the_reference(void** state) {
  (void)state;
  run_random_cases("broadcasting_copies", 20240613ull, CASES / 2, 0, BROADCAST_SOURCE);
}

/* NCHW (4, 64, 80, 80) into a channels-last dst inside a padded buffer,
 * as test_copy_property.c's large case: the tiled transpose on the device. */
static void nchw_to_nhwc_on_a_gpu_matches_the_reference(void** state) {
  (void)state;
  const st_dtype pairs[][2] = {{ST_FLOAT32, ST_FLOAT32}, {ST_FLOAT32, ST_UINT8}, {ST_FLOAT16, ST_FLOAT64}};
  uint64_t rng = 99;
  for (int p = 0; p < 3; ++p) {
    const int64_t n = 4, ch = 64, h = 80, w = 80, numel = n * ch * h * w;
    copy_case c;
    c.dst_dtype = pairs[p][0];
    c.src_dtype = pairs[p][1];
    memset(&c.dl, 0, sizeof c.dl);
    c.dl.ndim = 4;
    c.dl.offset = 7;
    memcpy(c.dl.sizes, DIMS(n, ch, h, w), sizeof(int64_t) * 4);
    memcpy(c.dl.strides, DIMS(h * w * ch, 1, w * ch, ch), sizeof(int64_t) * 4);
    c.sl = row_major(4, DIMS(n, ch, h, w), 0);
    c.db = buffer_create(c.dst_dtype, numel + 14, &rng);
    c.sb = buffer_create(c.src_dtype, numel, &rng);
    if (c.dst_dtype != c.src_dtype) buffer_fill_small_ints(&c.sb, c.dst_dtype, &rng);
    check_on(&c, GPU0, GPU0, 0, "NCHW to NHWC");
    check_on(&c, GPU0, HOST, 1, "NCHW to NHWC");
    check_on(&c, PINNED, GPU0, 1, "NCHW to NHWC");
    copy_case_destroy(&c);
  }
}

int main(void) {
  g_devices = cuda_devices_or_skip();
  if (g_devices < 2) printf("one CUDA device: copies between two devices are not run\n");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_dtype_copies_on_gpus_match_the_reference),
      cmocka_unit_test(converting_copies_on_gpus_match_the_reference),
      cmocka_unit_test(broadcasting_copies_on_gpus_match_the_reference),
      cmocka_unit_test(nchw_to_nhwc_on_a_gpu_matches_the_reference),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
