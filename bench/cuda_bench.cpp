// stride-bench --device cuda (cuda_bench.h): runs the cases of
// cuda_cases.h on the GPU and reports them with cuda_report.h.
//
// A case: a source tensor filled on the host and copied where the case
// reads it, the view of cuda_cases.h taken of it (checked against the
// case's description), a contiguous destination, and the baseline's two
// buffers (Note [The GPU baseline] in cuda_cases.h). The copy is st_copy
// (S1: st_copy_scaled) with non_blocking set, on one stream the library is
// told to use.
//
// Timing, in one round: one untimed baseline copy, an event, `calls`
// baseline copies, an event, `calls` copies of the case, an event. The
// untimed copy keeps the device busy while the host queues the rest, and
// the baseline's copies while the host does the case's first call's work,
// so that both batches are timed as the device runs them (st_copy's host
// work is not part of the figure unless it is slower than the device's).
// One untimed round warms up, then `rounds` rounds; each figure is the
// median of the rounds, per copy.
//
// Every case's copy is then checked against the CPU's copy of the same
// view, byte for byte (the CPU and CUDA kernels share their conversions,
// scaled_convert.h included). A case that differs is named at the end and
// makes the exit status 1; the other cases still run.
//
// The block-scaled cases (Q) time st_quantize_blocks or
// st_dequantize_blocks the same way; those calls have no non_blocking
// form and wait for their kernel, so the device idles between two calls
// of a batch for the host's return and next launch, which the figure
// includes. Their outputs are checked against the CPU's call.
#include "cuda_bench.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "block_shapes.h"
#include "cells.h"
#include "cuda_cases.h"
#include "cuda_report.h"
#include "report.h"

#if defined(STRIDE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace bench {
namespace {

std::vector<CudaCase> chosen_cases(bool quick, const std::vector<std::string>& filters) {
  std::vector<CudaCase> chosen;
  for (const CudaCase& c : cuda_cases(quick)) {
    bool match = filters.empty();
    for (const std::string& f : filters) match = match || c.name.find(f) != std::string::npos;
    if (match) chosen.push_back(c);
  }
  return chosen;
}

#if !defined(STRIDE_HAVE_CUDA)

int run_on_gpu(const std::vector<CudaCase>&, const Options&, const std::string&) {
  std::printf("stride-bench --device cuda: skipped: this build of stride has no CUDA support\n");
  return 77;
}

#else

const st_device kGpu = {ST_DEVICE_CUDA, 0}, kCpu = {ST_DEVICE_CPU, 0};

void cuda_check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) die("%s failed: %s", what, cudaGetErrorString(err));
}

st_tensor make(const std::vector<int64_t>& sizes, st_dtype dtype, st_device device) {
  st_tensor t = {0};
  check(st_tensor_create(sizes.data(), static_cast<int32_t>(sizes.size()), dtype, device, &t), "st_tensor_create");
  return t;
}

size_t nbytes_of(st_tensor t) {
  int64_t n = 0;
  st_dtype d;
  check(st_tensor_numel(t, &n), "st_tensor_numel");
  check(st_tensor_dtype(t, &d), "st_tensor_dtype");
  return static_cast<size_t>(n) * st_dtype_itemsize(d);
}

unsigned char* bytes_ptr(st_tensor t) {
  void* p = nullptr;
  check(st_tensor_data_ptr(t, &p), "st_tensor_data_ptr");
  return static_cast<unsigned char*>(p);
}

// A contiguous CPU copy of `t` (a new reference).
st_tensor host_copy(st_tensor t) {
  st_dtype d;
  check(st_tensor_dtype(t, &d), "st_tensor_dtype");
  st_tensor host = {0};
  check(st_to(t, d, kCpu, ST_MEMORY_FORMAT_CONTIGUOUS, &host), "st_to");
  return host;
}

bool is_float(st_dtype d) {
  switch (d) {
    case ST_FLOAT16:
    case ST_BFLOAT16:
    case ST_FLOAT32:
    case ST_FLOAT64:
    case ST_COMPLEX64:
    case ST_COMPLEX128:
    case ST_FLOAT8_E4M3FN:
    case ST_FLOAT8_E5M2:
      return true;
    default:
      return false;
  }
}

// Pseudo-random bytes (splitmix64) over a contiguous CPU tensor, made
// valid values of its dtype: bool 0 or 1; every float (each half of a
// complex) with its exponent's top bit clear, so finite (|x| < 2): no NaN,
// whose payload a conversion need not keep.
void fill_random(st_tensor host, st_dtype dtype) {
  const size_t nbytes = nbytes_of(host);
  unsigned char* b = bytes_ptr(host);
  uint64_t state = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < nbytes; i += 8) {
    uint64_t z = (state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    std::memcpy(b + i, &z, std::min<size_t>(8, nbytes - i));
  }
  if (dtype == ST_BOOL) {
    for (size_t i = 0; i < nbytes; ++i) b[i] &= 1;
  } else if (is_float(dtype)) {
    const bool complex = dtype == ST_COMPLEX64 || dtype == ST_COMPLEX128;
    const size_t word = st_dtype_itemsize(dtype) / (complex ? 2 : 1);
    for (size_t i = word - 1; i < nbytes; i += word) b[i] &= 0xbf;  // little-endian: the top byte is the last
  }
}

// The baseline's two buffers: device memory for D2D, pinned memory on the
// host side of a link case.
class BaselineBuffers {
 public:
  BaselineBuffers(CudaKind kind, size_t nbytes, cudaStream_t stream) : kind_(kind), nbytes_(nbytes) {
    host_src_ = kind == CudaKind::HostToDevice;
    host_dst_ = kind == CudaKind::DeviceToHost;
    alloc(&src_, host_src_);
    alloc(&dst_, host_dst_);
    if (host_src_) {
      std::memset(src_, 1, nbytes_);
    } else {
      cuda_check(cudaMemsetAsync(src_, 1, nbytes_, stream), "cudaMemsetAsync");
    }
  }
  ~BaselineBuffers() {
    release(src_, host_src_);
    release(dst_, host_dst_);
  }
  BaselineBuffers(const BaselineBuffers&) = delete;
  BaselineBuffers& operator=(const BaselineBuffers&) = delete;

  void copy(cudaStream_t stream) const {
    const cudaMemcpyKind kind = kind_ == CudaKind::Device         ? cudaMemcpyDeviceToDevice
                                : kind_ == CudaKind::HostToDevice ? cudaMemcpyHostToDevice
                                                                  : cudaMemcpyDeviceToHost;
    cuda_check(cudaMemcpyAsync(dst_, src_, nbytes_, kind, stream), "cudaMemcpyAsync");
  }

 private:
  void alloc(void** p, bool host) const {
    if (host) {
      cuda_check(cudaHostAlloc(p, nbytes_, cudaHostAllocDefault), "cudaHostAlloc");
    } else {
      cuda_check(cudaMalloc(p, nbytes_), "cudaMalloc");
    }
  }
  static void release(void* p, bool host) {
    if (host) {
      cuda_check(cudaFreeHost(p), "cudaFreeHost");
    } else {
      cuda_check(cudaFree(p), "cudaFree");
    }
  }
  CudaKind kind_;
  size_t nbytes_;
  bool host_src_ = false, host_dst_ = false;
  void* src_ = nullptr;
  void* dst_ = nullptr;
};

class Event {
 public:
  Event() { cuda_check(cudaEventCreate(&e_), "cudaEventCreate"); }
  ~Event() { cuda_check(cudaEventDestroy(e_), "cudaEventDestroy"); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(cudaStream_t stream) { cuda_check(cudaEventRecord(e_, stream), "cudaEventRecord"); }
  // Milliseconds from `start` to this event.
  double since(const Event& start) const {
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, start.e_, e_), "cudaEventElapsedTime");
    return static_cast<double>(ms);
  }
  void synchronize() { cuda_check(cudaEventSynchronize(e_), "cudaEventSynchronize"); }

 private:
  cudaEvent_t e_ = nullptr;
};

// The device memory in use, by every process (cudaMemGetInfo).
int64_t device_bytes_in_use() {
  size_t free = 0, total = 0;
  cuda_check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return static_cast<int64_t>(total - free);
}

struct CaseResult {
  CudaRow row;
  bool equal = false;       // the copy equals the CPU's
  int64_t device_used = 0;  // cudaMemGetInfo's figure while the case held its memory
};

// Times `call` (the case's call, queued on `stream`) against the case's
// baseline, as the head of this file says, into result.row.
template <typename Call>
void time_case(const CudaCase& c, const Options& options, cudaStream_t stream, const Call& call, CaseResult& result) {
  CudaRow& row = result.row;
  row.name = c.name;
  row.kind = c.kind;
  row.bytes_moved = bytes_moved(c);
  row.baseline_bytes = baseline_bytes(c);
  const BaselineBuffers baseline(c.kind, static_cast<size_t>(row.baseline_bytes), stream);
  // Pageable host memory makes st_copy wait for the copy: one per batch then.
  const bool pageable = c.kind != CudaKind::Device && c.host.type == ST_DEVICE_CPU;
  const int calls = options.quick || pageable ? 1 : (c.kind == CudaKind::Device ? 10 : 5);
  const int rounds = options.quick ? 2 : (options.reps > 0 ? options.reps : 5);
  std::vector<double> case_ms, baseline_ms;
  Event start, middle, end;
  for (int r = 0; r <= rounds; ++r) {  // round 0 warms up
    baseline.copy(stream);
    start.record(stream);
    for (int i = 0; i < calls; ++i) baseline.copy(stream);
    middle.record(stream);
    for (int i = 0; i < calls; ++i) call();
    end.record(stream);
    end.synchronize();
    if (r == 0) continue;
    baseline_ms.push_back(middle.since(start) / calls);
    case_ms.push_back(end.since(middle) / calls);
  }
  row.ms = median(case_ms);
  row.baseline_ms = median(baseline_ms);
  row.reps = rounds;
  result.device_used = device_bytes_in_use();
}

// Whether `got` (any device) holds the bytes of `want` (a contiguous CPU tensor).
bool same_bytes(st_tensor got, st_tensor want) {
  const st_tensor host = host_copy(got);
  const size_t nbytes = nbytes_of(want);
  const bool equal = nbytes_of(host) == nbytes && std::memcmp(bytes_ptr(host), bytes_ptr(want), nbytes) == 0;
  check(st_tensor_release(host), "st_tensor_release");
  return equal;
}

CaseResult run_case(const CudaCase& c, const Options& options, cudaStream_t stream) {
  const st_device src_device = c.kind == CudaKind::HostToDevice ? c.host : kGpu;
  const st_device dst_device = c.kind == CudaKind::DeviceToHost ? c.host : kGpu;
  const st_tensor host_base = make(c.base_sizes, c.src, kCpu);
  fill_random(host_base, c.src);
  const st_tensor base = make(c.base_sizes, c.src, src_device);
  check(st_copy(base, host_base, 0), "st_copy");
  const st_tensor view = make_view(c, base), host_view = make_view(c, host_base);
  if (!view_is_described(c, view)) die("%s: the view made is not the one cuda_cases.cpp describes", c.name.c_str());
  const std::vector<int64_t> out_sizes = view_sizes(c);
  const st_tensor dst = make(out_sizes, c.dst, dst_device);
  const st_tensor want = make(out_sizes, c.dst, kCpu);
  const st_scale_shift ss = {c.scale.data(), c.shift.data(), static_cast<int64_t>(c.scale.size()), c.scale_dim, 0};
  auto copy = [&](st_tensor to, st_tensor from, int32_t non_blocking) {
    check(c.scaled ? st_copy_scaled(to, from, &ss, non_blocking) : st_copy(to, from, non_blocking),
          c.scaled ? "st_copy_scaled" : "st_copy");
  };
  copy(want, host_view, 0);

  CaseResult result;
  time_case(c, options, stream, [&] { copy(dst, view, 1); }, result);
  check(st_cuda_synchronize(0), "st_cuda_synchronize");
  result.equal = same_bytes(dst, want);
  for (st_tensor t : {host_base, base, view, host_view, dst, want}) check(st_tensor_release(t), "st_tensor_release");
  // The pool's blocks go back to the driver: each case's memory is its own.
  check(st_cuda_empty_cache(0), "st_cuda_empty_cache");
  return result;
}

// A block-scaled case: the CPU quantizes the host's view first, which is
// what the device's quantize must write and what its dequantize reads; the
// device's outputs are then compared with the CPU's byte for byte.
CaseResult run_block_case(const CudaCase& c, const Options& options, cudaStream_t stream) {
  const CudaBlocks& q = *c.blocks;
  const st_block_spec spec = block_spec(q.format, q.dim, q.rule);
  const std::vector<int64_t> vsizes = block_values_sizes(c), ssizes = block_scales_sizes(c);
  const st_dtype vdtype = value_dtype(q.format), sdtype = scale_dtype(q.format);
  const st_tensor host_base = make(c.base_sizes, c.src, kCpu);
  fill_random(host_base, c.src);
  const st_tensor host_view = make_view(c, host_base);
  const st_tensor host_values = make(vsizes, vdtype, kCpu), host_scales = make(ssizes, sdtype, kCpu);
  check(st_quantize_blocks(host_values, host_scales, host_view, &spec), "st_quantize_blocks");

  const st_tensor base = make(c.base_sizes, c.src, kGpu);
  const st_tensor values = make(vsizes, vdtype, kGpu), scales = make(ssizes, sdtype, kGpu);
  if (q.quantize) {
    check(st_copy(base, host_base, 0), "st_copy");
  } else {
    check(st_copy(values, host_values, 0), "st_copy");
    check(st_copy(scales, host_scales, 0), "st_copy");
  }
  const st_tensor view = make_view(c, base);
  if (!view_is_described(c, view)) die("%s: the view made is not the one cuda_cases.cpp describes", c.name.c_str());

  CaseResult result;
  const auto call = [&] {
    if (q.quantize) {
      check(st_quantize_blocks(values, scales, view, &spec), "st_quantize_blocks");
    } else {
      check(st_dequantize_blocks(view, values, scales, &spec), "st_dequantize_blocks");
    }
  };
  time_case(c, options, stream, call, result);
  check(st_cuda_synchronize(0), "st_cuda_synchronize");
  if (q.quantize) {
    result.equal = same_bytes(values, host_values) && same_bytes(scales, host_scales);
  } else {
    const st_tensor want = make(view_sizes(c), c.src, kCpu);
    check(st_dequantize_blocks(want, host_values, host_scales, &spec), "st_dequantize_blocks");
    result.equal = same_bytes(view, want);
    check(st_tensor_release(want), "st_tensor_release");
  }
  for (st_tensor t : {host_base, host_view, host_values, host_scales, base, values, scales, view})
    check(st_tensor_release(t), "st_tensor_release");
  check(st_cuda_empty_cache(0), "st_cuda_empty_cache");
  return result;
}

void print_header(const Options& options) {
  cudaDeviceProp prop;
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  int driver = 0, runtime = 0, mem_clock_khz = 0, bus_bits = 0;
  (void)cudaDriverGetVersion(&driver);
  (void)cudaRuntimeGetVersion(&runtime);
  (void)cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, 0);
  (void)cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0);
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&now));
  print_wrapped("stride-bench --device cuda: ", std::string("stride ") + st_version_string());
  print_wrapped("date:    ", date);
  print_wrapped("device:  ", std::string("cuda:0 ") + prop.name + ", compute capability " +
                                 std::to_string(prop.major) + "." + std::to_string(prop.minor) + ", " +
                                 std::to_string(prop.multiProcessorCount) + " SMs, " +
                                 fixed(static_cast<double>(prop.totalGlobalMem) / (1 << 30), 1) +
                                 " GiB, memory bus " + std::to_string(bus_bits) + " bits at " +
                                 fixed(mem_clock_khz / 1e3, 0) + " MHz (" +
                                 fixed(2.0 * mem_clock_khz * 1e3 * bus_bits / 8 / 1e9, 0) +
                                 " GB/s peak by the data sheet's formula)");
  print_wrapped("CUDA:    ", "driver " + std::to_string(driver) + ", runtime " + std::to_string(runtime));
  print_wrapped("sizes:   ", options.quick ? "--quick: tiny sizes, 1 copy per batch, 2 rounds (a smoke test: the "
                                             "figures mean nothing)"
                                           : "full (each device case moves at least 256 MiB); 10 copies per timed "
                                             "batch (link cases 5, pageable memory 1); " +
                                                 std::to_string(options.reps > 0 ? options.reps : 5) + " rounds");
  print_cuda_definitions(stdout);
  std::fflush(stdout);
}

int run_on_gpu(const std::vector<CudaCase>& cases, const Options& options, const std::string& csv_path) {
  int32_t devices = 0;
  check(st_cuda_device_count(&devices), "st_cuda_device_count");
  if (devices == 0) {
    st_tensor t = {0};
    const int64_t one = 1;
    (void)st_tensor_create(&one, 1, ST_FLOAT32, kGpu, &t);  // for the library's reason
    // One line, however long: tools/gpu-check.sh relays the first line that says "skipped".
    std::printf("stride-bench --device cuda: skipped: no CUDA device (%s)\n", st_last_error_message());
    return 77;
  }
  print_header(options);
  cudaStream_t stream = nullptr;
  cuda_check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  check(st_cuda_set_stream(0, stream), "st_cuda_set_stream");
  std::vector<CudaRow> rows;
  std::vector<std::string> differ;
  int64_t peak_used = 0, largest = 0;
  std::string largest_case;
  for (const CudaCase& c : cases) {
    std::fprintf(stderr, "[cuda] %s\n", c.name.c_str());
    const CaseResult result = c.blocks ? run_block_case(c, options, stream) : run_case(c, options, stream);
    rows.push_back(result.row);
    if (!result.equal) differ.push_back(case_id(c.name));
    peak_used = std::max(peak_used, result.device_used);
    if (device_bytes(c) > largest) {
      largest = device_bytes(c);
      largest_case = case_id(c.name);
    }
  }
  check(st_cuda_set_stream(0, nullptr), "st_cuda_set_stream");
  cuda_check(cudaStreamDestroy(stream), "cudaStreamDestroy");

  print_cuda_table(rows, stdout);
  print_cuda_below_goal(rows, stdout);
  if (differ.empty()) differ.push_back("none");
  print_items("Copies that differ from the CPU's: ", differ, ", ");
  print_wrapped("peak device memory: ", fixed(static_cast<double>(peak_used) / (1 << 30), 2) +
                                            " GiB in use on the device during the cases (cudaMemGetInfo); the "
                                            "largest case, " + largest_case + ", holds " +
                                            fixed(static_cast<double>(largest) / (1 << 30), 2) + " GiB");
  if (!csv_path.empty()) {
    write_cuda_csv(csv_path, rows);
    std::printf("CSV written to %s\n", csv_path.c_str());
  }
  return differ.front() == "none" ? 0 : 1;
}

#endif

}  // namespace

int run_cuda(const Options& options, const std::vector<std::string>& filters, const std::string& csv_path, bool list) {
  const std::vector<CudaCase> cases = chosen_cases(options.quick, filters);
  if (list) {
    print_cuda_case_list(cases, stdout);
    return 0;
  }
  if (cases.empty()) die("no CUDA case matches --filter (see --device cuda --list)");
  return run_on_gpu(cases, options, csv_path);
}

}  // namespace bench
