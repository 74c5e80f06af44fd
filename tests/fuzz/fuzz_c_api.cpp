// The C API fuzz target: the input bytes become a sequence of calls —
// create, create_strided, create_like, from_data, every view, contiguous,
// clone, to, copy, fill, zero, reshape, retain, release and the metadata
// reads — with arguments drawn from valid and invalid ranges: live, stale,
// forged and null handles, NULL pointers, huge sizes and strides, dims out
// of range, unknown enum values, and destinations that overlap their source.
//
// After every call it checks what the contract promises, against a
// reference model of its own (fuzz_layout.h, fuzz_values.h):
//  - the status is one of st_status, never ST_ERROR_INTERNAL, and a failure
//    leaves a message that starts with the function's name;
//  - on failure no handle was issued (out == {0}, the live count is
//    unchanged, no allocation is left over) and the destination's bytes
//    are unchanged;
//  - on success the sizes, strides and offset match the model, every
//    element lies inside its storage, and for tensors under 4096 elements
//    the values a copy wrote match a reference loop;
//  - where the model can tell (a dead handle, a dim out of range, an
//    as_strided view outside the storage, a broadcast that cannot work),
//    the call fails or succeeds as it must.
// At the end of each input everything is released: the handle table is
// empty, every allocation was freed with its own size, and every deleter of
// wrapped memory ran exactly once.
//
// Any broken promise aborts with a message (libFuzzer keeps the input).
#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "fuzz_enum_calls.h"
#include "fuzz_layout.h"
#include "fuzz_values.h"
#include "stride.h"

namespace fuzz {
namespace {

constexpr size_t kAllocCap = 256 * 1024;  // larger requests fail: huge sizes end as OUT_OF_MEMORY
constexpr int64_t kCheckLimit = 4096;     // value checks for tensors below this many elements
constexpr size_t kMaxHandles = 16;
constexpr int kMaxCalls = 128;
constexpr int64_t kMaxFillElements = int64_t{1} << 20;

[[noreturn]] __attribute__((format(printf, 1, 2))) void bug(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::fprintf(stderr, "stride fuzz: ");
  std::vfprintf(stderr, fmt, ap);
  std::fprintf(stderr, "\n  last error message: \"%s\"\n", st_last_error_message());
  va_end(ap);
  std::abort();
}

#define FUZZ_CHECK(cond, ...) \
  do {                        \
    if (!(cond)) bug(__VA_ARGS__); \
  } while (0)

std::string describe(const Layout& l) {
  std::string s = std::string(st_dtype_name(l.dtype)) + " sizes (";
  for (int d = 0; d < l.ndim; ++d) s += (d ? ", " : "") + std::to_string(l.sizes[d]);
  s += ") strides (";
  for (int d = 0; d < l.ndim; ++d) s += (d ? ", " : "") + std::to_string(l.strides[d]);
  return s + ") offset " + std::to_string(l.offset);
}

// ---- The input ----------------------------------------------------------

class Input {
 public:
  Input(const uint8_t* data, size_t size) : p_(data), n_(size) {}
  bool empty() const { return n_ == 0; }
  uint8_t u8() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  uint64_t u64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | u8();
    return v;
  }
  int64_t range(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(u8() % (hi - lo + 1)); }

 private:
  const uint8_t* p_;
  size_t n_;
};

const int64_t kHugeSizes[] = {-1, -2, INT64_MAX, INT64_MIN, int64_t{1} << 31, int64_t{1} << 40, int64_t{1} << 62, 4097};
const int64_t kHugeStrides[] = {INT64_MAX, INT64_MIN, int64_t{1} << 40, -(int64_t{1} << 40), int64_t{1} << 62, 1000};
const int32_t kBadDims[] = {INT32_MIN, INT32_MAX, 25, -26, 100};

template <typename T, size_t N>
T pick_from(Input& in, const T (&values)[N]) {
  return values[in.u8() % N];
}

int32_t pick_ndim(Input& in) {
  const int r = in.u8() % 20;
  if (r < 16) return r % 5;
  static const int32_t odd[4] = {25, -1, 26, INT32_MAX};
  return odd[r - 16];
}

int64_t pick_size(Input& in) {
  const uint8_t r = in.u8();
  return r < 232 ? r % 6 : pick_from(in, kHugeSizes);
}

int64_t pick_stride(Input& in) {
  const uint8_t r = in.u8();
  return r < 232 ? static_cast<int64_t>(r % 13) - 6 : pick_from(in, kHugeStrides);
}

int64_t pick_index(Input& in) {
  const uint8_t r = in.u8();
  if (r < 232) return static_cast<int64_t>(r % 17) - 8;
  static const int64_t odd[] = {INT64_MIN, INT64_MAX, INT64_MIN + 1, int64_t{1} << 40, -(int64_t{1} << 40)};
  return pick_from(in, odd);
}

int32_t pick_dim(Input& in, int ndim) {
  const uint8_t r = in.u8();
  return r < 240 ? static_cast<int32_t>(r % (2 * ndim + 3)) - (ndim + 1) : pick_from(in, kBadDims);
}

int32_t pick_dtype(Input& in) {
  const uint8_t r = in.u8();
  if (r < 248) return r % 12;
  static const int32_t odd[] = {12, -1, 255, INT32_MIN};
  return pick_from(in, odd);
}

int32_t pick_format(Input& in) {
  const uint8_t r = in.u8();
  if (r < 248) return r % 4;
  static const int32_t odd[] = {4, -1, INT32_MAX};
  return pick_from(in, odd);
}

st_device pick_device(Input& in) {
  const uint8_t r = in.u8();
  if (r < 236) return st_device{ST_DEVICE_CPU, 0};
  static const st_device odd[] = {{ST_DEVICE_CPU, 1}, {ST_DEVICE_CUDA, 0}, {ST_DEVICE_CUDA_HOST, 0},
                                  {ST_DEVICE_CUDA, -1}, {0, 0}, {7, 0}, {ST_DEVICE_CUDA, 1000}};
  return pick_from(in, odd);
}

bool valid_dtype(int32_t d) { return d >= 0 && d < 12; }

// ---- The allocator -------------------------------------------------------

// Every CPU allocation of the library, checked on free. Requests above
// kAllocCap, and the next one after the input asks for a failure, get NULL.
struct Heap {
  std::mutex mutex;
  std::vector<std::pair<void*, size_t>> live;
  std::vector<std::pair<void*, size_t>> made;  // allocations since the last call began
  long allocs = 0, frees = 0, refusals = 0;
  bool fail_next = false;
};
Heap g_heap;

void* heap_alloc(void*, size_t nbytes, size_t alignment) {
  std::lock_guard<std::mutex> lock(g_heap.mutex);
  FUZZ_CHECK(nbytes > 0, "the allocator was asked for 0 bytes");
  FUZZ_CHECK(alignment >= 64 && (alignment & (alignment - 1)) == 0, "alignment %zu", alignment);
  if (g_heap.fail_next || nbytes > kAllocCap) {
    g_heap.fail_next = false;
    g_heap.refusals++;
    return nullptr;
  }
  void* p = std::aligned_alloc(alignment, (nbytes + alignment - 1) / alignment * alignment);
  FUZZ_CHECK(p, "aligned_alloc(%zu) failed", nbytes);
  g_heap.live.emplace_back(p, nbytes);
  g_heap.made.emplace_back(p, nbytes);
  g_heap.allocs++;
  return p;
}

void heap_free(void*, void* ptr, size_t nbytes) {
  std::lock_guard<std::mutex> lock(g_heap.mutex);
  FUZZ_CHECK(ptr, "free(NULL)");
  auto it = std::find_if(g_heap.live.begin(), g_heap.live.end(), [&](const auto& a) { return a.first == ptr; });
  FUZZ_CHECK(it != g_heap.live.end(), "free of %p, which is not a live allocation", ptr);
  FUZZ_CHECK(it->second == nbytes, "free of %p with %zu bytes; it was allocated with %zu", ptr, nbytes, it->second);
  g_heap.live.erase(it);
  g_heap.frees++;
  std::free(ptr);
}

// ---- The model -----------------------------------------------------------

// Memory handed to st_tensor_from_data; freed by the fuzzer at the end of
// the input, after checking its deleter ran as often as it had to.
struct Wrapped {
  unsigned char* block = nullptr;
  void* data = nullptr;  // the pointer given as `data`
  int deleter_calls = 0;
};

void wrapped_deleter(void* data, void* ctx) {
  auto* w = static_cast<Wrapped*>(ctx);
  FUZZ_CHECK(data == w->data, "the deleter got %p, the wrapped data was %p", data, w->data);
  w->deleter_calls++;
}

struct StorageModel {
  unsigned char* base = nullptr;  // host storages: the lowest byte
  int64_t nbytes = 0;
  st_dtype dtype = ST_FLOAT32;
  bool host = true;     // CPU memory the fuzzer may read and write
  bool checked = true;  // every element holds a domain value (fuzz_values.h)
  bool allocated = false;  // came from the allocator (nbytes > 0)
  int handles = 0;      // live handles that use it
  Wrapped* wrapped = nullptr;
  bool has_deleter = false;
};

struct HandleModel {
  uint64_t id;
  int refs;
  Layout layout;
  int storage;
};

struct Model {
  std::vector<StorageModel> storages;
  std::vector<HandleModel> handles;
  std::vector<uint64_t> dead_ids;
  std::vector<Wrapped*> wrapped;
};

Model* g_model;
bool g_has_cuda = false;

// A handle argument: a live one (index >= 0) or one that must be refused.
struct HandleArg {
  st_tensor t{0};
  int index = -1;
};

HandleArg pick_handle(Input& in) {
  Model& m = *g_model;
  const uint8_t r = in.u8();
  const int kind = r % 10;
  HandleArg a;
  if (kind < 7 && !m.handles.empty()) {
    a.index = static_cast<int>(in.u8() % m.handles.size());
    a.t.id = m.handles[a.index].id;
  } else if (kind == 7 && !m.dead_ids.empty()) {
    a.t.id = m.dead_ids[in.u8() % m.dead_ids.size()];
  } else if (kind == 8 && !m.handles.empty()) {
    // a live slot with another generation
    a.t.id = m.handles[in.u8() % m.handles.size()].id ^ (static_cast<uint64_t>(1 + in.u8()) << 32);
  } else if (kind == 9) {
    a.t.id = in.u64();
    for (size_t i = 0; i < m.handles.size(); ++i) {
      if (m.handles[i].id == a.t.id) a.index = static_cast<int>(i);
    }
  }
  return a;
}

// ---- Checking calls ------------------------------------------------------

int64_t live_count() {
  int64_t n = -1;
  FUZZ_CHECK(st_live_tensor_count(&n) == ST_OK && n >= 0, "st_live_tensor_count failed");
  return n;
}

struct Frame {
  int64_t live;
  size_t heap_live;
  long refusals;
};

Frame begin_call() {
  std::lock_guard<std::mutex> lock(g_heap.mutex);
  g_heap.made.clear();
  return Frame{live_count(), g_heap.live.size(), g_heap.refusals};
}

bool allocation_refused(const Frame& f) {
  std::lock_guard<std::mutex> lock(g_heap.mutex);
  return g_heap.refusals != f.refusals;
}

// STRIDE_FUZZ_TRACE=1 in the environment prints every call: how a
// reproducer gets to its failure.
const bool g_trace = std::getenv("STRIDE_FUZZ_TRACE") != nullptr;

void check_status(const char* fn, st_status s) {
  const int32_t v = fz_status_bits(s);
  if (g_trace) std::fprintf(stderr, "%s -> %s\n", fn, st_status_name(s));
  FUZZ_CHECK(v >= ST_OK && v <= ST_ERROR_READ_ONLY, "%s returned %d, which is not an st_status", fn, v);
  FUZZ_CHECK(s != ST_ERROR_INTERNAL, "%s returned ST_ERROR_INTERNAL", fn);
  if (s != ST_OK) {
    const char* msg = st_last_error_message();
    const size_t k = std::strlen(fn);
    FUZZ_CHECK(std::strncmp(msg, fn, k) == 0 && msg[k] == ':', "%s failed (%s) with a message not naming it", fn,
               st_status_name(s));
  }
}

// A failed call: no handle, no net allocation.
void check_failed_cleanly(const char* fn, st_status s, st_tensor out, const Frame& f) {
  FUZZ_CHECK(out.id == 0, "%s failed (%s) but wrote out = {0x%llx}", fn, st_status_name(s),
             static_cast<unsigned long long>(out.id));
  FUZZ_CHECK(live_count() == f.live, "%s failed (%s) but the live handle count changed", fn, st_status_name(s));
  std::lock_guard<std::mutex> lock(g_heap.mutex);
  FUZZ_CHECK(g_heap.live.size() == f.heap_live, "%s failed (%s) and kept %zd allocations", fn, st_status_name(s),
             static_cast<ssize_t>(g_heap.live.size()) - static_cast<ssize_t>(f.heap_live));
}

// An operator without an out handle allocates nothing that outlives it.
void check_no_net_allocation(const char* fn, const Frame& f) {
  std::lock_guard<std::mutex> lock(g_heap.mutex);
  FUZZ_CHECK(g_heap.live.size() == f.heap_live, "%s kept %zd allocations", fn,
             static_cast<ssize_t>(g_heap.live.size()) - static_cast<ssize_t>(f.heap_live));
  FUZZ_CHECK(live_count() == f.live, "%s changed the live handle count", fn);
}

bool is_live_id(uint64_t id) {
  for (const HandleModel& h : g_model->handles) {
    if (h.id == id) return true;
  }
  return false;
}

// What the library says a handle looks like; every query must succeed.
Layout read_layout(const char* fn, st_tensor t) {
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
  FUZZ_CHECK(numel_of(l.sizes, l.ndim, &expected_n) && n == expected_n, "%s: numel %lld for sizes whose product is %lld",
             fn, (long long)n, (long long)expected_n);
  int64_t bytes;
  FUZZ_CHECK(mul_ok(n, static_cast<int64_t>(item_size(l.dtype)), &bytes), "%s: a tensor of more than int64 bytes", fn);
  return l;
}

// Every element of a tensor with elements lies inside its storage, and
// data_ptr is element (0, ..., 0).
void check_inside_storage(const char* fn, st_tensor t, const Layout& l, const StorageModel& s) {
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

bool same_dims(const Layout& a, const Layout& b) {
  if (a.ndim != b.ndim) return false;
  for (int d = 0; d < a.ndim; ++d) {
    if (a.sizes[d] != b.sizes[d]) return false;
  }
  return true;
}

void expect_sizes(const char* fn, const Layout& got, const int64_t* sizes, int ndim) {
  FUZZ_CHECK(got.ndim == ndim, "%s: ndim %d, expected %d", fn, got.ndim, ndim);
  for (int d = 0; d < ndim; ++d) {
    FUZZ_CHECK(got.sizes[d] == sizes[d], "%s: sizes[%d] = %lld, expected %lld", fn, d, (long long)got.sizes[d],
               (long long)sizes[d]);
  }
}

// Strides compared on the dims where they matter: all of them when `all`,
// else only dims of size > 1 (the stride of a size-1 dim is a convention).
void expect_strides(const char* fn, const Layout& got, const int64_t* strides, bool all) {
  for (int d = 0; d < got.ndim; ++d) {
    if (!all && got.sizes[d] <= 1) continue;
    FUZZ_CHECK(got.strides[d] == strides[d], "%s: strides[%d] = %lld, expected %lld", fn, d,
               (long long)got.strides[d], (long long)strides[d]);
  }
}

// Records a new handle: out is fresh, one more handle is live.
int add_handle(const char* fn, st_tensor out, const Layout& l, int storage, const Frame& f) {
  FUZZ_CHECK(out.id != 0, "%s succeeded with the null handle", fn);
  FUZZ_CHECK(!is_live_id(out.id), "%s returned {0x%llx}, a handle already live", fn, (unsigned long long)out.id);
  FUZZ_CHECK(live_count() == f.live + 1, "%s: the live count went from %lld to %lld", fn, (long long)f.live,
             (long long)live_count());
  Model& m = *g_model;
  if (g_trace) std::fprintf(stderr, "  new handle 0x%llx on storage %d: %s\n", (unsigned long long)out.id, storage,
                            describe(l).c_str());
  m.handles.push_back(HandleModel{out.id, 1, l, storage});
  m.storages[storage].handles++;
  check_inside_storage(fn, out, l, m.storages[storage]);
  return static_cast<int>(m.handles.size() - 1);
}

// Drops one reference of handle `index`; the last one ends it, and the last
// handle of a storage frees it.
void drop_reference(int index) {
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
int new_library_storage(const char* fn, st_tensor out, const Layout& l, int64_t nbytes, bool on_host) {
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
  (void)out;
  g_model->storages.push_back(s);
  return static_cast<int>(g_model->storages.size() - 1);
}

// Fills every element of a fresh host storage with domain values.
void initialize_storage(StorageModel& s, uint8_t salt) {
  if (!s.host || s.nbytes == 0) return;
  const size_t item = item_size(s.dtype);
  const int64_t n = s.nbytes / static_cast<int64_t>(item);
  for (int64_t i = 0; i < n; ++i) {
    Value v{static_cast<double>((i * 7 + salt) % 201) / 2, static_cast<double>((i * 3 + salt) % 11)};
    encode(s.dtype, s.base + i * static_cast<int64_t>(item), convert(v, s.dtype));
  }
  s.checked = true;
}

std::vector<unsigned char> snapshot(const StorageModel& s) {
  if (!s.host || s.nbytes == 0) return {};
  return std::vector<unsigned char>(s.base, s.base + s.nbytes);
}

void expect_unchanged(const char* fn, const StorageModel& s, const std::vector<unsigned char>& before) {
  if (!s.host || s.nbytes == 0) return;
  FUZZ_CHECK(std::memcmp(s.base, before.data(), before.size()) == 0, "%s changed the bytes of its destination", fn);
}

// The values of a checked host tensor in row-major order.
std::vector<Value> values_of(const Layout& l, const StorageModel& s) {
  std::vector<Value> out;
  const int64_t item = static_cast<int64_t>(item_size(l.dtype));
  for_each_element(l, [&](int64_t, int64_t at) { out.push_back(decode(l.dtype, s.base + at * item)); });
  return out;
}

bool value_checkable(const Layout& l, const StorageModel& s) { return s.host && s.checked && numel(l) < kCheckLimit; }

// `dst` holds `src`'s values (src_values, row-major) converted, broadcast
// from `src_layout`, and no byte of dst's storage outside dst changed.
void expect_copied(const char* fn, const Layout& dst, const StorageModel& ds, const Layout& src_layout,
                   const std::vector<Value>& src_values, const std::vector<unsigned char>& before) {
  const int64_t item = static_cast<int64_t>(item_size(dst.dtype));
  std::vector<bool> covered(static_cast<size_t>(ds.nbytes / item), false);
  for_each_element(dst, [&](int64_t i, int64_t at) {
    covered[static_cast<size_t>(at)] = true;
    const Value want = convert(src_values[static_cast<size_t>(broadcast_source_index(dst, src_layout, i))], dst.dtype);
    const Value got = decode(dst.dtype, ds.base + at * item);
    FUZZ_CHECK(same_value(want, got), "%s: element %lld is (%g, %g), expected (%g, %g); dst %s, src %s", fn,
               (long long)i, got.re, got.im, want.re, want.im, describe(dst).c_str(), describe(src_layout).c_str());
  });
  for (size_t e = 0; e < covered.size(); ++e) {
    if (covered[e]) continue;
    FUZZ_CHECK(std::memcmp(ds.base + e * item, before.data() + e * item, static_cast<size_t>(item)) == 0,
               "%s wrote element %zu of the storage, outside its destination", fn, e);
  }
}

// ---- The calls ------------------------------------------------------------

struct Ctx {
  Input& in;
  Model& m;
};

const int64_t* maybe_null(Input& in, const int64_t* p, int32_t ndim) {
  // NULL arrays: allowed for ndim 0, refused otherwise
  return (in.u8() % 16 == 0 || ndim == 0) && in.u8() % 2 ? nullptr : p;
}

bool ndim_ok(int32_t ndim) { return ndim >= 0 && ndim <= ST_MAX_DIMS; }

void fill_sizes(Input& in, int64_t* sizes, int32_t ndim) {
  const int n = ndim_ok(ndim) ? ndim : ST_MAX_DIMS;
  for (int d = 0; d < n; ++d) sizes[d] = ndim > 4 ? (in.u8() % 8 == 0 ? pick_size(in) : 1) : pick_size(in);
}

bool sizes_ok(const int64_t* sizes, int32_t ndim) {
  if (!ndim_ok(ndim) || (!sizes && ndim > 0)) return false;
  for (int d = 0; d < ndim; ++d) {
    if (sizes[d] < 0) return false;
  }
  return true;
}

bool st_device_is_cpu(st_device d) { return d.type == ST_DEVICE_CPU && d.index == 0; }

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
  const int storage = new_library_storage(fn, out, got, nbytes, st_device_is_cpu(device));
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
  const int storage = new_library_storage(fn, out, got, numel(got) * static_cast<int64_t>(item_size(got.dtype)), ss.host);
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
    case 0: fn = "st_tensor_ndim"; s = st_tensor_ndim(h.t, null_out ? nullptr : &i32); break;
    case 1: fn = "st_tensor_sizes"; s = st_tensor_sizes(h.t, null_out ? nullptr : buf, capacity); break;
    case 2: fn = "st_tensor_strides"; s = st_tensor_strides(h.t, null_out ? nullptr : buf, capacity); break;
    case 3: fn = "st_tensor_dtype"; s = fz_tensor_dtype(h.t, null_out ? nullptr : &i32); break;
    case 4: fn = "st_tensor_device"; s = st_tensor_device(h.t, null_out ? nullptr : &dev); break;
    case 5: fn = "st_tensor_numel"; s = st_tensor_numel(h.t, null_out ? nullptr : buf); break;
    case 6: fn = "st_tensor_storage_offset"; s = st_tensor_storage_offset(h.t, null_out ? nullptr : buf); break;
    case 7: fn = "st_tensor_data_ptr"; s = st_tensor_data_ptr(h.t, null_out ? nullptr : &ptr); break;
    default: fn = "st_tensor_is_contiguous"; s = fz_tensor_is_contiguous(h.t, fmt, null_out ? nullptr : &i32); break;
  }
  check_status(fn, s);
  const bool needs_capacity = which == 1 || which == 2;
  const bool fmt_ok = fmt >= 0 && fmt <= 3;
  const bool must_fail = !l || null_out || (needs_capacity && capacity < l->ndim) || (which == 8 && !fmt_ok);
  FUZZ_CHECK(must_fail == (s != ST_OK), "%s: %s, expected %s", fn, st_status_name(s), must_fail ? "a failure" : "ST_OK");
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

// ---- Views ----------------------------------------------------------------

// view/reshape sizes: at most one -1, no other negative size, and as many
// elements as the source.
bool shape_ok(const int64_t* sizes, int32_t n, int64_t count) {
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

// The element a view reads for each row-major index is the one the source
// reads for the same index (view, reshape): checked element by element.
void expect_same_elements(const char* fn, const Layout& view, const Layout& src) {
  if (numel(view) >= kCheckLimit) return;
  std::vector<int64_t> a, b;
  for_each_element(view, [&](int64_t, int64_t at) { a.push_back(at); });
  for_each_element(src, [&](int64_t, int64_t at) { b.push_back(at); });
  FUZZ_CHECK(a == b, "%s: the view does not read the source's elements in order", fn);
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
  bool exact = true;   // `want` describes the result
  bool all = true;     // compare the strides of size-1 dims too
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
        sizes[d] = r < 3 && sl && sd >= 0 && sd < ndim ? sl->sizes[sd] : r < 5 ? -1 : r < 7 ? in.range(0, 4) : pick_size(in);
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
      for_each_element(v.layout, [&](int64_t i, int64_t at) {
        FUZZ_CHECK(at == src_at[static_cast<size_t>(broadcast_source_index(v.layout, src_layout, i))],
                   "st_expand: element %lld reads the wrong source element", (long long)i);
      });
    }
  }
}

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
  if ((fmt == ST_MEMORY_FORMAT_CHANNELS_LAST && l.ndim == 4) || (fmt == ST_MEMORY_FORMAT_CHANNELS_LAST_3D && l.ndim == 5))
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
  st_tensor out{0x5eed5eed5eed5eedull};
  st_tensor* outp = null_out ? nullptr : &out;
  const std::vector<Value> before = live && value_checkable(sl, ss) ? values_of(sl, ss) : std::vector<Value>();
  const Frame f = begin_call();
  st_status s;
  switch (which) {
    case 0: s = fz_contiguous(src.t, fmt, outp); break;
    case 1: s = fz_clone(src.t, fmt, outp); break;
    case 2: s = fz_to(src.t, dtype, device, fmt, outp); break;
    default: s = st_reshape(src.t, sizes, n, outp); break;
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
    ok = ok && valid_dtype(dtype);
    if (g_has_cuda && !st_device_is_cpu(device)) device_call = true;
    else ok = ok && st_device_is_cpu(device);
  }
  if (!ok) FUZZ_CHECK(s != ST_OK, "%s accepted invalid arguments", fn);
  // Dense strides for huge sizes can overflow int64 even when a zero size
  // leaves no element: OUT_OF_MEMORY, as PyTorch's "Stride calculation
  // overflowed".
  const bool strides_overflow = which != 3 && !strides_fit(sl, fmt);
  if (ok && !device_call)
    FUZZ_CHECK(s == ST_OK || (s == ST_ERROR_OUT_OF_MEMORY && (allocation_refused(f) || strides_overflow)),
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
  const int storage = new_library_storage(fn, out, got, nbytes, st_device_is_cpu(rd));
  StorageModel& ns = g_model->storages[storage];
  ns.checked = ss.checked;
  add_handle(fn, out, got, storage, f);
  if (!before.empty() && value_checkable(got, ns)) {
    // reshape: element i of the result is element i of the source, in row-major order
    Layout same_order = got;
    same_order.dtype = sl.dtype;
    expect_copied(fn, got, ns, which == 3 ? same_order : sl, before, snapshot(ns));
  } else if (!ns.host) {
    ns.checked = false;
  }
}

// ---- Operators that write ---------------------------------------------------

double pick_fill_value(Input& in, bool* in_domain_out) {
  const uint8_t r = in.u8();
  double v;
  if (r < 200) {
    v = static_cast<double>(in.u8() % 201) / 2;
  } else {
    static const double odd[] = {NAN, INFINITY, -INFINITY, 1e300, -1e300, -1.5, 65504.0, 65520.0, 3.0e38,
                                 -128.0, 255.5, 2147483648.0, 9.3e18, -0.0, 1e-40, 0.1};
    v = pick_from(in, odd);
  }
  *in_domain_out = in_domain(v) && !std::signbit(v);
  return v;
}

void op_write(Input& in) {
  const int which = in.u8() % 3;  // copy, fill, zero
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
  StorageModel* ds = dh ? &g_model->storages[dh->storage] : nullptr;
  const StorageModel* ss = sh ? &g_model->storages[sh->storage] : nullptr;
  const std::vector<unsigned char> before = ds ? snapshot(*ds) : std::vector<unsigned char>();
  std::vector<Value> src_values;
  if (sh && value_checkable(sh->layout, *ss)) src_values = values_of(sh->layout, *ss);

  const Frame f = begin_call();
  st_status s = which == 0 ? st_copy(dst.t, src.t, non_blocking) : which == 1 ? st_fill(dst.t, value) : st_zero(dst.t);
  check_status(fn, s);
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
    if (!broadcasts_to(sl, dl)) {
      FUZZ_CHECK(s == ST_ERROR_SHAPE_MISMATCH || (s == ST_ERROR_OVERLAP && has_internal_overlap(dl)),
                 "st_copy of a source that does not broadcast returned %s", st_status_name(s));
    } else if (has_internal_overlap(dl) && numel(dl) > 0 && !same_view) {
      FUZZ_CHECK(s == ST_ERROR_OVERLAP, "st_copy into a self-overlapping destination returned %s", st_status_name(s));
    } else if (!has_internal_overlap(dl)) {
      FUZZ_CHECK(s == ST_OK || (s == ST_ERROR_OUT_OF_MEMORY && allocation_refused(f)),
                 "st_copy refused a valid copy: %s", st_status_name(s));
    }
  } else if (which != 0 && host) {
    FUZZ_CHECK(s == ST_OK, "%s of a live host tensor failed", fn);
  }
  if (s != ST_OK) return expect_unchanged(fn, *ds, before);
  if (!host) return;

  if (which == 0) {
    if (!src_values.empty() && numel(dl) < kCheckLimit && ds->checked) {
      expect_copied(fn, dl, *ds, sh->layout, src_values, before);
    } else if (!ss->checked) {
      ds->checked = false;
    }
    return;
  }
  if (!value_in_domain) {
    ds->checked = false;
    return;
  }
  if (numel(dl) < kCheckLimit && ds->checked) {
    Layout scalar;
    scalar.ndim = 0;
    scalar.dtype = ST_FLOAT64;
    expect_copied(fn, dl, *ds, scalar, std::vector<Value>{Value{value, 0}}, before);
  }
}

// ---- Runtime ------------------------------------------------------------

int g_trace_calls = 0;
void count_trace(void*, const char* op, int64_t ns) {
  FUZZ_CHECK(op && *op && ns >= 0, "a trace report without a name or with a negative duration");
  g_trace_calls++;
}

void op_runtime(Input& in) {
  switch (in.u8() % 4) {
    case 0: {
      const int32_t n = static_cast<int32_t>(in.range(-2, 4));
      st_status s = st_set_num_threads(n);
      check_status("st_set_num_threads", s);
      FUZZ_CHECK((s == ST_OK) == (n >= 1), "st_set_num_threads(%d) returned %s", n, st_status_name(s));
      if (s == ST_OK) FUZZ_CHECK(st_get_num_threads() == n, "st_get_num_threads");
      break;
    }
    case 1:
      FUZZ_CHECK(st_set_trace_callback(in.u8() % 2 ? count_trace : nullptr, nullptr) == ST_OK, "trace");
      break;
    case 2: {
      std::lock_guard<std::mutex> lock(g_heap.mutex);
      g_heap.fail_next = true;  // the next allocation fails
      break;
    }
    default: {
      int64_t n = 0;
      FUZZ_CHECK(st_live_tensor_count(&n) == ST_OK && n == static_cast<int64_t>(g_model->handles.size()),
                 "st_live_tensor_count = %lld, the model has %zu handles", (long long)n, g_model->handles.size());
      FUZZ_CHECK(st_live_tensor_count(nullptr) == ST_ERROR_INVALID_ARGUMENT, "st_live_tensor_count(NULL)");
      break;
    }
  }
}

// ---- One input -------------------------------------------------------------

void release_everything() {
  Model& m = *g_model;
  while (!m.handles.empty()) {
    const int last = static_cast<int>(m.handles.size() - 1);
    FUZZ_CHECK(st_tensor_release(st_tensor{m.handles[last].id}) == ST_OK, "releasing a live handle");
    drop_reference(last);
  }
  FUZZ_CHECK(live_count() == 0, "%lld handles are live after releasing every one", (long long)live_count());
  {
    std::lock_guard<std::mutex> lock(g_heap.mutex);
    FUZZ_CHECK(g_heap.live.empty() && g_heap.allocs == g_heap.frees, "%zu allocations were never freed",
               g_heap.live.size());
    g_heap.fail_next = false;
  }
  for (Wrapped* w : m.wrapped) {
    std::free(w->block);
    delete w;
  }
  m.wrapped.clear();
}

void run(const uint8_t* data, size_t size) {
  static bool initialized = false;
  static st_allocator heap{heap_alloc, heap_free, nullptr};
  if (!initialized) {
    int32_t count = 0;
    FUZZ_CHECK(st_cuda_device_count(&count) == ST_OK, "st_cuda_device_count");
    g_has_cuda = count > 0;
    initialized = true;
  }
  FUZZ_CHECK(live_count() == 0, "handles are live before the input starts");
  FUZZ_CHECK(st_set_cpu_allocator(&heap) == ST_OK, "st_set_cpu_allocator");
  const int32_t threads = st_get_num_threads();
  Model model;
  g_model = &model;
  Input in(data, size);
  for (int call = 0; call < kMaxCalls && !in.empty(); ++call) {
    const uint8_t op = in.u8();
    switch (op % 16) {
      case 0:
      case 1: op_create(in, false); break;
      case 2: op_create(in, true); break;
      case 3: op_create_like(in); break;
      case 4: op_from_data(in); break;
      case 5: op_retain_release(in, true); break;
      case 6:
      case 7: op_retain_release(in, false); break;
      case 8: op_query(in); break;
      case 9:
      case 10:
      case 11: op_view(in); break;
      case 12:
      case 13: op_make(in); break;
      case 14: op_write(in); break;
      default: op_runtime(in); break;
    }
    while (model.handles.size() > kMaxHandles) {  // keep the working set small
      FUZZ_CHECK(st_tensor_release(st_tensor{model.handles[0].id}) == ST_OK, "releasing a live handle");
      drop_reference(0);
    }
  }
  release_everything();
  FUZZ_CHECK(st_set_trace_callback(nullptr, nullptr) == ST_OK, "trace off");
  FUZZ_CHECK(st_set_num_threads(threads) == ST_OK, "threads");
  g_model = nullptr;
}

}  // namespace
}  // namespace fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::run(data, size);
  return 0;
}
