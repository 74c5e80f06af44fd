// Reading metadata: st_tensor_ndim, _sizes, _strides, _dtype, _device, _numel,
// _storage_offset, _data_ptr, _is_contiguous.
#include "api/args.h"
#include "api/guard.h"
#include "api/handle_table.h"

using namespace st;
using namespace st::api;

namespace {

// Runs `read(tensor)` for a metadata query: `out` checked first, written only on success.
template <typename Out, typename Read>
st_status query(const char* fn, st_tensor t, Out* out, Read&& read) noexcept {
  return guarded(fn, [&] {
    check_out(out);
    PinnedHandle h(t, "t");
    *out = read(*h);
  });
}

void copy_dims(const DimVector& dims, int64_t* out, int32_t capacity) {
  check_out(out);
  ST_CHECK(capacity >= dims.size(), ST_ERROR_INVALID_ARGUMENT, "capacity = %d is less than the %d dim%s", capacity,
           dims.size(), plural(dims.size()));
  for (int i = 0; i < dims.size(); ++i) out[i] = dims[i];
}

}  // namespace

extern "C" {

st_status st_tensor_ndim(st_tensor t, int32_t* out) {
  return query("st_tensor_ndim", t, out, [](const Tensor& x) { return static_cast<int32_t>(x.ndim()); });
}

st_status st_tensor_sizes(st_tensor t, int64_t* out, int32_t capacity) {
  return guarded("st_tensor_sizes", [&] {
    PinnedHandle h(t, "t");
    copy_dims(h->sizes(), out, capacity);
  });
}

st_status st_tensor_strides(st_tensor t, int64_t* out, int32_t capacity) {
  return guarded("st_tensor_strides", [&] {
    PinnedHandle h(t, "t");
    copy_dims(h->strides(), out, capacity);
  });
}

st_status st_tensor_dtype(st_tensor t, st_dtype* out) {
  return query("st_tensor_dtype", t, out, [](const Tensor& x) { return static_cast<st_dtype>(x.dtype()); });
}

st_status st_tensor_device(st_tensor t, st_device* out) {
  return query("st_tensor_device", t, out, [](const Tensor& x) {
    Device d = x.device();
    return st_device{static_cast<int32_t>(d.type), d.index};
  });
}

st_status st_tensor_numel(st_tensor t, int64_t* out) {
  return query("st_tensor_numel", t, out, [](const Tensor& x) { return x.numel(); });
}

st_status st_tensor_storage_offset(st_tensor t, int64_t* out) {
  return query("st_tensor_storage_offset", t, out, [](const Tensor& x) { return x.storage_offset(); });
}

st_status st_tensor_data_ptr(st_tensor t, void** out) {
  return query("st_tensor_data_ptr", t, out, [](const Tensor& x) { return x.data(); });
}

st_status st_tensor_is_contiguous(st_tensor t, st_memory_format fmt, int32_t* out) {
  return guarded("st_tensor_is_contiguous", [&] {
    check_out(out);
    MemoryFormat f = read_memory_format(fmt);
    PinnedHandle h(t, "t");
    *out = h->is_contiguous(f) ? 1 : 0;
  });
}

}  // extern "C"
