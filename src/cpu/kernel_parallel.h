// How the copy kernels spread work over threads: a kernel cuts its work into
// `num_tasks` independent tasks and hands run_tasks a callable over a range
// of them. Which threads run the ranges is decided here only, so moving the
// kernels onto another parallel_for (with the host's job system) is a
// change to run_tasks' body alone.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

namespace st {
namespace cpu {

template <typename Sig>
class FunctionRef;

// A non-owning reference to a callable; valid only while the callable it
// was made from is alive (pass lambdas straight to the call).
template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same<std::decay_t<F>, FunctionRef>::value>>
  FunctionRef(F&& f)  // NOLINT: implicit, so a lambda can be passed directly
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* obj, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(obj))(std::forward<Args>(args)...);
        }) {}
  R operator()(Args... args) const { return call_(obj_, std::forward<Args>(args)...); }

 private:
  void* obj_;
  R (*call_)(void*, Args...);
};

// Runs tasks [begin, end).
using TaskRange = FunctionRef<void(int64_t begin, int64_t end)>;

// Runs fn over disjoint ranges covering [0, num_tasks), each at least
// `grain` tasks long (except the last), on up to st_get_num_threads()
// threads; serially when one thread is enough, or when already inside a
// parallel region (never nested). Returns when every range is done.
void run_tasks(int64_t num_tasks, int64_t grain, TaskRange fn);

// The grain (in tasks of `bytes_per_task` bytes moved each) below which
// spreading a copy over threads costs more than it saves.
int64_t grain_for_bytes(int64_t bytes_per_task);

}  // namespace cpu
}  // namespace st
