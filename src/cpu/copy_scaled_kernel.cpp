// The CPU kernel of copy_scaled_ (include/stride.h, st_copy_scaled): copy_'s
// checks and staging (checked_host_copy), the geometry with the scales and
// shifts as operands 2 and 3, then the element rule of core/numeric/scaled_convert.h over it.
#include "cpu/copy_scaled_kernel.h"

#include "core/numeric/float_env.h"

#include "core/error.h"
#include "core/numeric/dtype_dispatch.h"
#include "core/numeric/scaled_convert.h"
#include "core/runtime/parallel.h"
#include "core/runtime/platform/processor.h"
#include "cpu/copy_kernel.h"
#include "cpu/levels/copy_kernel_table.h"
#include "cpu/levels/element_access.h"
#include "cpu/levels/scaled_rows.h"
#include "cpu/stream_tuning.h"
#include "dispatch/registration.h"
#include "iter/tensor_iterator.h"

namespace st {
namespace cpu {
namespace {

// Operands: 0 dst, 1 src, 2 scale, 3 shift; strides[k] along dim 0 and
// strides[4 + k] along dim 1 (Loop2d). The vector rows (cpu/levels/scaled_rows.h)
// take contiguous rows of their pairs, and the planes kernel blocks of
// 3-channel uint8 pixels read into float32 planes (NHWC -> NCHW).
template <typename D, typename S, typename C>
void scaled_loop(const Geometry& g, bool saturate) {
  constexpr int64_t kD = static_cast<int64_t>(sizeof(D)), kS = static_cast<int64_t>(sizeof(S));
  const ScaledRowsFn rows =
      std::is_same<C, float>::value ? scaled_rows_kernel(scalar_type_of<D>, scalar_type_of<S>) : nullptr;
  const ScaledPlanesFn planes =
      std::is_same<D, float>::value && std::is_same<S, uint8_t>::value ? scaled_u8_planes_kernel() : nullptr;
  const bool nt = g.numel() * kD >= stream_threshold_bytes();
  for_each(g, [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    const int64_t ds = strides[0], ss = strides[1], as = strides[2], bs = strides[3];
    if (planes && n1 == 3 && ds == kD && ss == 3 && strides[5] == 1 && as == 0 && bs == 0 &&
        strides[6] == static_cast<int64_t>(sizeof(float)) && strides[7] == static_cast<int64_t>(sizeof(float))) {
      planes(data[0], strides[4], reinterpret_cast<const uint8_t*>(data[1]), n0,
             reinterpret_cast<const float*>(data[2]), reinterpret_cast<const float*>(data[3]), nt);
      if (nt) platform::streaming_store_fence();  // the streamed stores are visible before the task ends
      return;
    }
    if (rows && ds == kD && ss == kS && as == bs && (as == 0 || as == static_cast<int64_t>(sizeof(C)))) {
      const int64_t step = as == 0 ? 0 : 1;
      if (strides[6] == 0 && strides[7] == 0) {  // the rows share their values (per column, per tensor)
        rows(data[0], strides[4], data[1], strides[5], n1, n0, reinterpret_cast<const float*>(data[2]),
             reinterpret_cast<const float*>(data[3]), step, saturate, nt);
      } else {
        for (int64_t j = 0; j < n1; ++j)
          rows(data[0] + j * strides[4], 0, data[1] + j * strides[5], 0, 1, n0,
               reinterpret_cast<const float*>(data[2] + j * strides[6]),
               reinterpret_cast<const float*>(data[3] + j * strides[7]), step, saturate, nt);
      }
      if (nt) platform::streaming_store_fence();
      return;
    }
    for (int64_t j = 0; j < n1; ++j) {
      char* d = data[0] + j * strides[4];
      const char* s = data[1] + j * strides[5];
      const char* a = data[2] + j * strides[6];
      const char* b = data[3] + j * strides[7];
      if (as == 0 && bs == 0) {
        // One scale and shift for the row: the common case (per tensor, per
        // row, or a channel dim that is not the fastest).
        const C scale = load<C>(a), shift = load<C>(b);
        if (ds == kD && ss == kS) {
          for (int64_t i = 0; i < n0; ++i)
            store<D>(d + i * kD, scaled_convert<D>(load<S>(s + i * kS), scale, shift, saturate));
        } else {
          for (int64_t i = 0; i < n0; ++i)
            store<D>(d + i * ds, scaled_convert<D>(load<S>(s + i * ss), scale, shift, saturate));
        }
      } else {
        for (int64_t i = 0; i < n0; ++i)
          store<D>(d + i * ds, scaled_convert<D>(load<S>(s + i * ss), load<C>(a + i * as), load<C>(b + i * bs), saturate));
      }
    }
  }, kGrainSize);
}

}  // namespace

ScaledRowsFn scaled_rows_kernel(ScalarType dst, ScalarType src) {
  using S = ScalarType;
  const ScaledRowsTable& t = active_scaled_rows();
  if (dst == S::Float32 && src == S::UInt8) return t.u8_to_f32;
  if (dst == S::Float32 && src == S::Int8) return t.i8_to_f32;
  if (dst == S::Int8 && src == S::Float32) return t.f32_to_i8;
  if (dst == S::UInt8 && src == S::Float32) return t.f32_to_u8;
  if (dst == S::Float8_e4m3fn && src == S::Float32) return t.f32_to_e4m3;
  return nullptr;
}

ScaledPlanesFn scaled_u8_planes_kernel() { return active_scaled_rows().u8_planes; }

namespace {

void run_scaled(const Tensor& dst, const Tensor& src, const ScaleShift& ss) {
  copy_scaled_kernel(TensorIterator::scaled_copy(dst, src, ss, ss.scale_data()).geometry(), dst.dtype(), src.dtype(),
                     ss);
}

void copy_scaled_cpu(dispatch::DispatchKeySet, const Tensor& dst, const Tensor& src, const ScaleShift& ss,
                     bool /*non_blocking*/) {
  checked_host_copy(dst, src, true, [&](const Tensor& d, const Tensor& s) { run_scaled(d, s, ss); });
}
ST_REGISTER_KERNEL("copy_scaled_", CPU, copy_scaled_cpu);

}  // namespace

void copy_scaled_kernel(const Geometry& g, ScalarType dt, ScalarType st, const ScaleShift& ss) {
  const DefaultFloatEnvironment float_env;  // Note [The caller's floating-point environment]
  ST_DISPATCH_PAIR(dt, st, "copy_scaled", [&] {
    if constexpr (!TakesScaledCopies<dst_t>::value || !TakesScaledCopies<src_t>::value) {
      fail(ST_ERROR_UNSUPPORTED_DTYPE, "copy_scaled: %s <- %s is not a scaled copy (prepare_scale_shift checks it)",
           dtype_name(static_cast<int32_t>(dt)), dtype_name(static_cast<int32_t>(st)));
    } else {
      using C = scaled_compute_t<dst_t, src_t>;
      ST_CHECK(ss.value_size() == static_cast<int64_t>(sizeof(C)), ST_ERROR_INTERNAL,
               "copy_scaled: values prepared for another compute type");
      scaled_loop<dst_t, src_t, C>(g, ss.saturate);
    }
  });
}

}  // namespace cpu
}  // namespace st
