// stride-bench --device cuda (cuda_bench.h).
//
// Device cases (B-F permutations of float32, I conversions, J the uint8 NHWC
// image batch to float32 NCHW): a view of a device tensor copied by st_copy
// into a contiguous device tensor, queued (non_blocking) on one stream and
// timed with CUDA events around `calls` copies. The baseline is
// cudaMemcpyAsync device to device of bytes moved / 2 bytes (so it too reads
// and writes `bytes moved`) on the same stream, timed the same way in the
// same rounds. Bytes moved = numel x (source itemsize + destination
// itemsize), as in the CPU table.
//
// Link cases: pinned and pageable host memory to and from the device, and J
// across the link; the baseline is cudaMemcpyAsync of pinned memory in the
// same direction, of the bytes the case moves across (numel x the larger
// itemsize for a conversion, which stride sends in the narrower dtype).
//
// A round runs the baseline and the case once each; one untimed round
// warms up, then rounds repeat (5, or --reps); figures are medians. Every
// timed copy is checked afterwards against the CPU's copy of the same view,
// byte for byte.
#include "cuda_bench.h"

#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <random>

#if defined(STRIDE_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace bench {

#if !defined(STRIDE_HAVE_CUDA)

int run_cuda(const Options&, const std::vector<std::string>&, const std::string&, bool) {
  std::printf("stride-bench --device cuda: skipped: this build of stride has no CUDA support\n");
  return 77;
}

#else

namespace {

const st_device kGpu = {ST_DEVICE_CUDA, 0}, kPinned = {ST_DEVICE_CUDA_HOST, 0}, kCpu = {ST_DEVICE_CPU, 0};

void cuda_check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) die("%s failed: %s", what, cudaGetErrorString(err));
}

enum class Kind { Device, HostToDevice, DeviceToHost };

struct CudaCase {
  std::string name;
  Kind kind = Kind::Device;
  std::vector<int64_t> sizes;  // of the source base tensor
  std::vector<int32_t> perm;   // the view: a permutation of the base (empty: the base itself)
  st_dtype src = ST_FLOAT32, dst = ST_FLOAT32;
  st_device host = kPinned;    // the host side of a link case
};

struct Row {
  std::string name, baseline;
  int64_t bytes_moved = 0, baseline_bytes = 0;
  double ms = 0, baseline_ms = 0;
  int reps = 0;
};

int64_t numel_of(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

st_tensor make(const std::vector<int64_t>& sizes, st_dtype dtype, st_device device) {
  st_tensor t = {0};
  check(st_tensor_create(sizes.data(), static_cast<int32_t>(sizes.size()), dtype, device, &t), "st_tensor_create");
  return t;
}

st_tensor view_of(st_tensor base, const std::vector<int32_t>& perm) {
  st_tensor v = {0};
  if (perm.empty()) {
    check(st_tensor_retain(base), "st_tensor_retain");
    return base;
  }
  check(st_permute(base, perm.data(), static_cast<int32_t>(perm.size()), &v), "st_permute");
  return v;
}

std::vector<int64_t> sizes_of(st_tensor t) {
  int32_t ndim = 0;
  check(st_tensor_ndim(t, &ndim), "st_tensor_ndim");
  std::vector<int64_t> s(static_cast<size_t>(ndim));
  check(st_tensor_sizes(t, s.data(), ndim), "st_tensor_sizes");
  return s;
}

// Bytes of a contiguous tensor.
size_t nbytes_of(st_tensor t) {
  int64_t n = 0;
  st_dtype d;
  check(st_tensor_numel(t, &n), "st_tensor_numel");
  check(st_tensor_dtype(t, &d), "st_tensor_dtype");
  return static_cast<size_t>(n) * st_dtype_itemsize(d);
}

std::vector<unsigned char> bytes_of(st_tensor t) {
  st_tensor host = {0};
  check(st_to(t, [&] {
          st_dtype d;
          check(st_tensor_dtype(t, &d), "st_tensor_dtype");
          return d;
        }(), kCpu, ST_MEMORY_FORMAT_CONTIGUOUS, &host),
        "st_to");
  const size_t nbytes = nbytes_of(host);
  void* p = nullptr;
  check(st_tensor_data_ptr(host, &p), "st_tensor_data_ptr");
  std::vector<unsigned char> out(static_cast<const unsigned char*>(p), static_cast<const unsigned char*>(p) + nbytes);
  check(st_tensor_release(host), "st_tensor_release");
  return out;
}

// Random bytes that are valid values of every dtype (bool is 0 or 1).
void fill_random(st_tensor host, st_dtype dtype, std::mt19937_64& rng) {
  const size_t nbytes = nbytes_of(host);
  void* p = nullptr;
  check(st_tensor_data_ptr(host, &p), "st_tensor_data_ptr");
  auto* b = static_cast<unsigned char*>(p);
  for (size_t i = 0; i < nbytes; ++i) b[i] = static_cast<unsigned char>(rng() >> 56);
  if (dtype == ST_BOOL) {
    for (size_t i = 0; i < nbytes; ++i) b[i] &= 1;
  }
}

// Times `calls` runs of `body` on `stream` with events, in milliseconds per call.
double time_on(cudaStream_t stream, int calls, const std::function<void()>& body) {
  cudaEvent_t start, stop;
  cuda_check(cudaEventCreate(&start), "cudaEventCreate");
  cuda_check(cudaEventCreate(&stop), "cudaEventCreate");
  cuda_check(cudaEventRecord(start, stream), "cudaEventRecord");
  for (int i = 0; i < calls; ++i) body();
  cuda_check(cudaEventRecord(stop, stream), "cudaEventRecord");
  cuda_check(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float ms = 0;
  cuda_check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  cuda_check(cudaEventDestroy(start), "cudaEventDestroy");
  cuda_check(cudaEventDestroy(stop), "cudaEventDestroy");
  return static_cast<double>(ms) / calls;
}

Row run_case(const CudaCase& c, const Options& options, cudaStream_t stream) {
  std::mt19937_64 rng(12345);
  const int64_t numel = numel_of(c.sizes);
  const size_t src_item = st_dtype_itemsize(c.src), dst_item = st_dtype_itemsize(c.dst);
  const int64_t bytes_moved = numel * static_cast<int64_t>(src_item + dst_item);

  // The source: random bytes on the host, its copy where the case reads it.
  const st_tensor host_base = make(c.sizes, c.src, kCpu);
  fill_random(host_base, c.src, rng);
  const st_device src_device = c.kind == Kind::HostToDevice ? c.host : kGpu;
  const st_device dst_device = c.kind == Kind::DeviceToHost ? c.host : kGpu;
  const st_tensor base = make(c.sizes, c.src, src_device);
  check(st_copy(base, host_base, 0), "st_copy");
  const st_tensor view = view_of(base, c.perm), host_view = view_of(host_base, c.perm);
  const std::vector<int64_t> out_sizes = sizes_of(view);
  const st_tensor dst = make(out_sizes, c.dst, dst_device);
  const st_tensor want = make(out_sizes, c.dst, kCpu);
  check(st_copy(want, host_view, 0), "st_copy");

  // The baseline's buffers.
  Row row;
  row.name = c.name;
  row.bytes_moved = bytes_moved;
  void *a = nullptr, *b = nullptr;
  cudaMemcpyKind kind = cudaMemcpyDeviceToDevice;
  if (c.kind == Kind::Device) {
    row.baseline = "cudaMemcpy D2D";
    row.baseline_bytes = bytes_moved / 2;
    cuda_check(cudaMalloc(&a, static_cast<size_t>(row.baseline_bytes)), "cudaMalloc");
    cuda_check(cudaMalloc(&b, static_cast<size_t>(row.baseline_bytes)), "cudaMalloc");
  } else {
    const bool h2d = c.kind == Kind::HostToDevice;
    row.baseline = h2d ? "pinned H2D" : "pinned D2H";
    row.baseline_bytes = numel * static_cast<int64_t>(src_item > dst_item ? src_item : dst_item);
    cuda_check(cudaHostAlloc(h2d ? &a : &b, static_cast<size_t>(row.baseline_bytes), cudaHostAllocDefault),
               "cudaHostAlloc");
    cuda_check(cudaMalloc(h2d ? &b : &a, static_cast<size_t>(row.baseline_bytes)), "cudaMalloc");
    kind = h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  }
  cuda_check(cudaMemsetAsync(c.kind == Kind::DeviceToHost ? a : (c.kind == Kind::Device ? a : b), 1,
                             static_cast<size_t>(row.baseline_bytes), stream),
             "cudaMemsetAsync");
  // Pageable host memory makes st_copy synchronous: one call per round then.
  const int calls = options.quick ? 1 : (c.host.type == ST_DEVICE_CPU ? 1 : 5);
  const int rounds = options.quick ? 2 : (options.reps > 0 ? options.reps : 5);
  std::vector<double> case_ms, base_ms;
  for (int r = 0; r <= rounds; ++r) {  // round 0 warms up
    const double bm = time_on(stream, calls, [&] {
      cuda_check(cudaMemcpyAsync(b, a, static_cast<size_t>(row.baseline_bytes), kind, stream), "cudaMemcpyAsync");
    });
    const double cm = time_on(stream, calls, [&] { check(st_copy(dst, view, 1), "st_copy"); });
    if (r > 0) {
      base_ms.push_back(bm);
      case_ms.push_back(cm);
    }
  }
  check(st_cuda_synchronize(0), "st_cuda_synchronize");
  row.ms = median(case_ms);
  row.baseline_ms = median(base_ms);
  row.reps = rounds;
  if (bytes_of(dst) != bytes_of(want)) die("%s: the copy differs from the CPU's copy of the same view", c.name.c_str());
  for (st_tensor t : {host_base, base, view, host_view, dst, want}) check(st_tensor_release(t), "st_tensor_release");
  if (c.kind == Kind::HostToDevice) {
    cuda_check(cudaFreeHost(a), "cudaFreeHost");
    cuda_check(cudaFree(b), "cudaFree");
  } else if (c.kind == Kind::DeviceToHost) {
    cuda_check(cudaFree(a), "cudaFree");
    cuda_check(cudaFreeHost(b), "cudaFreeHost");
  } else {
    cuda_check(cudaFree(a), "cudaFree");
    cuda_check(cudaFree(b), "cudaFree");
  }
  return row;
}

std::vector<CudaCase> all_cases(bool quick) {
  auto q = [&](std::vector<int64_t> full, std::vector<int64_t> small) { return quick ? small : full; };
  const int64_t big = quick ? 70001 : int64_t{64} << 20;
  std::vector<CudaCase> v;
  auto permute = [&](const char* name, std::vector<int64_t> full, std::vector<int64_t> small, std::vector<int32_t> p) {
    CudaCase c;
    c.name = name;
    c.sizes = q(full, small);
    c.perm = p;
    v.push_back(c);
  };
  permute("B NCHW->NHWC", {32, 256, 56, 56}, {2, 32, 28, 28}, {0, 2, 3, 1});
  permute("C NHWC->NCHW", {32, 56, 56, 256}, {2, 28, 28, 32}, {0, 3, 1, 2});
  permute("D transpose", {8192, 8192}, {256, 200}, {1, 0});
  permute("E permute(2,1,0)", {256, 256, 256}, {40, 36, 32}, {2, 1, 0});
  permute("F permute(0,3,1,5,2,4)", {16, 16, 16, 16, 16, 16}, {6, 5, 4, 6, 5, 4}, {0, 3, 1, 5, 2, 4});
  auto convert = [&](const char* name, st_dtype from, st_dtype to) {
    CudaCase c;
    c.name = name;
    c.sizes = {big};
    c.src = from;
    c.dst = to;
    v.push_back(c);
  };
  convert("I1 f32->f16", ST_FLOAT32, ST_FLOAT16);
  convert("I2 f32->bf16", ST_FLOAT32, ST_BFLOAT16);
  convert("I3 i64->f64", ST_INT64, ST_FLOAT64);
  convert("I4 u8->f32", ST_UINT8, ST_FLOAT32);
  convert("I5 f16->f32", ST_FLOAT16, ST_FLOAT32);
  convert("I6 bool->c128", ST_BOOL, ST_COMPLEX128);
  CudaCase j;
  j.name = "J u8 NHWC->f32 NCHW";
  j.sizes = q({64, 224, 224, 3}, {2, 20, 24, 3});
  j.perm = {0, 3, 1, 2};
  j.src = ST_UINT8;
  v.push_back(j);
  auto link = [&](const char* name, Kind kind, st_device host, st_dtype from, st_dtype to, std::vector<int32_t> p,
                  std::vector<int64_t> full, std::vector<int64_t> small) {
    CudaCase c;
    c.name = name;
    c.kind = kind;
    c.host = host;
    c.src = from;
    c.dst = to;
    c.perm = p;
    c.sizes = q(full, small);
    v.push_back(c);
  };
  const std::vector<int64_t> flat_full = {int64_t{64} << 20}, flat_small = {70001};
  link("L1 H2D pinned f32", Kind::HostToDevice, kPinned, ST_FLOAT32, ST_FLOAT32, {}, flat_full, flat_small);
  link("L2 D2H pinned f32", Kind::DeviceToHost, kPinned, ST_FLOAT32, ST_FLOAT32, {}, flat_full, flat_small);
  link("L3 H2D pageable f32", Kind::HostToDevice, kCpu, ST_FLOAT32, ST_FLOAT32, {}, flat_full, flat_small);
  link("L4 D2H pageable f32", Kind::DeviceToHost, kCpu, ST_FLOAT32, ST_FLOAT32, {}, flat_full, flat_small);
  link("L5 H2D pinned u8 NHWC->f32 NCHW", Kind::HostToDevice, kPinned, ST_UINT8, ST_FLOAT32, {0, 3, 1, 2},
       {64, 224, 224, 3}, {2, 20, 24, 3});
  return v;
}

std::string fixed(double v, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

}  // namespace

int run_cuda(const Options& options, const std::vector<std::string>& filters, const std::string& csv_path, bool list) {
  const std::vector<CudaCase> cases = all_cases(options.quick);
  if (list) {
    for (const CudaCase& c : cases) std::printf("%s\n", c.name.c_str());
    return 0;
  }
  int32_t devices = 0;
  check(st_cuda_device_count(&devices), "st_cuda_device_count");
  if (devices == 0) {
    st_tensor t = {0};
    const int64_t one = 1;
    (void)st_tensor_create(&one, 1, ST_FLOAT32, kGpu, &t);  // for the reason
    std::printf("stride-bench --device cuda: skipped: no CUDA device (%s)\n", st_last_error_message());
    return 77;
  }
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
  std::printf("stride-bench --device cuda: stride %s\n", st_version_string());
  std::printf("date:    %s\n", date);
  std::printf("device:  cuda:0 %s, compute capability %d.%d, %d SMs, %.1f GiB, memory bus %d bits at %.0f MHz "
              "(%.0f GB/s peak by the data sheet formula)\n",
              prop.name, prop.major, prop.minor, prop.multiProcessorCount,
              static_cast<double>(prop.totalGlobalMem) / (1 << 30), bus_bits, mem_clock_khz / 1e3,
              2.0 * mem_clock_khz * 1e3 * bus_bits / 8 / 1e9);
  std::printf("CUDA:    driver %d, runtime %d\n", driver, runtime);
  std::printf("%s\n", options.quick ? "sizes:   --quick: tiny sizes, 2 rounds (a smoke test: the figures mean nothing)"
                                    : "sizes:   full; 5 copies per timed call batch (1 with pageable memory)");
  std::printf(
      "\nDefinitions:\n"
      "  bytes moved  numel x (source itemsize + destination itemsize)\n"
      "  device cases st_copy(dst, view, non_blocking) on one stream, timed with CUDA events; baseline\n"
      "               cudaMemcpyAsync device to device of bytes moved / 2 in the same rounds\n"
      "  link cases   host <-> device; baseline cudaMemcpyAsync of pinned memory, same direction, of\n"
      "               numel x the larger itemsize\n"
      "  x base       baseline time / case time (1.00 = as fast as the baseline); medians of the rounds\n"
      "  Every copy is checked against the CPU's copy of the same view, byte for byte.\n");
  cudaStream_t stream = nullptr;
  cuda_check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  check(st_cuda_set_stream(0, stream), "st_cuda_set_stream");
  std::vector<Row> rows;
  for (const CudaCase& c : cases) {
    bool chosen = filters.empty();
    for (const std::string& f : filters) chosen = chosen || c.name.find(f) != std::string::npos;
    if (!chosen) continue;
    std::fprintf(stderr, "[cuda] %s\n", c.name.c_str());
    rows.push_back(run_case(c, options, stream));
  }
  check(st_cuda_set_stream(0, nullptr), "st_cuda_set_stream");
  cuda_check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  if (rows.empty()) die("no CUDA case matches --filter (see --device cuda --list)");

  std::printf("\n%-34s %9s %10s %9s | %-15s %9s %9s | %6s | %4s\n", "case", "MB moved", "ms", "GB/s", "baseline",
              "MB", "GB/s", "x base", "reps");
  for (const Row& r : rows) {
    std::printf("%-34s %9s %10s %9s | %-15s %9s %9s | %6s | %4d\n", r.name.c_str(),
                fixed(r.bytes_moved / 1e6, 1).c_str(), fixed(r.ms, 4).c_str(),
                fixed(r.bytes_moved / (r.ms * 1e-3) / 1e9, 1).c_str(), r.baseline.c_str(),
                fixed(r.baseline_bytes / 1e6, 1).c_str(),
                fixed(r.baseline_bytes / (r.baseline_ms * 1e-3) / 1e9, 1).c_str(),
                fixed(r.baseline_ms / r.ms, 2).c_str(), r.reps);
  }
  if (csv_path.empty()) return 0;
  std::FILE* out = std::fopen(csv_path.c_str(), "w");
  if (!out) die("cannot write %s", csv_path.c_str());
  std::fprintf(out, "kind,case,bytes_moved,median_ms,gbps,baseline,baseline_bytes,baseline_ms,x_baseline,reps\n");
  for (const Row& r : rows) {
    std::fprintf(out, "cuda,\"%s\",%lld,%.6g,%.6g,%s,%lld,%.6g,%.6g,%d\n", r.name.c_str(),
                 static_cast<long long>(r.bytes_moved), r.ms, r.bytes_moved / (r.ms * 1e-3) / 1e9, r.baseline.c_str(),
                 static_cast<long long>(r.baseline_bytes), r.baseline_ms, r.baseline_ms / r.ms, r.reps);
  }
  if (std::fclose(out) != 0) die("cannot write %s", csv_path.c_str());
  std::printf("CSV written to %s\n", csv_path.c_str());
  return 0;
}

#endif

}  // namespace bench
