// The CUDA backend's copies and fills on a GPU, against the CPU kernels:
// the random property cases of the host tests (random layouts, flips,
// gaps, expanded and broadcast sources, channels-last, unaligned memory,
// all 401 dtype pairs that convert) within a device, between host and device (pageable
// and pinned, blocking and not) and between two devices; overlapping
// operands; fills; streams and non_blocking; the composites through the C
// API. Each result is read back whole (the bytes outside the view too) and
// compared with the CPU's bit for bit. One allowance: where a conversion
// yields a NaN, the GPU's NaN may carry another payload (IEEE 754 leaves
// it open, and hardware conversions differ); it must still be a NaN.
//
// Needs a GPU; without one it prints why and exits 77 (ctest: skipped).
#include <cuda_runtime.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "copy_cases.h"
#include "core/contiguity.h"
#include "core/empty.h"
#include "core/views.h"
#include "cuda/runtime/cuda_error.h"
#include "cuda/runtime/device_status.h"
#include "gpu_support.h"
#include "ops/copy.h"
#include "ops/empty.h"
#include "ops/fill.h"
#include "stride.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using namespace st;
using copy_cases::describe;
using copy_cases::pick;
using gpu_support::mirror;
using gpu_support::read_back;
using gpu_support::synchronize_all_devices;

namespace {

const Device kCpu = cpu_device();
const Device kGpu0{DeviceType::CUDA, 0};
const Device kPinned0{DeviceType::CUDAHost, 0};

// ---- Comparing with the CPU's result.

bool is_nan_bits(ScalarType t, const unsigned char* p) {
  switch (t) {
    case ScalarType::Float16: {
      uint16_t b;
      std::memcpy(&b, p, 2);
      return (b & 0x7FFFu) > 0x7C00u;
    }
    case ScalarType::BFloat16: {
      uint16_t b;
      std::memcpy(&b, p, 2);
      return (b & 0x7FFFu) > 0x7F80u;
    }
    case ScalarType::Float32: {
      uint32_t b;
      std::memcpy(&b, p, 4);
      return (b & 0x7FFFFFFFu) > 0x7F800000u;
    }
    case ScalarType::Float64: {
      uint64_t b;
      std::memcpy(&b, p, 8);
      return (b & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull;
    }
    case ScalarType::Float8_e4m3fn:
      return (*p & 0x7Fu) == 0x7Fu;
    case ScalarType::Float8_e5m2:
      return (*p & 0x7Fu) > 0x7Cu;
    default:
      return false;
  }
}

// One element: the same bytes, or NaN for NaN where a conversion happened.
bool same_element(ScalarType t, const unsigned char* want, const unsigned char* got, bool converted) {
  const size_t n = itemsize(t);
  if (std::memcmp(want, got, n) == 0) return true;
  if (!converted) return false;
  if (t == ScalarType::Complex64 || t == ScalarType::Complex128) {
    const ScalarType part = t == ScalarType::Complex64 ? ScalarType::Float32 : ScalarType::Float64;
    return same_element(part, want, got, true) && same_element(part, want + n / 2, got + n / 2, true);
  }
  return is_nan_bits(t, want) && is_nan_bits(t, got);
}

// `got` (dst's storage after the GPU path) against `want` (after the CPU
// path): bytes outside dst's elements equal, elements as same_element.
bool same_result(const Tensor& dst, const std::vector<unsigned char>& want, const std::vector<unsigned char>& got,
                 bool converted) {
  if (want.size() != got.size()) return false;
  if (want == got) return true;
  std::vector<bool> element_byte(want.size(), false);
  const size_t n = dst.itemsize();
  for (int64_t o : copy_cases::element_byte_offsets(dst)) {
    const size_t at = static_cast<size_t>(o);
    if (!same_element(dst.dtype(), &want[at], &got[at], converted)) return false;
    for (size_t i = 0; i < n; ++i) element_byte[at + i] = true;
  }
  for (size_t i = 0; i < want.size(); ++i) {
    if (!element_byte[i] && want[i] != got[i]) return false;
  }
  return true;
}

const char* device_text(Device d) {
  switch (d.type) {
    case DeviceType::CPU: return "cpu";
    case DeviceType::CUDA: return d.index == 0 ? "cuda:0" : "cuda:1";
    case DeviceType::CUDAHost: return "pinned";
  }
  return "?";
}

// dst ← src with the CPU kernel on host tensors, and with the CUDA backend
// on mirrors of them on dst_device and src_device; the results must agree.
bool check_copy_on(const Tensor& dst, const Tensor& src, Device dst_device, Device src_device, bool non_blocking) {
  const Tensor want = copy_cases::twin(dst);
  ops::copy_(want, src, false);
  const Tensor gdst = mirror(dst, dst_device), gsrc = mirror(src, src_device);
  ops::copy_(gdst, gsrc, non_blocking);
  const bool ok = same_result(dst, copy_cases::storage_bytes(want), read_back(gdst), dst.dtype() != src.dtype());
  if (!ok) {
    print_error("%s dst %s <- %s src %s%s: differs from the CPU copy\n", device_text(dst_device),
                describe(dst).c_str(), device_text(src_device), describe(src).c_str(),
                non_blocking ? " (non_blocking)" : "");
  }
  return ok;
}

struct RandomCase {
  Tensor dst, src;
};

RandomCase random_case(std::mt19937_64& rng) {
  const DimVector sizes = copy_cases::random_sizes(rng);
  const ScalarType dt = copy_cases::random_dtype(rng);
  const ScalarType st_ = pick(rng, 0, 2) == 0 ? dt : copy_cases::random_source_dtype(rng, dt);
  const int dst_shift = pick(rng, 0, 7) == 0 ? static_cast<int>(pick(rng, 1, 15)) : 0;
  const int src_shift = pick(rng, 0, 7) == 0 ? static_cast<int>(pick(rng, 1, 15)) : 0;
  const Tensor dst = copy_cases::random_tensor(rng, sizes, dt, false, dst_shift);
  const DimVector src_sizes = pick(rng, 0, 3) == 0 ? copy_cases::broadcast_sizes(rng, sizes) : sizes;
  return RandomCase{dst, copy_cases::random_tensor(rng, src_sizes, st_, true, src_shift)};
}

// ---- How many cases: ST_GPU_TRIM=K runs about 1/K of them and leaves out
// the 2 GiB copy (tools/gpu-check.sh --sanitize sets it: compute-sanitizer
// slows every launch by orders of magnitude).

int trim() {
  static const int k = [] {
    const char* s = std::getenv("ST_GPU_TRIM");
    const int v = s != nullptr ? std::atoi(s) : 1;
    return v > 1 ? v : 1;
  }();
  return k;
}

int cases(int n) { return n / trim() > 0 ? n / trim() : 1; }

// ---- The cases.

void copies_within_a_device_match_the_cpu(void**) {
  std::mt19937_64 rng(test_seed("copies_within_a_device_match_the_cpu"));
  for (int c = 0; c < cases(1500); ++c) {
    const RandomCase k = random_case(rng);
    if (!check_copy_on(k.dst, k.src, kGpu0, kGpu0, pick(rng, 0, 1) == 1)) fail();
  }
  // Every pair contiguous (vectorized, with heads and tails) and NCHW <-> NHWC (tiled).
  for (int d = 0; d < kNumScalarTypes; ++d) {
    for (int s = 0; s < kNumScalarTypes; ++s) {
      if ((d * kNumScalarTypes + s) % trim() != 0) continue;
      const ScalarType dt = static_cast<ScalarType>(d), st_ = static_cast<ScalarType>(s);
      if (!converts(dt, st_)) continue;  // float4_e2m1fn_x2 copies only to itself
      for (int64_t n : {1, 17, 1000, 100003}) {
        const Tensor dst = empty_cpu({n}, {1}, dt), src = empty_cpu({n}, {1}, st_);
        copy_cases::fill_random_bytes(dst, rng);
        copy_cases::fill_random_bytes(src, rng);
        if (!check_copy_on(dst, src, kGpu0, kGpu0, false)) fail();
        if (!check_copy_on(slice(dst, 0, 1, n, 1), slice(src, 0, 1, n, 1), kGpu0, kGpu0, false)) fail();
      }
      const DimVector nchw{3, 40, 17, 19};
      const Tensor a = empty_cpu(nchw, contiguous_strides(nchw), st_);
      const Tensor b = empty_cpu(nchw, channels_last_strides_2d(nchw), dt);
      copy_cases::fill_random_bytes(a, rng);
      copy_cases::fill_random_bytes(b, rng);
      if (!check_copy_on(b, a, kGpu0, kGpu0, false)) fail();
      const Tensor c = empty_cpu(nchw, contiguous_strides(nchw), dt);
      const Tensor e = empty_cpu(nchw, channels_last_strides_2d(nchw), st_);
      copy_cases::fill_random_bytes(c, rng);
      copy_cases::fill_random_bytes(e, rng);
      if (!check_copy_on(c, e, kGpu0, kGpu0, false)) fail();
    }
  }
}

void copies_between_host_and_device_match_the_cpu(void**) {
  std::mt19937_64 rng(test_seed("copies_between_host_and_device_match_the_cpu"));
  for (int c = 0; c < cases(1500); ++c) {
    const RandomCase k = random_case(rng);
    const Device host = pick(rng, 0, 1) == 0 ? kCpu : kPinned0;
    const bool non_blocking = pick(rng, 0, 1) == 1;
    const bool to_gpu = pick(rng, 0, 1) == 1;
    if (!check_copy_on(k.dst, k.src, to_gpu ? kGpu0 : host, to_gpu ? host : kGpu0, non_blocking)) fail();
  }
}

void copies_between_two_devices_match_the_cpu(void**) {
  if (cuda::device_status().count < 2) {
    print_message("skipped: this machine has one CUDA device; copies between two need two\n");
    skip();
  }
  const Device gpu1{DeviceType::CUDA, 1};
  std::mt19937_64 rng(test_seed("copies_between_two_devices_match_the_cpu"));
  for (int c = 0; c < cases(800); ++c) {
    const RandomCase k = random_case(rng);
    const bool forward = pick(rng, 0, 1) == 1;
    if (!check_copy_on(k.dst, k.src, forward ? gpu1 : kGpu0, forward ? kGpu0 : gpu1, pick(rng, 0, 1) == 1)) fail();
  }
}

// dst and src views of one device storage that overlap: as if src were read first.
void overlapping_operands_on_a_device(void**) {
  std::mt19937_64 rng(test_seed("overlapping_operands_on_a_device"));
  for (int c = 0; c < cases(300); ++c) {
    const ScalarType dt = copy_cases::random_dtype(rng);
    const Tensor base = empty_cpu({64}, {1}, dt);
    copy_cases::fill_random_bytes(base, rng);
    const int64_t n = pick(rng, 2, 30), shift = pick(rng, -8, 8);
    const Tensor dst = as_strided(base, {n}, {1}, 20);
    const Tensor src = pick(rng, 0, 1) == 0 ? as_strided(base, {n}, {1}, 20 + shift)
                                            : flip(as_strided(base, {n}, {1}, 20 + shift), 0);
    const Tensor want_base = copy_cases::twin(base);
    ops::copy_(as_strided(want_base, dst.sizes(), dst.strides(), dst.storage_offset()),
               as_strided(want_base, src.sizes(), src.strides(), src.storage_offset()), false);
    const Tensor gbase = mirror(base, kGpu0);
    ops::copy_(as_strided(gbase, dst.sizes(), dst.strides(), dst.storage_offset()),
               as_strided(gbase, src.sizes(), src.strides(), src.storage_offset()), false);
    if (copy_cases::storage_bytes(want_base) != read_back(gbase)) {
      print_error("overlapping dst %s <- src %s differs from the CPU copy\n", describe(dst).c_str(),
                  describe(src).c_str());
      fail();
    }
  }
}

void fills_match_the_cpu(void**) {
  std::mt19937_64 rng(test_seed("fills_match_the_cpu"));
  const double values[] = {0.0, -0.0, 1.0, -1.5, 3.75, 1e10, -1e300, 65504.0, 1e-8, 0.1, 255.0, 256.0, -129.0,
                           std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN()};
  for (int c = 0; c < cases(600); ++c) {
    const ScalarType dt = copy_cases::random_fill_dtype(rng);
    const int shift = pick(rng, 0, 5) == 0 ? static_cast<int>(pick(rng, 1, 15)) : 0;
    const Tensor dst = copy_cases::random_tensor(rng, copy_cases::random_sizes(rng), dt, true, shift);
    const double value = values[pick(rng, 0, sizeof values / sizeof values[0] - 1)];
    const Tensor want = copy_cases::twin(dst);
    ops::fill_(want, value);
    const Tensor got = mirror(dst, kGpu0);
    ops::fill_(got, value);
    if (copy_cases::storage_bytes(want) != read_back(got)) {
      print_error("fill of %s with %g on cuda:0 differs from the CPU fill\n", describe(dst).c_str(), value);
      fail();
    }
    // Pinned memory is host memory: the CPU kernel fills it.
    const Tensor pinned = mirror(dst, kPinned0);
    ops::fill_(pinned, value);
    if (copy_cases::storage_bytes(want) != read_back(pinned)) {
      print_error("fill of pinned %s with %g differs from the CPU fill\n", describe(dst).c_str(), value);
      fail();
    }
  }
}

// More bytes than 32-bit indexing serves: the device copy is split into
// parts, here each a batch of tiled transposes.
void large_copies_are_split(void**) {
  const int64_t rows = 65537, cols = 32769;  // 2 147 581 953 bytes of uint8 > INT32_MAX
  const size_t nbytes = static_cast<size_t>(rows * cols);
  if (trim() > 1) {
    print_message("skipped: ST_GPU_TRIM=%d (under compute-sanitizer 2 GiB of copies take too long)\n", trim());
    skip();
  }
  size_t free_bytes = 0, total = 0;
  ST_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  if (free_bytes < 2 * nbytes + (size_t{1} << 28)) {
    print_message("skipped: %zu bytes free on cuda:0, this test needs %zu\n", free_bytes, 2 * nbytes);
    skip();
  }
  auto value_at = [](size_t i) { return static_cast<unsigned char>((i * 2654435761u) >> 13); };
  const Tensor host = empty_cpu({rows, cols}, {cols, 1}, ScalarType::UInt8);
  auto* h = static_cast<unsigned char*>(host.data());
  for (size_t i = 0; i < nbytes; ++i) h[i] = value_at(i);
  const Tensor src = ops::empty({rows, cols}, ScalarType::UInt8, kGpu0);
  ops::copy_(src, host, false);
  // dst (rows, cols) is column-major: fastest along rows, src along cols.
  const Tensor dst_base = ops::empty({cols, rows}, ScalarType::UInt8, kGpu0);
  ops::copy_(transpose(dst_base, 0, 1), src, false);
  const Tensor back = empty_cpu({cols, rows}, {rows, 1}, ScalarType::UInt8);
  ops::copy_(back, dst_base, false);
  const auto* b = static_cast<const unsigned char*>(back.data());
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      if (b[c * rows + r] != value_at(static_cast<size_t>(r * cols + c))) {
        print_error("element (%lld, %lld) of the transposed copy is %u, expected %u\n", static_cast<long long>(r),
                    static_cast<long long>(c), b[c * rows + r], value_at(static_cast<size_t>(r * cols + c)));
        fail();
      }
    }
  }
}

// ---- Streams and non_blocking, through the C API.

std::atomic<int> g_gate{0};

// Holds a stream until the test opens the gate: nothing queued behind it runs.
void CUDART_CB wait_for_gate(void*) {
  while (g_gate.load() == 0) {
  }
}

st_tensor create(const std::vector<int64_t>& sizes, st_dtype dtype, st_device device) {
  st_tensor t = {0};
  assert_int_equal(st_tensor_create(sizes.data(), static_cast<int32_t>(sizes.size()), dtype, device, &t), ST_OK);
  return t;
}

template <typename T>
T* host_data(st_tensor t) {
  void* p = nullptr;
  assert_int_equal(st_tensor_data_ptr(t, &p), ST_OK);
  return static_cast<T*>(p);
}

void copies_queue_on_the_current_stream(void**) {
  const st_device gpu = {ST_DEVICE_CUDA, 0}, pinned = {ST_DEVICE_CUDA_HOST, 0}, cpu = {ST_DEVICE_CPU, 0};
  cudaStream_t stream = nullptr;
  ST_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  assert_int_equal(st_cuda_set_stream(0, stream), ST_OK);
  const std::vector<int64_t> sizes = {64, 33};
  const int64_t n = 64 * 33;
  st_tensor src = create(sizes, ST_FLOAT32, pinned);
  st_tensor dev = create(sizes, ST_FLOAT64, gpu);
  st_tensor dev2 = create(sizes, ST_FLOAT64, gpu);
  st_tensor back = create(sizes, ST_FLOAT64, pinned);
  st_tensor pageable = create(sizes, ST_FLOAT64, cpu);
  float* s = host_data<float>(src);
  for (int64_t i = 0; i < n; ++i) s[i] = static_cast<float>(i) * 0.75f - 100.0f;
  assert_int_equal(st_fill(back, -1.0), ST_OK);  // pinned: the CPU kernel, done on return
  ST_CUDA_CHECK(cudaStreamSynchronize(stream));

  g_gate = 0;
  ST_CUDA_CHECK(cudaLaunchHostFunc(stream, wait_for_gate, nullptr));
  // Queued behind the gate: these return although nothing can run yet.
  assert_int_equal(st_copy(dev, src, 1), ST_OK);      // pinned -> device, converting on the device
  assert_int_equal(st_tensor_release(src), ST_OK);    // the transfer keeps the pinned memory alive
  assert_int_equal(st_copy(dev2, dev, 1), ST_OK);     // within the device
  assert_int_equal(st_copy(back, dev2, 1), ST_OK);    // device -> pinned, one transfer
  assert_int_equal(cudaStreamQuery(stream), cudaErrorNotReady);
  (void)cudaGetLastError();  // "not ready" is no error, but may be recorded as the last one
  const double* b = host_data<double>(back);
  for (int64_t i = 0; i < n; ++i) assert_true(b[i] == -1.0);  // nothing has landed yet
  g_gate = 1;
  assert_int_equal(st_cuda_synchronize(0), ST_OK);
  for (int64_t i = 0; i < n; ++i) {
    if (b[i] != static_cast<double>(static_cast<float>(i) * 0.75f - 100.0f)) {
      print_error("element %lld is %g after the queued copies\n", static_cast<long long>(i), b[i]);
      fail();
    }
  }
  // A blocking copy has finished on return: into pageable memory, and within the device.
  assert_int_equal(st_fill(dev2, 2.5), ST_OK);
  assert_int_equal(st_copy(pageable, dev2, 0), ST_OK);
  const double* p = host_data<double>(pageable);
  for (int64_t i = 0; i < n; ++i) assert_true(p[i] == 2.5);
  assert_int_equal(st_copy(dev, dev2, 0), ST_OK);
  assert_int_equal(cudaStreamQuery(stream), cudaSuccess);
  // Pageable memory with non_blocking: still complete on return.
  assert_int_equal(st_fill(dev, 7.0), ST_OK);
  assert_int_equal(st_copy(pageable, dev, 1), ST_OK);
  for (int64_t i = 0; i < n; ++i) assert_true(p[i] == 7.0);

  for (st_tensor t : {dev, dev2, back, pageable}) assert_int_equal(st_tensor_release(t), ST_OK);
  assert_int_equal(st_cuda_set_stream(0, nullptr), ST_OK);
  ST_CUDA_CHECK(cudaStreamDestroy(stream));
}

// ---- The composites to and from a device, through the C API.

std::vector<unsigned char> contiguous_bytes(st_tensor t) {
  st_tensor c = {0};
  const st_device cpu = {ST_DEVICE_CPU, 0};
  st_dtype dtype;
  assert_int_equal(st_tensor_dtype(t, &dtype), ST_OK);
  assert_int_equal(st_to(t, dtype, cpu, ST_MEMORY_FORMAT_CONTIGUOUS, &c), ST_OK);
  int64_t numel = 0;
  assert_int_equal(st_tensor_numel(c, &numel), ST_OK);
  const unsigned char* p = host_data<unsigned char>(c);
  std::vector<unsigned char> out(p, p + numel * static_cast<int64_t>(itemsize(static_cast<ScalarType>(dtype))));
  assert_int_equal(st_tensor_release(c), ST_OK);
  return out;
}

void composites_move_tensors_to_and_from_a_device(void**) {
  std::mt19937_64 rng(test_seed("composites_move_tensors_to_and_from_a_device"));
  const st_device gpu = {ST_DEVICE_CUDA, 0}, cpu = {ST_DEVICE_CPU, 0};
  const std::vector<int64_t> sizes = {2, 24, 5, 33};
  st_tensor src = create(sizes, ST_FLOAT32, cpu);
  float* s = host_data<float>(src);
  for (int64_t i = 0; i < 2 * 24 * 5 * 33; ++i) s[i] = std::ldexp(static_cast<float>(rng() % 20001) - 10000.0f, -7);
  // to: the device, float16, channels-last; the same on the CPU as the reference.
  st_tensor g = {0}, want = {0};
  assert_int_equal(st_to(src, ST_FLOAT16, gpu, ST_MEMORY_FORMAT_CHANNELS_LAST, &g), ST_OK);
  assert_int_equal(st_to(src, ST_FLOAT16, cpu, ST_MEMORY_FORMAT_CHANNELS_LAST, &want), ST_OK);
  st_device where;
  assert_int_equal(st_tensor_device(g, &where), ST_OK);
  assert_int_equal(where.type, ST_DEVICE_CUDA);
  int32_t cl = 0;
  assert_int_equal(st_tensor_is_contiguous(g, ST_MEMORY_FORMAT_CHANNELS_LAST, &cl), ST_OK);
  assert_int_equal(cl, 1);
  assert_true(contiguous_bytes(g) == contiguous_bytes(want));
  // to with nothing to change answers the same handle.
  st_tensor same = {0};
  assert_int_equal(st_to(g, ST_FLOAT16, gpu, ST_MEMORY_FORMAT_PRESERVE, &same), ST_OK);
  assert_true(same.id == g.id);
  assert_int_equal(st_tensor_release(same), ST_OK);
  // clone keeps channels-last on the device; contiguous of a transposed device view.
  st_tensor cloned = {0}, view = {0}, cont = {0}, cpu_view = {0}, cpu_cont = {0};
  assert_int_equal(st_clone(g, ST_MEMORY_FORMAT_PRESERVE, &cloned), ST_OK);
  assert_int_equal(st_tensor_is_contiguous(cloned, ST_MEMORY_FORMAT_CHANNELS_LAST, &cl), ST_OK);
  assert_int_equal(cl, 1);
  assert_true(contiguous_bytes(cloned) == contiguous_bytes(want));
  assert_int_equal(st_transpose(g, 1, 3, &view), ST_OK);
  assert_int_equal(st_contiguous(view, ST_MEMORY_FORMAT_CONTIGUOUS, &cont), ST_OK);
  assert_int_equal(st_transpose(want, 1, 3, &cpu_view), ST_OK);
  assert_int_equal(st_contiguous(cpu_view, ST_MEMORY_FORMAT_CONTIGUOUS, &cpu_cont), ST_OK);
  assert_true(contiguous_bytes(cont) == contiguous_bytes(cpu_cont));
  for (st_tensor t : {src, g, want, cloned, view, cont, cpu_view, cpu_cont}) assert_int_equal(st_tensor_release(t), ST_OK);
}

// Pinned tensors are created through empty_strided's CPU kernel and are host memory.
void pinned_tensors_are_host_memory(void**) {
  const st_device pinned = {ST_DEVICE_CUDA_HOST, 0};
  st_tensor t = create({3, 7}, ST_INT32, pinned);
  st_device where;
  assert_int_equal(st_tensor_device(t, &where), ST_OK);
  assert_int_equal(where.type, ST_DEVICE_CUDA_HOST);
  assert_int_equal(where.index, 0);
  cudaPointerAttributes attr;
  ST_CUDA_CHECK(cudaPointerGetAttributes(&attr, host_data<int32_t>(t)));
  assert_int_equal(attr.type, cudaMemoryTypeHost);
  assert_int_equal(st_fill(t, 41.9), ST_OK);
  for (int i = 0; i < 21; ++i) assert_int_equal(host_data<int32_t>(t)[i], 41);
  assert_int_equal(st_tensor_release(t), ST_OK);
}

}  // namespace

int main() {
  gpu_support::exit_unless_a_device();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(copies_within_a_device_match_the_cpu),
      cmocka_unit_test(copies_between_host_and_device_match_the_cpu),
      cmocka_unit_test(copies_between_two_devices_match_the_cpu),
      cmocka_unit_test(overlapping_operands_on_a_device),
      cmocka_unit_test(fills_match_the_cpu),
      cmocka_unit_test(large_copies_are_split),
      cmocka_unit_test(copies_queue_on_the_current_stream),
      cmocka_unit_test(composites_move_tensors_to_and_from_a_device),
      cmocka_unit_test(pinned_tensors_are_host_memory),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
