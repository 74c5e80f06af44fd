/* Published test vectors of the block formats, transcribed as values from
 * their sources (each names the repository and path it comes from), and
 * mapped onto the two calls of API.md. Where a source's answer differs from
 * API.md, the vector holds API.md's answer and its comment says what the
 * source gives. published_vectors.c lists them and says how each source's
 * cases become blocks. */
#ifndef STRIDE_TEST_PUBLISHED_VECTORS_H
#define STRIDE_TEST_PUBLISHED_VECTORS_H

#include <stdint.h>

#include "block_reference.h"

/* One block to quantize and what it must give. */
typedef struct published_quantize {
  const char* source;         /* repository, path, test and case */
  ref_format format;
  ref_rule rule;
  uint32_t global_scale_bits; /* NVFP4's g as float32 bits */
  ref_float src_type;
  int n;                      /* elements; even for the FP4 formats */
  uint64_t x[32];             /* bits of src_type */
  uint8_t scale;
  uint8_t codes[32];          /* unpacked, as block_reference.h */
} published_quantize;

/* One block to dequantize and what it must give. */
typedef struct published_dequantize {
  const char* source;
  ref_format format;
  uint32_t global_scale_bits;
  ref_float dst_type;
  int n;
  uint8_t codes[32];
  uint8_t scale;
  uint64_t y[32]; /* bits of dst_type; an expected NaN matches any NaN */
} published_dequantize;

int published_quantize_count(void);
const published_quantize* published_quantize_vector(int i);
int published_dequantize_count(void);
const published_dequantize* published_dequantize_vector(int i);

/* One line per source: its repository and path, and how many published
 * values (scales and elements given by the source) the blocks above hold. */
void published_print_sources(void);

#endif
