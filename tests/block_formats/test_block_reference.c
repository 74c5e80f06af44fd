/* The reference of the block formats (block_reference.c) against the
 * published vectors (published_vectors.c), without the library: the two are
 * independent of it and of each other. Also the reference's rounding
 * against the C compiler's own float64 -> float32 conversion, and its
 * element codes decoded and encoded back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "block_reference.h"
#include "published_vectors.h"

static int same_bits(ref_float t, uint64_t got, uint64_t want) {
  if (ref_is_nan(t, want)) return ref_is_nan(t, got);
  return got == want;
}

static void published_quantize_vectors_match_the_reference(void** state) {
  (void)state;
  published_print_sources();
  int failures = 0;
  for (int v = 0; v < published_quantize_count(); ++v) {
    const published_quantize* p = published_quantize_vector(v);
    uint8_t codes[32], scale;
    ref_quantize_block(p->format, p->rule, p->global_scale_bits, p->src_type, p->x, p->n, codes, &scale);
    if (scale != p->scale) {
      print_error("%s: scale 0x%02X, published 0x%02X\n", p->source, scale, p->scale);
      ++failures;
    }
    for (int i = 0; i < p->n; ++i) {
      if (codes[i] != p->codes[i]) {
        print_error("%s: element %d (input 0x%llX) code 0x%02X, published 0x%02X\n", p->source, i,
                    (unsigned long long)p->x[i], codes[i], p->codes[i]);
        ++failures;
      }
    }
  }
  assert_int_equal(failures, 0);
}

static void published_dequantize_vectors_match_the_reference(void** state) {
  (void)state;
  int failures = 0;
  for (int v = 0; v < published_dequantize_count(); ++v) {
    const published_dequantize* p = published_dequantize_vector(v);
    uint64_t y[32];
    ref_dequantize_block(p->format, p->global_scale_bits, p->dst_type, p->codes, p->n, p->scale, y);
    for (int i = 0; i < p->n; ++i) {
      if (!same_bits(p->dst_type, y[i], p->y[i])) {
        print_error("%s: element %d (code 0x%02X) gives 0x%llX, published 0x%llX\n", p->source, i, p->codes[i],
                    (unsigned long long)y[i], (unsigned long long)p->y[i]);
        ++failures;
      }
    }
  }
  assert_int_equal(failures, 0);
}

/* The reference's rounding onto float32's grid (ties to even, subnormals,
 * overflow to infinity) is the C conversion of a double to float in the
 * default rounding mode: random doubles over float32's whole range and
 * past both ends, and the ties between neighbouring floats. */
static uint64_t next_random(uint64_t* s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static void rounding_to_float32_is_the_c_conversion(void** state) {
  (void)state;
  uint64_t rng = 0x2545F4914F6CDD1Dull;
  int failures = 0;
  for (int i = 0; i < 200000 && failures < 10; ++i) {
    uint64_t bits = next_random(&rng);
    /* exponent within 2^-160 .. 2^140: float32's range and beyond it */
    const uint64_t biased = 1023 - 160 + next_random(&rng) % 301;
    bits = (bits & 0x800FFFFFFFFFFFFFull) | (biased << 52);
    if (i % 4 == 0) bits &= ~0x0FFFFFFFull; /* near float32 ties and exact values */
    if (i % 8 == 0) bits |= 0x10000000ull;  /* exactly halfway for normal floats */
    double d;
    memcpy(&d, &bits, sizeof d);
    const float f = (float)d;
    uint32_t want;
    memcpy(&want, &f, sizeof want);
    const uint64_t got = ref_encode(REF_FLOAT32, ref_decode(REF_FLOAT64, bits));
    if (got != want) {
      print_error("double 0x%016llX: reference 0x%08llX, C 0x%08X\n", (unsigned long long)bits,
                  (unsigned long long)got, (unsigned)want);
      ++failures;
    }
  }
  assert_int_equal(failures, 0);
}

/* Every code of every element type decodes to a value that encodes back to
 * the same code (the NaN codes to the type's NaN), and the largest is the
 * type's published maximum. */
static void element_codes_decode_and_encode_back(void** state) {
  (void)state;
  static const struct {
    ref_float t;
    uint64_t max_mant;
    int max_exp;
  } types[] = {{REF_E4M3, 7, 6}, {REF_E5M2, 7, 13}, {REF_E2M3, 15, -1}, {REF_E3M2, 7, 2}, {REF_E2M1, 3, 1}};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; ++k) {
    const ref_float t = types[k].t;
    const ref_value mx = ref_max(t);
    assert_int_equal(ref_compare_magnitude(mx, (ref_value){REF_FINITE, 0, types[k].max_mant, types[k].max_exp}), 0);
    for (uint64_t code = 0; code < (1ull << ref_bits(t)); ++code) {
      const ref_value v = ref_decode(t, code);
      const uint64_t back = ref_encode(t, v);
      if (v.kind == REF_NAN) {
        assert_true(ref_is_nan(t, back));
      } else {
        assert_int_equal(back, code);
      }
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(published_quantize_vectors_match_the_reference),
      cmocka_unit_test(published_dequantize_vectors_match_the_reference),
      cmocka_unit_test(rounding_to_float32_is_the_c_conversion),
      cmocka_unit_test(element_codes_decode_and_encode_back),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
