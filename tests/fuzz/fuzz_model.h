// The fuzz target's state: its limits, how it reports a broken promise,
// the CPU allocator it installs (every allocation checked on free), and
// the model of every storage and handle an input has made.
#pragma once

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "../c/portable.h"
#include "fuzz_input.h"
#include "fuzz_layout.h"
#include "stride.h"

namespace fuzz {

// Note [Fuzzing speed]
// An execution's time follows the elements its calls touch, and a few large
// tensors used to take most of it: one copy of 60,000 elements costs as
// much as a hundred small calls, and libFuzzer keeps and mutates the inputs
// that make them. So the allocator refuses more than 64 KiB, a fill
// touches at most 64 Ki elements, and the operators of an input on more
// than kSmallCopyElements elements together touch at most kElementBudget:
// one that would pass the budget is left out. Every path stays reachable
// (the fuzz build splits parallel work from 64 elements on, see
// core/runtime/parallel.h, and the value checks stop at 4096), while no execution
// runs long.
constexpr size_t kAllocCap = 64 * 1024;  // larger requests fail: huge sizes end as OUT_OF_MEMORY
constexpr int64_t kCheckLimit = 4096;    // value checks for tensors below this many elements
constexpr size_t kMaxHandles = 16;
constexpr int kMaxCalls = 128;
constexpr int64_t kMaxFillElements = int64_t{1} << 16;
constexpr int64_t kElementBudget = int64_t{1} << 16;
constexpr int64_t kSmallCopyElements = 256;  // the library's small-copy path ends here

[[noreturn]] inline __attribute__((format(printf, 1, 2))) void bug(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::fprintf(stderr, "stride fuzz: ");
  std::vfprintf(stderr, fmt, ap);
  std::fprintf(stderr, "\n  last error message: \"%s\"\n", st_last_error_message());
  va_end(ap);
  std::abort();
}

#define FUZZ_CHECK(cond, ...)      \
  do {                             \
    if (!(cond)) bug(__VA_ARGS__); \
  } while (0)

inline std::string describe(const Layout& l) {
  std::string s = std::string(st_dtype_name(l.dtype)) + " sizes (";
  for (int d = 0; d < l.ndim; ++d) s += (d ? ", " : "") + std::to_string(l.sizes[d]);
  s += ") strides (";
  for (int d = 0; d < l.ndim; ++d) s += (d ? ", " : "") + std::to_string(l.strides[d]);
  return s + ") offset " + std::to_string(l.offset);
}

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
inline Heap g_heap;

inline void* heap_alloc(void*, size_t nbytes, size_t alignment) {
  std::lock_guard<std::mutex> lock(g_heap.mutex);
  FUZZ_CHECK(nbytes > 0, "the allocator was asked for 0 bytes");
  FUZZ_CHECK(alignment >= 64 && (alignment & (alignment - 1)) == 0, "alignment %zu", alignment);
  if (g_heap.fail_next || nbytes > kAllocCap) {
    g_heap.fail_next = false;
    g_heap.refusals++;
    return nullptr;
  }
  void* p = test_aligned_alloc(alignment, nbytes);
  FUZZ_CHECK(p, "aligned_alloc(%zu) failed", nbytes);
  g_heap.live.emplace_back(p, nbytes);
  g_heap.made.emplace_back(p, nbytes);
  g_heap.allocs++;
  return p;
}

inline void heap_free(void*, void* ptr, size_t nbytes) {
  std::lock_guard<std::mutex> lock(g_heap.mutex);
  FUZZ_CHECK(ptr, "free(NULL)");
  auto it = std::find_if(g_heap.live.begin(), g_heap.live.end(), [&](const auto& a) { return a.first == ptr; });
  FUZZ_CHECK(it != g_heap.live.end(), "free of %p, which is not a live allocation", ptr);
  FUZZ_CHECK(it->second == nbytes, "free of %p with %zu bytes; it was allocated with %zu", ptr, nbytes, it->second);
  g_heap.live.erase(it);
  g_heap.frees++;
  test_aligned_free(ptr);
}

// ---- The model -----------------------------------------------------------

// Memory handed to st_tensor_from_data; freed by the fuzzer at the end of
// the input, after checking its deleter ran as often as it had to.
struct Wrapped {
  unsigned char* block = nullptr;
  void* data = nullptr;  // the pointer given as `data`
  int deleter_calls = 0;
};

inline void wrapped_deleter(void* data, void* ctx) {
  auto* w = static_cast<Wrapped*>(ctx);
  FUZZ_CHECK(data == w->data, "the deleter got %p, the wrapped data was %p", data, w->data);
  w->deleter_calls++;
}

struct StorageModel {
  unsigned char* base = nullptr;  // host storages: the lowest byte
  int64_t nbytes = 0;
  st_dtype dtype = ST_FLOAT32;
  bool host = true;        // CPU memory the fuzzer may read and write
  bool checked = true;     // every element holds a domain value (fuzz_values.h)
  bool allocated = false;  // came from the allocator (nbytes > 0)
  int handles = 0;         // live handles that use it
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
  int64_t elements_touched = 0;  // by the operators so far (Note [Fuzzing speed])
};

// Whether an operator on `elements` elements runs: small ones always do,
// larger ones while the input's budget lasts (Note [Fuzzing speed]).
inline bool within_budget(Model& m, int64_t elements) {
  if (elements <= kSmallCopyElements) return true;
  if (elements > kElementBudget - m.elements_touched) return false;
  m.elements_touched += elements;
  return true;
}

inline Model* g_model;
inline bool g_has_cuda = false;

// A handle argument: a live one (index >= 0) or one that must be refused.
struct HandleArg {
  st_tensor t{0};
  int index = -1;
};

inline HandleArg pick_handle(Input& in) {
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

}  // namespace fuzz
