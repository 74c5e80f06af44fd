// The fuzz target's operators that copy: contiguous, clone, to and reshape
// (new tensors), copy, a copy plan, fill and zero (into existing ones), each checked
// value by value against a reference loop for tensors under 4096 elements.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "fuzz_calls.h"
#include "fuzz_checks.h"

namespace fuzz {

// ---- Operators that make tensors -------------------------------------------

bool contiguous_in(const Layout& l, int32_t fmt) {
  switch (fmt) {
    case ST_MEMORY_FORMAT_CONTIGUOUS: return is_contiguous(l);
    case ST_MEMORY_FORMAT_CHANNELS_LAST: return is_channels_last(l, 4);
    case ST_MEMORY_FORMAT_CHANNELS_LAST_3D: return is_channels_last(l, 5);
    default: return true;
  }
}

bool format_fits(int32_t fmt, int ndim, bool preserve_allowed) {
  if (fmt == ST_MEMORY_FORMAT_CONTIGUOUS) return true;
  if (fmt == ST_MEMORY_FORMAT_CHANNELS_LAST) return ndim == 4;
  if (fmt == ST_MEMORY_FORMAT_CHANNELS_LAST_3D) return ndim == 5;
  return fmt == ST_MEMORY_FORMAT_PRESERVE && preserve_allowed;
}

// The strides a new tensor laid out as `fmt` must have (PRESERVE: checked
// by its properties instead, returns false).
bool format_strides(const Layout& l, int32_t fmt, int64_t* out) {
  if (fmt == ST_MEMORY_FORMAT_CONTIGUOUS) return contiguous_strides(l.sizes, l.ndim, out);
  if (fmt == ST_MEMORY_FORMAT_CHANNELS_LAST || fmt == ST_MEMORY_FORMAT_CHANNELS_LAST_3D)
    return channels_last_strides(l.sizes, l.ndim, out);
  return false;
}

// Whether the strides of a new tensor laid out as `fmt` fit in int64
// (PRESERVE: whether every dense order's would).
bool strides_fit(const Layout& l, int32_t fmt) {
  int64_t tmp[ST_MAX_DIMS];
  if (fmt == ST_MEMORY_FORMAT_CONTIGUOUS) return contiguous_strides(l.sizes, l.ndim, tmp);
  if ((fmt == ST_MEMORY_FORMAT_CHANNELS_LAST && l.ndim == 4) ||
      (fmt == ST_MEMORY_FORMAT_CHANNELS_LAST_3D && l.ndim == 5))
    return channels_last_strides(l.sizes, l.ndim, tmp);
  int64_t product = 1;
  for (int d = 0; d < l.ndim; ++d) {
    if (!mul_ok(product, std::max<int64_t>(l.sizes[d], 1), &product)) return false;
  }
  return true;
}

void op_make(Input& in) {
  const int which = in.u8() % 4;  // contiguous, clone, to, reshape
  HandleArg src = pick_handle(in);
  const int32_t fmt = pick_format(in);
  const int32_t dtype = which == 2 ? pick_dtype(in) : -1;
  const st_device device = which == 2 ? pick_device(in) : st_device{ST_DEVICE_CPU, 0};
  const char* names[4] = {"st_contiguous", "st_clone", "st_to", "st_reshape"};
  const char* fn = names[which];
  const bool live = src.index >= 0;
  // Copies: the vectors of the model grow below.
  const Layout sl = live ? g_model->handles[src.index].layout : Layout();
  const int src_storage = live ? g_model->handles[src.index].storage : -1;
  const StorageModel ss = live ? g_model->storages[src_storage] : StorageModel();
  int64_t sizes[ST_MAX_DIMS];
  int32_t n = 0;
  if (which == 3) {
    n = in.u8() % 8 == 0 ? pick_ndim(in) : static_cast<int32_t>(in.range(0, 4));
    for (int d = 0; d < ST_MAX_DIMS; ++d) {
      const uint8_t r = in.u8() % 8;
      sizes[d] = r == 0 ? -1 : r < 7 ? in.range(1, 4) : pick_size(in);
    }
    if (live && in.u8() % 2) {  // often the source's own element count, reshaped
      n = static_cast<int32_t>(in.range(0, 3));
      for (int d = 0; d < n; ++d) sizes[d] = 1;
      if (n > 0) sizes[n - 1] = -1;
      if (n > 1 && numel(sl) % 2 == 0 && numel(sl) > 0) sizes[0] = 2;
    }
  }
  const bool null_out = in.u8() % 32 == 0;
  // More elements than the allocator gives bytes: the copy fails at once.
  if (live && numel(sl) <= static_cast<int64_t>(kAllocCap) && !within_budget(*g_model, numel(sl))) return;
  st_tensor out{0x5eed5eed5eed5eedull};
  st_tensor* outp = null_out ? nullptr : &out;
  static std::vector<Value> before;  // the source's values (reused, see snapshot())
  before.clear();
  if (live && value_checkable(sl, ss)) values_of(sl, ss, &before);
  const Frame f = begin_call();
  st_status s;
  {
    HostileFpEnv fp;
    switch (which) {
      case 0: s = fz_contiguous(src.t, fmt, outp); break;
      case 1: s = fz_clone(src.t, fmt, outp); break;
      case 2: s = fz_to(src.t, dtype, device, fmt, outp); break;
      default: s = st_reshape(src.t, sizes, n, outp); break;
    }
  }
  check_status(fn, s);
  if (!live || null_out) {
    FUZZ_CHECK(s != ST_OK, "%s accepted a dead handle or a NULL out", fn);
    if (!null_out) check_failed_cleanly(fn, s, out, f);
    return;
  }
  // Whether the arguments are valid; valid calls fail only when an
  // allocation was refused (or, for a device, when it is unusable).
  bool ok = which == 3 ? shape_ok(sizes, n, numel(sl)) : format_fits(fmt, sl.ndim, which != 0);
  bool device_call = !ss.host;
  if (which == 2) {
    ok = ok && valid_dtype(dtype) && converts(static_cast<st_dtype>(dtype), sl.dtype);
    if (g_has_cuda && !st_device_is_cpu(device))
      device_call = true;
    else
      ok = ok && st_device_is_cpu(device);
  }
  if (!ok) FUZZ_CHECK(s != ST_OK, "%s accepted invalid arguments", fn);
  // Dense strides for huge sizes can overflow int64 even when a zero size
  // leaves no element: OUT_OF_MEMORY, as PyTorch's "Stride calculation
  // overflowed".
  const bool strides_overflow = which != 3 && !strides_fit(sl, fmt);
  // So can the bytes of a result in another dtype (a stride-0 view of INT64_MAX bools, to int32).
  int64_t result_bytes = 0;
  const int32_t result_dtype = which == 2 && valid_dtype(dtype) ? dtype : static_cast<int32_t>(sl.dtype);
  const bool bytes_overflow =
      !mul_ok(numel(sl), static_cast<int64_t>(item_size(static_cast<st_dtype>(result_dtype))), &result_bytes);
  if (ok && !device_call)
    FUZZ_CHECK(s == ST_OK || s == ST_ERROR_INTERNAL ||
                   (s == ST_ERROR_OUT_OF_MEMORY && (allocation_refused(f) || strides_overflow || bytes_overflow)),
               "%s refused valid arguments: %s", fn, st_status_name(s));
  if (s != ST_OK) return check_failed_cleanly(fn, s, out, f);

  const bool keeps_handle = out.id == src.t.id;
  if (which == 0 || which == 2) {
    bool same = contiguous_in(sl, fmt);
    if (which == 2) {
      st_device sd{};
      FUZZ_CHECK(st_tensor_device(src.t, &sd) == ST_OK, "st_tensor_device of a live handle");
      same = same && dtype == sl.dtype && sd.type == device.type && sd.index == device.index;
    }
    FUZZ_CHECK(keeps_handle == same, "%s returned %s handle", fn, keeps_handle ? "the source's own" : "a new");
  } else {
    FUZZ_CHECK(!keeps_handle, "%s returned the source's own handle", fn);
  }
  if (keeps_handle) {
    g_model->handles[src.index].refs++;
    check_no_net_allocation(fn, f);
    return;
  }
  const Layout got = read_layout(fn, out);
  FUZZ_CHECK(numel(got) == numel(sl), "%s changed the element count", fn);
  bool is_view = false;
  if (which == 3) {
    // a view when nothing was allocated for a tensor with elements
    std::lock_guard<std::mutex> lock(g_heap.mutex);
    is_view = numel(got) == 0 || (g_heap.made.empty() && ss.host);
  }
  if (is_view) {
    FUZZ_CHECK(got.offset == sl.offset, "st_reshape: a view moved the offset");
    expect_same_elements(fn, got, sl);
    add_handle(fn, out, got, src_storage, f);
    return;
  }
  FUZZ_CHECK(got.dtype == (which == 2 ? dtype : sl.dtype), "%s: the dtype", fn);
  if (which != 3) expect_sizes(fn, got, sl.sizes, sl.ndim);
  int64_t want[ST_MAX_DIMS];
  const int32_t layout_fmt = which == 3 ? static_cast<int32_t>(ST_MEMORY_FORMAT_CONTIGUOUS) : fmt;
  if (format_strides(got, layout_fmt, want)) {
    expect_strides(fn, got, want, true);
  } else {
    FUZZ_CHECK(is_non_overlapping_and_dense(got), "%s: PRESERVE gave a layout that is not dense", fn);
    bool nonnegative = true;
    for (int d = 0; d < sl.ndim; ++d) nonnegative = nonnegative && sl.strides[d] >= 0;
    if (nonnegative && is_non_overlapping_and_dense(sl)) expect_strides(fn, got, sl.strides, true);
  }
  for (int d = 0; d < got.ndim; ++d) FUZZ_CHECK(got.strides[d] >= 0, "%s: a new tensor with a negative stride", fn);
  FUZZ_CHECK(got.offset == 0, "%s: a new tensor with offset %lld", fn, (long long)got.offset);
  st_device rd{};
  FUZZ_CHECK(st_tensor_device(out, &rd) == ST_OK, "st_tensor_device of a live handle");
  const int64_t nbytes = numel(got) * static_cast<int64_t>(item_size(got.dtype));
  const int storage = new_library_storage(fn, got, nbytes, st_device_is_cpu(rd));
  StorageModel& ns = g_model->storages[storage];
  ns.checked = ss.checked;
  add_handle(fn, out, got, storage, f);
  if (!before.empty() && value_checkable(got, ns)) {
    // reshape: element i of the result is element i of the source, in row-major order
    Layout same_order = got;
    same_order.dtype = sl.dtype;
    expect_copied(fn, got, ns, which == 3 ? same_order : sl, before, nullptr);
  } else if (!ns.host) {
    ns.checked = false;
  }
  after_conversion(ns, got.dtype, sl.dtype);
}

// ---- Operators that write ---------------------------------------------------

double pick_fill_value(Input& in, bool* in_domain_out) {
  const uint8_t r = in.u8();
  double v;
  if (r < 200) {
    v = static_cast<double>(in.u8() % 201) / 2;
  } else {
    static const double odd[] = {NAN,    INFINITY, -INFINITY, 1e300,        -1e300, -1.5, 65504.0, 65520.0,
                                 3.0e38, -128.0,   255.5,     2147483648.0, 9.3e18, -0.0, 1e-40,   0.1};
    v = pick_from(in, odd);
  }
  *in_domain_out = in_domain(v) && !std::signbit(v);
  return v;
}

// A copy through a plan: made (ESTIMATE or MEASURE) and executed on the
// same tensors, then released; its statuses and results must be st_copy's.
// Every plan handle it holds is dead afterwards. *fn names the call that
// answered, whose status it checks itself (the releases after it leave
// messages of their own). A MEASURE plan leaves dst holding the copy already, so the
// execute copies a second time: the same result unless src reads dst's
// memory (`shared`), where such plans are left out.
st_status copy_through_plan(Input& in, st_tensor dst, st_tensor src, int32_t non_blocking, bool shared,
                            const char** fn) {
  const int32_t flags = in.u8() % 2 && !shared ? ST_PLAN_MEASURE : ST_PLAN_ESTIMATE;
  const bool raw = in.u8() % 2;
  st_copy_plan plan{0x5eed5eed5eed5eedull};  // a failed create must reset it
  *fn = "st_copy_plan_create";
  const st_status made = st_copy_plan_create(dst, src, nullptr, flags, &plan);
  if (made != ST_OK) {
    FUZZ_CHECK(plan.id == 0, "st_copy_plan_create failed and issued a plan");
    return made;
  }
  st_status s;
  void* dst_data = nullptr;
  void* src_data = nullptr;
  if (raw && st_tensor_data_ptr(dst, &dst_data) == ST_OK && st_tensor_data_ptr(src, &src_data) == ST_OK &&
      dst_data && src_data) {
    *fn = "st_copy_plan_execute_raw";
    s = st_copy_plan_execute_raw(plan, dst_data, src_data, non_blocking);
  } else {
    *fn = "st_copy_plan_execute";
    s = st_copy_plan_execute(plan, dst, src, non_blocking);
  }
  // Checked here, while the last error message is still the execute's.
  check_status(*fn, s);
  FUZZ_CHECK(st_copy_plan_release(plan) == ST_OK, "releasing a live plan");
  FUZZ_CHECK(st_copy_plan_release(plan) == ST_ERROR_INVALID_HANDLE, "releasing a plan twice");
  FUZZ_CHECK(st_copy_plan_execute(plan, dst, src, 0) == ST_ERROR_INVALID_HANDLE, "executing a released plan");
  int64_t live = -1;
  FUZZ_CHECK(st_live_plan_count(&live) == ST_OK && live == 0, "%lld plans are live", (long long)live);
  return s;
}

void op_write(Input& in) {
  const int kind = in.u8() % 4;  // copy, fill, zero, a copy through a plan
  const int which = kind == 3 ? 0 : kind;
  const char* names[3] = {"st_copy", "st_fill", "st_zero"};
  const char* fn = names[which];
  HandleArg dst = pick_handle(in);
  HandleArg src = which == 0 ? pick_handle(in) : HandleArg{};
  bool value_in_domain = true;
  const double value = which == 1 ? pick_fill_value(in, &value_in_domain) : 0.0;
  const int32_t non_blocking = static_cast<int32_t>(in.u8() % 3);

  const HandleModel* dh = dst.index >= 0 ? &g_model->handles[dst.index] : nullptr;
  const HandleModel* sh = src.index >= 0 ? &g_model->handles[src.index] : nullptr;
  // A fill writes every element, so its time follows numel, not memory: a
  // self-overlapping view of a few bytes can hold 4097^4 elements. Such
  // fills are correct, only slow; the fuzzer leaves them out.
  if (which != 0 && dh && numel(dh->layout) > kMaxFillElements) return;
  if (dh && !within_budget(*g_model, numel(dh->layout))) return;
  StorageModel* ds = dh ? &g_model->storages[dh->storage] : nullptr;
  const StorageModel* ss = sh ? &g_model->storages[sh->storage] : nullptr;
  static std::vector<unsigned char> before;  // reused, see snapshot()
  static std::vector<Value> src_values;
  before.clear();
  src_values.clear();
  if (ds) snapshot(*ds, &before);
  if (sh && value_checkable(sh->layout, *ss)) values_of(sh->layout, *ss, &src_values);

  const Frame f = begin_call();
  st_status s;
  {
    HostileFpEnv fp;
    s = kind == 3   ? copy_through_plan(in, dst.t, src.t, non_blocking, ds && ds == ss, &fn)
        : which == 0 ? st_copy(dst.t, src.t, non_blocking)
        : which == 1 ? st_fill(dst.t, value)
                     : st_zero(dst.t);
  }
  if (kind != 3 || fn == std::string_view("st_copy_plan_create")) check_status(fn, s);
  check_no_net_allocation(fn, f);
  if (!dh || (which == 0 && !sh)) {
    FUZZ_CHECK(s == ST_ERROR_INVALID_HANDLE, "%s with a dead handle returned %s", fn, st_status_name(s));
    if (ds) expect_unchanged(fn, *ds, before);
    return;
  }
  const Layout& dl = dh->layout;
  const bool host = ds->host && (!ss || ss->host);
  if (which == 0 && host) {
    const Layout& sl = sh->layout;
    const bool same_view = dh->storage == sh->storage && same_dims(dl, sl) && dl.offset == sl.offset &&
                           std::equal(dl.strides, dl.strides + dl.ndim, sl.strides) && dl.dtype == sl.dtype;
    if (!converts(dl.dtype, sl.dtype)) {
      FUZZ_CHECK(s == ST_ERROR_UNSUPPORTED_DTYPE, "st_copy of %s into %s returned %s", st_dtype_name(sl.dtype),
                 st_dtype_name(dl.dtype), st_status_name(s));
    } else if (!broadcasts_to(sl, dl)) {
      FUZZ_CHECK(s == ST_ERROR_SHAPE_MISMATCH || (s == ST_ERROR_OVERLAP && has_internal_overlap(dl)),
                 "st_copy of a source that does not broadcast returned %s", st_status_name(s));
    } else if (has_internal_overlap(dl) && numel(dl) > 0 && !same_view) {
      FUZZ_CHECK(s == ST_ERROR_OVERLAP, "st_copy into a self-overlapping destination returned %s", st_status_name(s));
    } else if (!has_internal_overlap(dl)) {
      FUZZ_CHECK(s == ST_OK || s == ST_ERROR_INTERNAL || (s == ST_ERROR_OUT_OF_MEMORY && allocation_refused(f)),
                 "st_copy refused a valid copy: %s", st_status_name(s));
    }
  } else if (which != 0 && !fillable(dl.dtype)) {
    FUZZ_CHECK(s == ST_ERROR_UNSUPPORTED_DTYPE, "%s of float4_e2m1fn_x2 returned %s", fn, st_status_name(s));
  } else if (which != 0 && host) {
    FUZZ_CHECK(s == ST_OK || s == ST_ERROR_INTERNAL, "%s of a live host tensor failed", fn);
  }
  if (s == ST_ERROR_INTERNAL) {  // a job system broke its contract: the destination may be partly written
    ds->checked = false;
    return;
  }
  if (s != ST_OK) return expect_unchanged(fn, *ds, before);
  if (!host) return;
  if (which == 0) {
    if (!src_values.empty() && numel(dl) < kCheckLimit && ds->checked) {
      expect_copied(fn, dl, *ds, sh->layout, src_values, &before);
    } else if (!ss->checked) {
      ds->checked = false;
    }
  } else if (!value_in_domain) {
    ds->checked = false;
  } else if (numel(dl) < kCheckLimit && ds->checked) {
    Layout scalar;
    scalar.ndim = 0;
    scalar.dtype = ST_FLOAT64;
    expect_copied(fn, dl, *ds, scalar, std::vector<Value>{Value{value, 0}}, &before);
  }
  after_conversion(*ds, dl.dtype, which == 0 ? sh->layout.dtype : ST_FLOAT64);  // a fill's value is a double
}

}  // namespace fuzz
