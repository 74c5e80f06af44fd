/* st_reshape: a view exactly when st_view allows it (then the result shares
 * the source's memory), else a row-major copy; either way the elements in
 * row-major order are the source's. Hand-made cases, then random layouts
 * and shapes. Set ST_TEST_SEED to replay other random cases. */
#include <stdlib.h>

#include "copy_support.h"

#define CASES 2000

static void release_all(st_tensor* ts, int n) {
  for (int i = 0; i < n; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

static void reshape_of_a_contiguous_tensor_is_a_view(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 6), 2), r = {0};
  EXPECT_OK(st_reshape(x, DIMS(3, 4), 2, &r));
  assert_true(r.id != x.id);
  assert_true(data_ptr(r) == data_ptr(x));
  expect_layout(r, 2, DIMS(3, 4), DIMS(4, 1), 0);
  ((float*)data_ptr(x))[5] = 50.0f; /* shared memory: the view sees the write */
  assert_true(read_f32(r, DIMS(1, 1)) == 50.0f);
  st_tensor ts[] = {x, r};
  release_all(ts, 2);
}

static void reshape_infers_one_minus_one(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 6), 2), r = {0};
  EXPECT_OK(st_reshape(x, DIMS(-1, 3), 2, &r));
  expect_layout(r, 2, DIMS(4, 3), DIMS(3, 1), 0);
  st_tensor ts[] = {x, r};
  release_all(ts, 2);
}

static void reshape_of_a_transpose_that_merges_dims_copies(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), xt = {0}, r = {0};
  EXPECT_OK(st_transpose(x, 0, 1, &xt));
  EXPECT_OK(st_reshape(xt, DIMS(6), 1, &r));
  assert_true(data_ptr(r) != data_ptr(x));
  expect_layout(r, 1, DIMS(6), DIMS(1), 0);
  const float want[] = {0, 3, 1, 4, 2, 5};
  for (int64_t i = 0; i < 6; ++i) assert_true(read_f32(r, &i) == want[i]);
  ((float*)data_ptr(x))[0] = 100.0f; /* a copy: later writes do not show */
  assert_true(read_f32(r, DIMS(0)) == 0.0f);
  st_tensor ts[] = {x, xt, r};
  release_all(ts, 3);
}

static void reshape_of_a_stepped_slice_that_splits_a_dim_is_a_view(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(4, 6), 2), s = {0}, r = {0};
  EXPECT_OK(st_slice(x, 1, 0, 6, 2, &s)); /* (4, 3), strides (6, 2) */
  EXPECT_OK(st_reshape(s, DIMS(2, 2, 3), 3, &r));
  assert_true(data_ptr(r) == data_ptr(x));
  expect_layout(r, 3, DIMS(2, 2, 3), DIMS(12, 6, 2), 0);
  assert_true(read_f32(r, DIMS(1, 1, 2)) == 22.0f);
  st_tensor ts[] = {x, s, r};
  release_all(ts, 3);
}

static void reshape_of_rows_with_gaps_merged_into_one_dim_copies(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(4, 6), 2), s = {0}, r = {0};
  EXPECT_OK(st_slice(x, 1, 0, 4, 2, &s)); /* (4, 2), strides (6, 2): rows 6 apart, not 2 * 2 */
  EXPECT_OK(st_reshape(s, DIMS(8), 1, &r));
  assert_true(data_ptr(r) != data_ptr(x));
  expect_layout(r, 1, DIMS(8), DIMS(1), 0);
  const float want[] = {0, 2, 6, 8, 12, 14, 18, 20};
  for (int64_t i = 0; i < 8; ++i) assert_true(read_f32(r, &i) == want[i]);
  st_tensor ts[] = {x, s, r};
  release_all(ts, 3);
}

static void reshape_of_a_stepped_slice_with_uniform_spacing_is_a_view(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(4, 6), 2), s = {0}, r = {0};
  EXPECT_OK(st_slice(x, 1, 0, 6, 2, &s)); /* (4, 3), strides (6, 2): every element 2 apart */
  EXPECT_OK(st_reshape(s, DIMS(12), 1, &r));
  assert_true(data_ptr(r) == data_ptr(x));
  expect_layout(r, 1, DIMS(12), DIMS(2), 0);
  st_tensor ts[] = {x, s, r};
  release_all(ts, 3);
}

static void reshape_of_a_flipped_vector_is_a_view_with_negative_strides(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(6), 1), f = {0}, r = {0};
  EXPECT_OK(st_flip(x, 0, &f));
  EXPECT_OK(st_reshape(f, DIMS(2, 3), 2, &r));
  expect_layout(r, 2, DIMS(2, 3), DIMS(-3, -1), 5);
  assert_true(data_ptr(r) == data_ptr(f));
  assert_true(read_f32(r, DIMS(0, 0)) == 5.0f);
  assert_true(read_f32(r, DIMS(1, 2)) == 0.0f);
  st_tensor ts[] = {x, f, r};
  release_all(ts, 3);
}

static void reshape_of_an_expanded_tensor_copies_when_it_merges_the_stride_zero_dim(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(1, 3), 2), e = {0}, r = {0};
  EXPECT_OK(st_expand(x, DIMS(2, 3), 2, &e));
  EXPECT_OK(st_reshape(e, DIMS(6), 1, &r));
  assert_true(data_ptr(r) != data_ptr(x));
  const float want[] = {0, 1, 2, 0, 1, 2};
  for (int64_t i = 0; i < 6; ++i) assert_true(read_f32(r, &i) == want[i]);
  st_tensor ts[] = {x, e, r};
  release_all(ts, 3);
}

/* ---- Random layouts and shapes ------------------------------------------------- */

/* A new shape of `numel` elements from `l`'s: all in one dim (by -1), two
 * neighbouring dims merged, a dim split in two, or a size-1 dim added. */
static int32_t random_shape(uint64_t* rng, const layout* l, int64_t* out) {
  int32_t nd = l->ndim;
  int64_t kind = rng_below(rng, 4);
  if (kind == 0 || nd == 0) {
    out[0] = -1;
    return 1;
  }
  memcpy(out, l->sizes, sizeof(int64_t) * (size_t)nd);
  if (kind == 1 && nd >= 2) {
    int32_t d = (int32_t)rng_below(rng, nd - 1);
    out[d] = l->sizes[d] * l->sizes[d + 1];
    memmove(out + d + 1, out + d + 2, sizeof(int64_t) * (size_t)(nd - d - 2));
    return nd - 1;
  }
  if (kind == 2 && nd < ST_MAX_DIMS) {
    int32_t d = (int32_t)rng_below(rng, nd);
    int64_t size = l->sizes[d], a = 1;
    for (int64_t f = 2; f <= size; ++f) { /* a random divisor of the size */
      if (size % f == 0 && rng_below(rng, 2) == 0) {
        a = f;
        break;
      }
    }
    memmove(out + d + 1, out + d, sizeof(int64_t) * (size_t)(nd - d));
    out[d] = a;
    out[d + 1] = size == 0 ? 0 : size / a;
    return nd + 1;
  }
  if (nd < ST_MAX_DIMS) {
    int32_t d = (int32_t)rng_below(rng, nd + 1);
    memmove(out + d + 1, out + d, sizeof(int64_t) * (size_t)(nd - d));
    out[d] = 1;
    return nd + 1;
  }
  return nd;
}

/* `t`'s elements in row-major order, read through its own layout from `base`. */
static unsigned char* row_major_elements(const unsigned char* base, st_dtype dtype, const layout* l) {
  int64_t numel = layout_numel(l);
  unsigned char* out = malloc((size_t)(numel > 0 ? numel : 1) * st_dtype_itemsize(dtype));
  assert_non_null(out);
  layout flat = row_major(l->ndim, l->sizes, 0);
  reference_copy(out, dtype, &flat, base, dtype, l);
  return out;
}

static void reshape_of_random_layouts_views_exactly_when_view_does(void** state) {
  (void)state;
  uint64_t seed = test_seed("reshape_of_random_layouts", 20240631ull);
  int views = 0, copies = 0;
  for (int i = 0; i < CASES; ++i) {
    uint64_t rng = seed ^ ((uint64_t)i * 0x9E3779B97F4A7C15ull);
    int32_t nd = 1 + (int32_t)rng_below(&rng, 5);
    int64_t sizes[ST_MAX_DIMS], shape[ST_MAX_DIMS];
    for (int32_t d = 0; d < nd; ++d) sizes[d] = rng_below(&rng, 20) == 0 ? 0 : 1 + rng_below(&rng, 6);
    layout sl;
    st_dtype dtype = (st_dtype)rng_below(&rng, NUM_DTYPES);
    buffer b = buffer_create(dtype, random_layout(&rng, nd, sizes, 1, &sl), &rng);
    st_tensor src = buffer_view(&b, &sl), r = {0}, v = {0};
    int32_t rnd = random_shape(&rng, &sl, shape);
    char context[128];
    snprintf(context, sizeof context, "seed %llu case %d", (unsigned long long)seed, i);

    EXPECT_OK(st_reshape(src, shape, rnd, &r));
    layout rl = layout_of(r);
    const int64_t numel = layout_numel(&sl);
    if (st_view(src, shape, rnd, &v) == ST_OK) { /* the strides allow a view: reshape is that view */
      layout vl = layout_of(v);
      if (memcmp(&rl, &vl, sizeof rl) != 0 || data_ptr(r) != data_ptr(src)) {
        print_error("%s: st_view gives a view, st_reshape does not give the same one\n", context);
        fail();
      }
      ++views;
      EXPECT_OK(st_tensor_release(v));
    } else {
      layout want = row_major(rl.ndim, rl.sizes, 0);
      if (memcmp(&rl, &want, sizeof rl) != 0) {
        print_error("%s: a copy must be row-major with storage offset 0\n", context);
        fail();
      }
      unsigned char* p = data_ptr(r);
      if (numel > 0 && p >= b.bytes && p < b.bytes + (size_t)b.numel * b.itemsize) {
        print_error("%s: st_view refuses, yet st_reshape points into the source\n", context);
        fail();
      }
      ++copies;
    }
    unsigned char* want = row_major_elements(b.bytes, dtype, &sl);
    unsigned char* got = row_major_elements(storage_base(r), dtype, &rl);
    expect_same_bytes(got, want, (size_t)numel * b.itemsize, b.itemsize, context);
    free(want);
    free(got);
    EXPECT_OK(st_tensor_release(r));
    EXPECT_OK(st_tensor_release(src));
    buffer_destroy(&b);
  }
  print_message("%d views, %d copies\n", views, copies);
  assert_true(views > CASES / 10 && copies > CASES / 10); /* both paths were taken */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(reshape_of_a_contiguous_tensor_is_a_view),
      cmocka_unit_test(reshape_infers_one_minus_one),
      cmocka_unit_test(reshape_of_a_transpose_that_merges_dims_copies),
      cmocka_unit_test(reshape_of_a_stepped_slice_that_splits_a_dim_is_a_view),
      cmocka_unit_test(reshape_of_rows_with_gaps_merged_into_one_dim_copies),
      cmocka_unit_test(reshape_of_a_stepped_slice_with_uniform_spacing_is_a_view),
      cmocka_unit_test(reshape_of_a_flipped_vector_is_a_view_with_negative_strides),
      cmocka_unit_test(reshape_of_an_expanded_tensor_copies_when_it_merges_the_stride_zero_dim),
      cmocka_unit_test(reshape_of_random_layouts_views_exactly_when_view_does),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
