// The runtime behaviours of issue-sized bugs that only a GPU shows, on a
// GPU: many threads with their own streams (and one on
// cudaStreamPerThread) allocating, copying and releasing each other's
// tensors with the data checked; a non_blocking pinned copy that must not
// wait for another stream's work; copies during CUDA graph capture.
//
// Needs a GPU; without one it prints why and exits 77 (ctest: skipped).
// tools/gpu-check.sh runs the stress test and the probe on their own, and
// leaves the probe out under compute-sanitizer.
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "cuda/runtime/allocator.h"
#include "cuda/runtime/cuda_error.h"
#include "cuda/runtime/device_status.h"
#include "cuda/runtime/pinned_pool.h"
#include "stride.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

namespace {

const st_device kGpu = {ST_DEVICE_CUDA, 0}, kPinned = {ST_DEVICE_CUDA_HOST, 0}, kCpu = {ST_DEVICE_CPU, 0};

#define OK(call) assert_int_equal((call), ST_OK)

st_tensor create(std::vector<int64_t> sizes, st_dtype dtype, st_device device) {
  st_tensor t = {0};
  OK(st_tensor_create(sizes.data(), static_cast<int32_t>(sizes.size()), dtype, device, &t));
  return t;
}

template <typename T>
T* data_of(st_tensor t) {
  void* p = nullptr;
  OK(st_tensor_data_ptr(t, &p));
  return static_cast<T*>(p);
}

// ---- Stream stress.

struct Handoff {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::pair<st_tensor, float>> tensors;  // a device tensor and the value all its elements hold
  int producers_left = 0;
};

// Makes tensors on its current stream, checks them, and hands them over.
void produce(Handoff& h, cudaStream_t stream, int id, int rounds, std::atomic<int>& errors) {
  if (st_cuda_set_stream(0, stream) != ST_OK) ++errors;
  const int64_t rows = 64 + id, cols = 96;
  for (int r = 0; r < rounds; ++r) {
    const float value = static_cast<float>(id * 1000 + r);
    st_tensor a = create({rows, cols}, ST_FLOAT32, kGpu), at = {0}, b = {0}, host = create({cols, rows}, ST_FLOAT64, kCpu);
    OK(st_fill(a, value));                                      // queued
    OK(st_transpose(a, 0, 1, &at));
    OK(st_contiguous(at, ST_MEMORY_FORMAT_CONTIGUOUS, &b));     // a tiled transpose, queued
    OK(st_copy(host, b, 0));                                    // blocking: the stream has run everything
    const double* p = data_of<double>(host);
    for (int64_t i = 0; i < rows * cols; ++i) {
      if (p[i] != value) {
        ++errors;
        break;
      }
    }
    OK(st_tensor_release(a));  // freed on this thread's stream
    OK(st_tensor_release(at));
    OK(st_tensor_release(host));
    {
      std::lock_guard<std::mutex> lock(h.mutex);
      h.tensors.emplace_back(b, value);  // released by another thread
    }
    h.ready.notify_one();
  }
  {
    std::lock_guard<std::mutex> lock(h.mutex);
    --h.producers_left;
  }
  h.ready.notify_all();
  if (st_cuda_set_stream(0, nullptr) != ST_OK) ++errors;
}

// Takes tensors made on other threads, copies and checks them on its own
// stream, and releases them.
void consume(Handoff& h, cudaStream_t stream, std::atomic<int>& errors, std::atomic<int>& consumed) {
  if (st_cuda_set_stream(0, stream) != ST_OK) ++errors;
  for (;;) {
    std::pair<st_tensor, float> item;
    {
      std::unique_lock<std::mutex> lock(h.mutex);
      h.ready.wait(lock, [&] { return !h.tensors.empty() || h.producers_left == 0; });
      if (h.tensors.empty()) break;
      item = h.tensors.front();
      h.tensors.pop_front();
    }
    int64_t sizes[2];
    OK(st_tensor_sizes(item.first, sizes, 2));
    st_tensor pinned = create({sizes[0], sizes[1]}, ST_FLOAT32, kPinned);
    OK(st_copy(pinned, item.first, 0));
    OK(st_tensor_release(item.first));  // made on another thread's stream, released here
    const float* p = data_of<float>(pinned);
    for (int64_t i = 0; i < sizes[0] * sizes[1]; ++i) {
      if (p[i] != item.second) {
        ++errors;
        break;
      }
    }
    OK(st_tensor_release(pinned));
    ++consumed;
  }
  if (st_cuda_set_stream(0, nullptr) != ST_OK) ++errors;
}

void threads_with_their_own_streams_share_tensors(void**) {
  constexpr int kProducers = 4, kConsumers = 2, kRounds = 150;
  std::vector<cudaStream_t> streams(kProducers + kConsumers);
  for (size_t i = 0; i < streams.size(); ++i) {
    // Producer 0 uses the per-thread default stream (Note [Freeing on the per-thread stream]).
    if (i == 0) {
      streams[i] = cudaStreamPerThread;
    } else {
      ST_CUDA_CHECK(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
    }
  }
  Handoff h;
  h.producers_left = kProducers;
  std::atomic<int> errors{0}, consumed{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kProducers; ++i)
    threads.emplace_back(produce, std::ref(h), streams[i], i, kRounds, std::ref(errors));
  for (int i = 0; i < kConsumers; ++i)
    threads.emplace_back(consume, std::ref(h), streams[kProducers + i], std::ref(errors), std::ref(consumed));
  for (std::thread& t : threads) t.join();
  OK(st_cuda_synchronize(0));
  print_message("%d tensors made, checked, handed over and released; %d wrong\n", consumed.load(), errors.load());
  assert_int_equal(errors.load(), 0);
  assert_int_equal(consumed.load(), kProducers * kRounds);
  for (size_t i = 1; i < streams.size(); ++i) ST_CUDA_CHECK(cudaStreamDestroy(streams[i]));
}

// ---- Blocking probe.

// Spins until *flag is set or about `limit` clock cycles have passed.
__global__ void spin(const volatile int* flag, long long limit) {
  const long long start = clock64();
  while (*flag == 0 && clock64() - start < limit) {
  }
}

// A non_blocking copy from pinned memory that is not dense (staged through
// a pinned block) on stream A returns while a kernel on stream B still
// runs: neither the staging memory nor anything else waited for the device.
void a_non_blocking_pinned_copy_does_not_wait_for_other_streams(void**) {
  cudaStream_t a = nullptr, b = nullptr;
  ST_CUDA_CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
  ST_CUDA_CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  int* flag = nullptr;
  ST_CUDA_CHECK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  *flag = 0;
  OK(st_cuda_set_stream(0, a));
  st_tensor src = create({256, 1024}, ST_FLOAT32, kPinned), view = {0};
  OK(st_fill(src, 1.5));
  OK(st_slice(src, 1, 0, 1024, 2, &view));  // every other column: not dense, packed into a pinned block
  st_tensor dst = create({256, 512}, ST_FLOAT32, kGpu);
  OK(st_copy(dst, view, 1));  // once, so that the pinned pool holds a staging block
  // And a free block of the size the timed region's pinned tensor takes
  // (8,000 bytes: an 8 KiB block), so that it comes from the pool there
  // with no cudaHostAlloc, whatever ran before this test.
  const size_t kept_before = st::cuda::pinned_pool().cached_bytes();
  OK(st_tensor_release(create({1000}, ST_INT64, kPinned)));
  OK(st_cuda_synchronize(0));  // the staging block goes back to the pool too
  assert_true(st::cuda::pinned_pool().cached_bytes() >= kept_before + 8192);

  int clock_khz = 0;
  ST_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  spin<<<1, 1, 0, b>>>(flag, static_cast<long long>(clock_khz) * 10000);  // about 10 s at most
  ST_CUDA_CHECK(cudaGetLastError());
  const auto t0 = std::chrono::steady_clock::now();
  OK(st_copy(dst, view, 1));
  const size_t kept = st::cuda::pinned_pool().cached_bytes();
  st_tensor another = create({1000}, ST_INT64, kPinned);  // from the pool: no cudaHostAlloc
  const bool from_the_pool = st::cuda::pinned_pool().cached_bytes() + 8192 == kept;
  OK(st_tensor_release(another));
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  const cudaError_t still = cudaStreamQuery(b);
  (void)cudaGetLastError();
  *flag = 1;
  OK(st_cuda_synchronize(0));
  print_message("st_copy(non_blocking) + a pinned tensor made and released returned in %.0f us while a kernel ran on "
                "another stream (%s)\n",
                us, still == cudaErrorNotReady ? "still running: nothing waited" : "it had finished: something waited");
  assert_int_equal(still, cudaErrorNotReady);
  assert_true(from_the_pool);
  st_tensor back = create({256, 512}, ST_FLOAT32, kCpu);
  OK(st_copy(back, dst, 0));
  const float* p = data_of<float>(back);
  for (int i = 0; i < 256 * 512; ++i) assert_true(p[i] == 1.5f);
  for (st_tensor t : {src, view, dst, back}) OK(st_tensor_release(t));
  OK(st_cuda_set_stream(0, nullptr));
  ST_CUDA_CHECK(cudaFreeHost(flag));
  ST_CUDA_CHECK(cudaStreamDestroy(a));
  ST_CUDA_CHECK(cudaStreamDestroy(b));
}

// A scaled copy within a device is queued like st_copy: its scales and
// shifts travel in a kernel's arguments, with no wait for the stream.
void a_non_blocking_scaled_copy_on_a_device_is_only_queued(void**) {
  cudaStream_t a = nullptr;
  ST_CUDA_CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
  int* flag = nullptr;
  ST_CUDA_CHECK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  *flag = 0;
  OK(st_cuda_set_stream(0, a));
  st_tensor src = create({64, 3}, ST_FLOAT32, kGpu), dst = create({64, 3}, ST_FLOAT32, kGpu);
  OK(st_fill(src, 2.0));
  const double scale[3] = {0.5, 1.0, 4.0}, shift[3] = {1.0, -1.0, 0.25};
  const st_scale_shift ss = {scale, shift, 3, 1, 0};
  int clock_khz = 0;
  ST_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  spin<<<1, 1, 0, a>>>(flag, static_cast<long long>(clock_khz) * 10000);  // on the copy's own stream
  ST_CUDA_CHECK(cudaGetLastError());
  OK(st_copy_scaled(dst, src, &ss, 1));
  const cudaError_t still = cudaStreamQuery(a);
  (void)cudaGetLastError();
  *flag = 1;
  OK(st_cuda_synchronize(0));
  print_message("st_copy_scaled(non_blocking) on one device returned while its stream ran a kernel (%s)\n",
                still == cudaErrorNotReady ? "still running: nothing waited" : "it had finished: the copy waited");
  assert_int_equal(still, cudaErrorNotReady);
  st_tensor back = create({64, 3}, ST_FLOAT32, kCpu);
  OK(st_copy(back, dst, 0));
  const float* p = data_of<float>(back);
  for (int i = 0; i < 64 * 3; ++i) assert_true(p[i] == static_cast<float>(2.0 * scale[i % 3] + shift[i % 3]));
  for (st_tensor t : {src, dst, back}) OK(st_tensor_release(t));
  OK(st_cuda_set_stream(0, nullptr));
  ST_CUDA_CHECK(cudaFreeHost(flag));
  ST_CUDA_CHECK(cudaStreamDestroy(a));
}

// ---- Graph capture (Note [Copies during stream capture]).

void copies_within_a_device_are_captured_and_host_copies_refused(void**) {
  cudaStream_t s = nullptr;
  ST_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  OK(st_cuda_set_stream(0, s));
  st_tensor a = create({300, 200}, ST_FLOAT32, kGpu), at = {0}, b = create({200, 300}, ST_FLOAT16, kGpu);
  st_tensor host = create({200, 300}, ST_FLOAT16, kCpu);
  OK(st_fill(a, 3.0));
  OK(st_transpose(a, 0, 1, &at));
  OK(st_fill(b, 0.0));
  OK(st_cuda_synchronize(0));
  ST_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  OK(st_copy(b, at, 0));  // blocking, yet recorded: returns without waiting
  assert_int_equal(st_copy(host, b, 0), ST_ERROR_INVALID_ARGUMENT);
  print_message("%s\n", st_last_error_message());
  cudaGraph_t graph = nullptr;
  ST_CUDA_CHECK(cudaStreamEndCapture(s, &graph));  // the capture is still valid
  cudaGraphExec_t exec = nullptr;
  ST_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  OK(st_copy(host, b, 0));
  const uint16_t* h = data_of<uint16_t>(host);
  assert_int_equal(h[0], 0);  // captured, not run
  ST_CUDA_CHECK(cudaGraphLaunch(exec, s));
  OK(st_copy(host, b, 0));
  for (int i = 0; i < 200 * 300; ++i) assert_int_equal(h[i], 0x4200);  // 3.0 in float16
  ST_CUDA_CHECK(cudaGraphExecDestroy(exec));
  ST_CUDA_CHECK(cudaGraphDestroy(graph));
  for (st_tensor t : {a, at, b, host}) OK(st_tensor_release(t));
  OK(st_cuda_set_stream(0, nullptr));
  ST_CUDA_CHECK(cudaStreamDestroy(s));
}

// A scaled copy within a device is recorded with its scales and shifts,
// which each replay writes again (the graph holds them): changing nothing
// on the host between replays, the graph gives the same result.
void scaled_copies_within_a_device_are_captured(void**) {
  cudaStream_t s = nullptr;
  ST_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  OK(st_cuda_set_stream(0, s));
  st_tensor src = create({1000, 40}, ST_UINT8, kGpu), dst = create({1000, 40}, ST_FLOAT32, kGpu);
  st_tensor host = create({1000, 40}, ST_FLOAT32, kCpu);
  OK(st_fill(src, 200.0));
  OK(st_fill(dst, 0.0));
  OK(st_cuda_synchronize(0));
  std::vector<double> scale(40), shift(40);
  for (int c = 0; c < 40; ++c) {
    scale[c] = 1.0 / (c + 1);
    shift[c] = -c;
  }
  const st_scale_shift ss = {scale.data(), shift.data(), 40, 1, 0};
  ST_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  const st_status captured = st_copy_scaled(dst, src, &ss, 0);
  if (captured != ST_OK) print_message("%s\n", st_last_error_message());
  cudaGraph_t graph = nullptr;
  ST_CUDA_CHECK(cudaStreamEndCapture(s, &graph));  // the capture is still valid
  assert_int_equal(captured, ST_OK);
  for (double& v : scale) v = 0.0;  // the caller's arrays are no longer read
  cudaGraphExec_t exec = nullptr;
  ST_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  OK(st_copy(host, dst, 0));
  const float* h = data_of<float>(host);
  assert_true(h[0] == 0.0f);  // captured, not run
  for (int replay = 0; replay < 2; ++replay) {
    ST_CUDA_CHECK(cudaGraphLaunch(exec, s));
    OK(st_copy(host, dst, 0));
    for (int i = 0; i < 1000 * 40; ++i) {
      const int c = i % 40;
      // float32 compute: one fused multiply-add of the rounded values (include/stride.h).
      assert_true(h[i] == std::fmaf(200.0f, static_cast<float>(1.0 / (c + 1)), static_cast<float>(-c)));
    }
    OK(st_fill(dst, 0.0));
  }
  ST_CUDA_CHECK(cudaGraphExecDestroy(exec));
  ST_CUDA_CHECK(cudaGraphDestroy(graph));
  for (st_tensor t : {src, dst, host}) OK(st_tensor_release(t));
  OK(st_cuda_set_stream(0, nullptr));
  ST_CUDA_CHECK(cudaStreamDestroy(s));
}

// A copy between two devices while either current stream captures is
// refused and leaves the capture valid (Note [Copies during stream
// capture]); outside a capture the same copy works.
void copies_between_two_devices_are_refused_during_capture(void**) {
  if (st::cuda::device_status().count < 2) {
    print_message("skipped: this case needs two CUDA devices, this machine has %d\n", st::cuda::device_status().count);
    skip();
  }
  const st_device gpu1 = {ST_DEVICE_CUDA, 1};
  cudaStream_t streams[2] = {nullptr, nullptr};
  for (int d = 0; d < 2; ++d) {
    ST_CUDA_CHECK(cudaSetDevice(d));
    ST_CUDA_CHECK(cudaStreamCreateWithFlags(&streams[d], cudaStreamNonBlocking));
    OK(st_cuda_set_stream(d, streams[d]));
  }
  ST_CUDA_CHECK(cudaSetDevice(0));
  st_tensor a = create({100, 30}, ST_FLOAT32, kGpu), b = create({100, 30}, ST_FLOAT32, gpu1);
  st_tensor host = create({100, 30}, ST_FLOAT32, kCpu), half = create({100, 30}, ST_FLOAT16, gpu1);
  OK(st_fill(a, 5.0));
  OK(st_fill(b, 0.0));
  OK(st_cuda_synchronize(0));
  OK(st_cuda_synchronize(1));
  for (int capturing = 0; capturing < 2; ++capturing) {  // src's stream, then dst's
    ST_CUDA_CHECK(cudaSetDevice(capturing));
    ST_CUDA_CHECK(cudaStreamBeginCapture(streams[capturing], cudaStreamCaptureModeGlobal));
    const st_status dense = st_copy(b, a, 0);
    const st_status staged = st_copy(half, a, 1);  // a conversion: staged on src's device
    print_message("%s\n", st_last_error_message());
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(streams[capturing], &graph);
    if (graph) ST_CUDA_CHECK(cudaGraphDestroy(graph));
    assert_int_equal(dense, ST_ERROR_INVALID_ARGUMENT);
    assert_int_equal(staged, ST_ERROR_INVALID_ARGUMENT);
    assert_int_equal(ended, cudaSuccess);  // the capture was not broken
  }
  ST_CUDA_CHECK(cudaSetDevice(0));
  OK(st_copy(b, a, 0));
  OK(st_copy(host, b, 0));
  const float* h = data_of<float>(host);
  for (int i = 0; i < 100 * 30; ++i) assert_true(h[i] == 5.0f);
  for (st_tensor t : {a, b, host, half}) OK(st_tensor_release(t));
  for (int d = 0; d < 2; ++d) {
    OK(st_cuda_synchronize(d));
    OK(st_cuda_set_stream(d, nullptr));
    ST_CUDA_CHECK(cudaStreamDestroy(streams[d]));
  }
}

// After a copy between two devices that can reach each other, each has
// peer access to the other and each stride pool grants it to the other
// (Note [Peer access between devices]): the transfer goes direct, not
// through the host.
void copies_between_two_devices_enable_peer_access(void**) {
  if (st::cuda::device_status().count < 2) {
    print_message("skipped: this case needs two CUDA devices, this machine has %d\n", st::cuda::device_status().count);
    skip();
  }
  int can01 = 0, can10 = 0;
  ST_CUDA_CHECK(cudaDeviceCanAccessPeer(&can01, 0, 1));
  ST_CUDA_CHECK(cudaDeviceCanAccessPeer(&can10, 1, 0));
  if (!can01 || !can10) {
    print_message("skipped: cuda:0 and cuda:1 cannot access each other's memory (cudaDeviceCanAccessPeer)\n");
    skip();
  }
  const st_device gpu1 = {ST_DEVICE_CUDA, 1};
  st_tensor a = create({256, 256}, ST_FLOAT32, kGpu), b = create({256, 256}, ST_FLOAT32, gpu1);
  st_tensor host = create({256, 256}, ST_FLOAT32, kCpu);
  OK(st_fill(a, 7.0));
  OK(st_copy(b, a, 0));
  for (int owner = 0; owner < 2; ++owner) {
    ST_CUDA_CHECK(cudaSetDevice(owner));
    cudaMemLocation other = {};
    other.type = cudaMemLocationTypeDevice;
    other.id = 1 - owner;
    cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
    ST_CUDA_CHECK(cudaMemPoolGetAccess(&flags, st::cuda::device_pool(owner), &other));
    assert_int_equal(flags, cudaMemAccessFlagsProtReadWrite);
    const cudaError_t again = cudaDeviceEnablePeerAccess(1 - owner, 0);
    (void)cudaGetLastError();
    assert_int_equal(again, cudaErrorPeerAccessAlreadyEnabled);
  }
  ST_CUDA_CHECK(cudaSetDevice(0));
  OK(st_copy(host, b, 0));
  const float* h = data_of<float>(host);
  for (int i = 0; i < 256 * 256; ++i) assert_true(h[i] == 7.0f);
  for (st_tensor t : {a, b, host}) OK(st_tensor_release(t));
}

// A tensor made before a capture and released inside it cannot be freed by
// the graph (cudaFreeAsync takes only graph allocations there): the capture
// stays valid, and the memory goes back to the pool once it has ended
// (Note [Releasing memory during stream capture]).
void a_tensor_released_during_a_capture_is_freed_after_it(void**) {
  cudaStream_t s = nullptr;
  ST_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  OK(st_cuda_set_stream(0, s));
  constexpr size_t kBytes = size_t{4} << 20;
  st_tensor before = create({static_cast<int64_t>(kBytes / 4)}, ST_FLOAT32, kGpu), u = create({1000}, ST_FLOAT32, kGpu);
  OK(st_cuda_synchronize(0));
  const cudaMemPool_t pool = st::cuda::device_pool(0);
  uint64_t used_before = 0, used_after = 0;
  ST_CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used_before));
  ST_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  OK(st_fill(u, 4.0));
  OK(st_tensor_release(before));  // made before the capture: set aside, not a free node
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(s, &graph);
  (void)cudaGetLastError();
  assert_int_equal(ended, cudaSuccess);
  assert_non_null(graph);
  OK(st_cuda_synchronize(0));  // frees what was set aside, now that the capture is over
  ST_CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used_after));
  print_message("pool memory in use: %llu bytes before, %llu after the release and the capture\n",
                static_cast<unsigned long long>(used_before), static_cast<unsigned long long>(used_after));
  assert_true(used_after + kBytes <= used_before);
  cudaGraphExec_t exec = nullptr;
  ST_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  ST_CUDA_CHECK(cudaGraphLaunch(exec, s));
  st_tensor host = create({1000}, ST_FLOAT32, kCpu);
  OK(st_copy(host, u, 0));
  const float* h = data_of<float>(host);
  for (int i = 0; i < 1000; ++i) assert_true(h[i] == 4.0f);
  ST_CUDA_CHECK(cudaGraphExecDestroy(exec));
  ST_CUDA_CHECK(cudaGraphDestroy(graph));
  for (st_tensor t : {u, host}) OK(st_tensor_release(t));
  OK(st_cuda_set_stream(0, nullptr));
  ST_CUDA_CHECK(cudaStreamDestroy(s));
}

}  // namespace

// An argument runs only the tests it names (a cmocka pattern), as
// tools/gpu-check.sh does for the stress test and the blocking probe; one
// that starts with '-' runs all but those, as it does to leave the probe (a
// timing) out under compute-sanitizer.
int main(int argc, char** argv) {
  if (argc > 1 && argv[1][0] == '-') {
    cmocka_set_skip_filter(argv[1] + 1);
  } else if (argc > 1) {
    cmocka_set_test_filter(argv[1]);
  }
  const st::cuda::DeviceStatus& s = st::cuda::device_status();
  if (s.count == 0) {
    std::printf("skipped: no CUDA device (%s)\n", s.reason.c_str());
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(threads_with_their_own_streams_share_tensors),
      cmocka_unit_test(a_non_blocking_pinned_copy_does_not_wait_for_other_streams),
      cmocka_unit_test(a_non_blocking_scaled_copy_on_a_device_is_only_queued),
      cmocka_unit_test(copies_within_a_device_are_captured_and_host_copies_refused),
      cmocka_unit_test(scaled_copies_within_a_device_are_captured),
      cmocka_unit_test(a_tensor_released_during_a_capture_is_freed_after_it),
      cmocka_unit_test(copies_between_two_devices_are_refused_during_capture),
      cmocka_unit_test(copies_between_two_devices_enable_peer_access),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
