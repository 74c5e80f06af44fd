/* A versioned import flagged read-only refuses every write (st_copy,
 * st_fill, st_zero) with ST_ERROR_READ_ONLY and keeps its data; reading
 * from it is allowed.
 */
#include "dlpack_producer.h"

/* A read-only float32 import of {1, 2, 3, 4} and its producer. */
static st_tensor import_read_only(producer** out) {
  int64_t sizes[1] = {4};
  producer* p = producer_new(1, sizes, NULL, kDLFloat, 32);
  float* f = (float*)p->buffer;
  for (int k = 0; k < 4; ++k) f[k] = (float)(k + 1);
  p->versioned.flags = ST_DLPACK_FLAG_READ_ONLY;
  st_tensor t;
  EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &t));
  *out = p;
  return t;
}

static void expect_unchanged(producer* p) {
  const float* f = (const float*)p->buffer;
  for (int k = 0; k < 4; ++k) assert_true(f[k] == (float)(k + 1));
}

static void finish(st_tensor t, producer* p) {
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(producer_calls(p), 1);
  producer_free(p);
}

static void fill_and_zero_refused(void** state) {
  (void)state;
  producer* p;
  st_tensor t = import_read_only(&p), view;
  EXPECT_STATUS(ST_ERROR_READ_ONLY, st_fill(t, 9.0));
  expect_message_contains("st_fill");
  EXPECT_STATUS(ST_ERROR_READ_ONLY, st_zero(t));
  EXPECT_OK(st_flip(t, 0, &view)); /* views share the storage and its flag */
  EXPECT_STATUS(ST_ERROR_READ_ONLY, st_fill(view, 9.0));
  EXPECT_STATUS(ST_ERROR_READ_ONLY, st_zero(view));
  EXPECT_OK(st_tensor_release(view));
  expect_unchanged(p);
  finish(t, p);
}

static void copy_into_refused_copy_from_allowed(void** state) {
  (void)state;
  producer* p;
  st_tensor t = import_read_only(&p);
  int64_t sizes[1] = {4};
  float other[4] = {0, 0, 0, 0};
  st_tensor w;
  EXPECT_OK(st_tensor_from_data(other, sizes, NULL, 1, ST_FLOAT32, CPU, NULL, NULL, &w));
  EXPECT_STATUS(ST_ERROR_READ_ONLY, st_copy(t, w, 0));
  expect_message_contains("st_copy");
  expect_unchanged(p);
  EXPECT_OK(st_copy(w, t, 0));
  for (int k = 0; k < 4; ++k) assert_true(other[k] == (float)(k + 1));
  EXPECT_OK(st_tensor_release(w));
  finish(t, p);
}

static void writable_without_the_flag(void** state) {
  (void)state;
  int64_t sizes[1] = {4};
  producer* p = producer_new(1, sizes, NULL, kDLFloat, 32);
  st_tensor a, b;
  EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &a));
  EXPECT_OK(st_from_dlpack(&p->classic, &b));
  EXPECT_OK(st_fill(a, 2.5));
  const float* f = (const float*)p->buffer;
  for (int k = 0; k < 4; ++k) assert_true(f[k] == 2.5f);
  EXPECT_OK(st_fill(b, -1.0));
  for (int k = 0; k < 4; ++k) assert_true(f[k] == -1.0f);
  EXPECT_OK(st_tensor_release(a));
  EXPECT_OK(st_tensor_release(b));
  assert_int_equal(producer_calls(p), 2);
  producer_free(p);
}

/* The flag survives a DLPack round trip through the library. */
static void flag_survives_round_trip(void** state) {
  (void)state;
  producer* p;
  st_tensor t = import_read_only(&p), back;
  DLManagedTensorVersioned* m;
  EXPECT_OK(st_to_dlpack_versioned(t, &m));
  assert_int_equal(m->flags & ST_DLPACK_FLAG_READ_ONLY, ST_DLPACK_FLAG_READ_ONLY);
  EXPECT_OK(st_from_dlpack_versioned(m, &back));
  EXPECT_STATUS(ST_ERROR_READ_ONLY, st_zero(back));
  EXPECT_OK(st_tensor_release(back));
  expect_unchanged(p);
  finish(t, p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fill_and_zero_refused),
      cmocka_unit_test(copy_into_refused_copy_from_allowed),
      cmocka_unit_test(writable_without_the_flag),
      cmocka_unit_test(flag_survives_round_trip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
