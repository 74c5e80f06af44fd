// The operating system as the library sees it: the only services it asks of
// the OS directly, each with a POSIX implementation (platform_posix.cpp) and
// a Windows one (platform_windows.cpp); src/CMakeLists.txt compiles the one
// of the target. No other file calls the OS. (The CPU's features are read in
// cpu/cpu_isa.cpp, the processor's control registers in
// core/platform/processor.h.)
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace st {
namespace platform {

// A function the library runs for a thread as that thread ends, through the
// OS's thread-specific keys (POSIX: pthread keys; Windows: fiber-local
// storage, whose callback runs when a thread ends).
//
// A key rather than a C++ thread_local destructor, because the library is
// also called from destructors of the caller's own thread-specific data,
// which run after the C++ ones: a C++ destructor registered from there
// would never run, while a key armed there gets a further round of
// destructors.
class ThreadExitHook {
 public:
  // Makes the key; `at_exit` is called with the value a thread armed.
  explicit ThreadExitHook(void (*at_exit)(void*));
  // Deletes the key when the library is unloaded, so that threads ending
  // later never call into unmapped code.
  ~ThreadExitHook();
  ThreadExitHook(const ThreadExitHook&) = delete;
  ThreadExitHook& operator=(const ThreadExitHook&) = delete;

  // Has `at_exit(value)` (value not null) run when the calling thread
  // ends; false when the key could not be made or set, and then nothing
  // will run.
  bool arm(void* value);

 private:
  uint64_t key_ = 0;  // the OS's key, kept opaque here
  std::atomic<bool> made_{false};
};

// A pointer per thread, null until the thread sets it, that no step of the
// thread's end clears or frees: every thread-exit hook, and whatever runs
// after them, reads what the thread set (Windows: a TLS slot, which only
// the thread's own end discards; POSIX: C++ thread-local storage, which
// outlives the keys' destructors there). For per-thread state that must
// outlive C++'s thread_local (core/runtime/platform/thread_exit_state.h). Made at
// most 8 times in a process; get() answers null and set() does nothing
// for one that could not be made.
class ThreadSlot {
 public:
  ThreadSlot();
  ~ThreadSlot();
  ThreadSlot(const ThreadSlot&) = delete;
  ThreadSlot& operator=(const ThreadSlot&) = delete;

  void* get() const;
  void set(void* value);

 private:
  uint64_t key_ = 0;  // the OS's key, kept opaque here
  bool made_ = false;
};

// A thread of the OS, started with the system's default attributes (stack
// size included), as an OpenMP runtime starts its own.
class Thread {
 public:
  Thread() = default;
  Thread(const Thread&) = delete;
  Thread& operator=(const Thread&) = delete;

  // Runs body(arg) on a new thread; false when the system refuses one.
  // The object stays where it is until join() returns.
  bool start(void (*body)(void*), void* arg);
  // Waits for the started thread to end.
  void join();

 private:
  uint64_t handle_ = 0;  // the OS's handle, kept opaque here
  void (*body_)(void*) = nullptr;
  void* arg_ = nullptr;
};

// len bytes of fresh pages (len a multiple of the page size) at an address
// that is a multiple of `alignment` (a power of two, a multiple of the page
// size), advised for huge pages where the OS takes such advice; nullptr when
// the system has no memory for them. Given back with unmap_pages(p, len),
// the same len.
void* map_pages(size_t len, size_t alignment);
void unmap_pages(void* p, size_t len);

// nbytes (a multiple of alignment) at an address that is a multiple of
// `alignment` (a power of two), from the C library's heap; nullptr when it
// has none. Given back with free_aligned.
void* allocate_aligned(size_t nbytes, size_t alignment);
void free_aligned(void* p);

// The machine's physical memory in bytes; 0 when the OS does not say.
size_t physical_memory_bytes();

// Has `handler` run in the child after each fork() of the process (POSIX;
// nothing on Windows, which has no fork).
void on_fork_in_child(void (*handler)());

}  // namespace platform
}  // namespace st
