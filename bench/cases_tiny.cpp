// Case K: operators on a 4×4 float32 tensor, where the
// fixed cost of one C API call (handle lookup, checks, iterator set-up,
// allocation) is all there is. Nanoseconds per call, median of batches.
#include "bench.h"
#include "tensor_data.h"

namespace {

constexpr int64_t kCalls = 10000, kQuickCalls = 100;
constexpr int kBatches = 31, kQuickBatches = 3;

}  // namespace

BENCH_CASE(K_tiny_4x4, "ns per C API call on a 4x4 float32: transposed -> contiguous (st_copy, a plan), "
                       "contiguous() no-op, clone, fill, from int32") {
  const int64_t calls = options.quick ? kQuickCalls : kCalls;
  const int batches = options.quick ? kQuickBatches : kBatches;

  const st_tensor base = bench::make_tensor({4, 4}, ST_FLOAT32);
  bench::fill_pattern(base);
  st_tensor transposed;
  bench::check(st_transpose(base, 0, 1, &transposed), "st_transpose");
  const st_tensor dst = bench::make_tensor({4, 4}, ST_FLOAT32);
  const st_tensor ints = bench::make_tensor({4, 4}, ST_INT32);
  bench::fill_pattern(ints);

  // What is timed is checked once first.
  bench::check(st_copy(dst, transposed, 0), "st_copy");
  bench::check_copy(dst, transposed, "K st_copy of the transposed 4x4");
  st_tensor out;
  bench::check(st_contiguous(transposed, ST_MEMORY_FORMAT_CONTIGUOUS, &out), "st_contiguous");
  bench::check_copy(out, transposed, "K st_contiguous of the transposed 4x4");
  bench::check(st_tensor_release(out), "st_tensor_release");
  bench::check(st_contiguous(base, ST_MEMORY_FORMAT_CONTIGUOUS, &out), "st_contiguous");
  if (out.id != base.id) bench::die("K: st_contiguous of a contiguous tensor returned a new handle");
  bench::check(st_tensor_release(out), "st_tensor_release");
  bench::check(st_clone(base, ST_MEMORY_FORMAT_PRESERVE, &out), "st_clone");
  bench::check_copy(out, base, "K st_clone of the 4x4");
  bench::check(st_tensor_release(out), "st_tensor_release");
  // The same copy prepared once: executed with the handles, and with the
  // addresses of element (0, 0) as a per-frame loop would.
  st_copy_plan plan;
  bench::check(st_copy_plan_create(dst, transposed, nullptr, ST_PLAN_ESTIMATE, &plan), "st_copy_plan_create");
  bench::check(st_zero(dst), "st_zero");
  bench::check(st_copy_plan_execute(plan, dst, transposed, 0), "st_copy_plan_execute");
  bench::check_copy(dst, transposed, "K plan execute of the transposed 4x4");
  bench::check(st_zero(dst), "st_zero");
  void* dst_data = nullptr;
  void* src_data = nullptr;
  bench::check(st_tensor_data_ptr(dst, &dst_data), "st_tensor_data_ptr");
  bench::check(st_tensor_data_ptr(transposed, &src_data), "st_tensor_data_ptr");
  bench::check(st_copy_plan_execute_raw(plan, dst_data, src_data, 0), "st_copy_plan_execute_raw");
  bench::check_copy(dst, transposed, "K plan execute_raw of the transposed 4x4");

  for (int threads : options.thread_counts) {
    bench::check(st_set_num_threads(threads), "st_set_num_threads");
    // Statuses are summed and checked after each batch: a branch per call
    // would be part of the time.
    int64_t failures = 0;
    table.add_call("transposed -> contiguous, st_copy into a 4x4", threads, bench::ns_per_call(calls, batches, [&] {
                     for (int64_t i = 0; i < calls; ++i) failures += st_copy(dst, transposed, 0) != ST_OK;
                   }));
    table.add_call("transposed -> contiguous, plan execute into a 4x4", threads,
                   bench::ns_per_call(calls, batches, [&] {
                     for (int64_t i = 0; i < calls; ++i)
                       failures += st_copy_plan_execute(plan, dst, transposed, 0) != ST_OK;
                   }));
    table.add_call("transposed -> contiguous, plan execute_raw into a 4x4", threads,
                   bench::ns_per_call(calls, batches, [&] {
                     for (int64_t i = 0; i < calls; ++i)
                       failures += st_copy_plan_execute_raw(plan, dst_data, src_data, 0) != ST_OK;
                   }));
    table.add_call("transposed -> contiguous, st_contiguous + release", threads,
                   bench::ns_per_call(calls, batches, [&] {
                     for (int64_t i = 0; i < calls; ++i) {
                       st_tensor r;
                       failures += st_contiguous(transposed, ST_MEMORY_FORMAT_CONTIGUOUS, &r) != ST_OK;
                       failures += st_tensor_release(r) != ST_OK;
                     }
                   }));
    table.add_call("st_contiguous of a contiguous tensor + release", threads, bench::ns_per_call(calls, batches, [&] {
                     for (int64_t i = 0; i < calls; ++i) {
                       st_tensor r;
                       failures += st_contiguous(base, ST_MEMORY_FORMAT_CONTIGUOUS, &r) != ST_OK;
                       failures += st_tensor_release(r) != ST_OK;
                     }
                   }));
    table.add_call("st_clone + release", threads, bench::ns_per_call(calls, batches, [&] {
                     for (int64_t i = 0; i < calls; ++i) {
                       st_tensor r;
                       failures += st_clone(base, ST_MEMORY_FORMAT_PRESERVE, &r) != ST_OK;
                       failures += st_tensor_release(r) != ST_OK;
                     }
                   }));
    table.add_call("st_fill of a 4x4", threads, bench::ns_per_call(calls, batches, [&] {
                     for (int64_t i = 0; i < calls; ++i) failures += st_fill(dst, 0.1) != ST_OK;
                   }));
    table.add_call("int32 -> float32, st_copy of a 4x4", threads, bench::ns_per_call(calls, batches, [&] {
                     for (int64_t i = 0; i < calls; ++i) failures += st_copy(dst, ints, 0) != ST_OK;
                   }));
    if (failures != 0)
      bench::die("K: %lld calls failed: %s", static_cast<long long>(failures), st_last_error_message());
  }

  bench::check(st_copy_plan_release(plan), "st_copy_plan_release");
  bench::check(st_tensor_release(ints), "st_tensor_release");
  bench::check(st_tensor_release(dst), "st_tensor_release");
  bench::check(st_tensor_release(transposed), "st_tensor_release");
  bench::check(st_tensor_release(base), "st_tensor_release");
}
