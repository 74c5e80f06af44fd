#include "copy_support.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

/* ---- Expected values ---------------------------------------------------- */

static int f16_is_nan(uint16_t b) { return (b & 0x7C00u) == 0x7C00u && (b & 0x03FFu) != 0; }
static int bf16_is_nan(uint16_t b) { return (b & 0x7F80u) == 0x7F80u && (b & 0x007Fu) != 0; }
/* float8_e4m3fn has one NaN per sign, S.1111.111; float8_e5m2 is IEEE-like. */
static int f8e4m3fn_is_nan(uint16_t b) { return (b & 0x7Fu) == 0x7Fu; }
static int f8e5m2_is_nan(uint16_t b) { return (b & 0x7Cu) == 0x7Cu && (b & 0x03u) != 0; }

int dtype_converts(st_dtype dst, st_dtype src) {
  return dst == src || (dst != ST_FLOAT4_E2M1FN_X2 && src != ST_FLOAT4_E2M1FN_X2);
}

int dtype_takes_scaled_copies(st_dtype d) {
  return d != ST_COMPLEX64 && d != ST_COMPLEX128 && d != ST_FLOAT8_E8M0FNU && d != ST_FLOAT4_E2M1FN_X2 &&
         d != ST_FLOAT6_E2M3FN && d != ST_FLOAT6_E3M2FN;
}

/* A byte compared exactly: e8m0 has one NaN (0xFF), float6 and float4 none,
 * and every pattern of theirs is one value. */
static void expect_byte(const char* dtype, uint8_t got, uint8_t want, const char* what) {
  if (got == want) return;
  print_error("%s as %s: got bits 0x%02x, expected 0x%02x\n", what, dtype, got, want);
  fail();
}

/* Bit patterns of a float of `bits` bits (16 or 8): equal, or NaN of the same sign. */
static void expect_float_bits(const char* dtype, int bits, uint16_t got, uint16_t want, int (*is_nan)(uint16_t),
                              const char* what) {
  const uint16_t sign = (uint16_t)(1u << (bits - 1));
  if (is_nan(want) ? (is_nan(got) && (got & sign) == (want & sign)) : got == want) return;
  print_error("%s as %s: got bits 0x%0*x, expected 0x%0*x\n", what, dtype, bits / 4, got, bits / 4, want);
  fail();
}

static void expect_f32(float got, float want, const char* dtype, const char* what) {
  uint32_t g, w;
  memcpy(&g, &got, sizeof g);
  memcpy(&w, &want, sizeof w);
  if (isnan(want) ? (isnan(got) && !signbit(got) == !signbit(want)) : g == w) return;
  print_error("%s as %s: got %.9g (0x%08" PRIx32 "), expected %.9g (0x%08" PRIx32 ")\n", what, dtype, (double)got, g,
              (double)want, w);
  fail();
}

static void expect_f64(double got, double want, const char* dtype, const char* what) {
  uint64_t g, w;
  memcpy(&g, &got, sizeof g);
  memcpy(&w, &want, sizeof w);
  if (isnan(want) ? (isnan(got) && !signbit(got) == !signbit(want)) : g == w) return;
  print_error("%s as %s: got %.17g (0x%016" PRIx64 "), expected %.17g (0x%016" PRIx64 ")\n", what, dtype, got, g, want,
              w);
  fail();
}

static void expect_int(int64_t got, int64_t want, const char* dtype, const char* what) {
  if (got == want) return;
  print_error("%s as %s: got %" PRId64 ", expected %" PRId64 "\n", what, dtype, got, want);
  fail();
}

static void expect_uint(uint64_t got, uint64_t want, const char* dtype, const char* what) {
  if (got == want) return;
  print_error("%s as %s: got %" PRIu64 ", expected %" PRIu64 "\n", what, dtype, got, want);
  fail();
}

void expect_element(st_dtype dtype, const void* got, const every_dtype* want, const char* what) {
  const char* name = st_dtype_name(dtype);
  switch (dtype) {
    case ST_BOOL: {
      uint8_t v;
      memcpy(&v, got, 1);
      expect_int(v, want->b, name, what);
      return;
    }
    case ST_UINT8: {
      uint8_t v;
      memcpy(&v, got, 1);
      expect_int(v, want->u8, name, what);
      return;
    }
    case ST_INT8: {
      int8_t v;
      memcpy(&v, got, 1);
      expect_int(v, want->i8, name, what);
      return;
    }
    case ST_INT16: {
      int16_t v;
      memcpy(&v, got, 2);
      expect_int(v, want->i16, name, what);
      return;
    }
    case ST_INT32: {
      int32_t v;
      memcpy(&v, got, 4);
      expect_int(v, want->i32, name, what);
      return;
    }
    case ST_INT64: {
      int64_t v;
      memcpy(&v, got, 8);
      expect_int(v, want->i64, name, what);
      return;
    }
    case ST_FLOAT16: {
      uint16_t v;
      memcpy(&v, got, 2);
      expect_float_bits(name, 16, v, want->f16, f16_is_nan, what);
      return;
    }
    case ST_BFLOAT16: {
      uint16_t v;
      memcpy(&v, got, 2);
      expect_float_bits(name, 16, v, want->bf16, bf16_is_nan, what);
      return;
    }
    case ST_FLOAT32: {
      float v;
      memcpy(&v, got, 4);
      expect_f32(v, want->f32, name, what);
      return;
    }
    case ST_FLOAT64: {
      double v;
      memcpy(&v, got, 8);
      expect_f64(v, want->f64, name, what);
      return;
    }
    case ST_COMPLEX64: {
      float v[2];
      memcpy(v, got, 8);
      expect_f32(v[0], want->c64[0], "complex64 (real part)", what);
      expect_f32(v[1], want->c64[1], "complex64 (imaginary part)", what);
      return;
    }
    case ST_COMPLEX128: {
      double v[2];
      memcpy(v, got, 16);
      expect_f64(v[0], want->c128[0], "complex128 (real part)", what);
      expect_f64(v[1], want->c128[1], "complex128 (imaginary part)", what);
      return;
    }
    case ST_UINT16: {
      uint16_t v;
      memcpy(&v, got, 2);
      expect_uint(v, want->u16, name, what);
      return;
    }
    case ST_UINT32: {
      uint32_t v;
      memcpy(&v, got, 4);
      expect_uint(v, want->u32, name, what);
      return;
    }
    case ST_UINT64: {
      uint64_t v;
      memcpy(&v, got, 8);
      expect_uint(v, want->u64, name, what);
      return;
    }
    case ST_FLOAT8_E4M3FN: {
      uint8_t v;
      memcpy(&v, got, 1);
      expect_float_bits(name, 8, v, want->f8e4m3fn, f8e4m3fn_is_nan, what);
      return;
    }
    case ST_FLOAT8_E5M2: {
      uint8_t v;
      memcpy(&v, got, 1);
      expect_float_bits(name, 8, v, want->f8e5m2, f8e5m2_is_nan, what);
      return;
    }
    case ST_FLOAT8_E8M0FNU:
      expect_byte(name, *(const uint8_t*)got, want->f8e8m0fnu, what);
      return;
    case ST_FLOAT4_E2M1FN_X2:
      expect_byte(name, *(const uint8_t*)got, want->f4e2m1fn_x2, what);
      return;
    case ST_FLOAT6_E2M3FN:
      expect_byte(name, *(const uint8_t*)got, want->f6e2m3fn, what);
      return;
    case ST_FLOAT6_E3M2FN:
      expect_byte(name, *(const uint8_t*)got, want->f6e3m2fn, what);
      return;
  }
  print_error("expect_element: dtype %d is not an st_dtype\n", (int)dtype);
  fail();
}

/* ---- Random numbers ------------------------------------------------------ */

uint64_t test_seed(const char* test_name, uint64_t fixed) {
  const char* env = getenv("ST_TEST_SEED");
  uint64_t seed = env ? strtoull(env, NULL, 10) : fixed;
  print_message("%s: seed %" PRIu64 " (ST_TEST_SEED=%" PRIu64 " repeats it)\n", test_name, seed, seed);
  return seed;
}

/* splitmix64 */
uint64_t rng_next(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int64_t rng_below(uint64_t* state, int64_t n) { return (int64_t)(rng_next(state) % (uint64_t)n); }

/* ---- Layouts over padded buffers ----------------------------------------- */

buffer buffer_create(st_dtype dtype, int64_t numel, uint64_t* rng) {
  buffer b;
  b.dtype = dtype;
  b.itemsize = st_dtype_itemsize(dtype);
  b.numel = numel < 1 ? 1 : numel;
  size_t nbytes = (size_t)b.numel * b.itemsize;
  b.bytes = malloc(nbytes);
  assert_non_null(b.bytes);
  for (size_t i = 0; i < nbytes; ++i) b.bytes[i] = (unsigned char)rng_next(rng);
  if (dtype == ST_BOOL) {
    for (size_t i = 0; i < nbytes; ++i) b.bytes[i] &= 1; /* a bool holds 0 or 1 */
  }
  b.whole.id = 0;
  EXPECT_OK(st_tensor_from_data(b.bytes, &b.numel, NULL, 1, dtype, CPU, NULL, NULL, &b.whole));
  return b;
}

void buffer_destroy(buffer* b) {
  EXPECT_OK(st_tensor_release(b->whole));
  free(b->bytes);
  b->bytes = NULL;
}

st_tensor buffer_view(const buffer* b, const layout* l) {
  st_tensor v = {0};
  EXPECT_OK(st_as_strided(b->whole, l->sizes, l->strides, l->ndim, l->offset, &v));
  return v;
}

int64_t layout_numel(const layout* l) {
  int64_t n = 1;
  for (int32_t d = 0; d < l->ndim; ++d) n *= l->sizes[d];
  return n;
}

/* Base buffers stay below this many elements, whatever the steps. */
#define MAX_BASE_NUMEL (INT64_C(1) << 18)

int64_t random_layout(uint64_t* rng, int32_t ndim, const int64_t* sizes, int allow_expand, layout* out) {
  int32_t perm[ST_MAX_DIMS]; /* base dim k (slowest first) holds view dim perm[k] */
  int64_t step[ST_MAX_DIMS], start[ST_MAX_DIMS], extra[ST_MAX_DIMS], base[ST_MAX_DIMS], base_stride[ST_MAX_DIMS];
  int expanded[ST_MAX_DIMS];
  for (int32_t i = 0; i < ndim; ++i) perm[i] = i;
  int64_t kind = rng_below(rng, 10);
  if (kind >= 8 && (ndim == 4 || ndim == 5)) {
    for (int32_t i = 1; i < ndim - 1; ++i) perm[i] = i + 1; /* N, spatial dims, then C fastest */
    perm[ndim - 1] = 1;
  } else if (kind >= 4) {
    for (int32_t i = ndim - 1; i > 0; --i) {
      int32_t j = (int32_t)rng_below(rng, i + 1), t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
  }
  for (int32_t i = 0; i < ndim; ++i) {
    step[i] = rng_below(rng, 4) == 0 ? 2 + rng_below(rng, 2) : 1;
    start[i] = rng_below(rng, 4) == 0 ? rng_below(rng, 3) : 0;
    extra[i] = rng_below(rng, 4) == 0 ? 1 : 0;
    expanded[i] = allow_expand && sizes[i] > 1 && rng_below(rng, 5) == 0;
  }
  int64_t base_numel;
  for (int attempt = 0;; ++attempt) {
    base_numel = 1;
    for (int32_t i = 0; i < ndim; ++i) {
      base[i] = expanded[i] ? 1 : start[i] + (sizes[i] > 1 ? (sizes[i] - 1) * step[i] : 0) + 1 + extra[i];
      base_numel *= base[i];
    }
    if (base_numel <= MAX_BASE_NUMEL || attempt == 1) break;
    for (int32_t i = 0; i < ndim; ++i) step[i] = 1, start[i] = 0, extra[i] = 0;
  }
  int64_t stride = 1;
  for (int32_t k = ndim - 1; k >= 0; --k) {
    base_stride[perm[k]] = stride;
    stride *= base[perm[k]];
  }
  int64_t pad_front = rng_below(rng, 4), pad_back = rng_below(rng, 4);
  out->ndim = ndim;
  out->offset = pad_front;
  for (int32_t i = 0; i < ndim; ++i) {
    out->sizes[i] = sizes[i];
    if (expanded[i]) {
      out->strides[i] = 0;
      continue;
    }
    out->strides[i] = base_stride[i] * step[i];
    out->offset += start[i] * base_stride[i];
    if (sizes[i] > 0 && rng_below(rng, 4) == 0) { /* flip */
      out->offset += (sizes[i] - 1) * out->strides[i];
      out->strides[i] = -out->strides[i];
    }
  }
  return pad_front + base_numel + pad_back;
}

/* ---- Values and the reference copy ---------------------------------------- */

/* The bits of a binary float (1 sign bit, exponent bias `bias`, `mant`
 * mantissa bits, `bits` bits in all) holding the integer v, which it holds
 * exactly: |v| has at most mant + 1 significant bits. */
static uint16_t float_bits_of_small_int(int64_t v, int bits, int mant, int bias) {
  if (v == 0) return 0;
  uint16_t sign = v < 0 ? (uint16_t)(1u << (bits - 1)) : 0;
  int64_t m = v < 0 ? -v : v;
  int e = 0;
  while ((m >> (e + 1)) != 0) ++e; /* 2^e <= m < 2^(e+1) */
  /* the mant bits below the leading one */
  int64_t mantissa = (e <= mant ? m << (mant - e) : m >> (e - mant)) - (INT64_C(1) << mant);
  return (uint16_t)(sign | (uint16_t)((e + bias) << mant) | (uint16_t)mantissa);
}

/* A small integer from float bits written by float_bits_of_small_int: the
 * integer part of m * 2^(e - bias - mant), as a cast truncates. */
static int64_t small_int_of_float_bits(uint16_t x, int bits, int mant, int bias) {
  const int e = (x >> mant) & ((1 << (bits - 1 - mant)) - 1);
  const int64_t m = e == 0 ? (x & ((1 << mant) - 1)) : ((x & ((1 << mant) - 1)) | (1 << mant));
  const int shift = (e == 0 ? 1 : e) - bias - mant;
  const int64_t v = shift >= 0 ? m << shift : m >> -shift;
  return (x >> (bits - 1)) ? -v : v;
}

void put_small_int(st_dtype dtype, void* p, int64_t v) {
  switch (dtype) {
    case ST_BOOL:
    case ST_UINT8:
    case ST_INT8: {
      uint8_t x = (uint8_t)(int8_t)v;
      if (dtype == ST_UINT8) x = (uint8_t)v;
      memcpy(p, &x, 1);
      return;
    }
    case ST_INT16: {
      int16_t x = (int16_t)v;
      memcpy(p, &x, 2);
      return;
    }
    case ST_INT32: {
      int32_t x = (int32_t)v;
      memcpy(p, &x, 4);
      return;
    }
    case ST_INT64:
      memcpy(p, &v, 8);
      return;
    case ST_FLOAT16: {
      uint16_t x = float_bits_of_small_int(v, 16, 10, 15);
      memcpy(p, &x, 2);
      return;
    }
    case ST_BFLOAT16: { /* the upper half of the float32; exact for |v| <= 256 */
      float f = (float)v;
      uint32_t bits;
      memcpy(&bits, &f, 4);
      uint16_t x = (uint16_t)(bits >> 16);
      memcpy(p, &x, 2);
      return;
    }
    case ST_FLOAT32: {
      float x = (float)v;
      memcpy(p, &x, 4);
      return;
    }
    case ST_FLOAT64: {
      double x = (double)v;
      memcpy(p, &x, 8);
      return;
    }
    case ST_COMPLEX64: {
      float x[2] = {(float)v, 0.0f};
      memcpy(p, x, 8);
      return;
    }
    case ST_COMPLEX128: {
      double x[2] = {(double)v, 0.0};
      memcpy(p, x, 16);
      return;
    }
    case ST_UINT16: {
      uint16_t x = (uint16_t)v;
      memcpy(p, &x, 2);
      return;
    }
    case ST_UINT32: {
      uint32_t x = (uint32_t)v;
      memcpy(p, &x, 4);
      return;
    }
    case ST_UINT64: {
      uint64_t x = (uint64_t)v;
      memcpy(p, &x, 8);
      return;
    }
    case ST_FLOAT8_E4M3FN: {
      uint8_t x = (uint8_t)float_bits_of_small_int(v, 8, 3, 7);
      memcpy(p, &x, 1);
      return;
    }
    case ST_FLOAT8_E5M2: {
      uint8_t x = (uint8_t)float_bits_of_small_int(v, 8, 2, 15);
      memcpy(p, &x, 1);
      return;
    }
    case ST_FLOAT8_E8M0FNU: { /* 2^(x - 127); 0 as the smallest, 0x00 */
      uint8_t x = 0;
      if (v > 0) {
        int e = 0;
        while ((INT64_C(1) << e) < v) ++e;
        x = (uint8_t)(127 + e);
      }
      memcpy(p, &x, 1);
      return;
    }
    case ST_FLOAT6_E2M3FN: {
      uint8_t x = (uint8_t)float_bits_of_small_int(v, 6, 3, 1);
      memcpy(p, &x, 1);
      return;
    }
    case ST_FLOAT6_E3M2FN: {
      uint8_t x = (uint8_t)float_bits_of_small_int(v, 6, 2, 3);
      memcpy(p, &x, 1);
      return;
    }
    case ST_FLOAT4_E2M1FN_X2:
      break;
  }
  print_error("put_small_int: no small integer in dtype %d\n", (int)dtype);
  fail();
}

int64_t get_small_int(st_dtype dtype, const void* p) {
  switch (dtype) {
    case ST_BOOL:
    case ST_UINT8: {
      uint8_t x;
      memcpy(&x, p, 1);
      return x;
    }
    case ST_INT8: {
      int8_t x;
      memcpy(&x, p, 1);
      return x;
    }
    case ST_INT16: {
      int16_t x;
      memcpy(&x, p, 2);
      return x;
    }
    case ST_INT32: {
      int32_t x;
      memcpy(&x, p, 4);
      return x;
    }
    case ST_INT64: {
      int64_t x;
      memcpy(&x, p, 8);
      return x;
    }
    case ST_FLOAT16: {
      uint16_t x;
      memcpy(&x, p, 2);
      return small_int_of_float_bits(x, 16, 10, 15);
    }
    case ST_BFLOAT16: {
      uint16_t x;
      memcpy(&x, p, 2);
      uint32_t bits = (uint32_t)x << 16;
      float f;
      memcpy(&f, &bits, 4);
      return (int64_t)f;
    }
    case ST_FLOAT32:
    case ST_COMPLEX64: {
      float x;
      memcpy(&x, p, 4);
      return (int64_t)x;
    }
    case ST_FLOAT64:
    case ST_COMPLEX128: {
      double x;
      memcpy(&x, p, 8);
      return (int64_t)x;
    }
    case ST_UINT16: {
      uint16_t x;
      memcpy(&x, p, 2);
      return x;
    }
    case ST_UINT32: {
      uint32_t x;
      memcpy(&x, p, 4);
      return x;
    }
    case ST_UINT64: {
      uint64_t x;
      memcpy(&x, p, 8);
      return (int64_t)x; /* small: below 2^63 */
    }
    case ST_FLOAT8_E4M3FN: {
      uint8_t x;
      memcpy(&x, p, 1);
      return small_int_of_float_bits(x, 8, 3, 7);
    }
    case ST_FLOAT8_E5M2: {
      uint8_t x;
      memcpy(&x, p, 1);
      return small_int_of_float_bits(x, 8, 2, 15);
    }
    case ST_FLOAT8_E8M0FNU: {
      uint8_t x;
      memcpy(&x, p, 1);
      return x < 127 ? 0 : INT64_C(1) << (x - 127); /* a fraction truncates to 0 */
    }
    case ST_FLOAT6_E2M3FN: {
      uint8_t x;
      memcpy(&x, p, 1);
      return small_int_of_float_bits(x & 0x3F, 6, 3, 1);
    }
    case ST_FLOAT6_E3M2FN: {
      uint8_t x;
      memcpy(&x, p, 1);
      return small_int_of_float_bits(x & 0x3F, 6, 2, 3);
    }
    case ST_FLOAT4_E2M1FN_X2:
      break;
  }
  print_error("get_small_int: no small integer in dtype %d\n", (int)dtype);
  fail();
  return 0;
}

static int is_unsigned_dtype(st_dtype d) {
  return d == ST_UINT8 || d == ST_UINT16 || d == ST_UINT32 || d == ST_UINT64;
}

static int is_float8_dtype(st_dtype d) {
  return d == ST_FLOAT8_E4M3FN || d == ST_FLOAT8_E5M2 || d == ST_FLOAT6_E3M2FN;
}

int64_t random_small_int(st_dtype a, st_dtype b, uint64_t* rng) {
  if (a == ST_FLOAT8_E8M0FNU || b == ST_FLOAT8_E8M0FNU) {
    /* Powers of two, none negative; 1 with bool (e8m0 has no 0); 4 at most
     * with float6_e2m3fn (its largest is 7.5). */
    const st_dtype other = a == ST_FLOAT8_E8M0FNU ? b : a;
    const int64_t top = other == ST_BOOL ? 0 : other == ST_FLOAT6_E2M3FN ? 2 : 3;
    return INT64_C(1) << rng_below(rng, top + 1);
  }
  if (a == ST_BOOL || b == ST_BOOL) return rng_below(rng, 2);
  const int64_t limit = a == ST_FLOAT6_E2M3FN || b == ST_FLOAT6_E2M3FN ? 7
                        : is_float8_dtype(a) || is_float8_dtype(b)  ? 8
                                                                     : 100;
  if (is_unsigned_dtype(a) || is_unsigned_dtype(b)) return rng_below(rng, limit + 1);
  return rng_below(rng, 2 * limit + 1) - limit;
}

void buffer_fill_small_ints(buffer* b, st_dtype other, uint64_t* rng) {
  for (int64_t i = 0; i < b->numel; ++i)
    put_small_int(b->dtype, b->bytes + (size_t)i * b->itemsize, random_small_int(b->dtype, other, rng));
}

void reference_copy(unsigned char* dst_bytes, st_dtype dst_dtype, const layout* dl, const unsigned char* src_bytes,
                    st_dtype src_dtype, const layout* sl) {
  const size_t dsize = st_dtype_itemsize(dst_dtype), ssize = st_dtype_itemsize(src_dtype);
  const int32_t lead = dl->ndim - sl->ndim; /* src aligns with dst's last dims */
  if (layout_numel(dl) == 0) return;
  int64_t index[ST_MAX_DIMS] = {0};
  for (;;) {
    int64_t d_at = dl->offset, s_at = sl->offset;
    for (int32_t i = 0; i < dl->ndim; ++i) d_at += index[i] * dl->strides[i];
    for (int32_t j = 0; j < sl->ndim; ++j) s_at += (sl->sizes[j] == 1 ? 0 : index[j + lead]) * sl->strides[j];
    unsigned char* d = dst_bytes + (size_t)d_at * dsize;
    const unsigned char* s = src_bytes + (size_t)s_at * ssize;
    if (dst_dtype == src_dtype) {
      memcpy(d, s, dsize);
    } else {
      int64_t v = get_small_int(src_dtype, s);
      put_small_int(dst_dtype, d, dst_dtype == ST_BOOL ? v != 0 : v);
    }
    int32_t i = dl->ndim - 1; /* the next index, last dim fastest */
    while (i >= 0 && ++index[i] == dl->sizes[i]) index[i--] = 0;
    if (i < 0) return;
  }
}

void expect_same_bytes(const unsigned char* got, const unsigned char* want, size_t nbytes, size_t itemsize,
                       const char* context) {
  if (memcmp(got, want, nbytes) == 0) return;
  size_t at = 0;
  while (got[at] == want[at]) ++at;
  print_error("%s: byte %zu (element %zu of the buffer) is 0x%02x, expected 0x%02x\n", context, at, at / itemsize,
              got[at], want[at]);
  fail();
}

layout layout_of(st_tensor t) {
  layout l;
  memset(&l, 0, sizeof l);
  EXPECT_OK(st_tensor_ndim(t, &l.ndim));
  EXPECT_OK(st_tensor_sizes(t, l.sizes, ST_MAX_DIMS));
  EXPECT_OK(st_tensor_strides(t, l.strides, ST_MAX_DIMS));
  EXPECT_OK(st_tensor_storage_offset(t, &l.offset));
  return l;
}

layout row_major(int32_t ndim, const int64_t* sizes, int64_t offset) {
  layout l;
  memset(&l, 0, sizeof l);
  l.ndim = ndim;
  l.offset = offset;
  if (ndim > 0) memcpy(l.sizes, sizes, sizeof(int64_t) * (size_t)ndim);
  expected_contiguous_strides(ndim, l.sizes, l.strides);
  return l;
}

unsigned char* storage_base(st_tensor t) {
  int64_t offset = 0;
  st_dtype dtype = ST_BOOL;
  EXPECT_OK(st_tensor_storage_offset(t, &offset));
  EXPECT_OK(st_tensor_dtype(t, &dtype));
  return (unsigned char*)data_ptr(t) - (size_t)offset * st_dtype_itemsize(dtype);
}

void expect_values_of(st_tensor t, const buffer* b, const layout* sl, const char* context) {
  layout tl = layout_of(t);
  st_dtype dtype = ST_BOOL;
  EXPECT_OK(st_tensor_dtype(t, &dtype));
  const int64_t numel = layout_numel(&tl);
  assert_int_equal(numel, layout_numel(sl));
  if (numel == 0) return;
  const size_t item = st_dtype_itemsize(dtype), nbytes = (size_t)numel * item;
  layout flat = row_major(tl.ndim, tl.sizes, 0);
  unsigned char* want = malloc(nbytes);
  unsigned char* got = malloc(nbytes);
  assert_true(want && got);
  reference_copy(want, dtype, &flat, b->bytes, b->dtype, sl);
  reference_copy(got, dtype, &flat, storage_base(t), dtype, &tl);
  expect_same_bytes(got, want, nbytes, item, context);
  free(want);
  free(got);
}

void* data_ptr(st_tensor t) {
  void* p = NULL;
  EXPECT_OK(st_tensor_data_ptr(t, &p));
  return p;
}

/* ---- Strides the API promises -------------------------------------------- */

void expected_contiguous_strides(int32_t ndim, const int64_t* sizes, int64_t* out) {
  int64_t stride = 1;
  for (int32_t d = ndim - 1; d >= 0; --d) {
    out[d] = stride;
    stride *= sizes[d] > 1 ? sizes[d] : 1;
  }
}

void expected_channels_last_strides(int32_t ndim, const int64_t* sizes, int64_t* out) {
  /* C fastest, then the spatial dims from the last, then N. */
  int32_t order[5] = {1, 3, 2, 0, 0};
  if (ndim == 5) order[1] = 4, order[2] = 3, order[3] = 2, order[4] = 0;
  int64_t stride = 1;
  for (int32_t k = 0; k < ndim; ++k) {
    out[order[k]] = stride;
    stride *= sizes[order[k]];
  }
}

int is_contiguous_as(const layout* l, st_memory_format fmt) {
  static const int32_t cl2d[4] = {1, 3, 2, 0}, cl3d[5] = {1, 4, 3, 2, 0};
  int32_t order[ST_MAX_DIMS];
  switch (fmt) {
    case ST_MEMORY_FORMAT_CONTIGUOUS:
      if (layout_numel(l) == 0) return 1;
      for (int32_t k = 0; k < l->ndim; ++k) order[k] = l->ndim - 1 - k;
      break;
    case ST_MEMORY_FORMAT_CHANNELS_LAST:
      if (l->ndim != 4) return 0;
      memcpy(order, cl2d, sizeof cl2d);
      break;
    case ST_MEMORY_FORMAT_CHANNELS_LAST_3D:
      if (l->ndim != 5) return 0;
      memcpy(order, cl3d, sizeof cl3d);
      break;
    case ST_MEMORY_FORMAT_PRESERVE:
    default:
      return is_non_overlapping_and_dense(l->ndim, l->sizes, l->strides);
  }
  int64_t expected = 1;
  for (int32_t k = 0; k < l->ndim; ++k) {
    int32_t d = order[k];
    if (l->sizes[d] == 1) continue;
    if (l->strides[d] != expected) return 0;
    expected *= l->sizes[d];
  }
  return 1;
}

int is_non_overlapping_and_dense(int32_t ndim, const int64_t* sizes, const int64_t* strides) {
  int32_t dims[ST_MAX_DIMS], n = 0;
  for (int32_t d = 0; d < ndim; ++d) {
    if (sizes[d] == 0) return 1; /* empty, so contiguous, so dense */
    if (sizes[d] >= 2) dims[n++] = d;
  }
  for (int32_t i = 1; i < n; ++i) { /* by stride, smallest first */
    for (int32_t j = i; j > 0 && strides[dims[j]] < strides[dims[j - 1]]; --j) {
      int32_t t = dims[j];
      dims[j] = dims[j - 1];
      dims[j - 1] = t;
    }
  }
  int64_t expected = 1;
  for (int32_t i = 0; i < n; ++i) {
    if (strides[dims[i]] != expected) return 0;
    expected *= sizes[dims[i]];
  }
  return 1;
}

/* ---- Random copy cases ------------------------------------------------------ */

void copy_case_destroy(copy_case* c) {
  buffer_destroy(&c->db);
  buffer_destroy(&c->sb);
}

void random_copy_case(uint64_t* rng, int converting, enum source_kind kind, copy_case* c) {
  int32_t nd = 1 + (int32_t)rng_below(rng, 6);
  int64_t sizes[ST_MAX_DIMS] = {0}, ssizes[ST_MAX_DIMS] = {0};
  for (int32_t d = 0; d < nd; ++d) sizes[d] = rng_below(rng, 20) == 0 ? 0 : 1 + rng_below(rng, 7);
  if (converting) {
    /* any two different dtypes that convert: the source holds small integers both hold exactly */
    do {
      c->dst_dtype = (st_dtype)rng_below(rng, NUM_DTYPES);
      c->src_dtype = (st_dtype)((c->dst_dtype + 1 + rng_below(rng, NUM_DTYPES - 1)) % NUM_DTYPES);
    } while (!dtype_converts(c->dst_dtype, c->src_dtype));
  } else {
    c->dst_dtype = c->src_dtype = (st_dtype)rng_below(rng, NUM_DTYPES);
  }
  int64_t dn = random_layout(rng, nd, sizes, 0, &c->dl);

  int broadcast_odds = kind == BROADCAST_SOURCE ? 2 : 4;
  int32_t dropped = rng_below(rng, broadcast_odds) == 0 ? (int32_t)rng_below(rng, nd + 1) : 0;
  int32_t snd = nd - dropped;
  for (int32_t j = 0; j < snd; ++j) ssizes[j] = rng_below(rng, broadcast_odds) == 0 ? 1 : sizes[j + dropped];
  int64_t sn = random_layout(rng, snd, ssizes, 1, &c->sl);
  if (kind == BROADCAST_SOURCE) { /* make sure something broadcasts */
    int broadcasts = dropped > 0;
    for (int32_t j = 0; j < snd; ++j) broadcasts |= c->sl.sizes[j] != sizes[j + dropped] || c->sl.strides[j] == 0;
    if (!broadcasts) {
      c->sl.ndim = 0; /* a 0-d src broadcasts to anything */
      c->sl.offset = 0;
    }
  }

  c->db = buffer_create(c->dst_dtype, dn, rng);
  c->sb = buffer_create(c->src_dtype, sn, rng);
  if (converting) buffer_fill_small_ints(&c->sb, c->dst_dtype, rng);
}

void run_random_copy_cases(const char* name, uint64_t fixed_seed, int cases, int converting, enum source_kind kind,
                           void (*check)(const copy_case* c, int index, const char* what)) {
  uint64_t seed = test_seed(name, fixed_seed);
  for (int i = 0; i < cases; ++i) {
    uint64_t rng = seed ^ ((uint64_t)i * 0x9E3779B97F4A7C15ull);
    copy_case c;
    random_copy_case(&rng, converting, kind, &c);
    char what[128];
    snprintf(what, sizeof what, "%s, seed %llu, case %d", name, (unsigned long long)seed, i);
    check(&c, i, what);
    copy_case_destroy(&c);
  }
}
