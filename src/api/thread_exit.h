// A function the library runs for a thread as that thread ends: the one
// home of the OS's thread-specific keys (POSIX: pthread keys).
//
// A key rather than a C++ thread_local destructor, because the library is
// also called from destructors of the caller's own thread-specific data,
// which run after the C++ ones: a C++ destructor registered from there
// would never run, while a key armed there gets a further round of
// destructors.
#pragma once

#include <atomic>
#include <cstdint>

namespace st {
namespace api {

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

}  // namespace api
}  // namespace st
