/* st_quantize_blocks and st_dequantize_blocks at the edges of API.md's
 * rules, against the reference (block_reference.c) and, where a rule fixes
 * a byte by itself, against that byte written here: every representable
 * value and every midpoint of each element type; blocks whose amax is 2^k
 * and 2^k - 1 ulp; subnormal inputs; all-zero blocks; NaN and ±inf; NVFP4's
 * scale underflow to 0 and overflow to 448; FLOOR's saturation at the block
 * max; RCEIL never saturating; FLOOR's round trip bit for bit; MXINT8's
 * codes; FP6's high bits; NVFP4's global scale. */
#include <stdlib.h>

#include "block_test_support.h"

/* ---- Blocks as rows ------------------------------------------------------------- */

/* Blocks of n elements, quantized in one call as the rows of a (count, n)
 * tensor along dim 1. */
typedef struct block_rows {
  int count, cap, n;
  uint64_t (*x)[32];
} block_rows;

static void rows_init(block_rows* r, int n) {
  r->count = 0;
  r->cap = 64;
  r->n = n;
  r->x = malloc(sizeof *r->x * (size_t)r->cap);
  assert_non_null(r->x);
}

static uint64_t* rows_add(block_rows* r) {
  if (r->count == r->cap) {
    r->cap *= 2;
    r->x = realloc(r->x, sizeof *r->x * (size_t)r->cap);
    assert_non_null(r->x);
  }
  return r->x[r->count++];
}

static void rows_free(block_rows* r) { free(r->x); }

/* Quantizes the rows and checks every block against the reference; the
 * operands are left in *o for the caller to read (and destroy). */
static void quantize_rows(block_operands* o, ref_format f, ref_rule rule, uint32_t g, st_dtype dtype,
                          const block_rows* r, const char* what) {
  uint64_t rng = 7;
  const int64_t sizes[2] = {r->count, r->n};
  block_operands_create(o, f, rule, g, dtype, 2, sizes, 1, ROW_MAJOR_LAYOUT, &rng);
  for (int b = 0; b < r->count; ++b) {
    for (int i = 0; i < r->n; ++i) {
      const int64_t index[2] = {b, i};
      store_bits(element_at(&o->fb, &o->fl, index), o->fb.itemsize, r->x[b][i]);
    }
  }
  check_quantize(o, r->count % 2 ? -1 : 1, what);
}

static void quantize_rows_and_release(ref_format f, ref_rule rule, uint32_t g, st_dtype dtype, const block_rows* r,
                                      const char* what) {
  block_operands o;
  quantize_rows(&o, f, rule, g, dtype, r, what);
  block_operands_destroy(&o);
}

static void row_output(const block_operands* o, int b, int n, uint8_t* codes, uint8_t* scale) {
  const int64_t line[2] = {b, 0};
  written_block(o, line, n, codes, scale);
}

/* The bits of v in t, and whether t holds v exactly. */
static uint64_t bits_of(ref_float t, ref_value v, int* exact) {
  const uint64_t bits = ref_encode(t, v);
  const ref_value back = ref_decode(t, bits);
  *exact = back.kind == REF_FINITE && back.negative == v.negative && ref_compare_magnitude(back, v) == 0;
  return bits;
}

static ref_value value(int negative, uint64_t mant, int exp) {
  const ref_value v = {REF_FINITE, negative, mant, exp};
  return v;
}

static ref_value element_max(ref_format f) {
  return f == REF_MXINT8 ? value(0, 127, -6) : ref_max((ref_float)ref_element_float(f));
}

/* The code of the largest positive element. */
static uint8_t max_code(ref_format f) {
  if (f == REF_MXINT8) return 0x7F;
  const ref_float t = (ref_float)ref_element_float(f);
  return (uint8_t)ref_encode(t, ref_max(t));
}

/* The code of ±max: sign and magnitude, or int8's -127. */
static uint8_t saturated_code(ref_format f, int negative) {
  if (!negative) return max_code(f);
  if (f == REF_MXINT8) return 0x81;
  return (uint8_t)(max_code(f) | 1u << (ref_bits((ref_float)ref_element_float(f)) - 1));
}

static const char* rule_name(ref_rule r) { return r == REF_RCEIL ? "rceil" : "floor"; }

/* ---- Every representable value and every midpoint ---------------------------- */

/* The nonnegative values of the element type, ascending. */
static int element_values(ref_format f, ref_value* out) {
  int n = 0;
  if (f == REF_MXINT8) {
    for (int c = 0; c <= 127; ++c) out[n++] = value(0, (uint64_t)c, -6);
    return n;
  }
  const ref_float t = (ref_float)ref_element_float(f);
  const int bits = ref_bits(t);
  for (uint64_t code = 0; code < (1ull << (bits - 1)); ++code) { /* positive codes ascend with their value */
    const ref_value v = ref_decode(t, code);
    if (v.kind == REF_FINITE) out[n++] = v;
  }
  return n;
}

/* (a + b) / 2, exactly. */
static ref_value midpoint(ref_value a, ref_value b) {
  const int e = (a.exp < b.exp ? a.exp : b.exp) - 1;
  uint64_t am = a.mant << (a.exp - e - 1), bm = b.mant << (b.exp - e - 1);
  if (a.mant == 0) am = 0;
  return value(0, am + bm, e);
}

static void every_value_and_midpoint(ref_format f, ref_rule rule, st_dtype dtype, int shift) {
  const ref_float t = ref_float_of(dtype);
  ref_value vals[128], inputs[1024];
  const int nv = element_values(f, vals);
  int ni = 0;
  for (int i = 0; i < nv; ++i) {
    inputs[ni++] = vals[i];
    if (i + 1 < nv) inputs[ni++] = midpoint(vals[i], vals[i + 1]);
  }
  const ref_value mx = element_max(f);
  if (rule == REF_FLOOR && f != REF_NVFP4) {
    /* Beyond the largest and below 2^(emax + 1), where FLOOR's X stays
     * and the element saturates: the tie above the largest (464 for
     * E4M3), and 255/256 of 2^(emax + 1). */
    inputs[ni++] = value(0, 2 * mx.mant + 1, mx.exp - 1);
    inputs[ni++] = value(0, 255, ref_emax(f) + 1 - 8);
  }
  /* The first element is the largest: X (NVFP4's s, with g = 1) is 2^shift. */
  int exact;
  const uint64_t first = bits_of(t, value(0, mx.mant, mx.exp + shift), &exact);
  if (!exact) return;
  /* Every input of either sign, and for those off the element grid (the
   * midpoints) one source ulp on either side too. */
  uint64_t* items = malloc(sizeof(uint64_t) * 6 * (size_t)ni);
  assert_non_null(items);
  int nitems = 0;
  for (int sign = 0; sign < 2; ++sign) {
    for (int i = 0; i < ni; ++i) {
      const uint64_t bits = bits_of(t, value(sign, inputs[i].mant, inputs[i].exp + shift), &exact);
      if (!exact) continue;
      items[nitems++] = bits;
      if (i % 2 && inputs[i].mant) {
        items[nitems++] = bits + 1;
        items[nitems++] = bits - 1;
      }
    }
  }
  const int n = ref_block_size(f);
  block_rows r;
  rows_init(&r, n);
  for (int k = 0; k < nitems; k += n - 1) {
    uint64_t* row = rows_add(&r);
    row[0] = first;
    for (int j = 1; j < n; ++j) row[j] = k + j - 1 < nitems ? items[k + j - 1] : 0;
  }
  char what[128];
  snprintf(what, sizeof what, "every value and midpoint, %s %s %s, X 2^%d", format_name(f), rule_name(rule),
           st_dtype_name(dtype), shift);
  quantize_rows_and_release(f, rule, f == REF_NVFP4 ? 0x3F800000u : 0, dtype, &r, what);
  rows_free(&r);
  free(items);
}

static void every_representable_value_and_midpoint(void** state) {
  (void)state;
  static const int shifts[] = {0, 1, -7, 9, -30, 60, -120, 100};
  for (int f = 0; f < REF_NUM_FORMATS; ++f) {
    for (int rule = 0; rule < 2; ++rule) {
      for (int d = 0; d < 4; ++d) {
        for (size_t s = 0; s < sizeof shifts / sizeof shifts[0]; ++s) {
          /* NVFP4's s is an E4M3 value: shifts it can hold */
          if (f == REF_NVFP4 && (rule == REF_RCEIL || shifts[s] < -9 || shifts[s] > 8)) continue;
          every_value_and_midpoint(kAllFormats[f], (ref_rule)rule, kFloatDtypes[d], shifts[s]);
        }
      }
    }
  }
}

/* ---- amax 2^k and 2^k - 1 ulp ------------------------------------------------------- */

static int source_exponent_range(ref_float t, int* lo, int* hi) {
  switch (t) {
    case REF_FLOAT16: *lo = -24, *hi = 15; break;
    case REF_BFLOAT16: *lo = -133, *hi = 127; break;
    case REF_FLOAT64: *lo = -1074, *hi = 1023; break;
    default: *lo = -149, *hi = 127; break;
  }
  return *hi - *lo + 1;
}

/* Blocks whose amax is 2^k, and the float just below it, for every k the
 * source holds, the other elements below: a float log2 rounds 2^k - 1 ulp
 * up to k (API.md "MX scale"), the scale must not. The FLOOR scale of
 * 2^k - 1 ulp is checked here by itself too: floor(log2) is k - 1. */
static void amax_at_a_power_of_two_and_one_ulp_below(void** state) {
  (void)state;
  for (int f = 0; f < REF_NUM_FORMATS; ++f) {
    const ref_format format = kAllFormats[f];
    for (int rule = 0; rule < 2; ++rule) {
      if (format == REF_NVFP4 && rule == REF_RCEIL) continue;
      for (int d = 0; d < 4; ++d) {
        const ref_float t = ref_float_of(kFloatDtypes[d]);
        int lo, hi;
        source_exponent_range(t, &lo, &hi);
        const int n = ref_block_size(format);
        const uint64_t sign = 1ull << (ref_bits(t) - 1);
        block_rows r;
        rows_init(&r, n);
        for (int k = lo + 1; k <= hi; ++k) {
          int exact;
          const uint64_t pow2 = bits_of(t, value(0, 1, k), &exact);
          for (int below = 0; below < 2; ++below) {
            uint64_t* row = rows_add(&r);
            row[0] = below ? pow2 - 1 : pow2;
            /* smaller bit patterns are smaller magnitudes; some negative */
            for (int i = 1; i < n; ++i) row[i] = row[0] / (uint64_t)(i + 1) * (uint64_t)i | (i % 3 ? 0 : sign);
          }
        }
        char what[128];
        snprintf(what, sizeof what, "amax 2^k and 2^k - 1 ulp, %s %s %s", format_name(format),
                 rule_name((ref_rule)rule), st_dtype_name(kFloatDtypes[d]));
        block_operands o;
        quantize_rows(&o, format, (ref_rule)rule, 0x3F800000u, kFloatDtypes[d], &r, what);
        if (format != REF_NVFP4 && rule == REF_FLOOR) {
          for (int b = 1; b < r.count; b += 2) { /* the rows just below 2^k */
            const ref_value amax = ref_decode(t, r.x[b][0]);
            int k = ref_floor_log2(amax) - ref_emax(format);
            const uint8_t want = k > 127 ? 0xFF : (uint8_t)((k < -127 ? -127 : k) + 127);
            uint8_t codes[32], scale;
            row_output(&o, b, n, codes, &scale);
            if (scale != want) {
              print_error("%s: amax 0x%llX (floor(log2) %d): scale %02X, expected %02X\n", what,
                          (unsigned long long)r.x[b][0], ref_floor_log2(amax), scale, want);
              fail();
            }
          }
        }
        block_operands_destroy(&o);
        rows_free(&r);
      }
    }
  }
}

/* ---- Subnormals, zeros, NaN and infinity ---------------------------------------- */

static void subnormal_inputs(void** state) {
  (void)state;
  uint64_t rng = test_seed("subnormal_inputs", 20260301ull);
  for (int f = 0; f < REF_NUM_FORMATS; ++f) {
    for (int rule = 0; rule < 2; ++rule) {
      for (int d = 0; d < 4; ++d) {
        const ref_float t = ref_float_of(kFloatDtypes[d]);
        const int mbits = t == REF_FLOAT64 ? 52 : t == REF_FLOAT32 ? 23 : t == REF_FLOAT16 ? 10 : 7;
        const int n = ref_block_size(kAllFormats[f]);
        block_rows r;
        rows_init(&r, n);
        for (int b = 0; b < 48; ++b) {
          uint64_t* row = rows_add(&r);
          for (int i = 0; i < n; ++i) {
            /* field 0, a random mantissa (some rows with one normal among them) */
            row[i] = (rng_next(&rng) & ((1ull << mbits) - 1)) >> rng_below(&rng, mbits);
            if (rng_next(&rng) & 1) row[i] |= 1ull << (ref_bits(t) - 1);
          }
          if (b % 4 == 3) row[rng_below(&rng, n)] = 1ull << mbits; /* the smallest normal */
        }
        char what[128];
        snprintf(what, sizeof what, "subnormal inputs, %s %s %s", format_name(kAllFormats[f]),
                 rule_name((ref_rule)rule), st_dtype_name(kFloatDtypes[d]));
        quantize_rows_and_release(kAllFormats[f], (ref_rule)rule, 0, kFloatDtypes[d], &r, what);
        rows_free(&r);
      }
    }
  }
}

/* All-zero blocks: scale 0x00 (MX: 2^-127, NVFP4: s = 0), every element
 * a zero of its sign (MXINT8's has none). */
static void all_zero_blocks(void** state) {
  (void)state;
  for (int f = 0; f < REF_NUM_FORMATS; ++f) {
    const ref_format format = kAllFormats[f];
    for (int d = 0; d < 4; ++d) {
      const ref_float t = ref_float_of(kFloatDtypes[d]);
      const int n = ref_block_size(format);
      block_rows r;
      rows_init(&r, n);
      for (int b = 0; b < 4; ++b) {
        uint64_t* row = rows_add(&r);
        for (int i = 0; i < n; ++i) row[i] = ((i + b) % (b + 1) == 0) ? 1ull << (ref_bits(t) - 1) : 0;
      }
      char what[128];
      snprintf(what, sizeof what, "all-zero blocks, %s %s", format_name(format), st_dtype_name(kFloatDtypes[d]));
      block_operands o;
      quantize_rows(&o, format, REF_FLOOR, 0, kFloatDtypes[d], &r, what);
      const uint8_t sign_code = format == REF_MXINT8 ? 0 : (uint8_t)(1u << (ref_bits((ref_float)ref_element_float(format)) - 1));
      for (int b = 0; b < r.count; ++b) {
        uint8_t codes[32], scale;
        row_output(&o, b, n, codes, &scale);
        assert_int_equal(scale, 0x00);
        for (int i = 0; i < n; ++i) assert_int_equal(codes[i], (r.x[b][i] ? sign_code : 0));
      }
      block_operands_destroy(&o);
      rows_free(&r);
    }
  }
}

/* A NaN or an infinity at every position of a block, full or partial (the
 * rows are n long, n below the block size too). MX: scale 0xFF and every
 * element the poisoned code; NVFP4: NaN gives 0x7F and 0x7 everywhere,
 * ±inf (no NaN) 448 and ±6 for the infinities. */
static void nan_and_infinity_in_a_block(void** state) {
  (void)state;
  uint64_t rng = test_seed("nan_and_infinity_in_a_block", 20260302ull);
  for (int f = 0; f < REF_NUM_FORMATS; ++f) {
    const ref_format format = kAllFormats[f];
    for (int d = 0; d < 4; ++d) {
      const ref_float t = ref_float_of(kFloatDtypes[d]);
      for (int partial = 0; partial < 2; ++partial) {
        const int n = partial ? (is_fp4(format) ? 10 : 7) : ref_block_size(format);
        for (int special = 0; special < 3; ++special) { /* NaN, +inf, -inf */
          block_rows r;
          rows_init(&r, n);
          for (int at = 0; at < n; ++at) {
            uint64_t* row = rows_add(&r);
            for (int i = 0; i < n; ++i) {
              const ref_value v = value((int)(rng_next(&rng) & 1), 1 + rng_below(&rng, 1000), (int)rng_below(&rng, 14) - 10);
              int exact;
              row[i] = bits_of(t, v, &exact);
            }
            const ref_value s = {special ? REF_INF : REF_NAN, special == 2, 0, 0};
            row[at] = ref_encode(t, s);
          }
          char what[160];
          snprintf(what, sizeof what, "%s in a %s block, %s %s", special ? (special == 1 ? "+inf" : "-inf") : "NaN",
                   partial ? "partial" : "full", format_name(format), st_dtype_name(kFloatDtypes[d]));
          block_operands o;
          quantize_rows(&o, format, (ref_rule)(d % 2), 0x3F800000u, kFloatDtypes[d], &r, what);
          for (int b = 0; b < r.count; ++b) {
            uint8_t codes[32], scale;
            row_output(&o, b, n, codes, &scale);
            if (format != REF_NVFP4 || special == 0) {
              assert_int_equal(scale, format == REF_NVFP4 ? 0x7F : 0xFF);
              for (int i = 0; i < n; ++i) assert_int_equal(codes[i], ref_poison_code(format));
            } else {
              assert_int_equal(scale, 0x7E);
              assert_int_equal(codes[b], special == 1 ? 0x7 : 0xF);
            }
          }
          block_operands_destroy(&o);
          rows_free(&r);
        }
      }
    }
  }
}

/* ---- NVFP4's scale ------------------------------------------------------------- */

/* s = amax / (6 g) on E4M3: 2^-9 is the smallest, half of it a tie that
 * rounds to 0 (even), and then every element is ±0; 448 the largest, and
 * beyond it 448 (elements saturate to ±6). */
static void nvfp4_scale_underflows_to_zero_and_overflows_to_448(void** state) {
  (void)state;
  /* amax = mant * 2^exp with g = 1, and the E4M3 code of s = amax / 6 */
  static const struct {
    uint64_t mant;
    int exp;
    uint8_t scale;
  } cases[] = {
      {3, -10, 0x00},                   /* s 2^-11: a quarter of E4M3's smallest, 2^-9 */
      {3, -9, 0x00},                    /* s 2^-10: the tie between 0 and 2^-9, to 0 (even) */
      {(3ull << 20) + 3, -29, 0x01},    /* s 2^-10 (1 + 2^-20): above the tie, 2^-9 */
      {3, -8, 0x01},                    /* s 2^-9 */
      {3, -7, 0x02},                    /* s 2^-8, a subnormal */
      {21, 6, 0x76},                    /* amax 1344: s 224 */
      {21, 7, 0x7E},                    /* amax 2688: s 448, the largest */
      {87, 5, 0x7E},                    /* amax 2784: s 464, the tie between 448 and 480, to 448 */
      {45, 6, 0x7E},                    /* amax 2880: s 480, beyond 448: 448 */
      {3, 101, 0x7E},                   /* far beyond */
  };
  for (int d = 0; d < 4; ++d) {
    const ref_float t = ref_float_of(kFloatDtypes[d]);
    block_rows r;
    rows_init(&r, 16);
    int kept[16], nk = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
      int exact;
      const uint64_t amax = bits_of(t, value(0, cases[c].mant, cases[c].exp), &exact);
      if (!exact) continue;
      uint64_t* row = rows_add(&r);
      for (int i = 0; i < 16; ++i) row[i] = bits_of(t, value(i % 2, cases[c].mant, cases[c].exp - i % 5), &exact);
      row[0] = amax;
      kept[nk++] = (int)c;
    }
    char what[128];
    snprintf(what, sizeof what, "NVFP4 scale underflow and overflow, %s", st_dtype_name(kFloatDtypes[d]));
    block_operands o;
    quantize_rows(&o, REF_NVFP4, REF_FLOOR, 0, kFloatDtypes[d], &r, what);
    for (int b = 0; b < nk; ++b) {
      uint8_t codes[32], scale;
      row_output(&o, b, 16, codes, &scale);
      if (scale != cases[kept[b]].scale) {
        print_error("%s: amax 0x%llX: scale %02X, expected %02X\n", what, (unsigned long long)r.x[b][0], scale,
                    cases[kept[b]].scale);
        fail();
      }
      if (scale == 0x00) { /* every element a zero of its sign */
        for (int i = 0; i < 16; ++i) assert_int_equal(codes[i], (i % 2 ? 0x8 : 0x0));
      }
    }
    block_operands_destroy(&o);
    rows_free(&r);
  }
}

/* NVFP4's g over random blocks, both ways: 0 (meaning 1), 1, subnormal,
 * large, and ones whose s * g is not a short binary number. */
static void nvfp4_global_scales_of(const uint32_t* gs, size_t count, const char* name, uint64_t fixed_seed) {
  uint64_t rng = test_seed(name, fixed_seed);
  for (size_t k = 0; k < count; ++k) {
    for (int d = 0; d < 4; ++d) {
      const int64_t sizes[2] = {24, 48};
      block_operands o;
      block_operands_create(&o, REF_NVFP4, REF_FLOOR, gs[k], kFloatDtypes[d], 2, sizes, 1, RANDOM_LAYOUT, &rng);
      fill_random_floats(&o, &rng, 1, 0);
      char what[128];
      snprintf(what, sizeof what, "NVFP4 g 0x%08X, %s", (unsigned)gs[k], st_dtype_name(kFloatDtypes[d]));
      check_quantize(&o, 1, what);
      check_dequantize(&o, -1, what);
      block_operands_destroy(&o);
    }
  }
}

static void nvfp4_global_scales(void** state) {
  (void)state;
  static const uint32_t gs[] = {0x00000000, 0x3F800000, 0x00000001, 0x00400000, 0x3B000000,
                                0x3EAAAAAB, 0x7F7FFFFF, 0x5F000000, 0x3DCCCCCD};
  nvfp4_global_scales_of(gs, sizeof gs / sizeof gs[0], "nvfp4_global_scales", 20260303ull);
}

/* -0.0 is "finite, >= 0" (IEEE: -0 >= 0), so API.md's "0 meaning 1"
 * takes it as 1, as the reference does. */
static void nvfp4_global_scale_minus_zero_means_one(void** state) {
  (void)state;
  static const uint32_t gs[] = {0x80000000};
  nvfp4_global_scales_of(gs, 1, "nvfp4_global_scale_minus_zero_means_one", 20260307ull);
}

/* ---- FLOOR saturates, RCEIL does not ------------------------------------------------ */

/* Blocks whose amax lies above the element maximum's binade mantissa
 * (448 < amax / X < 512 for E4M3): FLOOR's X leaves amax / X beyond the
 * largest element, which saturates to it; RCEIL's X never does: amax <=
 * max * X, checked here from the scale the library wrote. */
static void floor_saturates_at_the_block_max_and_rceil_never_does(void** state) {
  (void)state;
  uint64_t rng = test_seed("floor_saturates_at_the_block_max_and_rceil_never_does", 20260304ull);
  for (int f = 0; f < REF_NUM_FORMATS; ++f) {
    const ref_format format = kAllFormats[f];
    if (format == REF_NVFP4) continue;
    const ref_value mx = element_max(format);
    const int emax = ref_emax(format);
    for (int rule = 0; rule < 2; ++rule) {
      for (int d = 0; d < 4; ++d) {
        const ref_float t = ref_float_of(kFloatDtypes[d]);
        const int n = ref_block_size(format);
        block_rows r;
        rows_init(&r, n);
        for (int b = 0; b < 64; ++b) {
          /* amax / 2^shift strictly between max and 2^(emax + 1) */
          const int shift = (int)rng_below(&rng, 20) - 10;
          const uint64_t lo = mx.mant << (52 - (ref_floor_log2(mx) - mx.exp)), hi = 1ull << 53;
          const uint64_t m = lo + 1 + (rng_next(&rng) % (hi - lo - 1));
          int exact;
          uint64_t* row = rows_add(&r);
          row[0] = bits_of(t, value(b % 2, m, emax + 1 - 53 + shift), &exact);
          for (int i = 1; i < n; ++i) row[i] = bits_of(t, value(i % 2, m >> (i % 7), emax + 1 - 53 + shift), &exact);
        }
        char what[128];
        snprintf(what, sizeof what, "amax beyond the element max, %s %s %s", format_name(format),
                 rule_name((ref_rule)rule), st_dtype_name(kFloatDtypes[d]));
        block_operands o;
        quantize_rows(&o, format, (ref_rule)rule, 0, kFloatDtypes[d], &r, what);
        for (int b = 0; b < r.count; ++b) {
          uint8_t codes[32], scale;
          row_output(&o, b, n, codes, &scale);
          const ref_value amax = ref_decode(t, r.x[b][0]);
          if (amax.mant == 0 || scale == 0xFF || scale == 0x00) continue; /* the source rounded it away */
          const ref_value limit = value(0, mx.mant, mx.exp + (int)scale - 127);
          if (rule == REF_FLOOR && ref_compare_magnitude(amax, limit) > 0) {
            assert_int_equal(codes[0], saturated_code(format, amax.negative)); /* saturated, sign kept */
          }
          if (rule == REF_RCEIL && ref_compare_magnitude(amax, limit) > 0) {
            print_error("%s: RCEIL scale %02X leaves amax 0x%llX beyond the largest element\n", what, scale,
                        (unsigned long long)r.x[b][0]);
            fail();
          }
        }
        block_operands_destroy(&o);
        rows_free(&r);
      }
    }
  }
}

/* ---- Round trips -------------------------------------------------------------- */

/* FLOOR: quantize, dequantize to the source's dtype, quantize again: the
 * same values and scales bit for bit (API.md "Dequantize"), for float32
 * and float64 sources, which hold every dequantized value of their
 * blocks. */
static void floor_round_trips_bit_for_bit(void** state) {
  (void)state;
  uint64_t rng = test_seed("floor_round_trips_bit_for_bit", 20260305ull);
  static const st_dtype dtypes[2] = {ST_FLOAT32, ST_FLOAT64};
  for (int f = 0; f < REF_NUM_FORMATS; ++f) {
    const ref_format format = kAllFormats[f];
    if (format == REF_NVFP4) continue;
    for (int d = 0; d < 2; ++d) {
      const int64_t sizes[2] = {33, 96};
      block_operands o;
      block_operands_create(&o, format, REF_FLOOR, 0, dtypes[d], 2, sizes, 1, RANDOM_LAYOUT, &rng);
      fill_random_floats(&o, &rng, 1, 0);
      char what[128];
      snprintf(what, sizeof what, "FLOOR round trip, %s %s", format_name(format), st_dtype_name(dtypes[d]));
      check_quantize(&o, 1, what);
      const size_t vbytes = (size_t)o.vb.numel * o.vb.itemsize, sbytes = (size_t)o.sb.numel;
      unsigned char* first_values = malloc(vbytes);
      unsigned char* first_scales = malloc(sbytes);
      assert_non_null(first_values);
      assert_non_null(first_scales);
      memcpy(first_values, o.vb.bytes, vbytes);
      memcpy(first_scales, o.sb.bytes, sbytes);
      check_dequantize(&o, 1, what); /* src now holds the dequantized values */
      check_quantize(&o, -1, what);
      expect_same_bytes(o.vb.bytes, first_values, vbytes, 1, what);
      expect_same_bytes(o.sb.bytes, first_scales, sbytes, 1, what);
      free(first_values);
      free(first_scales);
      block_operands_destroy(&o);
    }
  }
}

/* ---- MXINT8 and FP6 codes ------------------------------------------------------- */

/* MXINT8 codes are -127..127: -2X (just below it, at it) gives -127, never
 * 0x80; 0x80 read back is -2X. */
static void mxint8_never_writes_0x80_and_reads_it_as_minus_two(void** state) {
  (void)state;
  block_rows r;
  rows_init(&r, 4);
  uint64_t* row = rows_add(&r);
  row[0] = f32_bits_of(-1.0f);
  row[1] = f32_bits_of(-1.9999f);
  row[2] = f32_bits_of(-1.99f);
  row[3] = f32_bits_of(1.5f);
  block_operands o;
  quantize_rows(&o, REF_MXINT8, REF_FLOOR, 0, ST_FLOAT32, &r, "MXINT8 near -2X");
  uint8_t codes[4], scale;
  row_output(&o, 0, 4, codes, &scale);
  assert_int_equal(scale, 127);
  assert_int_equal(codes[0], 0xC0);
  assert_int_equal(codes[1], 0x81);
  assert_int_equal(codes[2], 0x81);
  block_operands_destroy(&o);
  rows_free(&r);

  unsigned char values[2] = {0x80, 0x7F}, sc = 128;
  float dst[2] = {0, 0};
  const int64_t two = 2, one = 1;
  st_tensor v = {0}, s = {0}, d = {0};
  EXPECT_OK(st_tensor_from_data(values, &two, NULL, 1, ST_INT8, CPU, NULL, NULL, &v));
  EXPECT_OK(st_tensor_from_data(&sc, &one, NULL, 1, ST_FLOAT8_E8M0FNU, CPU, NULL, NULL, &s));
  EXPECT_OK(st_tensor_from_data(dst, &two, NULL, 1, ST_FLOAT32, CPU, NULL, NULL, &d));
  const st_block_spec spec = block_spec(REF_MXINT8, REF_FLOOR, 0, 0);
  EXPECT_OK(st_dequantize_blocks(d, v, s, &spec));
  assert_true(dst[0] == -4.0f);
  assert_true(dst[1] == 127.0f / 32.0f);
  EXPECT_OK(st_tensor_release(v));
  EXPECT_OK(st_tensor_release(s));
  EXPECT_OK(st_tensor_release(d));
}

/* FP6's two high bits are written 0 (the reference's codes have them 0 and
 * check_quantize compares whole bytes) and ignored when read: codes with
 * every high-bit pattern dequantize as the bare code. */
static void fp6_high_bits_are_ignored_when_read(void** state) {
  (void)state;
  static const ref_format fp6[2] = {REF_MXFP6_E2M3, REF_MXFP6_E3M2};
  for (int f = 0; f < 2; ++f) {
    unsigned char values[256], sc = 125;
    float dst[256];
    for (int c = 0; c < 256; ++c) values[c] = (unsigned char)c;
    const int64_t n = 256, nb = 8;
    st_tensor v = {0}, s = {0}, d = {0};
    unsigned char scales[8];
    memset(scales, sc, sizeof scales);
    EXPECT_OK(st_tensor_from_data(values, &n, NULL, 1, value_dtype(fp6[f]), CPU, NULL, NULL, &v));
    EXPECT_OK(st_tensor_from_data(scales, &nb, NULL, 1, ST_FLOAT8_E8M0FNU, CPU, NULL, NULL, &s));
    EXPECT_OK(st_tensor_from_data(dst, &n, NULL, 1, ST_FLOAT32, CPU, NULL, NULL, &d));
    const st_block_spec spec = block_spec(fp6[f], REF_FLOOR, 0, 0);
    EXPECT_OK(st_dequantize_blocks(d, v, s, &spec));
    for (int c = 64; c < 256; ++c) {
      if (f32_bits_of(dst[c]) != f32_bits_of(dst[c & 0x3F])) {
        print_error("%s: code 0x%02X reads %a, code 0x%02X %a\n", format_name(fp6[f]), c, (double)dst[c], c & 0x3F,
                    (double)dst[c & 0x3F]);
        fail();
      }
    }
    EXPECT_OK(st_tensor_release(v));
    EXPECT_OK(st_tensor_release(s));
    EXPECT_OK(st_tensor_release(d));
  }
}

/* Every NaN dequantizing writes is the positive quiet NaN of the
 * destination's dtype (include/stride.h): E4M3's NaN codes of both signs
 * under a NaN scale and under a finite one, and finite codes under a NaN
 * scale. */
static void dequantized_nans_are_the_positive_quiet_nan(void** state) {
  (void)state;
  static const st_dtype dtypes[3] = {ST_FLOAT32, ST_FLOAT16, ST_BFLOAT16};
  static const uint32_t quiet[3] = {0x7FC00000u, 0x7E00u, 0x7FC0u};
  unsigned char values[64], scales[2] = {0xFF, 127}; /* block 0: NaN scale; block 1: 2^0 */
  for (int i = 0; i < 64; ++i) values[i] = i % 4 == 0 ? 0xFF : i % 4 == 1 ? 0x7F : i % 4 == 2 ? 0xB8 : 0x38;
  for (int k = 0; k < 3; ++k) {
    unsigned char dst[64 * 4];
    memset(dst, 0, sizeof dst);
    const int64_t n = 64, nb = 2;
    st_tensor v = {0}, s = {0}, d = {0};
    EXPECT_OK(st_tensor_from_data(values, &n, NULL, 1, ST_FLOAT8_E4M3FN, CPU, NULL, NULL, &v));
    EXPECT_OK(st_tensor_from_data(scales, &nb, NULL, 1, ST_FLOAT8_E8M0FNU, CPU, NULL, NULL, &s));
    EXPECT_OK(st_tensor_from_data(dst, &n, NULL, 1, dtypes[k], CPU, NULL, NULL, &d));
    const st_block_spec spec = block_spec(REF_MXFP8_E4M3, REF_FLOOR, 0, 0);
    EXPECT_OK(st_dequantize_blocks(d, v, s, &spec));
    const size_t size = k == 0 ? 4 : 2;
    for (int i = 0; i < 64; ++i) {
      uint32_t bits;
      if (size == 4) {
        memcpy(&bits, dst + (size_t)i * 4, 4);
      } else {
        uint16_t half;
        memcpy(&half, dst + (size_t)i * 2, 2);
        bits = half;
      }
      const int nan = i < 32 || i % 4 < 2;
      if (nan && bits != quiet[k]) {
        print_error("%s element %d: 0x%X, not the quiet NaN 0x%X\n", st_dtype_name(dtypes[k]), i, bits, quiet[k]);
        fail();
      }
      if (!nan) assert_int_not_equal(bits, quiet[k]);
    }
    EXPECT_OK(st_tensor_release(v));
    EXPECT_OK(st_tensor_release(s));
    EXPECT_OK(st_tensor_release(d));
  }
}

/* Every code and scale byte dequantized into every dtype: random bytes
 * (NaN scales, E4M3's NaN codes, E5M2's infinities, int8's 0x80, FP6's
 * high bits, NVFP4's negative scales) against the reference. */
static void dequantize_every_code_and_scale(void** state) {
  (void)state;
  uint64_t rng = test_seed("dequantize_every_code_and_scale", 20260306ull);
  for (int f = 0; f < REF_NUM_FORMATS; ++f) {
    for (int d = 0; d < 4; ++d) {
      const int64_t sizes[2] = {256, 64};
      block_operands o;
      const uint32_t g = kAllFormats[f] == REF_NVFP4 ? (uint32_t)(0x30000000u + rng_below(&rng, 0x1E000000)) : 0;
      block_operands_create(&o, kAllFormats[f], REF_FLOOR, g, kFloatDtypes[d], 2, sizes, 1, ROW_MAJOR_LAYOUT, &rng);
      for (int64_t i = 0; i < o.sb.numel; ++i) o.sb.bytes[i] = (unsigned char)i; /* every scale byte */
      char what[128];
      snprintf(what, sizeof what, "every code and scale, %s into %s", format_name(kAllFormats[f]),
               st_dtype_name(kFloatDtypes[d]));
      check_dequantize(&o, 1, what);
      block_operands_destroy(&o);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_representable_value_and_midpoint),
      cmocka_unit_test(amax_at_a_power_of_two_and_one_ulp_below),
      cmocka_unit_test(subnormal_inputs),
      cmocka_unit_test(all_zero_blocks),
      cmocka_unit_test(nan_and_infinity_in_a_block),
      cmocka_unit_test(nvfp4_scale_underflows_to_zero_and_overflows_to_448),
      cmocka_unit_test(nvfp4_global_scales),
      cmocka_unit_test(nvfp4_global_scale_minus_zero_means_one),
      cmocka_unit_test(floor_saturates_at_the_block_max_and_rceil_never_does),
      cmocka_unit_test(floor_round_trips_bit_for_bit),
      cmocka_unit_test(mxint8_never_writes_0x80_and_reads_it_as_minus_two),
      cmocka_unit_test(fp6_high_bits_are_ignored_when_read),
      cmocka_unit_test(dequantized_nans_are_the_positive_quiet_nan),
      cmocka_unit_test(dequantize_every_code_and_scale),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
