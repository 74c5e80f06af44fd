#include "copy_case.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "access_limits.h"
#include "baselines.h"
#include "tensor_data.h"

namespace bench {
namespace {

constexpr st_device kCpu{ST_DEVICE_CPU, 0};

// Rounds per measurement when --reps does not say: at least kMinRounds,
// then more until kRoundBudgetNs of timed rounds or kMaxRounds.
constexpr int kMinRounds = 3;
constexpr int kMaxRounds = 9;
constexpr int64_t kRoundBudgetNs = int64_t{2} * 1000 * 1000 * 1000;
constexpr int kQuickRounds = 2;

// The baselines' source and destination, kept between cases (and grown
// when a case needs more, or remapped when the destination's pages
// change) so that their pages are faulted in once. The source is on huge
// pages as the cases' sources are; the destination on the pages of the
// case's destination.
class Scratch {
 public:
  void reserve(size_t nbytes, Pages dst_pages) {
    if (nbytes > capacity_) {
      release();
      capacity_ = nbytes;
      src_ = map_pages(capacity_, Pages::Huge);
      for (size_t i = 0; i < capacity_; ++i) src_[i] = static_cast<char>(i * 7 + 3);
    }
    if (dst_ && dst_pages == dst_pages_ && dst_capacity_ == capacity_) return;
    if (dst_) unmap_pages(dst_, dst_capacity_, dst_pages_);
    dst_pages_ = dst_pages;
    dst_capacity_ = capacity_;
    dst_ = map_pages(dst_capacity_, dst_pages_);
    std::memset(dst_, 0, dst_capacity_);
  }
  const char* src() const { return src_; }
  char* dst() const { return dst_; }

 private:
  void release() {
    if (capacity_ == 0) return;
    unmap_pages(src_, capacity_, Pages::Huge);
    if (dst_) unmap_pages(dst_, dst_capacity_, dst_pages_);
    capacity_ = dst_capacity_ = 0;
    src_ = dst_ = nullptr;
  }
  size_t capacity_ = 0, dst_capacity_ = 0;
  Pages dst_pages_ = Pages::Huge;
  char* src_ = nullptr;
  char* dst_ = nullptr;
};

Scratch& scratch() {
  static Scratch s;
  return s;
}

}  // namespace

bool enough_rounds(const Options& options, int rounds, int64_t start_ns) {
  if (options.quick) return rounds >= kQuickRounds;
  if (options.reps > 0) return rounds >= options.reps;
  return rounds >= kMaxRounds || (rounds >= kMinRounds && now_ns() - start_ns >= kRoundBudgetNs);
}

BaselineBuffers baseline_buffers(size_t nbytes, Pages dst_pages) {
  scratch().reserve(nbytes, dst_pages);
  return BaselineBuffers{scratch().src(), scratch().dst()};
}

namespace {

template <typename F>
double time_ms(F&& f) {
  const int64_t t0 = now_ns();
  f();
  return static_cast<double>(now_ns() - t0) * 1e-6;
}

st_scale_shift scale_shift_of(const CopyCase& c) {
  return st_scale_shift{c.scale.data(), c.shift.data(), static_cast<int64_t>(c.scale.size()), c.dim, c.saturate};
}

// The prealloc mode's copy.
void run_copy(const CopyCase& c, st_tensor dst, st_tensor view) {
  if (c.scaled) {
    const st_scale_shift ss = scale_shift_of(c);
    check(st_copy_scaled(dst, view, &ss, 0), "st_copy_scaled");
  } else {
    check(st_copy(dst, view, 0), "st_copy");
  }
}

// The alloc mode's operator; the caller owns the result.
st_tensor run_alloc_op(const CopyCase& c, st_tensor view) {
  st_tensor out;
  if (c.scaled) {
    out = make_tensor(layout_of(view).sizes, c.dst_dtype);
    run_copy(c, out, view);
    return out;
  }
  switch (c.alloc_op) {
    case AllocOp::Clone:
      check(st_clone(view, ST_MEMORY_FORMAT_PRESERVE, &out), "st_clone");
      break;
    case AllocOp::Contiguous:
      check(st_contiguous(view, ST_MEMORY_FORMAT_CONTIGUOUS, &out), "st_contiguous");
      break;
    case AllocOp::To:
      check(st_to(view, c.dst_dtype, kCpu, ST_MEMORY_FORMAT_CONTIGUOUS, &out), "st_to");
      break;
  }
  return out;
}

const char* alloc_op_name(AllocOp op) {
  switch (op) {
    case AllocOp::Clone:
      return "st_clone";
    case AllocOp::Contiguous:
      return "st_contiguous";
    case AllocOp::To:
      return "st_to";
  }
  return "?";
}

void unmap_small_pages(void* data, void* nbytes) {
  unmap_pages(static_cast<char*>(data), *static_cast<size_t*>(nbytes), Pages::Small);
  delete static_cast<size_t*>(nbytes);
}

// What one case needs at one thread count.
struct Setup {
  st_tensor view;  // the source
  st_tensor dst;   // contiguous, on `pages`
  Pages pages;
  int threads;
  int64_t bytes_moved;
  size_t baseline_bytes;  // bytes moved / 2, rounded up
};

// The median of each measurement over the timed rounds.
struct Medians {
  double memcpy, nt, prealloc, plan, alloc, hugepage, malloc, read, write_plain, write_nt;
  int rounds;
};

// Runs the rounds of one case at one thread count. The alloc mode and its
// baselines run on huge pages only: the library allocates alloc's tensor.
Medians time_rounds(const Options& options, const CopyCase& c, const Setup& s, st_copy_plan plan) {
  const char* const bsrc = scratch().src();
  char* const bdst = scratch().dst();
  const bool alloc = s.pages == Pages::Huge;
  void* const dst_data = layout_of(s.dst).data;
  const void* const src_data = layout_of(s.view).data;
  const Layout dst_layout = layout_of(s.dst), src_layout = layout_of(s.view);
  const int threads = s.threads;
  std::vector<double> memcpy_ms, nt_ms, prealloc_ms, alloc_ms, hugepage_ms, malloc_ms, plan_ms, read_ms, write_ms,
      write_nt_ms;
  // st_copy and the plan run the same kernel; which of the two comes
  // right after the baselines alternates between rounds, since the first
  // copy after a streaming baseline runs measurably slower.
  int parity = 0;
  auto round = [&] {
    memcpy_ms.push_back(time_ms([&] { parallel_memcpy(bdst, bsrc, s.baseline_bytes, threads); }));
    nt_ms.push_back(time_ms([&] { parallel_nt_copy(bdst, bsrc, s.baseline_bytes, threads); }));
    auto time_prealloc = [&] { prealloc_ms.push_back(time_ms([&] { run_copy(c, s.dst, s.view); })); };
    auto time_plan = [&] {
      plan_ms.push_back(
          time_ms([&] { check(st_copy_plan_execute_raw(plan, dst_data, src_data, 0), "st_copy_plan_execute_raw"); }));
    };
    if (parity++ % 2 == 0) {
      time_prealloc();
      time_plan();
    } else {
      time_plan();
      time_prealloc();
    }
    if (alloc) {
      alloc_ms.push_back(time_ms([&] { check(st_tensor_release(run_alloc_op(c, s.view)), "st_tensor_release"); }));
      hugepage_ms.push_back(time_ms([&] { hugepage_alloc_copy_free(bsrc, s.baseline_bytes, threads); }));
      malloc_ms.push_back(time_ms([&] { malloc_copy_free(bsrc, s.baseline_bytes, threads); }));
    }
    read_ms.push_back(time_ms([&] { read_in_memory_order(src_layout, threads); }));
    write_ms.push_back(time_ms([&] { write_in_memory_order(dst_layout, threads, false); }));
    write_nt_ms.push_back(time_ms([&] { write_in_memory_order(dst_layout, threads, true); }));
  };
  round();  // warm-up
  for (std::vector<double>* times : {&memcpy_ms, &nt_ms, &prealloc_ms, &alloc_ms, &hugepage_ms, &malloc_ms, &plan_ms,
                                     &read_ms, &write_ms, &write_nt_ms})
    times->clear();
  const int64_t t0 = now_ns();
  int rounds = 0;
  for (;;) {
    round();
    ++rounds;
    if (enough_rounds(options, rounds, t0)) break;
  }
  return Medians{median(memcpy_ms), median(nt_ms),     median(prealloc_ms), median(plan_ms),
                 median(alloc_ms),  median(hugepage_ms), median(malloc_ms), median(read_ms),
                 median(write_ms),  median(write_nt_ms), rounds};
}

// Checks the copies, times them and adds the rows of one thread count.
void measure(Table& table, const Options& options, const CopyCase& c, const Setup& s) {
  check(st_set_num_threads(s.threads), "st_set_num_threads");
  // The copies are checked once before they are timed.
  run_copy(c, s.dst, s.view);
  if (!c.scaled) check_copy(s.dst, s.view, (c.label + " (prealloc)").c_str());
  if (s.pages == Pages::Huge) {
    const st_tensor fresh = run_alloc_op(c, s.view);
    if (!c.scaled) check_copy(fresh, s.view, (c.label + " (alloc)").c_str());
    check(st_tensor_release(fresh), "st_tensor_release");
  }
  // A measured plan, made at this thread count and checked like st_copy.
  st_copy_plan plan;
  check(st_zero(s.dst), "st_zero");
  const st_scale_shift ss = scale_shift_of(c);
  check(st_copy_plan_create(s.dst, s.view, c.scaled ? &ss : nullptr, ST_PLAN_MEASURE, &plan), "st_copy_plan_create");
  if (!c.scaled) check_copy(s.dst, s.view, (c.label + " (plan)").c_str());
  const Medians m = time_rounds(options, c, s, plan);
  check(st_copy_plan_release(plan), "st_copy_plan_release");

  BandwidthRow row;
  row.case_name = c.label;
  row.threads = s.threads;
  row.pages = s.pages;
  row.reps = m.rounds;
  row.bytes_moved = s.bytes_moved;
  row.memcpy_ms = m.memcpy;
  row.nt_ms = m.nt;
  // Note [Each operand alone] (access_limits.h).
  row.read_ms = m.read;
  row.write_ms = std::min(m.write_plain, m.write_nt);
  row.hugepage_alloc_ms = NAN;
  row.malloc_ms = NAN;
  auto add = [&](const char* mode, double ms) {
    BandwidthRow r = row;
    r.mode = mode;
    r.ms = ms;
    table.add_bandwidth(r);
  };
  add("prealloc", m.prealloc);
  add("plan", m.plan);
  add("read", row.read_ms);
  add("write", row.write_ms);
  if (s.pages == Pages::Huge) {
    row.hugepage_alloc_ms = m.hugepage;
    row.malloc_ms = m.malloc;
    add("alloc", m.alloc);
  }

  std::fprintf(stderr, "    %d thread%s, %s pages, %d rounds: prealloc %.2f ms, plan %.2f", s.threads,
               s.threads == 1 ? "" : "s", pages_name(s.pages), m.rounds, m.prealloc, m.plan);
  if (s.pages == Pages::Huge)
    std::fprintf(stderr, ", alloc %.2f (%s)", m.alloc, c.scaled ? "st_copy_scaled" : alloc_op_name(c.alloc_op));
  std::fprintf(stderr, "\n      memcpy %.2f, NT %.2f, read %.2f, write %.2f (plain %.2f, streaming %.2f)\n", m.memcpy,
               m.nt, m.read, row.write_ms, m.write_plain, m.write_nt);
}

}  // namespace

st_tensor make_destination(const std::vector<int64_t>& sizes, st_dtype dtype, Pages pages) {
  st_tensor dst;
  if (pages == Pages::Huge) {
    dst = make_tensor(sizes, dtype);
  } else {
    int64_t numel = 1;
    for (int64_t s : sizes) numel *= s;
    size_t* const nbytes = new size_t(static_cast<size_t>(numel) * st_dtype_itemsize(dtype));
    char* const block = map_pages(*nbytes, Pages::Small);
    check(st_tensor_from_data(block, sizes.data(), nullptr, static_cast<int32_t>(sizes.size()), dtype, kCpu,
                              &unmap_small_pages, nbytes, &dst),
          "st_tensor_from_data");
  }
  touch(dst);
  return dst;
}

void run_copy_case(Table& table, const Options& options, const CopyCase& c) {
  const st_tensor base = make_tensor(c.base_sizes, c.src_dtype);
  fill_pattern(base);
  const st_tensor view = c.view(base);
  const Layout v = layout_of(view);
  const int64_t bytes_moved =
      v.numel * static_cast<int64_t>(st_dtype_itemsize(c.src_dtype) + st_dtype_itemsize(c.dst_dtype));
  std::fprintf(stderr, "    %s: %lld elements, %.2f MB moved per copy\n", c.label.c_str(),
               static_cast<long long>(v.numel), static_cast<double>(bytes_moved) / 1e6);

  for (Pages pages : options.pages) {
    const size_t baseline_bytes = static_cast<size_t>((bytes_moved + 1) / 2);
    scratch().reserve(baseline_bytes, pages);
    const st_tensor dst = make_destination(v.sizes, c.dst_dtype, pages);
    for (int threads : options.thread_counts)
      measure(table, options, c, Setup{view, dst, pages, threads, bytes_moved, baseline_bytes});
    check(st_tensor_release(dst), "st_tensor_release");
  }
  check(st_tensor_release(view), "st_tensor_release");
  check(st_tensor_release(base), "st_tensor_release");
}

std::function<st_tensor(st_tensor)> same_tensor() {
  return [](st_tensor base) {
    check(st_tensor_retain(base), "st_tensor_retain");
    return base;
  };
}

std::function<st_tensor(st_tensor)> permuted(std::vector<int32_t> dims) {
  return [dims](st_tensor base) {
    st_tensor out;
    check(st_permute(base, dims.data(), static_cast<int32_t>(dims.size()), &out), "st_permute");
    return out;
  };
}

std::function<st_tensor(st_tensor)> sliced(int32_t dim, int64_t step) {
  return [dim, step](st_tensor base) {
    st_tensor out;
    check(st_slice(base, dim, 0, INT64_MAX, step, &out), "st_slice");
    return out;
  };
}

std::function<st_tensor(st_tensor)> expanded(std::vector<int64_t> sizes) {
  return [sizes](st_tensor base) {
    st_tensor out;
    check(st_expand(base, sizes.data(), static_cast<int32_t>(sizes.size()), &out), "st_expand");
    return out;
  };
}

}  // namespace bench
