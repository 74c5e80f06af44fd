/* A program built against an installed stride, as a user builds one: it
 * checks that the header and the library agree and makes a view. */
#include <stdio.h>

#include <stride.h>

int main(void) {
  const uint32_t header = ST_VERSION_MAJOR * 10000 + ST_VERSION_MINOR * 100 + ST_VERSION_PATCH;
  if (st_version() != header) {
    fprintf(stderr, "library version %u, header version %u\n", (unsigned)st_version(), (unsigned)header);
    return 1;
  }
  int64_t sizes[2] = {2, 3}, strides[2] = {0, 0};
  st_tensor x = {0}, xt = {0};
  if (st_tensor_create(sizes, 2, ST_FLOAT32, (st_device){ST_DEVICE_CPU, 0}, &x) != ST_OK ||
      st_transpose(x, 0, 1, &xt) != ST_OK || st_tensor_strides(xt, strides, 2) != ST_OK) {
    fprintf(stderr, "%s\n", st_last_error_message());
    return 1;
  }
  st_tensor_release(x);
  st_tensor_release(xt);
  if (strides[0] != 1 || strides[1] != 3) {
    fprintf(stderr, "strides (%lld, %lld), expected (1, 3)\n", (long long)strides[0], (long long)strides[1]);
    return 1;
  }
  printf("stride %s: installed library works\n", st_version_string());
  return 0;
}
