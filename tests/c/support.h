/* Shared helpers for the cmocka tests of the C API. */
#ifndef STRIDE_TEST_SUPPORT_H
#define STRIDE_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "stride.h"

#define CPU ((st_device){ST_DEVICE_CPU, 0})

/* An int64_t array literal: expect_layout(t, 2, DIMS(3, 4), DIMS(4, 1), 0). */
#define DIMS(...) ((const int64_t[]){__VA_ARGS__})

/* A non-null id that no test expects to be live: written into `out` before a
 * failing call, so the test sees that the call reset it to {0}. */
#define GARBAGE_ID 0x5eed5eed5eed5eedull

/* Asserts that `call` returns `expected`; on a mismatch prints both status
 * names and the library's message before failing. */
#define EXPECT_STATUS(expected, call) test_expect_status((expected), (call), #call, __FILE__, __LINE__)
#define EXPECT_OK(call) EXPECT_STATUS(ST_OK, call)

void test_expect_status(st_status expected, st_status got, const char* call, const char* file, int line);

/* Asserts that this thread's last error message contains `needle`. */
void expect_message_contains(const char* needle);

/* The number of CUDA devices; with none (or no CUDA support) prints why
 * and exits 77, which ctest reports as skipped. For test_gpu_*.c. */
int32_t cuda_devices_or_skip(void);

/* Asserts that `t` is the null handle {0}. */
void expect_null_handle(st_tensor t);

/* A new contiguous CPU tensor. */
st_tensor make_tensor(const int64_t* sizes, int32_t ndim, st_dtype dtype);

/* A new contiguous float32 CPU tensor holding 0, 1, 2, ... in memory order. */
st_tensor make_iota_f32(const int64_t* sizes, int32_t ndim);

/* The float32 element at `index` (ndim entries), read through the
 * tensor's own data_ptr and strides. */
float read_f32(st_tensor t, const int64_t* index);

/* Asserts sizes, strides and storage offset of `t`. */
void expect_layout(st_tensor t, int32_t ndim, const int64_t* sizes, const int64_t* strides, int64_t offset);

/* Asserts st_tensor_is_contiguous(t, fmt) == want. */
void expect_is_contiguous(st_tensor t, st_memory_format fmt, int32_t want);

/* Asserts that `t` is no longer a live handle. */
void expect_dead(st_tensor t);

/* st_tensor_format's text of t (opts may be NULL), in a buffer malloc'ed to
 * the size a first call with cap 0 asks for; asserts that the second call
 * fills it exactly. The caller frees it. */
char* tensor_text(st_tensor t, const st_format_options* opts);

/* A CPU allocator that counts its calls and checks that every free gets the
 * pointer and byte count its alloc handed out. Safe from any thread. */
typedef struct counting_allocator {
  atomic_long allocs;          /* successful allocations */
  atomic_long frees;
  atomic_long refused;         /* allocations answered with NULL because `fail` was set */
  atomic_long bad_frees;       /* frees whose byte count differs from the allocation's */
  atomic_llong live_bytes;
  atomic_size_t last_nbytes;
  atomic_size_t last_alignment;
  atomic_int fail;             /* when set, alloc returns NULL */
} counting_allocator;

/* Zeroes `c` and installs it with st_set_cpu_allocator. */
void counting_allocator_install(counting_allocator* c);
/* The st_allocator record that routes to `c` (without installing it). */
st_allocator counting_allocator_record(counting_allocator* c);
/* Restores the default allocator; usable as a cmocka teardown. */
int restore_default_allocator(void** state);

#endif
