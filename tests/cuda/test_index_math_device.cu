// The index math on the GPU must give what the host reference gives:
// IntDivider against plain division, OffsetCalculator against the
// reference walk, and a transpose through the tile mapping.
// Needs a GPU; without one it prints why and exits 77 (ctest: skipped).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "cuda/kernels/int_divider.h"
#include "cuda/kernels/offset_calculator.h"
#include "cuda/kernels/transpose_plan.h"
#include "cuda/kernels/transpose_tile.h"
#include "cuda/runtime/cuda_error.h"
#include "cuda/runtime/device_status.h"
#include "layout_reference.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using namespace st::cuda;

namespace {

// Device memory for `count` values of T, copied from and back to the host.
template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t count) : count_(count) { ST_CUDA_CHECK(cudaMalloc(&ptr_, bytes())); }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) {
    ST_CUDA_CHECK(cudaMemcpy(ptr_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  ~DeviceBuffer() { (void)cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  T* get() const { return ptr_; }
  std::vector<T> to_host() const {
    std::vector<T> out(count_);
    ST_CUDA_CHECK(cudaMemcpy(out.data(), ptr_, bytes(), cudaMemcpyDeviceToHost));
    return out;
  }

 private:
  size_t bytes() const { return count_ * sizeof(T) + (count_ == 0); }
  T* ptr_ = nullptr;
  size_t count_;
};

unsigned blocks_for(size_t n) { return static_cast<unsigned>((n + 255) / 256); }

void check_launch() {
  ST_CUDA_CHECK(cudaGetLastError());
  ST_CUDA_CHECK(cudaDeviceSynchronize());
}

__global__ void divide(IntDivider<uint32_t> divider, const uint32_t* n, uint32_t* q, uint32_t* r, size_t count) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const DivMod<uint32_t> qr = divider.divmod(n[i]);
  q[i] = qr.div;
  r[i] = qr.mod;
}

void int_divider_matches_division(void**) {
  std::mt19937_64 rng(test_seed("int_divider_matches_division"));
  std::vector<uint32_t> divisors = {1u, 2u, 3u, 7u, 641u, 65537u, 0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFFu};
  for (int i = 0; i < 40; ++i) divisors.push_back(static_cast<uint32_t>(rng() >> (33 + rng() % 31)) | 1u);
  std::vector<uint32_t> n = {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
  while (n.size() < (1u << 16)) n.push_back(static_cast<uint32_t>(rng() >> (32 + rng() % 32)));
  DeviceBuffer<uint32_t> dn(n), dq(n.size()), dr(n.size());
  for (uint32_t d : divisors) {
    divide<<<blocks_for(n.size()), 256>>>(IntDivider<uint32_t>(d), dn.get(), dq.get(), dr.get(), n.size());
    check_launch();
    const std::vector<uint32_t> q = dq.to_host(), r = dr.to_host();
    for (size_t i = 0; i < n.size(); ++i) {
      if (q[i] != n[i] / d || r[i] != n[i] % d) {
        print_error("device: %u / %u gave (%u, %u), expected (%u, %u)\n", n[i], d, q[i], r[i], n[i] / d, n[i] % d);
        fail();
      }
    }
  }
}

__global__ void offsets_of_two(OffsetCalculator<2> calc, uint32_t numel, int32_t* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= numel) return;
  const auto o = calc.get(i);
  out[2 * i] = o[0];
  out[2 * i + 1] = o[1];
}

// Every offset of the layout and its element count fit int32 (what
// TensorIterator::can_use_32bit_indexing asks before a 32-bit launch).
bool fits_int32(const Layout& l) {
  int64_t lo = 0, hi = 0;
  for (size_t d = 0; d < l.sizes.size(); ++d) {
    const int64_t reach = (l.sizes[d] - 1) * l.strides[d];
    (reach < 0 ? lo : hi) += reach;
  }
  return l.numel() <= INT32_MAX && lo >= INT32_MIN && hi <= INT32_MAX;
}

void offsets_match_the_reference_walk(void**) {
  std::mt19937_64 rng(test_seed("offsets_match_the_reference_walk"));
  for (int c = 0; c < 200; ++c) {
    const int ndim = 1 + static_cast<int>(rng() % 6);
    Layout a = random_layout(rng, ndim, 1 << 14);
    for (int64_t& s : a.sizes) s = std::max<int64_t>(s, 1);
    a = random_strides(rng, a.sizes);
    const Layout b = random_strides(rng, a.sizes);
    if (!fits_int32(a) || !fits_int32(b)) continue;
    const uint32_t numel = static_cast<uint32_t>(a.numel());
    // OffsetCalculator: dim 0 fastest.
    const int64_t* strides[2] = {a.strides.data(), b.strides.data()};
    DeviceBuffer<int32_t> out(2 * numel);
    offsets_of_two<<<blocks_for(numel), 256>>>(OffsetCalculator<2>(ndim, a.sizes.data(), strides), numel, out.get());
    check_launch();
    const std::vector<int32_t> got = out.to_host();
    const std::vector<int64_t> want_a = reference_offsets(a, true), want_b = reference_offsets(b, true);
    for (uint32_t i = 0; i < numel; ++i) {
      if (got[2 * i] != want_a[i] || got[2 * i + 1] != want_b[i]) {
        print_error("device OffsetCalculator, %s / %s: element %u at (%d, %d), expected (%lld, %lld)\n",
                    a.str().c_str(), b.str().c_str(), i, got[2 * i], got[2 * i + 1], static_cast<long long>(want_a[i]),
                    static_cast<long long>(want_b[i]));
        fail();
      }
    }
  }
}

// A batch of rows × cols matrices, src row-major, dst column-major: the
// transpose kernel's case, in the tiles the plan gives them.
__global__ void transpose_through_tiles(const float* src, float* dst, TransposeTileShape shape, uint32_t batches,
                                        uint32_t rows, uint32_t cols) {
  __shared__ float tile[TransposeTile<4>::kSharedElements];
  const TileAt<uint32_t> at{shape, blockIdx.z, blockIdx.y, blockIdx.x, batches, rows, cols};
  const int thread = static_cast<int>(threadIdx.x);
  for (int step = 0; step < kTransposeSteps; ++step) {
    const auto e = transpose_load<4>(at, thread, step);
    if (e.inside) tile[e.shared] = src[(static_cast<size_t>(e.batch) * rows + e.row) * cols + e.col];
  }
  __syncthreads();
  for (int step = 0; step < kTransposeSteps; ++step) {
    const auto e = transpose_store<4>(at, thread, step);
    if (e.inside) dst[(static_cast<size_t>(e.batch) * cols + e.col) * rows + e.row] = tile[e.shared];
  }
}

void tiled_transpose_moves_every_element(void**) {
  const uint32_t shapes[][3] = {{1, 1, 1},  {1, 31, 33}, {1, 64, 64}, {1, 1000, 3}, {2, 3, 1000},
                                {9, 16, 16}, {1, 517, 259}, {70, 3, 5}, {3, 2, 700}};
  for (const auto& shape : shapes) {
    const uint32_t batches = shape[0], rows = shape[1], cols = shape[2];
    std::vector<float> src(static_cast<size_t>(batches) * rows * cols);
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i);
    DeviceBuffer<float> dsrc(src), ddst(src.size());
    const TransposeTileShape tile = plan_transpose_tile(rows, cols);
    const dim3 grid(tiles_along(cols, tile.log_cols), tiles_along(rows, tile.log_rows),
                    tiles_along(batches, tile.log_batches));
    transpose_through_tiles<<<grid, kTransposeThreads>>>(dsrc.get(), ddst.get(), tile, batches, rows, cols);
    check_launch();
    const std::vector<float> dst = ddst.to_host();
    for (uint32_t b = 0; b < batches; ++b) {
      for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t c = 0; c < cols; ++c) {
          const float got = dst[(static_cast<size_t>(b) * cols + c) * rows + r];
          const float want = src[(static_cast<size_t>(b) * rows + r) * cols + c];
          if (got != want) {
            print_error("%u x %ux%u transpose: (%u, %u, %u) holds %g, expected %g\n", batches, rows, cols, b, r, c,
                        got, want);
            fail();
          }
        }
      }
    }
  }
}

}  // namespace

int main() {
  const DeviceStatus& s = device_status();
  if (s.count == 0) {
    std::printf("skipped: no CUDA device (%s)\n", s.reason.c_str());
    return 77;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(int_divider_matches_division),
      cmocka_unit_test(offsets_match_the_reference_walk),
      cmocka_unit_test(tiled_transpose_moves_every_element),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
