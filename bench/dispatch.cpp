// The cost of one operator call through the dispatcher: a test-only no-op
// operator with a CPU kernel, called on a CPU tensor. For comparison, the
// same kernel called through a plain function pointer, and the dispatched
// call with a trace callback set (two clock reads and the callback).
#include <cstdio>

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

constexpr int kRuns = 7;

}  // namespace

BENCH_CASE(dispatch, "one call of a no-op operator through the dispatcher") {
  const Tensor t = st::ops::empty({2, 3}, st::ScalarType::Float32, st::cpu_device());

  constexpr int64_t kCalls = 10 * 1000 * 1000;
  void (*volatile direct)(DispatchKeySet, const Tensor&) = &bench_noop_cpu;
  table.add("direct call of the kernel (reference)", bench::min_ns_per_call(kCalls, kRuns, [&] {
              for (int64_t i = 0; i < kCalls; ++i) direct(DispatchKeySet(), t);
            }),
            "ns/call");

  table.add("no-op operator", bench::min_ns_per_call(kCalls, kRuns, [&] {
              for (int64_t i = 0; i < kCalls; ++i) BenchNoop::call(t);
            }),
            "ns/call");

  constexpr int64_t kTracedCalls = 1000 * 1000;
  int64_t reports = 0;
  st::dispatch::set_trace_callback(&count_trace, &reports);
  table.add("no-op operator, tracing on", bench::min_ns_per_call(kTracedCalls, kRuns, [&] {
              for (int64_t i = 0; i < kTracedCalls; ++i) BenchNoop::call(t);
            }),
            "ns/call");
  st::dispatch::set_trace_callback(nullptr, nullptr);
  if (reports != kTracedCalls * kRuns) std::fprintf(stderr, "dispatch: %lld reports, expected %lld\n",
                                                    static_cast<long long>(reports),
                                                    static_cast<long long>(kTracedCalls * kRuns));
}
