/* frame_loop: a camera delivers an 8-bit RGB frame (HWC: pixel by pixel,
 * the channels of each side by side) many times a second, and a network
 * wants each as a float32 CHW tensor. The copy is the same every frame:
 * the same sizes, strides and dtypes, new pixels. So it is planned once,
 * and each frame is one st_copy_plan_execute_raw with the two addresses:
 * no handle is looked up, nothing is allocated, nothing is checked again.
 *
 * The plan is made from a view of the first frame; later frames are other
 * buffers of the same layout, passed by address. The plan keeps no tensor,
 * so the view and the wrap may be released as soon as it exists. */
#include <stdint.h>
#include <stdio.h>

#include "stride.h"

#define CHECK(call)                                                                             \
  do {                                                                                          \
    st_status s_ = (call);                                                                      \
    if (s_ != ST_OK) {                                                                          \
      fprintf(stderr, "%s: %s\n  %s\n", #call, st_status_name(s_), st_last_error_message()); \
      return 1;                                                                                 \
    }                                                                                           \
  } while (0)

enum { H = 48, W = 64, C = 3, FRAMES = 100 };

/* What the camera writes into frame `f`: a pattern that changes each frame. */
static void capture(uint8_t* frame, int f) {
  for (int i = 0; i < H * W * C; ++i) frame[i] = (uint8_t)((i * 7 + f * 13) % 256);
}

int main(void) {
  static uint8_t frames[2][H * W * C]; /* the camera's two buffers, used in turn */
  const st_device cpu = {ST_DEVICE_CPU, 0};

  /* The destination: float32 CHW, made once, written every frame. */
  const int64_t chw_sizes[3] = {C, H, W};
  st_tensor chw = {0};
  CHECK(st_tensor_create(chw_sizes, 3, ST_FLOAT32, cpu, &chw));
  float* out = NULL;
  CHECK(st_tensor_data_ptr(chw, (void**)&out));

  /* The source layout: frame 0 wrapped as HWC, viewed as CHW. */
  const int64_t hwc_sizes[3] = {H, W, C};
  const int32_t to_chw[3] = {2, 0, 1};
  st_tensor hwc = {0}, src = {0};
  CHECK(st_tensor_from_data(frames[0], hwc_sizes, NULL, 3, ST_UINT8, cpu, NULL, NULL, &hwc));
  CHECK(st_permute(hwc, to_chw, 3, &src));

  /* Plan once; ST_PLAN_MEASURE would time the candidates here instead. */
  st_copy_plan plan = {0};
  CHECK(st_copy_plan_create(chw, src, NULL, ST_PLAN_ESTIMATE, &plan));
  CHECK(st_tensor_release(src));
  CHECK(st_tensor_release(hwc));

  /* Every frame: one call with the two addresses. */
  int64_t wrong = 0;
  for (int f = 0; f < FRAMES; ++f) {
    uint8_t* frame = frames[f % 2];
    capture(frame, f);
    CHECK(st_copy_plan_execute_raw(plan, out, frame, 0));
    /* The network would run here; this example checks the copy instead. */
    for (int c = 0; c < C; ++c)
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) wrong += out[(c * H + y) * W + x] != (float)frame[(y * W + x) * C + c];
  }
  printf("%d frames of %dx%dx%d copied, %lld elements wrong\n", FRAMES, H, W, C, (long long)wrong);

  CHECK(st_copy_plan_release(plan));
  CHECK(st_tensor_release(chw));
  int64_t live = -1;
  CHECK(st_live_plan_count(&live));
  return wrong == 0 && live == 0 ? 0 : 1;
}
