// core/runtime/platform/platform.h on POSIX systems (Linux, the BSDs, macOS).
#include "core/runtime/platform/platform.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace st {
namespace platform {
namespace {

// The OS's opaque types live in the classes' uint64_t fields.
template <typename T>
T from_field(uint64_t stored) {
  static_assert(sizeof(T) <= sizeof(uint64_t), "the OS's handle fits the 64-bit field");
  T value;
  std::memcpy(&value, &stored, sizeof value);
  return value;
}

template <typename T>
uint64_t to_field(T value) {
  static_assert(sizeof(T) <= sizeof(uint64_t), "the OS's handle fits the 64-bit field");
  uint64_t stored = 0;
  std::memcpy(&stored, &value, sizeof value);
  return stored;
}

}  // namespace

ThreadExitHook::ThreadExitHook(void (*at_exit)(void*)) {
  pthread_key_t key;
  if (pthread_key_create(&key, at_exit) != 0) return;
  key_ = to_field(key);
  made_.store(true, std::memory_order_release);
}

ThreadExitHook::~ThreadExitHook() {
  if (made_.exchange(false)) pthread_key_delete(from_field<pthread_key_t>(key_));
}

bool ThreadExitHook::arm(void* value) {
  return made_.load(std::memory_order_acquire) && pthread_setspecific(from_field<pthread_key_t>(key_), value) == 0;
}

namespace {
// ThreadSlot's values: C++ thread-local storage outlives the keys'
// destructors on the POSIX systems the library builds for.
constexpr int kMaxThreadSlots = 8;
std::atomic<int> g_thread_slots{0};
thread_local void* t_slot_values[kMaxThreadSlots];
}  // namespace

ThreadSlot::ThreadSlot() {
  const int index = g_thread_slots.fetch_add(1);
  if (index >= kMaxThreadSlots) return;
  key_ = static_cast<uint64_t>(index);
  made_ = true;
}

ThreadSlot::~ThreadSlot() = default;

void* ThreadSlot::get() const { return made_ ? t_slot_values[key_] : nullptr; }

void ThreadSlot::set(void* value) {
  if (made_) t_slot_values[key_] = value;
}

bool Thread::start(void (*body)(void*), void* arg) {
  body_ = body;
  arg_ = arg;
  pthread_t t;
  const auto run = [](void* self) -> void* {
    Thread* thread = static_cast<Thread*>(self);
    thread->body_(thread->arg_);
    return nullptr;
  };
  if (pthread_create(&t, nullptr, run, this) != 0) return false;
  handle_ = to_field(t);
  return true;
}

void Thread::join() { pthread_join(from_field<pthread_t>(handle_), nullptr); }

void* map_pages(size_t len, size_t alignment) {
  // Over-map by one alignment unit, then cut the unaligned ends off.
  const size_t over = len + alignment;
  void* raw = mmap(nullptr, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + alignment - 1) & ~(uintptr_t{alignment} - 1);
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t end = start + over, aligned_end = aligned + len;
  if (end > aligned_end) munmap(reinterpret_cast<void*>(aligned_end), end - aligned_end);
  void* p = reinterpret_cast<void*>(aligned);
#if defined(MADV_HUGEPAGE)
  madvise(p, len, MADV_HUGEPAGE);  // advice only: fine if THP is off
#endif
  return p;
}

void unmap_pages(void* p, size_t len) { munmap(p, len); }

void* allocate_aligned(size_t nbytes, size_t alignment) { return std::aligned_alloc(alignment, nbytes); }

void free_aligned(void* p) { std::free(p); }

size_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : 0;
}

void on_fork_in_child(void (*handler)()) { (void)pthread_atfork(nullptr, nullptr, handler); }

}  // namespace platform
}  // namespace st
