#include "api/handle_table.h"

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
constexpr uint64_t kCountMask = 0xffffffffull;
constexpr uint32_t kLastGeneration = 0xfffffffeu;  // a slot that reaches it is retired, never reused

struct Slot {
  std::atomic<uint64_t> word{uint64_t{1} << 32};  // generation 1, no references
  std::atomic<uint32_t> next_free{0};              // the free list's link: index + 1 of the next slot, 0 ends it
  Tensor tensor;
};

struct Chunk {
  Slot slots[kChunkSize];
};

std::atomic<Chunk*> g_chunks[kMaxChunks];
std::mutex g_grow_mutex;                // serializes handing out never-used slots and creating chunks
std::atomic<uint32_t> g_next_index{0};  // slots below it have been handed out at least once

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

inline Slot& slot_at(uint32_t index) {
  return g_chunks[index >> kChunkBits].load(std::memory_order_acquire)->slots[index & (kChunkSize - 1)];
}

void push_free(uint32_t index) {
  Slot& slot = slot_at(index);
  uint64_t head = g_free_head.load(std::memory_order_relaxed);
  uint64_t next;
  do {
    slot.next_free.store(static_cast<uint32_t>(head & kCountMask), std::memory_order_relaxed);
    next = (((head >> 32) + 1) << 32) | (static_cast<uint64_t>(index) + 1);
    // release: the slot's emptied tensor and its link reach the thread that pops it
  } while (!g_free_head.compare_exchange_weak(head, next, std::memory_order_release, std::memory_order_relaxed));
}

// An empty slot from the free list, or false when the list is empty.
bool pop_free(uint32_t* index) {
  uint64_t head = g_free_head.load(std::memory_order_acquire);
  while ((head & kCountMask) != 0) {
    const uint32_t top = static_cast<uint32_t>(head & kCountMask) - 1;
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
// thread-local data, so reading it needs no initialization check; its
// `limit` is 0 until the first filing constructs a second thread-local
// whose destructor hands the cache to the shared list when the thread
// ends, and is 0 again from then on.
constexpr uint32_t kThreadCacheSlots = 32;

struct ThreadSlotCache {
  uint32_t count;  // slots held, on top of each other in `slots`
  uint32_t limit;  // slots it may hold
  uint32_t slots[kThreadCacheSlots];
};
thread_local ThreadSlotCache t_cache;

struct ThreadCacheReturn {
  ThreadCacheReturn() { t_cache.limit = kThreadCacheSlots; }
  ~ThreadCacheReturn() {
    t_cache.limit = 0;
    while (t_cache.count != 0) push_free(t_cache.slots[--t_cache.count]);
  }
};

__attribute__((noinline)) void file_free_slot_slow(uint32_t index) {
  ThreadSlotCache& cache = t_cache;
  if (cache.count == 0 && cache.limit == 0) {
    static thread_local ThreadCacheReturn return_at_exit;  // first time on this thread: opens the cache
    if (cache.count < cache.limit) {
      cache.slots[cache.count++] = index;
      return;
    }
  }
  push_free(index);
}

inline void file_free_slot(uint32_t index) {
  ThreadSlotCache& cache = t_cache;
  if (cache.count < cache.limit) {
    cache.slots[cache.count++] = index;
    return;
  }
  file_free_slot_slow(index);
}

inline bool take_free_slot(uint32_t* index) {
  ThreadSlotCache& cache = t_cache;
  if (cache.count != 0) {
    *index = cache.slots[--cache.count];
    return true;
  }
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
  uint32_t index = static_cast<uint32_t>(id & kCountMask);
  uint32_t chunk = index >> kChunkBits;
  if (generation_of(id) == 0 || chunk >= kMaxChunks) return nullptr;
  Chunk* c = g_chunks[chunk].load(std::memory_order_acquire);
  return c ? &c->slots[index & (kChunkSize - 1)] : nullptr;
}

// Adds one reference when the id is live; the acquire pairs with the
// release that published the slot's tensor.
st_status add_reference(Slot* slot, uint64_t id) {
  if (!slot) return ST_ERROR_INVALID_HANDLE;
  uint64_t w = slot->word.load(std::memory_order_relaxed);
  for (;;) {
    if (generation_of(w) != generation_of(id) || (w & kCountMask) == 0) return ST_ERROR_INVALID_HANDLE;
    if ((w & kCountMask) == kCountMask) return ST_ERROR_OUT_OF_MEMORY;
    if (slot->word.compare_exchange_weak(w, w + 1, std::memory_order_acquire, std::memory_order_relaxed))
      return ST_OK;
  }
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
  slot.word.store((generation << 32) | 1, std::memory_order_release);
  return st_tensor{(generation << 32) | index};
}

st_status HandleTable::retain(uint64_t id) { return add_reference(find_slot(id), id); }

st_status HandleTable::release(uint64_t id) {
  Slot* slot = find_slot(id);
  if (!slot) return ST_ERROR_INVALID_HANDLE;
  uint64_t w = slot->word.load(std::memory_order_relaxed);
  for (;;) {
    if (generation_of(w) != generation_of(id) || (w & kCountMask) == 0) return ST_ERROR_INVALID_HANDLE;
    const bool last = (w & kCountMask) == 1;
    // The last reference moves the slot to the next generation with no references.
    uint64_t next = last ? (static_cast<uint64_t>(generation_of(w)) + 1) << 32 : w - 1;
    if (slot->word.compare_exchange_weak(w, next, std::memory_order_acq_rel, std::memory_order_relaxed)) {
      if (!last) return ST_OK;
      break;
    }
  }
  Tensor dying = std::move(slot->tensor);
  if (generation_of(w) + 1 <= kLastGeneration) file_free_slot(static_cast<uint32_t>(id & kCountMask));
  return ST_OK;  // `dying` frees the tensor here, once the slot is free for others
}

const Tensor* HandleTable::pin(uint64_t id, st_status* why) {
  Slot* slot = find_slot(id);
  *why = add_reference(slot, id);
  return *why == ST_OK ? &slot->tensor : nullptr;
}

int64_t HandleTable::live_count() const {
  // Counted on demand, so that issuing and releasing handles touch no shared counter.
  const uint32_t issued = g_next_index.load(std::memory_order_acquire);
  int64_t live = 0;
  for (uint32_t i = 0; i < issued; ++i) live += (slot_at(i).word.load(std::memory_order_relaxed) & kCountMask) != 0;
  return live;
}

PinnedHandle::PinnedHandle(st_tensor h, const char* arg) : id_(h.id) {
  st_status why;
  tensor_ = HandleTable::instance().pin(h.id, &why);
  if (!tensor_) {
    if (why == ST_ERROR_OUT_OF_MEMORY) fail(why, "%s holds too many references", arg);
    if (h.id == 0) fail(ST_ERROR_INVALID_HANDLE, "%s is the null handle", arg);
    fail(ST_ERROR_INVALID_HANDLE, "%s = {0x%llx} is not a live handle (released, or never issued)", arg,
         static_cast<unsigned long long>(h.id));
  }
}

PinnedHandle::~PinnedHandle() {
  if (!kept_) HandleTable::instance().release(id_);
}

}  // namespace api
}  // namespace st
