#include "support.h"

#include <stdlib.h>

#include "portable.h"

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

void expect_null_handle(st_tensor t) {
  if (t.id != 0) {
    print_error("expected the null handle, got {0x%llx}\n", (unsigned long long)t.id);
    fail();
  }
}

st_tensor make_tensor(const int64_t* sizes, int32_t ndim, st_dtype dtype) {
  st_tensor t = {0};
  EXPECT_OK(st_tensor_create(sizes, ndim, dtype, CPU, &t));
  return t;
}

st_tensor make_iota_f32(const int64_t* sizes, int32_t ndim) {
  st_tensor t = make_tensor(sizes, ndim, ST_FLOAT32);
  int64_t n = 0;
  float* p = NULL;
  EXPECT_OK(st_tensor_numel(t, &n));
  EXPECT_OK(st_tensor_data_ptr(t, (void**)&p));
  for (int64_t i = 0; i < n; ++i) p[i] = (float)i;
  return t;
}

float read_f32(st_tensor t, const int64_t* index) {
  int32_t ndim = 0;
  int64_t strides[ST_MAX_DIMS];
  float* p = NULL;
  EXPECT_OK(st_tensor_ndim(t, &ndim));
  EXPECT_OK(st_tensor_strides(t, strides, ST_MAX_DIMS));
  EXPECT_OK(st_tensor_data_ptr(t, (void**)&p));
  int64_t at = 0;
  for (int32_t d = 0; d < ndim; ++d) at += index[d] * strides[d];
  return p[at];
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

void expect_is_contiguous(st_tensor t, st_memory_format fmt, int32_t want) {
  int32_t got = -1;
  EXPECT_OK(st_tensor_is_contiguous(t, fmt, &got));
  if (got != want) {
    print_error("is_contiguous(fmt %d) = %d, expected %d\n", (int)fmt, got, want);
    fail();
  }
}

void expect_dead(st_tensor t) {
  int32_t ndim = -7;
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_ndim(t, &ndim));
  assert_int_equal(ndim, -7);
}

/* Each block carries a 64-byte header holding its byte count, so free can
 * check that it gets back exactly what alloc was given. */
enum { kHeader = 64 };

static void* counting_alloc(void* ctx, size_t nbytes, size_t alignment) {
  counting_allocator* c = ctx;
  atomic_store(&c->last_nbytes, nbytes);
  atomic_store(&c->last_alignment, alignment);
  if (atomic_load(&c->fail)) {
    atomic_fetch_add(&c->refused, 1);
    return NULL;
  }
  if (alignment != kHeader) return NULL; /* the header below keeps 64-byte alignment only */
  size_t total = (kHeader + nbytes + alignment - 1) / alignment * alignment;
  char* block = test_aligned_alloc(alignment, total);
  if (!block) return NULL;
  memcpy(block, &nbytes, sizeof nbytes);
  atomic_fetch_add(&c->allocs, 1);
  atomic_fetch_add(&c->live_bytes, (long long)nbytes);
  return block + kHeader;
}

static void counting_free(void* ctx, void* ptr, size_t nbytes) {
  counting_allocator* c = ctx;
  char* block = (char*)ptr - kHeader;
  size_t given;
  memcpy(&given, block, sizeof given);
  if (given != nbytes) atomic_fetch_add(&c->bad_frees, 1);
  atomic_fetch_add(&c->frees, 1);
  atomic_fetch_sub(&c->live_bytes, (long long)given);
  test_aligned_free(block);
}

st_allocator counting_allocator_record(counting_allocator* c) {
  st_allocator a = {counting_alloc, counting_free, c};
  return a;
}

void counting_allocator_install(counting_allocator* c) {
  atomic_init(&c->allocs, 0);
  atomic_init(&c->frees, 0);
  atomic_init(&c->refused, 0);
  atomic_init(&c->bad_frees, 0);
  atomic_init(&c->live_bytes, 0);
  atomic_init(&c->last_nbytes, 0);
  atomic_init(&c->last_alignment, 0);
  atomic_init(&c->fail, 0);
  st_allocator a = counting_allocator_record(c);
  EXPECT_OK(st_set_cpu_allocator(&a));
}

int restore_default_allocator(void** state) {
  (void)state;
  return st_set_cpu_allocator(NULL) == ST_OK ? 0 : -1;
}

int32_t cuda_devices_or_skip(void) {
  int32_t n = 0;
  EXPECT_OK(st_cuda_device_count(&n));
  if (n > 0) return n;
  st_tensor t = {0};
  const int64_t one = 1;
  const st_device gpu = {ST_DEVICE_CUDA, 0};
  st_tensor_create(&one, 1, ST_FLOAT32, gpu, &t); /* for the reason */
  printf("skipped: no CUDA device (%s)\n", st_last_error_message());
  exit(77);
}

char* tensor_text(st_tensor t, const st_format_options* opts) {
  size_t needed = 0;
  EXPECT_STATUS(ST_ERROR_OUT_OF_BOUNDS, st_tensor_format(t, opts, NULL, 0, &needed));
  char* text = malloc(needed);
  assert_non_null(text);
  size_t again = 0;
  EXPECT_OK(st_tensor_format(t, opts, text, needed, &again));
  assert_int_equal(again, needed);
  assert_int_equal(strlen(text) + 1, needed);
  return text;
}
