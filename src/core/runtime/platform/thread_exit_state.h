// Per-thread state that a thread-exit hook finishes: one zeroed State per
// thread, and AtExit(state) run on it when the thread ends, after the
// thread armed the hook (core/runtime/platform/platform.h's ThreadExitHook).
//
// Where C++ thread_local storage outlives the hooks (everywhere but GCC
// for MinGW: core/macros.h, ST_THREAD_LOCAL_FREED_BEFORE_EXIT_HOOKS), the
// state is a plain thread_local object, read with no check, and the hook
// is armed with its address. Where it does not, the state is a heap block
// that the hook owns: found through a ThreadSlot (which no step of the
// thread's end clears), armed when the thread first asks for its state,
// finished by the hook through the pointer it was armed with, then freed;
// the slot then marks the thread as done, so that calls made after the
// hook ran (from the caller's own thread-specific destructors) neither
// allocate nor arm again: they get a state of their own for which arm()
// answers false, as for a thread whose hook could not be armed.
#pragma once

#include <new>

#include "core/macros.h"
#include "core/runtime/platform/platform.h"

namespace st {
namespace platform {

// State: trivially destructible, its zero value the start of every thread.
template <typename State, void (*AtExit)(State&)>
class ThreadExitState {
 public:
#if !ST_THREAD_LOCAL_FREED_BEFORE_EXIT_HOOKS
  // This thread's state.
  static State& get() { return state_; }

  // Has AtExit(get()) run when this thread ends; false when no hook could
  // be armed, and then nothing will run.
  static bool arm() {
    static ThreadExitHook hook(run);
    return hook.arm(&state_);
  }

 private:
  static void run(void* state) { AtExit(*static_cast<State*>(state)); }

  static thread_local State state_ ST_TLS_GLOBAL_DYNAMIC;  // zeroed, trivially destructible: no guard to read it
#else
  static State& get() {
    void* block = slot().get();
    return ST_LIKELY(block != nullptr && block != done()) ? *static_cast<State*>(block) : first_use(block);
  }

  static bool arm() {
    void* block = slot().get();
    if (block == nullptr) first_use(block);
    block = slot().get();
    return block != nullptr && block != done();
  }

 private:
  // The thread's first request (block null): a block its hook owns; after
  // the hook ran, or without a hook or a slot, the thread-local stand-in.
  ST_NOINLINE static State& first_use(void* block) {
    if (block == nullptr) {
      slot().set(done());  // what stays when no block can be armed
      if (slot().get() == done()) {  // else the slot could not be made: no block could be found again
        State* fresh = new (std::nothrow) State();
        if (fresh != nullptr && hook().arm(fresh)) {
          slot().set(fresh);
          return *fresh;
        }
        delete fresh;
      }
    }
    return stand_in_;
  }

  static void run(void* block) {
    State* state = static_cast<State*>(block);
    AtExit(*state);
    slot().set(done());
    delete state;
  }

  static ThreadSlot& slot() {
    static ThreadSlot slot;  // made before the hook, so destroyed after it
    return slot;
  }
  static ThreadExitHook& hook() {
    static ThreadExitHook hook(run);
    return hook;
  }
  // The slot's value once the thread's hook ran or could not be armed.
  static void* done() {
    static char mark;
    return &mark;
  }

  static thread_local State stand_in_;
#endif
};

#if !ST_THREAD_LOCAL_FREED_BEFORE_EXIT_HOOKS
template <typename State, void (*AtExit)(State&)>
thread_local State ThreadExitState<State, AtExit>::state_;
#else
template <typename State, void (*AtExit)(State&)>
thread_local State ThreadExitState<State, AtExit>::stand_in_;
#endif

}  // namespace platform
}  // namespace st
