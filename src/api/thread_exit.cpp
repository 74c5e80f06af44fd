#include "api/thread_exit.h"

#include <pthread.h>

#include <cstring>

namespace st {
namespace api {
namespace {

static_assert(sizeof(pthread_key_t) <= sizeof(uint64_t), "ThreadExitHook keeps a pthread_key_t in 64 bits");

pthread_key_t os_key(uint64_t stored) {
  pthread_key_t key;
  std::memcpy(&key, &stored, sizeof key);
  return key;
}

}  // namespace

ThreadExitHook::ThreadExitHook(void (*at_exit)(void*)) {
  pthread_key_t key;
  if (pthread_key_create(&key, at_exit) != 0) return;
  std::memcpy(&key_, &key, sizeof key);
  made_.store(true, std::memory_order_release);
}

ThreadExitHook::~ThreadExitHook() {
  if (made_.exchange(false)) pthread_key_delete(os_key(key_));
}

bool ThreadExitHook::arm(void* value) {
  return made_.load(std::memory_order_acquire) && pthread_setspecific(os_key(key_), value) == 0;
}

}  // namespace api
}  // namespace st
