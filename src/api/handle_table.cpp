#include "api/handle_table.h"

#include <atomic>
#include <mutex>
#include <vector>

#include "core/error.h"

namespace st {
namespace api {
namespace {

constexpr uint32_t kChunkBits = 12;
constexpr uint32_t kChunkSize = 1u << kChunkBits;  // slots per chunk
constexpr uint32_t kMaxChunks = 4096;              // 16M live handles at most
constexpr uint64_t kCountMask = 0xffffffffull;
constexpr uint32_t kLastGeneration = 0xfffffffeu;  // a slot that reaches it is retired, never reused

struct Slot {
  std::atomic<uint64_t> word{uint64_t{1} << 32};  // generation 1, no references
  Tensor tensor;
};

struct Chunk {
  Slot slots[kChunkSize];
};

std::atomic<Chunk*> g_chunks[kMaxChunks];
std::atomic<int64_t> g_live{0};
std::mutex g_mutex;               // guards the free list and chunk creation
std::vector<uint32_t>* g_free;    // indices of empty slots, reused last-in first-out
uint32_t g_next_index = 0;        // slots below it have been handed out at least once

inline uint32_t generation_of(uint64_t w) { return static_cast<uint32_t>(w >> 32); }

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
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!g_free) g_free = new std::vector<uint32_t>();  // never freed: slots outlive static destructors
    if (!g_free->empty()) {
      index = g_free->back();
      g_free->pop_back();
    } else {
      ST_CHECK(g_next_index < kMaxChunks * kChunkSize, ST_ERROR_OUT_OF_MEMORY,
               "the handle table is full (%u live handles)", kMaxChunks * kChunkSize);
      uint32_t chunk = g_next_index >> kChunkBits;
      if (!g_chunks[chunk].load(std::memory_order_relaxed)) {
        g_chunks[chunk].store(new Chunk(), std::memory_order_release);
      }
      if (g_free->capacity() <= g_next_index) {  // so release() never allocates under the lock
        g_free->reserve(g_free->capacity() < 1024 ? 1024 : 2 * g_free->capacity());
      }
      index = g_next_index++;
    }
  }
  Slot& slot = g_chunks[index >> kChunkBits].load(std::memory_order_relaxed)->slots[index & (kChunkSize - 1)];
  slot.tensor = std::move(t);
  uint64_t generation = slot.word.load(std::memory_order_relaxed) >> 32;
  slot.word.store((generation << 32) | 1, std::memory_order_release);
  g_live.fetch_add(1, std::memory_order_relaxed);
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
  g_live.fetch_sub(1, std::memory_order_relaxed);
  if (generation_of(w) + 1 <= kLastGeneration) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_free->push_back(static_cast<uint32_t>(id & kCountMask));
  }
  return ST_OK;  // `dying` frees the tensor here, outside the lock
}

const Tensor* HandleTable::pin(uint64_t id, st_status* why) {
  Slot* slot = find_slot(id);
  *why = add_reference(slot, id);
  return *why == ST_OK ? &slot->tensor : nullptr;
}

int64_t HandleTable::live_count() const { return g_live.load(std::memory_order_relaxed); }

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
