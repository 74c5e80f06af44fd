/* Shared helpers for the cmocka tests of the C API. */
#ifndef STRIDE_TEST_SUPPORT_H
#define STRIDE_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "stride.h"

#define CPU ((st_device){ST_DEVICE_CPU, 0})

/* Asserts that `call` returns `expected`; on a mismatch prints both status
 * names and the library's message before failing. */
#define EXPECT_STATUS(expected, call) test_expect_status((expected), (call), #call, __FILE__, __LINE__)
#define EXPECT_OK(call) EXPECT_STATUS(ST_OK, call)

void test_expect_status(st_status expected, st_status got, const char* call, const char* file, int line);

/* Asserts that this thread's last error message contains `needle`. */
void expect_message_contains(const char* needle);

/* A new contiguous CPU tensor. */
st_tensor make_tensor(const int64_t* sizes, int32_t ndim, st_dtype dtype);

/* Asserts sizes, strides and storage offset of `t`. */
void expect_layout(st_tensor t, int32_t ndim, const int64_t* sizes, const int64_t* strides, int64_t offset);

#endif
