#include "api/handle_table.h"

#include <pthread.h>

#include <atomic>
#include <mutex>

#include "core/error.h"

namespace st {
namespace api {
namespace {

constexpr uint32_t kChunkBits = 12;
constexpr uint32_t kChunkSize = 1u << kChunkBits;  // slots per chunk
constexpr uint32_t kMaxChunks = 4096;              // 16M live handles at most
constexpr uint32_t kMaxSlots = kMaxChunks * kChunkSize;
constexpr uint64_t kIndexMask = 0xffffffffull;
constexpr uint32_t kLastGeneration = 0xfffffffeu;  // a slot that reaches it is retired, never reused

// Note [References and pins]
// A slot's word is (generation << 32) | R | refs << 19 | pins: the
// caller's references (12 bits) and the pins of the calls using the handle
// right now (19 bits: 524,287 calls at once) counted apart, so that a
// release beyond the caller's references is refused instead of spending a
// call's pin and freeing the tensor under it. They share one word so that
// pinning, releasing and turning a pin into a reference (st_contiguous
// answering with its argument) each stay one compare-and-swap, and so that
// exactly one thread sees both counts reach zero: that step advances the
// generation and frees the tensor. References past the 12-bit field wait
// in Slot::reserve, moved in and out in batches of kRefBatch under
// g_reserve_mutex; R is set while the reserve holds any. Whatever would
// take the field past its top, or below 1 while R is set, takes that slow
// way, so the field is never 0 while references remain, and "the caller
// holds a reference" is "the field is not 0".
constexpr uint64_t kPinMask = (uint64_t{1} << 19) - 1;
constexpr uint64_t kRef = uint64_t{1} << 19;
constexpr uint64_t kRefMask = uint64_t{0xfff} << 19;
constexpr uint64_t kReserved = uint64_t{1} << 31;
constexpr uint64_t kCountMask = 0xffffffffull;  // R, references and pins
constexpr uint64_t kFieldRefs = kRefMask >> 19;
constexpr uint64_t kRefBatch = 2048;
constexpr uint64_t kMaxReserve = 0xffffffffull - kFieldRefs;  // the promise: 2^32 − 1 references to a handle

}  // namespace

struct HandleTable::Slot {
  std::atomic<uint64_t> word{uint64_t{1} << 32};  // generation 1, nothing held
  std::atomic<uint32_t> next_free{0};              // the free list's link: index + 1 of the next slot, 0 ends it
  uint32_t reserve = 0;                            // references beyond the word's field; under g_reserve_mutex
  Tensor tensor;
};

namespace {

using Slot = HandleTable::Slot;

struct Chunk {
  Slot slots[kChunkSize];
};

std::atomic<Chunk*> g_chunks[kMaxChunks];
std::mutex g_grow_mutex;                // serializes handing out never-used slots and creating chunks
std::atomic<uint32_t> g_next_index{0};  // slots below it have been handed out at least once
std::mutex g_reserve_mutex;             // serializes every move between a word's field and its reserve

// Note [Lock-free free list]
// Empty slots form a stack (Treiber's) linked through Slot::next_free. The
// head is one 64-bit word, (tag << 32) | (index + 1), and every push and pop
// bumps the tag, so a pop that read head A and A's link, then slept while
// other threads popped A, popped its successor and pushed A again, fails
// its compare-and-swap on the tag instead of installing a stale link (the
// ABA problem). Reading the link of a slot another thread has just popped
// is harmless: slots are never freed, the link is atomic, and the
// compare-and-swap that would use the stale value fails.
std::atomic<uint64_t> g_free_head{0};

inline uint32_t generation_of(uint64_t w) { return static_cast<uint32_t>(w >> 32); }
inline uint64_t refs_of(uint64_t w) { return (w & kRefMask) >> 19; }

// Whether word `w` belongs to `id`'s generation and holds a reference of the caller's.
inline bool holds_reference(uint64_t w, uint64_t id) {
  return generation_of(w) == generation_of(id) && (w & kRefMask) != 0;
}

inline Slot& slot_at(uint32_t index) {
  return g_chunks[index >> kChunkBits].load(std::memory_order_acquire)->slots[index & (kChunkSize - 1)];
}

void push_free(uint32_t index) {
  Slot& slot = slot_at(index);
  uint64_t head = g_free_head.load(std::memory_order_relaxed);
  uint64_t next;
  do {
    slot.next_free.store(static_cast<uint32_t>(head & kIndexMask), std::memory_order_relaxed);
    next = (((head >> 32) + 1) << 32) | (static_cast<uint64_t>(index) + 1);
    // release: the slot's emptied tensor and its link reach the thread that pops it
  } while (!g_free_head.compare_exchange_weak(head, next, std::memory_order_release, std::memory_order_relaxed));
}

// An empty slot from the free list, or false when the list is empty.
bool pop_free(uint32_t* index) {
  uint64_t head = g_free_head.load(std::memory_order_acquire);
  while ((head & kIndexMask) != 0) {
    const uint32_t top = static_cast<uint32_t>(head & kIndexMask) - 1;
    const uint64_t link = slot_at(top).next_free.load(std::memory_order_relaxed);
    const uint64_t next = (((head >> 32) + 1) << 32) | link;
    if (g_free_head.compare_exchange_weak(head, next, std::memory_order_acquire, std::memory_order_acquire)) {
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
// from there first. A thread that makes and drops tensors in turn then
// never touches shared state for its slots. The cache is plain zeroed
// thread-local data, so reading it needs no initialization check. Its
// `limit` is 0 until the thread's first insert opens it by setting a
// pthread key, whose destructor hands the cache to the shared list when the
// thread ends and closes it for good. A key rather than a C++ thread_local
// destructor, because releases also come from destructors of the caller's
// own thread-specific data, which run after the C++ ones: a C++ destructor
// registered from there would never run (its record and the slots it holds
// would leak), while a key set there gets a further round of destructors.
// Releases never open the cache, so a thread whose only call is a release
// at its end files the slot on the shared list at once.
constexpr uint32_t kThreadCacheSlots = 32;

struct ThreadSlotCache {
  uint32_t count;  // slots held, on top of each other in `slots`
  uint32_t limit;  // slots it may hold
  bool closed;     // the thread is ending, or has no key: the cache stays shut
  uint32_t slots[kThreadCacheSlots];
};
thread_local ThreadSlotCache t_cache;

void return_thread_cache(void*) {
  ThreadSlotCache& cache = t_cache;
  cache.limit = 0;
  cache.closed = true;
  while (cache.count != 0) push_free(cache.slots[--cache.count]);
}

// The key whose destructor returns a thread's cache. Deleted when the
// library is unloaded, so that threads ending later never call into
// unmapped code.
class CacheKey {
 public:
  CacheKey() : made_(pthread_key_create(&key_, return_thread_cache) == 0) {}
  ~CacheKey() {
    if (made_.exchange(false)) pthread_key_delete(key_);
  }
  bool set_for_this_thread() { return made_.load(std::memory_order_acquire) && pthread_setspecific(key_, &t_cache) == 0; }

 private:
  pthread_key_t key_;
  std::atomic<bool> made_;
};

__attribute__((noinline)) void open_thread_cache() {
  ThreadSlotCache& cache = t_cache;
  if (cache.closed) return;
  static CacheKey key;
  if (key.set_for_this_thread()) {
    cache.limit = kThreadCacheSlots;
  } else {
    cache.closed = true;  // every slot of this thread goes to the shared list
  }
}

inline void file_free_slot(uint32_t index) {
  ThreadSlotCache& cache = t_cache;
  if (cache.count < cache.limit) {
    cache.slots[cache.count++] = index;
    return;
  }
  push_free(index);
}

inline bool take_free_slot(uint32_t* index) {
  ThreadSlotCache& cache = t_cache;
  if (cache.count != 0) {
    *index = cache.slots[--cache.count];
    return true;
  }
  if (cache.limit == 0) open_thread_cache();
  return pop_free(index);
}

// A slot never handed out before, creating its chunk if need be. Runs only
// when this thread's cache and the free list are empty.
uint32_t new_slot() {
  std::lock_guard<std::mutex> lock(g_grow_mutex);
  const uint32_t index = g_next_index.load(std::memory_order_relaxed);
  ST_CHECK(index < kMaxSlots, ST_ERROR_OUT_OF_MEMORY, "the handle table is full (%u live handles)", kMaxSlots);
  const uint32_t chunk = index >> kChunkBits;
  if (!g_chunks[chunk].load(std::memory_order_relaxed)) {
    g_chunks[chunk].store(new Chunk(), std::memory_order_release);
  }
  g_next_index.store(index + 1, std::memory_order_release);
  return index;
}

Slot* find_slot(uint64_t id) {
  uint32_t index = static_cast<uint32_t>(id & kIndexMask);
  uint32_t chunk = index >> kChunkBits;
  if (generation_of(id) == 0 || chunk >= kMaxChunks) return nullptr;
  Chunk* c = g_chunks[chunk].load(std::memory_order_acquire);
  return c ? &c->slots[index & (kChunkSize - 1)] : nullptr;
}

// Frees the tensor of a slot whose references and pins have all gone and
// whose word has moved on to `generation` + 1.
void empty_slot(Slot* slot, uint64_t id, uint32_t generation) {
  Tensor dying = std::move(slot->tensor);
  if (generation + 1 <= kLastGeneration) file_free_slot(static_cast<uint32_t>(id & kIndexMask));
}  // `dying` frees the tensor here, once the slot is free for others

// The word with the caller's references changed by `refs` (+1 or -1) and
// the pins by `pins` (0 or -1), the slow way: under g_reserve_mutex, moving
// a batch of references between the word's field and the reserve (Note
// [References and pins]). ST_ERROR_INVALID_HANDLE when the caller holds no
// reference, ST_ERROR_OUT_OF_MEMORY past 2^32 − 1 references.
st_status change_references_slowly(Slot* slot, uint64_t id, int refs, int pins) {
  std::unique_lock<std::mutex> lock(g_reserve_mutex);
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
      lock.unlock();  // freeing the tensor may run a deleter that calls back into the table
      if (emptied) empty_slot(slot, id, generation_of(w));
      return ST_OK;
    }
  }
}

// release() of the last reference, `w` as last read: empties the slot
// unless a pin or another reference came meanwhile. Out of line, so that
// the release of any other reference stays short.
__attribute__((noinline)) st_status release_last(Slot* slot, uint64_t id, uint64_t w) {
  const uint64_t next = (static_cast<uint64_t>(generation_of(w)) + 1) << 32;
  if (slot->word.compare_exchange_strong(w, next, std::memory_order_acq_rel, std::memory_order_relaxed)) {
    empty_slot(slot, id, generation_of(w));
    return ST_OK;
  }
  return HandleTable::instance().release(id);  // the word changed: decide again
}

// unpin() of the last pin once the caller's references are gone too.
__attribute__((noinline)) void empty_unpinned_slot(Slot* slot, uint64_t id, uint64_t w) {
  // Nothing is held any more, so no other thread changes the word now.
  slot->word.store((static_cast<uint64_t>(generation_of(w)) + 1) << 32, std::memory_order_relaxed);
  empty_slot(slot, id, generation_of(w));
}

}  // namespace

HandleTable& HandleTable::instance() {
  static HandleTable table;
  return table;
}

st_tensor HandleTable::insert(Tensor t) {
  uint32_t index;
  if (!take_free_slot(&index)) index = new_slot();
  Slot& slot = slot_at(index);
  slot.tensor = std::move(t);
  uint64_t generation = slot.word.load(std::memory_order_relaxed) >> 32;
  slot.word.store((generation << 32) | kRef, std::memory_order_release);
  return st_tensor{(generation << 32) | index};
}

st_status HandleTable::retain(uint64_t id) {
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

st_status HandleTable::release(uint64_t id) {
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

HandleTable::Slot* HandleTable::pin(uint64_t id, const Tensor** tensor, st_status* why) {
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
    // acquire: pairs with the release that published the slot's tensor
    if (slot->word.compare_exchange_weak(w, w + 1, std::memory_order_acquire, std::memory_order_relaxed)) {
      *tensor = &slot->tensor;
      return slot;
    }
  }
}

void HandleTable::unpin(Slot* slot, uint64_t id) {
  // The pin keeps the generation: no other step can empty the slot meanwhile.
  const uint64_t w = slot->word.fetch_sub(1, std::memory_order_acq_rel);
  if ((w & kCountMask) == 1) empty_unpinned_slot(slot, id, w);
}

bool HandleTable::pin_to_reference(Slot* slot, uint64_t id) {
  uint64_t w = slot->word.load(std::memory_order_relaxed);
  for (;;) {
    if (!holds_reference(w, id)) return false;
    if (refs_of(w) == kFieldRefs) {
      const st_status s = change_references_slowly(slot, id, +1, -1);
      ST_CHECK(s != ST_ERROR_OUT_OF_MEMORY, s, "the handle {0x%llx} already holds the most references",
               static_cast<unsigned long long>(id));
      return s == ST_OK;
    }
    // release: dropping the pin ends this call's reads of the slot's tensor,
    // and the thread whose release later empties the slot may read this very
    // word; without it that thread's move of the tensor would race them.
    if (slot->word.compare_exchange_weak(w, w + kRef - 1, std::memory_order_release, std::memory_order_relaxed))
      return true;
  }
}

int64_t HandleTable::live_count() const {
  // Counted on demand, so that issuing and releasing handles touch no shared counter.
  const uint32_t issued = g_next_index.load(std::memory_order_acquire);
  int64_t live = 0;
  for (uint32_t first = 0; first < issued; first += kChunkSize) {
    const Chunk* chunk = g_chunks[first >> kChunkBits].load(std::memory_order_acquire);
    const uint32_t count = issued - first < kChunkSize ? issued - first : kChunkSize;
    for (uint32_t i = 0; i < count; ++i) live += (chunk->slots[i].word.load(std::memory_order_relaxed) & kRefMask) != 0;
  }
  return live;
}

PinnedHandle::PinnedHandle(st_tensor h, const char* arg) : id_(h.id) {
  st_status why;
  slot_ = HandleTable::instance().pin(h.id, &tensor_, &why);
  if (!slot_) {
    if (why == ST_ERROR_OUT_OF_MEMORY) fail(why, "%s is in use by too many calls at once", arg);
    if (h.id == 0) fail(ST_ERROR_INVALID_HANDLE, "%s is the null handle", arg);
    fail(ST_ERROR_INVALID_HANDLE, "%s = {0x%llx} is not a live handle (released, or never issued)", arg,
         static_cast<unsigned long long>(h.id));
  }
}

PinnedHandle::~PinnedHandle() {
  if (!kept_) HandleTable::instance().unpin(slot_, id_);
}

st_tensor PinnedHandle::keep() {
  if (HandleTable::instance().pin_to_reference(slot_, id_)) {
    kept_ = true;
    return st_tensor{id_};
  }
  return HandleTable::instance().insert(*tensor_);
}

}  // namespace api
}  // namespace st
