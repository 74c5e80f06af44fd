// Failures of operator new, which the library uses for its bookkeeping
// (tensor and storage records, the handle table, error messages, DLPack
// records): a replacement operator new in this program refuses its k-th
// allocation once armed, and a sequence of C API calls runs for k = 1, 2, ...
// until it completes. Every call that meets the refusal answers
// ST_ERROR_OUT_OF_MEMORY (std::bad_alloc ends at the guard), nothing
// crashes, no handle is issued, and once everything is released every
// object the sequence allocated was deleted.
//
// Tensor data comes from the CPU allocator instead (st_set_cpu_allocator;
// tests/c/test_out_of_memory.c), which this test leaves at the default.
#include <dlpack/dlpack.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>

#include "../c/portable.h"
#include "cmocka_cxx.h"
#include "stride.h"

namespace {

std::atomic<bool> g_armed{false};
std::atomic<long> g_calls{0};    // operator new calls while armed
std::atomic<long> g_fail_at{0};  // the armed call (1-based) that fails
std::atomic<long> g_live{0};     // allocations made and not yet deleted, armed or not

void* counted_new(std::size_t n, std::size_t alignment, bool nothrow) {
  if (g_armed.load(std::memory_order_relaxed) &&
      g_calls.fetch_add(1, std::memory_order_relaxed) + 1 == g_fail_at.load(std::memory_order_relaxed)) {
    if (nothrow) return nullptr;
    throw std::bad_alloc();
  }
  if (n == 0) n = 1;
  void* p = alignment > alignof(std::max_align_t) ? test_aligned_alloc(alignment, n) : std::malloc(n);
  if (!p) {
    if (nothrow) return nullptr;
    throw std::bad_alloc();
  }
  g_live.fetch_add(1, std::memory_order_relaxed);
  return p;
}

// `aligned`: p came from the aligned heap (an operator new with an
// alignment), which Windows keeps apart from malloc's.
void counted_delete(void* p, bool aligned = false) {
  if (!p) return;
  g_live.fetch_sub(1, std::memory_order_relaxed);
  if (aligned) {
    test_aligned_free(p);
  } else {
    std::free(p);
  }
}

}  // namespace

void* operator new(std::size_t n) { return counted_new(n, 0, false); }
void* operator new[](std::size_t n) { return counted_new(n, 0, false); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_new(n, 0, true); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_new(n, 0, true); }
void* operator new(std::size_t n, std::align_val_t a) { return counted_new(n, static_cast<std::size_t>(a), false); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_new(n, static_cast<std::size_t>(a), false); }
void operator delete(void* p) noexcept { counted_delete(p); }
void operator delete[](void* p) noexcept { counted_delete(p); }
void operator delete(void* p, std::size_t) noexcept { counted_delete(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_delete(p); }
void operator delete(void* p, std::align_val_t) noexcept { counted_delete(p, true); }
void operator delete[](void* p, std::align_val_t) noexcept { counted_delete(p, true); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counted_delete(p, true); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counted_delete(p, true); }

namespace {

const st_device kCpu{ST_DEVICE_CPU, 0};
constexpr int kMaxMade = 16;

struct Sequence {
  st_tensor made[kMaxMade];
  int count = 0;
  const char* failed_at = nullptr;
};

// A call that makes a tensor: OK, or OUT_OF_MEMORY with out reset and the
// message naming the call. False when the sequence stops here.
bool made(Sequence* s, const char* name, st_status status, st_tensor out) {
  if (status == ST_OK) {
    assert_true(s->count < kMaxMade);
    s->made[s->count++] = out;
    return true;
  }
  if (status != ST_ERROR_OUT_OF_MEMORY) {
    print_error("%s returned %s: %s\n", name, st_status_name(status), st_last_error_message());
    fail();
  }
  assert_int_equal(out.id, 0);
  assert_non_null(std::strstr(st_last_error_message(), name));
  s->failed_at = name;
  return false;
}

bool ok_or_out_of_memory(Sequence* s, const char* name, st_status status) {
  if (status == ST_OK) return true;
  return made(s, name, status, st_tensor{0});
}

void run_sequence(Sequence* s) {
  const int64_t sizes[2] = {4, 6};
  const int64_t flat[1] = {24};
  st_tensor x{1}, xt{1}, xf{1}, sl{1}, c{1}, k{1}, d{1}, r{1}, l{1}, e{1};
  if (!made(s, "st_tensor_create", st_tensor_create(sizes, 2, ST_FLOAT32, kCpu, &x), x)) return;
  float* p = nullptr;
  assert_int_equal(st_tensor_data_ptr(x, reinterpret_cast<void**>(&p)), ST_OK);
  for (int i = 0; i < 24; ++i) p[i] = static_cast<float>(i);
  if (!made(s, "st_transpose", st_transpose(x, 0, 1, &xt), xt)) return;
  if (!made(s, "st_flip", st_flip(x, 1, &xf), xf)) return;
  if (!made(s, "st_slice", st_slice(x, 0, 1, 4, 1, &sl), sl)) return;
  if (!made(s, "st_contiguous", st_contiguous(xt, ST_MEMORY_FORMAT_CONTIGUOUS, &c), c)) return;
  if (!made(s, "st_clone", st_clone(xf, ST_MEMORY_FORMAT_PRESERVE, &k), k)) return;
  float before[24];
  std::memcpy(before, p, sizeof before);
  const st_status copied = st_copy(sl, x, 0);  // a shape mismatch: its message is allocated too
  if (copied == ST_ERROR_OUT_OF_MEMORY) {
    s->failed_at = "st_copy";
    return;
  }
  assert_int_equal(copied, ST_ERROR_SHAPE_MISMATCH);
  if (!ok_or_out_of_memory(s, "st_copy", st_copy(xt, xt, 0))) return;  // the same view: nothing to do
  assert_memory_equal(p, before, sizeof before);
  if (!made(s, "st_to", st_to(x, ST_FLOAT64, kCpu, ST_MEMORY_FORMAT_CONTIGUOUS, &d), d)) return;
  if (!made(s, "st_reshape", st_reshape(xt, flat, 1, &r), r)) return;
  if (!made(s, "st_tensor_create_like", st_tensor_create_like(xt, ST_MEMORY_FORMAT_PRESERVE, &l), l)) return;
  if (!made(s, "st_tensor_from_data", st_tensor_from_data(p, flat, nullptr, 1, ST_FLOAT32, kCpu, nullptr, nullptr, &e),
            e))
    return;
  DLManagedTensor* exported = nullptr;
  const st_status to_dl = st_to_dlpack(x, &exported);
  if (to_dl != ST_OK) {
    assert_null(exported);
    return (void)ok_or_out_of_memory(s, "st_to_dlpack", to_dl);
  }
  exported->deleter(exported);
  if (!ok_or_out_of_memory(s, "st_fill", st_fill(c, 1.5))) return;
  const float* cv = nullptr;
  assert_int_equal(st_tensor_data_ptr(c, (void**)&cv), ST_OK);
  for (int i = 0; i < 24; ++i) assert_true(cv[i] == 1.5f);
}

void release_all(Sequence* s) {
  for (int i = 0; i < s->count; ++i) assert_int_equal(st_tensor_release(s->made[i]), ST_OK);
  s->count = 0;
}

void every_operator_new_failure_is_out_of_memory_and_leaks_nothing(void** state) {
  (void)state;
  // Once unarmed first: what the library builds lazily (the first chunk of
  // handles, dispatch tables) exists before the counting starts.
  Sequence warm;
  run_sequence(&warm);
  assert_null(warm.failed_at);
  release_all(&warm);

  int64_t live_handles = -1;
  assert_int_equal(st_live_tensor_count(&live_handles), ST_OK);
  int failures = 0;
  for (long k = 1;; ++k) {
    const long live_objects = g_live.load();
    g_calls = 0;
    g_fail_at = k;
    g_armed = true;
    Sequence s;
    run_sequence(&s);
    g_armed = false;
    release_all(&s);
    if (g_live.load() != live_objects) {
      print_error("k = %ld (%s): %ld objects allocated and never deleted\n", k, s.failed_at ? s.failed_at : "-",
                  g_live.load() - live_objects);
      fail();
    }
    int64_t live = -1;
    assert_int_equal(st_live_tensor_count(&live), ST_OK);
    assert_int_equal(live, live_handles);
    if (!s.failed_at) {
      assert_true(g_calls.load() < k);  // the k-th allocation never came
      break;
    }
    ++failures;
  }
  print_message("%d allocations of the sequence, each refused once: every call answered ST_ERROR_OUT_OF_MEMORY\n",
                failures);
  assert_true(failures > 10);
}

// A converting copy on two threads whose working memory cannot be had
// writes nothing: it allocates all of it before the first element moves.
// Both layouts that need scratch: a transpose (float16 700x700 transposed
// into float32) and a strided destination (every second float16).
void converting_copies_that_meet_a_failure_write_nothing(void** state) {
  (void)state;
  assert_int_equal(st_set_num_threads(2), ST_OK);
  const int64_t n = 700;
  const int64_t sizes[2] = {n, n};
  const int64_t wide[2] = {n, 2 * n};
  st_tensor src, src_t, dst, wide_dst, every_second;
  assert_int_equal(st_tensor_create(sizes, 2, ST_FLOAT16, kCpu, &src), ST_OK);
  assert_int_equal(st_fill(src, 3.0), ST_OK);
  assert_int_equal(st_transpose(src, 0, 1, &src_t), ST_OK);
  assert_int_equal(st_tensor_create(sizes, 2, ST_FLOAT32, kCpu, &dst), ST_OK);
  assert_int_equal(st_tensor_create(wide, 2, ST_FLOAT16, kCpu, &wide_dst), ST_OK);
  assert_int_equal(st_slice(wide_dst, 1, 0, 2 * n, 2, &every_second), ST_OK);
  float* d = nullptr;
  uint16_t* w = nullptr;
  assert_int_equal(st_tensor_data_ptr(dst, reinterpret_cast<void**>(&d)), ST_OK);
  assert_int_equal(st_tensor_data_ptr(wide_dst, reinterpret_cast<void**>(&w)), ST_OK);
  st_tensor src32;
  assert_int_equal(st_tensor_create(sizes, 2, ST_FLOAT32, kCpu, &src32), ST_OK);
  assert_int_equal(st_fill(src32, 5.0), ST_OK);

  struct Case {
    const char* what;
    st_tensor dst, src;
  } cases[] = {{"float16 transposed into float32", dst, src_t}, {"float32 into every second float16", every_second, src32}};
  for (const Case& c : cases) {
    int refused = 0;
    for (long k = 1;; ++k) {
      for (int64_t i = 0; i < n * n; ++i) d[i] = -1.0f;
      for (int64_t i = 0; i < 2 * n * n; ++i) w[i] = 0xFFFF;  // a NaN no copy writes
      g_calls = 0;
      g_fail_at = k;
      g_armed = true;
      const st_status status = st_copy(c.dst, c.src, 0);
      g_armed = false;
      if (status == ST_OK) break;
      assert_int_equal(status, ST_ERROR_OUT_OF_MEMORY);
      ++refused;
      int64_t written = 0;
      for (int64_t i = 0; i < n * n; ++i) written += d[i] != -1.0f;
      for (int64_t i = 0; i < 2 * n * n; ++i) written += w[i] != 0xFFFF;
      if (written != 0) {
        print_error("%s, allocation %ld refused: %lld elements written before OUT_OF_MEMORY\n", c.what, k,
                    static_cast<long long>(written));
        fail();
      }
    }
    print_message("%s: %d allocations refused, none after a write\n", c.what, refused);
    assert_true(refused >= 1);
    if (&c == &cases[0]) {
      for (int64_t i = 0; i < n * n; ++i) assert_true(d[i] == 3.0f);
    } else {
      for (int64_t i = 0; i < 2 * n * n; ++i) assert_int_equal(w[i], i % 2 == 0 ? 0x4500 : 0xFFFF);  // 5.0 in float16
    }
  }
  for (st_tensor t : {src, src_t, dst, wide_dst, every_second, src32}) assert_int_equal(st_tensor_release(t), ST_OK);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_operator_new_failure_is_out_of_memory_and_leaks_nothing),
      cmocka_unit_test(converting_copies_that_meet_a_failure_write_nothing),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
