// The call cache (Note [Call cache]): once an operator has been called, a
// change that moves its calls elsewhere - a kernel registered or dropped, a
// trace callback set or cleared, a dispatch key guard - takes effect on the
// very next call; the library's composites (contiguous, clone, empty_like)
// always go through the dispatcher, so tracing sees each of them.
// ctest-labels: concurrency
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "core/contiguity.h"
#include "core/empty.h"
#include "core/views.h"
#include "dispatch/registration.h"
#include "dispatch_test_support.h"
#include "ops/clone.h"
#include "ops/contiguous.h"

using namespace st;
using namespace st::dispatch;
using test::tensor_on;

namespace {

ST_DEFINE_OPERATOR(Cached, "test_cached", "test_cached(Tensor self) -> int", int64_t(const Tensor&));
ST_DEFINE_OPERATOR(CachedFactory, "test_cached_factory", "test_cached_factory(int x) -> int", int64_t(int64_t));

template <int64_t N>
int64_t returns(DispatchKeySet, const Tensor&) {
  return N;
}
int64_t factory_composite(DispatchKeySet, int64_t x) { return x; }
int64_t factory_cpu(DispatchKeySet, int64_t x) { return -x; }
ST_REGISTER_KERNEL("test_cached", CPU, returns<1>);
ST_REGISTER_KERNEL("test_cached_factory", CompositeImplicit, factory_composite);

std::vector<std::string> g_reports;
void record(void*, const char* op_name, int64_t) { g_reports.push_back(op_name); }

int trace_off(void**) {
  set_trace_callback(nullptr, nullptr);
  g_reports.clear();
  return 0;
}

Tensor iota_float(const DimVector& sizes) {
  Tensor t = empty_cpu(sizes, contiguous_strides(sizes), ScalarType::Float32);
  float* p = static_cast<float*>(t.data());
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = static_cast<float>(i);
  return t;
}

int g_copy_calls = 0;
void counting_copy(DispatchKeySet, const Tensor&, const Tensor&, bool) { ++g_copy_calls; }

}  // namespace

static void a_kernel_registered_after_calls_takes_over_at_once(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU);
  for (int i = 0; i < 3; ++i) assert_int_equal(Cached::call(cpu), 1);
  {
    KernelRegistration r = register_kernel("test_cached", DispatchKey::CPU, &returns<2>);
    assert_int_equal(Cached::call(cpu), 2);
    assert_int_equal(Cached::call(cpu), 2);
  }
  assert_int_equal(Cached::call(cpu), 1);
}

static void calls_with_other_backends_have_entries_of_their_own(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU), cuda = tensor_on(DeviceType::CUDA);
  KernelRegistration r = register_kernel("test_cached", DispatchKey::CUDA, &returns<3>);
  for (int i = 0; i < 3; ++i) {
    assert_int_equal(Cached::call(cpu), 1);
    assert_int_equal(Cached::call(cuda), 3);
  }
  // A factory (no tensor argument): the composite, then a backend kernel
  // does not change it (no backend key is in its call).
  assert_int_equal(CachedFactory::call(5), 5);
  KernelRegistration f = register_kernel("test_cached_factory", DispatchKey::CPU, &factory_cpu);
  assert_int_equal(CachedFactory::call(5), 5);
}

static void tracing_set_after_calls_sees_every_operator(void**) {
  const Tensor t = transpose(iota_float({2, 3}), 0, 1);
  ops::contiguous(t, MemoryFormat::Contiguous);  // every operator of the chain has a cache entry now
  set_trace_callback(&record, nullptr);
  const Tensor c = ops::contiguous(t, MemoryFormat::Contiguous);
  // Innermost first: each call reports when it ends.
  const std::vector<std::string> expected = {"empty_strided", "empty_like", "copy_", "clone", "contiguous"};
  assert_true(g_reports == expected);
  const float want[] = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; ++i) assert_true(static_cast<const float*>(c.data())[i] == want[i]);

  set_trace_callback(nullptr, nullptr);
  g_reports.clear();
  const Tensor again = ops::contiguous(t, MemoryFormat::Contiguous);
  assert_true(g_reports.empty());
  for (int i = 0; i < 6; ++i) assert_true(static_cast<const float*>(again.data())[i] == want[i]);
}

static void a_guard_bypasses_the_cache_while_it_lives(void**) {
  const Tensor src = iota_float({3, 2});
  set_trace_callback(&record, nullptr);
  ops::clone(src, MemoryFormat::Contiguous);
  assert_int_equal(static_cast<int>(g_reports.size()), 4);
  g_reports.clear();
  {
    ExcludeDispatchKeyGuard guard(DispatchKey::Tracing);
    ops::clone(src, MemoryFormat::Contiguous);
    assert_true(g_reports.empty());
  }
  ops::clone(src, MemoryFormat::Contiguous);
  assert_int_equal(static_cast<int>(g_reports.size()), 4);
}

static void composites_reach_a_kernel_registered_below_them(void**) {
  const Tensor src = iota_float({3, 2});
  ops::clone(src, MemoryFormat::Contiguous);
  {
    KernelRegistration r = register_kernel("copy_", DispatchKey::CPU, &counting_copy);
    g_copy_calls = 0;
    ops::clone(src, MemoryFormat::Contiguous);  // clone's copy_ now reaches the new kernel
    assert_int_equal(g_copy_calls, 1);
  }
  const Tensor c = ops::clone(transpose(src, 0, 1), MemoryFormat::Contiguous);
  assert_int_equal(g_copy_calls, 1);
  const float want[] = {0, 2, 4, 1, 3, 5};
  for (int i = 0; i < 6; ++i) assert_true(static_cast<const float*>(c.data())[i] == want[i]);
}

// Threads call while another registers and drops a kernel: every call
// reaches one of the two kernels, and once the registration is gone for
// good every call reaches the first again.
static void calls_racing_registrations_reach_a_registered_kernel(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU);
  std::atomic<bool> stop{false};
  std::atomic<int64_t> bad{0};
  std::vector<std::thread> callers;
  for (int k = 0; k < 3; ++k) {
    callers.emplace_back([&] {
      while (!stop.load()) {
        const int64_t r = Cached::call(cpu);
        if (r != 1 && r != 2) bad.fetch_add(1);
      }
    });
  }
  for (int i = 0; i < 2000; ++i) {
    KernelRegistration r = register_kernel("test_cached", DispatchKey::CPU, &returns<2>);
  }
  stop.store(true);
  for (std::thread& t : callers) t.join();
  assert_int_equal(bad.load(), 0);
  assert_int_equal(Cached::call(cpu), 1);
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_kernel_registered_after_calls_takes_over_at_once),
      cmocka_unit_test(calls_with_other_backends_have_entries_of_their_own),
      cmocka_unit_test_teardown(tracing_set_after_calls_sees_every_operator, trace_off),
      cmocka_unit_test_teardown(a_guard_bypasses_the_cache_while_it_lives, trace_off),
      cmocka_unit_test(composites_reach_a_kernel_registered_below_them),
      cmocka_unit_test(calls_racing_registrations_reach_a_registered_kernel),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
