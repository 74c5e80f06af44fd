// The cost of one operator call through the dispatcher: a test-only no-op
// operator with a CPU kernel, called on a CPU tensor. For comparison, the
// same kernel called through a plain function pointer, and the dispatched
// call with a trace callback set (two clock reads and the callback).
#include "bench.h"
#include "dispatch/registration.h"
#include "ops/empty.h"

namespace {

using st::Tensor;
using st::dispatch::DispatchKeySet;

ST_DEFINE_OPERATOR(BenchNoop, "bench_noop", "bench_noop(Tensor self) -> ()", void(const Tensor&));

void bench_noop_cpu(DispatchKeySet, const Tensor&) {}
ST_REGISTER_KERNEL("bench_noop", CPU, bench_noop_cpu);

void count_trace(void* ctx, const char*, int64_t) { ++*static_cast<int64_t*>(ctx); }

constexpr int kRuns = 7, kQuickRuns = 2;

}  // namespace

BENCH_CASE(dispatch, "one call of a no-op operator through the dispatcher") {
  const Tensor t = st::ops::empty({2, 3}, st::ScalarType::Float32, st::cpu_device());

  const int runs = options.quick ? kQuickRuns : kRuns;
  const int64_t calls = options.quick ? 100 * 1000 : 10 * 1000 * 1000;
  void (*volatile direct)(DispatchKeySet, const Tensor&) = &bench_noop_cpu;
  table.add_call("direct call of the kernel (reference)", 0, bench::ns_per_call(calls, runs, [&] {
                   for (int64_t i = 0; i < calls; ++i) direct(DispatchKeySet(), t);
                 }));

  table.add_call("no-op operator", 0, bench::ns_per_call(calls, runs, [&] {
                   for (int64_t i = 0; i < calls; ++i) BenchNoop::call(t);
                 }));

  const int64_t traced_calls = options.quick ? 10 * 1000 : 1000 * 1000;
  int64_t reports = 0;
  st::dispatch::set_trace_callback(&count_trace, &reports);
  table.add_call("no-op operator, tracing on", 0, bench::ns_per_call(traced_calls, runs, [&] {
                   for (int64_t i = 0; i < traced_calls; ++i) BenchNoop::call(t);
                 }));
  st::dispatch::set_trace_callback(nullptr, nullptr);
  if (reports != traced_calls * (runs + 1))
    bench::die("dispatch: %lld trace reports, expected %lld", static_cast<long long>(reports),
               static_cast<long long>(traced_calls * (runs + 1)));
}
