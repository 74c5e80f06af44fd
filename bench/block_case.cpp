#include "block_case.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "access_limits.h"
#include "baselines.h"
#include "block_shapes.h"
#include "copy_case.h"
#include "core/numeric/block_format.h"
#include "cpu/levels/block_rows.h"
#include "tensor_data.h"

namespace bench {
namespace {

st_block_spec spec_of(const BlockCase& c) { return block_spec(c.format, c.dim, c.rule); }

int64_t nbytes(const Layout& l) { return l.numel * static_cast<int64_t>(st_dtype_itemsize(l.dtype)); }

// The three operands of one case.
struct Operands {
  st_tensor fl;  // the float operand: the source of a quantize, the destination of a dequantize
  st_tensor values;
  st_tensor scales;
};

void run_call(const BlockCase& c, const Operands& o) {
  const st_block_spec spec = spec_of(c);
  if (c.quantize) {
    check(st_quantize_blocks(o.values, o.scales, o.fl, &spec), "st_quantize_blocks");
  } else {
    check(st_dequantize_blocks(o.fl, o.values, o.scales, &spec), "st_dequantize_blocks");
  }
}

// Compares 257 blocks (the first, the last and a fixed random sample) of
// what the call wrote with what the scalar level's row kernel writes for
// the same block: the rule of core/numeric/block_scaling.h, with no vector
// step, so that a wrong vector kernel cannot be timed.
void check_call(const BlockCase& c, const Operands& o, int d) {
  const Layout f = layout_of(o.fl), v = layout_of(o.values), s = layout_of(o.scales);
  if (f.numel == 0) return;
  const int64_t b = block_length(c.format), per_byte = packed(c.format) ? 2 : 1;
  const int64_t n = f.sizes[static_cast<size_t>(d)], blocks_per_line = (n + b - 1) / b;
  const int64_t blocks = f.numel / n * blocks_per_line;
  const int64_t fitem = static_cast<int64_t>(st_dtype_itemsize(f.dtype));
  const int e = st::cpu::block_element_index(static_cast<st::ScalarType>(f.dtype));
  const int fmt = static_cast<int>(c.format);
  const st::cpu::BlockRowsTable& rule = st::cpu::scalar_block_rows();
  const st::blocks::BlockParams params{static_cast<st::ScaleRule>(c.rule), 1.0};
  constexpr int64_t kSamples = 256;
  uint64_t state = 0x9e3779b97f4a7c15ull;  // the same samples every run
  for (int64_t k = 0; k <= kSamples; ++k) {
    int64_t flat = k == kSamples ? blocks - 1 : 0;
    if (k > 0 && k < kSamples) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      flat = static_cast<int64_t>((state >> 11) % static_cast<uint64_t>(blocks));
    }
    // The block's line (row-major over the dims but d) and its place in the line.
    int64_t line = flat / blocks_per_line;
    const int64_t j = flat % blocks_per_line;
    int64_t fo = j * b * f.strides[static_cast<size_t>(d)] * fitem;
    int64_t vo = j * (b / per_byte) * v.strides[static_cast<size_t>(d)], so = j * s.strides[static_cast<size_t>(d)];
    for (int x = static_cast<int>(f.sizes.size()) - 1; x >= 0; --x) {
      if (x == d) continue;
      const size_t ux = static_cast<size_t>(x);
      const int64_t i = line % f.sizes[ux];
      line /= f.sizes[ux];
      fo += i * f.strides[ux] * fitem;
      vo += i * v.strides[ux];
      so += i * s.strides[ux];
    }
    const int64_t count = std::min(b, n - j * b);
    const int64_t fstep = f.strides[static_cast<size_t>(d)] * fitem, vstep = v.strides[static_cast<size_t>(d)];
    unsigned char want_values[32], want_scale = 0;
    alignas(8) unsigned char want_floats[32 * 8];
    bool same = true;
    if (c.quantize) {
      const st::cpu::BlockRows r{{f.data + fo, 0, fstep},
                                 {reinterpret_cast<char*>(want_values), 0, 1},
                                 {reinterpret_cast<char*>(&want_scale), 0, 1},
                                 1, count, 0, 1, params};
      rule.quantize[fmt][e](r);
      same = want_scale == static_cast<unsigned char>(s.data[so]);
      for (int64_t i = 0; i < count / per_byte; ++i)
        same = same && want_values[i] == static_cast<unsigned char>(v.data[vo + i * vstep]);
    } else {
      const st::cpu::BlockRows r{{reinterpret_cast<char*>(want_floats), 0, fitem},
                                 {v.data + vo, 0, vstep},
                                 {s.data + so, 0, 1},
                                 1, count, 0, 1, params};
      rule.dequantize[fmt][e](r);
      for (int64_t i = 0; i < count; ++i)
        same = same && std::memcmp(want_floats + i * fitem, f.data + fo + i * fstep, static_cast<size_t>(fitem)) == 0;
    }
    if (!same) die("%s: block %lld differs from the scalar rule", c.label.c_str(), static_cast<long long>(flat));
  }
}

template <typename F>
double time_ms(F&& f) {
  const int64_t t0 = now_ns();
  f();
  return static_cast<double>(now_ns() - t0) * 1e-6;
}

struct Medians {
  double memcpy, nt, call, read, write_plain, write_nt;
  int rounds;
};

Medians time_rounds(const Options& options, const BlockCase& c, const Operands& o, int threads, size_t baseline_bytes,
                    Pages pages) {
  const BaselineBuffers base = baseline_buffers(baseline_bytes, pages);
  std::vector<Layout> inputs, outputs;
  (c.quantize ? inputs : outputs).push_back(layout_of(o.fl));
  (c.quantize ? outputs : inputs).push_back(layout_of(o.values));
  (c.quantize ? outputs : inputs).push_back(layout_of(o.scales));
  std::vector<double> memcpy_ms, nt_ms, call_ms, read_ms, write_ms, write_nt_ms;
  auto round = [&] {
    memcpy_ms.push_back(time_ms([&] { parallel_memcpy(base.dst, base.src, baseline_bytes, threads); }));
    nt_ms.push_back(time_ms([&] { parallel_nt_copy(base.dst, base.src, baseline_bytes, threads); }));
    call_ms.push_back(time_ms([&] { run_call(c, o); }));
    read_ms.push_back(time_ms([&] {
      for (const Layout& l : inputs) read_in_memory_order(l, threads);
    }));
    write_ms.push_back(time_ms([&] {
      for (const Layout& l : outputs) write_in_memory_order(l, threads, false);
    }));
    write_nt_ms.push_back(time_ms([&] {
      for (const Layout& l : outputs) write_in_memory_order(l, threads, true);
    }));
  };
  round();  // warm-up
  for (std::vector<double>* times : {&memcpy_ms, &nt_ms, &call_ms, &read_ms, &write_ms, &write_nt_ms}) times->clear();
  const int64_t t0 = now_ns();
  int rounds = 0;
  do {
    round();
    ++rounds;
  } while (!enough_rounds(options, rounds, t0));
  return Medians{median(memcpy_ms), median(nt_ms),    median(call_ms),   median(read_ms),
                 median(write_ms),  median(write_nt_ms), rounds};
}

}  // namespace

void run_block_case(Table& table, const Options& options, const BlockCase& c) {
  const st_tensor base = make_tensor(c.base_sizes, c.float_dtype);
  fill_pattern(base);
  const st_tensor view = c.view(base);
  const Layout fv = layout_of(view);
  const int ndim = static_cast<int>(fv.sizes.size());
  const int d = c.dim < 0 ? c.dim + ndim : c.dim;
  const std::vector<int64_t> vsizes = values_sizes(fv.sizes, d, c.format), ssizes = scales_sizes(fv.sizes, d, c.format);
  // A dequantize reads what quantizing the pattern wrote, on the library's
  // pages, into a contiguous destination of the view's shape.
  st_tensor values_in{0}, scales_in{0};
  if (!c.quantize) {
    values_in = make_tensor(vsizes, value_dtype(c.format));
    scales_in = make_tensor(ssizes, scale_dtype(c.format));
    run_call(BlockCase{c.label, {}, c.float_dtype, nullptr, true, c.format, c.dim, c.rule},
             Operands{view, values_in, scales_in});
  }
  int64_t bytes_moved = nbytes(fv);
  for (const std::vector<int64_t>* sizes : {&vsizes, &ssizes}) {
    int64_t numel = 1;
    for (int64_t x : *sizes) numel *= x;
    bytes_moved += numel;  // one byte each
  }
  std::fprintf(stderr, "    %s: %lld elements, %.2f MB moved per call\n", c.label.c_str(),
               static_cast<long long>(fv.numel), static_cast<double>(bytes_moved) / 1e6);

  for (Pages pages : options.pages) {
    const size_t baseline_bytes = static_cast<size_t>((bytes_moved + 1) / 2);
    // The outputs on `pages`, written once before anything is timed.
    Operands o{view, values_in, scales_in};
    if (c.quantize) {
      o.values = make_destination(vsizes, value_dtype(c.format), pages);
      o.scales = make_destination(ssizes, scale_dtype(c.format), pages);
    } else {
      o.fl = make_destination(fv.sizes, c.float_dtype, pages);
    }
    for (int threads : options.thread_counts) {
      check(st_set_num_threads(threads), "st_set_num_threads");
      run_call(c, o);
      check_call(c, o, d);
      const Medians m = time_rounds(options, c, o, threads, baseline_bytes, pages);
      // Note [Each operand alone] (access_limits.h); no alloc mode, so no alloc baselines.
      const BandwidthRow row{c.label, "",   threads, pages, m.rounds, bytes_moved, 0.0, m.memcpy, m.nt, m.read,
                             std::min(m.write_plain, m.write_nt), NAN, NAN};
      for (const std::pair<const char*, double>& mode :
           {std::make_pair("prealloc", m.call), std::make_pair("read", row.read_ms),
            std::make_pair("write", row.write_ms)}) {
        BandwidthRow r = row;
        r.mode = mode.first;
        r.ms = mode.second;
        table.add_bandwidth(r);
      }
      std::fprintf(stderr,
                   "    %d thread%s, %s pages, %d rounds: %s %.2f ms\n      memcpy %.2f, NT %.2f, read %.2f, "
                   "write %.2f (plain %.2f, streaming %.2f)\n",
                   threads, threads == 1 ? "" : "s", pages_name(pages), m.rounds,
                   c.quantize ? "quantize" : "dequantize", m.call, m.memcpy, m.nt, m.read, row.write_ms,
                   m.write_plain, m.write_nt);
    }
    check(st_tensor_release(c.quantize ? o.values : o.fl), "st_tensor_release");
    if (c.quantize) check(st_tensor_release(o.scales), "st_tensor_release");
  }
  if (!c.quantize) {
    check(st_tensor_release(values_in), "st_tensor_release");
    check(st_tensor_release(scales_in), "st_tensor_release");
  }
  check(st_tensor_release(view), "st_tensor_release");
  check(st_tensor_release(base), "st_tensor_release");
}

}  // namespace bench
