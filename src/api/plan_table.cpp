#include "api/plan_table.h"

#include "core/error.h"
#include "core/macros.h"
#include "core/runtime/platform/thread_exit_state.h"

namespace st {
namespace api {

template class SlotTable<std::unique_ptr<const ops::CopyPlan>, st_copy_plan>;

namespace {

// Note [Plan leases]
// Pinning and unpinning are two atomic read-modify-writes, as much time as
// the rest of executing a small plan. So a thread keeps the pin of the
// plan it executed last: its lease. An execute of the same id then only
// reads the slot's word to see that the handle is still live (a release
// of its reference leaves the word without one), and runs the plan, which
// the lease's pin keeps in memory. Using another plan moves the lease
// (unpinning the old plan), a dead id drops it, and a ThreadExitHook drops
// it when the thread ends; so a released plan's memory may wait until each
// thread that executed it last does one of these. A call made while this
// thread is inside another plan call (from an allocator, job system or
// trace callback) pins and unpins instead: moving the lease there could
// free the plan the outer call is running. The lease is per-thread state
// that the exit hook finishes (core/runtime/platform/thread_exit_state.h); where
// the hook already ran for this thread, or could not be armed, the thread
// pins and unpins instead.
struct Lease {
  uint64_t id;  // 0: none
  PlanTable::Slot* slot;  // pinned while id != 0
  const ops::CopyPlan* plan;
  int depth;        // plan calls running on this thread
  bool hook_armed;  // the thread's exit hook will drop the lease
};

// The plan of a live id, pinned in *slot; null with the status in *why.
const ops::CopyPlan* pin_plan(uint64_t id, PlanTable::Slot** slot, st_status* why) {
  const std::unique_ptr<const ops::CopyPlan>* plan = nullptr;
  *slot = PlanTable::instance().pin(id, &plan, why);
  return *slot ? plan->get() : nullptr;
}

void drop_lease(Lease& l) {
  if (l.id == 0) return;
  const uint64_t id = l.id;
  PlanTable::Slot* slot = l.slot;
  l.id = 0;
  l.slot = nullptr;
  l.plan = nullptr;
  PlanTable::instance().unpin(slot, id);
}

void lease_at_thread_exit(Lease& l) {
  l.hook_armed = false;
  drop_lease(l);
}

// This thread's lease (a zeroed Lease at first).
using ThreadLease = platform::ThreadExitState<Lease, lease_at_thread_exit>;

bool arm_lease_exit() {
  Lease& l = ThreadLease::get();
  if (!l.hook_armed) l.hook_armed = ThreadLease::arm();
  return l.hook_armed;
}

// The plan of a live id, kept by this thread's lease until the thread
// leases another plan or ends; null (with the status in *why) for any
// other id, and for a thread whose lease could not be dropped at its end.
const ops::CopyPlan* lease(uint64_t id, st_status* why) {
  Lease& l = ThreadLease::get();
  if (ST_LIKELY(l.id == id && id != 0)) {
    if (ST_LIKELY(PlanTable::holds_reference(l.slot, id))) return l.plan;
    drop_lease(l);
    return nullptr;
  }
  PlanTable::Slot* slot = nullptr;
  const ops::CopyPlan* plan = pin_plan(id, &slot, why);
  if (!plan) return nullptr;
  drop_lease(l);
  // Without an exit hook a lease would outlive its thread: then the caller
  // unpins at once.
  if (!arm_lease_exit()) {
    PlanTable::instance().unpin(slot, id);
    return nullptr;
  }
  l.id = id;
  l.slot = slot;
  l.plan = plan;
  return plan;
}

// PinnedPlan's way for any plan but the one this thread used last: out of
// line, so that the constructor's test of that one stays short.
ST_NOINLINE const ops::CopyPlan* take_plan(uint64_t id, const char* arg, PlanTable::Slot** slot) {
  st_status why = ST_ERROR_INVALID_HANDLE;
  // lease() answers null for a thread it cannot register either: pin then.
  const ops::CopyPlan* plan = ThreadLease::get().depth == 0 ? lease(id, &why) : nullptr;
  if (!plan) plan = pin_plan(id, slot, &why);
  if (!plan) {
    if (why == ST_ERROR_OUT_OF_MEMORY) fail(why, "%s is in use by too many calls at once", arg);
    fail(ST_ERROR_INVALID_HANDLE, "%s (id %#llx) is not a live copy plan", arg, static_cast<unsigned long long>(id));
  }
  return plan;
}

}  // namespace

PinnedPlan::PinnedPlan(st_copy_plan plan, const char* arg) : id_(plan.id) {
  Lease& l = ThreadLease::get();
  depth_ = &l.depth;
  // The plan this thread used last: the same test as lease(), inline.
  if (ST_LIKELY(l.depth == 0 && l.id == plan.id && plan.id != 0 && PlanTable::holds_reference(l.slot, plan.id))) {
    plan_ = l.plan;
  } else {
    plan_ = take_plan(plan.id, arg, &slot_);
  }
  ++l.depth;
}

PinnedPlan::~PinnedPlan() {
  --*depth_;
  if (slot_) PlanTable::instance().unpin(slot_, id_);
}

}  // namespace api
}  // namespace st
