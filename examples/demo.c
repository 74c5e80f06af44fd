/* demo: one tensor and several views of it, then three copies.
 *
 * Creates a 3x4 float32 tensor, fills it through its data pointer, then makes
 * views (transpose, slice, flip, expand) and prints each one's sizes, strides
 * and storage offset, with its elements read through those strides. No view
 * copies anything: all of them read the same 12 floats, and a write through
 * one view shows in every other.
 *
 * Then the copies: an image from NCHW to NHWC order (st_contiguous), float32
 * to float16 and back (st_to), and one row copied into every row of a
 * matrix (st_copy broadcasts). */
#include <stdio.h>

#include "stride.h"

#define CHECK(call)                                                                                   \
  do {                                                                                                \
    st_status status_ = (call);                                                                       \
    if (status_ != ST_OK) {                                                                           \
      fprintf(stderr, "%s failed: %s\n  %s\n", #call, st_status_name(status_), st_last_error_message()); \
      return 1;                                                                                       \
    }                                                                                                 \
  } while (0)

/* Prints the layout of a 1-d or 2-d float32 tensor and its elements, each
 * read at data_ptr + i * strides[0] + j * strides[1] (in elements). */
static int show(const char* title, st_tensor t) {
  int32_t ndim = 0;
  int64_t sizes[2] = {1, 1}, strides[2] = {0, 0}, offset = 0;
  int32_t contiguous = 0;
  float* data = NULL;
  CHECK(st_tensor_ndim(t, &ndim));
  CHECK(st_tensor_sizes(t, sizes, 2));
  CHECK(st_tensor_strides(t, strides, 2));
  CHECK(st_tensor_storage_offset(t, &offset));
  CHECK(st_tensor_is_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, &contiguous));
  CHECK(st_tensor_data_ptr(t, (void**)&data));

  printf("%s\n  sizes (", title);
  for (int32_t d = 0; d < ndim; ++d) printf(d ? ", %lld" : "%lld", (long long)sizes[d]);
  printf(")  strides (");
  for (int32_t d = 0; d < ndim; ++d) printf(d ? ", %lld" : "%lld", (long long)strides[d]);
  printf(")  storage offset %lld  %s\n", (long long)offset, contiguous ? "contiguous" : "not contiguous");

  int64_t rows = ndim == 2 ? sizes[0] : 1, cols = ndim == 2 ? sizes[1] : sizes[0];
  int64_t row_stride = ndim == 2 ? strides[0] : 0, col_stride = ndim == 2 ? strides[1] : strides[0];
  for (int64_t i = 0; i < rows; ++i) {
    printf("   ");
    for (int64_t j = 0; j < cols; ++j) printf(" %5.0f", data[i * row_stride + j * col_stride]);
    printf("\n");
  }
  return 0;
}

/* Prints the first n float32 values in t's memory, in the order they lie there. */
static int show_memory(const char* title, st_tensor t, int n) {
  int64_t strides[4] = {0};
  float* data = NULL;
  CHECK(st_tensor_strides(t, strides, 4));
  CHECK(st_tensor_data_ptr(t, (void**)&data));
  printf("%s\n  strides (%lld, %lld, %lld, %lld), memory:", title, (long long)strides[0], (long long)strides[1],
         (long long)strides[2], (long long)strides[3]);
  for (int i = 0; i < n; ++i) printf(" %g", data[i]);
  printf("\n");
  return 0;
}

static int copies(void) {
  const st_device cpu = {ST_DEVICE_CPU, 0};

  /* One image of 3 channels and 2x2 pixels in NCHW order: each channel's
   * plane is contiguous. Channel c of pixel p holds 10 * c + p. */
  const int64_t nchw[4] = {1, 3, 2, 2};
  st_tensor image = {0}, nhwc = {0};
  float* pixels = NULL;
  CHECK(st_tensor_create(nchw, 4, ST_FLOAT32, cpu, &image));
  CHECK(st_tensor_data_ptr(image, (void**)&pixels));
  for (int c = 0; c < 3; ++c)
    for (int p = 0; p < 4; ++p) pixels[c * 4 + p] = (float)(10 * c + p);
  if (show_memory("\nan NCHW image (1, 3, 2, 2): one plane per channel", image, 12)) return 1;
  /* The same sizes, laid out channels-last: the 3 channels of a pixel side by side. */
  CHECK(st_contiguous(image, ST_MEMORY_FORMAT_CHANNELS_LAST, &nhwc));
  if (show_memory("st_contiguous(image, CHANNELS_LAST): NHWC order in memory", nhwc, 12)) return 1;

  /* float32 -> float16 -> float32: each value rounded to the nearest float16. */
  float values[5] = {0.1f, 1.0f / 3.0f, 2049.0f, 65504.0f, 70000.0f};
  const int64_t five = 5;
  st_tensor f32 = {0}, f16 = {0}, back = {0};
  CHECK(st_tensor_from_data(values, &five, NULL, 1, ST_FLOAT32, cpu, NULL, NULL, &f32));
  CHECK(st_to(f32, ST_FLOAT16, cpu, ST_MEMORY_FORMAT_CONTIGUOUS, &f16));
  CHECK(st_to(f16, ST_FLOAT32, cpu, ST_MEMORY_FORMAT_CONTIGUOUS, &back));
  const float* rounded = NULL;
  CHECK(st_tensor_data_ptr(back, (void**)&rounded));
  printf("\nfloat32 -> float16 -> float32 (st_to twice; float16 keeps 11 significant bits, at most 65504):\n");
  for (int i = 0; i < 5; ++i) printf("  %-12.9g -> %.9g\n", values[i], rounded[i]);

  /* A row of 4 copied into each row of a 3x4 matrix: src broadcasts to dst. */
  const int64_t four = 4, grid_sizes[2] = {3, 4};
  float row_values[4] = {1, 2, 3, 4};
  st_tensor row = {0}, grid = {0};
  CHECK(st_tensor_from_data(row_values, &four, NULL, 1, ST_FLOAT32, cpu, NULL, NULL, &row));
  CHECK(st_tensor_create(grid_sizes, 2, ST_FLOAT32, cpu, &grid));
  CHECK(st_copy(grid, row, 0));
  if (show("\nst_copy(3x4 grid, row {1, 2, 3, 4}): the row lands in every row", grid)) return 1;

  st_tensor all[] = {image, nhwc, f32, f16, back, row, grid};
  for (int i = 0; i < 7; ++i) CHECK(st_tensor_release(all[i]));
  return 0;
}

int main(void) {
  printf("stride %s\n\n", st_version_string());

  const int64_t sizes[2] = {3, 4};
  const st_device cpu = {ST_DEVICE_CPU, 0};
  st_tensor x = {0};
  CHECK(st_tensor_create(sizes, 2, ST_FLOAT32, cpu, &x));

  /* A new tensor is row-major: element (i, j) is at data[i * 4 + j]. */
  float* data = NULL;
  CHECK(st_tensor_data_ptr(x, (void**)&data));
  for (int i = 0; i < 12; ++i) data[i] = (float)i;
  if (show("x: a new 3x4 tensor, filled with 0..11", x)) return 1;

  st_tensor xt = {0}, cols = {0}, flipped = {0}, row = {0}, row2d = {0}, rows = {0};

  CHECK(st_transpose(x, 0, 1, &xt));
  if (show("\ntranspose(x, 0, 1): the strides swap", xt)) return 1;

  CHECK(st_slice(x, 1, 1, 4, 2, &cols));
  if (show("\nslice(x, dim 1, start 1, stop 4, step 2): columns 1 and 3", cols)) return 1;

  CHECK(st_flip(x, 0, &flipped));
  if (show("\nflip(x, 0): a negative stride, starting at the last row", flipped)) return 1;

  const int64_t three_rows[2] = {3, 4};
  CHECK(st_select(x, 0, 1, &row));
  CHECK(st_unsqueeze(row, 0, &row2d));
  CHECK(st_expand(row2d, three_rows, 2, &rows));
  if (show("\nexpand(row 1 of x, to 3x4): stride 0 repeats the row", rows)) return 1;

  /* Views share memory: writing element (0, 2) of the transpose writes x[2][0]. */
  float* t = NULL;
  int64_t ts[2];
  CHECK(st_tensor_data_ptr(xt, (void**)&t));
  CHECK(st_tensor_strides(xt, ts, 2));
  t[0 * ts[0] + 2 * ts[1]] = 100.0f;
  if (show("\nafter writing 100 to transpose(x)[0][2], x is", x)) return 1;
  if (show("and flip(x, 0) sees it too", flipped)) return 1;

  /* Each view holds its own reference to the memory; it is freed with the last one. */
  st_tensor all[] = {x, xt, cols, flipped, row, row2d, rows};
  for (int i = 0; i < 7; ++i) CHECK(st_tensor_release(all[i]));

  if (copies()) return 1;

  /* Errors come back as a status and a message that names the values. */
  st_tensor bad = {0};
  st_status s = st_transpose(x, 0, 1, &bad);
  printf("\nusing x after its release: %s\n  %s\n", st_status_name(s), st_last_error_message());
  return s == ST_ERROR_INVALID_HANDLE ? 0 : 1;
}
