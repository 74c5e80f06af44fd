// Creating and releasing: st_tensor_create*, st_tensor_from_data, retain, release.
#include <cstdio>

#include "api/returning.h"
#include "core/dims.h"
#include "core/foreign.h"
#include "ops/empty.h"

using namespace st;
using namespace st::api;

namespace {

// The storage of a foreign buffer calls the user's deleter exactly once.
void run_user_deleter(const MemoryRelease& r) {
  reinterpret_cast<st_deleter>(r.fn)(r.ptr, r.ctx);
}

}  // namespace

extern "C" {

st_status st_tensor_create(const int64_t* sizes, int32_t ndim, st_dtype dtype, st_device device, st_tensor* out) {
  return guarded_out("st_tensor_create", out, [&] {
    DimVector s = read_dims(sizes, ndim, "sizes");
    ScalarType t = read_dtype(dtype);
    Device d = read_device(device);
    check_sizes_nonnegative(s);
    return ops::empty(s, t, d);
  });
}

st_status st_tensor_create_strided(const int64_t* sizes, const int64_t* strides, int32_t ndim, st_dtype dtype,
                                   st_device device, st_tensor* out) {
  return guarded_out("st_tensor_create_strided", out, [&] {
    DimVector s = read_dims(sizes, ndim, "sizes");
    DimVector st = read_dims(strides, ndim, "strides");
    ScalarType t = read_dtype(dtype);
    Device d = read_device(device);
    return ops::empty_strided(s, st, t, d);
  });
}

st_status st_tensor_create_like(st_tensor src, st_memory_format fmt, st_tensor* out) {
  return guarded_out("st_tensor_create_like", out, [&] {
    MemoryFormat f = read_memory_format(fmt);
    PinnedHandle s(src, "src");
    return ops::empty_like(*s, f);
  });
}

st_status st_tensor_from_data(void* data, const int64_t* sizes, const int64_t* strides, int32_t ndim,
                              st_dtype dtype, st_device device, st_deleter deleter, void* deleter_ctx,
                              st_tensor* out) {
  if (out) out->id = 0;
  return guarded("st_tensor_from_data", [&] {
    check_out(out);
    DimVector s = read_dims(sizes, ndim, "sizes");
    DimVector st;
    if (strides) st = read_dims(strides, ndim, "strides");
    ScalarType t = read_dtype(dtype);
    Device d = read_device(device);
    Tensor tensor = wrap_foreign(data, s, strides ? &st : nullptr, t, d);
    Storage storage = tensor.storage();
    st_tensor handle = HandleTable::instance().insert(std::move(tensor));
    // Ownership passes only now that nothing can fail: on failure the
    // caller still owns `data` and the deleter is never called.
    if (deleter) {
      MemoryRelease release;
      release.run = run_user_deleter;
      release.fn = reinterpret_cast<MemoryRelease::GenericFn>(deleter);
      release.ptr = data;
      release.ctx = deleter_ctx;
      storage->adopt_release(release);
    }
    *out = handle;
  });
}

// Retain and release answer a dead handle without an exception: a program
// may well probe handles with them, and a throw costs microseconds.
st_status st_tensor_retain(st_tensor t) {
  const st_status s = HandleTable::instance().retain(t.id);
  if (s == ST_OK) return ST_OK;
  char message[96];
  std::snprintf(message, sizeof message,
                s == ST_ERROR_INVALID_HANDLE ? "t = {0x%llx} is not a live handle"
                                             : "t = {0x%llx} already holds the most references",
                static_cast<unsigned long long>(t.id));
  return set_error("st_tensor_retain", s, message);
}

st_status st_tensor_release(st_tensor t) {
  if (t.id == 0 || HandleTable::instance().release(t.id) == ST_OK) return ST_OK;
  char message[96];
  std::snprintf(message, sizeof message, "t = {0x%llx} is not a live handle (released already, or never issued)",
                static_cast<unsigned long long>(t.id));
  return set_error("st_tensor_release", ST_ERROR_INVALID_HANDLE, message);
}

}  // extern "C"
