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
// when a case needs more) so that their pages are faulted in once.
class Scratch {
 public:
  void reserve(size_t nbytes) {
    if (nbytes <= capacity_) return;
    release();
    capacity_ = nbytes;
    src_ = map_huge(capacity_);
    dst_ = map_huge(capacity_);
    for (size_t i = 0; i < capacity_; ++i) src_[i] = static_cast<char>(i * 7 + 3);
    std::memset(dst_, 0, capacity_);
  }
  const char* src() const { return src_; }
  char* dst() const { return dst_; }

 private:
  void release() {
    if (capacity_ == 0) return;
    unmap_huge(src_, capacity_);
    unmap_huge(dst_, capacity_);
    capacity_ = 0;
  }
  size_t capacity_ = 0;
  char* src_ = nullptr;
  char* dst_ = nullptr;
};

Scratch& scratch() {
  static Scratch s;
  return s;
}

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

}  // namespace

void run_copy_case(Table& table, const Options& options, const CopyCase& c) {
  const st_tensor base = make_tensor(c.base_sizes, c.src_dtype);
  fill_pattern(base);
  const st_tensor view = c.view(base);
  const Layout v = layout_of(view);
  const st_tensor dst = make_tensor(v.sizes, c.dst_dtype);
  touch(dst);

  const int64_t bytes_moved =
      v.numel * static_cast<int64_t>(st_dtype_itemsize(c.src_dtype) + st_dtype_itemsize(c.dst_dtype));
  const size_t baseline_bytes = static_cast<size_t>((bytes_moved + 1) / 2);
  scratch().reserve(baseline_bytes);
  const char* bsrc = scratch().src();
  char* bdst = scratch().dst();

  for (int threads : options.thread_counts) {
    check(st_set_num_threads(threads), "st_set_num_threads");

    // The copies are checked once before they are timed.
    run_copy(c, dst, view);
    const st_tensor fresh = run_alloc_op(c, view);
    if (!c.scaled) {
      check_copy(dst, view, (c.label + " (prealloc)").c_str());
      check_copy(fresh, view, (c.label + " (alloc)").c_str());
    }
    check(st_tensor_release(fresh), "st_tensor_release");
    // A measured plan, made at this thread count and checked like st_copy.
    st_copy_plan plan;
    check(st_zero(dst), "st_zero");
    const st_scale_shift ss = scale_shift_of(c);
    check(st_copy_plan_create(dst, view, c.scaled ? &ss : nullptr, ST_PLAN_MEASURE, &plan), "st_copy_plan_create");
    if (!c.scaled) check_copy(dst, view, (c.label + " (plan)").c_str());
    void* const dst_data = layout_of(dst).data;
    const void* const src_data = layout_of(view).data;

    const Layout dst_layout = layout_of(dst), src_layout = layout_of(view);
    std::vector<double> memcpy_ms, nt_ms, prealloc_ms, alloc_ms, hugepage_ms, malloc_ms, plan_ms, read_ms, write_ms, write_nt_ms;
    uint64_t read_sum = 0;
    // st_copy and the plan run the same kernel; which of the two comes
    // right after the baselines alternates between rounds, since the first
    // copy after a streaming baseline runs measurably slower.
    int parity = 0;
    auto round = [&] {
      memcpy_ms.push_back(time_ms([&] { parallel_memcpy(bdst, bsrc, baseline_bytes, threads); }));
      nt_ms.push_back(time_ms([&] { parallel_nt_copy(bdst, bsrc, baseline_bytes, threads); }));
      auto time_prealloc = [&] { prealloc_ms.push_back(time_ms([&] { run_copy(c, dst, view); })); };
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
      alloc_ms.push_back(time_ms([&] { check(st_tensor_release(run_alloc_op(c, view)), "st_tensor_release"); }));
      hugepage_ms.push_back(time_ms([&] { hugepage_alloc_copy_free(bsrc, baseline_bytes, threads); }));
      malloc_ms.push_back(time_ms([&] { malloc_copy_free(bsrc, baseline_bytes, threads); }));
      read_ms.push_back(time_ms([&] { read_sum += read_in_memory_order(src_layout, threads); }));
      write_ms.push_back(time_ms([&] { write_in_memory_order(dst_layout, threads, false); }));
      write_nt_ms.push_back(time_ms([&] { write_in_memory_order(dst_layout, threads, true); }));
    };
    round();  // warm-up
    for (std::vector<double>* times :
         {&memcpy_ms, &nt_ms, &prealloc_ms, &alloc_ms, &hugepage_ms, &malloc_ms, &plan_ms, &read_ms, &write_ms, &write_nt_ms})
      times->clear();
    const int64_t t0 = now_ns();
    int rounds = 0;
    for (;;) {
      round();
      ++rounds;
      if (options.quick) {
        if (rounds >= kQuickRounds) break;
      } else if (options.reps > 0) {
        if (rounds >= options.reps) break;
      } else if (rounds >= kMaxRounds || (rounds >= kMinRounds && now_ns() - t0 >= kRoundBudgetNs)) {
        break;
      }
    }

    BandwidthRow row;
    row.case_name = c.label;
    row.threads = threads;
    row.reps = rounds;
    row.bytes_moved = bytes_moved;
    row.memcpy_ms = median(memcpy_ms);
    row.nt_ms = median(nt_ms);

    BandwidthRow pre = row;
    pre.mode = "prealloc";
    pre.ms = median(prealloc_ms);
    pre.hugepage_alloc_ms = NAN;
    pre.malloc_ms = NAN;
    table.add_bandwidth(pre);

    BandwidthRow planned = pre;
    planned.mode = "plan";
    planned.ms = median(plan_ms);
    table.add_bandwidth(planned);
    check(st_copy_plan_release(plan), "st_copy_plan_release");

    // Note [Each operand alone] (access_limits.h).
    BandwidthRow read = pre, write = pre;
    read.mode = "read";
    read.ms = median(read_ms);
    write.mode = "write";
    write.ms = std::min(median(write_ms), median(write_nt_ms));
    table.add_bandwidth(read);
    table.add_bandwidth(write);

    BandwidthRow alloc = row;
    alloc.mode = "alloc";
    alloc.ms = median(alloc_ms);
    alloc.hugepage_alloc_ms = median(hugepage_ms);
    alloc.malloc_ms = median(malloc_ms);
    table.add_bandwidth(alloc);

    std::fprintf(stderr,
                 "    %-40s threads %d: prealloc %.2f ms, plan %.2f ms, alloc (%s) %.2f ms, memcpy %.2f ms, "
                 "read %.2f ms, write %.2f ms (plain %.2f, streaming %.2f) (%d rounds; sum read %llu)\n",
                 c.label.c_str(), threads, pre.ms, planned.ms, c.scaled ? "st_copy_scaled" : alloc_op_name(c.alloc_op),
                 alloc.ms, row.memcpy_ms, read.ms, write.ms, median(write_ms), median(write_nt_ms), rounds,
                 static_cast<unsigned long long>(read_sum));
  }

  check(st_tensor_release(dst), "st_tensor_release");
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
