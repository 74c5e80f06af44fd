// The Tracing key: what is reported, in which order, on failure, and while
// the callback changes under other threads.
// ctest-labels: concurrency
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "dispatch/registration.h"
#include "dispatch_test_support.h"

using namespace st;
using namespace st::dispatch;
using test::expect_error;
using test::tensor_on;

namespace {

ST_DEFINE_OPERATOR(Inner, "test_trace_inner", "test_trace_inner(Tensor self) -> int", int64_t(const Tensor&));
ST_DEFINE_OPERATOR(Outer, "test_trace_outer", "test_trace_outer(Tensor self) -> int", int64_t(const Tensor&));
ST_DEFINE_OPERATOR(Throws, "test_trace_throws", "test_trace_throws(Tensor self) -> int", int64_t(const Tensor&));

int64_t inner_cpu(DispatchKeySet, const Tensor&) { return 1; }
int64_t outer_composite(DispatchKeySet, const Tensor& t) { return 10 + Inner::call(t); }
int64_t throws_cpu(DispatchKeySet, const Tensor&) {
  throw Error(ST_ERROR_UNSUPPORTED_DTYPE, "test kernel refuses");
}
ST_REGISTER_KERNEL("test_trace_inner", CPU, inner_cpu);
ST_REGISTER_KERNEL("test_trace_outer", CompositeImplicit, outer_composite);
ST_REGISTER_KERNEL("test_trace_throws", CPU, throws_cpu);

struct Report {
  std::string name;
  int64_t duration_ns;
};
std::vector<Report> g_reports;

void record(void*, const char* name, int64_t duration_ns) { g_reports.push_back(Report{name, duration_ns}); }

// Turns tracing off even when a test fails half-way.
int turn_off(void**) {
  set_trace_callback(nullptr, nullptr);
  g_reports.clear();
  return 0;
}

}  // namespace

static void nested_calls_report_innermost_first(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU);
  set_trace_callback(&record, nullptr);
  assert_true(global_included_keys().has(DispatchKey::Tracing));
  assert_int_equal(Outer::call(cpu), 11);
  assert_int_equal(g_reports.size(), 2);
  assert_string_equal(g_reports[0].name.c_str(), "test_trace_inner");
  assert_string_equal(g_reports[1].name.c_str(), "test_trace_outer");
  assert_true(g_reports[0].duration_ns >= 0);
  // The outer interval contains the inner one, on the same monotonic clock.
  assert_true(g_reports[1].duration_ns >= g_reports[0].duration_ns);
}

// Note [Which calls are reported]: a call that fails is not reported,
// whether its kernel threw or none was found; its error passes through.
static void failing_call_is_not_reported_and_its_error_passes_through(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU);
  set_trace_callback(&record, nullptr);
  const std::string msg = expect_error(ST_ERROR_UNSUPPORTED_DTYPE, [&] { Throws::call(cpu); });
  assert_string_equal(msg.c_str(), "test kernel refuses");
  assert_int_equal(g_reports.size(), 0);
  expect_error(ST_ERROR_NOT_IMPLEMENTED, [] { Inner::call(tensor_on(DeviceType::CUDA)); });
  assert_int_equal(g_reports.size(), 0);
  // The same operator reports once it succeeds.
  assert_int_equal(Inner::call(cpu), 1);
  assert_int_equal(g_reports.size(), 1);
  assert_string_equal(g_reports[0].name.c_str(), "test_trace_inner");
}

static void nothing_is_reported_once_turned_off(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU);
  set_trace_callback(&record, nullptr);
  set_trace_callback(nullptr, nullptr);
  assert_false(global_included_keys().has(DispatchKey::Tracing));
  assert_int_equal(Outer::call(cpu), 11);
  assert_int_equal(g_reports.size(), 0);
}

namespace {
int64_t g_calls_from_callback = 0;
void record_and_call(void*, const char* name, int64_t duration_ns) {
  g_reports.push_back(Report{name, duration_ns});
  g_calls_from_callback += Inner::call(tensor_on(DeviceType::CPU));
}
}  // namespace

static void operators_called_from_the_callback_are_not_traced(void**) {
  set_trace_callback(&record_and_call, nullptr);
  g_calls_from_callback = 0;
  assert_int_equal(Outer::call(tensor_on(DeviceType::CPU)), 11);
  assert_int_equal(g_calls_from_callback, 2);
  assert_int_equal(g_reports.size(), 2);
}

namespace {
int g_second_calls = 0;
void second(void*, const char*, int64_t) { ++g_second_calls; }
void switch_to_second(void*, const char* name, int64_t duration_ns) {
  g_reports.push_back(Report{name, duration_ns});
  set_trace_callback(&second, nullptr);
}
}  // namespace

static void callback_may_replace_itself(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU);
  g_second_calls = 0;
  set_trace_callback(&switch_to_second, nullptr);
  Inner::call(cpu);
  Inner::call(cpu);
  assert_int_equal(g_reports.size(), 1);
  assert_int_equal(g_second_calls, 1);
}

namespace {
// One callback's context: reports counted, and any report that arrives
// after the change away from it returned.
struct Context {
  std::atomic<bool> retired{false};
  std::atomic<int64_t> reports{0};
};
std::atomic<int64_t> g_late_reports{0};
void count_into(void* ctx, const char*, int64_t duration_ns) {
  auto* c = static_cast<Context*>(ctx);
  if (c->retired.load()) ++g_late_reports;
  if (duration_ns < 0) ++g_late_reports;
  ++c->reports;
}
}  // namespace

// Other threads call operators while the callback changes: every report
// goes to a callback that was set when it ran, and once a change returns
// the previous context is never used again.
static void callback_changes_while_other_threads_call(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU);
  constexpr int kChanges = 2000;
  std::vector<std::unique_ptr<Context>> contexts;
  for (int i = 0; i < kChanges; ++i) contexts.push_back(std::make_unique<Context>());
  g_late_reports = 0;
  std::atomic<bool> done{false};
  std::atomic<int64_t> calls{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 2; ++t) {
    callers.emplace_back([&] {
      while (!done) {
        Outer::call(cpu);
        calls += 2;
      }
    });
  }
  for (int i = 0; i < kChanges; ++i) {
    // Every third change turns tracing off for a moment.
    set_trace_callback(i % 3 == 2 ? nullptr : &count_into, contexts[i].get());
    if (i > 0) contexts[i - 1]->retired = true;
  }
  set_trace_callback(nullptr, nullptr);
  contexts[kChanges - 1]->retired = true;
  done = true;
  for (std::thread& t : callers) t.join();
  int64_t reports = 0;
  for (const auto& c : contexts) reports += c->reports.load();
  assert_int_equal(g_late_reports.load(), 0);
  assert_true(reports <= calls.load());
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(nested_calls_report_innermost_first, turn_off),
      cmocka_unit_test_teardown(failing_call_is_not_reported_and_its_error_passes_through, turn_off),
      cmocka_unit_test_teardown(nothing_is_reported_once_turned_off, turn_off),
      cmocka_unit_test_teardown(operators_called_from_the_callback_are_not_traced, turn_off),
      cmocka_unit_test_teardown(callback_may_replace_itself, turn_off),
      cmocka_unit_test_teardown(callback_changes_while_other_threads_call, turn_off),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
