// What the fuzz target checks after a call: statuses, messages, out
// handles, live counts, allocations, layouts against the model, bytes
// that must not change and values a copy must have written; and the
// bookkeeping of handles and storages that goes with it.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_enum_calls.h"
#include "fuzz_hostile.h"
#include "fuzz_layout.h"
#include "fuzz_model.h"
#include "fuzz_values.h"
#include "stride.h"

namespace fuzz {

// ---- Checking calls ------------------------------------------------------

inline int64_t live_count() {
  int64_t n = -1;
  FUZZ_CHECK(st_live_tensor_count(&n) == ST_OK && n >= 0, "st_live_tensor_count failed");
  return n;
}

struct Frame {
  int64_t live;
  size_t heap_live;
  long refusals;
};

// The live count before a call is the model's: every call's checks compare
// the library's count with it, so it agrees at the start of the next.
inline Frame begin_call() {
  g_jobs.broke_contract = false;
  std::lock_guard<std::mutex> lock(g_heap.mutex);
  g_heap.made.clear();
  return Frame{static_cast<int64_t>(g_model->handles.size()), g_heap.live.size(), g_heap.refusals};
}

inline bool allocation_refused(const Frame& f) {
  std::lock_guard<std::mutex> lock(g_heap.mutex);
  return g_heap.refusals != f.refusals;
}

// STRIDE_FUZZ_TRACE=1 in the environment prints every call: how a
// reproducer gets to its failure.
inline const bool g_trace = std::getenv("STRIDE_FUZZ_TRACE") != nullptr;

// ST_ERROR_INTERNAL is the answer exactly when the installed job system
// broke its contract during the call (an allocation refused inside a chunk
// may answer first, with OUT_OF_MEMORY).
inline void check_status(const char* fn, st_status s) {
  const int32_t v = fz_status_bits(s);
  if (g_trace) std::fprintf(stderr, "%s -> %s\n", fn, st_status_name(s));
  FUZZ_CHECK(v >= ST_OK && v <= ST_ERROR_READ_ONLY, "%s returned %d, which is not an st_status", fn, v);
  const bool broke = g_jobs.broke_contract;
  g_jobs.broke_contract = false;
  FUZZ_CHECK(s != ST_ERROR_INTERNAL || broke, "%s returned ST_ERROR_INTERNAL", fn);
  FUZZ_CHECK(!broke || s == ST_ERROR_INTERNAL || s == ST_ERROR_OUT_OF_MEMORY,
             "%s returned %s after the job system broke its contract", fn, st_status_name(s));
  if (s != ST_OK) {
    const char* msg = st_last_error_message();
    const size_t k = std::strlen(fn);
    FUZZ_CHECK(std::strncmp(msg, fn, k) == 0 && msg[k] == ':', "%s failed (%s) with a message not naming it", fn,
               st_status_name(s));
  }
}

// A failed call: no handle, no net allocation.
inline void check_failed_cleanly(const char* fn, st_status s, st_tensor out, const Frame& f) {
  FUZZ_CHECK(out.id == 0, "%s failed (%s) but wrote out = {0x%llx}", fn, st_status_name(s),
             static_cast<unsigned long long>(out.id));
  FUZZ_CHECK(live_count() == f.live, "%s failed (%s) but the live handle count changed", fn, st_status_name(s));
  std::lock_guard<std::mutex> lock(g_heap.mutex);
  FUZZ_CHECK(g_heap.live.size() == f.heap_live, "%s failed (%s) and kept %zd allocations", fn, st_status_name(s),
             static_cast<ssize_t>(g_heap.live.size()) - static_cast<ssize_t>(f.heap_live));
}

// An operator without an out handle allocates nothing that outlives it.
inline void check_no_net_allocation(const char* fn, const Frame& f) {
  std::lock_guard<std::mutex> lock(g_heap.mutex);
  FUZZ_CHECK(g_heap.live.size() == f.heap_live, "%s kept %zd allocations", fn,
             static_cast<ssize_t>(g_heap.live.size()) - static_cast<ssize_t>(f.heap_live));
  FUZZ_CHECK(live_count() == f.live, "%s changed the live handle count", fn);
}

inline bool is_live_id(uint64_t id) {
  for (const HandleModel& h : g_model->handles) {
    if (h.id == id) return true;
  }
  return false;
}

// What the library says a handle looks like; every query must succeed.
inline Layout read_layout(const char* fn, st_tensor t) {
  Layout l;
  int32_t ndim = -1, dtype = -1;
  FUZZ_CHECK(st_tensor_ndim(t, &ndim) == ST_OK && ndim >= 0 && ndim <= ST_MAX_DIMS, "%s: ndim of a live handle", fn);
  l.ndim = ndim;
  FUZZ_CHECK(st_tensor_sizes(t, l.sizes, ST_MAX_DIMS) == ST_OK, "%s: sizes of a live handle", fn);
  FUZZ_CHECK(st_tensor_strides(t, l.strides, ST_MAX_DIMS) == ST_OK, "%s: strides of a live handle", fn);
  FUZZ_CHECK(st_tensor_storage_offset(t, &l.offset) == ST_OK, "%s: offset of a live handle", fn);
  FUZZ_CHECK(fz_tensor_dtype(t, &dtype) == ST_OK && valid_dtype(dtype), "%s: dtype of a live handle", fn);
  l.dtype = static_cast<st_dtype>(dtype);
  for (int d = 0; d < l.ndim; ++d) FUZZ_CHECK(l.sizes[d] >= 0, "%s: sizes[%d] = %lld", fn, d, (long long)l.sizes[d]);
  int64_t n = -1, expected_n = 0;
  FUZZ_CHECK(st_tensor_numel(t, &n) == ST_OK, "%s: numel of a live handle", fn);
  FUZZ_CHECK(numel_of(l.sizes, l.ndim, &expected_n) && n == expected_n,
             "%s: numel %lld for sizes whose product is %lld", fn, (long long)n, (long long)expected_n);
  int64_t bytes;
  FUZZ_CHECK(mul_ok(n, static_cast<int64_t>(item_size(l.dtype)), &bytes), "%s: a tensor of more than int64 bytes", fn);
  return l;
}

// Every element of a tensor with elements lies inside its storage, and
// data_ptr is element (0, ..., 0).
inline void check_inside_storage(const char* fn, st_tensor t, const Layout& l, const StorageModel& s) {
  const int64_t item = static_cast<int64_t>(item_size(l.dtype));
  FUZZ_CHECK(l.dtype == s.dtype, "%s: a view changed the dtype", fn);
  if (numel(l) == 0) return;
  int64_t lo, hi, first, last;
  FUZZ_CHECK(extent(l.sizes, l.strides, l.ndim, &lo, &hi) && add_ok(l.offset, lo, &first) &&
                 add_ok(l.offset, hi, &last) && first >= 0 && last < s.nbytes / item,
             "%s: elements outside the storage of %lld bytes (offset %lld)", fn, (long long)s.nbytes,
             (long long)l.offset);
  if (s.host) {
    void* p = nullptr;
    FUZZ_CHECK(st_tensor_data_ptr(t, &p) == ST_OK, "%s: data_ptr of a live handle", fn);
    FUZZ_CHECK(p == s.base + l.offset * item, "%s: data_ptr %p, expected the storage base %p + %lld elements", fn, p,
               static_cast<void*>(s.base), (long long)l.offset);
  }
}

inline bool same_dims(const Layout& a, const Layout& b) {
  if (a.ndim != b.ndim) return false;
  for (int d = 0; d < a.ndim; ++d) {
    if (a.sizes[d] != b.sizes[d]) return false;
  }
  return true;
}

inline void expect_sizes(const char* fn, const Layout& got, const int64_t* sizes, int ndim) {
  FUZZ_CHECK(got.ndim == ndim, "%s: ndim %d, expected %d", fn, got.ndim, ndim);
  for (int d = 0; d < ndim; ++d) {
    FUZZ_CHECK(got.sizes[d] == sizes[d], "%s: sizes[%d] = %lld, expected %lld", fn, d, (long long)got.sizes[d],
               (long long)sizes[d]);
  }
}

// Strides compared on the dims where they matter: all of them when `all`,
// else only dims of size > 1 (the stride of a size-1 dim is a convention).
inline void expect_strides(const char* fn, const Layout& got, const int64_t* strides, bool all) {
  for (int d = 0; d < got.ndim; ++d) {
    if (!all && got.sizes[d] <= 1) continue;
    FUZZ_CHECK(got.strides[d] == strides[d], "%s: strides[%d] = %lld, expected %lld", fn, d, (long long)got.strides[d],
               (long long)strides[d]);
  }
}

// Records a new handle: out is fresh, one more handle is live.
inline int add_handle(const char* fn, st_tensor out, const Layout& l, int storage, const Frame& f) {
  FUZZ_CHECK(out.id != 0, "%s succeeded with the null handle", fn);
  FUZZ_CHECK(!is_live_id(out.id), "%s returned {0x%llx}, a handle already live", fn, (unsigned long long)out.id);
  FUZZ_CHECK(live_count() == f.live + 1, "%s: the live count went from %lld to %lld", fn, (long long)f.live,
             (long long)live_count());
  Model& m = *g_model;
  if (g_trace)
    std::fprintf(stderr, "  new handle 0x%llx on storage %d: %s\n", (unsigned long long)out.id, storage,
                 describe(l).c_str());
  m.handles.push_back(HandleModel{out.id, 1, l, storage});
  m.storages[storage].handles++;
  check_inside_storage(fn, out, l, m.storages[storage]);
  return static_cast<int>(m.handles.size() - 1);
}

// Drops one reference of handle `index`; the last one ends it, and the last
// handle of a storage frees it.
inline void drop_reference(int index) {
  Model& m = *g_model;
  HandleModel& h = m.handles[index];
  if (--h.refs > 0) return;
  StorageModel& s = m.storages[h.storage];
  m.dead_ids.push_back(h.id);
  m.handles.erase(m.handles.begin() + index);
  if (--s.handles > 0) return;
  if (s.allocated) {
    std::lock_guard<std::mutex> lock(g_heap.mutex);
    for (const auto& a : g_heap.live) {
      FUZZ_CHECK(a.first != s.base, "the last handle of a storage was released, but its memory is still allocated");
    }
  }
  if (s.wrapped) {
    FUZZ_CHECK(s.wrapped->deleter_calls == (s.has_deleter ? 1 : 0), "wrapped memory: the deleter ran %d times",
               s.wrapped->deleter_calls);
  }
}

// A storage the library just allocated for a new tensor: its base is the
// one allocation this call made (none for an empty one).
inline int new_library_storage(const char* fn, const Layout& l, int64_t nbytes, bool on_host) {
  StorageModel s;
  s.dtype = l.dtype;
  s.nbytes = nbytes;
  s.host = on_host;
  if (on_host && nbytes > 0) {
    std::lock_guard<std::mutex> lock(g_heap.mutex);
    FUZZ_CHECK(g_heap.made.size() == 1, "%s made %zu allocations for one tensor of %lld bytes", fn, g_heap.made.size(),
               (long long)nbytes);
    FUZZ_CHECK(static_cast<int64_t>(g_heap.made[0].second) == nbytes, "%s allocated %zu bytes for %lld", fn,
               g_heap.made[0].second, (long long)nbytes);
    s.base = static_cast<unsigned char*>(g_heap.made[0].first);
    s.allocated = true;
  } else if (on_host) {
    std::lock_guard<std::mutex> lock(g_heap.mutex);
    FUZZ_CHECK(g_heap.made.empty(), "%s allocated memory for a tensor without bytes", fn);
  }
  g_model->storages.push_back(s);
  return static_cast<int>(g_model->storages.size() - 1);
}

// Fills every element of a fresh host storage with domain values: element
// i holds ((7i + salt) mod 201) / 2 + ((3i + salt) mod 11) i. The values
// repeat every 2211 elements, so one period is encoded and then copied.
inline void initialize_storage(StorageModel& s, uint8_t salt) {
  if (!s.host || s.nbytes == 0) return;
  constexpr int64_t kPeriod = 201 * 11;
  const int64_t item = static_cast<int64_t>(item_size(s.dtype));
  const int64_t n = s.nbytes / item;
  for (int64_t i = 0; i < std::min(n, kPeriod); ++i) {
    Value v{static_cast<double>((i * 7 + salt) % 201) / 2, static_cast<double>((i * 3 + salt) % 11)};
    // float8_e8m0fnu's conversion leaves the domain (fuzz_values.h): its
    // storages start with powers of two from 0.5 to 64 instead.
    if (s.dtype == ST_FLOAT8_E8M0FNU) v = Value{std::ldexp(1.0, static_cast<int>((i * 7 + salt) % 8) - 1), 0};
    encode(s.dtype, s.base + i * item, convert(v, s.dtype));
  }
  for (int64_t done = kPeriod; done < n;) {
    const int64_t step = std::min(done, n - done);  // `done` is a whole number of periods
    std::memcpy(s.base + done * item, s.base, static_cast<size_t>(step * item));
    done += step;
  }
  s.checked = true;
}

// The copies of bytes and values a call's checks take go into buffers that
// the caller reuses from call to call: allocating them afresh each time
// cost a tenth of an execution (ASan's quarantine hands out new pages).
inline void snapshot(const StorageModel& s, std::vector<unsigned char>* out) {
  out->clear();
  if (s.host && s.nbytes != 0) out->assign(s.base, s.base + s.nbytes);
}

inline void expect_unchanged(const char* fn, const StorageModel& s, const std::vector<unsigned char>& before) {
  if (!s.host || s.nbytes == 0) return;
  FUZZ_CHECK(std::memcmp(s.base, before.data(), before.size()) == 0, "%s changed the bytes of its destination", fn);
}

// The values of a checked host tensor in row-major order.
inline void values_of(const Layout& l, const StorageModel& s, std::vector<Value>* out) {
  out->resize(static_cast<size_t>(numel(l)));
  const int64_t item = static_cast<int64_t>(item_size(l.dtype));
  Value* values = out->data();
  for_each_element(l, [&](int64_t i, int64_t at) { values[i] = decode(l.dtype, s.base + at * item); });
}

inline bool value_checkable(const Layout& l, const StorageModel& s) {
  return s.host && s.checked && numel(l) < kCheckLimit;
}

// `dst` holds `src`'s values (src_values, row-major) converted, broadcast
// from `src_layout`, and no byte of dst's storage outside dst changed from
// `before` (NULL for a new storage, all of it the destination).
inline void expect_copied(const char* fn, const Layout& dst, StorageModel& ds, const Layout& src_layout,
                          const std::vector<Value>& src_values, const std::vector<unsigned char>* before) {
  const int64_t item = static_cast<int64_t>(item_size(dst.dtype));
  static std::vector<bool> covered;
  covered.assign(before ? static_cast<size_t>(ds.nbytes / item) : 0, false);
  for_each_broadcast(dst, src_layout, [&](int64_t i, int64_t at, int64_t from) {
    if (before) covered[static_cast<size_t>(at)] = true;
    const Value want = convert(src_values[static_cast<size_t>(from)], dst.dtype);
    const Value got = decode(dst.dtype, ds.base + at * item);
    FUZZ_CHECK(same_value(want, got), "%s: element %lld is (%g, %g), expected (%g, %g); dst %s, src %s", fn,
               (long long)i, got.re, got.im, want.re, want.im, describe(dst).c_str(), describe(src_layout).c_str());
  });
  for (size_t e = 0; e < covered.size(); ++e) {
    if (covered[e]) continue;
    FUZZ_CHECK(std::memcmp(ds.base + e * item, before->data() + e * item, static_cast<size_t>(item)) == 0,
               "%s wrote element %zu of the storage, outside its destination", fn, e);
  }
}

// After a write of `dst` values converted from `src` values into a storage,
// checked or not (a tensor too large to check is written all the same):
// float8_e8m0fnu's conversion can leave the domain (0 -> 2^-127, 96 ->
// 128), so the storage is unchecked from then on. A copy from
// float8_e8m0fnu keeps its values, which are domain values.
inline void after_conversion(StorageModel& s, st_dtype dst, st_dtype src) {
  if (dst == ST_FLOAT8_E8M0FNU && src != ST_FLOAT8_E8M0FNU) s.checked = false;
}

// ---- The calls ------------------------------------------------------------

inline const int64_t* maybe_null(Input& in, const int64_t* p, int32_t ndim) {
  // NULL arrays: allowed for ndim 0, refused otherwise
  return (in.u8() % 16 == 0 || ndim == 0) && in.u8() % 2 ? nullptr : p;
}

inline bool ndim_ok(int32_t ndim) { return ndim >= 0 && ndim <= ST_MAX_DIMS; }

inline void fill_sizes(Input& in, int64_t* sizes, int32_t ndim) {
  const int n = ndim_ok(ndim) ? ndim : ST_MAX_DIMS;
  for (int d = 0; d < n; ++d) sizes[d] = ndim > 4 ? (in.u8() % 8 == 0 ? pick_size(in) : 1) : pick_size(in);
}

inline bool sizes_ok(const int64_t* sizes, int32_t ndim) {
  if (!ndim_ok(ndim) || (!sizes && ndim > 0)) return false;
  for (int d = 0; d < ndim; ++d) {
    if (sizes[d] < 0) return false;
  }
  return true;
}

inline bool st_device_is_cpu(st_device d) { return d.type == ST_DEVICE_CPU && d.index == 0; }

// view/reshape sizes: at most one -1, no other negative size, and as many
// elements as the source.
inline bool shape_ok(const int64_t* sizes, int32_t n, int64_t count) {
  if (!ndim_ok(n)) return false;
  int infer = -1;
  int64_t known = 1;
  for (int d = 0; d < n; ++d) {
    if (sizes[d] == -1) {
      if (infer >= 0) return false;
      infer = d;
    } else if (sizes[d] < 0 || !mul_ok(known, sizes[d], &known)) {
      return false;
    }
  }
  return infer >= 0 ? known != 0 && count % known == 0 : known == count;
}

// The element a view reads for each row-major index is the one the source
// reads for the same index (view, reshape): checked element by element.
inline void expect_same_elements(const char* fn, const Layout& view, const Layout& src) {
  if (numel(view) >= kCheckLimit) return;
  std::vector<int64_t> a, b;
  for_each_element(view, [&](int64_t, int64_t at) { a.push_back(at); });
  for_each_element(src, [&](int64_t, int64_t at) { b.push_back(at); });
  FUZZ_CHECK(a == b, "%s: the view does not read the source's elements in order", fn);
}

}  // namespace fuzz
