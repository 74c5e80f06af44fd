// The fuzz target's hostile host: a job system that may break its contract,
// a changed floating-point environment (both apply to later operators, see
// fuzz_hostile.h), and the release of a handle from the trace callback of
// a call that is using it.
#include <algorithm>
#include <cfenv>
#include <cstdint>
#include <vector>

#include "fuzz_calls.h"
#include "fuzz_checks.h"

namespace fuzz {

void op_job_system(Input& in) {
  const uint8_t mode = in.u8() % (static_cast<uint8_t>(JobMode::kCount) + 1);
  if (mode == static_cast<uint8_t>(JobMode::kCount)) {
    FUZZ_CHECK(st_set_parallel_for(nullptr, nullptr) == ST_OK, "removing the job system");
    return;
  }
  g_jobs.mode = static_cast<JobMode>(mode);
  FUZZ_CHECK(st_set_parallel_for(run_jobs, &g_jobs) == ST_OK, "installing the job system");
  // Work reaches a job system only while more than one thread may run.
  if (st_get_num_threads() == 1) FUZZ_CHECK(st_set_num_threads(2) == ST_OK, "st_set_num_threads(2)");
}

void op_fp_env(Input& in) {
  static const int kRoundings[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
  g_fp_env.rounding = kRoundings[in.u8() % 4];
  g_fp_env.flush_denormals = in.u8() % 2;
  probe_rounding(in);
}

namespace {

// The trace callback of op_release_inside_trace: at one report of the call,
// releases the handle the call is using, a number of times.
struct TraceRelease {
  uint64_t id;
  int times;
  int at_report;  // 0: the first report
  int reports = 0;
  int oks = 0, refused = 0, other = 0;
};

void release_at_report(void* ctx, const char* op, int64_t ns) {
  FUZZ_CHECK(op && *op && ns >= 0, "a trace report without a name or with a negative duration");
  auto* r = static_cast<TraceRelease*>(ctx);
  if (r->reports++ != r->at_report) return;
  for (int i = 0; i < r->times; ++i) {
    const st_status s = st_tensor_release(st_tensor{r->id});
    if (s == ST_OK) {
      r->oks++;
    } else if (s == ST_ERROR_INVALID_HANDLE) {
      r->refused++;
    } else {
      r->other++;
    }
  }
}

int index_of(uint64_t id) {
  const std::vector<HandleModel>& handles = g_model->handles;
  for (size_t i = 0; i < handles.size(); ++i) {
    if (handles[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

// Records a handle the call returned (add_handle's checks of the live count
// come after the releases, once the counts settle).
void record_result(const char* fn, st_tensor out, const Layout& l, int storage) {
  Model& m = *g_model;
  FUZZ_CHECK(index_of(out.id) < 0, "%s returned {0x%llx}, a handle already live", fn, (unsigned long long)out.id);
  m.handles.push_back(HandleModel{out.id, 1, l, storage});
  m.storages[storage].handles++;
  check_inside_storage(fn, out, l, m.storages[storage]);
}

}  // namespace

// contiguous, clone, to (float64) or fill of handle H, with a trace callback
// that releases H once to three times at one of the call's reports. The
// releases within H's references answer ST_OK and the rest
// ST_ERROR_INVALID_HANDLE; the call still finishes with H's tensor (an
// answer of H itself needs a reference left, a no-op whose source lost its
// last one answers with a new handle of the same tensor); and once the call
// has returned, a storage whose last handle went is freed.
void op_release_inside_trace(Input& in) {
  Model& m = *g_model;
  if (m.handles.empty()) return;
  const HandleModel src = m.handles[in.u8() % m.handles.size()];
  const StorageModel ss = m.storages[src.storage];
  const int which = in.u8() % 4;
  const char* names[4] = {"st_contiguous", "st_clone", "st_to", "st_fill"};
  const char* fn = names[which];
  TraceRelease r{src.id, 1 + in.u8() % 3, in.u8() % 3};
  const int64_t n = numel(src.layout);
  if (which == 3 && n > kMaxFillElements) return;
  if ((which == 3 || n <= static_cast<int64_t>(kAllocCap)) && !within_budget(m, n)) return;
  static std::vector<Value> before;  // the source's values (reused, see snapshot())
  before.clear();
  if (value_checkable(src.layout, ss)) values_of(src.layout, ss, &before);

  FUZZ_CHECK(st_set_trace_callback(release_at_report, &r) == ST_OK, "trace");
  begin_call();
  st_tensor out{0x5eed5eed5eed5eedull};
  st_status s;
  {
    HostileFpEnv fp;
    const st_device cpu{ST_DEVICE_CPU, 0};
    switch (which) {
      case 0: s = st_contiguous(st_tensor{src.id}, ST_MEMORY_FORMAT_CONTIGUOUS, &out); break;
      case 1: s = st_clone(st_tensor{src.id}, ST_MEMORY_FORMAT_PRESERVE, &out); break;
      case 2: s = st_to(st_tensor{src.id}, ST_FLOAT64, ss.host ? cpu : st_device{ST_DEVICE_CUDA, 0},
                        ST_MEMORY_FORMAT_PRESERVE, &out);
        break;
      default:
        s = st_fill(st_tensor{src.id}, 0.5);
        out.id = 0;
        break;
    }
  }
  set_counting_trace(g_counting_trace);  // the callback the input had before
  check_status(fn, s);
  // float4_e2m1fn_x2 converts to nothing else and takes no fill.
  const bool refused_dtype = (which == 2 && !converts(ST_FLOAT64, src.layout.dtype)) ||
                             (which == 3 && !fillable(src.layout.dtype));
  FUZZ_CHECK(refused_dtype ? s == ST_ERROR_UNSUPPORTED_DTYPE
                           : (s == ST_OK || s == ST_ERROR_OUT_OF_MEMORY || s == ST_ERROR_INTERNAL),
             "%s returned %s", fn, st_status_name(s));
  const bool fired = r.reports > r.at_report;
  FUZZ_CHECK(r.other == 0, "a release from inside %s answered neither ST_OK nor ST_ERROR_INVALID_HANDLE", fn);
  FUZZ_CHECK(r.oks == (fired ? std::min(r.times, src.refs) : 0) && r.oks + r.refused == (fired ? r.times : 0),
             "%s: %d of %d releases from its trace callback answered ST_OK; the handle held %d references", fn, r.oks,
             r.times, src.refs);

  std::vector<std::pair<void*, size_t>> made;
  {
    std::lock_guard<std::mutex> lock(g_heap.mutex);
    made = g_heap.made;
  }
  void* result_block = nullptr;
  if (which == 3) {
    if (s == ST_OK || s == ST_ERROR_INTERNAL) m.storages[src.storage].checked = false;
  } else if (s != ST_OK) {
    FUZZ_CHECK(out.id == 0, "%s failed (%s) but wrote out = {0x%llx}", fn, st_status_name(s), (unsigned long long)out.id);
  } else if (out.id == src.id) {
    // The source itself: contiguous or to with nothing to do, and a reference left to add to.
    FUZZ_CHECK(which != 1 && r.oks < src.refs, "%s answered with its source, whose references were all released",
               fn);
    m.handles[index_of(src.id)].refs++;
  } else {
    const Layout got = read_layout(fn, out);
    expect_sizes(fn, got, src.layout.sizes, src.layout.ndim);
    const bool same_tensor = (which == 0 && is_contiguous(src.layout)) || (which == 2 && src.layout.dtype == ST_FLOAT64);
    if (same_tensor) {
      // A no-op whose source lost its last reference during the call: a new handle of the same tensor.
      FUZZ_CHECK(r.oks == src.refs, "%s copied a tensor that needed no copy", fn);
      FUZZ_CHECK(made.empty(), "%s allocated memory for a tensor that needed no copy", fn);
      FUZZ_CHECK(got.offset == src.layout.offset && got.dtype == src.layout.dtype, "%s: not the same tensor", fn);
      expect_strides(fn, got, src.layout.strides, true);
      record_result(fn, out, got, src.storage);
    } else {
      FUZZ_CHECK(got.dtype == (which == 2 ? ST_FLOAT64 : src.layout.dtype), "%s: the dtype", fn);
      st_device rd{};
      FUZZ_CHECK(st_tensor_device(out, &rd) == ST_OK, "st_tensor_device of a live handle");
      const int64_t nbytes = numel(got) * static_cast<int64_t>(item_size(got.dtype));
      const int storage = new_library_storage(fn, got, nbytes, st_device_is_cpu(rd));
      record_result(fn, out, got, storage);
      StorageModel& ns = m.storages[storage];
      result_block = ns.base;
      ns.checked = ss.checked;
      if (!before.empty() && value_checkable(got, ns)) expect_copied(fn, got, ns, src.layout, before, nullptr);
    }
  }

  // The releases made inside the call, now that it has returned: a storage
  // left without handles must have been freed.
  for (int i = 0; i < r.oks; ++i) {
    const int k = index_of(src.id);
    FUZZ_CHECK(k >= 0, "%s: the released handle is gone from the model", fn);
    drop_reference(k);
  }
  FUZZ_CHECK(live_count() == static_cast<int64_t>(m.handles.size()), "%s: %lld handles live, the model has %zu", fn,
             (long long)live_count(), m.handles.size());
  std::lock_guard<std::mutex> lock(g_heap.mutex);
  for (const auto& a : made) {
    if (a.first == result_block) continue;
    for (const auto& l : g_heap.live) FUZZ_CHECK(l.first != a.first, "%s kept an allocation it made", fn);
  }
}

}  // namespace fuzz
