/* The block formats' contract in integer arithmetic (block_reference.h).
 * Written from API.md's 0.3 section alone; each rule cites its paragraph. */
#include "block_reference.h"

#include <stdio.h>
#include <stdlib.h>

/* A broken bound is a bug of this file, never of the library under test. */
#define REF_REQUIRE(cond)                                                                       \
  do {                                                                                          \
    if (!(cond)) {                                                                              \
      fprintf(stderr, "block_reference.c:%d: %s does not hold\n", __LINE__, #cond);             \
      abort();                                                                                  \
    }                                                                                           \
  } while (0)

/* ---- Floating point layouts ------------------------------------------------- */

/* What the all-ones exponent field means: IEEE (inf and NaN), FN (only the
 * all-ones code is NaN: E4M3) or nothing special (FP6, FP4). */
enum top_codes { TOP_IEEE, TOP_FN, TOP_NONE };

typedef struct layout {
  int ebits, mbits, bias;
  enum top_codes top;
} layout;

static const layout kLayouts[REF_NUM_FLOATS] = {
    [REF_FLOAT32] = {8, 23, 127, TOP_IEEE}, [REF_FLOAT16] = {5, 10, 15, TOP_IEEE},
    [REF_BFLOAT16] = {8, 7, 127, TOP_IEEE}, [REF_FLOAT64] = {11, 52, 1023, TOP_IEEE},
    [REF_E4M3] = {4, 3, 7, TOP_FN},         [REF_E5M2] = {5, 2, 15, TOP_IEEE},
    [REF_E2M3] = {2, 3, 1, TOP_NONE},       [REF_E3M2] = {3, 2, 3, TOP_NONE},
    [REF_E2M1] = {2, 1, 1, TOP_NONE},
};

static int bit_length(uint64_t x) {
  int n = 0;
  while (x) {
    ++n;
    x >>= 1;
  }
  return n;
}

int ref_bits(ref_float t) { return 1 + kLayouts[t].ebits + kLayouts[t].mbits; }

static int emin_of(const layout* l) { return 1 - l->bias; }

ref_value ref_max(ref_float t) {
  const layout* l = &kLayouts[t];
  const int top_exp = (1 << l->ebits) - 1 - l->bias; /* the all-ones field as a normal exponent */
  ref_value v = {REF_FINITE, 0, 0, 0};
  switch (l->top) {
    case TOP_IEEE: /* the field below all-ones, every mantissa bit set */
      v.mant = (2ull << l->mbits) - 1;
      v.exp = top_exp - 1 - l->mbits;
      break;
    case TOP_FN: /* all-ones field, mantissa all ones but the last (that code is NaN) */
      v.mant = (2ull << l->mbits) - 2;
      v.exp = top_exp - l->mbits;
      break;
    case TOP_NONE:
      v.mant = (2ull << l->mbits) - 1;
      v.exp = top_exp - l->mbits;
      break;
  }
  return v;
}

ref_value ref_decode(ref_float t, uint64_t bits) {
  const layout* l = &kLayouts[t];
  const uint64_t mant_mask = (1ull << l->mbits) - 1, exp_mask = (1ull << l->ebits) - 1;
  const uint64_t m = bits & mant_mask, e = (bits >> l->mbits) & exp_mask;
  ref_value v = {REF_FINITE, (int)((bits >> (l->ebits + l->mbits)) & 1), 0, 0};
  if (e == exp_mask && l->top == TOP_IEEE) {
    v.kind = m ? REF_NAN : REF_INF;
    return v;
  }
  if (e == exp_mask && l->top == TOP_FN && m == mant_mask) {
    v.kind = REF_NAN;
    return v;
  }
  if (e == 0) {
    v.mant = m;
    v.exp = emin_of(l) - l->mbits;
  } else {
    v.mant = m | (1ull << l->mbits);
    v.exp = (int)e - l->bias - l->mbits;
  }
  return v;
}

int ref_is_nan(ref_float t, uint64_t bits) { return ref_decode(t, bits).kind == REF_NAN; }

int ref_floor_log2(ref_value v) {
  REF_REQUIRE(v.kind == REF_FINITE && v.mant != 0);
  return bit_length(v.mant) - 1 + v.exp;
}

/* -1, 0, 1 as a_m * 2^a_e <, =, > b_m * 2^b_e (nonnegative). */
static int compare_dyadic(uint64_t a_m, int a_e, uint64_t b_m, int b_e) {
  if (a_m == 0 || b_m == 0) return (a_m != 0) - (b_m != 0);
  const int la = bit_length(a_m) - 1 + a_e, lb = bit_length(b_m) - 1 + b_e;
  if (la != lb) return la < lb ? -1 : 1;
  /* The same leading bit: shifting the one with the larger exponent left
   * by the difference gives both the same bit length, so nothing overflows. */
  if (a_e > b_e) a_m <<= (a_e - b_e);
  if (b_e > a_e) b_m <<= (b_e - a_e);
  return (a_m > b_m) - (a_m < b_m);
}

int ref_compare_magnitude(ref_value a, ref_value b) {
  REF_REQUIRE(a.kind == REF_FINITE && b.kind == REF_FINITE);
  return compare_dyadic(a.mant, a.exp, b.mant, b.exp);
}

/* num / den * 2^exp (num < 2^62, 0 < den < 2^40) rounded once to nearest
 * even onto the grid of l, without an upper bound: the spacing is
 * 2^(max(floor(log2 x), emin) - mbits). Returns the magnitude as mant * 2^exp. */
static ref_value round_to_grid(const layout* l, uint64_t num, uint64_t den, int exp) {
  ref_value r = {REF_FINITE, 0, 0, 0};
  REF_REQUIRE(num < (1ull << 62) && den > 0 && den < (1ull << 40));
  if (num == 0) return r;
  /* floor(log2(num / den)): l0 or l0 - 1. */
  const int l0 = bit_length(num) - bit_length(den);
  const int at_least = l0 >= 0 ? num >= (den << l0) : (num << -l0) >= den;
  const int lg = (at_least ? l0 : l0 - 1) + exp;
  const int emin = emin_of(l);
  const int qe = (lg > emin ? lg : emin) - l->mbits; /* the grid's spacing is 2^qe */
  r.exp = qe;
  if (lg < qe - 1) return r; /* below half the spacing: rounds to zero */
  const int sh = exp - qe;   /* the quotient in units of the spacing is num * 2^sh / den */
  uint64_t q, rem, div;
  if (sh >= 0) {
    REF_REQUIRE(bit_length(num) + sh <= 63);
    const uint64_t scaled = num << sh;
    q = scaled / den;
    rem = scaled % den;
    div = den;
  } else {
    REF_REQUIRE(bit_length(den) - sh <= 63); /* den * 2^-sh <= 2 num */
    div = den << -sh;
    q = num / div;
    rem = num % div;
  }
  if (2 * rem > div || (2 * rem == div && (q & 1))) ++q;
  r.mant = q;
  return r;
}

/* The code of a magnitude on l's grid no larger than its maximum. */
static uint64_t encode_on_grid(const layout* l, uint64_t mant, int exp) {
  if (mant == 0) return 0;
  const int emin = emin_of(l);
  const int lg = bit_length(mant) - 1 + exp;
  if (lg < emin) { /* subnormal: the field is 0, the mantissa counts 2^(emin - mbits) */
    const int sh = exp - (emin - l->mbits);
    REF_REQUIRE(sh >= 0);
    return mant << sh;
  }
  /* mant * 2^exp = (1.f) * 2^lg: f in units of 2^(lg - mbits). */
  const int sh = exp - (lg - l->mbits);
  const uint64_t m = sh >= 0 ? mant << sh : mant >> -sh;
  REF_REQUIRE(sh >= 0 || (mant & ((1ull << -sh) - 1)) == 0);
  return ((uint64_t)(lg + l->bias) << l->mbits) | (m - (1ull << l->mbits));
}

static uint64_t sign_bit(ref_float t) { return 1ull << (kLayouts[t].ebits + kLayouts[t].mbits); }

static uint64_t nan_bits(ref_float t) {
  const layout* l = &kLayouts[t];
  const uint64_t ones = ((1ull << l->ebits) - 1) << l->mbits;
  switch (l->top) {
    case TOP_IEEE: return ones | (1ull << (l->mbits - 1));
    case TOP_FN: return ones | ((1ull << l->mbits) - 1);
    case TOP_NONE: break;
  }
  return encode_on_grid(l, ref_max(t).mant, ref_max(t).exp); /* +max, as API.md's float6 rule */
}

/* Beyond the largest finite value: ±inf where t has it (unless
 * `saturate`), else ±max. */
static uint64_t overflow_bits(ref_float t, int negative, int saturate) {
  const layout* l = &kLayouts[t];
  const uint64_t sign = negative ? sign_bit(t) : 0;
  if (l->top == TOP_IEEE && !saturate) return sign | (((1ull << l->ebits) - 1) << l->mbits);
  return sign | encode_on_grid(l, ref_max(t).mant, ref_max(t).exp);
}

/* num / den * 2^exp with a sign, rounded once into t; beyond the maximum
 * as overflow_bits says. */
static uint64_t encode_quotient(ref_float t, int negative, uint64_t num, uint64_t den, int exp, int saturate) {
  const layout* l = &kLayouts[t];
  const ref_value r = round_to_grid(l, num, den, exp);
  const ref_value mx = ref_max(t);
  if (compare_dyadic(r.mant, r.exp, mx.mant, mx.exp) > 0) return overflow_bits(t, negative, saturate);
  return (negative ? sign_bit(t) : 0) | encode_on_grid(l, r.mant, r.exp);
}

uint64_t ref_encode(ref_float t, ref_value v) {
  if (v.kind == REF_NAN) return nan_bits(t);
  if (v.kind == REF_INF) return overflow_bits(t, v.negative, 0);
  /* Keep the mantissa under 2^62 (round_to_grid's bound); a 64-bit
   * mantissa loses only bits far below any grid used here. */
  while (v.mant >= (1ull << 62)) {
    REF_REQUIRE((v.mant & 1) == 0);
    v.mant >>= 1;
    ++v.exp;
  }
  return encode_quotient(t, v.negative, v.mant, 1, v.exp, 0);
}

/* ---- Formats --------------------------------------------------------------- */

int ref_block_size(ref_format f) { return f == REF_NVFP4 ? 16 : 32; }

int ref_element_float(ref_format f) {
  switch (f) {
    case REF_MXFP8_E4M3: return REF_E4M3;
    case REF_MXFP8_E5M2: return REF_E5M2;
    case REF_MXFP6_E2M3: return REF_E2M3;
    case REF_MXFP6_E3M2: return REF_E3M2;
    case REF_MXFP4_E2M1:
    case REF_NVFP4: return REF_E2M1;
    default: return -1;
  }
}

/* API.md "MX scale": emax 8 (E4M3), 15 (E5M2), 2 (E2M3), 4 (E3M2), 2 (E2M1), 0 (INT8). */
int ref_emax(ref_format f) {
  static const int emax[REF_NUM_FORMATS] = {8, 15, 2, 4, 2, 0, 2};
  return emax[f];
}

/* API.md "NaN and infinity": 0x7F for E4M3, E5M2 and INT8, 0x1F for FP6, 0x7 for FP4. */
uint8_t ref_poison_code(ref_format f) {
  switch (f) {
    case REF_MXFP6_E2M3:
    case REF_MXFP6_E3M2: return 0x1F;
    case REF_MXFP4_E2M1:
    case REF_NVFP4: return 0x7;
    default: return 0x7F;
  }
}

ref_value ref_element_value(ref_format f, uint8_t code) {
  if (f == REF_MXINT8) { /* two's complement, each code * 2^-6 (0x80 reads as -2) */
    const int c = code < 0x80 ? code : (int)code - 256;
    const ref_value v = {REF_FINITE, c < 0, (uint64_t)(c < 0 ? -c : c), -6};
    return v;
  }
  const ref_float t = (ref_float)ref_element_float(f);
  const uint64_t mask = (1ull << ref_bits(t)) - 1; /* FP6's high bits ignored when read */
  return ref_decode(t, code & mask);
}

/* The largest element magnitude: 448, 57344, 7.5, 28, 6 and 127/64. */
static ref_value element_max(ref_format f) {
  if (f == REF_MXINT8) {
    const ref_value v = {REF_FINITE, 0, 127, -6};
    return v;
  }
  return ref_max((ref_float)ref_element_float(f));
}

/* x (a finite magnitude num / den * 2^exp with a sign) as an element:
 * rounded once to nearest even on the element grid, beyond the largest
 * ±max, -0 kept (API.md "Elements"). */
static uint8_t element_code(ref_format f, int negative, uint64_t num, uint64_t den, int exp) {
  if (f == REF_MXINT8) {
    /* The grid of int8 codes: spacing 2^-6 everywhere, as a layout with
     * 6 mantissa bits whose normal range starts at 1. */
    static const layout kInt8Grid = {1, 6, 1, TOP_NONE};
    const ref_value r = round_to_grid(&kInt8Grid, num, den, exp);
    uint64_t c = 0;
    if (compare_dyadic(r.mant, r.exp, 127, -6) > 0) {
      c = 127;
    } else if (r.mant != 0) {
      REF_REQUIRE(r.exp >= -6);
      c = r.mant << (r.exp + 6);
    }
    return (uint8_t)(negative ? (256 - c) & 0xFF : c); /* -0 has no code: 0 */
  }
  return (uint8_t)encode_quotient((ref_float)ref_element_float(f), negative, num, den, exp, 1);
}

/* ---- MX -------------------------------------------------------------------- */

/* API.md "MX scale": FLOOR takes floor(log2 amax) - emax; RCEIL the
 * smallest k with amax <= max * 2^k. */
int ref_mx_scale_exponent(ref_format f, ref_rule rule, ref_value amax) {
  REF_REQUIRE(f != REF_NVFP4);
  if (rule == REF_FLOOR) return ref_floor_log2(amax) - ref_emax(f);
  const ref_value mx = element_max(f);
  const int k0 = ref_floor_log2(amax) - ref_floor_log2(mx);
  /* amax >= 2^lg(amax) > max * 2^(k0 - 1): k0 - 1 is too small, so k0 or k0 + 1. */
  return compare_dyadic(amax.mant, amax.exp, mx.mant, mx.exp + k0) <= 0 ? k0 : k0 + 1;
}

static void quantize_mx(ref_format f, ref_rule rule, ref_float src, const uint64_t* x, int n, uint8_t* codes,
                        uint8_t* scale) {
  ref_value v[32];
  int poisoned = 0, any_nonzero = 0;
  ref_value amax = {REF_FINITE, 0, 0, 0};
  for (int i = 0; i < n; ++i) {
    v[i] = ref_decode(src, x[i]);
    if (v[i].kind != REF_FINITE) {
      poisoned = 1; /* "a NaN or ±inf anywhere in a block" */
      continue;
    }
    if (v[i].mant != 0 && (!any_nonzero || ref_compare_magnitude(v[i], amax) > 0)) {
      amax = v[i];
      any_nonzero = 1;
    }
  }
  int k = -127; /* "k below -127 becomes -127 (amax 0 gives 0x00)" */
  if (!poisoned && any_nonzero) {
    k = ref_mx_scale_exponent(f, rule, amax);
    if (k < -127) k = -127;
    if (k > 127) poisoned = 1; /* "k above 127 makes the block NaN" */
  }
  if (poisoned) {
    *scale = 0xFF;
    for (int i = 0; i < n; ++i) codes[i] = ref_poison_code(f);
    return;
  }
  *scale = (uint8_t)(k + 127);
  for (int i = 0; i < n; ++i) {
    REF_REQUIRE(v[i].mant < (1ull << 62));
    codes[i] = element_code(f, v[i].negative, v[i].mant, 1, v[i].exp - k); /* x / 2^k */
  }
}

/* ---- NVFP4 ------------------------------------------------------------------- */

/* g from its float32 bits; 0 means 1 (API.md "NVFP4"). */
static ref_value global_scale(uint32_t bits) {
  ref_value g = ref_decode(REF_FLOAT32, bits);
  REF_REQUIRE(g.kind == REF_FINITE && (!g.negative || g.mant == 0));
  if (g.mant == 0) {
    g.mant = 1;
    g.exp = 0;
  }
  g.negative = 0;
  return g;
}

static void quantize_nvfp4(uint32_t global_scale_bits, ref_float src, const uint64_t* x, int n, uint8_t* codes,
                           uint8_t* scale) {
  const ref_value g = global_scale(global_scale_bits);
  ref_value v[16];
  int any_nan = 0, any_inf = 0;
  ref_value amax = {REF_FINITE, 0, 0, 0};
  for (int i = 0; i < n; ++i) {
    v[i] = ref_decode(src, x[i]);
    any_nan |= v[i].kind == REF_NAN;
    any_inf |= v[i].kind == REF_INF;
    if (v[i].kind == REF_FINITE && ref_compare_magnitude(v[i], amax) > 0) amax = v[i];
  }
  if (any_nan) { /* "a NaN gives scale 0x7F (NaN) and elements 0x7" */
    *scale = 0x7F;
    for (int i = 0; i < n; ++i) codes[i] = 0x7;
    return;
  }
  /* s: "amax / (6 g) rounded once to nearest even on float8_e4m3fn, 448
   * beyond", no lower clamp; with ±inf in the block (and no NaN), 448. */
  uint8_t s_code;
  if (any_inf) {
    s_code = 0x7E;
  } else {
    REF_REQUIRE(amax.mant < (1ull << 62) && g.mant < (1ull << 24));
    /* 6g = 3g * 2; E4M3 has no infinity, so beyond 448 is 448 */
    s_code = (uint8_t)encode_quotient(REF_E4M3, 0, amax.mant, 3 * g.mant, amax.exp - 1 - g.exp, 1);
  }
  *scale = s_code;
  const ref_value s = ref_decode(REF_E4M3, s_code);
  for (int i = 0; i < n; ++i) {
    const uint8_t sign = v[i].negative ? 0x8 : 0;
    if (v[i].kind == REF_INF) {
      codes[i] = sign | 0x7; /* ±6 */
    } else if (s.mant == 0) {
      codes[i] = sign; /* "s may be 0, and then every element is ±0, sign kept" */
    } else {
      /* x / (s g): one exact quotient, rounded once on E2M1. */
      codes[i] = element_code(REF_NVFP4, v[i].negative, v[i].mant, s.mant * g.mant, v[i].exp - s.exp - g.exp);
    }
  }
}

void ref_quantize_block(ref_format f, ref_rule rule, uint32_t global_scale_bits, ref_float src, const uint64_t* x,
                        int n, uint8_t* codes, uint8_t* scale) {
  REF_REQUIRE(n >= 1 && n <= ref_block_size(f) && src <= REF_FLOAT64);
  if (f == REF_NVFP4) {
    quantize_nvfp4(global_scale_bits, src, x, n, codes, scale);
  } else {
    quantize_mx(f, rule, src, x, n, codes, scale);
  }
}

/* ---- Dequantize --------------------------------------------------------------- */

/* API.md "Dequantize": element * X (MX) or element * s * g (NVFP4), exact,
 * rounded once to dst (nearest even, overflow ±inf); a NaN scale makes the
 * block NaN; NaN and inf elements stay so; a zero's sign is the element's
 * XOR the scale's. */
void ref_dequantize_block(ref_format f, uint32_t global_scale_bits, ref_float dst, const uint8_t* codes, int n,
                          uint8_t scale, uint64_t* out) {
  REF_REQUIRE(n >= 1 && n <= ref_block_size(f) && dst <= REF_FLOAT64);
  ref_value factor; /* X, or s * g */
  if (f == REF_NVFP4) {
    const ref_value s = ref_decode(REF_E4M3, scale);
    const ref_value g = global_scale(global_scale_bits);
    factor = s;
    if (s.kind == REF_FINITE) {
      factor.mant = s.mant * g.mant;
      factor.exp = s.exp + g.exp;
    }
  } else {
    factor.kind = scale == 0xFF ? REF_NAN : REF_FINITE; /* E8M0: 2^(b - 127), 0xFF NaN */
    factor.negative = 0;
    factor.mant = 1;
    factor.exp = (int)scale - 127;
  }
  for (int i = 0; i < n; ++i) {
    const ref_value e = ref_element_value(f, codes[i]);
    ref_value y = {REF_FINITE, e.negative ^ factor.negative, e.mant * factor.mant, e.exp + factor.exp};
    if (factor.kind == REF_NAN || e.kind == REF_NAN) {
      y.kind = REF_NAN;
    } else if (e.kind == REF_INF) {
      y.kind = REF_INF;
    }
    out[i] = ref_encode(dst, y);
  }
}
