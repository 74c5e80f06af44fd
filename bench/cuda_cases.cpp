#include "cuda_cases.h"

#include <algorithm>

#include "bench.h"
#include "block_shapes.h"
#include "labels.h"

namespace bench {
namespace {

const st_device kPinned = {ST_DEVICE_CUDA_HOST, 0}, kPageable = {ST_DEVICE_CPU, 0};

// The per-channel normalization of S1 (cases_scaled.cpp): ImageNet's mean
// and standard deviation, on values 0..255.
void add_imagenet_normalization(CudaCase& c) {
  const double mean[3] = {0.485, 0.456, 0.406}, std_[3] = {0.229, 0.224, 0.225};
  for (int i = 0; i < 3; ++i) {
    c.scale.push_back(1.0 / (255.0 * std_[i]));
    c.shift.push_back(-mean[i] / std_[i]);
  }
  c.scale_dim = 1;
  c.scaled = true;
}

class CaseList {
 public:
  explicit CaseList(bool quick) : quick_(quick) {}

  // `full` or, with --quick, `small`.
  std::vector<int64_t> sizes(std::vector<int64_t> full, std::vector<int64_t> small) const {
    return quick_ ? small : full;
  }
  int64_t flat() const { return quick_ ? 70001 : int64_t{64} << 20; }

  CudaCase& add(const std::string& name, std::vector<int64_t> base, st_dtype src = ST_FLOAT32,
                st_dtype dst = ST_FLOAT32) {
    CudaCase c;
    c.name = name;
    c.base_sizes = std::move(base);
    c.src = src;
    c.dst = dst;
    cases_.push_back(c);
    return cases_.back();
  }
  CudaCase& permute(const std::string& title, std::vector<int64_t> base, std::vector<int32_t> perm,
                    st_dtype src = ST_FLOAT32, st_dtype dst = ST_FLOAT32) {
    CudaCase& c = add(title + " " + dims_text(base), base, src, dst);
    c.perm = std::move(perm);
    return c;
  }
  CudaCase& flat_convert(const std::string& title, st_dtype src, st_dtype dst) {
    return add(title + " " + count_text(flat()), {flat()}, src, dst);
  }
  void link(const std::string& name, CudaKind kind, st_device host, st_dtype src, st_dtype dst,
            std::vector<int64_t> base, std::vector<int32_t> perm) {
    CudaCase& c = add(name, std::move(base), src, dst);
    c.kind = kind;
    c.host = host;
    c.perm = std::move(perm);
  }
  // A Q case of cases_blocks.cpp: the float operand `sizes` of `dtype`,
  // transposed when `transposed`.
  void blocks(const std::string& title, std::vector<int64_t> sizes, st_dtype dtype, bool quantize,
              st_block_format format, int32_t dim, st_scale_rule rule = ST_SCALE_FLOOR, bool transposed = false) {
    CudaCase& c = add(title + " " + dims_text(sizes) + (transposed ? ".t()" : ""), sizes, dtype, dtype);
    if (transposed) c.perm = {1, 0};
    c.blocks = CudaBlocks{quantize, format, rule, dim};
  }
  std::vector<CudaCase> take() { return std::move(cases_); }

 private:
  bool quick_;
  std::vector<CudaCase> cases_;
};

}  // namespace

std::vector<CudaCase> cuda_cases(bool quick) {
  CaseList l(quick);
  // Contiguous, same dtype: the copy that should be cudaMemcpy itself.
  l.add("A contiguous f32 " + count_text(l.flat()), {l.flat()});
  // The same with the source one float32 past a 16-byte boundary and the
  // destination on one: no access wider than 4 bytes serves both sides.
  CudaCase& a4 = l.add("A4 f32 src at +4 B " + count_text(l.flat()), {l.flat() + 1});
  a4.offset = 1;
  // 2-d transposes of each element size.
  l.permute("D1 transpose u8", l.sizes({16384, 16384}, {256, 200}), {1, 0}, ST_UINT8, ST_UINT8);
  l.permute("D2 transpose f16", l.sizes({8192, 8192}, {256, 200}), {1, 0}, ST_FLOAT16, ST_FLOAT16);
  l.permute("D transpose f32", l.sizes({8192, 8192}, {256, 200}), {1, 0});
  l.permute("D8 transpose f64", l.sizes({8192, 8192}, {256, 200}), {1, 0}, ST_FLOAT64, ST_FLOAT64);
  // Image layouts with many channels (the CPU's B and C at twice the batch).
  l.permute("B NCHW->NHWC", l.sizes({64, 256, 56, 56}, {2, 32, 28, 28}), {0, 2, 3, 1});
  l.permute("C NHWC->NCHW", l.sizes({64, 56, 56, 256}, {2, 28, 28, 32}), {0, 3, 1, 2});
  l.permute("E permute(2,1,0)", l.sizes({256, 256, 512}, {40, 36, 32}), {2, 1, 0});
  // Every dim 16: the CPU's F with 32 batches of it (its dim 0 stays put).
  l.permute("F permute(0,3,1,5,2,4)", l.sizes({32, 16, 16, 16, 16, 16}, {6, 5, 4, 6, 5, 4}), {0, 3, 1, 5, 2, 4});
  // Every other column: half of each source sector is skipped.
  const std::vector<int64_t> g = l.sizes({8192, 8192}, {256, 200});
  CudaCase& slice = l.add("G [:, ::2] of " + dims_text(g), g);
  slice.step_dim = 1;
  slice.step = 2;
  // One row read for every row written (stride 0).
  const std::vector<int64_t> h = l.sizes({8192, 8192}, {256, 200});
  CudaCase& broadcast = l.add("H broadcast " + dims_text({1, h[1]}) + "->" + dims_text(h), {1, h[1]});
  broadcast.expand = h;
  // Conversions between float32 and the 16- and 8-bit floats, and two of
  // the CPU's integer ones.
  l.flat_convert("I1 f32->f16", ST_FLOAT32, ST_FLOAT16);
  l.flat_convert("I31 f16->f32", ST_FLOAT16, ST_FLOAT32);
  l.flat_convert("I2 f32->bf16", ST_FLOAT32, ST_BFLOAT16);
  l.flat_convert("I32 bf16->f32", ST_BFLOAT16, ST_FLOAT32);
  l.flat_convert("I5 f32->e4m3", ST_FLOAT32, ST_FLOAT8_E4M3FN);
  l.flat_convert("I10 f32->e5m2", ST_FLOAT32, ST_FLOAT8_E5M2);
  l.flat_convert("I3 i64->f64", ST_INT64, ST_FLOAT64);
  l.flat_convert("I4 u8->f32", ST_UINT8, ST_FLOAT32);
  // A uint8 NHWC image batch to float32 NCHW (three channels: dims below a
  // transpose tile), plain and normalized per channel.
  const std::vector<int64_t> images = l.sizes({512, 224, 224, 3}, {2, 20, 24, 3});
  l.permute("J u8 NHWC->f32 NCHW", images, {0, 3, 1, 2}, ST_UINT8, ST_FLOAT32);
  add_imagenet_normalization(l.permute("S1 u8 NHWC->f32 NCHW norm", images, {0, 3, 1, 2}, ST_UINT8, ST_FLOAT32));
  // The block-scaled formats (the CPU's Q1-Q8); the 16-bit float cases
  // with twice the CPU's rows.
  const std::vector<int64_t> q = l.sizes({8192, 8192}, {96, 160}), q2 = l.sizes({16384, 8192}, {96, 160});
  l.blocks("Q1 f32->mxfp8 floor", q, ST_FLOAT32, true, ST_BLOCK_MXFP8_E4M3, -1);
  l.blocks("Q2 f32->mxfp4 rceil", q, ST_FLOAT32, true, ST_BLOCK_MXFP4_E2M1, -1, ST_SCALE_RCEIL);
  l.blocks("Q3 f32->nvfp4", q, ST_FLOAT32, true, ST_BLOCK_NVFP4, -1);
  l.blocks("Q4 bf16->mxfp8 dim0", q2, ST_BFLOAT16, true, ST_BLOCK_MXFP8_E4M3, 0);
  l.blocks("Q5 f32.t->mxfp4", q, ST_FLOAT32, true, ST_BLOCK_MXFP4_E2M1, -1, ST_SCALE_FLOOR, true);
  l.blocks("Q6 mxfp4->f32", q, ST_FLOAT32, false, ST_BLOCK_MXFP4_E2M1, -1);
  l.blocks("Q7 nvfp4->bf16", q2, ST_BFLOAT16, false, ST_BLOCK_NVFP4, -1);
  l.blocks("Q8 mxfp8->f16 dim0", q2, ST_FLOAT16, false, ST_BLOCK_MXFP8_E4M3, 0);
  // Host <-> device.
  const std::vector<int64_t> link_flat = {l.flat()}, link_images = l.sizes({64, 224, 224, 3}, {2, 20, 24, 3});
  l.link("L1 H2D pinned f32", CudaKind::HostToDevice, kPinned, ST_FLOAT32, ST_FLOAT32, link_flat, {});
  l.link("L2 D2H pinned f32", CudaKind::DeviceToHost, kPinned, ST_FLOAT32, ST_FLOAT32, link_flat, {});
  l.link("L3 H2D pageable f32", CudaKind::HostToDevice, kPageable, ST_FLOAT32, ST_FLOAT32, link_flat, {});
  l.link("L4 D2H pageable f32", CudaKind::DeviceToHost, kPageable, ST_FLOAT32, ST_FLOAT32, link_flat, {});
  l.link("L5 H2D pinned u8 NHWC->f32 NCHW", CudaKind::HostToDevice, kPinned, ST_UINT8, ST_FLOAT32, link_images,
         {0, 3, 1, 2});
  return l.take();
}

int64_t numel_of(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

namespace {

struct Geometry {
  std::vector<int64_t> sizes, strides;
  int64_t offset = 0;
};

// The view's geometry, made the way cuda_bench.cpp makes the view
// (st_slice, st_permute, st_slice with a step, st_expand).
Geometry geometry_of(const CudaCase& c) {
  Geometry g;
  g.sizes = c.base_sizes;
  g.strides.assign(g.sizes.size(), 1);
  for (size_t d = g.sizes.size(); d-- > 1;) g.strides[d - 1] = g.strides[d] * g.sizes[d];
  if (c.offset > 0) {
    g.offset = c.offset;
    g.sizes[0] -= c.offset;
  }
  if (!c.perm.empty()) {
    Geometry p = g;
    for (size_t d = 0; d < c.perm.size(); ++d) {
      p.sizes[d] = g.sizes[static_cast<size_t>(c.perm[d])];
      p.strides[d] = g.strides[static_cast<size_t>(c.perm[d])];
    }
    g = p;
  }
  if (c.step_dim >= 0) {
    const size_t d = static_cast<size_t>(c.step_dim);
    g.sizes[d] = (g.sizes[d] + c.step - 1) / c.step;
    g.strides[d] *= c.step;
  }
  if (!c.expand.empty()) {
    for (size_t d = 0; d < g.sizes.size(); ++d) {
      if (g.sizes[d] == 1 && c.expand[d] != 1) g.strides[d] = 0;
    }
    g.sizes = c.expand;
  }
  return g;
}

}  // namespace

namespace {

// Replaces `t` by `next` (the view made of it), releasing `t`.
void replace(st_tensor& t, st_status status, st_tensor next, const char* what) {
  check(status, what);
  check(st_tensor_release(t), "st_tensor_release");
  t = next;
}

std::vector<int64_t> sizes_of(st_tensor t) {
  int32_t ndim = 0;
  check(st_tensor_ndim(t, &ndim), "st_tensor_ndim");
  std::vector<int64_t> sizes(static_cast<size_t>(ndim));
  check(st_tensor_sizes(t, sizes.data(), ndim), "st_tensor_sizes");
  return sizes;
}

}  // namespace

st_tensor make_view(const CudaCase& c, st_tensor base) {
  st_tensor v = base, next = {0};
  check(st_tensor_retain(v), "st_tensor_retain");
  if (c.offset > 0) replace(v, st_slice(v, 0, c.offset, c.base_sizes[0], 1, &next), next, "st_slice");
  if (!c.perm.empty())
    replace(v, st_permute(v, c.perm.data(), static_cast<int32_t>(c.perm.size()), &next), next, "st_permute");
  if (c.step_dim >= 0) {
    const int64_t size = sizes_of(v)[static_cast<size_t>(c.step_dim)];
    replace(v, st_slice(v, c.step_dim, 0, size, c.step, &next), next, "st_slice");
  }
  if (!c.expand.empty())
    replace(v, st_expand(v, c.expand.data(), static_cast<int32_t>(c.expand.size()), &next), next, "st_expand");
  return v;
}

bool view_is_described(const CudaCase& c, st_tensor view) {
  const std::vector<int64_t> sizes = sizes_of(view);
  std::vector<int64_t> strides(sizes.size());
  int64_t offset = 0;
  check(st_tensor_strides(view, strides.data(), static_cast<int32_t>(strides.size())), "st_tensor_strides");
  check(st_tensor_storage_offset(view, &offset), "st_tensor_storage_offset");
  return sizes == view_sizes(c) && strides == view_strides(c) && offset == view_offset(c);
}

std::vector<int64_t> view_sizes(const CudaCase& c) { return geometry_of(c).sizes; }
std::vector<int64_t> view_strides(const CudaCase& c) { return geometry_of(c).strides; }
int64_t view_offset(const CudaCase& c) { return geometry_of(c).offset; }

int block_dim(const CudaCase& c) {
  const int ndim = static_cast<int>(view_sizes(c).size());
  return c.blocks->dim < 0 ? c.blocks->dim + ndim : c.blocks->dim;
}

std::vector<int64_t> block_values_sizes(const CudaCase& c) {
  return values_sizes(view_sizes(c), block_dim(c), c.blocks->format);
}

std::vector<int64_t> block_scales_sizes(const CudaCase& c) {
  return scales_sizes(view_sizes(c), block_dim(c), c.blocks->format);
}

namespace {

// The values' and scales' bytes of a block-scaled case.
int64_t block_code_bytes(const CudaCase& c) {
  return numel_of(block_values_sizes(c)) * static_cast<int64_t>(st_dtype_itemsize(value_dtype(c.blocks->format))) +
         numel_of(block_scales_sizes(c)) * static_cast<int64_t>(st_dtype_itemsize(scale_dtype(c.blocks->format)));
}

}  // namespace

int64_t bytes_moved(const CudaCase& c) {
  if (c.blocks) return numel_of(view_sizes(c)) * static_cast<int64_t>(st_dtype_itemsize(c.src)) + block_code_bytes(c);
  return numel_of(view_sizes(c)) * static_cast<int64_t>(st_dtype_itemsize(c.src) + st_dtype_itemsize(c.dst));
}

int64_t baseline_bytes(const CudaCase& c) {
  if (c.kind == CudaKind::Device) return (bytes_moved(c) + 1) / 2;
  return numel_of(view_sizes(c)) * static_cast<int64_t>(std::max(st_dtype_itemsize(c.src), st_dtype_itemsize(c.dst)));
}

int64_t device_bytes(const CudaCase& c) {
  if (c.blocks) {
    return numel_of(c.base_sizes) * static_cast<int64_t>(st_dtype_itemsize(c.src)) + block_code_bytes(c) +
           2 * baseline_bytes(c);
  }
  const int64_t src = numel_of(c.base_sizes) * static_cast<int64_t>(st_dtype_itemsize(c.src));
  const int64_t dst = numel_of(view_sizes(c)) * static_cast<int64_t>(st_dtype_itemsize(c.dst));
  switch (c.kind) {
    case CudaKind::Device:
      return src + dst + 2 * baseline_bytes(c);
    case CudaKind::HostToDevice:
      return dst + baseline_bytes(c);
    case CudaKind::DeviceToHost:
      return src + baseline_bytes(c);
  }
  return 0;
}

}  // namespace bench
