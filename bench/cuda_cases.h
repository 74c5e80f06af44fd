// The cases of stride-bench --device cuda, as plain data: what each copies
// (source base tensor, the view taken of it, the dtypes, where each side
// lives) and the bytes it moves, its baseline moves and it holds on the
// device. Host code only, so that the list can be checked without a GPU
// (bench/tests/test_cuda_cases.cpp); cuda_bench.cpp runs it.
//
// Names follow the CPU bench where the CPU has the case (the letter of
// cases_*.cpp: A, B, C, D, E, F, G, H, I1, I2, I5, I10, J, S1), with the
// same view and dtypes; the sizes are those of the CPU case when that
// moves at least kMinDeviceBytes, else the CPU's shape with its first (batch)
// dim grown. Cases the CPU bench lacks take a new name: A4 (a source 4
// bytes after its destination's alignment), D1, D2 and D8 (the transpose
// of 1-, 2- and 8-byte dtypes), I31 and I32 (float16 and bfloat16 to
// float32), L1-L5 (host <-> device). The block-scaled cases Q1-Q8 call
// st_quantize_blocks and st_dequantize_blocks instead of st_copy.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "stride.h"

namespace bench {

// Every device case moves at least this much at full size: at an H200's
// ~4.8 TB/s that is ~56 us of traffic per copy, long enough for the
// memory system to reach its steady rate and for a launch's few
// microseconds not to count.
constexpr int64_t kMinDeviceBytes = int64_t{256} << 20;

// What a case may hold on the device at once (its tensors and its
// baseline's buffers), at full size.
constexpr int64_t kDeviceBudgetBytes = int64_t{2} << 30;

enum class CudaKind {
  Device,        // both tensors on the GPU; baseline cudaMemcpy device to device
  HostToDevice,  // source on the host; baseline cudaMemcpy of pinned memory, same direction
  DeviceToHost,  // destination on the host; the same
};

// A block-scaled case's call (include/stride.h, "Block-scaled formats"):
// st_quantize_blocks of the view into values and scales, or
// st_dequantize_blocks of values and scales into the view, blocks along
// view dim `dim` (negative: from the end).
struct CudaBlocks {
  bool quantize = true;
  st_block_format format = ST_BLOCK_MXFP8_E4M3;
  st_scale_rule rule = ST_SCALE_FLOOR;
  int32_t dim = -1;
};

struct CudaCase {
  std::string name;  // "<id> <what> <sizes>", as the CPU bench's labels
  CudaKind kind = CudaKind::Device;
  std::vector<int64_t> base_sizes;  // the contiguous source tensor the view is taken of
  st_dtype src = ST_FLOAT32, dst = ST_FLOAT32;
  // The view, made in this order: the elements from `offset` on (a 1-d
  // base only), permuted by `perm`, every `step`-th element along
  // `step_dim`, expanded to `expand` (size-1 dims broadcast).
  int64_t offset = 0;
  std::vector<int32_t> perm;
  int32_t step_dim = -1;
  int64_t step = 1;
  std::vector<int64_t> expand;
  // A scaled copy (st_copy_scaled) when `scaled`: scale and shift per
  // index of view dim `scale_dim` (one value each: the whole tensor).
  bool scaled = false;
  std::vector<double> scale, shift;
  int32_t scale_dim = 0;
  st_device host = {ST_DEVICE_CUDA_HOST, 0};  // the host side of a link case: pinned or pageable (cpu)
  // A block-scaled case: the view is the float operand (src == dst, its
  // dtype), the source of a quantize or the destination of a dequantize.
  std::optional<CudaBlocks> blocks;
};

// The cases in the order they run; tiny sizes when `quick`.
std::vector<CudaCase> cuda_cases(bool quick);

int64_t numel_of(const std::vector<int64_t>& sizes);

// The view's sizes and strides (in elements of the source dtype), and the
// element of the base it starts at: what st_tensor_sizes, st_tensor_strides
// and st_tensor_storage_offset answer for the view cuda_bench.cpp makes.
std::vector<int64_t> view_sizes(const CudaCase& c);
std::vector<int64_t> view_strides(const CudaCase& c);
int64_t view_offset(const CudaCase& c);

// The case's view of `base` (a tensor of base_sizes and the source dtype,
// on any device): a new reference, made with st_slice, st_permute,
// st_slice and st_expand in the order CudaCase gives. Stops the program
// when a call fails.
st_tensor make_view(const CudaCase& c, st_tensor base);

// Whether `view`'s sizes, strides and storage offset are those the case
// describes (view_sizes, view_strides, view_offset).
bool view_is_described(const CudaCase& c, st_tensor view);

// numel x (source itemsize + destination itemsize): read + written, each
// element counted once, as in the CPU bench (a broadcast row counts every
// element it is read for). A block-scaled case: the float operand's bytes
// + the values' + the scales', as the CPU's Q cases.
int64_t bytes_moved(const CudaCase& c);

// A block-scaled case's values and scales shapes, and its dim from 0.
std::vector<int64_t> block_values_sizes(const CudaCase& c);
std::vector<int64_t> block_scales_sizes(const CudaCase& c);
int block_dim(const CudaCase& c);

// Note [The GPU baseline]
// A device case is compared with cudaMemcpyAsync device to device of
// bytes_moved / 2 (rounded up): a copy that reads and writes that many
// bytes, so it moves the case's read + written bytes. Reads and writes
// share the HBM's bandwidth, so a streaming copy's time follows its total
// traffic whatever the split; memcpy of the same total is then what the
// case would take at memcpy's rate, and "x memcpy" = memcpy time / case
// time = the case's GB/s / memcpy's GB/s. (memcpy of max(read, written)
// would move more than a converting case does and flatter it.) As the
// CPU bench's best copy of bytes moved / 2.
// A link case is compared with cudaMemcpyAsync of pinned memory in the
// same direction, of the bytes that cross the link: numel x the larger
// itemsize (stride sends a conversion across in the narrower dtype).
int64_t baseline_bytes(const CudaCase& c);

// The device memory a case holds while it runs: the source base (when on
// the device), the destination (when on the device) and the baseline's
// device buffers (two for a device case, one for a link case); for a
// block-scaled case the float base, the values and the scales.
int64_t device_bytes(const CudaCase& c);

}  // namespace bench
