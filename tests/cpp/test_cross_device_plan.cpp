// The staging plan of copies between devices (Note [Staging a copy between
// devices]), carried out in host memory: buffers of the plan's layout, the
// side copies by the CPU kernel, and the transfer as one memcpy of the
// plan's byte count between the two data pointers. The result must be the
// direct copy's, for random layouts, dtypes and both directions; and the
// plan must do host-side work only where the note says it must.
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "copy_cases.h"
#include "core/contiguity.h"
#include "core/dims.h"
#include "core/empty.h"
#include "core/views.h"
#include "cuda/cross_device_plan.h"
#include "ops/copy.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using namespace st;
using namespace st::cuda;
using copy_cases::describe;
using copy_cases::pick;

namespace {

Tensor contiguous(const DimVector& sizes, ScalarType dtype) { return empty_cpu(sizes, contiguous_strides(sizes), dtype); }

// The plan, executed as cuda/cross_device_copy.cpp executes it, with host
// memory standing in for both sides.
void carry_out(const CrossDevicePlan& plan, const Tensor& dst, const Tensor& src) {
  Tensor from = src;
  if (plan.stage_src) {
    from = empty_cpu(plan.sizes, plan.strides, plan.dtype);
    ops::copy_(from, src, false);
  }
  const Tensor to = plan.stage_dst ? empty_cpu(plan.sizes, plan.strides, plan.dtype) : dst;
  std::memcpy(to.data(), from.data(), static_cast<size_t>(plan.nbytes));
  if (plan.stage_dst) ops::copy_(dst, to, false);
}

std::string plan_text(const CrossDevicePlan& p) {
  return std::string("stage_src ") + (p.stage_src ? "yes" : "no") + ", stage_dst " + (p.stage_dst ? "yes" : "no") +
         ", " + dtype_name(static_cast<int32_t>(p.dtype)) + " sizes " + format_dims(p.sizes) + " strides " +
         format_dims(p.strides) + ", " + std::to_string(p.nbytes) + " bytes";
}

// What the plan must be, whatever the layouts (see the note).
bool plan_obeys_the_rules(const CrossDevicePlan& p, const Tensor& dst, const Tensor& src, bool src_on_gpu) {
  int64_t numel = 1;
  for (int64_t s : p.sizes) numel *= s;
  const bool dense = compute_non_overlapping_and_dense(p.sizes, p.strides);
  bool strides_ok = true;
  for (int64_t s : p.strides) strides_ok = strides_ok && s >= 0;
  const bool direct = same_dense_layout(dst, src);
  if (!dense || !strides_ok || p.nbytes != numel * static_cast<int64_t>(itemsize(p.dtype))) return false;
  if (direct) return !p.stage_src && !p.stage_dst;
  // An unstaged side is the operand itself, so it must be dense; an
  // unstaged dst also has the bytes' dtype.
  if (!p.stage_src && (!src.is_non_overlapping_and_dense() || p.dtype != src.dtype() || numel != src.numel()))
    return false;
  if (!p.stage_dst && (!dst.is_non_overlapping_and_dense() || p.dtype != dst.dtype() || numel != dst.numel()))
    return false;
  const ScalarType narrow = itemsize(dst.dtype()) < itemsize(src.dtype()) ? dst.dtype() : src.dtype();
  if (src_on_gpu) {
    // The host (dst side) copies only when dst is not dense.
    if (p.stage_dst != !dst.is_non_overlapping_and_dense()) return false;
  } else {
    // The host (src side) copies only when src is not dense, and then never
    // widens what crosses.
    if (p.stage_src != !src.is_non_overlapping_and_dense()) return false;
    if (p.stage_src && itemsize(p.dtype) != itemsize(narrow)) return false;
  }
  return true;
}

bool check(const Tensor& dst, const Tensor& src, bool src_on_gpu) {
  const CrossDevicePlan plan = plan_cross_device_copy(dst, src, src_on_gpu);
  const Tensor want = copy_cases::twin(dst), got = copy_cases::twin(dst);
  ops::copy_(want, src, false);
  carry_out(plan, got, src);
  const bool same = copy_cases::storage_bytes(want) == copy_cases::storage_bytes(got);
  const bool rules = plan_obeys_the_rules(plan, dst, src, src_on_gpu);
  if (!same || !rules) {
    print_error("%s, dst %s <- src %s: plan (%s) %s\n", src_on_gpu ? "src on the GPU" : "src on the host",
                describe(dst).c_str(), describe(src).c_str(), plan_text(plan).c_str(),
                same ? "breaks the staging rules" : "gives a different result from the direct copy");
    return false;
  }
  return true;
}

void staged_copies_equal_the_direct_copy(void**) {
  std::mt19937_64 rng(test_seed("staged_copies_equal_the_direct_copy"));
  for (int c = 0; c < 1500; ++c) {
    const DimVector sizes = copy_cases::random_sizes(rng);
    const ScalarType dt = copy_cases::random_dtype(rng);
    const ScalarType st_ = pick(rng, 0, 2) == 0 ? dt : copy_cases::random_source_dtype(rng, dt);
    const Tensor dst = copy_cases::random_tensor(rng, sizes, dt, false);
    const DimVector src_sizes = pick(rng, 0, 3) == 0 ? copy_cases::broadcast_sizes(rng, sizes) : sizes;
    const Tensor src = copy_cases::random_tensor(rng, src_sizes, st_, true);
    if (dst.numel() == 0) continue;  // copy_ returns before any plan
    if (!check(dst, src, true) || !check(dst, src, false)) fail();
  }
}

// Hand-made plans for the common cases.
void plans_of_common_cases(void**) {
  const DimVector nchw{2, 3, 4, 5};
  const Tensor cont32 = contiguous(nchw, ScalarType::Float32);
  const Tensor cont64 = contiguous(nchw, ScalarType::Float64);
  const Tensor cl32 = empty_cpu(nchw, channels_last_strides_2d(nchw), ScalarType::Float32);
  const Tensor sliced32 = slice(contiguous({2, 3, 4, 10}, ScalarType::Float32), 3, 0, 10, 2);  // not dense
  const Tensor sliced64 = slice(contiguous({2, 3, 4, 10}, ScalarType::Float64), 3, 0, 10, 2);

  // Same dtype, same dense layout (channels-last too): one memcpy, either way.
  for (bool gpu : {true, false}) {
    CrossDevicePlan p = plan_cross_device_copy(cont32, cont32, gpu);
    assert_false(p.stage_src);
    assert_false(p.stage_dst);
    assert_int_equal(p.nbytes, 120 * 4);
    p = plan_cross_device_copy(cl32, empty_cpu(nchw, channels_last_strides_2d(nchw), ScalarType::Float32), gpu);
    assert_false(p.stage_src || p.stage_dst);
  }
  // GPU -> host, dst dense: the GPU writes dst's dtype in dst's layout.
  CrossDevicePlan p = plan_cross_device_copy(cl32, cont64, true);
  assert_true(p.stage_src);
  assert_false(p.stage_dst);
  assert_int_equal(p.dtype, ScalarType::Float32);
  assert_true(p.strides == channels_last_strides_2d(nchw));
  assert_int_equal(p.nbytes, 120 * 4);
  // GPU -> host, dst not dense: the GPU makes float64 src contiguous in float32, the host scatters.
  p = plan_cross_device_copy(sliced32, cont64, true);
  assert_true(p.stage_src && p.stage_dst);
  assert_int_equal(p.dtype, ScalarType::Float32);
  assert_true(p.strides == contiguous_strides(nchw));
  // ... and a dense src already in the narrower dtype crosses as it is.
  p = plan_cross_device_copy(sliced64, cl32, true);
  assert_false(p.stage_src);
  assert_true(p.stage_dst);
  assert_int_equal(p.dtype, ScalarType::Float32);
  assert_true(p.strides == channels_last_strides_2d(nchw));
  // Host -> GPU, src dense: crosses as it is; the GPU converts and lays out.
  p = plan_cross_device_copy(cl32, cont64, false);
  assert_false(p.stage_src);
  assert_true(p.stage_dst);
  assert_int_equal(p.dtype, ScalarType::Float64);
  assert_true(p.strides == contiguous_strides(nchw));
  // Host -> GPU, src not dense, dst dense and narrower: the host writes dst's layout, no GPU step.
  p = plan_cross_device_copy(cl32, sliced64, false);
  assert_true(p.stage_src);
  assert_false(p.stage_dst);
  assert_int_equal(p.dtype, ScalarType::Float32);
  assert_true(p.strides == channels_last_strides_2d(nchw));
  // ... dst wider: the host packs in the narrower src dtype, the GPU converts.
  p = plan_cross_device_copy(cont64, sliced32, false);
  assert_true(p.stage_src && p.stage_dst);
  assert_int_equal(p.dtype, ScalarType::Float32);
  // A broadcast src crosses at its own size.
  const Tensor row = contiguous({5}, ScalarType::Float32);
  p = plan_cross_device_copy(cont32, row, false);
  assert_false(p.stage_src);
  assert_true(p.stage_dst);
  assert_int_equal(p.nbytes, 5 * 4);
  // A size-1 dim of a dense tensor may have any stride; the buffer gets a positive one.
  const Tensor odd = Tensor::make(cont32.storage(), {2, 1, 60}, {60, -7, 1}, 0, ScalarType::Float32);
  p = plan_cross_device_copy(odd, contiguous({2, 1, 60}, ScalarType::Float64), true);
  assert_true(p.strides == (DimVector{60, 1, 1}));
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(staged_copies_equal_the_direct_copy),
      cmocka_unit_test(plans_of_common_cases),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
