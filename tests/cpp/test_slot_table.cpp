// The slot table (api/slot_table.h), through both of its users: the
// handle table of tensors and the table of copy plans. The caller's
// references and the calls' pins counted apart (references past the
// word's own field included), and slot reuse: the lock-free free list and
// the per-thread slot caches in front of it, under concurrent insert and
// release from several threads (ThreadSanitizer builds run this too). Each
// handle must stay distinct while live, pin to its own value, and be dead
// once released; a slot is emptied exactly when its last reference and
// its last pin are gone; a thread's cached slots go back to the shared
// list when it ends, and so do slots released by its thread_local
// destructors.
// ctest-labels: concurrency
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "api/handle_table.h"
#include "api/plan_table.h"
#include "core/empty.h"
#include "test_seed.h"
// cmocka last: its fail() macro would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using st::DimVector;
using st::Tensor;
using st::api::HandleTable;
using st::api::PlanTable;

namespace {

constexpr uint64_t kIndexMask = 0xffffffffull;
constexpr int kThreadCacheSlots = 32;  // Note [Per-thread slot cache]

Tensor bytes(int64_t n) { return st::empty_cpu(DimVector{n}, DimVector{1}, st::ScalarType::UInt8); }

// The two users of the table. A value is told apart from every other live
// one by its address (identity), and read() dereferences it, so that a
// sanitizer build sees any use of a freed one.
struct Tensors {
  using Table = HandleTable;
  using Value = Tensor;
  static Value make() { return bytes(16); }
  static const void* identity(const Value& t) { return t.impl(); }
  static bool read(const Value& t) { return t.numel() == 16; }
};

struct Plans {
  using Table = PlanTable;
  using Value = std::unique_ptr<const st::ops::CopyPlan>;
  static Value make() {
    const Tensor t = bytes(16);
    return std::make_unique<const st::ops::CopyPlan>(t, t, nullptr, st::PlanEffort::Estimate);
  }
  static const void* identity(const Value& p) { return p.get(); }
  static bool read(const Value& p) {
    const Tensor t = bytes(16);
    p->check_operands(t, t);  // throws unless made for 16 bytes
    return true;
  }
};

// A live handle and the identity of its value.
struct Made {
  uint64_t id;
  const void* value;
};

template <class Use>
Made make_handle() {
  typename Use::Value v = Use::make();
  const void* identity = Use::identity(v);
  return Made{Use::Table::instance().insert(std::move(v)).id, identity};
}

// Whether `m.id` pins to its own value (and drops the pin again).
template <class Use>
bool pins_to(const Made& m) {
  st_status why;
  const typename Use::Value* v = nullptr;
  typename Use::Table::Slot* slot = Use::Table::instance().pin(m.id, &v, &why);
  if (!slot) return false;
  const bool same = Use::identity(*v) == m.value && Use::read(*v);
  Use::Table::instance().unpin(slot, m.id);
  return same;
}

template <class Use>
bool is_dead(uint64_t id) {
  st_status why;
  const typename Use::Value* v = nullptr;
  return Use::Table::instance().pin(id, &v, &why) == nullptr && why == ST_ERROR_INVALID_HANDLE;
}

// Pins `id`, which must be live; *v receives its value.
template <class Use>
typename Use::Table::Slot* pin_live(uint64_t id, const typename Use::Value** v) {
  st_status why;
  typename Use::Table::Slot* slot = Use::Table::instance().pin(id, v, &why);
  assert_non_null(slot);
  return slot;
}

// Inserts values on this thread until one lands on `id`'s slot (at most a
// full thread cache and one more: an emptied slot is filed on top of the
// cache, or on top of the shared list when the cache is full), then
// releases them. True when one does, one generation on: the slot was
// emptied and filed for reuse. False while the slot is held.
template <class Use>
bool slot_was_emptied(uint64_t id) {
  auto& table = Use::Table::instance();
  std::vector<uint64_t> taken;
  bool landed = false, next_generation = false;
  for (int i = 0; i <= kThreadCacheSlots && !landed; ++i) {
    const uint64_t fresh = table.insert(Use::make()).id;
    taken.push_back(fresh);
    landed = (fresh & kIndexMask) == (id & kIndexMask);
    next_generation = landed && (fresh >> 32) == (id >> 32) + 1;
  }
  for (uint64_t fresh : taken) assert_int_equal(table.release(fresh), ST_OK);
  return next_generation;
}

// Runs worker(0), …, worker(n − 1) on n threads and waits for them.
template <class Worker>
void on_threads(int n, Worker worker) {
  std::vector<std::thread> threads;
  for (int t = 0; t < n; ++t) threads.emplace_back(worker, t);
  for (std::thread& t : threads) t.join();
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

template <class Use>
void a_release_never_spends_a_pin(void**) {
  auto& table = Use::Table::instance();
  const Made m = make_handle<Use>();
  const typename Use::Value* v = nullptr;
  auto* slot = pin_live<Use>(m.id, &v);
  assert_int_equal(table.release(m.id), ST_OK);
  // The caller holds nothing now: every use of the id is refused ...
  assert_int_equal(table.release(m.id), ST_ERROR_INVALID_HANDLE);
  assert_int_equal(table.retain(m.id), ST_ERROR_INVALID_HANDLE);
  assert_true(is_dead<Use>(m.id));
  assert_false(table.pin_to_reference(slot, m.id));
  // ... but the pinned value lives until the pin goes.
  assert_false(slot_was_emptied<Use>(m.id));
  assert_true(Use::identity(*v) == m.value && Use::read(*v));
  table.unpin(slot, m.id);
  assert_true(slot_was_emptied<Use>(m.id));
}

template <class Use>
void a_pin_turned_into_a_reference_is_released_as_one(void**) {
  auto& table = Use::Table::instance();
  const Made m = make_handle<Use>();
  const typename Use::Value* v = nullptr;
  auto* slot = pin_live<Use>(m.id, &v);
  assert_true(table.pin_to_reference(slot, m.id));
  assert_int_equal(table.release(m.id), ST_OK);
  assert_false(slot_was_emptied<Use>(m.id));
  assert_true(pins_to<Use>(m));
  assert_int_equal(table.release(m.id), ST_OK);
  assert_true(slot_was_emptied<Use>(m.id));
  assert_int_equal(table.release(m.id), ST_ERROR_INVALID_HANDLE);
}

// More references than the word's own field holds (4095) travel through the
// slot's reserve; each must still be released exactly once, with pins
// coming and going in between.
template <class Use>
void references_past_the_word_are_counted_exactly(void**) {
  auto& table = Use::Table::instance();
  const Made m = make_handle<Use>();
  constexpr int kExtra = 3 * 4096 + 7;
  for (int i = 0; i < kExtra; ++i) {
    assert_int_equal(table.retain(m.id), ST_OK);
    if (i % 1000 == 0) assert_true(pins_to<Use>(m));
  }
  const typename Use::Value* v = nullptr;
  auto* slot = pin_live<Use>(m.id, &v);
  for (int i = 0; i < kExtra; ++i) {
    assert_int_equal(table.release(m.id), ST_OK);
    if (i % 999 == 0) assert_true(pins_to<Use>(m));
  }
  assert_true(pins_to<Use>(m));
  assert_int_equal(table.release(m.id), ST_OK);  // the first reference
  assert_int_equal(table.release(m.id), ST_ERROR_INVALID_HANDLE);
  assert_false(slot_was_emptied<Use>(m.id));
  table.unpin(slot, m.id);
  assert_true(slot_was_emptied<Use>(m.id));
}

// Threads retaining and releasing one handle around the edge of the word's
// field, with pins in between: every move through the reserve races the
// fast paths.
template <class Use>
void threads_crossing_the_reserve_edge_keep_the_count(void**) {
  auto& table = Use::Table::instance();
  const Made m = make_handle<Use>();
  for (int i = 0; i < 4090; ++i) assert_int_equal(table.retain(m.id), ST_OK);
  constexpr int kThreads = 4, kSteps = 4000;
  std::atomic<int> wrong{0};
  auto worker = [&](int me) {
    for (int step = 0; step < kSteps; ++step) {
      const int n = 1 + (step + me) % 9;
      for (int i = 0; i < n; ++i)
        if (table.retain(m.id) != ST_OK) ++wrong;
      if (!pins_to<Use>(m)) ++wrong;
      for (int i = 0; i < n; ++i)
        if (table.release(m.id) != ST_OK) ++wrong;
    }
  };
  on_threads(kThreads, worker);
  assert_int_equal(wrong.load(), 0);
  for (int i = 0; i < 4090; ++i) assert_int_equal(table.release(m.id), ST_OK);
  assert_false(slot_was_emptied<Use>(m.id));
  assert_int_equal(table.release(m.id), ST_OK);
  assert_int_equal(table.release(m.id), ST_ERROR_INVALID_HANDLE);
  assert_true(slot_was_emptied<Use>(m.id));
}

// 2^19 − 1 pins at once is the most a handle takes; the next call on it is
// answered with OUT_OF_MEMORY until one of them ends.
template <class Use>
void a_handle_takes_at_most_two_to_the_nineteen_minus_one_pins(void**) {
  auto& table = Use::Table::instance();
  const Made m = make_handle<Use>();
  constexpr int kMostPins = (1 << 19) - 1;
  std::vector<typename Use::Table::Slot*> slots;
  st_status why = ST_OK;
  const typename Use::Value* v = nullptr;
  for (int i = 0; i < kMostPins; ++i) {
    auto* slot = table.pin(m.id, &v, &why);
    if (!slot) break;
    slots.push_back(slot);
  }
  assert_int_equal(slots.size(), kMostPins);
  assert_null(table.pin(m.id, &v, &why));
  assert_int_equal(why, ST_ERROR_OUT_OF_MEMORY);
  assert_int_equal(table.retain(m.id), ST_OK);  // references are counted apart
  assert_int_equal(table.release(m.id), ST_OK);
  table.unpin(slots.back(), m.id);
  slots.pop_back();
  assert_true(pins_to<Use>(m));
  for (auto* slot : slots) table.unpin(slot, m.id);
  assert_int_equal(table.release(m.id), ST_OK);
  assert_true(is_dead<Use>(m.id));
}

template <class Use>
void a_reused_slot_gets_a_new_generation(void**) {
  auto& table = Use::Table::instance();
  const Made first = make_handle<Use>();
  assert_int_equal(table.release(first.id), ST_OK);
  const Made second = make_handle<Use>();
  // This thread's cache hands the same slot back, one generation on.
  assert_int_equal(second.id & kIndexMask, first.id & kIndexMask);
  assert_int_equal(second.id >> 32, (first.id >> 32) + 1);
  assert_true(is_dead<Use>(first.id));
  assert_true(pins_to<Use>(second));
  assert_int_equal(table.release(second.id), ST_OK);
  assert_int_equal(table.release(second.id), ST_ERROR_INVALID_HANDLE);
}

// More handles than a thread's cache holds, so slots also travel through
// the shared list; half of each round's handles are released by another
// thread, so slots move between threads' caches.
template <class Use>
void threads_inserting_and_releasing_keep_handles_distinct(void**) {
  constexpr int kThreads = 4, kRounds = 40, kPerThread = 100;
  const uint64_t seed = test_seed("slot table threads");
  const int64_t live_before = Use::Table::instance().live_count();
  std::vector<std::vector<Made>> made(kThreads);
  std::atomic<int> wrong{0};
  Barrier barrier(kThreads);
  auto worker = [&](int me) {
    std::mt19937_64 rng(seed + static_cast<uint64_t>(me));
    auto& table = Use::Table::instance();
    for (int round = 0; round < kRounds; ++round) {
      for (int i = 0; i < kPerThread; ++i) made[me].push_back(make_handle<Use>());
      barrier.wait();
      if (me == 0) {  // every live handle has its own slot
        std::set<uint64_t> slots;
        for (const auto& handles : made)
          for (const Made& m : handles) slots.insert(m.id & kIndexMask);
        if (slots.size() != static_cast<size_t>(kThreads * kPerThread)) ++wrong;
      }
      barrier.wait();
      // Release the second half of the next thread's handles, then the first half of ours.
      std::vector<Made>& next = made[(me + 1) % kThreads];
      std::vector<Made> theirs(next.begin() + kPerThread / 2, next.end());
      std::shuffle(theirs.begin(), theirs.end(), rng);
      barrier.wait();  // everyone has read the next thread's handles before anyone shrinks its list
      next.resize(kPerThread / 2);
      for (const Made& m : theirs) {
        if (!pins_to<Use>(m)) ++wrong;
        if (table.release(m.id) != ST_OK || !is_dead<Use>(m.id)) ++wrong;
      }
      barrier.wait();
      std::vector<Made> mine = made[me];
      made[me].clear();
      std::shuffle(mine.begin(), mine.end(), rng);
      for (const Made& m : mine) {
        if (!pins_to<Use>(m)) ++wrong;
        if (table.release(m.id) != ST_OK || !is_dead<Use>(m.id)) ++wrong;
      }
      barrier.wait();
    }
  };
  on_threads(kThreads, worker);
  assert_int_equal(wrong.load(), 0);
  assert_int_equal(Use::Table::instance().live_count(), live_before);
}

// Threads that insert and release as fast as they can, each keeping a
// changing set of live handles around the size of its cache: the shared
// list's compare-and-swaps race each other (the ABA case included).
template <class Use>
void racing_threads_never_share_a_slot(void**) {
  constexpr int kThreads = 4, kSteps = 20000;
  const uint64_t seed = test_seed("slot table race");
  const int64_t live_before = Use::Table::instance().live_count();
  std::atomic<int> wrong{0};
  auto worker = [&](int me) {
    std::mt19937_64 rng(seed ^ (0x9e3779b97f4a7c15ull * static_cast<uint64_t>(me + 1)));
    auto& table = Use::Table::instance();
    std::vector<Made> live;
    for (int step = 0; step < kSteps; ++step) {
      if (live.empty() || (live.size() < 64 && rng() % 2 == 0)) {
        live.push_back(make_handle<Use>());
      } else {
        const size_t k = rng() % live.size();
        const Made m = live[k];
        live[k] = live.back();
        live.pop_back();
        if (!pins_to<Use>(m)) ++wrong;  // another thread's value would be another object
        if (table.release(m.id) != ST_OK) ++wrong;
      }
    }
    for (const Made& m : live) {
      if (!pins_to<Use>(m) || table.release(m.id) != ST_OK) ++wrong;
    }
  };
  on_threads(kThreads, worker);
  assert_int_equal(wrong.load(), 0);
  assert_int_equal(Use::Table::instance().live_count(), live_before);
}

template <class Use>
void slots_cached_by_a_thread_come_back_when_it_ends(void**) {
  constexpr int kCount = 10;  // fewer than a cache holds: all of them stay in the first thread's cache
  std::set<uint64_t> first_slots, second_slots;
  auto round = [](std::set<uint64_t>* slots) {
    auto& table = Use::Table::instance();
    std::vector<uint64_t> ids;
    for (int i = 0; i < kCount; ++i) ids.push_back(make_handle<Use>().id);
    for (uint64_t id : ids) {
      slots->insert(id & kIndexMask);
      table.release(id);
    }
  };
  std::thread(round, &first_slots).join();
  // A new thread starts with an empty cache, so it takes from the shared
  // list, where the first thread's slots went when it ended.
  std::thread(round, &second_slots).join();
  assert_true(first_slots == second_slots);
}

// A thread whose only use of the table is a release from one of its
// thread_local destructors gives the slot back to the shared list.
struct ReleaseAtThreadExit {
  uint64_t id = 0;
  st_status (*release)(uint64_t id) = nullptr;
  ~ReleaseAtThreadExit() {
    if (id) release(id);
  }
};
thread_local ReleaseAtThreadExit t_release_at_exit;

template <class Use>
void a_release_from_a_thread_local_destructor_gives_the_slot_back(void**) {
#if defined(__MINGW32__) && !defined(__clang__)
  // This program's own thread_local is emulated there (emutls): winpthreads
  // frees it when the thread's function returns, and mingw-w64 runs its
  // destructor later, at the thread's detach, on the freed object.
  print_message("skipped: on MinGW this program's thread_local is freed before its destructor runs\n");
  skip();
#endif
  auto& table = Use::Table::instance();
  const int64_t live_before = table.live_count();
  std::set<uint64_t> slots;
  for (int round = 0; round < 200; ++round) {
    const uint64_t id = make_handle<Use>().id;
    if (round >= 100) slots.insert(id & kIndexMask);
    std::thread([id] {
      t_release_at_exit.release = [](uint64_t dying) { return Use::Table::instance().release(dying); };
      t_release_at_exit.id = id;
    }).join();
    assert_true(is_dead<Use>(id));
  }
  assert_int_equal(table.live_count(), live_before);
  // Once this thread's own cache is empty, each round reuses the slot the
  // last thread gave back.
  assert_true(slots.size() <= 2);
}

// Each test once per user of the table.
#define FOR_BOTH_TABLES(test)                                                               \
  CMUnitTest{"tensors: " #test, test<Tensors>, nullptr, nullptr, nullptr}, CMUnitTest { \
    "plans: " #test, test<Plans>, nullptr, nullptr, nullptr                                \
  }

int main() {
  const struct CMUnitTest tests[] = {
      FOR_BOTH_TABLES(a_release_never_spends_a_pin),
      FOR_BOTH_TABLES(a_pin_turned_into_a_reference_is_released_as_one),
      FOR_BOTH_TABLES(references_past_the_word_are_counted_exactly),
      FOR_BOTH_TABLES(threads_crossing_the_reserve_edge_keep_the_count),
      FOR_BOTH_TABLES(a_handle_takes_at_most_two_to_the_nineteen_minus_one_pins),
      FOR_BOTH_TABLES(a_reused_slot_gets_a_new_generation),
      FOR_BOTH_TABLES(threads_inserting_and_releasing_keep_handles_distinct),
      FOR_BOTH_TABLES(racing_threads_never_share_a_slot),
      FOR_BOTH_TABLES(slots_cached_by_a_thread_come_back_when_it_ends),
      FOR_BOTH_TABLES(a_release_from_a_thread_local_destructor_gives_the_slot_back),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
