/* The contract of st_quantize_blocks and st_dequantize_blocks (API.md,
 * "Version 0.3 additions: block-scaled formats") for one block, in integer
 * arithmetic: every value is sign * mantissa * 2^exponent (a quotient of two
 * integers for NVFP4's divisions), compared and rounded exactly. No floating
 * point operation, no log2, nothing from src/: the tests check the library
 * against this and this against published vectors (published_vectors.h).
 *
 * Element codes travel unpacked, one byte per element: E4M3, E5M2 and int8
 * as their byte, FP6 in the low 6 bits, FP4 in the low 4 bits. Floating
 * point numbers of the sources and destinations travel as their bits. */
#ifndef STRIDE_TEST_BLOCK_REFERENCE_H
#define STRIDE_TEST_BLOCK_REFERENCE_H

#include <stdint.h>

/* Numbered as st_block_format and st_scale_rule. */
typedef enum ref_format {
  REF_MXFP8_E4M3 = 0,
  REF_MXFP8_E5M2 = 1,
  REF_MXFP6_E2M3 = 2,
  REF_MXFP6_E3M2 = 3,
  REF_MXFP4_E2M1 = 4,
  REF_MXINT8 = 5,
  REF_NVFP4 = 6,
  REF_NUM_FORMATS = 7
} ref_format;

typedef enum ref_rule { REF_FLOOR = 0, REF_RCEIL = 1 } ref_rule;

/* Floating point types by their bit layout: the four that sources and
 * destinations may have, then the element types (E4M3 is NVFP4's scale too). */
typedef enum ref_float {
  REF_FLOAT32,
  REF_FLOAT16,
  REF_BFLOAT16,
  REF_FLOAT64,
  REF_E4M3,
  REF_E5M2,
  REF_E2M3,
  REF_E3M2,
  REF_E2M1,
  REF_NUM_FLOATS
} ref_float;

typedef enum ref_kind { REF_FINITE, REF_INF, REF_NAN } ref_kind;

/* An exact number: (-1)^negative * mant * 2^exp when finite (mant 0: a zero
 * of that sign). */
typedef struct ref_value {
  ref_kind kind;
  int negative;
  uint64_t mant;
  int exp;
} ref_value;

/* ---- Numbers --------------------------------------------------------------- */

ref_value ref_decode(ref_float t, uint64_t bits);
/* The bits of the finite `v` rounded once to nearest even onto t's grid
 * (subnormals included, sign kept); a magnitude that rounds beyond the
 * largest finite value gives ±inf for the IEEE types (float16, bfloat16,
 * float32, float64, E5M2) and ±max for the others. NaN and ±inf: the type's
 * NaN (positive, quiet) and infinity, or +max / ±max where it has none. */
uint64_t ref_encode(ref_float t, ref_value v);
/* The largest finite value of t. */
ref_value ref_max(ref_float t);
/* -1, 0 or 1 as |a| <, =, > |b| (finite a and b). */
int ref_compare_magnitude(ref_value a, ref_value b);
/* Whether the bits are a NaN of t. */
int ref_is_nan(ref_float t, uint64_t bits);
/* Bits per value of t (32, 16, 16, 64, 8, 8, 6, 6, 4). */
int ref_bits(ref_float t);
/* floor(log2 |v|), for a finite nonzero v. */
int ref_floor_log2(ref_value v);

/* ---- Formats --------------------------------------------------------------- */

/* 32, or 16 for NVFP4. */
int ref_block_size(ref_format f);
/* The element type: ref_float of the elements, or -1 for MXINT8. */
int ref_element_float(ref_format f);
/* emax of the element type (OCP MX section 5): 8, 15, 2, 4, 2, 0; NVFP4: 2. */
int ref_emax(ref_format f);
/* The element code with every bit but the sign set: a poisoned MX block's
 * elements, NVFP4's NaN block's elements. */
uint8_t ref_poison_code(ref_format f);
/* The exact value of an element code (FP6's two high bits ignored; int8
 * code * 2^-6). */
ref_value ref_element_value(ref_format f, uint8_t code);

/* ---- The two calls for one block ----------------------------------------- */

/* Quantizes the n (1..ref_block_size) elements x (bits of type src) of one
 * block: codes[0..n) and *scale (E8M0 for MX, E4M3 for NVFP4). rule is
 * ignored for NVFP4; global_scale_bits is NVFP4's float32 g (0 meaning 1),
 * finite and not negative, ignored for MX. */
void ref_quantize_block(ref_format f, ref_rule rule, uint32_t global_scale_bits, ref_float src, const uint64_t* x,
                        int n, uint8_t* codes, uint8_t* scale);

/* Dequantizes n codes of one block with its scale into bits of type dst. */
void ref_dequantize_block(ref_format f, uint32_t global_scale_bits, ref_float dst, const uint8_t* codes, int n,
                          uint8_t scale, uint64_t* out);

/* The block's exponent k (scale 2^k) that rule chooses for amax before
 * clamping (k below -127 and above 127 are returned as they are); amax
 * finite and nonzero. For tests of the rules themselves. */
int ref_mx_scale_exponent(ref_format f, ref_rule rule, ref_value amax);

#endif
