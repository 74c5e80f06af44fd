// The fuzz target's calls on handles and the runtime: retain, release,
// the metadata reads, the thread count, the trace callback, a refused
// allocation and the live count.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_calls.h"
#include "fuzz_checks.h"

namespace fuzz {

void op_retain_release(Input& in, bool retain) {
  const char* fn = retain ? "st_tensor_retain" : "st_tensor_release";
  HandleArg h = pick_handle(in);
  const Frame f = begin_call();
  st_status s = retain ? st_tensor_retain(h.t) : st_tensor_release(h.t);
  check_status(fn, s);
  if (h.index < 0) {
    const st_status want = !retain && h.t.id == 0 ? ST_OK : ST_ERROR_INVALID_HANDLE;
    FUZZ_CHECK(s == want, "%s of a dead or null handle returned %s", fn, st_status_name(s));
    FUZZ_CHECK(live_count() == f.live, "%s of a dead handle changed the live count", fn);
    return;
  }
  FUZZ_CHECK(s == ST_OK, "%s of a live handle failed", fn);
  if (retain) {
    g_model->handles[h.index].refs++;
    FUZZ_CHECK(live_count() == f.live, "%s changed the live count", fn);
  } else {
    const bool last = g_model->handles[h.index].refs == 1;
    drop_reference(h.index);
    FUZZ_CHECK(live_count() == f.live - (last ? 1 : 0), "%s: the live count", fn);
  }
}

void op_query(Input& in) {
  HandleArg h = pick_handle(in);
  const int which = in.u8() % 9;
  const bool null_out = in.u8() % 16 == 0;
  const int32_t capacity = static_cast<int32_t>(in.range(-1, ST_MAX_DIMS));
  const int32_t fmt = pick_format(in);
  const Layout* l = h.index >= 0 ? &g_model->handles[h.index].layout : nullptr;
  // Poisoned outputs: a failing query must leave them as they are.
  int64_t buf[ST_MAX_DIMS + 1];
  for (int64_t& v : buf) v = 0x7e7e7e7e7e7e7e7e;
  int32_t i32 = 0x7e7e7e7e;
  void* ptr = &buf[0];
  st_device dev{0x7e, 0x7e};
  st_status s = ST_OK;
  const char* fn = "";
  switch (which) {
    case 0:
      fn = "st_tensor_ndim";
      s = st_tensor_ndim(h.t, null_out ? nullptr : &i32);
      break;
    case 1:
      fn = "st_tensor_sizes";
      s = st_tensor_sizes(h.t, null_out ? nullptr : buf, capacity);
      break;
    case 2:
      fn = "st_tensor_strides";
      s = st_tensor_strides(h.t, null_out ? nullptr : buf, capacity);
      break;
    case 3:
      fn = "st_tensor_dtype";
      s = fz_tensor_dtype(h.t, null_out ? nullptr : &i32);
      break;
    case 4:
      fn = "st_tensor_device";
      s = st_tensor_device(h.t, null_out ? nullptr : &dev);
      break;
    case 5:
      fn = "st_tensor_numel";
      s = st_tensor_numel(h.t, null_out ? nullptr : buf);
      break;
    case 6:
      fn = "st_tensor_storage_offset";
      s = st_tensor_storage_offset(h.t, null_out ? nullptr : buf);
      break;
    case 7:
      fn = "st_tensor_data_ptr";
      s = st_tensor_data_ptr(h.t, null_out ? nullptr : &ptr);
      break;
    default:
      fn = "st_tensor_is_contiguous";
      s = fz_tensor_is_contiguous(h.t, fmt, null_out ? nullptr : &i32);
      break;
  }
  check_status(fn, s);
  const bool needs_capacity = which == 1 || which == 2;
  const bool fmt_ok = fmt >= 0 && fmt <= 3;
  const bool must_fail = !l || null_out || (needs_capacity && capacity < l->ndim) || (which == 8 && !fmt_ok);
  FUZZ_CHECK(must_fail == (s != ST_OK), "%s: %s, expected %s", fn, st_status_name(s),
             must_fail ? "a failure" : "ST_OK");
  if (s != ST_OK) {
    for (int64_t v : buf) FUZZ_CHECK(v == 0x7e7e7e7e7e7e7e7e, "%s failed and wrote its output", fn);
    FUZZ_CHECK(i32 == 0x7e7e7e7e && ptr == &buf[0] && dev.type == 0x7e && dev.index == 0x7e,
               "%s failed and wrote its output", fn);
    return;
  }
  if (null_out) return;
  switch (which) {
    case 0: FUZZ_CHECK(i32 == l->ndim, "%s", fn); break;
    case 1:
    case 2:
      for (int d = 0; d < l->ndim; ++d)
        FUZZ_CHECK(buf[d] == (which == 1 ? l->sizes[d] : l->strides[d]), "%s[%d]", fn, d);
      for (int d = l->ndim; d <= ST_MAX_DIMS; ++d) FUZZ_CHECK(buf[d] == 0x7e7e7e7e7e7e7e7e, "%s wrote past ndim", fn);
      break;
    case 3: FUZZ_CHECK(i32 == l->dtype, "%s", fn); break;
    case 5: FUZZ_CHECK(buf[0] == numel(*l), "%s", fn); break;
    case 6: FUZZ_CHECK(buf[0] == l->offset, "%s", fn); break;
    case 8: {
      bool want = false;
      if (fmt == ST_MEMORY_FORMAT_CONTIGUOUS) want = is_contiguous(*l);
      if (fmt == ST_MEMORY_FORMAT_CHANNELS_LAST) want = is_channels_last(*l, 4);
      if (fmt == ST_MEMORY_FORMAT_CHANNELS_LAST_3D) want = is_channels_last(*l, 5);
      if (fmt == ST_MEMORY_FORMAT_PRESERVE) want = is_non_overlapping_and_dense(*l);
      FUZZ_CHECK(i32 == (want ? 1 : 0), "%s(fmt %d) = %d, expected %d", fn, fmt, i32, want ? 1 : 0);
      break;
    }
    default: break;
  }
}

// ---- Runtime ------------------------------------------------------------

void count_trace(void*, const char* op, int64_t ns) {
  FUZZ_CHECK(op && *op && ns >= 0, "a trace report without a name or with a negative duration");
}

void set_counting_trace(bool on) {
  FUZZ_CHECK(st_set_trace_callback(on ? count_trace : nullptr, nullptr) == ST_OK, "trace");
  g_counting_trace = on;
}

void op_runtime(Input& in) {
  switch (in.u8() % 10) {
    case 0: {
      static const int32_t kLarge[] = {ST_MAX_THREADS, ST_MAX_THREADS + 1, 4096, INT32_MAX};
      const int32_t n = in.u8() % 16 == 0 ? pick_from(in, kLarge) : static_cast<int32_t>(in.range(-2, 4));
      st_status s = st_set_num_threads(n);
      check_status("st_set_num_threads", s);
      FUZZ_CHECK((s == ST_OK) == (n >= 1 && n <= ST_MAX_THREADS), "st_set_num_threads(%d) returned %s", n,
                 st_status_name(s));
      if (s == ST_OK) FUZZ_CHECK(st_get_num_threads() == n, "st_get_num_threads");
      break;
    }
    case 1: set_counting_trace(in.u8() % 2); break;
    case 2: {
      std::lock_guard<std::mutex> lock(g_heap.mutex);
      g_heap.fail_next = true;  // the next allocation fails
      break;
    }
    case 3: {
      int64_t n = 0;
      FUZZ_CHECK(st_live_tensor_count(&n) == ST_OK && n == static_cast<int64_t>(g_model->handles.size()),
                 "st_live_tensor_count = %lld, the model has %zu handles", (long long)n, g_model->handles.size());
      FUZZ_CHECK(st_live_tensor_count(nullptr) == ST_ERROR_INVALID_ARGUMENT, "st_live_tensor_count(NULL)");
      break;
    }
    case 4: op_job_system(in); break;
    case 5: op_fp_env(in); break;
    case 6:
    case 7: op_release_inside_trace(in); break;
    case 8: op_trace_reentry(in); break;
    default: op_scale_shift_counts(in); break;
  }
}

}  // namespace fuzz
