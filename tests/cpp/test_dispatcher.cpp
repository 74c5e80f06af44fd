// The dispatcher through test-only operators: which kernel runs for which
// keys, registration order, alias filling, redispatch, the thread-local
// guards, errors, and registration while another thread calls.
// ctest-labels: concurrency
#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "dispatch/registration.h"
#include "dispatch_test_support.h"

using namespace st;
using namespace st::dispatch;
using test::expect_contains;
using test::expect_error;
using test::tensor_on;

namespace {

ST_DEFINE_OPERATOR(Unary, "test_unary", "test_unary(Tensor self) -> int", int64_t(const Tensor&));
ST_DEFINE_OPERATOR(Binary, "test_binary", "test_binary(Tensor a, Tensor b) -> int",
                   int64_t(const Tensor&, const Tensor&));
ST_DEFINE_OPERATOR(Nullary, "test_nullary", "test_nullary(int x) -> int", int64_t(int64_t));
ST_DEFINE_OPERATOR(Factory, "test_factory", "test_factory(Device device) -> int", int64_t(Device));
ST_DEFINE_OPERATOR(Layered, "test_layered", "test_layered(Tensor self) -> int", int64_t(const Tensor&));
ST_DEFINE_OPERATOR(Contended, "test_contended", "test_contended(Tensor self) -> int", int64_t(const Tensor&));

// Kernels that answer who they are.
template <int64_t N>
int64_t unary_returns(DispatchKeySet, const Tensor&) {
  return N;
}
template <int64_t N>
int64_t binary_returns(DispatchKeySet, const Tensor&, const Tensor&) {
  return N;
}
int64_t nullary_composite(DispatchKeySet, int64_t x) { return 1000 + x; }

// The keys each layer of test_factory and test_layered received, in call order.
std::vector<std::pair<const char*, DispatchKeySet>> g_calls;

int64_t factory_cpu(DispatchKeySet keys, Device) {
  g_calls.emplace_back("CPU", keys);
  return 1;
}
int64_t factory_cuda(DispatchKeySet keys, Device) {
  g_calls.emplace_back("CUDA", keys);
  return 2;
}
// A factory with backend kernels only, as empty_strided.
ST_REGISTER_KERNEL("test_factory", CPU, factory_cpu);
ST_REGISTER_KERNEL("test_factory", CUDA, factory_cuda);

int64_t layered_tracing(DispatchKeySet keys, const Tensor& t) {
  g_calls.emplace_back("Tracing", keys);
  return 10 + Layered::redispatch(keys.remove(DispatchKey::Tracing), t);
}
int64_t layered_cpu(DispatchKeySet keys, const Tensor&) {
  g_calls.emplace_back("CPU", keys);
  return 1;
}
ST_REGISTER_KERNEL("test_layered", CPU, layered_cpu);

ST_REGISTER_KERNEL("test_contended", CPU, unary_returns<1>);

DispatchKeySet key_set(std::initializer_list<DispatchKey> list) {
  DispatchKeySet ks;
  for (DispatchKey k : list) ks = ks | DispatchKeySet(k);
  return ks;
}

void expect_keys(size_t i, const char* layer, DispatchKeySet expected) {
  assert_true(i < g_calls.size());
  assert_string_equal(g_calls[i].first, layer);
  if (g_calls[i].second != expected) {
    print_error("%s received %s, expected %s\n", layer, to_string(g_calls[i].second).c_str(),
                to_string(expected).c_str());
    fail();
  }
}

}  // namespace

static void newest_registration_wins_and_dropping_restores(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU);
  KernelRegistration r1 = register_kernel("test_unary", DispatchKey::CPU, &unary_returns<1>);
  assert_int_equal(Unary::call(cpu), 1);
  KernelRegistration r2 = register_kernel("test_unary", DispatchKey::CPU, &unary_returns<2>);
  KernelRegistration r3 = register_kernel("test_unary", DispatchKey::CPU, &unary_returns<3>);
  assert_int_equal(Unary::call(cpu), 3);
  r2.reset();  // not the newest: nothing changes
  assert_int_equal(Unary::call(cpu), 3);
  r3.reset();  // back to the oldest
  assert_int_equal(Unary::call(cpu), 1);
  KernelRegistration moved = std::move(r1);
  r1.reset();  // moved-from: owns nothing
  assert_int_equal(Unary::call(cpu), 1);
  moved.reset();
  expect_error(ST_ERROR_NOT_IMPLEMENTED, [&] { Unary::call(cpu); });
}

static void composite_kernel_fills_backends_without_their_own(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU), cuda = tensor_on(DeviceType::CUDA);
  KernelRegistration composite = register_kernel("test_unary", DispatchKey::CompositeImplicit, &unary_returns<100>);
  assert_int_equal(Unary::call(cpu), 100);
  assert_int_equal(Unary::call(cuda), 100);
  {
    IncludeDispatchKeyGuard private_use(DispatchKey::PrivateUse1);
    assert_int_equal(Unary::call(cpu), 100);
  }
  KernelRegistration own = register_kernel("test_unary", DispatchKey::CUDA, &unary_returns<2>);
  assert_int_equal(Unary::call(cuda), 2);  // its own kernel wins over the alias
  assert_int_equal(Unary::call(cpu), 100);
  composite.reset();
  assert_int_equal(Unary::call(cuda), 2);
  expect_error(ST_ERROR_NOT_IMPLEMENTED, [&] { Unary::call(cpu); });
}

static void composite_kernel_serves_calls_without_tensors(void**) {
  expect_error(ST_ERROR_NOT_IMPLEMENTED, [] { Nullary::call(5); });
  KernelRegistration composite = register_kernel("test_nullary", DispatchKey::CompositeImplicit, &nullary_composite);
  assert_int_equal(Nullary::call(5), 1005);
}

static void highest_backend_of_all_tensor_arguments_wins(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU), cuda = tensor_on(DeviceType::CUDA),
               pinned = tensor_on(DeviceType::CUDAHost);
  KernelRegistration r_cpu = register_kernel("test_binary", DispatchKey::CPU, &binary_returns<1>);
  KernelRegistration r_cuda = register_kernel("test_binary", DispatchKey::CUDA, &binary_returns<2>);
  assert_int_equal(Binary::call(cpu, cpu), 1);
  assert_int_equal(Binary::call(cpu, pinned), 1);  // pinned host memory is the CPU backend
  assert_int_equal(Binary::call(cpu, cuda), 2);
  assert_int_equal(Binary::call(cuda, cpu), 2);
  assert_int_equal(Binary::call(cuda, Tensor()), 2);  // an undefined tensor adds nothing
}

static void factory_goes_straight_to_its_device(void**) {
  // No tensor argument: the device argument gives the backend's keys
  // (Note [Factories dispatch on their device]), and no other layer runs.
  g_calls.clear();
  assert_int_equal(Factory::call(Device{DeviceType::CPU, 0}), 1);
  assert_int_equal(Factory::call(Device{DeviceType::CUDAHost, 0}), 1);  // pinned host memory is the CPU backend
  assert_int_equal(Factory::call(Device{DeviceType::CUDA, 1}), 2);
  assert_int_equal(g_calls.size(), 3);
  expect_keys(0, "CPU", key_set({DispatchKey::CPU}));
  expect_keys(1, "CPU", key_set({DispatchKey::CPU}));
  expect_keys(2, "CUDA", key_set({DispatchKey::CUDA}));
  // A device type with no backend has no keys: no kernel.
  const std::string msg =
      expect_error(ST_ERROR_NOT_IMPLEMENTED, [] { Factory::call(Device{static_cast<DeviceType>(9), 0}); });
  expect_contains(msg, "test_factory");
  expect_contains(msg, "Undefined");
}

static void tracing_layer_redispatches_with_its_own_key_removed(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU);
  KernelRegistration tracing = register_kernel("test_layered", DispatchKey::Tracing, &layered_tracing);
  IncludeDispatchKeyGuard trace(DispatchKey::Tracing);
  g_calls.clear();
  assert_int_equal(Layered::call(cpu), 11);
  assert_int_equal(g_calls.size(), 2);
  expect_keys(0, "Tracing", key_set({DispatchKey::Tracing, DispatchKey::CPU}));
  expect_keys(1, "CPU", key_set({DispatchKey::CPU}));

  // Dropping the registration restores the operator's built-in tracing
  // kernel, which redispatches the same way.
  tracing.reset();
  g_calls.clear();
  assert_int_equal(Layered::call(cpu), 1);
  assert_int_equal(g_calls.size(), 1);
  expect_keys(0, "CPU", key_set({DispatchKey::CPU}));
}

static void guards_include_and_exclude_keys_and_nest(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU);
  KernelRegistration r_cpu = register_kernel("test_unary", DispatchKey::CPU, &unary_returns<1>);
  KernelRegistration r_pu1 = register_kernel("test_unary", DispatchKey::PrivateUse1, &unary_returns<3>);
  assert_int_equal(Unary::call(cpu), 1);
  {
    IncludeDispatchKeyGuard include(DispatchKey::PrivateUse1);
    assert_int_equal(local_dispatch_key_set().included.raw_repr(), 0x8 | 0x4);
    assert_int_equal(Unary::call(cpu), 3);
    {
      IncludeDispatchKeyGuard again(DispatchKey::PrivateUse1);
      // Calls read thread-local keys only while some guard is alive.
      assert_int_equal(g_dispatch_state.active_guards.load(), 2);
      assert_int_equal(Unary::call(cpu), 3);
    }
    assert_int_equal(local_dispatch_key_set().included.raw_repr(), 0x8 | 0x4);
  }
  assert_int_equal(local_dispatch_key_set().included.raw_repr(), 0);
  assert_int_equal(Unary::call(cpu), 1);
  {
    KernelRegistration tracing = register_kernel("test_layered", DispatchKey::Tracing, &layered_tracing);
    IncludeDispatchKeyGuard include(DispatchKey::Tracing);
    ExcludeDispatchKeyGuard exclude(DispatchKey::Tracing);
    assert_int_equal(local_dispatch_key_set().excluded.raw_repr(), 0x10);
    // Excluded wins over included: the Tracing layer does not run.
    g_calls.clear();
    assert_int_equal(Layered::call(cpu), 1);
    assert_int_equal(g_calls.size(), 1);
    expect_keys(0, "CPU", key_set({DispatchKey::CPU}));
  }
  assert_int_equal(local_dispatch_key_set().excluded.raw_repr(), 0);
  assert_int_equal(g_dispatch_state.active_guards.load(), 0);
  assert_int_equal(Factory::call(Device{}), 1);
}

static void guards_are_per_thread(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU);
  KernelRegistration r_cpu = register_kernel("test_unary", DispatchKey::CPU, &unary_returns<1>);
  KernelRegistration r_pu1 = register_kernel("test_unary", DispatchKey::PrivateUse1, &unary_returns<3>);
  IncludeDispatchKeyGuard include(DispatchKey::PrivateUse1);
  int64_t other = 0;
  std::thread([&] { other = Unary::call(cpu); }).join();
  assert_int_equal(other, 1);
  assert_int_equal(Unary::call(cpu), 3);
}

static void missing_kernel_names_operator_and_key(void**) {
  const Tensor cuda = tensor_on(DeviceType::CUDA);
  KernelRegistration r_cpu = register_kernel("test_unary", DispatchKey::CPU, &unary_returns<1>);
  const std::string msg = expect_error(ST_ERROR_NOT_IMPLEMENTED, [&] { Unary::call(cuda); });
  assert_string_equal(msg.c_str(),
                      "operator test_unary has no kernel for dispatch key CUDA (call keys {Dense, CUDABit}); "
                      "it has kernels for CPU");
}

static void wrong_signatures_and_keys_are_refused(void**) {
  std::string msg = expect_error(ST_ERROR_INVALID_ARGUMENT, [] {
    register_kernel("test_unary", DispatchKey::CPU, &binary_returns<1>);
  });
  expect_contains(msg, "test_unary");
  expect_contains(msg, "CPU");
  msg = expect_error(ST_ERROR_INVALID_ARGUMENT, [] {
    register_kernel("test_unary", DispatchKey::Dense, &unary_returns<1>);
  });
  expect_contains(msg, "Dense");
  expect_error(ST_ERROR_INVALID_ARGUMENT, [] {
    register_kernel("test_unary", DispatchKey::Undefined, &unary_returns<1>);
  });
  // Before a definition, the first kernel's signature stands for the operator.
  KernelRegistration first = register_kernel("test_undefined_op", DispatchKey::CPU, &unary_returns<1>);
  expect_error(ST_ERROR_INVALID_ARGUMENT, [] {
    register_kernel("test_undefined_op", DispatchKey::CUDA, &binary_returns<1>);
  });
  msg = expect_error(ST_ERROR_INVALID_ARGUMENT, [] { find_operator("test_undefined_op"); });
  expect_contains(msg, "test_undefined_op");
  expect_error(ST_ERROR_INVALID_ARGUMENT, [] { find_operator("test_unary").typed<int64_t(int64_t)>(); });
  // Defining an operator twice.
  msg = expect_error(ST_ERROR_INVALID_ARGUMENT, [] { Unary::define(); });
  expect_contains(msg, "defined twice");
}

static void operators_are_found_by_name(void**) {
  const OperatorHandle op = find_operator("test_binary");
  assert_string_equal(op.schema(), "test_binary(Tensor a, Tensor b) -> int");
  const Tensor cpu = tensor_on(DeviceType::CPU);
  KernelRegistration r = register_kernel("test_binary", DispatchKey::CPU, &binary_returns<7>);
  assert_int_equal((op.typed<int64_t(const Tensor&, const Tensor&)>().call(cpu, cpu)), 7);
  assert_null(Dispatcher::singleton().find("test_no_such_operator"));
  for (const char* expected : {"empty_strided", "empty_like", "test_unary", "test_factory"}) {
    const OperatorEntry* entry = Dispatcher::singleton().find(expected);
    if (!entry || !entry->defined()) {
      print_error("operator %s is not defined\n", expected);
      fail();
    }
  }
}

// Registers and drops kernels on one thread while another calls the
// operator 100,000 times: every call must run one of the kernels that were
// registered at some point, never fail and never see a torn table.
static void registration_while_another_thread_calls(void**) {
  const Tensor cpu = tensor_on(DeviceType::CPU);
  constexpr int kCalls = 100000;
  std::atomic<bool> started{false}, done{false};
  std::atomic<int> wrong{0}, failed{0};
  int64_t seen[3] = {0, 0, 0};
  std::thread caller([&] {
    while (!started) std::this_thread::yield();
    for (int i = 0; i < kCalls; ++i) {
      try {
        const int64_t v = Contended::call(cpu);
        if (v >= 1 && v <= 2) {
          ++seen[v];
        } else {
          ++wrong;
        }
      } catch (const Error&) {
        ++failed;
      }
      // On a loaded machine the threads may share a core: let the other run.
      if (i % 256 == 0) std::this_thread::yield();
    }
    done = true;
  });
  int rounds = 0;
  while (!done) {
    KernelRegistration cpu_override = register_kernel("test_contended", DispatchKey::CPU, &unary_returns<2>);
    started = true;
    cpu_override.reset();
    ++rounds;
  }
  caller.join();
  assert_int_equal(wrong.load(), 0);
  assert_int_equal(failed.load(), 0);
  assert_int_equal(seen[1] + seen[2], kCalls);
  assert_true(rounds > 0);
  assert_int_equal(Contended::call(cpu), 1);
}

// find() walks the operator list while another thread prepends to it.
static void lookup_while_another_thread_adds_operators(void**) {
  std::atomic<bool> done{false};
  std::thread adder([&] {
    char name[32];
    for (int i = 0; i < 300; ++i) {
      std::snprintf(name, sizeof name, "test_lookup_%d", i);
      Dispatcher::singleton().find_or_create(name);
    }
    done = true;
  });
  int misses = 0;
  while (!done) {
    if (!Dispatcher::singleton().find("test_unary")) ++misses;
  }
  adder.join();
  assert_int_equal(misses, 0);
  assert_non_null(Dispatcher::singleton().find("test_lookup_299"));
  assert_non_null(Dispatcher::singleton().find("test_lookup_0"));
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(newest_registration_wins_and_dropping_restores),
      cmocka_unit_test(composite_kernel_fills_backends_without_their_own),
      cmocka_unit_test(composite_kernel_serves_calls_without_tensors),
      cmocka_unit_test(highest_backend_of_all_tensor_arguments_wins),
      cmocka_unit_test(factory_goes_straight_to_its_device),
      cmocka_unit_test(tracing_layer_redispatches_with_its_own_key_removed),
      cmocka_unit_test(guards_include_and_exclude_keys_and_nest),
      cmocka_unit_test(guards_are_per_thread),
      cmocka_unit_test(missing_kernel_names_operator_and_key),
      cmocka_unit_test(wrong_signatures_and_keys_are_refused),
      cmocka_unit_test(operators_are_found_by_name),
      cmocka_unit_test(registration_while_another_thread_calls),
      cmocka_unit_test(lookup_while_another_thread_adds_operators),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
