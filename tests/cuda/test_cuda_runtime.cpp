// The CUDA runtime layer: error translation, device status, and the hooks
// the rest of the library calls, and the runtime policies that only a GPU
// would otherwise show (device guards, frees on the per-thread stream, the
// pinned block pool, wrapped pointers, kernel images, fork), checked with
// the runtime's answers made up where that is the only way to reach them.
// Runs anywhere: without a GPU every device use must be refused with the
// reason; with one, memory and streams must work.
#include <cuda_runtime_api.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/foreign.h"
#include "core/runtime/cuda_hooks.h"
#include "cuda/runtime/allocator.h"
#include "cuda/runtime/cuda_error.h"
#include "cuda/runtime/device_frees.h"
#include "cuda/runtime/device_guard.h"
#include "cuda/runtime/device_status.h"
#include "cuda/runtime/empty.h"
#include "cuda/runtime/foreign_memory.h"
#include "cuda/runtime/host_keepalive.h"
#include "cuda/runtime/peer_access.h"
#include "cuda/runtime/pinned_pool.h"
#include "cuda/runtime/stream.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using st::Device;
using st::DeviceType;

namespace {

cudaError_t returns(cudaError_t e) { return e; }

// Runs `body`; true when it threw st::Error with `code` and a message containing `text`.
template <typename Body>
bool throws(Body&& body, st_status code, const std::string& text) {
  try {
    body();
  } catch (const st::Error& e) {
    if (e.code() == code && std::strstr(e.what(), text.c_str())) return true;
    print_error("threw %s \"%s\", expected %s containing \"%s\"\n", st_status_name(e.code()), e.what(),
                st_status_name(code), text.c_str());
    return false;
  }
  print_error("did not throw, expected %s containing \"%s\"\n", st_status_name(code), text.c_str());
  return false;
}

void cuda_check_names_the_call_and_the_error(void**) {
  assert_true(throws([] { ST_CUDA_CHECK(returns(cudaErrorInvalidValue)); }, ST_ERROR_DEVICE_FAILURE,
                     "returns(cudaErrorInvalidValue) failed: cudaErrorInvalidValue: invalid argument"));
  assert_true(throws([] { ST_CUDA_CHECK(returns(cudaErrorMemoryAllocation)); }, ST_ERROR_OUT_OF_MEMORY,
                     "returns(cudaErrorMemoryAllocation) failed: cudaErrorMemoryAllocation: out of memory"));
  ST_CUDA_CHECK(returns(cudaSuccess));  // no throw
}

void hooks_are_installed(void**) {
  const st::CudaHooks& hooks = st::cuda_hooks();
  assert_true(hooks.is_built());
  assert_int_equal(hooks.device_count(), st::cuda::device_status().count);
  print_message("CUDA devices: %d%s%s\n", hooks.device_count(), hooks.device_count() ? "" : "; ",
                st::cuda::device_status().reason.c_str());
}

// Index device_count() is missing on every machine: without a GPU the
// message gives the reason, with one it says the index is out of range.
void a_missing_device_is_refused_with_the_reason(void**) {
  const st::cuda::DeviceStatus& s = st::cuda::device_status();
  if (s.count == 0) assert_true(!s.reason.empty());
  const int index = s.count;
  const std::string why = s.count ? "is out of range" : "is unavailable: " + s.reason;
  const std::string cuda = "device cuda:" + std::to_string(index) + " " + why;
  const std::string host = "device cuda_host:" + std::to_string(index) + " (pinned host memory) " + why;
  const Device gpu{DeviceType::CUDA, index}, pinned{DeviceType::CUDAHost, index};
  const st::CudaHooks& hooks = st::cuda_hooks();
  const st_status unavailable = ST_ERROR_DEVICE_UNAVAILABLE;
  assert_true(throws([&] { hooks.check_device(gpu); }, unavailable, cuda));
  assert_true(throws([&] { hooks.check_device(pinned); }, unavailable, host));
  assert_true(throws([&] { hooks.current_stream(index); }, unavailable, cuda));
  assert_true(throws([&] { hooks.set_stream(index, nullptr); }, unavailable, cuda));
  assert_true(throws([&] { hooks.synchronize(index); }, unavailable, cuda));
  assert_true(throws([&] { hooks.allocate(16, gpu); }, unavailable, cuda));
  assert_true(throws([&] { hooks.allocate(16, pinned); }, unavailable, host));
  const st::DimVector sizes{2, 3}, strides{3, 1};
  assert_true(throws([&] { st::cuda::empty_strided_cuda(sizes, strides, st::ScalarType::Float32, gpu); }, unavailable,
                     cuda));
  assert_true(throws([&] { st::cuda::empty_strided_pinned(sizes, strides, st::ScalarType::Float32, pinned); },
                     unavailable, host));
}

void empty_checks_the_device_type(void**) {
  const st::DimVector sizes{2}, strides{1};
  assert_true(throws([&] { st::cuda::empty_strided_cuda(sizes, strides, st::ScalarType::Int8, st::cpu_device()); },
                     ST_ERROR_INVALID_ARGUMENT, "device cpu:0 is not a CUDA device"));
  assert_true(throws(
      [&] { st::cuda::empty_strided_pinned(sizes, strides, st::ScalarType::Int8, Device{DeviceType::CUDA, 0}); },
      ST_ERROR_INVALID_ARGUMENT, "device cuda:0 is not pinned host memory"));
}

// With a GPU: memory of both kinds, on the current stream, and streams set
// per thread. Without one there is nothing to allocate; the refusals are
// checked above.
void with_a_gpu_memory_and_streams_work(void**) {
  const int n = st::cuda::device_status().count;
  if (n == 0) {
    print_message("skipped: no CUDA device (%s)\n", st::cuda::device_status().reason.c_str());
    skip();
  }
  const st::CudaHooks& hooks = st::cuda_hooks();
  const Device gpu{DeviceType::CUDA, 0}, pinned{DeviceType::CUDAHost, 0};
  assert_null(hooks.current_stream(0));
  cudaStream_t stream = nullptr;
  ST_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  hooks.set_stream(0, stream);
  assert_ptr_equal(hooks.current_stream(0), stream);
  {
    const st::DimVector sizes{4, 5}, strides{1, 4};
    const st::Tensor t = st::cuda::empty_strided_cuda(sizes, strides, st::ScalarType::Float64, gpu);
    assert_true(t.device() == gpu);
    assert_int_equal(t.storage()->nbytes(), 4 * 5 * 8);
    cudaPointerAttributes attr;
    ST_CUDA_CHECK(cudaPointerGetAttributes(&attr, t.data()));
    assert_int_equal(attr.type, cudaMemoryTypeDevice);
    assert_int_equal(attr.device, 0);
    ST_CUDA_CHECK(cudaMemsetAsync(t.data(), 0, 160, stream));
    const st::Tensor h = st::cuda::empty_strided_pinned(sizes, strides, st::ScalarType::Float64, pinned);
    ST_CUDA_CHECK(cudaPointerGetAttributes(&attr, h.data()));
    assert_int_equal(attr.type, cudaMemoryTypeHost);
    const st::Tensor none = st::cuda::empty_strided_cuda({0, 3}, {3, 1}, st::ScalarType::Float32, gpu);
    assert_null(none.data());
  }  // freed on `stream`
  hooks.synchronize(0);
  hooks.set_stream(0, nullptr);
  assert_null(hooks.current_stream(0));
  ST_CUDA_CHECK(cudaStreamDestroy(stream));
}

// ---- Device guards (Note [Restoring the current device]), against a
// made-up runtime: a current device per thread (one thread here) and the
// devices whose primary context exists; making a device current creates
// its context, as cudaSetDevice does since CUDA 12.

struct FakeDevices {
  int current = 0;
  std::set<int> contexts;
  std::vector<int> set_calls;
  cudaError_t fail_set = cudaSuccess;
};
FakeDevices g_fake;

const st::cuda::DeviceRuntime kFakeRuntime{
    [](int* d) {
      *d = g_fake.current;
      return cudaSuccess;
    },
    [](int d) {
      g_fake.set_calls.push_back(d);
      if (g_fake.fail_set != cudaSuccess) return g_fake.fail_set;
      g_fake.current = d;
      g_fake.contexts.insert(d);
      return cudaSuccess;
    },
    [](int d) { return g_fake.contexts.count(d) != 0; }};

void a_guard_on_a_fresh_thread_creates_no_context_on_device_0(void**) {
  g_fake = FakeDevices{};  // a thread that never chose a device: 0, and no context anywhere
  {
    st::cuda::DeviceGuard guard(1, kFakeRuntime);
    assert_int_equal(g_fake.current, 1);
  }
  assert_true(g_fake.contexts.count(0) == 0);  // cudaSetDevice(0) would have made one
  assert_int_equal(g_fake.current, 1);         // left current, as PyTorch leaves it
  assert_true(g_fake.set_calls == std::vector<int>{1});
}

void a_guard_restores_a_device_whose_context_exists(void**) {
  g_fake = FakeDevices{};
  g_fake.current = 2;
  g_fake.contexts = {2};
  {
    st::cuda::DeviceGuard outer(0, kFakeRuntime);
    {
      st::cuda::DeviceGuard inner(1, kFakeRuntime);
      assert_int_equal(g_fake.current, 1);
    }
    assert_int_equal(g_fake.current, 0);  // 0's context exists since `outer` made it current
  }
  assert_int_equal(g_fake.current, 2);
  assert_true(g_fake.contexts == (std::set<int>{0, 1, 2}));
}

void a_guard_on_the_current_device_calls_nothing(void**) {
  g_fake = FakeDevices{};
  g_fake.current = 1;
  { st::cuda::DeviceGuard guard(1, kFakeRuntime); }
  assert_true(g_fake.set_calls.empty());
  assert_true(g_fake.contexts.empty());
}

void a_guard_that_cannot_enter_throws_or_says_so(void**) {
  g_fake = FakeDevices{};
  g_fake.fail_set = cudaErrorInvalidDevice;
  assert_true(throws([] { st::cuda::DeviceGuard guard(3, kFakeRuntime); }, ST_ERROR_DEVICE_FAILURE,
                     "cudaErrorInvalidDevice"));
  st::cuda::DeviceGuard quiet(3, std::nothrow, kFakeRuntime);
  assert_false(quiet.entered());
  assert_int_equal(g_fake.current, 0);
}

// ---- The keep-alive list (cuda/runtime/host_keepalive.h): each event is queried
// and destroyed with its own device current, never on whatever the thread
// had (a fresh thread has none: a call there would make a context on 0).

struct FakeEvents {
  std::set<uintptr_t> done;
  std::vector<std::pair<uintptr_t, int>> queried, destroyed;  // the event, and the device current then
  int storages_released = 0;
};
FakeEvents g_events;

cudaEvent_t fake_event(uintptr_t id) { return reinterpret_cast<cudaEvent_t>(id); }

const st::cuda::KeepaliveList::Runtime kFakeEventRuntime{
    [](cudaEvent_t e) {
      const uintptr_t id = reinterpret_cast<uintptr_t>(e);
      g_events.queried.emplace_back(id, g_fake.current);
      return g_events.done.count(id) ? cudaSuccess : cudaErrorNotReady;
    },
    [](cudaEvent_t e) {
      g_events.destroyed.emplace_back(reinterpret_cast<uintptr_t>(e), g_fake.current);
      return cudaSuccess;
    },
    kFakeRuntime};

st::Storage counted_storage() {
  st::MemoryRelease release;
  release.run = [](const st::MemoryRelease&) { ++g_events.storages_released; };
  static char byte;
  return st::Storage::make(&byte, 1, st::cpu_device(), release);
}

void keepalive_events_are_asked_about_on_their_own_device(void**) {
  g_fake = FakeDevices{};  // a thread that never chose a device
  g_events = FakeEvents{};
  st::cuda::KeepaliveList list(kFakeEventRuntime);
  list.add(fake_event(11), 1, counted_storage());
  list.add(fake_event(12), 2, counted_storage());  // 11 is asked about first, on device 1
  assert_true(g_events.queried == (std::vector<std::pair<uintptr_t, int>>{{11, 1}}));
  g_events.done = {12};
  list.drop_completed();
  assert_true(g_events.destroyed == (std::vector<std::pair<uintptr_t, int>>{{12, 2}}));
  assert_int_equal(g_events.storages_released, 1);
  assert_int_equal(list.pending(), 1);
  g_events.done = {11};
  list.drop_completed();
  assert_int_equal(g_events.storages_released, 2);
  assert_int_equal(list.pending(), 0);
  for (const auto& call : g_events.queried) assert_int_equal(call.second, static_cast<int>(call.first) - 10);
  for (const auto& call : g_events.destroyed) assert_int_equal(call.second, static_cast<int>(call.first) - 10);
  assert_true(g_fake.contexts.count(0) == 0);  // nothing ran with device 0 current
}

// ---- Peer access (Note [Peer access between devices]) on made-up devices:
// 0, 1 and 2, where 0 and 1 reach each other and 2 reaches nobody.

struct FakePeers {
  std::vector<std::pair<int, int>> enabled, granted;  // (current device, peer), (pool owner, accessor)
  int queries = 0;
  cudaError_t enable_answer = cudaSuccess;
};
FakePeers g_peers;

const st::cuda::PeerAccess::Runtime kFakePeerRuntime{
    [](int* can, int device, int peer) {
      ++g_peers.queries;
      *can = device != 2 && peer != 2;
      return cudaSuccess;
    },
    [](int peer) {
      g_peers.enabled.emplace_back(g_fake.current, peer);
      return g_peers.enable_answer;
    },
    [](int owner, int accessor) {
      assert_int_equal(g_fake.current, owner);  // the pool is looked up on its own device
      g_peers.granted.emplace_back(owner, accessor);
      return cudaSuccess;
    },
    kFakeRuntime};

void peer_access_is_enabled_both_ways_once_per_pair(void**) {
  g_fake = FakeDevices{};
  g_peers = FakePeers{};
  st::cuda::PeerAccess peers(3, kFakePeerRuntime);
  assert_true(peers.enable(0, 1));
  using Pairs = std::vector<std::pair<int, int>>;
  assert_true(g_peers.enabled == (Pairs{{0, 1}, {1, 0}}));  // from each device to the other
  assert_true(g_peers.granted == (Pairs{{0, 1}, {1, 0}}));  // and each pool to the other
  const int queries = g_peers.queries;
  assert_true(peers.enable(1, 0));  // remembered, either way round
  assert_true(peers.enable(0, 1));
  assert_int_equal(g_peers.queries, queries);
  assert_int_equal(g_peers.enabled.size(), 2);
  assert_false(peers.enable(2, 0));  // the hardware says no: nothing enabled, and the answer is kept
  assert_false(peers.enable(0, 2));
  assert_int_equal(g_peers.enabled.size(), 2);
}

void peer_access_the_application_enabled_counts_as_enabled(void**) {
  g_fake = FakeDevices{};
  g_peers = FakePeers{};
  g_peers.enable_answer = cudaErrorPeerAccessAlreadyEnabled;
  st::cuda::PeerAccess peers(2, kFakePeerRuntime);
  assert_true(peers.enable(1, 0));
  assert_int_equal(g_peers.granted.size(), 2);  // the pools still grant access: they do not follow it
  g_peers = FakePeers{};
  g_peers.enable_answer = cudaErrorInvalidDevice;
  st::cuda::PeerAccess refused(2, kFakePeerRuntime);
  assert_false(refused.enable(0, 1));  // copies go through the host, without an error
  assert_true(g_peers.granted.empty());
}

// ---- Releases during stream capture (Note [Releasing memory during
// stream capture]), with made-up captures: a stream's capture id, 0 for none.

struct FakeCaptures {
  std::map<cudaStream_t, unsigned long long> capture;
  std::vector<std::pair<void*, int>> freed;  // the block, and the device current then
};
FakeCaptures g_captures;

const st::cuda::DeviceFrees::Runtime kFakeFreeRuntime{
    [](cudaStream_t s, unsigned long long* id) {
      *id = g_captures.capture[s];
      return cudaSuccess;
    },
    [](void* p, cudaStream_t) {
      g_captures.freed.emplace_back(p, g_fake.current);
      return cudaSuccess;
    },
    kFakeRuntime};

void blocks_released_during_a_capture_that_does_not_own_them_wait_for_its_end(void**) {
  g_fake = FakeDevices{};
  g_captures = FakeCaptures{};
  st::cuda::DeviceFrees frees(kFakeFreeRuntime);
  const cudaStream_t s = reinterpret_cast<cudaStream_t>(uintptr_t{0x100});
  int before_capture = 0, in_capture = 0, in_another = 0;  // made-up blocks
  frees.allocated(&before_capture, s);
  g_captures.capture[s] = 7;  // cudaStreamBeginCapture
  frees.allocated(&in_capture, s);
  frees.release(&before_capture, 1, s);  // not the graph's: a free node would refuse it
  assert_true(g_captures.freed.empty());
  assert_int_equal(frees.set_aside(), 1);
  frees.release(&in_capture, 1, s);  // the graph's own: a free node, now
  using Freed = std::vector<std::pair<void*, int>>;
  assert_true(g_captures.freed == (Freed{{&in_capture, 1}}));
  frees.free_set_aside();  // still capturing: still set aside
  assert_int_equal(frees.set_aside(), 1);
  g_captures.capture[s] = 0;  // cudaStreamEndCapture
  frees.free_set_aside();
  assert_true(g_captures.freed == (Freed{{&in_capture, 1}, {&before_capture, 1}}));  // on its device
  assert_int_equal(frees.set_aside(), 0);
  // A block of one capture released during the next waits as well.
  g_captures.capture[s] = 8;
  frees.allocated(&in_another, s);
  g_captures.capture[s] = 9;
  frees.release(&in_another, 1, s);
  assert_int_equal(frees.set_aside(), 1);
  g_captures.capture[s] = 0;
  int later = 0;
  frees.allocated(&later, s);
  frees.release(&later, 1, s);  // any release frees what no longer waits
  assert_int_equal(frees.set_aside(), 0);
  assert_int_equal(g_captures.freed.size(), 4);
  assert_true(g_fake.contexts.count(0) == 0);
}

// ---- Frees of blocks allocated on cudaStreamPerThread (Note [Freeing on the per-thread stream]).

void per_thread_stream_blocks_released_elsewhere_are_freed_on_the_legacy_stream(void**) {
  using st::cuda::stream_to_free_on;
  const cudaStream_t mine = reinterpret_cast<cudaStream_t>(uintptr_t{0x1000});
  assert_ptr_equal(stream_to_free_on(cudaStreamPerThread, 7, 7), cudaStreamPerThread);
  assert_ptr_equal(stream_to_free_on(cudaStreamPerThread, 7, 8), cudaStreamLegacy);
  assert_ptr_equal(stream_to_free_on(mine, 7, 8), mine);
  assert_ptr_equal(stream_to_free_on(nullptr, 7, 8), nullptr);
  assert_ptr_equal(stream_to_free_on(cudaStreamLegacy, 7, 8), cudaStreamLegacy);
}

void thread_ids_differ_between_threads_and_stay_within_one(void**) {
  const uint64_t here = st::cuda::this_thread_id();
  assert_true(here == st::cuda::this_thread_id());
  uint64_t a = 0, b = 0;
  std::thread([&] { a = st::cuda::this_thread_id(); }).join();
  std::thread([&] { b = st::cuda::this_thread_id(); }).join();
  assert_true(a != here && b != here && a != b);  // never reused, even after a thread ends
}

// ---- The pinned block pool (Note [Pinned block pool]), over malloc'd blocks.

struct FakeHost {
  int allocs = 0, frees = 0;
  bool out_of_memory = false;
};
FakeHost g_host;

st::cuda::PinnedPool::Backend fake_host_backend() {
  return st::cuda::PinnedPool::Backend{
      [](void** p, size_t n) {
        if (g_host.out_of_memory) return cudaErrorMemoryAllocation;
        ++g_host.allocs;
        *p = std::malloc(n);
        return cudaSuccess;
      },
      [](void* p) {
        ++g_host.frees;
        std::free(p);
        return cudaSuccess;
      }};
}

void pinned_blocks_are_powers_of_two_from_4_kib(void**) {
  using st::cuda::pinned_block_size;
  assert_int_equal(pinned_block_size(1), 4096);
  assert_int_equal(pinned_block_size(4096), 4096);
  assert_int_equal(pinned_block_size(4097), 8192);
  assert_int_equal(pinned_block_size((size_t{1} << 30) + 1), size_t{1} << 31);
  assert_int_equal(pinned_block_size(SIZE_MAX - 5), SIZE_MAX - 5);
}

void released_pinned_blocks_are_reused_without_a_new_allocation(void**) {
  g_host = FakeHost{};
  st::cuda::PinnedPool pool(1 << 20, fake_host_backend());
  size_t size_a = 0, size_b = 0;
  void* a = pool.allocate(5000, &size_a);
  assert_int_equal(size_a, 8192);
  pool.release(a, size_a);
  assert_int_equal(pool.cached_bytes(), 8192);
  void* b = pool.allocate(6000, &size_b);  // same size class: the same block, no cudaHostAlloc
  assert_ptr_equal(a, b);
  assert_int_equal(g_host.allocs, 1);
  assert_int_equal(pool.cached_bytes(), 0);
  void* c = pool.allocate(100, &size_a);  // another class: a new block
  assert_int_equal(g_host.allocs, 2);
  pool.release(b, 8192);
  pool.release(c, 4096);
  assert_int_equal(g_host.frees, 0);
  assert_int_equal(pool.trim(), 8192 + 4096);
  assert_int_equal(g_host.frees, 2);
  assert_int_equal(pool.cached_bytes(), 0);
}

// Releasing frees nothing, whatever the size (cudaFreeHost would wait for
// the device inside a non_blocking copy); the cap applies at trim_to_cap,
// which st_cuda_synchronize calls.
void the_pinned_pool_frees_beyond_its_cap_only_when_trimmed(void**) {
  g_host = FakeHost{};
  const size_t cap = 64 << 10;
  st::cuda::PinnedPool pool(cap, fake_host_backend());
  std::vector<void*> blocks;
  size_t size = 0;
  for (int i = 0; i < 20; ++i) blocks.push_back(pool.allocate(8 << 10, &size));  // 20 × 8 KiB in use: not capped
  for (void* p : blocks) pool.release(p, size);
  assert_int_equal(g_host.frees, 0);
  assert_int_equal(pool.cached_bytes(), 20 * (8 << 10));
  assert_int_equal(pool.trim_to_cap(), 12 * (8 << 10));  // 8 kept, 12 freed
  assert_int_equal(g_host.frees, 12);
  assert_int_equal(pool.cached_bytes(), cap);
  assert_int_equal(pool.trim(), cap);
  assert_int_equal(g_host.frees, 20);
}

// A staging block larger than the cap (a non-dense pinned copy of more than
// 256 MiB) is reused by the next copy of that size: one cudaHostAlloc, and
// no cudaFreeHost until the pool is trimmed, largest blocks first.
void a_pinned_block_larger_than_the_cap_is_reused(void**) {
  g_host = FakeHost{};
  const size_t cap = 64 << 10;
  st::cuda::PinnedPool pool(cap, fake_host_backend());
  size_t size = 0, small_size = 0;
  for (int copy = 0; copy < 3; ++copy) {
    void* big = pool.allocate(cap + 1, &size);
    assert_int_equal(size, 2 * cap);
    pool.release(big, size);
  }
  assert_int_equal(g_host.allocs, 1);
  assert_int_equal(g_host.frees, 0);
  void* small = pool.allocate(100, &small_size);  // before release() reads small_size
  pool.release(small, small_size);
  assert_int_equal(pool.trim_to_cap(), 2 * cap);  // the large block goes, the 4 KiB one stays
  assert_int_equal(g_host.frees, 1);
  assert_int_equal(pool.cached_bytes(), small_size);
  assert_int_equal(pool.trim(), small_size);
}

void out_of_pinned_memory_trims_the_pool_and_then_says_so(void**) {
  g_host = FakeHost{};
  st::cuda::PinnedPool pool(1 << 20, fake_host_backend());
  size_t size = 0;
  void* block = pool.allocate(100, &size);  // before release() reads size
  pool.release(block, size);
  g_host.out_of_memory = true;
  assert_true(throws([&] { pool.allocate(1 << 16, &size); }, ST_ERROR_OUT_OF_MEMORY, "cudaHostAlloc"));
  assert_int_equal(g_host.frees, 1);  // the cached block went back first
  assert_int_equal(pool.cached_bytes(), 0);
}

// ---- Wrapped pointers (cuda/runtime/foreign_memory.h), with the attributes made up.

cudaPointerAttributes attributes(cudaMemoryType type, int device) {
  cudaPointerAttributes a = {};
  a.type = type;
  a.device = device;
  return a;
}

void wrapped_memory_must_be_of_the_labelled_device(void**) {
  using st::cuda::foreign_memory_mismatch;
  const Device gpu1{DeviceType::CUDA, 1}, pinned{DeviceType::CUDAHost, 0};
  int x = 0;
  const void* p = &x;
  assert_true(foreign_memory_mismatch(attributes(cudaMemoryTypeDevice, 1), gpu1, "data", p).empty());
  assert_true(foreign_memory_mismatch(attributes(cudaMemoryTypeManaged, 0), gpu1, "data", p).empty());
  assert_true(foreign_memory_mismatch(attributes(cudaMemoryTypeHost, 0), pinned, "data", p).empty());
  assert_true(foreign_memory_mismatch(attributes(cudaMemoryTypeManaged, 0), pinned, "data", p).empty());
  std::string why = foreign_memory_mismatch(attributes(cudaMemoryTypeUnregistered, 0), gpu1, "data", p);
  assert_non_null(std::strstr(why.c_str(), "is host memory that CUDA does not know (device type cpu), not memory of device cuda:1"));
  assert_non_null(std::strstr(why.c_str(), "data = 0x"));
  why = foreign_memory_mismatch(attributes(cudaMemoryTypeDevice, 0), gpu1, "in->dl_tensor.data", p);
  assert_non_null(std::strstr(why.c_str(), "in->dl_tensor.data = "));
  assert_non_null(std::strstr(why.c_str(), "is memory of device cuda:0, not of cuda:1"));
  why = foreign_memory_mismatch(attributes(cudaMemoryTypeHost, 0), gpu1, "data", p);
  assert_non_null(std::strstr(why.c_str(), "is page-locked host memory (device type cuda_host)"));
  why = foreign_memory_mismatch(attributes(cudaMemoryTypeDevice, 0), pinned, "data", p);
  assert_non_null(std::strstr(why.c_str(), "is memory of device cuda:0, not page-locked host memory"));
  why = foreign_memory_mismatch(attributes(cudaMemoryTypeUnregistered, 0), pinned, "data", p);
  assert_non_null(std::strstr(why.c_str(), "is not page-locked: pin it with cudaHostRegister"));
}

// Labelled cpu: the host reads anything but device memory.
void memory_labelled_cpu_may_be_anything_but_device_memory(void**) {
  using st::cuda::foreign_memory_mismatch;
  const Device cpu = st::cpu_device();
  int x = 0;
  const void* p = &x;
  assert_true(foreign_memory_mismatch(attributes(cudaMemoryTypeUnregistered, 0), cpu, "data", p).empty());
  assert_true(foreign_memory_mismatch(attributes(cudaMemoryTypeHost, 0), cpu, "data", p).empty());
  assert_true(foreign_memory_mismatch(attributes(cudaMemoryTypeManaged, 0), cpu, "data", p).empty());
  const std::string why = foreign_memory_mismatch(attributes(cudaMemoryTypeDevice, 2), cpu, "data", p);
  assert_non_null(std::strstr(why.c_str(), "data = 0x"));
  assert_non_null(std::strstr(why.c_str(), "is memory of device cuda:2, not host memory (device type cpu)"));
}

// Memory wrapped as cpu goes through the hooks' check_host_memory (core
// reaches CUDA only through them): hooks that say "device memory" make
// the wrap fail with their status, and nothing is wrapped.
struct RefusingHooks final : st::CudaHooks {
  mutable int host_checks = 0;
  void check_host_memory(const void* base, size_t nbytes, const char* name) const override {
    ++host_checks;
    (void)base;
    (void)nbytes;
    throw st::Error(ST_ERROR_INVALID_ARGUMENT, std::string(name) + " = ... is memory of device cuda:0");
  }
};

void wrapping_memory_as_cpu_asks_the_cuda_hooks(void**) {
  static float host[6];
  const RefusingHooks refusing;
  const st::CudaHooks& real = st::cuda_hooks();
  st::install_cuda_hooks(&refusing);
  const st::DimVector sizes{2, 3};
  const bool refused = throws([&] { st::wrap_foreign(host, sizes, nullptr, st::ScalarType::Float32, st::cpu_device()); },
                              ST_ERROR_INVALID_ARGUMENT, "data = ");
  const bool refused_bytes = throws(
      [&] { st::wrap_foreign(host, sizes, nullptr, st::ScalarType::Float32, st::cpu_device(), false, "src_data"); },
      ST_ERROR_INVALID_ARGUMENT, "src_data = ");
  st::install_cuda_hooks(&real);
  assert_true(refused);
  assert_true(refused_bytes);
  assert_int_equal(refusing.host_checks, 2);
  // The installed hooks again: host memory is taken, with or without a GPU.
  const st::Tensor t = st::wrap_foreign(host, sizes, nullptr, st::ScalarType::Float32, st::cpu_device());
  assert_ptr_equal(t.data(), host);
}

// Without a GPU the device is refused before the pointer is looked at; with
// one, host memory labelled cuda:0 is an argument error.
void wrapping_host_memory_as_device_memory_is_refused(void**) {
  static char host[64];
  const st::CudaHooks& hooks = st::cuda_hooks();
  const Device gpu{DeviceType::CUDA, 0};
  if (st::cuda::device_status().count == 0) {
    assert_true(throws([&] { hooks.check_foreign_memory(host, sizeof host, gpu, "data"); },
                       ST_ERROR_DEVICE_UNAVAILABLE, "is unavailable: "));
    return;
  }
  assert_true(throws([&] { hooks.check_foreign_memory(host, sizeof host, gpu, "data"); }, ST_ERROR_INVALID_ARGUMENT,
                     "is host memory that CUDA does not know"));
  hooks.check_foreign_memory(host, 0, gpu, "data");  // nothing to look at
}

// ---- Kernel images (Note [Architectures and images]).

void images_run_on_the_devices_their_architecture_reaches(void**) {
  using st::cuda::images_run_on;
  const std::string built = "compute_75,sm_75,sm_80,sm_90,sm_100,sm_120";
  for (int cc : {75, 80, 86, 87, 89, 90, 100, 103, 110, 120, 121}) assert_true(images_run_on(built, cc));
  for (int cc : {50, 60, 70, 72}) assert_false(images_run_on(built, cc));
  const std::string sass_only = "sm_80,sm_90";
  assert_true(images_run_on(sass_only, 86));   // 8.0 SASS runs on 8.6
  assert_false(images_run_on(sass_only, 75));  // T4: no image at all
  assert_false(images_run_on(sass_only, 100)); // no PTX to compile for newer GPUs
  assert_true(images_run_on("sm_80,compute_90", 120));
  assert_false(images_run_on("sm_90a", 100));  // architecture-specific SASS: 9.0 only
  assert_true(images_run_on("sm_90a", 90));
  assert_true(images_run_on("", 50));  // "all" or "native": not checked
  print_message("this build's images: %s\n", st::cuda::built_images());
  assert_true(images_run_on(st::cuda::built_images(), 75));
  assert_true(images_run_on(st::cuda::built_images(), 120));
}

// ---- A forked child (Note [CUDA in a forked child]).

void a_forked_child_says_why_it_has_no_device(void**) {
  st::cuda::DeviceStatus parent;
  parent.count = 2;
  const st::cuda::DeviceStatus child = st::cuda::status_in_forked_child(parent);
  assert_int_equal(child.count, 0);
  assert_non_null(std::strstr(child.reason.c_str(), "forked after CUDA was initialized in its parent"));
  st::cuda::DeviceStatus none;
  none.reason = "no CUDA device is present";
  assert_string_equal(st::cuda::status_in_forked_child(none).reason.c_str(), "no CUDA device is present");
  assert_non_null(std::strstr(st::cuda::with_fork_note("x").c_str(), "x; this process is a forked child"));

  // And in a real child: the status was asked for in this process already.
  const st::cuda::DeviceStatus& here = st::cuda::device_status();
  const std::string expected = here.count > 0 ? "forked after CUDA was initialized" : here.reason;
  std::fflush(nullptr);
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    int code = 1;
    try {
      st::cuda::check_device(Device{DeviceType::CUDA, 0});
    } catch (const st::Error& e) {
      code = e.code() == ST_ERROR_DEVICE_UNAVAILABLE && std::strstr(e.what(), expected.c_str()) ? 0 : 2;
    }
    _exit(code);
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);
}

// ---- With a GPU: st_cuda_empty_cache gives the pools' unused memory back.

void with_a_gpu_empty_cache_gives_memory_back(void**) {
  if (st::cuda::device_status().count == 0) {
    print_message("skipped: no CUDA device (%s)\n", st::cuda::device_status().reason.c_str());
    skip();
  }
  const Device gpu{DeviceType::CUDA, 0}, pinned{DeviceType::CUDAHost, 0};
  {
    const st::Tensor t = st::cuda::empty_strided_cuda({1 << 24}, {1}, st::ScalarType::Float32, gpu);
    const st::Tensor h = st::cuda::empty_strided_pinned({1 << 20}, {1}, st::ScalarType::Float32, pinned);
  }
  st::cuda_hooks().synchronize(0);
  assert_true(st::cuda::pinned_pool().cached_bytes() >= (size_t{4} << 20));
  cudaMemPool_t pool = nullptr;
  ST_CUDA_CHECK(cudaDeviceGetMemPool(&pool, 0));  // the current pool is not ours (Note [The library's own device pool])
  uint64_t default_threshold = 1;
  ST_CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &default_threshold));
  assert_int_equal(default_threshold, 0);
  st::cuda_hooks().empty_cache(0);
  assert_int_equal(st::cuda::pinned_pool().cached_bytes(), 0);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cuda_check_names_the_call_and_the_error),
      cmocka_unit_test(hooks_are_installed),
      cmocka_unit_test(a_missing_device_is_refused_with_the_reason),
      cmocka_unit_test(empty_checks_the_device_type),
      cmocka_unit_test(with_a_gpu_memory_and_streams_work),
      cmocka_unit_test(a_guard_on_a_fresh_thread_creates_no_context_on_device_0),
      cmocka_unit_test(a_guard_restores_a_device_whose_context_exists),
      cmocka_unit_test(a_guard_on_the_current_device_calls_nothing),
      cmocka_unit_test(a_guard_that_cannot_enter_throws_or_says_so),
      cmocka_unit_test(keepalive_events_are_asked_about_on_their_own_device),
      cmocka_unit_test(peer_access_is_enabled_both_ways_once_per_pair),
      cmocka_unit_test(peer_access_the_application_enabled_counts_as_enabled),
      cmocka_unit_test(blocks_released_during_a_capture_that_does_not_own_them_wait_for_its_end),
      cmocka_unit_test(per_thread_stream_blocks_released_elsewhere_are_freed_on_the_legacy_stream),
      cmocka_unit_test(thread_ids_differ_between_threads_and_stay_within_one),
      cmocka_unit_test(pinned_blocks_are_powers_of_two_from_4_kib),
      cmocka_unit_test(released_pinned_blocks_are_reused_without_a_new_allocation),
      cmocka_unit_test(the_pinned_pool_frees_beyond_its_cap_only_when_trimmed),
      cmocka_unit_test(a_pinned_block_larger_than_the_cap_is_reused),
      cmocka_unit_test(out_of_pinned_memory_trims_the_pool_and_then_says_so),
      cmocka_unit_test(wrapped_memory_must_be_of_the_labelled_device),
      cmocka_unit_test(wrapping_host_memory_as_device_memory_is_refused),
      cmocka_unit_test(memory_labelled_cpu_may_be_anything_but_device_memory),
      cmocka_unit_test(wrapping_memory_as_cpu_asks_the_cuda_hooks),
      cmocka_unit_test(images_run_on_the_devices_their_architecture_reaches),
      cmocka_unit_test(a_forked_child_says_why_it_has_no_device),
      cmocka_unit_test(with_a_gpu_empty_cache_gives_memory_back),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
