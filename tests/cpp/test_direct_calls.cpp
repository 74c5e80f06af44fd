// Direct calls (ops/direct_calls.h): contiguous, clone, empty_like,
// empty_strided and copy_ skip the dispatcher only while nothing could tell
// — no trace callback, no dispatch key guard, the library's own kernels in
// the tables — and then give what the dispatched calls give.
#include <string>
#include <vector>

#include "core/contiguity.h"
#include "core/empty.h"
#include "core/views.h"
#include "dispatch/registration.h"
#include "ops/copy.h"
#include "ops/direct_calls.h"
#include "ops/empty.h"
#include "dispatch_test_support.h"

using namespace st;
using dispatch::DispatchKey;
using dispatch::DispatchKeySet;

namespace {

std::vector<std::string> g_reports;

void record(void*, const char* op_name, int64_t) { g_reports.push_back(op_name); }
void ignore(void*, const char*, int64_t) {}

int trace_off(void**) {
  dispatch::set_trace_callback(nullptr, nullptr);
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

int g_clone_calls = 0;
Tensor counting_clone(DispatchKeySet, const Tensor& src, MemoryFormat) {
  ++g_clone_calls;
  return src;
}

InlineVector<int32_t> dims_of(std::initializer_list<int32_t> d) {
  InlineVector<int32_t> v;
  for (int32_t x : d) v.push_back(x);
  return v;
}

}  // namespace

// Fails when a kernel added to the library for one of these operators and
// the CPU keys (say, an allocator for pinned memory) turns direct calls off
// for good: then its reaches_own_kernel check must learn of it.
static void direct_calls_are_on_with_the_library_s_own_kernels(void**) { assert_true(ops::direct_calls_allowed()); }

static void a_trace_callback_turns_them_off_and_sees_every_call(void**) {
  const Tensor t = transpose(iota_float({2, 3}), 0, 1);
  dispatch::set_trace_callback(&record, nullptr);
  assert_false(ops::direct_calls_allowed());
  const Tensor c = ops::contiguous(t, MemoryFormat::Contiguous);
  // Innermost first: each call reports when it ends.
  const std::vector<std::string> expected = {"empty_strided", "empty_like", "copy_", "clone", "contiguous"};
  assert_true(g_reports == expected);
  const float want[] = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; ++i) assert_true(static_cast<const float*>(c.data())[i] == want[i]);

  dispatch::set_trace_callback(nullptr, nullptr);
  assert_true(ops::direct_calls_allowed());
  g_reports.clear();
  const Tensor again = ops::contiguous(t, MemoryFormat::Contiguous);
  assert_true(g_reports.empty());
  for (int i = 0; i < 6; ++i) assert_true(static_cast<const float*>(again.data())[i] == want[i]);
}

static void a_kernel_registered_later_takes_over_until_dropped(void**) {
  const Tensor src = iota_float({3, 2});
  {
    dispatch::KernelRegistration r = dispatch::register_kernel("copy_", DispatchKey::CPU, &counting_copy);
    assert_false(ops::direct_calls_allowed());
    g_copy_calls = 0;
    ops::clone(src, MemoryFormat::Contiguous);  // clone's copy_ now reaches the new kernel
    assert_int_equal(g_copy_calls, 1);
    const Tensor dst = iota_float({3, 2});
    ops::copy_(dst, src, false);
    assert_int_equal(g_copy_calls, 2);
  }
  assert_true(ops::direct_calls_allowed());
  const Tensor c = ops::clone(transpose(src, 0, 1), MemoryFormat::Contiguous);
  assert_int_equal(g_copy_calls, 2);
  const float want[] = {0, 2, 4, 1, 3, 5};
  for (int i = 0; i < 6; ++i) assert_true(static_cast<const float*>(c.data())[i] == want[i]);

  // An operator higher in the chain: a CPU kernel for clone outranks its composite.
  {
    dispatch::KernelRegistration r = dispatch::register_kernel("clone", DispatchKey::CPU, &counting_clone);
    g_clone_calls = 0;
    const Tensor same = ops::contiguous(transpose(src, 0, 1), MemoryFormat::Contiguous);
    assert_int_equal(g_clone_calls, 1);
    assert_true(same.storage().get() == src.storage().get());  // the counting kernel hands back its source
  }
  assert_true(ops::direct_calls_allowed());
}

static void a_dispatch_key_guard_turns_them_off(void**) {
  {
    dispatch::ExcludeDispatchKeyGuard guard(DispatchKey::Tracing);
    assert_false(ops::direct_calls_allowed());
  }
  {
    dispatch::IncludeDispatchKeyGuard guard(DispatchKey::BackendSelect);
    assert_false(ops::direct_calls_allowed());
  }
  assert_true(ops::direct_calls_allowed());
}

// empty_like's direct call skips the checks of empty_strided; its layouts
// must be those of the dispatched call, which makes every check.
static void empty_like_direct_matches_the_dispatched_call(void**) {
  const Tensor base = iota_float({2, 3, 4, 5});
  std::vector<Tensor> sources = {
      iota_float({2, 3, 4}),
      transpose(iota_float({3, 4}), 0, 1),
      permute(base, dims_of({0, 3, 1, 2})),                    // channels-last storage order
      permute(iota_float({2, 3, 2, 2, 2}), dims_of({0, 4, 1, 2, 3})),
      iota_float({2, 0, 3}),
      as_strided(iota_float({8}), DimVector{2, 1, 3}, DimVector{3, 100, 1}, 0),
      flip(iota_float({2, 1, 3}), 1),                             // a negative stride on a size-1 dim
      expand(iota_float({3, 1}), DimVector{3, 4}),                // stride 0: not dense
      slice(iota_float({6, 4}), 0, 0, 6, 2),                       // gaps
      iota_float({}),
      iota_float({40, 40}),                                        // beyond a tensor block
  };
  const MemoryFormat formats[] = {MemoryFormat::Preserve, MemoryFormat::Contiguous, MemoryFormat::ChannelsLast,
                                  MemoryFormat::ChannelsLast3d};
  for (const Tensor& src : sources) {
    for (MemoryFormat fmt : formats) {
      assert_true(ops::direct_calls_allowed());
      Tensor direct, dispatched;
      std::string direct_error = "none", dispatched_error = "none";
      try {
        direct = ops::empty_like(src, fmt);
      } catch (const Error& e) {
        direct_error = e.what();
      }
      dispatch::set_trace_callback(&ignore, nullptr);
      try {
        dispatched = ops::empty_like(src, fmt);
      } catch (const Error& e) {
        dispatched_error = e.what();
      }
      dispatch::set_trace_callback(nullptr, nullptr);
      assert_string_equal(direct_error.c_str(), dispatched_error.c_str());
      if (!direct.defined()) continue;
      assert_true(direct.sizes() == dispatched.sizes());
      assert_true(direct.strides() == dispatched.strides());
      assert_int_equal(direct.numel(), dispatched.numel());
      assert_int_equal(direct.storage_offset(), dispatched.storage_offset());
      assert_int_equal(direct.storage()->nbytes(), dispatched.storage()->nbytes());
      assert_int_equal(direct.storage()->nbytes(), storage_span(direct.sizes(), direct.strides(), direct.dtype()) *
                                                       static_cast<int64_t>(direct.itemsize()));
      for (MemoryFormat f : formats) assert_int_equal(direct.is_contiguous(f), dispatched.is_contiguous(f));
      assert_true((direct.data() == nullptr) == (dispatched.data() == nullptr));
      assert_int_equal(reinterpret_cast<uintptr_t>(direct.data()) % 64, 0);
    }
  }
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(direct_calls_are_on_with_the_library_s_own_kernels),
      cmocka_unit_test_teardown(a_trace_callback_turns_them_off_and_sees_every_call, trace_off),
      cmocka_unit_test(a_kernel_registered_later_takes_over_until_dropped),
      cmocka_unit_test(a_dispatch_key_guard_turns_them_off),
      cmocka_unit_test_teardown(empty_like_direct_matches_the_dispatched_call, trace_off),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
