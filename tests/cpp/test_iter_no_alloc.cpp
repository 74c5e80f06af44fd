// build() and a serial for_each never touch the heap: this program counts
// every operator new while it builds iterators over defined tensors.
#include <atomic>
#include <cstdlib>
#include <new>

#include "core/runtime/thread_count.h"
#include "iter_testing.h"

namespace {
std::atomic<long> g_news{0};
}  // namespace

// The replacements pair malloc with free on purpose; GCC cannot tell they
// are the one pair of this program and warns at some optimization levels.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) {
  g_news.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

using namespace testing;
using st::TensorIterator;

namespace {

// Builds and runs one copy; returns the operator new calls it made.
long news_for(const Tensor& out, const Tensor& in) {
  const long before = g_news.load();
  const TensorIterator it = TensorIterator::copy(out, in);
  it.for_each(ByteCopyLoop{out.itemsize()});
  return g_news.load() - before;
}

}  // namespace

static void build_and_serial_for_each_do_not_allocate(void**) {
  st::set_num_threads(1);
  const ScalarType f = ScalarType::Float32;
  Tensor out = contiguous_tensor({4, 5, 6}, f);
  Tensor contiguous = contiguous_tensor({4, 5, 6}, f);
  Tensor transposed = st::permute(contiguous_tensor({6, 4, 5}, f), {1, 2, 0});
  Tensor flipped = st::flip(contiguous_tensor({4, 5, 6}, f), 1);
  Tensor broadcast = contiguous_tensor({5, 1}, f);
  Tensor out25 = contiguous_tensor(DimVector(25, 1), f), in25 = contiguous_tensor(DimVector(25, 1), f);
  assert_int_equal(news_for(out, contiguous), 0);
  assert_int_equal(news_for(out, transposed), 0);
  assert_int_equal(news_for(out, flipped), 0);
  assert_int_equal(news_for(out, broadcast), 0);
  assert_int_equal(news_for(out25, in25), 0);
  // The counter itself works (a direct call, which no optimizer removes).
  const long before = g_news.load();
  ::operator delete(::operator new(16));
  assert_int_equal(g_news.load() - before, 1);
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(build_and_serial_for_each_do_not_allocate),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
