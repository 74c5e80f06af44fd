// Operators: st_contiguous, st_clone, st_copy, st_copy_scaled, st_to, st_fill,
// st_zero, and st_reshape (a view when possible, else a copy).
#include "api/returning.h"
#include "ops/clone.h"
#include "ops/contiguous.h"
#include "ops/copy.h"
#include "ops/fill.h"
#include "ops/reshape.h"
#include "ops/to.h"

using namespace st;
using namespace st::api;

namespace {

// Returns `result` as a handle: the pinned source's own handle (one more
// reference) when the operator answered with the source itself.
template <typename Op>
st_status returning_same_or_new(const char* fn, st_tensor src, st_tensor* out, Op&& op) noexcept {
  if (out) out->id = 0;
  return guarded(fn, [&] {
    check_out(out);
    PinnedHandle s(src, "src");
    Tensor result = op(*s);
    *out = result.is_same(*s) ? s.keep() : HandleTable::instance().insert(std::move(result));
  });
}

}  // namespace

extern "C" {

st_status st_contiguous(st_tensor src, st_memory_format fmt, st_tensor* out) {
  if (out) out->id = 0;
  return guarded("st_contiguous", [&] {
    check_out(out);
    PinnedHandle s(src, "src");
    Tensor result;
    const bool same = ops::contiguous_is_self(*s, read_memory_format(fmt), &result);
    *out = same ? s.keep() : HandleTable::instance().insert(std::move(result));
  });
}

st_status st_clone(st_tensor src, st_memory_format fmt, st_tensor* out) {
  return guarded_out("st_clone", out, [&] {
    MemoryFormat f = read_memory_format(fmt);
    PinnedHandle s(src, "src");
    return ops::clone(*s, f);
  });
}

st_status st_copy(st_tensor dst, st_tensor src, int32_t non_blocking) {
  return guarded("st_copy", [&] {
    PinnedHandle d(dst, "dst");
    PinnedHandle s(src, "src");
    ops::copy_(*d, *s, non_blocking != 0);
  });
}

st_status st_copy_scaled(st_tensor dst, st_tensor src, const st_scale_shift* ss, int32_t non_blocking) {
  return guarded("st_copy_scaled", [&] {
    ST_CHECK(ss != nullptr, ST_ERROR_INVALID_ARGUMENT, "ss is NULL");
    PinnedHandle d(dst, "dst");
    PinnedHandle s(src, "src");
    const ScaleShift prepared = prepare_scale_shift(*d, *s, ss->scale, ss->shift, ss->n, ss->dim, ss->saturate);
    ops::copy_scaled_(*d, *s, prepared, non_blocking != 0);
  });
}

st_status st_to(st_tensor src, st_dtype dtype, st_device device, st_memory_format fmt, st_tensor* out) {
  return returning_same_or_new("st_to", src, out, [&](const Tensor& s) {
    ScalarType t = read_dtype(dtype);
    Device d = read_device(device);
    MemoryFormat f = read_memory_format(fmt);
    return ops::to(s, t, d, f);
  });
}

st_status st_fill(st_tensor dst, double value) {
  return guarded("st_fill", [&] {
    PinnedHandle d(dst, "dst");
    ops::fill_(*d, value);
  });
}

st_status st_zero(st_tensor dst) {
  return guarded("st_zero", [&] {
    PinnedHandle d(dst, "dst");
    ops::fill_(*d, 0.0);
  });
}

st_status st_reshape(st_tensor src, const int64_t* sizes, int32_t ndim, st_tensor* out) {
  return guarded_out("st_reshape", out, [&] {
    DimVector sz = read_dims(sizes, ndim, "sizes");
    PinnedHandle s(src, "src");
    return ops::reshape(*s, sz);
  });
}

}  // extern "C"
