// The fuzz target's calls that make tensors from nothing:
// st_tensor_create, st_tensor_create_strided, st_tensor_create_like and
// st_tensor_from_data.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_calls.h"
#include "fuzz_checks.h"

namespace fuzz {

void op_create(Input& in, bool strided) {
  const char* fn = strided ? "st_tensor_create_strided" : "st_tensor_create";
  int32_t ndim = pick_ndim(in);
  int64_t sizes_buf[ST_MAX_DIMS], strides_buf[ST_MAX_DIMS];
  fill_sizes(in, sizes_buf, ndim);
  for (int d = 0; d < ST_MAX_DIMS; ++d) strides_buf[d] = in.u8() % 4 == 0 ? pick_stride(in) : in.range(0, 7);
  const int64_t* sizes = maybe_null(in, sizes_buf, ndim);
  const int64_t* strides = maybe_null(in, strides_buf, ndim);
  const int32_t dtype = pick_dtype(in);
  const st_device device = pick_device(in);
  const bool null_out = in.u8() % 32 == 0;
  st_tensor out{0x5eed5eed5eed5eedull};
  const Frame f = begin_call();
  st_status s = strided ? fz_tensor_create_strided(sizes, strides, ndim, dtype, device, null_out ? nullptr : &out)
                        : fz_tensor_create(sizes, ndim, dtype, device, null_out ? nullptr : &out);
  check_status(fn, s);
  bool args_ok = sizes_ok(sizes, ndim) && valid_dtype(dtype) && !null_out;
  if (strided) {
    args_ok = args_ok && (strides || ndim == 0);
    for (int d = 0; args_ok && d < ndim; ++d) args_ok = strides[d] >= 0;
  }
  if (!args_ok) FUZZ_CHECK(s != ST_OK, "%s accepted invalid arguments", fn);
  if (s != ST_OK) {
    if (!null_out) check_failed_cleanly(fn, s, out, f);
    return;
  }
  const Layout got = read_layout(fn, out);
  expect_sizes(fn, got, sizes, ndim);
  FUZZ_CHECK(got.dtype == dtype && got.offset == 0, "%s: dtype or offset", fn);
  int64_t elements = 0, nbytes = 0;
  if (strided) {
    expect_strides(fn, got, strides, true);
    int64_t lo, hi;
    if (numel(got) > 0) {
      FUZZ_CHECK(extent(got.sizes, got.strides, ndim, &lo, &hi), "%s: the span overflows", fn);
      elements = hi + 1;
    }
  } else {
    int64_t want[ST_MAX_DIMS];
    FUZZ_CHECK(contiguous_strides(sizes, ndim, want), "%s succeeded with strides that overflow", fn);
    expect_strides(fn, got, want, true);
    elements = numel(got);
  }
  FUZZ_CHECK(mul_ok(elements, static_cast<int64_t>(item_size(got.dtype)), &nbytes), "%s: bytes overflow", fn);
  st_device dev{};
  FUZZ_CHECK(st_tensor_device(out, &dev) == ST_OK && dev.type == device.type && dev.index == device.index,
             "%s: the device", fn);
  const int storage = new_library_storage(fn, got, nbytes, st_device_is_cpu(device));
  initialize_storage(g_model->storages[storage], in.u8());
  add_handle(fn, out, got, storage, f);
}

void op_create_like(Input& in) {
  const char* fn = "st_tensor_create_like";
  HandleArg src = pick_handle(in);
  const int32_t fmt = pick_format(in);
  st_tensor out{0x5eed5eed5eed5eedull};
  const Frame f = begin_call();
  st_status s = fz_tensor_create_like(src.t, fmt, &out);
  check_status(fn, s);
  if (src.index < 0) FUZZ_CHECK(s != ST_OK, "%s accepted a dead handle", fn);
  if (s != ST_OK) return check_failed_cleanly(fn, s, out, f);
  const HandleModel& h = g_model->handles[src.index];
  const Layout& sl = h.layout;
  const StorageModel& ss = g_model->storages[h.storage];
  const Layout got = read_layout(fn, out);
  expect_sizes(fn, got, sl.sizes, sl.ndim);
  FUZZ_CHECK(got.dtype == sl.dtype && got.offset == 0, "%s: dtype or offset", fn);
  int64_t want[ST_MAX_DIMS];
  if (fmt == ST_MEMORY_FORMAT_CONTIGUOUS) {
    FUZZ_CHECK(contiguous_strides(sl.sizes, sl.ndim, want), "%s: strides overflow", fn);
    expect_strides(fn, got, want, true);
  } else if (fmt == ST_MEMORY_FORMAT_CHANNELS_LAST || fmt == ST_MEMORY_FORMAT_CHANNELS_LAST_3D) {
    FUZZ_CHECK(sl.ndim == (fmt == ST_MEMORY_FORMAT_CHANNELS_LAST ? 4 : 5), "%s: channels-last of rank %d", fn, sl.ndim);
    FUZZ_CHECK(channels_last_strides(sl.sizes, sl.ndim, want), "%s: strides overflow", fn);
    expect_strides(fn, got, want, true);
  } else {
    FUZZ_CHECK(fmt == ST_MEMORY_FORMAT_PRESERVE, "%s accepted format %d", fn, fmt);
    FUZZ_CHECK(is_non_overlapping_and_dense(got), "%s: PRESERVE gave a layout that is not dense", fn);
    bool nonnegative = true;
    for (int d = 0; d < sl.ndim; ++d) nonnegative = nonnegative && sl.strides[d] >= 0;
    if (nonnegative && is_non_overlapping_and_dense(sl)) expect_strides(fn, got, sl.strides, true);
  }
  for (int d = 0; d < got.ndim; ++d) FUZZ_CHECK(got.strides[d] >= 0, "%s: a negative stride", fn);
  const int storage = new_library_storage(fn, got, numel(got) * static_cast<int64_t>(item_size(got.dtype)), ss.host);
  initialize_storage(g_model->storages[storage], in.u8());
  add_handle(fn, out, got, storage, f);
}

void op_from_data(Input& in) {
  const char* fn = "st_tensor_from_data";
  const int mode = in.u8() % 8;  // 0-4 valid, 5 NULL data, 6 overflowing strides, 7 any arguments
  const int32_t ndim = mode == 7 ? pick_ndim(in) : static_cast<int32_t>(in.range(mode == 6 ? 1 : 0, 4));
  int64_t sizes[ST_MAX_DIMS], strides[ST_MAX_DIMS];
  for (int d = 0; d < ST_MAX_DIMS; ++d) {
    sizes[d] = mode == 7 ? pick_size(in) : in.range(0, 4);
    strides[d] = mode == 7 ? pick_stride(in) : static_cast<int64_t>(in.range(0, 12)) - 6;
  }
  if (mode == 6) {
    sizes[0] = 3;
    strides[0] = INT64_MAX / 2;
  }
  const bool row_major = mode != 6 && in.u8() % 3 == 0;
  const int32_t dtype = mode == 7 ? pick_dtype(in) : static_cast<int32_t>(in.range(0, 11));
  st_device device = mode == 7 ? pick_device(in) : st_device{ST_DEVICE_CPU, 0};
  if (g_has_cuda && device.type != ST_DEVICE_CPU) device.type = 0;  // host memory never poses as device memory
  const bool with_deleter = in.u8() % 2;

  // Whether the arguments describe a wrap the library must accept, and the
  // span of its elements.
  const bool args_ok = sizes_ok(sizes, ndim) && valid_dtype(dtype) && st_device_is_cpu(device);
  const int64_t item = valid_dtype(dtype) ? static_cast<int64_t>(item_size(static_cast<st_dtype>(dtype))) : 1;
  bool span_ok = false;
  int64_t elements = 0, lowest = 0, count = 0;
  if (args_ok) {
    int64_t row[ST_MAX_DIMS], lo, hi, bytes;
    const bool strides_ok = contiguous_strides(sizes, ndim, row);
    const int64_t* st = row_major ? row : strides;
    if (strides_ok || !row_major) {
      if (numel_of(sizes, ndim, &count) && count == 0) {
        span_ok = true;
      } else if (numel_of(sizes, ndim, &count) && mul_ok(count, item, &bytes) && extent(sizes, st, ndim, &lo, &hi) &&
                 !__builtin_sub_overflow(hi, lo, &bytes) && bytes < INT64_MAX / item) {
        span_ok = true;
        elements = hi - lo + 1;
        lowest = lo;
      }
    }
  }
  auto* w = new Wrapped();
  g_model->wrapped.push_back(w);
  if (span_ok && elements > 0 && elements * item <= static_cast<int64_t>(kAllocCap) && mode != 5) {
    w->block = static_cast<unsigned char*>(std::malloc(static_cast<size_t>(elements * item)));
    w->data = w->block - lowest * item;
    StorageModel tmp;
    tmp.base = w->block;
    tmp.nbytes = elements * item;
    tmp.dtype = static_cast<st_dtype>(dtype);
    initialize_storage(tmp, in.u8());
  } else if (mode != 5 && span_ok && elements > 0) {
    // Valid, but too large to back with memory: an address that cannot hold
    // the elements (they would reach below 0 or past the top), or NULL.
    const uint64_t below = static_cast<uint64_t>(-lowest) * static_cast<uint64_t>(item);
    const uint64_t above = static_cast<uint64_t>(elements) * static_cast<uint64_t>(item) - below;
    const uint8_t r = in.u8() % 3;
    if (r == 0 && below > 64) w->data = reinterpret_cast<void*>(uintptr_t{64});
    if (r == 1 && above > 64) w->data = reinterpret_cast<void*>(UINTPTR_MAX - 63);
  } else if (mode != 5) {
    static unsigned char scratch[64];
    w->data = in.u8() % 2 ? scratch : nullptr;  // refused arguments, or no element to wrap
  }
  const bool must_succeed = span_ok && (elements == 0 || w->block);
  st_tensor out{0x5eed5eed5eed5eedull};
  const Frame f = begin_call();
  st_status s = fz_tensor_from_data(w->data, sizes, row_major ? nullptr : strides, ndim, dtype, device,
                                    with_deleter ? wrapped_deleter : nullptr, w, &out);
  check_status(fn, s);
  FUZZ_CHECK(w->deleter_calls == 0, "%s ran the deleter during the call", fn);
  FUZZ_CHECK(must_succeed == (s == ST_OK), "%s returned %s, expected %s", fn, st_status_name(s),
             must_succeed ? "ST_OK" : "a failure");
  if (s != ST_OK) return check_failed_cleanly(fn, s, out, f);
  {
    std::lock_guard<std::mutex> lock(g_heap.mutex);
    FUZZ_CHECK(g_heap.made.empty(), "%s allocated tensor memory", fn);
  }
  const Layout got = read_layout(fn, out);
  expect_sizes(fn, got, sizes, ndim);
  FUZZ_CHECK(got.dtype == dtype, "%s: dtype", fn);
  if (!row_major) expect_strides(fn, got, strides, true);
  StorageModel sm;
  sm.dtype = got.dtype;
  sm.wrapped = w;
  sm.has_deleter = with_deleter;
  if (w->block) {
    sm.base = w->block;
    sm.nbytes = elements * item;
    FUZZ_CHECK(got.offset == -lowest, "%s: offset %lld, expected %lld", fn, (long long)got.offset, (long long)-lowest);
  }
  g_model->storages.push_back(sm);
  add_handle(fn, out, got, static_cast<int>(g_model->storages.size() - 1), f);
}

}  // namespace fuzz
