// The generational slot table behind every handle of the C interface:
// st_tensor (api/handle_table.h) and st_copy_plan (api/plan_table.h).
//
// An id is (generation << 32) | slot index; generations start at 1, so
// {0} is never issued. Each slot holds one value (a tensor, a plan) and
// one 64-bit word: the generation, the caller's references, and the pins
// of the calls using the handle right now, counted apart (Note
// [References and pins]). Pinning a handle for the length of a call is
// one compare-and-swap on that word, with no lock: it succeeds only while
// the generation matches and the caller holds a reference, so a released
// or forged id is refused. A release beyond the caller's references is
// refused the same way, and a slot's value lives until its last reference
// and its last pin are gone; the step that drops the last one advances
// the generation, so every old id of the slot is dead from then on. Slots
// live in chunks that are never moved or freed. Retired slots wait for
// reuse in a small per-thread cache or on a lock-free stack (Notes
// [Per-thread slot cache] and [Lock-free free list]); only handing out a
// slot never used before takes a mutex.
//
// One class template, one instantiation per handle type, each with its own
// slots; the members are defined here and instantiated once, in the
// handle type's own .cpp (`extern template` beside its alias), so that
// the C calls reach them out of line.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <utility>

#include "core/error.h"
#include "core/macros.h"
#include "core/runtime/platform/thread_exit_state.h"
#include "stride.h"

namespace st {
namespace api {

// T: the value a handle stands for, movable, empty once moved from.
// Handle: the C handle type, a struct of one uint64_t id.
template <typename T, typename Handle>
class SlotTable {
 public:
  struct Slot {
    std::atomic<uint64_t> word{uint64_t{1} << 32};  // generation 1, nothing held
    std::atomic<uint32_t> next_free{0};              // the free list's link: index + 1 of the next slot, 0 ends it
    uint32_t reserve = 0;                            // references beyond the word's field; under reserve_mutex_
    T value;
  };

  static SlotTable& instance() {
    static SlotTable table;  // no state of its own: every member below is static
    return table;
  }

  // A new handle holding one reference. Throws ST_ERROR_OUT_OF_MEMORY when full.
  Handle insert(T value);
  // Adds one reference. Returns ST_OK, ST_ERROR_INVALID_HANDLE, or
  // ST_ERROR_OUT_OF_MEMORY when the handle holds 2^32 − 1 already.
  st_status retain(uint64_t id);
  // Drops one of the caller's references: ST_ERROR_INVALID_HANDLE when the
  // id holds none (a pin is never spent). The value goes once neither
  // references nor pins are left.
  st_status release(uint64_t id);

  // Pins a live handle: returns its slot (for the calls below) and its
  // value in *value, or NULL with the status in *why (INVALID_HANDLE, or
  // OUT_OF_MEMORY when too many calls hold it). The value stays valid
  // until the matching unpin(), whatever releases happen meanwhile.
  Slot* pin(uint64_t id, const T** value, st_status* why);
  void unpin(Slot* slot, uint64_t id);
  // Turns a pin into one of the caller's references to the same handle.
  // False (the pin stays) when the caller holds no reference any more;
  // throws ST_ERROR_OUT_OF_MEMORY when the handle holds 2^32 − 1 already.
  bool pin_to_reference(Slot* slot, uint64_t id);

  // Whether the caller still holds a reference to `id`, whose pin keeps
  // `slot`: one read, for a pin kept across calls (Note [Plan leases]).
  static bool holds_reference(const Slot* slot, uint64_t id) {
    return holds_reference(slot->word.load(std::memory_order_acquire), id);
  }

  // Handles with references left: for leak checks. Counted by a walk over
  // every slot ever used, so that insert and release share no counter.
  int64_t live_count() const;


 private:
  static constexpr uint32_t kChunkBits = 12;
  static constexpr uint32_t kChunkSize = 1u << kChunkBits;  // slots per chunk
  static constexpr uint32_t kMaxChunks = 4096;              // 16M live handles of one type at most
  static constexpr uint32_t kMaxSlots = kMaxChunks * kChunkSize;
  static constexpr uint64_t kIndexMask = 0xffffffffull;
  static constexpr uint32_t kLastGeneration = 0xfffffffeu;  // a slot that reaches it is retired, never reused

  // Note [References and pins]
  // A slot's word is (generation << 32) | R | refs << 19 | pins: the
  // caller's references (12 bits) and the pins of the calls using the handle
  // right now (19 bits: 524,287 calls at once) counted apart, so that a
  // release beyond the caller's references is refused instead of spending a
  // call's pin and freeing the value under it. They share one word so that
  // pinning, releasing and turning a pin into a reference (st_contiguous
  // answering with its argument) each stay one compare-and-swap, and so that
  // exactly one thread sees both counts reach zero: that step advances the
  // generation and frees the value. References past the 12-bit field wait
  // in Slot::reserve, moved in and out in batches of kRefBatch under
  // reserve_mutex_; R is set while the reserve holds any. Whatever would
  // take the field past its top, or below 1 while R is set, takes that slow
  // way, so the field is never 0 while references remain, and "the caller
  // holds a reference" is "the field is not 0".
  static constexpr uint64_t kPinMask = (uint64_t{1} << 19) - 1;
  static constexpr uint64_t kRef = uint64_t{1} << 19;
  static constexpr uint64_t kRefMask = uint64_t{0xfff} << 19;
  static constexpr uint64_t kReserved = uint64_t{1} << 31;
  static constexpr uint64_t kCountMask = 0xffffffffull;  // R, references and pins
  static constexpr uint64_t kFieldRefs = kRefMask >> 19;
  static constexpr uint64_t kRefBatch = 2048;
  static constexpr uint64_t kMaxReserve = 0xffffffffull - kFieldRefs;  // the promise: 2^32 − 1 references

  static uint32_t generation_of(uint64_t w) { return static_cast<uint32_t>(w >> 32); }
  static uint64_t refs_of(uint64_t w) { return (w & kRefMask) >> 19; }
  // Whether word `w` belongs to `id`'s generation and holds a reference of the caller's.
  static bool holds_reference(uint64_t w, uint64_t id) {
    return generation_of(w) == generation_of(id) && (w & kRefMask) != 0;
  }

  struct Chunk {
    Slot slots[kChunkSize];
  };

  static Slot& slot_at(uint32_t index) {
    return chunks_[index >> kChunkBits].load(std::memory_order_acquire)->slots[index & (kChunkSize - 1)];
  }

  static Slot* find_slot(uint64_t id) {
    const uint32_t index = static_cast<uint32_t>(id & kIndexMask);
    const uint32_t chunk = index >> kChunkBits;
    if (generation_of(id) == 0 || chunk >= kMaxChunks) return nullptr;
    Chunk* c = chunks_[chunk].load(std::memory_order_acquire);
    return c ? &c->slots[index & (kChunkSize - 1)] : nullptr;
  }

  // Note [Lock-free free list]
  // Empty slots form a stack (Treiber's) linked through Slot::next_free. The
  // head is one 64-bit word, (tag << 32) | (index + 1), and every push and pop
  // bumps the tag, so a pop that read head A and A's link, then slept while
  // other threads popped A, popped its successor and pushed A again, fails
  // its compare-and-swap on the tag instead of installing a stale link (the
  // ABA problem). Reading the link of a slot another thread has just popped
  // is harmless: slots are never freed, the link is atomic, and the
  // compare-and-swap that would use the stale value fails.
  static void push_free(uint32_t index) {
    Slot& slot = slot_at(index);
    uint64_t head = free_head_.load(std::memory_order_relaxed);
    uint64_t next;
    do {
      slot.next_free.store(static_cast<uint32_t>(head & kIndexMask), std::memory_order_relaxed);
      next = (((head >> 32) + 1) << 32) | (static_cast<uint64_t>(index) + 1);
      // release: the slot's emptied value and its link reach the thread that pops it
    } while (!free_head_.compare_exchange_weak(head, next, std::memory_order_release, std::memory_order_relaxed));
  }

  // An empty slot from the free list, or false when the list is empty.
  static bool pop_free(uint32_t* index) {
    uint64_t head = free_head_.load(std::memory_order_acquire);
    while ((head & kIndexMask) != 0) {
      const uint32_t top = static_cast<uint32_t>(head & kIndexMask) - 1;
      const uint64_t link = slot_at(top).next_free.load(std::memory_order_relaxed);
      const uint64_t next = (((head >> 32) + 1) << 32) | link;
      if (free_head_.compare_exchange_weak(head, next, std::memory_order_acquire, std::memory_order_acquire)) {
        *index = top;
        return true;
      }
    }
    return false;
  }

  // Note [Per-thread slot cache]
  // A compare-and-swap on the shared free list costs as much as a third of
  // creating and releasing a 4×4 tensor, so each thread also keeps up to
  // kThreadCacheSlots empty slots of its own: a last release files its slot
  // there while there is room (else on the shared list), and an insert takes
  // from there first. A thread that makes and drops handles in turn then
  // never touches shared state for its slots. The cache is plain zeroed
  // thread-local data, so reading it needs no initialization check (where
  // thread_local storage may be freed before the thread-exit hooks, it is a
  // block that the hook owns instead: core/runtime/platform/thread_exit_state.h).
  // Its `limit` is 0 until the thread's first insert opens it by arming a
  // ThreadExitHook (core/runtime/platform/platform.h: it runs even after releases from the
  // caller's own thread-specific destructors), which hands the cache to the
  // shared list when the thread ends and closes it for good. Releases never
  // open the cache, so a thread whose only call is a release at its end
  // files the slot on the shared list at once.
  static constexpr uint32_t kThreadCacheSlots = 32;
  struct Cache {
    uint32_t count;  // slots held, on top of each other in `slots`
    uint32_t limit;  // slots it may hold
    bool closed;     // the thread is ending, or has no hook: the cache stays shut
    uint32_t slots[kThreadCacheSlots];
  };

  static void return_thread_cache(Cache& cache) {
    cache.limit = 0;
    cache.closed = true;
    while (cache.count != 0) push_free(cache.slots[--cache.count]);
  }
  using ThreadCache = platform::ThreadExitState<Cache, return_thread_cache>;

  ST_NOINLINE static void open_thread_cache() {
    Cache& cache = ThreadCache::get();
    if (cache.closed) return;
    if (ThreadCache::arm()) {
      cache.limit = kThreadCacheSlots;
    } else {
      cache.closed = true;  // every slot of this thread goes to the shared list
    }
  }

  static void file_free_slot(uint32_t index) {
    Cache& cache = ThreadCache::get();
    if (cache.count < cache.limit) {
      cache.slots[cache.count++] = index;
      return;
    }
    push_free(index);
  }

  static bool take_free_slot(uint32_t* index) {
    Cache& cache = ThreadCache::get();
    if (cache.count != 0) {
      *index = cache.slots[--cache.count];
      return true;
    }
    if (cache.limit == 0) open_thread_cache();
    return pop_free(index);
  }

  // A slot never handed out before, creating its chunk if need be. Runs only
  // when this thread's cache and the free list are empty.
  static uint32_t new_slot() {
    std::lock_guard<std::mutex> lock(grow_mutex_);
    const uint32_t index = next_index_.load(std::memory_order_relaxed);
    ST_CHECK(index < kMaxSlots, ST_ERROR_OUT_OF_MEMORY, "the handle table is full (%u live handles)", kMaxSlots);
    const uint32_t chunk = index >> kChunkBits;
    if (!chunks_[chunk].load(std::memory_order_relaxed)) {
      chunks_[chunk].store(new Chunk(), std::memory_order_release);
    }
    next_index_.store(index + 1, std::memory_order_release);
    return index;
  }

  // Frees the value of a slot whose references and pins have all gone and
  // whose word has moved on to `generation` + 1.
  static void empty_slot(Slot* slot, uint64_t id, uint32_t generation) {
    T dying = std::move(slot->value);
    if (generation + 1 <= kLastGeneration) file_free_slot(static_cast<uint32_t>(id & kIndexMask));
  }  // `dying` frees the value here, once the slot is free for others

  // The word with the caller's references changed by `refs` (+1 or -1) and
  // the pins by `pins` (0 or -1), the slow way: under reserve_mutex_, moving
  // a batch of references between the word's field and the reserve (Note
  // [References and pins]). ST_ERROR_INVALID_HANDLE when the caller holds no
  // reference, ST_ERROR_OUT_OF_MEMORY past 2^32 − 1 references.
  static st_status change_references_slowly(Slot* slot, uint64_t id, int refs, int pins) {
    std::unique_lock<std::mutex> lock(reserve_mutex_);
    uint64_t w = slot->word.load(std::memory_order_relaxed);
    for (;;) {
      if (!holds_reference(w, id)) return ST_ERROR_INVALID_HANDLE;
      const uint64_t field = refs_of(w), reserve = slot->reserve;
      uint64_t moved_out = 0, moved_in = 0;
      if (refs > 0 && field == kFieldRefs) {
        // The reserve stops where field and reserve make 2^32 − 1, so that
        // the fast path never needs to look at it.
        moved_out = kMaxReserve - reserve < kRefBatch ? kMaxReserve - reserve : kRefBatch;
        if (moved_out == 0) return ST_ERROR_OUT_OF_MEMORY;
      } else if (refs < 0 && field == 1) {
        moved_in = reserve < kRefBatch ? reserve : kRefBatch;
      }
      const uint64_t new_field = field + moved_in - moved_out + static_cast<uint64_t>(static_cast<int64_t>(refs));
      const uint64_t new_reserve = reserve + moved_out - moved_in;
      const uint64_t new_pins = (w & kPinMask) + static_cast<uint64_t>(static_cast<int64_t>(pins));
      uint64_t next = (w & ~kCountMask) | (new_reserve != 0 ? kReserved : 0) | new_field << 19 | new_pins;
      const bool emptied = (next & kCountMask) == 0;
      if (emptied) next = (static_cast<uint64_t>(generation_of(w)) + 1) << 32;
      if (slot->word.compare_exchange_weak(w, next, std::memory_order_acq_rel, std::memory_order_relaxed)) {
        slot->reserve = static_cast<uint32_t>(new_reserve);
        lock.unlock();  // freeing the value may run a deleter that calls back into the table
        if (emptied) empty_slot(slot, id, generation_of(w));
        return ST_OK;
      }
    }
  }

  // release() of the last reference, `w` as last read: empties the slot
  // unless a pin or another reference came meanwhile. Out of line, so that
  // the release of any other reference stays short.
  ST_NOINLINE static st_status release_last(Slot* slot, uint64_t id, uint64_t w) {
    const uint64_t next = (static_cast<uint64_t>(generation_of(w)) + 1) << 32;
    if (slot->word.compare_exchange_strong(w, next, std::memory_order_acq_rel, std::memory_order_relaxed)) {
      empty_slot(slot, id, generation_of(w));
      return ST_OK;
    }
    return instance().release(id);  // the word changed: decide again
  }

  // unpin() of the last pin once the caller's references are gone too.
  ST_NOINLINE static void empty_unpinned_slot(Slot* slot, uint64_t id, uint64_t w) {
    // Nothing is held any more, so no other thread changes the word now.
    slot->word.store((static_cast<uint64_t>(generation_of(w)) + 1) << 32, std::memory_order_relaxed);
    empty_slot(slot, id, generation_of(w));
  }

  SlotTable() = default;

  // Static, zero-initialized and never destroyed: releases may come from
  // other threads' exit hooks after this library's own destructors ran.
  static std::atomic<Chunk*> chunks_[kMaxChunks];
  static std::mutex grow_mutex_;             // serializes handing out never-used slots and creating chunks
  static std::atomic<uint32_t> next_index_;  // slots below it have been handed out at least once
  static std::mutex reserve_mutex_;          // serializes every move between a word's field and its reserve
  static std::atomic<uint64_t> free_head_;   // Note [Lock-free free list]
};

template <typename T, typename H>
std::atomic<typename SlotTable<T, H>::Chunk*> SlotTable<T, H>::chunks_[kMaxChunks];
template <typename T, typename H>
std::mutex SlotTable<T, H>::grow_mutex_;
template <typename T, typename H>
std::atomic<uint32_t> SlotTable<T, H>::next_index_{0};
template <typename T, typename H>
std::mutex SlotTable<T, H>::reserve_mutex_;
template <typename T, typename H>
std::atomic<uint64_t> SlotTable<T, H>::free_head_{0};


template <typename T, typename H>
H SlotTable<T, H>::insert(T value) {
  uint32_t index;
  if (!take_free_slot(&index)) index = new_slot();
  Slot& slot = slot_at(index);
  slot.value = std::move(value);
  const uint64_t generation = slot.word.load(std::memory_order_relaxed) >> 32;
  slot.word.store((generation << 32) | kRef, std::memory_order_release);
  return H{(generation << 32) | index};
}

template <typename T, typename H>
st_status SlotTable<T, H>::retain(uint64_t id) {
  Slot* slot = find_slot(id);
  if (!slot) return ST_ERROR_INVALID_HANDLE;
  uint64_t w = slot->word.load(std::memory_order_relaxed);
  for (;;) {
    if (!holds_reference(w, id)) return ST_ERROR_INVALID_HANDLE;
    if (refs_of(w) == kFieldRefs) return change_references_slowly(slot, id, +1, 0);
    if (slot->word.compare_exchange_weak(w, w + kRef, std::memory_order_relaxed, std::memory_order_relaxed))
      return ST_OK;
  }
}

template <typename T, typename H>
st_status SlotTable<T, H>::release(uint64_t id) {
  Slot* slot = find_slot(id);
  if (!slot) return ST_ERROR_INVALID_HANDLE;
  uint64_t w = slot->word.load(std::memory_order_relaxed);
  for (;;) {
    if (!holds_reference(w, id)) return ST_ERROR_INVALID_HANDLE;
    if ((w & kCountMask) == kRef) return release_last(slot, id, w);
    if (refs_of(w) == 1 && (w & kReserved)) return change_references_slowly(slot, id, -1, 0);
    if (slot->word.compare_exchange_weak(w, w - kRef, std::memory_order_release, std::memory_order_relaxed))
      return ST_OK;
  }
}

template <typename T, typename H>
typename SlotTable<T, H>::Slot* SlotTable<T, H>::pin(uint64_t id, const T** value, st_status* why) {
  Slot* slot = find_slot(id);
  if (!slot) {
    *why = ST_ERROR_INVALID_HANDLE;
    return nullptr;
  }
  uint64_t w = slot->word.load(std::memory_order_relaxed);
  for (;;) {
    if (!holds_reference(w, id)) {
      *why = ST_ERROR_INVALID_HANDLE;
      return nullptr;
    }
    if ((w & kPinMask) == kPinMask) {
      *why = ST_ERROR_OUT_OF_MEMORY;
      return nullptr;
    }
    // acquire: pairs with the release that published the slot's value
    if (slot->word.compare_exchange_weak(w, w + 1, std::memory_order_acquire, std::memory_order_relaxed)) {
      *value = &slot->value;
      return slot;
    }
  }
}

template <typename T, typename H>
void SlotTable<T, H>::unpin(Slot* slot, uint64_t id) {
  // The pin keeps the generation: no other step can empty the slot meanwhile.
  const uint64_t w = slot->word.fetch_sub(1, std::memory_order_acq_rel);
  if ((w & kCountMask) == 1) empty_unpinned_slot(slot, id, w);
}

template <typename T, typename H>
bool SlotTable<T, H>::pin_to_reference(Slot* slot, uint64_t id) {
  uint64_t w = slot->word.load(std::memory_order_relaxed);
  for (;;) {
    if (!holds_reference(w, id)) return false;
    if (refs_of(w) == kFieldRefs) {
      const st_status s = change_references_slowly(slot, id, +1, -1);
      ST_CHECK(s != ST_ERROR_OUT_OF_MEMORY, s, "the handle {0x%llx} already holds the most references",
               static_cast<unsigned long long>(id));
      return s == ST_OK;
    }
    // release: dropping the pin ends this call's reads of the slot's value,
    // and the thread whose release later empties the slot may read this very
    // word; without it that thread's move of the value would race them.
    if (slot->word.compare_exchange_weak(w, w + kRef - 1, std::memory_order_release, std::memory_order_relaxed))
      return true;
  }
}

template <typename T, typename H>
int64_t SlotTable<T, H>::live_count() const {
  const uint32_t issued = next_index_.load(std::memory_order_acquire);
  int64_t live = 0;
  for (uint32_t first = 0; first < issued; first += kChunkSize) {
    const Chunk* chunk = chunks_[first >> kChunkBits].load(std::memory_order_acquire);
    const uint32_t count = issued - first < kChunkSize ? issued - first : kChunkSize;
    for (uint32_t i = 0; i < count; ++i) live += (chunk->slots[i].word.load(std::memory_order_relaxed) & kRefMask) != 0;
  }
  return live;
}

}  // namespace api
}  // namespace st
