// Two surfaces of the contract that the other calls do not reach: a trace
// callback that calls back into the library while it reports (copies, plan
// executes, switching the callback from inside), and scale/shift counts far
// beyond what memory holds, on empty tensors where they are legal sizes.
#include <cstdint>
#include <cstring>

#include "fuzz_calls.h"
#include "fuzz_checks.h"

namespace fuzz {
namespace {

// ---- A trace callback that calls back in ----------------------------------

// What the callback does at a report, by the input's script.
enum class Reenter : uint8_t { kNothing, kCopy, kExecute, kExecuteRaw, kSwitchOff, kSwitchToCounting, kCount };

struct Reentry {
  st_tensor dst{0}, src{0};  // 4 x 4 float32 <- a row of 4 float32: under the split threshold
  st_copy_plan plan{0};
  uint8_t script[4] = {};
  int reports = 0;
  int switched_at = -1;  // the report after which the callback is no longer this one
  int failed = 0;        // nested calls that did not answer ST_OK
};

void reenter_at_report(void* ctx, const char* op, int64_t ns) {
  FUZZ_CHECK(op && *op && ns >= 0, "a trace report without a name or with a negative duration");
  auto* r = static_cast<Reentry*>(ctx);
  FUZZ_CHECK(r->switched_at < 0, "a callback switched off from inside was called again");
  const auto what = static_cast<Reenter>(r->script[r->reports % 4] % static_cast<uint8_t>(Reenter::kCount));
  r->reports++;
  st_status s = ST_OK;
  void* dst_data = nullptr;
  void* src_data = nullptr;
  switch (what) {
    case Reenter::kNothing: break;
    case Reenter::kCopy: s = st_copy(r->dst, r->src, 0); break;
    case Reenter::kExecute: s = st_copy_plan_execute(r->plan, r->dst, r->src, 0); break;
    case Reenter::kExecuteRaw:
      FUZZ_CHECK(st_tensor_data_ptr(r->dst, &dst_data) == ST_OK && st_tensor_data_ptr(r->src, &src_data) == ST_OK,
                 "data pointers");
      s = st_copy_plan_execute_raw(r->plan, dst_data, src_data, 0);
      break;
    case Reenter::kSwitchOff:
    case Reenter::kSwitchToCounting:
      s = st_set_trace_callback(what == Reenter::kSwitchOff ? nullptr : count_trace, nullptr);
      r->switched_at = r->reports;
      break;
    case Reenter::kCount: break;
  }
  if (s != ST_OK) r->failed++;
}

void release_reentry(Reentry& r) {
  if (r.plan.id) FUZZ_CHECK(st_copy_plan_release(r.plan) == ST_OK, "releasing a live plan");
  if (r.dst.id) FUZZ_CHECK(st_tensor_release(r.dst) == ST_OK, "releasing a live handle");
  if (r.src.id) FUZZ_CHECK(st_tensor_release(r.src) == ST_OK, "releasing a live handle");
}

// Makes the scratch operands outside the model; false when an allocation
// was refused (a failure the input may have asked for), everything released.
bool make_reentry(Reentry& r) {
  const int64_t dst_sizes[2] = {4, 4}, src_sizes[1] = {4};
  const st_device cpu{ST_DEVICE_CPU, 0};
  if (st_tensor_create(dst_sizes, 2, ST_FLOAT32, cpu, &r.dst) != ST_OK ||
      st_tensor_create(src_sizes, 1, ST_FLOAT32, cpu, &r.src) != ST_OK ||
      st_copy_plan_create(r.dst, r.src, nullptr, ST_PLAN_ESTIMATE, &r.plan) != ST_OK) {
    release_reentry(r);
    return false;
  }
  float* src = nullptr;
  float* dst = nullptr;
  FUZZ_CHECK(st_tensor_data_ptr(r.src, reinterpret_cast<void**>(&src)) == ST_OK, "data pointer");
  FUZZ_CHECK(st_tensor_data_ptr(r.dst, reinterpret_cast<void**>(&dst)) == ST_OK, "data pointer");
  for (int i = 0; i < 4; ++i) src[i] = static_cast<float>(i + 1);
  for (int i = 0; i < 16; ++i) dst[i] = -1.0f;
  return true;
}

// The outer calls and the reports each makes when it succeeds (include/stride.h,
// st_set_trace_callback: a call that fails is not reported).
enum class Outer : uint8_t { kCopy, kExecute, kExecuteRaw, kContiguousOfTranspose, kCount };

}  // namespace

// One call with a callback that calls back in at its reports, per the
// script. Nested calls are never reported and all succeed; the outer call
// succeeds and reports as it would alone, until the callback switches itself
// out, after which it is not called again; a switch from inside returns
// (a hang is libFuzzer's timeout); the copies are right.
void op_trace_reentry(Input& in) {
  const char* fn = "trace reentry";
  Reentry r;
  for (uint8_t& step : r.script) step = in.u8();
  const auto outer = static_cast<Outer>(in.u8() % static_cast<uint8_t>(Outer::kCount));
  if (!make_reentry(r)) return;
  st_tensor transposed{0}, made{0};
  FUZZ_CHECK(st_transpose(r.dst, 0, 1, &transposed) == ST_OK, "st_transpose");

  FUZZ_CHECK(st_set_trace_callback(reenter_at_report, &r) == ST_OK, "trace");
  st_status s = ST_OK;
  int expected_reports = 1;
  void* dst_data = nullptr;
  void* src_data = nullptr;
  switch (outer) {
    case Outer::kCopy: s = st_copy(r.dst, r.src, 0); break;
    case Outer::kExecute: s = st_copy_plan_execute(r.plan, r.dst, r.src, 0); break;
    case Outer::kExecuteRaw:
      FUZZ_CHECK(st_tensor_data_ptr(r.dst, &dst_data) == ST_OK && st_tensor_data_ptr(r.src, &src_data) == ST_OK,
                 "data pointers");
      s = st_copy_plan_execute_raw(r.plan, dst_data, src_data, 0);
      break;
    default:
      // empty_strided, empty_like, copy_, clone, contiguous
      s = st_contiguous(transposed, ST_MEMORY_FORMAT_CONTIGUOUS, &made);
      expected_reports = 5;
      break;
  }
  set_counting_trace(g_counting_trace);  // the callback the input had before

  // A refused allocation (the input may have asked for one) fails the
  // contiguous copy, which is then not reported past what it completed.
  if (s != ST_OK) {
    FUZZ_CHECK(outer == Outer::kContiguousOfTranspose && s == ST_ERROR_OUT_OF_MEMORY && made.id == 0,
               "%s: the outer call answered %s", fn, st_status_name(s));
  } else {
    const int want = r.switched_at >= 0 ? r.switched_at : expected_reports;
    FUZZ_CHECK(r.reports == want, "%s: %d reports of outer call %d, expected %d (switched after %d)", fn, r.reports,
               static_cast<int>(outer), want, r.switched_at);
  }
  FUZZ_CHECK(r.reports <= expected_reports, "%s: nested calls were reported (%d reports)", fn, r.reports);
  FUZZ_CHECK(r.failed == 0, "%s: %d nested calls failed", fn, r.failed);
  if (s == ST_OK && outer != Outer::kContiguousOfTranspose) {
    // The row copied into every row of dst (by the outer call, and by any
    // nested one before it).
    void* p = nullptr;
    FUZZ_CHECK(st_tensor_data_ptr(r.dst, &p) == ST_OK, "data pointer");
    const float* dst = static_cast<const float*>(p);
    for (int i = 0; i < 16; ++i) FUZZ_CHECK(dst[i] == static_cast<float>(i % 4 + 1), "%s: dst[%d] = %g", fn, i, dst[i]);
  }
  if (made.id) FUZZ_CHECK(st_tensor_release(made) == ST_OK, "releasing a live handle");
  FUZZ_CHECK(st_tensor_release(transposed) == ST_OK, "releasing a live handle");
  release_reentry(r);
}

// ---- Scale/shift counts on empty tensors -----------------------------------

namespace {

// Counts that memory holds, with arrays this long, and counts whose values
// no container holds (2 x 8 bytes each past 2^59), which must be refused
// before anything is read or allocated. Counts in between are real
// allocations of up to exabytes, which a sanitizer build aborts on instead
// of failing them: they are left to the C tests' refusing allocators.
constexpr int64_t kHeldCounts = int64_t{1} << 12;
const int64_t kUnheldCounts[] = {int64_t{1} << 59, (int64_t{1} << 59) + 1, int64_t{1} << 60, int64_t{1} << 61,
                                 int64_t{1} << 62, INT64_MAX};
double g_values[kHeldCounts];

}  // namespace

// st_copy_scaled and st_copy_plan_create over empty tensors whose channel
// dim has a huge size, with n that size or any other: a documented status
// always (INTERNAL never: check_status), out of memory exactly when the
// arguments are right and the values cannot be held, and no plan issued on
// failure.
void op_scale_shift_counts(Input& in) {
  const int32_t ndim = 2 + in.u8() % 2;
  const int32_t channel = in.u8() % ndim;
  int64_t sizes[3] = {1 + in.u8() % 3, 1 + in.u8() % 3, 1 + in.u8() % 3};
  const bool held = in.u8() % 4 == 0;
  sizes[channel] = held ? 1 + static_cast<int64_t>(in.u64() % kHeldCounts) : pick_from(in, kUnheldCounts);
  sizes[(channel + 1 + in.u8() % (ndim - 1)) % ndim] = 0;
  const int32_t dst_dtype = pick_dtype(in), src_dtype = pick_dtype(in);
  const st_device cpu{ST_DEVICE_CPU, 0};
  st_tensor dst{0}, src{0};
  if (fz_tensor_create(sizes, ndim, dst_dtype, cpu, &dst) != ST_OK) return;
  if (fz_tensor_create(sizes, ndim, src_dtype, cpu, &src) != ST_OK) {
    FUZZ_CHECK(st_tensor_release(dst) == ST_OK, "releasing a live handle");
    return;
  }
  const uint8_t pick_n = in.u8() % 4;
  const int64_t n = pick_n == 0 ? 1 : pick_n == 1 ? static_cast<int64_t>(in.u64()) : sizes[channel];
  int32_t dim = channel;
  if (in.u8() % 4 == 0) dim = channel - ndim;  // the same dim, from the end
  if (in.u8() % 8 == 0) dim = static_cast<int32_t>(in.range(-5, 5));
  const bool values = n >= 1 && n <= kHeldCounts && in.u8() % 2;
  const st_scale_shift ss{values ? g_values : nullptr, values ? g_values : nullptr, n, dim, in.u8() % 2};

  const bool real = scalable(static_cast<st_dtype>(dst_dtype)) && scalable(static_cast<st_dtype>(src_dtype));
  // n other than 1 must be dst's size along dim: the channel's, or a zero
  // size when dim names the empty dim (n = 0 is then right).
  const bool dim_in_range = dim >= -ndim && dim < ndim;
  const int64_t size_along_dim = dim_in_range ? sizes[dim < 0 ? dim + ndim : dim] : -1;
  const bool arguments_ok = real && (n == 1 || (dim_in_range && n == size_along_dim));
  const int64_t live_before = live_count();
  for (int call = 0; call < 2; ++call) {
    const char* fn = call == 0 ? "st_copy_scaled" : "st_copy_plan_create";
    const Frame f = begin_call();
    st_copy_plan plan{0x5eed5eed5eed5eedull};
    const st_status s = call == 0 ? st_copy_scaled(dst, src, &ss, 0)
                                  : st_copy_plan_create(dst, src, &ss, ST_PLAN_ESTIMATE, &plan);
    check_status(fn, s);
    if (arguments_ok) {
      const bool unheld = n > kHeldCounts;
      FUZZ_CHECK(s == (unheld ? ST_ERROR_OUT_OF_MEMORY : ST_OK) || (s == ST_ERROR_OUT_OF_MEMORY && allocation_refused(f)),
                 "%s with n = %lld along a dim of that size answered %s", fn, static_cast<long long>(n),
                 st_status_name(s));
    } else {
      FUZZ_CHECK(s != ST_OK, "%s accepted n = %lld, dim = %d for a size along it of %lld", fn,
                 static_cast<long long>(n), dim, static_cast<long long>(size_along_dim));
    }
    if (call == 1 && s == ST_OK) {
      FUZZ_CHECK(st_copy_plan_release(plan) == ST_OK, "releasing a live plan");
    } else if (call == 1) {
      FUZZ_CHECK(plan.id == 0, "%s failed and issued a plan", fn);
    }
    // The operands are not the model's: count against what was live before.
    FUZZ_CHECK(live_count() == live_before, "%s changed the live handle count", fn);
    std::lock_guard<std::mutex> lock(g_heap.mutex);
    FUZZ_CHECK(g_heap.live.size() == f.heap_live, "%s kept %zd allocations", fn,
               static_cast<ssize_t>(g_heap.live.size()) - static_cast<ssize_t>(f.heap_live));
  }
  FUZZ_CHECK(st_tensor_release(dst) == ST_OK && st_tensor_release(src) == ST_OK, "releasing live handles");
}

}  // namespace fuzz
