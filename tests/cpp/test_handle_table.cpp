// The handle table: the caller's references and the calls' pins counted
// apart (references past the word's own field included), and slot reuse:
// the lock-free free list and the per-thread slot caches in front of it,
// under concurrent insert and release from several threads
// (ThreadSanitizer builds run this too). Each handle must stay distinct
// while live, pin to its own tensor, and be dead once released; a thread's
// cached slots go back to the shared list when it ends, and so do slots
// released by its thread_local destructors.
// ctest-labels: concurrency
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "api/handle_table.h"
#include "core/contiguity.h"
#include "core/empty.h"
#include "test_seed.h"
// cmocka last: its fail() macro would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using st::DimVector;
using st::Tensor;
using st::api::HandleTable;

namespace {

constexpr uint64_t kIndexMask = 0xffffffffull;

Tensor tensor_of_size(int64_t n) {
  return st::empty_cpu(DimVector{n}, DimVector{1}, st::ScalarType::UInt8);
}

// Whether `id` pins to a tensor of `n` elements (and drops the pin again).
bool pins_to(uint64_t id, int64_t n) {
  st_status why;
  const Tensor* t = nullptr;
  HandleTable::Slot* slot = HandleTable::instance().pin(id, &t, &why);
  if (!slot) return false;
  const bool same = t->numel() == n;
  HandleTable::instance().unpin(slot, id);
  return same;
}

bool is_dead(uint64_t id) {
  st_status why;
  const Tensor* t = nullptr;
  return HandleTable::instance().pin(id, &t, &why) == nullptr && why == ST_ERROR_INVALID_HANDLE;
}

// A reusable barrier for a fixed number of threads.
class Barrier {
 public:
  explicit Barrier(int n) : n_(n) {}
  void wait() {
    std::unique_lock<std::mutex> lock(m_);
    const int generation = generation_;
    if (++arrived_ == n_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return generation_ != generation; });
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int n_, arrived_ = 0, generation_ = 0;
};

}  // namespace

// A storage whose memory release counts into *ctx: tells when the tensor went.
Tensor counted_tensor(std::atomic<int>* freed) {
  static unsigned char memory[16];
  st::MemoryRelease release;
  release.run = [](const st::MemoryRelease& r) { static_cast<std::atomic<int>*>(r.ctx)->fetch_add(1); };
  release.ctx = freed;
  st::Storage storage = st::Storage::make(memory, sizeof memory, st::cpu_device(), release);
  return Tensor::make(std::move(storage), DimVector{16}, DimVector{1}, 0, st::ScalarType::UInt8);
}

// Pins `id`, which must be live; *t receives its tensor.
HandleTable::Slot* pin_live(uint64_t id, const Tensor** t) {
  st_status why;
  HandleTable::Slot* slot = HandleTable::instance().pin(id, t, &why);
  assert_non_null(slot);
  return slot;
}

static void a_release_never_spends_a_pin(void**) {
  HandleTable& table = HandleTable::instance();
  std::atomic<int> freed{0};
  const uint64_t id = table.insert(counted_tensor(&freed)).id;
  const Tensor* t = nullptr;
  HandleTable::Slot* slot = pin_live(id, &t);
  assert_int_equal(table.release(id), ST_OK);
  // The caller holds nothing now: every use of the id is refused ...
  assert_int_equal(table.release(id), ST_ERROR_INVALID_HANDLE);
  assert_int_equal(table.retain(id), ST_ERROR_INVALID_HANDLE);
  assert_true(is_dead(id));
  assert_false(table.pin_to_reference(slot, id));
  // ... but the pinned tensor lives until the pin goes.
  assert_int_equal(freed.load(), 0);
  assert_int_equal(t->numel(), 16);
  table.unpin(slot, id);
  assert_int_equal(freed.load(), 1);
}

static void a_pin_turned_into_a_reference_is_released_as_one(void**) {
  HandleTable& table = HandleTable::instance();
  std::atomic<int> freed{0};
  const uint64_t id = table.insert(counted_tensor(&freed)).id;
  const Tensor* t = nullptr;
  HandleTable::Slot* slot = pin_live(id, &t);
  assert_true(table.pin_to_reference(slot, id));
  assert_int_equal(table.release(id), ST_OK);
  assert_int_equal(freed.load(), 0);
  assert_int_equal(table.release(id), ST_OK);
  assert_int_equal(freed.load(), 1);
  assert_int_equal(table.release(id), ST_ERROR_INVALID_HANDLE);
}

// More references than the word's own field holds (4095) travel through the
// slot's reserve; each must still be released exactly once, with pins
// coming and going in between.
static void references_past_the_word_are_counted_exactly(void**) {
  HandleTable& table = HandleTable::instance();
  std::atomic<int> freed{0};
  const uint64_t id = table.insert(counted_tensor(&freed)).id;
  constexpr int kExtra = 3 * 4096 + 7;
  for (int i = 0; i < kExtra; ++i) {
    assert_int_equal(table.retain(id), ST_OK);
    if (i % 1000 == 0) assert_true(pins_to(id, 16));
  }
  const Tensor* t = nullptr;
  HandleTable::Slot* slot = pin_live(id, &t);
  for (int i = 0; i < kExtra; ++i) {
    assert_int_equal(table.release(id), ST_OK);
    if (i % 999 == 0) assert_true(pins_to(id, 16));
  }
  assert_true(pins_to(id, 16));
  assert_int_equal(table.release(id), ST_OK);  // the first reference
  assert_int_equal(table.release(id), ST_ERROR_INVALID_HANDLE);
  assert_int_equal(freed.load(), 0);
  table.unpin(slot, id);
  assert_int_equal(freed.load(), 1);
}

// Threads retaining and releasing one handle around the edge of the word's
// field, with pins in between: every move through the reserve races the
// fast paths.
static void threads_crossing_the_reserve_edge_keep_the_count(void**) {
  HandleTable& table = HandleTable::instance();
  std::atomic<int> freed{0};
  const uint64_t id = table.insert(counted_tensor(&freed)).id;
  for (int i = 0; i < 4090; ++i) assert_int_equal(table.retain(id), ST_OK);
  constexpr int kThreads = 4, kSteps = 4000;
  std::atomic<int> wrong{0};
  auto worker = [&](int me) {
    for (int step = 0; step < kSteps; ++step) {
      const int n = 1 + (step + me) % 9;
      for (int i = 0; i < n; ++i)
        if (table.retain(id) != ST_OK) ++wrong;
      if (!pins_to(id, 16)) ++wrong;
      for (int i = 0; i < n; ++i)
        if (table.release(id) != ST_OK) ++wrong;
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(worker, t);
  for (std::thread& t : threads) t.join();
  assert_int_equal(wrong.load(), 0);
  for (int i = 0; i < 4091; ++i) assert_int_equal(table.release(id), ST_OK);
  assert_int_equal(table.release(id), ST_ERROR_INVALID_HANDLE);
  assert_int_equal(freed.load(), 1);
}

// 2^19 − 1 pins at once is the most a handle takes; the next call on it is
// answered with OUT_OF_MEMORY until one of them ends.
static void a_handle_takes_at_most_two_to_the_nineteen_minus_one_pins(void**) {
  HandleTable& table = HandleTable::instance();
  const uint64_t id = table.insert(tensor_of_size(5)).id;
  constexpr int kMostPins = (1 << 19) - 1;
  std::vector<HandleTable::Slot*> slots;
  st_status why = ST_OK;
  const Tensor* t = nullptr;
  for (int i = 0; i < kMostPins; ++i) {
    HandleTable::Slot* slot = table.pin(id, &t, &why);
    if (!slot) break;
    slots.push_back(slot);
  }
  assert_int_equal(slots.size(), kMostPins);
  assert_null(table.pin(id, &t, &why));
  assert_int_equal(why, ST_ERROR_OUT_OF_MEMORY);
  assert_int_equal(table.retain(id), ST_OK);  // references are counted apart
  assert_int_equal(table.release(id), ST_OK);
  table.unpin(slots.back(), id);
  slots.pop_back();
  assert_true(pins_to(id, 5));
  for (HandleTable::Slot* slot : slots) table.unpin(slot, id);
  assert_int_equal(table.release(id), ST_OK);
  assert_true(is_dead(id));
}

static void a_reused_slot_gets_a_new_generation(void**) {
  HandleTable& table = HandleTable::instance();
  const st_tensor first = table.insert(tensor_of_size(3));
  assert_int_equal(table.release(first.id), ST_OK);
  const st_tensor second = table.insert(tensor_of_size(4));
  // This thread's cache hands the same slot back, one generation on.
  assert_int_equal(second.id & kIndexMask, first.id & kIndexMask);
  assert_int_equal(second.id >> 32, (first.id >> 32) + 1);
  assert_true(is_dead(first.id));
  assert_true(pins_to(second.id, 4));
  assert_int_equal(table.release(second.id), ST_OK);
  assert_int_equal(table.release(second.id), ST_ERROR_INVALID_HANDLE);
}

// More handles than a thread's cache holds, so slots also travel through
// the shared list; half of each round's handles are released by another
// thread, so slots move between threads' caches.
static void threads_inserting_and_releasing_keep_handles_distinct(void**) {
  constexpr int kThreads = 4, kRounds = 40, kPerThread = 100;
  const uint64_t seed = test_seed("handle table threads");
  const int64_t live_before = HandleTable::instance().live_count();
  std::vector<std::vector<uint64_t>> made(kThreads);
  std::atomic<int> wrong{0};
  Barrier barrier(kThreads);
  auto worker = [&](int me) {
    std::mt19937_64 rng(seed + static_cast<uint64_t>(me));
    HandleTable& table = HandleTable::instance();
    for (int round = 0; round < kRounds; ++round) {
      // Each handle's tensor has as many elements as its owner's number + 1.
      for (int i = 0; i < kPerThread; ++i) made[me].push_back(table.insert(tensor_of_size(me + 1)).id);
      barrier.wait();
      if (me == 0) {  // every live handle has its own slot
        std::set<uint64_t> slots;
        for (const auto& ids : made)
          for (uint64_t id : ids) slots.insert(id & kIndexMask);
        if (slots.size() != static_cast<size_t>(kThreads * kPerThread)) ++wrong;
      }
      barrier.wait();
      // Release the second half of the next thread's handles, then the first half of ours.
      std::vector<uint64_t>& next = made[(me + 1) % kThreads];
      std::vector<uint64_t> theirs(next.begin() + kPerThread / 2, next.end());
      std::shuffle(theirs.begin(), theirs.end(), rng);
      barrier.wait();  // everyone has read the next thread's ids before anyone shrinks its list
      next.resize(kPerThread / 2);
      for (uint64_t id : theirs) {
        if (!pins_to(id, (me + 1) % kThreads + 1)) ++wrong;
        if (table.release(id) != ST_OK || !is_dead(id)) ++wrong;
      }
      barrier.wait();
      std::vector<uint64_t> mine = made[me];
      made[me].clear();
      std::shuffle(mine.begin(), mine.end(), rng);
      for (uint64_t id : mine) {
        if (!pins_to(id, me + 1)) ++wrong;
        if (table.release(id) != ST_OK || !is_dead(id)) ++wrong;
      }
      barrier.wait();
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(worker, t);
  for (std::thread& t : threads) t.join();
  assert_int_equal(wrong.load(), 0);
  assert_int_equal(HandleTable::instance().live_count(), live_before);
}

// Threads that insert and release as fast as they can, each keeping a
// changing set of live handles around the size of its cache: the shared
// list's compare-and-swaps race each other (the ABA case included).
static void racing_threads_never_share_a_slot(void**) {
  constexpr int kThreads = 4, kSteps = 20000;
  const uint64_t seed = test_seed("handle table race");
  const int64_t live_before = HandleTable::instance().live_count();
  std::atomic<int> wrong{0};
  auto worker = [&](int me) {
    std::mt19937_64 rng(seed ^ (0x9e3779b97f4a7c15ull * static_cast<uint64_t>(me + 1)));
    HandleTable& table = HandleTable::instance();
    std::vector<uint64_t> live;
    for (int step = 0; step < kSteps; ++step) {
      if (live.empty() || (live.size() < 64 && rng() % 2 == 0)) {
        live.push_back(table.insert(tensor_of_size(me + 1)).id);
      } else {
        const size_t k = rng() % live.size();
        const uint64_t id = live[k];
        live[k] = live.back();
        live.pop_back();
        if (!pins_to(id, me + 1)) ++wrong;  // another thread's tensor would have another size
        if (table.release(id) != ST_OK) ++wrong;
      }
    }
    for (uint64_t id : live) {
      if (!pins_to(id, me + 1) || table.release(id) != ST_OK) ++wrong;
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(worker, t);
  for (std::thread& t : threads) t.join();
  assert_int_equal(wrong.load(), 0);
  assert_int_equal(HandleTable::instance().live_count(), live_before);
}

static void slots_cached_by_a_thread_come_back_when_it_ends(void**) {
  constexpr int kCount = 10;  // fewer than a cache holds: all of them stay in the first thread's cache
  std::set<uint64_t> first_slots, second_slots;
  std::thread first([&] {
    HandleTable& table = HandleTable::instance();
    std::vector<uint64_t> ids;
    for (int i = 0; i < kCount; ++i) ids.push_back(table.insert(tensor_of_size(1)).id);
    for (uint64_t id : ids) {
      first_slots.insert(id & kIndexMask);
      table.release(id);
    }
  });
  first.join();
  // A new thread starts with an empty cache, so it takes from the shared
  // list, where the first thread's slots went when it ended.
  std::thread second([&] {
    HandleTable& table = HandleTable::instance();
    std::vector<uint64_t> ids;
    for (int i = 0; i < kCount; ++i) ids.push_back(table.insert(tensor_of_size(1)).id);
    for (uint64_t id : ids) {
      second_slots.insert(id & kIndexMask);
      table.release(id);
    }
  });
  second.join();
  assert_true(first_slots == second_slots);
}

// A thread whose only use of the table is a release from one of its
// thread_local destructors gives the slot back to the shared list.
struct ReleaseAtThreadExit {
  uint64_t id = 0;
  ~ReleaseAtThreadExit() {
    if (id) HandleTable::instance().release(id);
  }
};
thread_local ReleaseAtThreadExit t_release_at_exit;

static void a_release_from_a_thread_local_destructor_gives_the_slot_back(void**) {
  HandleTable& table = HandleTable::instance();
  const int64_t live_before = table.live_count();
  std::set<uint64_t> slots;
  for (int round = 0; round < 200; ++round) {
    const uint64_t id = table.insert(tensor_of_size(2)).id;
    if (round >= 100) slots.insert(id & kIndexMask);
    std::thread([id] { t_release_at_exit.id = id; }).join();
    assert_true(is_dead(id));
  }
  assert_int_equal(table.live_count(), live_before);
  // Once this thread's own cache is empty, each round reuses the slot the
  // last thread gave back.
  assert_true(slots.size() <= 2);
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_release_never_spends_a_pin),
      cmocka_unit_test(a_pin_turned_into_a_reference_is_released_as_one),
      cmocka_unit_test(references_past_the_word_are_counted_exactly),
      cmocka_unit_test(threads_crossing_the_reserve_edge_keep_the_count),
      cmocka_unit_test(a_handle_takes_at_most_two_to_the_nineteen_minus_one_pins),
      cmocka_unit_test(a_reused_slot_gets_a_new_generation),
      cmocka_unit_test(threads_inserting_and_releasing_keep_handles_distinct),
      cmocka_unit_test(racing_threads_never_share_a_slot),
      cmocka_unit_test(slots_cached_by_a_thread_come_back_when_it_ends),
      cmocka_unit_test(a_release_from_a_thread_local_destructor_gives_the_slot_back),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
