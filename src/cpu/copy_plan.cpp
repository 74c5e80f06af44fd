// The CPU kernel of the copy_plan operator (ops/copy_plan.h): the copy's
// canonical geometry (iter/geometry.h) with its addresses taken out, the
// tiny-copy rows when the copy is one, and with PlanEffort::Measure the
// thread count that copied fastest. Running it is copy_kernel (a scaled
// plan: copy_scaled_kernel) over that geometry, the very kernel st_copy
// (st_copy_scaled) reaches, so a plan gives that call's bits.
#include <memory>

#include "core/prepared_copy.h"
#include "core/runtime/clock.h"
#include "core/runtime/thread_count.h"
#include "cpu/calibration.h"
#include "cpu/copy_kernel.h"
#include "cpu/copy_same_dtype.h"
#include "cpu/copy_scaled_kernel.h"
#include "dispatch/registration.h"
#include "iter/tensor_iterator.h"

namespace st {
namespace cpu {
namespace {

// The bounds of a measurement: at most kMaxCandidates thread counts, each
// timed as the best of kRunsPerCandidate copies, and no new candidate once
// kMeasureBudgetNs have passed (the first, st_copy's own choice, always
// runs).
constexpr int kMaxCandidates = 8;
constexpr int kRunsPerCandidate = 3;
constexpr int64_t kMeasureBudgetNs = 50 * 1000 * 1000;

intptr_t address(const void* p) { return reinterpret_cast<intptr_t>(p); }

class CpuPreparedCopy final : public PreparedCopy {
 public:
  // A scaled copy's geometry has ss's scales and shifts as operands 2 and
  // 3, which point into *ss: the caller keeps it alive as long as this.
  CpuPreparedCopy(const Tensor& dst, const Tensor& src, const ScaleShift* ss)
      : geometry_((ss ? TensorIterator::scaled_copy(dst, src, *ss, ss->scale_data()) : TensorIterator::copy(dst, src))
                      .geometry()),
        dst_type_(dst.dtype()),
        src_type_(src.dtype()),
        ss_(ss) {
    offset_[0] = address(geometry_.data[0]) - address(dst.data());
    offset_[1] = address(geometry_.data[1]) - address(src.data());
    geometry_.data[0] = geometry_.data[1] = nullptr;
    tiny_ = !ss && dst_type_ == src_type_ &&
            plan_tiny_copy(geometry_, static_cast<int64_t>(dst.itemsize()), &tiny_copy_);
  }

  // Any addresses; host copies are synchronous, whatever non_blocking says.
  // An execution never calibrates (Note [Tuning from the machine]): its
  // time must not jump; a measuring plan's creation may.
  bool run(char* dst, const char* src, bool) const override {
    NoCalibration no_calibration;
    return run_copy(dst, src);
  }

  bool run_copy(char* dst, const char* src) const {
    if (tiny_) {
      run_tiny_copy(tiny_copy_, dst + offset_[0], src + offset_[1]);
      return true;
    }
    Geometry g = geometry_;
    g.data[0] = dst + offset_[0];
    g.data[1] = const_cast<char*>(src) + offset_[1];
    ThreadLimit limit(threads_);
    if (ss_) {
      copy_scaled_kernel(g, dst_type_, src_type_, *ss_);
    } else {
      copy_kernel(g, dst_type_, src_type_);
    }
    return true;
  }

  // Times the thread counts 0 (no limit: st_copy's choice), 1, 2, 4, …
  // below it on dst and src, which share no memory, and keeps the fastest.
  // Every run writes the whole copy, so dst holds its result afterwards.
  void measure(char* dst, const char* src) {
    if (tiny_) {
      run_copy(dst, src);  // one thread and no blocking: nothing to choose
      return;
    }
    int candidates[kMaxCandidates];
    int count = 0;
    candidates[count++] = 0;
    const int all = num_threads();
    for (int n = 1; n < all && count < kMaxCandidates; n *= 2) candidates[count++] = n;
    const int64_t start = monotonic_ns();
    int64_t best_ns = INT64_MAX;
    int best = 0;
    for (int c = 0; c < count; ++c) {
      if (c > 0 && monotonic_ns() - start > kMeasureBudgetNs) break;
      threads_ = candidates[c];
      for (int r = 0; r < kRunsPerCandidate; ++r) {
        const int64_t t0 = monotonic_ns();
        run_copy(dst, src);
        const int64_t ns = monotonic_ns() - t0;
        if (ns < best_ns) {
          best_ns = ns;
          best = candidates[c];
        }
      }
    }
    threads_ = best;
  }

 private:
  Geometry geometry_;  // its data pointers are null: offset_ places element (0, …, 0)
  intptr_t offset_[2];
  ScalarType dst_type_, src_type_;
  const ScaleShift* ss_;  // null: a plain copy
  bool tiny_ = false;
  TinyCopy tiny_copy_{};
  int threads_ = 0;  // a ThreadLimit for run(); 0: none
};

std::unique_ptr<PreparedCopy> copy_plan_cpu(dispatch::DispatchKeySet, const Tensor& dst, const Tensor& src,
                                            const ScaleShift* ss, PlanEffort effort) {
  auto plan = std::make_unique<CpuPreparedCopy>(dst, src, ss);
  if (effort == PlanEffort::Measure) plan->measure(static_cast<char*>(dst.data()), static_cast<const char*>(src.data()));
  return plan;
}
ST_REGISTER_KERNEL("copy_plan", CPU, copy_plan_cpu);

}  // namespace
}  // namespace cpu
}  // namespace st
