// core/runtime/platform/platform.h on Windows (built with MinGW-w64 here; the Win32
// calls are those MSVC builds see too).
#include "core/runtime/platform/platform.h"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

#include <malloc.h>
#include <process.h>

namespace st {
namespace platform {
namespace {

// Fiber-local storage hands its callback the stored value only, not the
// index, so each hook gets a callback of its own from this small table: a
// hook beyond it is not made and arms nothing (its caller then does without,
// as when the OS refuses a key).
// FlsFree also runs the callback for every thread's value; POSIX's
// pthread_key_delete runs no destructor, so a deleted hook's entry is
// emptied first and its callback then does nothing.
constexpr int kMaxHooks = 8;
std::atomic<void (*)(void*)> g_at_exit[kMaxHooks] = {};
std::atomic<int> g_hooks{0};

template <int I>
void WINAPI run_at_exit(void* value) {
  void (*at_exit)(void*) = g_at_exit[I].load(std::memory_order_acquire);
  if (value != nullptr && at_exit != nullptr) at_exit(value);
}

const PFLS_CALLBACK_FUNCTION kCallbacks[kMaxHooks] = {run_at_exit<0>, run_at_exit<1>, run_at_exit<2>,
                                                      run_at_exit<3>, run_at_exit<4>, run_at_exit<5>,
                                                      run_at_exit<6>, run_at_exit<7>};

}  // namespace

ThreadExitHook::ThreadExitHook(void (*at_exit)(void*)) {
  const int slot = g_hooks.fetch_add(1);
  if (slot >= kMaxHooks) return;
  g_at_exit[slot].store(at_exit, std::memory_order_release);
  const DWORD index = FlsAlloc(kCallbacks[slot]);
  if (index == FLS_OUT_OF_INDEXES) return;
  key_ = uint64_t{index} | uint64_t(slot) << 32;  // the index, and the hook's entry above it
  made_.store(true, std::memory_order_release);
}

ThreadExitHook::~ThreadExitHook() {
  if (!made_.exchange(false)) return;
  g_at_exit[key_ >> 32].store(nullptr, std::memory_order_release);
  FlsFree(static_cast<DWORD>(key_));
}

bool ThreadExitHook::arm(void* value) {
  return made_.load(std::memory_order_acquire) && FlsSetValue(static_cast<DWORD>(key_), value) != 0;
}

ThreadSlot::ThreadSlot() {
  const DWORD index = TlsAlloc();
  if (index == TLS_OUT_OF_INDEXES) return;
  key_ = index;
  made_ = true;
}

ThreadSlot::~ThreadSlot() {
  if (made_) TlsFree(static_cast<DWORD>(key_));
}

void* ThreadSlot::get() const { return made_ ? TlsGetValue(static_cast<DWORD>(key_)) : nullptr; }

void ThreadSlot::set(void* value) {
  if (made_) TlsSetValue(static_cast<DWORD>(key_), value);
}

bool Thread::start(void (*body)(void*), void* arg) {
  body_ = body;
  arg_ = arg;
  // _beginthreadex rather than CreateThread, so the C runtime's per-thread
  // state is set up and torn down with the thread.
  const auto run = [](void* self) -> unsigned {
    Thread* thread = static_cast<Thread*>(self);
    thread->body_(thread->arg_);
    return 0;
  };
  const uintptr_t h = _beginthreadex(nullptr, 0, run, this, 0, nullptr);
  if (h == 0) return false;
  handle_ = h;
  return true;
}

void Thread::join() {
  HANDLE h = reinterpret_cast<HANDLE>(static_cast<uintptr_t>(handle_));
  WaitForSingleObject(h, INFINITE);
  CloseHandle(h);
}

void* map_pages(size_t len, size_t alignment) {
  // A reservation cannot be cut, so find an aligned range in an
  // over-sized one, give it back and map the aligned part; another thread
  // may take the range in between, and then the search starts again.
  for (int attempt = 0; attempt < 16; ++attempt) {
    void* probe = VirtualAlloc(nullptr, len + alignment, MEM_RESERVE, PAGE_NOACCESS);
    if (probe == nullptr) return nullptr;
    const uintptr_t start = reinterpret_cast<uintptr_t>(probe);
    const uintptr_t aligned = (start + alignment - 1) & ~(uintptr_t{alignment} - 1);
    VirtualFree(probe, 0, MEM_RELEASE);
    void* p = VirtualAlloc(reinterpret_cast<void*>(aligned), len, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (p != nullptr) return p;
  }
  return nullptr;
}

void unmap_pages(void* p, size_t) { VirtualFree(p, 0, MEM_RELEASE); }

// The C runtime has no aligned_alloc: its aligned heap is _aligned_malloc.
void* allocate_aligned(size_t nbytes, size_t alignment) { return _aligned_malloc(nbytes, alignment); }

void free_aligned(void* p) { _aligned_free(p); }

size_t physical_memory_bytes() {
  MEMORYSTATUSEX status;
  status.dwLength = sizeof status;
  return GlobalMemoryStatusEx(&status) ? static_cast<size_t>(status.ullTotalPhys) : 0;
}

void on_fork_in_child(void (*)()) {}

}  // namespace platform
}  // namespace st
