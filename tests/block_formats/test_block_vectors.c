/* st_quantize_blocks and st_dequantize_blocks against the published vectors
 * (published_vectors.c: torchao, ONNX, microxcaling), each as a 1-d tensor
 * of its block, against the values the sources give (not the reference).
 * The outputs start as a sentinel, so a byte the call should have written
 * and did not shows. */
#include "block_test_support.h"
#include "published_vectors.h"

enum { SENTINEL = 0xA5 };

static void pack_codes(ref_format f, const uint8_t* codes, int n, unsigned char* out) {
  if (!is_fp4(f)) {
    memcpy(out, codes, (size_t)n);
    return;
  }
  for (int j = 0; j < n / 2; ++j) out[j] = (unsigned char)(codes[2 * j] | codes[2 * j + 1] << 4);
}

static st_tensor wrap(void* data, int64_t n, st_dtype dtype) {
  st_tensor t = {0};
  EXPECT_OK(st_tensor_from_data(data, &n, NULL, 1, dtype, CPU, NULL, NULL, &t));
  return t;
}

static void library_quantizes_every_published_block(void** state) {
  (void)state;
  published_print_sources();
  int failures = 0;
  for (int k = 0; k < published_quantize_count(); ++k) {
    const published_quantize* p = published_quantize_vector(k);
    const st_dtype dtype = float_dtype_of(p->src_type);
    const size_t item = st_dtype_itemsize(dtype);
    unsigned char src[32 * 8], values[32], want[32], scale = SENTINEL;
    for (int i = 0; i < p->n; ++i) store_bits(src + (size_t)i * item, item, p->x[i]);
    const int64_t nv = is_fp4(p->format) ? p->n / 2 : p->n;
    memset(values, SENTINEL, sizeof values);
    pack_codes(p->format, p->codes, p->n, want);
    st_tensor s = wrap(src, p->n, dtype), v = wrap(values, nv, value_dtype(p->format)),
              sc = wrap(&scale, 1, scale_dtype(p->format));
    const st_block_spec spec = block_spec(p->format, p->rule, 0, p->global_scale_bits);
    const st_status status = st_quantize_blocks(v, sc, s, &spec);
    if (status != ST_OK) {
      print_message("%s: st_quantize_blocks returned %s (%s)\n", p->source, st_status_name(status),
                    st_last_error_message());
      ++failures;
    } else if (scale != p->scale || memcmp(values, want, (size_t)nv) != 0) {
      print_message("%s (%s, %s): scale %02X, published %02X\n    values  :", p->source, format_name(p->format),
                    st_dtype_name(dtype), scale, p->scale);
      for (int64_t j = 0; j < nv; ++j) print_message(" %02X", values[j]);
      print_message("\n    published:");
      for (int64_t j = 0; j < nv; ++j) print_message(" %02X", want[j]);
      print_message("\n");
      ++failures;
    }
    EXPECT_OK(st_tensor_release(s));
    EXPECT_OK(st_tensor_release(v));
    EXPECT_OK(st_tensor_release(sc));
  }
  if (failures) {
    print_error("%d of %d published blocks quantize otherwise\n", failures, published_quantize_count());
    fail();
  }
}

static void library_dequantizes_every_published_block(void** state) {
  (void)state;
  int failures = 0;
  for (int k = 0; k < published_dequantize_count(); ++k) {
    const published_dequantize* p = published_dequantize_vector(k);
    const st_dtype dtype = float_dtype_of(p->dst_type);
    const size_t item = st_dtype_itemsize(dtype);
    unsigned char dst[32 * 8], values[32], scale = p->scale;
    memset(dst, SENTINEL, sizeof dst);
    pack_codes(p->format, p->codes, p->n, values);
    const int64_t nv = is_fp4(p->format) ? p->n / 2 : p->n;
    st_tensor d = wrap(dst, p->n, dtype), v = wrap(values, nv, value_dtype(p->format)),
              sc = wrap(&scale, 1, scale_dtype(p->format));
    const st_block_spec spec = block_spec(p->format, REF_FLOOR, -1, p->global_scale_bits);
    const st_status status = st_dequantize_blocks(d, v, sc, &spec);
    if (status != ST_OK) {
      print_message("%s: st_dequantize_blocks returned %s (%s)\n", p->source, st_status_name(status),
                    st_last_error_message());
      ++failures;
    } else {
      for (int i = 0; i < p->n; ++i) {
        const uint64_t got = load_bits(dst + (size_t)i * item, item);
        const int ok = ref_is_nan(p->dst_type, p->y[i]) ? ref_is_nan(p->dst_type, got) : got == p->y[i];
        if (!ok) {
          print_message("%s: element %d (code %02X, scale %02X) is 0x%llX, published 0x%llX\n", p->source, i,
                        p->codes[i], p->scale, (unsigned long long)got, (unsigned long long)p->y[i]);
          ++failures;
        }
      }
    }
    EXPECT_OK(st_tensor_release(d));
    EXPECT_OK(st_tensor_release(v));
    EXPECT_OK(st_tensor_release(sc));
  }
  assert_int_equal(failures, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(library_quantizes_every_published_block),
      cmocka_unit_test(library_dequantizes_every_published_block),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
