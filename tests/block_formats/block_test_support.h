/* What the tests of st_quantize_blocks and st_dequantize_blocks share: the
 * dtypes and spec of each format, the three operands over padded buffers
 * the test owns (any layout), and the checks of a call against the
 * reference (block_reference.h), block by block, with every byte outside
 * the written elements (and every byte of the read operands) unchanged. */
#ifndef STRIDE_TEST_BLOCK_TEST_SUPPORT_H
#define STRIDE_TEST_BLOCK_TEST_SUPPORT_H

#include "block_reference.h"
#include "copy_support.h"

/* ---- Formats and dtypes ------------------------------------------------------ */

extern const ref_format kAllFormats[REF_NUM_FORMATS];
/* float32, float16, bfloat16, float64: the dtypes of src and dst. */
extern const st_dtype kFloatDtypes[4];

const char* format_name(ref_format f);
st_dtype value_dtype(ref_format f);
st_dtype scale_dtype(ref_format f);
ref_float ref_float_of(st_dtype float_dtype);
st_dtype float_dtype_of(ref_float t);
/* FP4 formats hold two elements a byte. */
int is_fp4(ref_format f);

/* A spec as a caller fills it: zeroed, struct_size set. */
st_block_spec block_spec(ref_format f, ref_rule rule, int32_t dim, uint32_t global_scale_bits);

uint32_t f32_bits_of(float v);
uint64_t f64_bits_of(double v);

/* ---- Operands ---------------------------------------------------------------- */

enum layout_kind { ROW_MAJOR_LAYOUT, RANDOM_LAYOUT };

/* A quantize (src -> values, scales) or dequantize (values, scales -> dst)
 * case: the float operand (src or dst), the values and the scales, each a
 * layout over a buffer of its own (copy_support.h) holding random bytes. */
typedef struct block_operands {
  ref_format format;
  ref_rule rule;
  uint32_t global_scale_bits;
  int32_t dim; /* 0 .. ndim - 1 */
  st_dtype float_dtype;
  layout fl, vl, sl;
  buffer fb, vb, sb;
} block_operands;

/* Operands for a float operand of `sizes` (the values and scales shapes
 * follow from the format), laid out row-major or each at random
 * (random_layout: transposed, sliced, flipped, padded; never expanded). */
void block_operands_create(block_operands* o, ref_format f, ref_rule rule, uint32_t global_scale_bits,
                           st_dtype float_dtype, int32_t ndim, const int64_t* sizes, int32_t dim, enum layout_kind kind,
                           uint64_t* rng);
void block_operands_destroy(block_operands* o);

/* The address of the element at `index` (the operand's own ndim entries). */
unsigned char* element_at(const buffer* b, const layout* l, const int64_t* index);
/* An element's bits, 1, 2, 4 or 8 bytes. */
uint64_t load_bits(const unsigned char* p, size_t itemsize);
void store_bits(unsigned char* p, size_t itemsize, uint64_t bits);

/* The number of blocks in the operands, over all lines. */
int64_t block_count(const block_operands* o);

/* Visits every block: `line` is an index into the float operand whose
 * entry at dim is the block's first element, n the elements it has. */
typedef void (*block_visitor)(block_operands* o, const int64_t* line, int n, void* ctx);
void for_each_block(block_operands* o, block_visitor visit, void* ctx);

/* Fills the float operand's elements with random values: per line a
 * magnitude, elements up to 12 binades below it, some zeros of either sign,
 * subnormals, and (with `specials`) a NaN or an infinity now and then.
 * `wide` lets the magnitudes reach the float64 range. */
void fill_random_floats(block_operands* o, uint64_t* rng, int specials, int wide);

/* ---- Checks ------------------------------------------------------------------- */

/* st_quantize_blocks(values, scales, src, spec with spec_dim) returns OK,
 * every block's codes and scale are the reference's, no other byte of any
 * buffer changed. Prints the first few differing blocks (inputs, expected,
 * got) with `what`. */
void check_quantize(block_operands* o, int32_t spec_dim, const char* what);

/* st_dequantize_blocks(dst, values, scales, spec) returns OK, every dst
 * element is the reference's (an expected NaN matches any NaN), no other
 * byte changed. */
void check_dequantize(block_operands* o, int32_t spec_dim, const char* what);

/* The reference's codes and scale of the block at `line`, and its inputs. */
void reference_block(const block_operands* o, const int64_t* line, int n, uint64_t* x, uint8_t* codes,
                     uint8_t* scale);
/* The library's codes and scale of that block, as it wrote them. */
void written_block(const block_operands* o, const int64_t* line, int n, uint8_t* codes, uint8_t* scale);

#endif
