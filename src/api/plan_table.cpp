#include "api/plan_table.h"

#include <pthread.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "core/error.h"
#include "core/macros.h"

namespace st {
namespace api {
namespace {

constexpr uint32_t kChunkBits = 10;
constexpr uint32_t kChunkSize = 1u << kChunkBits;  // slots per chunk
constexpr uint32_t kMaxChunks = 1024;              // 1M live plans at most
constexpr uint64_t kIndexMask = 0xffffffffull;
constexpr uint32_t kLastGeneration = 0xfffffffeu;  // a slot that reaches it is retired, never reused

// Note [Pinning a plan]
// A slot's word is (generation << 32) | L | P | pins: L while the handle is
// live, P while its released plan waits for the pins to drain. An
// execution adds a pin whatever the word holds, then looks: a generation
// other than its id's, or no L, means a dead handle, and it takes its pin
// back. Release moves the generation on and clears L in one
// compare-and-swap, so the id is dead from then on; with no pins it frees
// the plan at once, else it sets P and the unpin that takes the pins to
// zero frees it (the one whose compare-and-swap clears P: pins added by
// stale ids meanwhile cannot free it twice). Pins that stale ids add to a free or
// reused slot only delay that slot's own release, never free anything.
constexpr uint64_t kLive = uint64_t{1} << 31;
constexpr uint64_t kPending = uint64_t{1} << 30;
constexpr uint64_t kPinMask = kPending - 1;

inline uint32_t generation_of(uint64_t w) { return static_cast<uint32_t>(w >> 32); }

}  // namespace

struct PlanTable::Slot {
  std::atomic<uint64_t> word{uint64_t{1} << 32};  // generation 1, not live
  std::atomic<const ops::CopyPlan*> plan{nullptr};
  uint32_t index = 0;  // its own, set before the slot is first handed out
};

namespace {

using Slot = PlanTable::Slot;

struct Chunk {
  Slot slots[kChunkSize];
};

std::atomic<Chunk*> g_chunks[kMaxChunks];
std::atomic<uint32_t> g_next_index{0};  // slots below it exist
std::atomic<int64_t> g_live{0};
std::mutex g_mutex;                     // the free slots and new chunks
std::vector<uint32_t>* g_free = nullptr;  // under g_mutex; never destroyed (releases at exit)

inline Slot& slot_at(uint32_t index) {
  return g_chunks[index >> kChunkBits].load(std::memory_order_acquire)->slots[index & (kChunkSize - 1)];
}

// Frees a released plan whose pins are gone, and files its slot for reuse.
void reclaim(Slot& slot, uint32_t generation) {
  delete slot.plan.exchange(nullptr, std::memory_order_acq_rel);
  if (generation >= kLastGeneration) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_free) g_free = new std::vector<uint32_t>();
  g_free->push_back(slot.index);
}

}  // namespace

PlanTable& PlanTable::instance() {
  static PlanTable table;
  return table;
}

st_copy_plan PlanTable::insert(std::unique_ptr<ops::CopyPlan> plan) {
  uint32_t index;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_free && !g_free->empty()) {
      index = g_free->back();
      g_free->pop_back();
    } else {
      index = g_next_index.load(std::memory_order_relaxed);
      ST_CHECK(index < kMaxChunks * kChunkSize, ST_ERROR_OUT_OF_MEMORY, "too many live copy plans (%u)",
               kMaxChunks * kChunkSize);
      if ((index & (kChunkSize - 1)) == 0) {
        Chunk* chunk = new Chunk();
        for (uint32_t i = 0; i < kChunkSize; ++i) chunk->slots[i].index = index + i;
        g_chunks[index >> kChunkBits].store(chunk, std::memory_order_release);
      }
      g_next_index.store(index + 1, std::memory_order_release);
    }
  }
  Slot& slot = slot_at(index);
  slot.plan.store(plan.release(), std::memory_order_release);
  // Pins of stale ids may be in the word; they stay.
  const uint64_t w = slot.word.fetch_or(kLive, std::memory_order_acq_rel);
  g_live.fetch_add(1, std::memory_order_relaxed);
  return st_copy_plan{(w & ~kIndexMask) | index};
}

const ops::CopyPlan* PlanTable::pin(uint64_t id, Slot** out) {
  const uint32_t index = static_cast<uint32_t>(id & kIndexMask);
  if (generation_of(id) == 0 || index >= g_next_index.load(std::memory_order_acquire)) return nullptr;
  Slot& slot = slot_at(index);
  const uint64_t w = slot.word.fetch_add(1, std::memory_order_acquire);
  if (generation_of(w) != generation_of(id) || !(w & kLive)) {
    unpin(&slot);
    return nullptr;
  }
  *out = &slot;
  return slot.plan.load(std::memory_order_acquire);
}

void PlanTable::unpin(Slot* slot) {
  const uint64_t w = slot->word.fetch_sub(1, std::memory_order_acq_rel);
  if (ST_LIKELY((w & kPending) == 0) || (w & kPinMask) != 1) return;
  // The last pin of a released plan: free it unless a stale id's pin came
  // in meanwhile, whose unpin then tries the same.
  uint64_t drained = w - 1;
  if (slot->word.compare_exchange_strong(drained, drained & ~kPending, std::memory_order_acq_rel)) {
    reclaim(*slot, generation_of(drained));
  }
}

st_status PlanTable::release(uint64_t id) {
  const uint32_t index = static_cast<uint32_t>(id & kIndexMask);
  if (generation_of(id) == 0 || index >= g_next_index.load(std::memory_order_acquire)) return ST_ERROR_INVALID_HANDLE;
  Slot& slot = slot_at(index);
  uint64_t w = slot.word.load(std::memory_order_relaxed);
  uint64_t next;
  do {
    if (generation_of(w) != generation_of(id) || !(w & kLive)) return ST_ERROR_INVALID_HANDLE;
    const uint64_t pins = w & kPinMask;
    next = (static_cast<uint64_t>(generation_of(w) + 1) << 32) | pins | (pins ? kPending : 0);
  } while (!slot.word.compare_exchange_weak(w, next, std::memory_order_acq_rel, std::memory_order_relaxed));
  g_live.fetch_sub(1, std::memory_order_relaxed);
  if ((w & kPinMask) == 0) reclaim(slot, generation_of(next));
  return ST_OK;
}

int64_t PlanTable::live_count() const { return g_live.load(std::memory_order_relaxed); }

namespace {

// Note [Plan leases]
// Pinning and unpinning are two atomic read-modify-writes, as much time as
// the rest of executing a small plan. So a thread keeps the pin of the
// plan it executed last: its lease. An execute of the same id then only
// reads the slot's word to see that the handle is still live (a release
// moves the generation on), and runs the plan, which the lease's pin keeps
// in memory. Using another plan moves the lease (unpinning the old plan),
// a dead id drops it, and a pthread key's destructor drops it when the
// thread ends; so a released plan's memory may wait until each thread
// that executed it last does one of these. A call made while this thread
// is inside another plan call (from an allocator, job system or trace
// callback) pins and unpins instead: moving the lease there could free the
// plan the outer call is running.
struct Lease {
  uint64_t id;        // 0: none
  Slot* slot;         // pinned while id != 0
  const ops::CopyPlan* plan;
  int depth;          // plan calls running on this thread
  bool key_set;       // the thread's exit destructor is registered
};
thread_local Lease t_lease;  // zeroed, trivially destructible: no guard to read it

pthread_key_t g_lease_key;
bool g_lease_key_ok = false;

void drop_lease() {
  Lease& l = t_lease;
  if (l.id == 0) return;
  Slot* slot = l.slot;
  l.id = 0;
  l.slot = nullptr;
  l.plan = nullptr;
  PlanTable::instance().unpin(slot);
}

void lease_at_thread_exit(void*) {
  t_lease.key_set = false;
  drop_lease();
}

bool register_lease_exit() {
  static const bool ok = [] {
    g_lease_key_ok = pthread_key_create(&g_lease_key, lease_at_thread_exit) == 0;
    return g_lease_key_ok;
  }();
  Lease& l = t_lease;
  if (!ok) return false;
  if (!l.key_set) l.key_set = pthread_setspecific(g_lease_key, &l) == 0;
  return l.key_set;
}

}  // namespace

const ops::CopyPlan* PlanTable::lease(uint64_t id) {
  Lease& l = t_lease;
  if (ST_LIKELY(l.id == id && id != 0)) {
    const uint64_t w = l.slot->word.load(std::memory_order_acquire);
    if (ST_LIKELY(generation_of(w) == generation_of(id) && (w & kLive))) return l.plan;
    drop_lease();
    return nullptr;
  }
  Slot* slot = nullptr;
  const ops::CopyPlan* plan = pin(id, &slot);
  if (!plan) return nullptr;
  drop_lease();
  // Without an exit destructor a lease would outlive its thread: then the
  // caller unpins at once.
  if (!register_lease_exit()) {
    unpin(slot);
    return nullptr;
  }
  l.id = id;
  l.slot = slot;
  l.plan = plan;
  return plan;
}

PinnedPlan::PinnedPlan(st_copy_plan plan, const char* arg) {
  Lease& l = t_lease;
  depth_ = &l.depth;
  if (ST_LIKELY(l.depth == 0 && l.id == plan.id && plan.id != 0)) {
    // The plan this thread used last (the same test as lease(), inline).
    const uint64_t w = l.slot->word.load(std::memory_order_acquire);
    if (ST_LIKELY(generation_of(w) == generation_of(plan.id) && (w & kLive))) {
      plan_ = l.plan;
      ++l.depth;
      return;
    }
  }
  if (l.depth == 0) {
    plan_ = PlanTable::instance().lease(plan.id);
    // lease() answers null for a thread it cannot register either: pin then.
    if (!plan_) plan_ = PlanTable::instance().pin(plan.id, &slot_);
  } else {
    plan_ = PlanTable::instance().pin(plan.id, &slot_);
  }
  ST_CHECK(plan_ != nullptr, ST_ERROR_INVALID_HANDLE, "%s (id %#llx) is not a live copy plan", arg,
           static_cast<unsigned long long>(plan.id));
  ++l.depth;
}

PinnedPlan::~PinnedPlan() {
  --*depth_;
  if (slot_) PlanTable::instance().unpin(slot_);
}

}  // namespace api
}  // namespace st
