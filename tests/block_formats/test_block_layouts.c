/* st_quantize_blocks and st_dequantize_blocks over strided layouts, against
 * the reference block by block: random layouts of all three operands for
 * every format, source dtype and rule (print the seed); blocks along the
 * last, an outer and a negative dim; transposed and flipped views; partial
 * final blocks; empty tensors; the cuBLAS "128x4" swizzled scale layout
 * reached through a view, as API.md describes; a tensor large enough to
 * be split between threads. */
#include <stdlib.h>

#include "block_test_support.h"

static uint32_t random_global_scale(uint64_t* rng) {
  switch (rng_below(rng, 4)) {
    case 0: return 0; /* 1 */
    case 1: return 0x3F800000;
    default: return (uint32_t)(0x20000000u + rng_below(rng, 0x3F000000)); /* 2^-63 .. 2^63 */
  }
}

/* Random shapes (1 to 4 dims, the block dim 0 to 80 long, even for FP4),
 * random dims spelled either way, random layouts for all three operands,
 * random values with NaN and infinities; then the values and scales the
 * call wrote dequantized into a random dst layout, and random bytes too. */
static void random_blocks_over_random_layouts(void** state) {
  (void)state;
  const uint64_t seed = test_seed("random_blocks_over_random_layouts", 20260310ull);
  for (int i = 0; i < 400; ++i) {
    uint64_t rng = seed ^ ((uint64_t)i * 0x9E3779B97F4A7C15ull);
    const ref_format f = kAllFormats[rng_below(&rng, REF_NUM_FORMATS)];
    const ref_rule rule = (ref_rule)rng_below(&rng, 2);
    const st_dtype dtype = kFloatDtypes[rng_below(&rng, 4)];
    const int32_t ndim = 1 + (int32_t)rng_below(&rng, 4);
    const int32_t dim = (int32_t)rng_below(&rng, ndim);
    int64_t sizes[4];
    for (int32_t d = 0; d < ndim; ++d) sizes[d] = 1 + rng_below(&rng, 4);
    sizes[dim] = rng_below(&rng, 8) == 0 ? 1 + rng_below(&rng, 8) : 1 + rng_below(&rng, 80);
    if (is_fp4(f)) sizes[dim] += sizes[dim] % 2;
    if (rng_below(&rng, 40) == 0) sizes[rng_below(&rng, ndim)] = 0; /* empty */
    const int32_t spec_dim = rng_below(&rng, 2) ? dim : dim - ndim;
    const uint32_t g = f == REF_NVFP4 ? random_global_scale(&rng) : 0;
    char what[96];
    snprintf(what, sizeof what, "seed %llu case %d", (unsigned long long)seed, i);
    block_operands o;
    block_operands_create(&o, f, rule, g, dtype, ndim, sizes, dim, RANDOM_LAYOUT, &rng);
    fill_random_floats(&o, &rng, 1, dtype == ST_FLOAT64 && rng_below(&rng, 2));
    check_quantize(&o, spec_dim, what);
    check_dequantize(&o, spec_dim, what);
    for (int64_t k = 0; k < o.vb.numel; ++k) o.vb.bytes[k] = (unsigned char)rng_next(&rng);
    for (int64_t k = 0; k < o.sb.numel; ++k) o.sb.bytes[k] = (unsigned char)rng_next(&rng);
    check_dequantize(&o, spec_dim, what);
    block_operands_destroy(&o);
  }
}

/* A (5, 70, 3) tensor quantized along each dim, spelled 0, 1, 2 and -3,
 * -2, -1, row-major: the block dim last, in the middle, first. */
static void blocks_along_last_outer_and_negative_dims(void** state) {
  (void)state;
  uint64_t rng = test_seed("blocks_along_last_outer_and_negative_dims", 20260311ull);
  for (int f = 0; f < REF_NUM_FORMATS; ++f) {
    for (int32_t dim = 0; dim < 3; ++dim) {
      for (int negative = 0; negative < 2; ++negative) {
        int64_t sizes[3] = {5, 3, 3};
        sizes[dim] = 70;
        block_operands o;
        block_operands_create(&o, kAllFormats[f], (ref_rule)negative, 0x3F800000, ST_FLOAT32, 3, sizes, dim,
                              ROW_MAJOR_LAYOUT, &rng);
        fill_random_floats(&o, &rng, 0, 0);
        char what[96];
        snprintf(what, sizeof what, "%s along dim %d", format_name(kAllFormats[f]), negative ? dim - 3 : dim);
        check_quantize(&o, negative ? dim - 3 : dim, what);
        check_dequantize(&o, negative ? dim - 3 : dim, what);
        block_operands_destroy(&o);
      }
    }
  }
}

/* The layout of a row-major tensor of `sizes` permuted (view dim d is
 * stored as memory dim perm[d]'s place) and flipped where `flips` has a
 * bit: what st_permute and st_flip make of a contiguous tensor. */
static void permuted_view(layout* l, const int32_t* order, unsigned flips) {
  /* order[k]: the view dim stored k-th, slowest first */
  int64_t stride = 1;
  for (int32_t k = l->ndim - 1; k >= 0; --k) {
    l->strides[order[k]] = stride;
    stride *= l->sizes[order[k]] ? l->sizes[order[k]] : 1;
  }
  l->offset = 0;
  for (int32_t d = 0; d < l->ndim; ++d) {
    if (flips >> d & 1 && l->sizes[d] > 0) {
      l->offset += (l->sizes[d] - 1) * l->strides[d];
      l->strides[d] = -l->strides[d];
    }
  }
}

/* The layout st_transpose / st_flip give, checked against the library's
 * own views of a contiguous tensor of the same sizes. */
static void expect_library_view(const layout* l, const int32_t* order, unsigned flips) {
  int64_t stored[ST_MAX_DIMS];
  for (int32_t k = 0; k < l->ndim; ++k) stored[k] = l->sizes[order[k]];
  st_tensor base = {0}, v = {0};
  EXPECT_OK(st_tensor_create(stored, l->ndim, ST_UINT8, CPU, &base));
  int32_t inverse[ST_MAX_DIMS];
  for (int32_t k = 0; k < l->ndim; ++k) inverse[order[k]] = k;
  EXPECT_OK(st_permute(base, inverse, l->ndim, &v));
  for (int32_t d = 0; d < l->ndim; ++d) {
    if (flips >> d & 1) {
      st_tensor w = {0};
      EXPECT_OK(st_flip(v, d, &w));
      EXPECT_OK(st_tensor_release(v));
      v = w;
    }
  }
  expect_layout(v, l->ndim, l->sizes, l->strides, l->offset);
  EXPECT_OK(st_tensor_release(v));
  EXPECT_OK(st_tensor_release(base));
}

/* A transposed src (the weight stored (K, M), quantized as (M, K) along
 * K), transposed values or scales, flipped operands, and all of them
 * at once, for every format. */
static void transposed_and_flipped_views(void** state) {
  (void)state;
  uint64_t rng = test_seed("transposed_and_flipped_views", 20260312ull);
  static const int32_t row[2] = {0, 1}, col[2] = {1, 0};
  static const struct {
    const int32_t *f, *v, *s;
    unsigned ff, vf, sf;
    const char* name;
  } cases[] = {
      {col, row, row, 0, 0, 0, "src transposed"},
      {row, col, row, 0, 0, 0, "values transposed"},
      {row, row, col, 0, 0, 0, "scales transposed"},
      {row, row, row, 2, 0, 0, "src flipped along the block dim"},
      {row, row, row, 1, 2, 1, "src flipped across, values along, scales across"},
      {col, col, col, 3, 3, 3, "all transposed and flipped both ways"},
  };
  for (int f = 0; f < REF_NUM_FORMATS; ++f) {
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
      const int64_t sizes[2] = {9, 96};
      block_operands o;
      block_operands_create(&o, kAllFormats[f], REF_FLOOR, 0, ST_BFLOAT16, 2, sizes, 1, ROW_MAJOR_LAYOUT, &rng);
      permuted_view(&o.fl, cases[c].f, cases[c].ff);
      permuted_view(&o.vl, cases[c].v, cases[c].vf);
      permuted_view(&o.sl, cases[c].s, cases[c].sf);
      expect_library_view(&o.fl, cases[c].f, cases[c].ff);
      expect_library_view(&o.vl, cases[c].v, cases[c].vf);
      fill_random_floats(&o, &rng, 0, 0);
      char what[128];
      snprintf(what, sizeof what, "%s, %s", format_name(kAllFormats[f]), cases[c].name);
      check_quantize(&o, -1, what);
      check_dequantize(&o, 1, what);
      block_operands_destroy(&o);
    }
  }
}

/* Lines whose last block is partial (1 to block size - 1 elements), and
 * lines shorter than one block. */
static void partial_final_blocks(void** state) {
  (void)state;
  uint64_t rng = test_seed("partial_final_blocks", 20260313ull);
  static const int64_t lengths[] = {1, 2, 6, 14, 15, 16, 17, 18, 30, 31, 32, 33, 34, 46, 47, 48, 50, 63, 64, 65, 66};
  for (int f = 0; f < REF_NUM_FORMATS; ++f) {
    for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; ++k) {
      if (is_fp4(kAllFormats[f]) && lengths[k] % 2) continue;
      for (int random = 0; random < 2; ++random) {
        const int64_t sizes[2] = {3, lengths[k]};
        block_operands o;
        block_operands_create(&o, kAllFormats[f], (ref_rule)random, 0, kFloatDtypes[k % 4], 2, sizes, 1,
                              random ? RANDOM_LAYOUT : ROW_MAJOR_LAYOUT, &rng);
        fill_random_floats(&o, &rng, 1, 0);
        char what[96];
        snprintf(what, sizeof what, "%s, lines of %lld", format_name(kAllFormats[f]), (long long)lengths[k]);
        check_quantize(&o, 1, what);
        check_dequantize(&o, 1, what);
        block_operands_destroy(&o);
      }
    }
  }
}

/* Empty tensors are a no-op: OK, nothing written; with the block dim 0
 * long the scales are empty too. */
static void empty_tensors(void** state) {
  (void)state;
  uint64_t rng = test_seed("empty_tensors", 20260314ull);
  static const int64_t shapes[][3] = {{0, 64, 2}, {4, 0, 2}, {4, 64, 0}, {0, 0, 0}};
  for (int f = 0; f < REF_NUM_FORMATS; ++f) {
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; ++k) {
      block_operands o;
      block_operands_create(&o, kAllFormats[f], REF_FLOOR, 0, ST_FLOAT32, 3, shapes[k], 1, RANDOM_LAYOUT, &rng);
      check_quantize(&o, 1, "empty");
      check_dequantize(&o, -2, "empty");
      block_operands_destroy(&o);
    }
  }
}

/* ---- The 128x4 swizzled scale layout ------------------------------------------------ */

/* The byte of scale (r, c) in the swizzled buffer of Kp columns (API.md). */
static int64_t swizzled_at(int64_t r, int64_t c, int64_t kp) {
  return (r / 128 * (kp / 4) + c / 4) * 512 + (r % 32) * 16 + (r / 32 % 4) * 4 + c % 4;
}

/* M % 128 == 0 and K % (4 B) == 0: src and values viewed as (M/128, 4, 32,
 * K/(4B), 4B), quantized along -1 into the view of D with strides (128 Kp,
 * 4, 16, 512, 1): D holds every scale where the formula puts it. */
static void quantize_writes_the_swizzled_layout_through_a_view(void** state) {
  (void)state;
  uint64_t rng = test_seed("quantize_writes_the_swizzled_layout_through_a_view", 20260315ull);
  static const ref_format formats[3] = {REF_MXFP4_E2M1, REF_MXFP8_E4M3, REF_NVFP4};
  for (int f = 0; f < 3; ++f) {
    const int64_t bs = ref_block_size(formats[f]), m = 256, k = 8 * bs, kb = 8, kp = 8;
    const int64_t sizes2[2] = {m, k};
    /* the plain quantize, for the expected scales */
    block_operands plain;
    block_operands_create(&plain, formats[f], REF_RCEIL, 0x3F800000, ST_FLOAT32, 2, sizes2, 1, ROW_MAJOR_LAYOUT,
                          &rng);
    fill_random_floats(&plain, &rng, 0, 0);
    check_quantize(&plain, 1, "plain (M, K)");
    /* the same src, values and a D buffer, through the 5-d views */
    block_operands o = plain;
    const int64_t sizes5[5] = {m / 128, 4, 32, k / (4 * bs), 4 * bs};
    o.fl = row_major(5, sizes5, 0);
    int64_t vsizes5[5] = {m / 128, 4, 32, k / (4 * bs), 4 * bs};
    if (is_fp4(formats[f])) vsizes5[4] /= 2;
    o.vl = row_major(5, vsizes5, 0);
    o.dim = 4;
    buffer d = buffer_create(scale_dtype(formats[f]), m * kp, &rng);
    o.sb = d;
    o.sl.ndim = 5;
    const int64_t ssizes[5] = {m / 128, 4, 32, kp / 4, 4}, sstrides[5] = {128 * kp, 4, 16, 512, 1};
    memcpy(o.sl.sizes, ssizes, sizeof ssizes);
    memcpy(o.sl.strides, sstrides, sizeof sstrides);
    o.sl.offset = 0;
    char what[96];
    snprintf(what, sizeof what, "%s into the 128x4 layout", format_name(formats[f]));
    check_quantize(&o, -1, what);
    for (int64_t r = 0; r < m; ++r) {
      for (int64_t c = 0; c < kb; ++c) {
        const int64_t index[2] = {r, c};
        const unsigned char want = *element_at(&plain.sb, &plain.sl, index);
        if (d.bytes[swizzled_at(r, c, kp)] != want) {
          print_error("%s: scale (%lld, %lld) at byte %lld is %02X, expected %02X\n", what, (long long)r,
                      (long long)c, (long long)swizzled_at(r, c, kp), d.bytes[swizzled_at(r, c, kp)], want);
          fail();
        }
      }
    }
    buffer_destroy(&d);
    block_operands_destroy(&plain);
  }
}

/* M % 128 != 0: plain scales S padded to (Mp, Kp) with 0x00 (as torchao),
 * then st_copy(the view of D, st_view(S, the five sizes)) swizzles them. */
static void padded_scales_swizzle_with_st_copy(void** state) {
  (void)state;
  uint64_t rng = test_seed("padded_scales_swizzle_with_st_copy", 20260316ull);
  const int64_t m = 200, k = 160, kb = 5, mp = 256, kp = 8;
  const int64_t sizes2[2] = {m, k};
  block_operands plain;
  block_operands_create(&plain, REF_MXFP8_E4M3, REF_FLOOR, 0, ST_FLOAT16, 2, sizes2, 1, ROW_MAJOR_LAYOUT, &rng);
  fill_random_floats(&plain, &rng, 0, 0);
  /* S (Mp, Kp) zeroed; quantize into its (M, Kb) corner */
  unsigned char* s = calloc((size_t)(mp * kp), 1);
  unsigned char* dd = malloc((size_t)(mp * kp));
  assert_non_null(s);
  assert_non_null(dd);
  memset(dd, 0xEE, (size_t)(mp * kp));
  const int64_t spad[2] = {mp, kp}, scorner[2] = {m, kb}, sstr[2] = {kp, 1};
  st_tensor st_s = {0}, corner = {0}, d = {0}, dview = {0}, s5 = {0};
  EXPECT_OK(st_tensor_from_data(s, spad, NULL, 2, ST_FLOAT8_E8M0FNU, CPU, NULL, NULL, &st_s));
  EXPECT_OK(st_as_strided(st_s, scorner, sstr, 2, 0, &corner));
  st_tensor src = buffer_view(&plain.fb, &plain.fl), values = buffer_view(&plain.vb, &plain.vl);
  const st_block_spec spec = block_spec(REF_MXFP8_E4M3, REF_FLOOR, -1, 0);
  EXPECT_OK(st_quantize_blocks(values, corner, src, &spec));
  const int64_t dn = mp * kp;
  EXPECT_OK(st_tensor_from_data(dd, &dn, NULL, 1, ST_FLOAT8_E8M0FNU, CPU, NULL, NULL, &d));
  const int64_t sizes5[5] = {mp / 128, 4, 32, kp / 4, 4}, strides5[5] = {128 * kp, 4, 16, 512, 1};
  EXPECT_OK(st_as_strided(d, sizes5, strides5, 5, 0, &dview));
  EXPECT_OK(st_view(st_s, sizes5, 5, &s5));
  EXPECT_OK(st_copy(dview, s5, 0));
  for (int64_t r = 0; r < mp; ++r) {
    for (int64_t c = 0; c < kp; ++c) {
      unsigned char want = 0x00;
      if (r < m && c < kb) {
        uint64_t x[32];
        uint8_t codes[32], scale;
        const int64_t line[2] = {r, c * 32};
        reference_block(&plain, line, 32, x, codes, &scale);
        want = scale;
      }
      assert_int_equal(dd[swizzled_at(r, c, kp)], want);
    }
  }
  EXPECT_OK(st_tensor_release(s5));
  EXPECT_OK(st_tensor_release(dview));
  EXPECT_OK(st_tensor_release(d));
  EXPECT_OK(st_tensor_release(corner));
  EXPECT_OK(st_tensor_release(st_s));
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(values));
  free(s);
  free(dd);
  block_operands_destroy(&plain);
}

/* ---- Threads ----------------------------------------------------------------------- */

/* Enough lines to be split between the threads (ST_NUM_THREADS=2 under
 * ctest, and 4 here), along the last dim and across a transposed src. */
static void a_large_tensor_over_threads(void** state) {
  (void)state;
  uint64_t rng = test_seed("a_large_tensor_over_threads", 20260317ull);
  EXPECT_OK(st_set_num_threads(4));
  static const int32_t col[2] = {1, 0};
  for (int transposed = 0; transposed < 2; ++transposed) {
    const int64_t sizes[2] = {512, 1024};
    block_operands o;
    block_operands_create(&o, transposed ? REF_MXFP4_E2M1 : REF_MXFP8_E4M3, REF_RCEIL, 0, ST_FLOAT32, 2, sizes, 1,
                          ROW_MAJOR_LAYOUT, &rng);
    if (transposed) permuted_view(&o.fl, col, 0);
    fill_random_floats(&o, &rng, 1, 0);
    check_quantize(&o, -1, transposed ? "(512, 1024) transposed src" : "(512, 1024)");
    check_dequantize(&o, -1, transposed ? "(512, 1024) transposed dst" : "(512, 1024)");
    block_operands_destroy(&o);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(random_blocks_over_random_layouts),
      cmocka_unit_test(blocks_along_last_outer_and_negative_dims),
      cmocka_unit_test(transposed_and_flipped_views),
      cmocka_unit_test(partial_final_blocks),
      cmocka_unit_test(empty_tensors),
      cmocka_unit_test(quantize_writes_the_swizzled_layout_through_a_view),
      cmocka_unit_test(padded_scales_swizzle_with_st_copy),
      cmocka_unit_test(a_large_tensor_over_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
