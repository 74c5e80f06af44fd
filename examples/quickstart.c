#include <stdio.h>
#include "stride.h"

int main(void) {
  int64_t sizes[2] = {2, 3};
  st_tensor x, xt;
  if (st_tensor_create(sizes, 2, ST_FLOAT32, (st_device){ST_DEVICE_CPU, 0}, &x) != ST_OK) {
    fprintf(stderr, "%s\n", st_last_error_message());
    return 1;
  }
  float *p, *q;
  st_tensor_data_ptr(x, (void**)&p);
  for (int i = 0; i < 6; ++i) p[i] = (float)i;   /* x = [[0 1 2] [3 4 5]], row-major */

  st_transpose(x, 0, 1, &xt);                     /* a 3x2 view of the same memory */
  int64_t st[2];
  st_tensor_strides(xt, st, 2);                   /* {1, 3}: elements, not bytes */
  st_tensor_data_ptr(xt, (void**)&q);
  printf("xt[2][1] = %g\n", q[2 * st[0] + 1 * st[1]]);  /* x[1][2] = 5 */

  st_tensor_release(x);                           /* xt keeps the memory alive */
  st_tensor_release(xt);                          /* freed here */
  return 0;
}
