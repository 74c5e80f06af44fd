/* Helpers for the tests of the copy operators (st_copy, st_contiguous,
 * st_clone, st_to, st_fill, st_reshape): expected values in every dtype,
 * layouts over padded buffers, random layouts, and a reference copy written
 * here, independently of the library (a multi-index walk over dst that
 * reads src through its own sizes, strides and offset, broadcasting). */
#ifndef STRIDE_TEST_COPY_SUPPORT_H
#define STRIDE_TEST_COPY_SUPPORT_H

#include "support.h"

#define NUM_DTYPES 21

/* ---- Expected values ---------------------------------------------------- */

/* One value as it must read in each dtype: a row of a conversion table.
 * float16, bfloat16, float8, e8m0 and float6 are bit patterns; complex are
 * {real, imaginary}. float4_e2m1fn_x2 converts to nothing else: its entry
 * is the byte itself, in the rows of its own table only. */
typedef struct every_dtype {
  uint8_t b;
  uint8_t u8;
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  uint16_t f16;
  uint16_t bf16;
  float f32;
  double f64;
  float c64[2];
  double c128[2];
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  uint8_t f8e4m3fn;
  uint8_t f8e5m2;
  uint8_t f8e8m0fnu;
  uint8_t f4e2m1fn_x2;
  uint8_t f6e2m3fn;
  uint8_t f6e3m2fn;
} every_dtype;

/* Whether st_copy takes dst <- src: every pair but float4_e2m1fn_x2 with
 * another dtype (include/stride.h). */
int dtype_converts(st_dtype dst, st_dtype src);

/* Whether st_copy_scaled takes the dtype: real, and none of the MX scale
 * and element dtypes (float8_e8m0fnu, float6, float4). */
int dtype_takes_scaled_copies(st_dtype d);

/* Asserts that the element at `got`, of `dtype`, is `want`'s entry for that
 * dtype: integers exactly, floating point bit for bit (so -0 differs from
 * +0), except that an expected NaN matches any NaN of the same sign.
 * `what` describes the element in the failure message. */
void expect_element(st_dtype dtype, const void* got, const every_dtype* want, const char* what);

/* ---- Random numbers ------------------------------------------------------ */

/* The seed of a test's random cases: ST_TEST_SEED from the environment, or
 * `fixed`. Printed, so that any failure can be replayed. */
uint64_t test_seed(const char* test_name, uint64_t fixed);
uint64_t rng_next(uint64_t* state);
/* Uniform in [0, n), n >= 1. */
int64_t rng_below(uint64_t* state, int64_t n);

/* ---- Layouts over padded buffers ----------------------------------------- */

/* Where a view's elements lie in its buffer, in elements. */
typedef struct layout {
  int32_t ndim;
  int64_t sizes[ST_MAX_DIMS];
  int64_t strides[ST_MAX_DIMS];
  int64_t offset; /* from the buffer's first element to element (0, ..., 0) */
} layout;

/* Memory the test owns, wrapped whole as a 1-d tensor (st_tensor_from_data,
 * no deleter), of which views are made with st_as_strided. */
typedef struct buffer {
  st_dtype dtype;
  size_t itemsize;
  int64_t numel;
  unsigned char* bytes;
  st_tensor whole;
} buffer;

/* A buffer of `numel` elements (at least one), every byte set from `rng`. */
buffer buffer_create(st_dtype dtype, int64_t numel, uint64_t* rng);
void buffer_destroy(buffer* b);
/* The view of `b` that `l` describes (st_as_strided); the caller releases it. */
st_tensor buffer_view(const buffer* b, const layout* l);

int64_t layout_numel(const layout* l);

/* A random view layout of `sizes` inside a buffer it also sizes: the dims
 * stored in a random or channels-last order, sliced with steps and starts,
 * some flipped, with padding before and after. With `allow_expand`, some
 * dims of size > 1 get stride 0. Returns the buffer length in elements. */
int64_t random_layout(uint64_t* rng, int32_t ndim, const int64_t* sizes, int allow_expand, layout* out);

/* ---- Random copy cases ------------------------------------------------------ */

/* A copy between two random layouts over padded buffers of random bytes. */
typedef struct copy_case {
  st_dtype dst_dtype, src_dtype;
  layout dl, sl;
  buffer db, sb;
} copy_case;

enum source_kind { ANY_SOURCE, BROADCAST_SOURCE };

/* A random case: dst of 1 to 6 dims, sizes 0 to 7 (0 rarely); src of dst's
 * last dims or fewer (any may be 1 or a stride-0 expand); BROADCAST_SOURCE
 * makes sure something broadcasts. Converting cases take a pair of
 * different dtypes that convert (dtype_converts), the source holding small
 * integers both hold exactly (buffer_fill_small_ints); else one random
 * dtype. */
void random_copy_case(uint64_t* rng, int converting, enum source_kind kind, copy_case* c);
void copy_case_destroy(copy_case* c);

/* Makes `cases` random cases from the seed of test_seed(name, fixed_seed)
 * and hands each to `check` with its index and a description naming the
 * seed and the case. */
void run_random_copy_cases(const char* name, uint64_t fixed_seed, int cases, int converting, enum source_kind kind,
                           void (*check)(const copy_case* c, int index, const char* what));

/* ---- Values and the reference copy ---------------------------------------- */

/* Writes the small integer `v` (|v| <= 256, 0 or 1 for bool, >= 0 for the
 * unsigned dtypes, |v| <= 8 for float8 and float6_e3m2fn, |v| <= 7 for
 * float6_e2m3fn, 0 or a power of two up to 8 for float8_e8m0fnu, which
 * writes 0 as its smallest value 0x00, as a conversion would) as an
 * element of `dtype`; every dtype holds these exactly. Not for
 * float4_e2m1fn_x2, which holds pairs. */
void put_small_int(st_dtype dtype, void* p, int64_t v);
/* Reads back an element written by put_small_int (bool: 0 or 1). */
int64_t get_small_int(st_dtype dtype, const void* p);

/* A random small integer that dtypes `a` and `b` both hold exactly, so that
 * a conversion between them keeps it: 0..1 when either is bool; else at
 * most 8 in magnitude when either is a float8 or float6_e3m2fn, 7 for
 * float6_e2m3fn; not negative when either is unsigned; within -100..100;
 * with float8_e8m0fnu a power of two (1 with bool). */
int64_t random_small_int(st_dtype a, st_dtype b, uint64_t* rng);

/* Fills every element of `b` with random_small_int(b's dtype, `other`). */
void buffer_fill_small_ints(buffer* b, st_dtype other, uint64_t* rng);

/* dst (in dst_bytes, dtype dst_dtype, layout dl) = src, with src broadcast
 * from the right. The same dtype copies bytes; different dtypes convert
 * small integers (put_small_int / get_small_int; → bool is "nonzero"). */
void reference_copy(unsigned char* dst_bytes, st_dtype dst_dtype, const layout* dl, const unsigned char* src_bytes,
                    st_dtype src_dtype, const layout* sl);

/* Asserts that `got` equals `want` byte for byte; on a difference prints
 * the first differing element of a buffer of `itemsize`, and `context`. */
void expect_same_bytes(const unsigned char* got, const unsigned char* want, size_t nbytes, size_t itemsize,
                       const char* context);

/* The layout (sizes, strides, storage offset) of a tensor, as it reports it. */
layout layout_of(st_tensor t);

/* A row-major layout of `sizes` starting `offset` elements into its buffer. */
layout row_major(int32_t ndim, const int64_t* sizes, int64_t offset);

/* The address of element (0, ..., 0). */
void* data_ptr(st_tensor t);

/* The address of the first byte of t's storage: data_ptr less the storage
 * offset, so that layout_of(t) locates every element from it. */
unsigned char* storage_base(st_tensor t);

/* Asserts that `t` holds the elements of src (buffer `b` seen through
 * `sl`, of t's shape), converted to t's dtype as reference_copy converts,
 * read through t's own sizes, strides and offset. */
void expect_values_of(st_tensor t, const buffer* b, const layout* sl, const char* context);

/* ---- Strides the API promises -------------------------------------------- */

/* Row-major strides, a size-0 dim counting as 1 (as PyTorch's computeStride
 * in contiguous_strides). */
void expected_contiguous_strides(int32_t ndim, const int64_t* sizes, int64_t* out);
/* NHWC (4-d) / NDHWC (5-d) strides from the sizes as they are, as PyTorch's
 * get_channels_last_strides_2d/3d. */
void expected_channels_last_strides(int32_t ndim, const int64_t* sizes, int64_t* out);

/* PyTorch's is_contiguous rules: dims of size 1 ignored; an empty tensor is
 * contiguous (CONTIGUOUS only; channels-last checks strides even when
 * empty); channels-last needs 4 dims, channels-last-3d 5. */
int is_contiguous_as(const layout* l, st_memory_format fmt);

/* Some permutation of the dims is row-major (dims of size < 2 ignored, no
 * negative stride on a dim of size > 1); an empty tensor is contiguous, so
 * it is dense whatever its strides (as PyTorch's is_non_overlapping_and_dense). */
int is_non_overlapping_and_dense(int32_t ndim, const int64_t* sizes, const int64_t* strides);

#endif
