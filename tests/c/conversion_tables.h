/* Conversion tables for every pair of the 21 dtypes: for each source dtype,
 * special values (ties, overflow, subnormals, NaN, integer limits) and, for
 * each, the element it must become in every dtype (include/stride.h,
 * conversion rules), written out by hand in conversion_tables.c. Used by the
 * tests that convert them through the operators: by dtype pair
 * (test_copy_dtypes.c) and under changed floating-point environments
 * (test_fp_environment*.c). */
#ifndef STRIDE_TEST_CONVERSION_TABLES_H
#define STRIDE_TEST_CONVERSION_TABLES_H

#include "copy_support.h"

/* The values of one source dtype: `rows` elements of `dtype` at `src`, and
 * for each what it reads as in every dtype (expect_element). */
typedef struct conversion_table {
  st_dtype dtype;
  const void* src;
  int32_t rows;
  const every_dtype* want;
} conversion_table;

/* Indexed by source st_dtype. */
extern const conversion_table conversion_tables[NUM_DTYPES];

#endif
