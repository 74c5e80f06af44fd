// The fuzz target's views: as_strided, permute, transpose, slice, select,
// expand, unsqueeze, squeeze, flip and view, each against the layout the
// model expects.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_calls.h"
#include "fuzz_checks.h"

namespace fuzz {

// ---- Views ----------------------------------------------------------------

bool dim_ok(int32_t dim, int ndim) { return ndim > 0 && dim >= -ndim && dim < ndim; }
int wrap(int32_t dim, int ndim) { return dim < 0 ? dim + ndim : dim; }

// A view: the same storage, the layout `want` (strides compared on every dim
// when `all_strides`, else on dims of size > 1).
void finish_view(const char* fn, st_status s, st_tensor out, const Frame& f, const HandleArg& src, bool must_succeed,
                 const Layout* want, bool all_strides) {
  check_status(fn, s);
  if (src.index < 0) FUZZ_CHECK(s != ST_OK, "%s accepted a dead handle", fn);
  if (src.index >= 0 && must_succeed) FUZZ_CHECK(s == ST_OK, "%s refused valid arguments", fn);
  if (s != ST_OK) return check_failed_cleanly(fn, s, out, f);
  const HandleModel& h = g_model->handles[src.index];
  const int storage = h.storage;
  const Layout got = read_layout(fn, out);
  if (want) {
    expect_sizes(fn, got, want->sizes, want->ndim);
    expect_strides(fn, got, want->strides, all_strides);
    FUZZ_CHECK(got.offset == want->offset, "%s: offset %lld, expected %lld", fn, (long long)got.offset,
               (long long)want->offset);
  }
  {
    std::lock_guard<std::mutex> lock(g_heap.mutex);
    FUZZ_CHECK(g_heap.made.empty(), "%s allocated memory", fn);
  }
  add_handle(fn, out, got, storage, f);
}

void op_view(Input& in) {
  HandleArg src = pick_handle(in);
  const Layout* sl = src.index >= 0 ? &g_model->handles[src.index].layout : nullptr;
  const int ndim = sl ? sl->ndim : 2;
  const int which = in.u8() % 10;
  const bool null_out = in.u8() % 32 == 0;
  st_tensor out{0x5eed5eed5eed5eedull};
  st_tensor* outp = null_out ? nullptr : &out;
  Layout want;
  if (sl) want = *sl;
  bool must_succeed = !null_out;
  bool exact = true;  // `want` describes the result
  bool all = true;    // compare the strides of size-1 dims too
  st_status s;
  const char* fn;
  Frame f;
  switch (which) {
    case 0: {
      fn = "st_as_strided";
      const int32_t n = in.u8() % 8 == 0 ? pick_ndim(in) : static_cast<int32_t>(in.range(0, 4));
      int64_t sizes[ST_MAX_DIMS], strides[ST_MAX_DIMS];
      for (int d = 0; d < ST_MAX_DIMS; ++d) {
        sizes[d] = in.u8() % 8 == 0 ? pick_size(in) : in.range(0, 4);
        strides[d] = pick_stride(in);
      }
      const int64_t offset = in.u8() % 8 == 0 ? pick_index(in) : in.range(0, 24);
      f = begin_call();
      s = st_as_strided(src.t, sizes, strides, n, offset, outp);
      if (sl && ndim_ok(n)) {
        const StorageModel& st = g_model->storages[g_model->handles[src.index].storage];
        const int64_t elems = st.nbytes / static_cast<int64_t>(item_size(sl->dtype));
        int64_t count = 0, lo, hi, first, last, bytes;
        bool ok = sizes_ok(sizes, n) && offset >= 0 && numel_of(sizes, n, &count) &&
                  mul_ok(count, static_cast<int64_t>(item_size(sl->dtype)), &bytes);
        if (ok && count == 0) {
          ok = offset <= elems;
        } else if (ok) {
          ok = extent(sizes, strides, n, &lo, &hi) && add_ok(offset, lo, &first) && add_ok(offset, hi, &last) &&
               first >= 0 && last < elems;
        }
        must_succeed = must_succeed && ok;
        if (!ok && !null_out) FUZZ_CHECK(s != ST_OK, "st_as_strided accepted a view outside its storage");
        want.ndim = n;
        std::copy(sizes, sizes + n, want.sizes);
        std::copy(strides, strides + n, want.strides);
        want.offset = offset;
      } else {
        must_succeed = false;
      }
      break;
    }
    case 1: {
      fn = "st_permute";
      int32_t dims[ST_MAX_DIMS];
      for (int d = 0; d < ST_MAX_DIMS; ++d) dims[d] = d;
      for (int d = ndim - 1; d > 0; --d) std::swap(dims[d], dims[in.u8() % (d + 1)]);
      int32_t n = ndim;
      if (in.u8() % 8 == 0) dims[in.u8() % ST_MAX_DIMS] = pick_dim(in, ndim);
      if (in.u8() % 16 == 0) n = pick_ndim(in);
      const bool null_dims = in.u8() % 32 == 0;
      f = begin_call();
      s = st_permute(src.t, null_dims ? nullptr : dims, n, outp);
      bool ok = sl && n == ndim && (!null_dims || n == 0);
      bool seen[ST_MAX_DIMS] = {};
      for (int i = 0; ok && i < n; ++i) {
        ok = dims[i] >= -ndim && dims[i] < ndim && !seen[wrap(dims[i], ndim)];
        if (ok) seen[wrap(dims[i], ndim)] = true;
      }
      must_succeed = must_succeed && ok;
      if (ok) {
        for (int i = 0; i < n; ++i) {
          want.sizes[i] = sl->sizes[wrap(dims[i], ndim)];
          want.strides[i] = sl->strides[wrap(dims[i], ndim)];
        }
      }
      if (!ok && sl && !null_out) FUZZ_CHECK(s != ST_OK, "st_permute accepted a bad permutation");
      break;
    }
    case 2: {
      fn = "st_transpose";
      const int32_t d0 = pick_dim(in, ndim), d1 = pick_dim(in, ndim);
      f = begin_call();
      s = st_transpose(src.t, d0, d1, outp);
      const bool ok = dim_ok(d0, ndim) && dim_ok(d1, ndim);
      must_succeed = must_succeed && ok;
      if (sl && ok) {
        std::swap(want.sizes[wrap(d0, ndim)], want.sizes[wrap(d1, ndim)]);
        std::swap(want.strides[wrap(d0, ndim)], want.strides[wrap(d1, ndim)]);
      }
      if (sl && !ok) FUZZ_CHECK(s != ST_OK, "st_transpose accepted dims out of range");
      break;
    }
    case 3: {
      fn = "st_slice";
      const int32_t dim = pick_dim(in, ndim);
      int64_t start = pick_index(in), stop = pick_index(in);
      const int64_t step = in.u8() % 8 == 0 ? pick_index(in) : in.range(1, 4);
      f = begin_call();
      s = st_slice(src.t, dim, start, stop, step, outp);
      const bool ok = dim_ok(dim, ndim) && step >= 1;
      must_succeed = must_succeed && ok;
      if (sl && ok) {
        const int d = wrap(dim, ndim);
        const int64_t n = sl->sizes[d];
        auto clamp = [n](int64_t i) {
          if (i < 0) i = i < -n ? 0 : i + n;
          return i > n ? n : i;
        };
        start = clamp(start);
        stop = std::max(clamp(stop), start);
        want.sizes[d] = stop > start ? (stop - start - 1) / step + 1 : 0;
        if (want.sizes[d] > 0 && numel(*sl) > 0) want.offset += start * sl->strides[d];
        if (!mul_ok(sl->strides[d], step, &want.strides[d])) want.strides[d] = sl->strides[d];
      }
      if (sl && !ok) FUZZ_CHECK(s != ST_OK, "st_slice accepted a bad dim or step");
      break;
    }
    case 4: {
      fn = "st_select";
      const int32_t dim = pick_dim(in, ndim);
      const int64_t index = pick_index(in);
      f = begin_call();
      s = st_select(src.t, dim, index, outp);
      bool ok = dim_ok(dim, ndim);
      if (sl && ok) {
        const int d = wrap(dim, ndim);
        const int64_t n = sl->sizes[d];
        ok = index >= -n && index < n;
        if (ok) {
          if (numel(*sl) > 0) want.offset += (index < 0 ? index + n : index) * sl->strides[d];
          for (int i = d; i + 1 < ndim; ++i) {
            want.sizes[i] = sl->sizes[i + 1];
            want.strides[i] = sl->strides[i + 1];
          }
          want.ndim = ndim - 1;
        }
      }
      must_succeed = must_succeed && ok;
      if (sl && !ok) FUZZ_CHECK(s != ST_OK, "st_select accepted a bad dim or index");
      break;
    }
    case 5: {
      fn = "st_expand";
      const int32_t n = in.u8() % 8 == 0 ? pick_ndim(in) : static_cast<int32_t>(in.range(ndim, ndim + 2));
      int64_t sizes[ST_MAX_DIMS];
      for (int d = 0; d < ST_MAX_DIMS; ++d) {
        const int sd = d - (n - ndim);
        const uint8_t r = in.u8() % 8;
        sizes[d] = r < 3 && sl && sd >= 0 && sd < ndim ? sl->sizes[sd]
                   : r < 5                             ? -1
                   : r < 7                             ? in.range(0, 4)
                                                       : pick_size(in);
      }
      f = begin_call();
      s = st_expand(src.t, sizes, n, outp);
      bool ok = sl && ndim_ok(n) && n >= ndim;
      for (int d = 0; ok && d < n; ++d) {
        const int sd = d - (n - ndim);
        const int64_t have = sd >= 0 ? sl->sizes[sd] : 1;
        if (sizes[d] == -1) {
          ok = sd >= 0;
          want.sizes[d] = have;
          want.strides[d] = sd >= 0 ? sl->strides[sd] : 0;
        } else {
          ok = sizes[d] >= 0 && (sizes[d] == have || have == 1);
          want.sizes[d] = sizes[d];
          want.strides[d] = sizes[d] == have && sd >= 0 ? sl->strides[sd] : 0;
        }
      }
      int64_t count, bytes;
      if (ok) ok = numel_of(want.sizes, n, &count) && mul_ok(count, static_cast<int64_t>(item_size(sl->dtype)), &bytes);
      must_succeed = must_succeed && ok;
      want.ndim = n;
      all = false;
      if (sl && !ok) FUZZ_CHECK(s != ST_OK, "st_expand accepted sizes it cannot reach");
      break;
    }
    case 6: {
      fn = "st_unsqueeze";
      const int32_t dim = pick_dim(in, ndim + 1);
      f = begin_call();
      s = st_unsqueeze(src.t, dim, outp);
      const bool ok = ndim < ST_MAX_DIMS && dim_ok(dim, ndim + 1);
      must_succeed = must_succeed && ok;
      if (sl && ok) {
        const int d = wrap(dim, ndim + 1);
        for (int i = ndim; i > d; --i) {
          want.sizes[i] = sl->sizes[i - 1];
          want.strides[i] = sl->strides[i - 1];
        }
        want.sizes[d] = 1;
        want.ndim = ndim + 1;
        all = false;
      }
      if (sl && !ok) FUZZ_CHECK(s != ST_OK, "st_unsqueeze accepted a bad dim");
      break;
    }
    case 7: {
      fn = "st_squeeze";
      const int32_t dim = pick_dim(in, ndim);
      f = begin_call();
      s = st_squeeze(src.t, dim, outp);
      const bool ok = ndim == 0 ? (dim == 0 || dim == -1) : dim_ok(dim, ndim);
      must_succeed = must_succeed && ok;
      if (sl && ok && ndim > 0 && sl->sizes[wrap(dim, ndim)] == 1) {
        for (int i = wrap(dim, ndim); i + 1 < ndim; ++i) {
          want.sizes[i] = sl->sizes[i + 1];
          want.strides[i] = sl->strides[i + 1];
        }
        want.ndim = ndim - 1;
      }
      if (sl && !ok) FUZZ_CHECK(s != ST_OK, "st_squeeze accepted a bad dim");
      break;
    }
    case 8: {
      fn = "st_flip";
      const int32_t dim = pick_dim(in, ndim);
      f = begin_call();
      s = st_flip(src.t, dim, outp);
      const bool ok = dim_ok(dim, ndim);
      must_succeed = must_succeed && ok;
      if (sl && ok) {
        const int d = wrap(dim, ndim);
        if (sl->sizes[d] > 1 && numel(*sl) > 0) want.offset += (sl->sizes[d] - 1) * sl->strides[d];
        if (sl->strides[d] != INT64_MIN) want.strides[d] = -sl->strides[d];
      }
      if (sl && !ok) FUZZ_CHECK(s != ST_OK, "st_flip accepted a bad dim");
      break;
    }
    default: {
      fn = "st_view";
      const int32_t n = in.u8() % 8 == 0 ? pick_ndim(in) : static_cast<int32_t>(in.range(0, 4));
      int64_t sizes[ST_MAX_DIMS];
      for (int d = 0; d < ST_MAX_DIMS; ++d) {
        const uint8_t r = in.u8() % 8;
        sizes[d] = r == 0 ? -1 : r < 7 ? in.range(1, 4) : pick_size(in);
      }
      f = begin_call();
      s = st_view(src.t, sizes, n, outp);
      must_succeed = false;  // whether the strides allow it is checked by its result
      exact = false;
      if (sl && !shape_ok(sizes, n, numel(*sl))) FUZZ_CHECK(s != ST_OK, "st_view accepted an impossible shape");
      if (s == ST_OK && sl) {
        const Layout got = read_layout(fn, out);
        FUZZ_CHECK(got.offset == sl->offset && numel(got) == numel(*sl), "st_view changed the offset or numel");
        for (int d = 0; d < n; ++d) {
          if (sizes[d] != -1) FUZZ_CHECK(got.sizes[d] == sizes[d], "st_view: sizes[%d]", d);
        }
        expect_same_elements(fn, got, *sl);
      }
      break;
    }
  }
  if (src.index < 0 || null_out) must_succeed = false;
  if (null_out) {
    check_status(fn, s);
    FUZZ_CHECK(s != ST_OK, "%s accepted a NULL out", fn);
    return;
  }
  finish_view(fn, s, out, f, src, must_succeed, exact ? &want : nullptr, all);
  if (s == ST_OK && which == 5) {
    // expand: element i reads the source element it broadcasts from
    const HandleModel& v = g_model->handles.back();
    const Layout& src_layout = g_model->handles[src.index].layout;
    if (numel(v.layout) < kCheckLimit && numel(src_layout) < kCheckLimit) {
      std::vector<int64_t> src_at;
      for_each_element(src_layout, [&](int64_t, int64_t at) { src_at.push_back(at); });
      for_each_broadcast(v.layout, src_layout, [&](int64_t i, int64_t at, int64_t from) {
        FUZZ_CHECK(at == src_at[static_cast<size_t>(from)], "st_expand: element %lld reads the wrong source element",
                   (long long)i);
      });
    }
  }
}

}  // namespace fuzz
