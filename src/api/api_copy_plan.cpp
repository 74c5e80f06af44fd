// Copy plans: st_copy_plan_create, st_copy_plan_execute,
// st_copy_plan_execute_raw, st_copy_plan_release and st_live_plan_count.
#include "api/args.h"
#include "api/guard.h"
#include "api/handle_table.h"
#include "api/plan_table.h"

using namespace st;
using namespace st::api;

extern "C" {

st_status st_copy_plan_create(st_tensor dst, st_tensor src, const st_scale_shift* ss, int32_t flags,
                              st_copy_plan* out) {
  if (out) out->id = 0;
  return guarded("st_copy_plan_create", [&] {
    check_out(out);
    ST_CHECK(flags == ST_PLAN_ESTIMATE || flags == ST_PLAN_MEASURE, ST_ERROR_INVALID_ARGUMENT,
             "flags is %d; expected ST_PLAN_ESTIMATE (0) or ST_PLAN_MEASURE (1)", static_cast<int>(flags));
    PinnedHandle d(dst, "dst");
    PinnedHandle s(src, "src");
    std::unique_ptr<ScaleShift> prepared;
    if (ss) {
      prepared = std::make_unique<ScaleShift>(
          prepare_scale_shift(*d, *s, ss->scale, ss->shift, ss->n, ss->dim, ss->saturate));
    }
    const PlanEffort effort = flags == ST_PLAN_MEASURE ? PlanEffort::Measure : PlanEffort::Estimate;
    *out = PlanTable::instance().insert(std::make_unique<ops::CopyPlan>(*d, *s, prepared.get(), effort));
  });
}

st_status st_copy_plan_execute(st_copy_plan plan, st_tensor dst, st_tensor src, int32_t non_blocking) {
  return guarded("st_copy_plan_execute", [&] {
    PinnedPlan p(plan, "plan");
    PinnedHandle d(dst, "dst");
    PinnedHandle s(src, "src");
    p->check_operands(*d, *s);
    p->execute(d->data(), s->data(), non_blocking != 0);
  });
}

st_status st_copy_plan_execute_raw(st_copy_plan plan, void* dst_data, const void* src_data, int32_t non_blocking) {
  return guarded("st_copy_plan_execute_raw", [&] {
    PinnedPlan p(plan, "plan");
    ST_CHECK(dst_data != nullptr, ST_ERROR_INVALID_ARGUMENT, "dst_data is NULL");
    ST_CHECK(src_data != nullptr, ST_ERROR_INVALID_ARGUMENT, "src_data is NULL");
    p->check_addresses(dst_data, src_data);
    p->execute(dst_data, src_data, non_blocking != 0);
  });
}

st_status st_copy_plan_release(st_copy_plan plan) {
  return guarded("st_copy_plan_release", [&] {
    const st_status status = PlanTable::instance().release(plan.id);
    ST_CHECK(status == ST_OK, status, "plan (id %#llx) is not a live copy plan",
             static_cast<unsigned long long>(plan.id));
  });
}

st_status st_live_plan_count(int64_t* out) {
  return guarded("st_live_plan_count", [&] {
    check_out(out);
    *out = PlanTable::instance().live_count();
  });
}

}  // extern "C"
