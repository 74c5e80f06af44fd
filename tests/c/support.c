#include "support.h"

void test_expect_status(st_status expected, st_status got, const char* call, const char* file, int line) {
  if (expected != got) {
    print_error("%s:%d: %s returned %s, expected %s (message: \"%s\")\n", file, line, call, st_status_name(got),
                st_status_name(expected), st_last_error_message());
    fail();
  }
}

void expect_message_contains(const char* needle) {
  const char* msg = st_last_error_message();
  if (!strstr(msg, needle)) {
    print_error("message \"%s\" does not contain \"%s\"\n", msg, needle);
    fail();
  }
}

st_tensor make_tensor(const int64_t* sizes, int32_t ndim, st_dtype dtype) {
  st_tensor t = {0};
  EXPECT_OK(st_tensor_create(sizes, ndim, dtype, CPU, &t));
  return t;
}

void expect_layout(st_tensor t, int32_t ndim, const int64_t* sizes, const int64_t* strides, int64_t offset) {
  int32_t got_ndim = -1;
  int64_t got_sizes[ST_MAX_DIMS], got_strides[ST_MAX_DIMS], got_offset = -1;
  EXPECT_OK(st_tensor_ndim(t, &got_ndim));
  assert_int_equal(got_ndim, ndim);
  EXPECT_OK(st_tensor_sizes(t, got_sizes, ST_MAX_DIMS));
  EXPECT_OK(st_tensor_strides(t, got_strides, ST_MAX_DIMS));
  EXPECT_OK(st_tensor_storage_offset(t, &got_offset));
  for (int32_t i = 0; i < ndim; ++i) {
    if (got_sizes[i] != sizes[i] || got_strides[i] != strides[i]) {
      print_error("dim %d: size %lld stride %lld, expected size %lld stride %lld\n", i, (long long)got_sizes[i],
                  (long long)got_strides[i], (long long)sizes[i], (long long)strides[i]);
      fail();
    }
  }
  assert_int_equal(got_offset, offset);
}
