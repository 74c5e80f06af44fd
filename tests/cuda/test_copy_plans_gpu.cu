// Copy plans of operands on one CUDA device, on a GPU:
//  - over random layouts and dtype pairs, plain and scaled, a plan made on
//    one pair of device tensors and executed on another laid out alike (at
//    other address phases) gives st_copy's (st_copy_scaled's) bits there;
//  - executes allocate nothing: no operator new on the calling thread, and
//    the high-water mark of the library's device pool stays where it was
//    (each instrument first shown to see an allocation: st_copy_scaled's
//    upload, the staging of an unaligned conversion);
//  - an execute on a stream set with st_cuda_set_stream can be captured in
//    a CUDA graph (global capture mode, which refuses allocations and
//    synchronizations): the graph holds kernels only, and replaying it on
//    new data gives st_copy's result;
//  - conversions and scaled copies at addresses off their element
//    alignment, which the plan leaves to st_copy's staging, give its bits,
//    and so do unaligned copies that keep the bits, which the plan runs.
//
// Needs a GPU; without one it prints why and exits 77 (ctest: skipped).
#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "copy_cases.h"
#include "cuda/runtime/allocator.h"
#include "cuda/runtime/cuda_error.h"
#include "cuda/runtime/device_guard.h"
#include "cuda/runtime/device_status.h"
#include "gpu_support.h"
#include "ops/copy.h"
#include "ops/copy_plan.h"
#include "stride.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

// ---- Counting the calling thread's operator new (the library's host
// allocations: tensors, storages, vectors) while g_counting is set.

namespace {
thread_local bool g_counting = false;
std::atomic<long> g_news{0};

// nvcc takes the global operator new for __host__ __device__; it is only
// ever called on the host here.
__host__ __device__ void* counted_alloc(size_t n, size_t align) {
#ifdef __CUDA_ARCH__
  (void)n;
  (void)align;
  return nullptr;
#else
  if (g_counting) g_news.fetch_add(1, std::memory_order_relaxed);
  if (n == 0) n = 1;
  void* p = align <= alignof(std::max_align_t) ? std::malloc(n)
                                                : std::aligned_alloc(align, (n + align - 1) / align * align);
  if (p == nullptr) throw std::bad_alloc();
  return p;
#endif
}
}  // namespace

void* operator new(size_t n) { return counted_alloc(n, 0); }
void* operator new[](size_t n) { return counted_alloc(n, 0); }
void* operator new(size_t n, std::align_val_t a) { return counted_alloc(n, static_cast<size_t>(a)); }
void* operator new[](size_t n, std::align_val_t a) { return counted_alloc(n, static_cast<size_t>(a)); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { std::free(p); }

using namespace st;
using copy_cases::describe;
using copy_cases::pick;
using gpu_support::mirror;
using gpu_support::read_back;

namespace {

const Device kGpu0{DeviceType::CUDA, 0};
const st_device GPU0 = {ST_DEVICE_CUDA, 0};
const st_device CPU = {ST_DEVICE_CPU, 0};

#define EXPECT_OK(call)                                                                          \
  do {                                                                                           \
    const st_status status_ = (call);                                                            \
    if (status_ != ST_OK) {                                                                      \
      print_error("%s: %s (%s)\n", #call, st_status_name(status_), st_last_error_message());     \
      fail();                                                                                    \
    }                                                                                            \
  } while (0)

// ---- Random plans against st_copy on other memory.

void plans_match_st_copy_on_other_memory(void**) {
  std::mt19937_64 rng(test_seed("plans_match_st_copy_on_other_memory"));
  const auto phase = [&] { return copy_cases::random_phase(rng); };
  for (int c = 0; c < 600; ++c) {
    const bool scaled = c % 2 == 1;
    const copy_cases::Case k = copy_cases::random_case(rng, scaled, phase(), phase());
    const Tensor &dst = k.dst, &src = k.src;
    const Tensor gdst = mirror(dst, kGpu0), gsrc = mirror(src, kGpu0);
    ScaleShift ss{};
    if (scaled) ss = copy_cases::random_scale_shift(rng, gdst, gsrc);
    const PlanEffort effort = pick(rng, 0, 3) == 0 ? PlanEffort::Measure : PlanEffort::Estimate;
    const ops::CopyPlan plan(gdst, gsrc, scaled ? &ss : nullptr, effort);
    // The same layouts over other device memory, at other phases.
    const Tensor dst2 = copy_cases::elsewhere(rng, dst, phase());
    const Tensor got = mirror(dst2, kGpu0), want = mirror(dst2, kGpu0);
    const Tensor src2 = mirror(copy_cases::elsewhere(rng, src, phase()), kGpu0);
    const bool non_blocking = pick(rng, 0, 1) == 1;
    plan.execute(got.data(), src2.data(), non_blocking);
    if (scaled) {
      ops::copy_scaled_(want, src2, ss, false);
    } else {
      ops::copy_(want, src2, false);
    }
    if (read_back(got) != read_back(want)) {
      print_error("%s plan of dst %s <- src %s, executed at phases %u, %u%s: differs from st_copy%s there\n",
                  scaled ? "scaled" : "plain", describe(dst).c_str(), describe(src).c_str(),
                  static_cast<unsigned>(reinterpret_cast<uintptr_t>(got.data()) % 16),
                  static_cast<unsigned>(reinterpret_cast<uintptr_t>(src2.data()) % 16),
                  non_blocking ? " (non_blocking)" : "", scaled ? "_scaled" : "");
      fail();
    }
  }
}

// ---- Three plans through the C API: a transposing conversion, a
// contiguous same-dtype copy, and a scaled NHWC uint8 -> NCHW float32.

st_tensor device_tensor(const int64_t* sizes, int32_t ndim, st_dtype dtype) {
  st_tensor t;
  EXPECT_OK(st_tensor_create(sizes, ndim, dtype, GPU0, &t));
  return t;
}

// A contiguous host tensor of t's sizes and dtype, and its bytes.
struct HostTwin {
  st_tensor t;
  unsigned char* bytes;
  size_t nbytes;
  explicit HostTwin(st_tensor like) {
    int64_t sizes[ST_MAX_DIMS];
    int32_t ndim;
    st_dtype dtype;
    EXPECT_OK(st_tensor_ndim(like, &ndim));
    EXPECT_OK(st_tensor_sizes(like, sizes, ST_MAX_DIMS));
    EXPECT_OK(st_tensor_dtype(like, &dtype));
    EXPECT_OK(st_tensor_create(sizes, ndim, dtype, CPU, &t));
    int64_t numel;
    EXPECT_OK(st_tensor_numel(t, &numel));
    void* p;
    EXPECT_OK(st_tensor_data_ptr(t, &p));
    bytes = static_cast<unsigned char*>(p);
    nbytes = static_cast<size_t>(numel) * st_dtype_itemsize(dtype);
  }
  ~HostTwin() { EXPECT_OK(st_tensor_release(t)); }
};

// Random bytes into device tensor t, through a host tensor.
void fill_random(st_tensor t, std::mt19937_64& rng) {
  HostTwin host(t);
  for (size_t i = 0; i < host.nbytes; ++i) host.bytes[i] = static_cast<unsigned char>(rng());
  EXPECT_OK(st_copy(t, host.t, 0));
}

// The bytes of device tensor t (contiguous).
std::vector<unsigned char> bytes_of(st_tensor t) {
  HostTwin host(t);
  EXPECT_OK(st_copy(host.t, t, 0));
  return std::vector<unsigned char>(host.bytes, host.bytes + host.nbytes);
}

void* data_of(st_tensor t) {
  void* p;
  EXPECT_OK(st_tensor_data_ptr(t, &p));
  return p;
}

struct Plans {
  // dst, src and a reference dst of each; plans 0 and 1 plain, 2 scaled.
  st_tensor dst[3], src[3], want[3];
  st_copy_plan plan[3];
  double scale[3] = {1.0 / 255, 2.0, -0.5}, shift[3] = {-0.5, 1.5, 3.0};
  st_scale_shift ss{scale, shift, 3, 1, 0};

  explicit Plans(std::mt19937_64& rng) {
    const int64_t matrix[2] = {64, 48}, flipped[2] = {48, 64}, line[1] = {1000};
    const int64_t nchw[4] = {2, 3, 16, 20}, nhwc[4] = {2, 16, 20, 3};
    const int32_t to_nchw[4] = {0, 3, 1, 2};
    dst[0] = device_tensor(matrix, 2, ST_FLOAT32);
    want[0] = device_tensor(matrix, 2, ST_FLOAT32);
    const st_tensor base0 = device_tensor(flipped, 2, ST_FLOAT16);
    EXPECT_OK(st_transpose(base0, 0, 1, &src[0]));
    dst[1] = device_tensor(line, 1, ST_INT16);
    want[1] = device_tensor(line, 1, ST_INT16);
    src[1] = device_tensor(line, 1, ST_INT16);
    dst[2] = device_tensor(nchw, 4, ST_FLOAT32);
    want[2] = device_tensor(nchw, 4, ST_FLOAT32);
    const st_tensor base2 = device_tensor(nhwc, 4, ST_UINT8);
    EXPECT_OK(st_permute(base2, to_nchw, 4, &src[2]));
    fill_random(base0, rng);
    fill_random(src[1], rng);
    fill_random(base2, rng);
    EXPECT_OK(st_tensor_release(base0));
    EXPECT_OK(st_tensor_release(base2));
    for (int i = 0; i < 3; ++i) {
      EXPECT_OK(st_copy_plan_create(dst[i], src[i], i == 2 ? &ss : nullptr, ST_PLAN_ESTIMATE, &plan[i]));
    }
  }
  ~Plans() {
    for (int i = 0; i < 3; ++i) {
      EXPECT_OK(st_copy_plan_release(plan[i]));
      for (st_tensor t : {dst[i], src[i], want[i]}) EXPECT_OK(st_tensor_release(t));
    }
  }

  // Every plan once: 0 and 2 through execute_raw, 1 through execute.
  void execute(int32_t non_blocking) {
    EXPECT_OK(st_copy_plan_execute_raw(plan[0], data_of(dst[0]), data_of(src[0]), non_blocking));
    EXPECT_OK(st_copy_plan_execute(plan[1], dst[1], src[1], non_blocking));
    EXPECT_OK(st_copy_plan_execute_raw(plan[2], data_of(dst[2]), data_of(src[2]), non_blocking));
  }

  // Each dst holds what st_copy (st_copy_scaled) writes.
  void check(const char* what) {
    for (int i = 0; i < 3; ++i) {
      if (i == 2) {
        EXPECT_OK(st_copy_scaled(want[i], src[i], &ss, 0));
      } else {
        EXPECT_OK(st_copy(want[i], src[i], 0));
      }
      if (bytes_of(dst[i]) != bytes_of(want[i])) {
        print_error("%s: plan %d differs from st_copy\n", what, i);
        fail();
      }
    }
  }
};

// The library's device pool: the most memory in use since `reset_high`.
struct PoolWatch {
  cudaMemPool_t pool;
  uint64_t used = 0;
  PoolWatch() {
    cuda::DeviceGuard guard(0);
    pool = cuda::device_pool(0);
  }
  void reset_high() {
    ST_CUDA_CHECK(cudaDeviceSynchronize());
    ST_CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    uint64_t zero = 0;
    ST_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
  }
  // Whether anything was allocated from the pool since reset_high().
  bool grew() const {
    ST_CUDA_CHECK(cudaDeviceSynchronize());
    uint64_t high = 0;
    ST_CUDA_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
    return high > used;
  }
};

void executes_allocate_nothing(void**) {
  std::mt19937_64 rng(test_seed("executes_allocate_nothing"));
  Plans p(rng);
  p.execute(0);  // this thread's first use of the device, its stream slots included
  PoolWatch pool;
  // Each instrument sees an allocation: st_copy_scaled uploads its values.
  pool.reset_high();
  g_news = 0;
  g_counting = true;
  EXPECT_OK(st_copy_scaled(p.want[2], p.src[2], &p.ss, 0));
  g_counting = false;
  assert_true(pool.grew());
  assert_true(g_news.load() > 0);
  // Executes, blocking or not, allocate nothing.
  pool.reset_high();
  g_news = 0;
  g_counting = true;
  for (int i = 0; i < 100; ++i) p.execute(i % 2);
  g_counting = false;
  const long news = g_news.load();
  const bool grew = pool.grew();
  print_message("300 executes: %ld operator new calls; the device pool %s\n", news, grew ? "grew" : "did not grow");
  assert_int_equal(news, 0);
  assert_false(grew);
  p.check("after 300 executes");
}

void an_execute_is_captured_in_a_graph(void**) {
  std::mt19937_64 rng(test_seed("an_execute_is_captured_in_a_graph"));
  Plans p(rng);
  cudaStream_t stream;
  ST_CUDA_CHECK(cudaStreamCreate(&stream));
  ST_CUDA_CHECK(cudaDeviceSynchronize());  // the tensors' allocation and data
  EXPECT_OK(st_cuda_set_stream(0, stream));
  ST_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  p.execute(0);  // blocking: nothing to wait for while capturing
  cudaGraph_t graph = nullptr;
  const cudaError_t captured = cudaStreamEndCapture(stream, &graph);
  if (captured != cudaSuccess) {
    print_error("the capture failed: %s\n", cudaGetErrorString(captured));
    fail();
  }
  size_t count = 0;
  ST_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  ST_CUDA_CHECK(cudaGraphGetNodes(graph, nodes.data(), &count));
  print_message("the graph of three executes has %zu nodes\n", count);
  assert_true(count >= 3);
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type;
    ST_CUDA_CHECK(cudaGraphNodeGetType(node, &type));
    assert_int_equal(type, cudaGraphNodeTypeKernel);  // no allocation, copy or free
  }
  // New data, dst cleared, then the graph replays the copies on it.
  for (int i = 0; i < 3; ++i) {
    fill_random(p.src[i], rng);
    EXPECT_OK(st_zero(p.dst[i]));
  }
  cudaGraphExec_t exec = nullptr;
  ST_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  ST_CUDA_CHECK(cudaGraphLaunch(exec, stream));
  ST_CUDA_CHECK(cudaStreamSynchronize(stream));
  p.check("after a graph replay");
  EXPECT_OK(st_cuda_set_stream(0, nullptr));
  ST_CUDA_CHECK(cudaGraphExecDestroy(exec));
  ST_CUDA_CHECK(cudaGraphDestroy(graph));
  ST_CUDA_CHECK(cudaDeviceSynchronize());
  ST_CUDA_CHECK(cudaStreamDestroy(stream));
}

// ---- Unaligned addresses: execute_raw against st_copy on tensors wrapped
// at the same addresses.

struct Buffer {
  st_tensor t;
  char* base;
  explicit Buffer(int64_t nbytes) {
    t = device_tensor(&nbytes, 1, ST_UINT8);
    EXPECT_OK(st_zero(t));
    base = static_cast<char*>(data_of(t));
  }
  ~Buffer() { EXPECT_OK(st_tensor_release(t)); }
};

st_tensor wrap(void* data, int64_t n, st_dtype dtype) {
  st_tensor t;
  EXPECT_OK(st_tensor_from_data(data, &n, nullptr, 1, dtype, GPU0, nullptr, nullptr, &t));
  return t;
}

// A plan of dst_dtype <- src_dtype over n elements, made on aligned
// tensors and executed at base + dst_at and base + src_at of two buffers.
bool unaligned_case(st_dtype dst_dtype, st_dtype src_dtype, bool scaled, int dst_at, int src_at,
                    std::mt19937_64& rng) {
  const int64_t n = 1000;
  const double scale = 0.25, shift = -3.0;
  const st_scale_shift ss{&scale, &shift, 1, 0, 1};
  const st_tensor pdst = device_tensor(&n, 1, dst_dtype), psrc = device_tensor(&n, 1, src_dtype);
  st_copy_plan plan;
  EXPECT_OK(st_copy_plan_create(pdst, psrc, scaled ? &ss : nullptr, ST_PLAN_ESTIMATE, &plan));
  const int64_t nbytes = n * 8 + 32;
  Buffer got(nbytes), want(nbytes), src(nbytes);
  const st_tensor s = wrap(src.base + src_at, n, src_dtype);
  fill_random(s, rng);
  EXPECT_OK(st_copy_plan_execute_raw(plan, got.base + dst_at, src.base + src_at, 0));
  const st_tensor w = wrap(want.base + dst_at, n, dst_dtype);
  if (scaled) {
    EXPECT_OK(st_copy_scaled(w, s, &ss, 0));
  } else {
    EXPECT_OK(st_copy(w, s, 0));
  }
  const bool same = bytes_of(got.t) == bytes_of(want.t);
  if (!same) {
    print_error("%s %s <- %s at offsets %d, %d: the plan differs from st_copy\n", scaled ? "scaled" : "plain",
                st_dtype_name(dst_dtype), st_dtype_name(src_dtype), dst_at, src_at);
  }
  for (st_tensor t : {s, w, pdst, psrc}) EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_copy_plan_release(plan));
  return same;
}

void unaligned_addresses_give_st_copys_bits(void**) {
  std::mt19937_64 rng(test_seed("unaligned_addresses_give_st_copys_bits"));
  const int offsets[][2] = {{0, 0}, {1, 0}, {0, 1}, {2, 3}, {4, 2}, {5, 7}};
  for (const auto& at : offsets) {
    // Conversions: staged by st_copy's path where unaligned.
    if (!unaligned_case(ST_FLOAT32, ST_INT16, false, at[0], at[1], rng)) fail();
    if (!unaligned_case(ST_FLOAT16, ST_FLOAT64, false, at[0], at[1], rng)) fail();
    if (!unaligned_case(ST_FLOAT32, ST_UINT8, true, at[0], at[1], rng)) fail();
    // The same bits: the plan runs the byte-wise kernels itself.
    if (!unaligned_case(ST_INT32, ST_INT32, false, at[0], at[1], rng)) fail();
    if (!unaligned_case(ST_INT32, ST_UINT32, false, at[0], at[1], rng)) fail();
  }
  // The staging of an unaligned conversion is the one execute that allocates.
  const int64_t n = 256;
  const st_tensor pdst = device_tensor(&n, 1, ST_FLOAT32), psrc = device_tensor(&n, 1, ST_INT16);
  st_copy_plan plan;
  EXPECT_OK(st_copy_plan_create(pdst, psrc, nullptr, ST_PLAN_ESTIMATE, &plan));
  Buffer got(n * 4 + 16), src(n * 2 + 16);
  EXPECT_OK(st_copy_plan_execute_raw(plan, got.base, src.base, 0));  // warm
  PoolWatch pool;
  pool.reset_high();
  EXPECT_OK(st_copy_plan_execute_raw(plan, got.base, src.base, 0));
  assert_false(pool.grew());
  EXPECT_OK(st_copy_plan_execute_raw(plan, got.base + 2, src.base, 0));
  assert_true(pool.grew());
  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(pdst));
  EXPECT_OK(st_tensor_release(psrc));
}

// execute_raw checks that a device plan's addresses are memory of its device.
void a_device_plan_refuses_host_addresses(void**) {
  const int64_t n = 64;
  const st_tensor dst = device_tensor(&n, 1, ST_FLOAT32), src = device_tensor(&n, 1, ST_FLOAT32);
  st_copy_plan plan;
  EXPECT_OK(st_copy_plan_create(dst, src, nullptr, ST_PLAN_ESTIMATE, &plan));
  std::vector<float> host(static_cast<size_t>(n));
  assert_int_equal(st_copy_plan_execute_raw(plan, host.data(), data_of(src), 0), ST_ERROR_INVALID_ARGUMENT);
  assert_non_null(std::strstr(st_last_error_message(), "dst_data"));
  assert_int_equal(st_copy_plan_execute_raw(plan, data_of(dst), host.data(), 0), ST_ERROR_INVALID_ARGUMENT);
  assert_non_null(std::strstr(st_last_error_message(), "src_data"));
  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
}

// A scaled plan uploads its scales and shifts when it is made: on a stream
// capturing a graph that is refused, with ST_ERROR_INVALID_ARGUMENT and
// the null plan, as the header says. A plain plan is made all the same.
void a_scaled_plan_is_refused_while_capturing(void**) {
  const int64_t n = 64;
  const st_tensor dst = device_tensor(&n, 1, ST_FLOAT32), src = device_tensor(&n, 1, ST_FLOAT32);
  const double scale = 2.0, shift = 1.0;
  const st_scale_shift ss = {&scale, &shift, 1, 0, 0};
  cudaStream_t stream;
  ST_CUDA_CHECK(cudaStreamCreate(&stream));
  ST_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_OK(st_cuda_set_stream(0, stream));
  ST_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed));
  st_copy_plan scaled = {7}, plain = {0};
  const st_status refused = st_copy_plan_create(dst, src, &ss, ST_PLAN_ESTIMATE, &scaled);
  const std::string why = st_last_error_message();
  const st_status made = st_copy_plan_create(dst, src, nullptr, ST_PLAN_ESTIMATE, &plain);
  cudaGraph_t graph = nullptr;
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
  if (graph) ST_CUDA_CHECK(cudaGraphDestroy(graph));
  EXPECT_OK(st_cuda_set_stream(0, nullptr));
  ST_CUDA_CHECK(cudaDeviceSynchronize());
  ST_CUDA_CHECK(cudaStreamDestroy(stream));
  assert_int_equal(ended, cudaSuccess);
  assert_int_equal(refused, ST_ERROR_INVALID_ARGUMENT);
  assert_true(scaled.id == 0);
  assert_true(why.find("capturing") != std::string::npos);
  EXPECT_OK(made);
  EXPECT_OK(st_copy_plan_release(plain));
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
}

}  // namespace

int main() {
  gpu_support::exit_unless_a_device();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(plans_match_st_copy_on_other_memory),
      cmocka_unit_test(executes_allocate_nothing),
      cmocka_unit_test(an_execute_is_captured_in_a_graph),
      cmocka_unit_test(unaligned_addresses_give_st_copys_bits),
      cmocka_unit_test(a_device_plan_refuses_host_addresses),
      cmocka_unit_test(a_scaled_plan_is_refused_while_capturing),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
