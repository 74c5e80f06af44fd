// Views: st_as_strided, st_permute, st_transpose, st_slice, st_select,
// st_expand, st_unsqueeze, st_squeeze, st_flip, st_view.
#include "api/returning.h"
#include "core/views.h"

using namespace st;
using namespace st::api;

extern "C" {

st_status st_as_strided(st_tensor src, const int64_t* sizes, const int64_t* strides, int32_t ndim,
                        int64_t storage_offset, st_tensor* out) {
  return guarded_out("st_as_strided", out, [&] {
    DimVector sz = read_dims(sizes, ndim, "sizes");
    DimVector st = read_dims(strides, ndim, "strides");
    PinnedHandle s(src, "src");
    return as_strided(*s, sz, st, storage_offset);
  });
}

st_status st_permute(st_tensor src, const int32_t* dims, int32_t ndim, st_tensor* out) {
  return guarded_out("st_permute", out, [&] {
    check_ndim(ndim);
    ST_CHECK(dims != nullptr || ndim == 0, ST_ERROR_INVALID_ARGUMENT, "dims is NULL but ndim = %d", ndim);
    PinnedHandle s(src, "src");
    return permute(*s, InlineVector<int32_t>(dims, ndim));
  });
}

st_status st_transpose(st_tensor src, int32_t dim0, int32_t dim1, st_tensor* out) {
  return guarded_out("st_transpose", out, [&] {
    PinnedHandle s(src, "src");
    return transpose(*s, dim0, dim1);
  });
}

st_status st_slice(st_tensor src, int32_t dim, int64_t start, int64_t stop, int64_t step, st_tensor* out) {
  return guarded_out("st_slice", out, [&] {
    PinnedHandle s(src, "src");
    return slice(*s, dim, start, stop, step);
  });
}

st_status st_select(st_tensor src, int32_t dim, int64_t index, st_tensor* out) {
  return guarded_out("st_select", out, [&] {
    PinnedHandle s(src, "src");
    return select(*s, dim, index);
  });
}

st_status st_expand(st_tensor src, const int64_t* sizes, int32_t ndim, st_tensor* out) {
  return guarded_out("st_expand", out, [&] {
    DimVector sz = read_dims(sizes, ndim, "sizes");
    PinnedHandle s(src, "src");
    return expand(*s, sz);
  });
}

st_status st_unsqueeze(st_tensor src, int32_t dim, st_tensor* out) {
  return guarded_out("st_unsqueeze", out, [&] {
    PinnedHandle s(src, "src");
    return unsqueeze(*s, dim);
  });
}

st_status st_squeeze(st_tensor src, int32_t dim, st_tensor* out) {
  return guarded_out("st_squeeze", out, [&] {
    PinnedHandle s(src, "src");
    return squeeze(*s, dim);
  });
}

st_status st_flip(st_tensor src, int32_t dim, st_tensor* out) {
  return guarded_out("st_flip", out, [&] {
    PinnedHandle s(src, "src");
    return flip(*s, dim);
  });
}

st_status st_view(st_tensor src, const int64_t* sizes, int32_t ndim, st_tensor* out) {
  return guarded_out("st_view", out, [&] {
    DimVector sz = read_dims(sizes, ndim, "sizes");
    PinnedHandle s(src, "src");
    return view(*s, sz);
  });
}

}  // extern "C"
