// parallel_for on OpenMP threads and on a host job system installed with
// st_set_parallel_for: chunks cover the range exactly once, small work and
// nested work stay serial, exceptions come back after every chunk ran, and
// a TensorIterator copy gives the same bytes either way.
// ctest-labels: concurrency
#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "core/runtime/parallel.h"
#include "core/runtime/thread_count.h"
#include "iter_testing.h"

using namespace testing;
using st::parallel_for;

namespace {

struct Chunk {
  int64_t begin;
  int64_t end;
  std::thread::id thread;
  bool in_region;
};

// Records the chunks f receives.
struct Recorder {
  std::mutex mutex;
  std::vector<Chunk> chunks;
  void operator()(int64_t b, int64_t e) {
    std::lock_guard<std::mutex> lock(mutex);
    chunks.push_back({b, e, std::this_thread::get_id(), st::in_parallel_region()});
  }
};

std::vector<std::pair<int64_t, int64_t>> sorted_ranges(const std::vector<Chunk>& chunks) {
  std::vector<std::pair<int64_t, int64_t>> r;
  for (const Chunk& c : chunks) r.push_back({c.begin, c.end});
  std::sort(r.begin(), r.end());
  return r;
}

// Chunks sorted by begin must tile [begin, end) with no gap and no overlap.
void expect_exact_cover(const std::vector<Chunk>& chunks, int64_t begin, int64_t end) {
  int64_t at = begin;
  for (const auto& r : sorted_ranges(chunks)) {
    if (r.first != at || r.second <= r.first) {
      print_error("chunk [%lld, %lld) where [%lld, …) was expected\n", static_cast<long long>(r.first),
                  static_cast<long long>(r.second), static_cast<long long>(at));
      fail();
    }
    at = r.second;
  }
  assert_int_equal(at, end);
}

// A host job system: splits [0, n) into chunks of grain items (or 1-3 ×
// grain when uneven), runs them on its own threads, records each.
struct JobSystem {
  int threads = 3;
  bool uneven = false;
  int run_only = -1;       // >= 0: run only this many chunks (a broken job system)
  bool bad_range = false;  // pass [0, n + 1) (a broken job system)
  bool twice = false;      // run the first chunk again instead of the last (a broken job system)
  std::vector<std::pair<int64_t, int64_t>> fixed;  // run exactly these chunks (a broken job system)
  std::atomic<int> calls{0};
  std::mutex mutex;
  std::vector<Chunk> chunks;
  std::vector<int64_t> grains;
};

void job_system_run(void* ctx, int64_t n, int64_t grain, st_parallel_task task, void* task_ctx) {
  auto* js = static_cast<JobSystem*>(ctx);
  js->calls.fetch_add(1);
  std::vector<std::pair<int64_t, int64_t>> plan;
  for (int64_t b = 0, k = 0; b < n; ++k) {
    const int64_t len = js->uneven ? grain * (1 + k % 3) : grain;
    plan.push_back({b, std::min(n, b + len)});
    b = plan.back().second;
  }
  if (js->run_only >= 0) plan.resize(std::min<size_t>(plan.size(), static_cast<size_t>(js->run_only)));
  if (js->bad_range) plan = {{0, n + 1}};
  if (js->twice) plan.back() = plan.front();
  if (!js->fixed.empty()) plan = js->fixed;
  {
    std::lock_guard<std::mutex> lock(js->mutex);
    js->grains.push_back(grain);
  }
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < js->threads; ++t) {
    workers.emplace_back([&] {
      for (size_t i; (i = next.fetch_add(1)) < plan.size();) {
        {
          std::lock_guard<std::mutex> lock(js->mutex);
          js->chunks.push_back({plan[i].first, plan[i].second, std::this_thread::get_id(), false});
        }
        task(task_ctx, plan[i].first, plan[i].second);
      }
    });
  }
  for (std::thread& w : workers) w.join();
}

int teardown(void**) {
  st_set_parallel_for(nullptr, nullptr);
  st::set_num_threads(2);
  return 0;
}

}  // namespace

static void openmp_chunks_cover_the_range_once(void**) {
  st::set_num_threads(2);
  Recorder rec;
  parallel_for(7, 100007, 1000, rec);
  expect_exact_cover(rec.chunks, 7, 100007);
#if defined(STRIDE_HAVE_OPENMP)
  assert_true(rec.chunks.size() <= 2);
  for (const Chunk& c : rec.chunks) assert_true(c.in_region);
#else
  assert_int_equal(rec.chunks.size(), 1);
#endif
  assert_false(st::in_parallel_region());
}

static void small_or_single_threaded_work_is_serial(void**) {
  st::set_num_threads(2);
  Recorder rec;
  parallel_for(3, 3, 1, rec);  // empty
  assert_int_equal(rec.chunks.size(), 0);
  parallel_for(0, 1000, 1000, rec);  // not above the grain
  assert_int_equal(rec.chunks.size(), 1);
  assert_true(rec.chunks[0].begin == 0 && rec.chunks[0].end == 1000);
  assert_true(rec.chunks[0].thread == std::this_thread::get_id());
  assert_false(rec.chunks[0].in_region);
  st::set_num_threads(1);
  rec.chunks.clear();
  parallel_for(0, 100000, 1, rec);
  assert_int_equal(rec.chunks.size(), 1);
  assert_true(rec.chunks[0].thread == std::this_thread::get_id());
}

static void nested_parallel_for_is_serial(void**) {
  st::set_num_threads(2);
  std::atomic<int> inner_calls{0}, outer_calls{0};
  std::atomic<bool> inner_split{false};
  parallel_for(0, 100, 1, [&](int64_t, int64_t) {
    outer_calls.fetch_add(1);
    const std::thread::id me = std::this_thread::get_id();
    parallel_for(0, 100000, 1, [&](int64_t b, int64_t e) {
      inner_calls.fetch_add(1);
      if (b != 0 || e != 100000 || std::this_thread::get_id() != me) inner_split = true;
    });
  });
  assert_false(inner_split.load());
  assert_int_equal(inner_calls.load(), outer_calls.load());
}

static void first_exception_is_rethrown_after_every_chunk(void**) {
  st::set_num_threads(2);
  Recorder rec;
  std::string msg;
  assert_int_equal(status_of(
                       [&] {
                         parallel_for(0, 10000, 100, [&](int64_t b, int64_t e) {
                           rec(b, e);
                           if (b == 0) throw st::Error(ST_ERROR_OUT_OF_BOUNDS, "chunk at 0");
                         });
                       },
                       &msg),
                   ST_ERROR_OUT_OF_BOUNDS);
  expect_contains(msg, "chunk at 0");
  expect_exact_cover(rec.chunks, 0, 10000);
  bool caught = false;
  try {
    parallel_for(0, 10000, 100, [&](int64_t, int64_t) { throw std::runtime_error("plain"); });
  } catch (const std::runtime_error& e) {
    caught = std::string(e.what()) == "plain";
  }
  assert_true(caught);
}

static void host_job_system_runs_every_chunk(void**) {
  st::set_num_threads(2);
  for (int uneven = 0; uneven < 2; ++uneven) {
    JobSystem js;
    js.uneven = uneven != 0;
    assert_int_equal(st_set_parallel_for(job_system_run, &js), ST_OK);
    Recorder rec;
    parallel_for(5, 5 + 1050, 100, rec);
    assert_int_equal(js.calls.load(), 1);
    assert_int_equal(js.grains.size(), 1);
    assert_int_equal(js.grains[0], 100);
    // The job system saw [0, n); f saw the same chunks shifted to [5, 5 + n).
    expect_exact_cover(js.chunks, 0, 1050);
    expect_exact_cover(rec.chunks, 5, 5 + 1050);
    for (const Chunk& c : js.chunks) {
      assert_true(c.end - c.begin >= 100 || c.end == 1050);
      assert_true(c.thread != std::this_thread::get_id());
    }
    for (const Chunk& c : rec.chunks) assert_true(c.in_region);
    assert_int_equal(rec.chunks.size(), js.chunks.size());
    assert_int_equal(st_set_parallel_for(nullptr, nullptr), ST_OK);
  }
}

static void host_job_system_is_skipped_for_small_or_nested_work(void**) {
  st::set_num_threads(2);
  JobSystem js;
  assert_int_equal(st_set_parallel_for(job_system_run, &js), ST_OK);
  Recorder rec;
  parallel_for(0, 100, 100, rec);
  assert_int_equal(js.calls.load(), 0);
  st::set_num_threads(1);
  parallel_for(0, 100000, 100, rec);
  assert_int_equal(js.calls.load(), 0);
  st::set_num_threads(2);
  std::atomic<int> nested_splits{0};
  parallel_for(0, 1000, 100, [&](int64_t, int64_t) {
    parallel_for(0, 100000, 1, [&](int64_t b, int64_t e) {
      if (b != 0 || e != 100000) nested_splits.fetch_add(1);
    });
  });
  assert_int_equal(js.calls.load(), 1);
  assert_int_equal(nested_splits.load(), 0);
}

static void host_exceptions_stay_inside_each_chunk(void**) {
  st::set_num_threads(2);
  JobSystem js;
  assert_int_equal(st_set_parallel_for(job_system_run, &js), ST_OK);
  Recorder rec;
  std::string msg;
  // Were an exception to leave a task, the job system's std::thread would terminate the process.
  assert_int_equal(status_of(
                       [&] {
                         parallel_for(0, 1000, 100, [&](int64_t b, int64_t e) {
                           rec(b, e);
                           if (b == 300) throw st::Error(ST_ERROR_DEVICE_FAILURE, "chunk at 300");
                         });
                       },
                       &msg),
                   ST_ERROR_DEVICE_FAILURE);
  expect_contains(msg, "chunk at 300");
  expect_exact_cover(rec.chunks, 0, 1000);
}

static void broken_job_systems_are_reported(void**) {
  st::set_num_threads(2);
  JobSystem skips;
  skips.run_only = 2;
  assert_int_equal(st_set_parallel_for(job_system_run, &skips), ST_OK);
  std::string msg;
  assert_int_equal(status_of([&] { parallel_for(0, 1050, 100, [](int64_t, int64_t) {}); }, &msg), ST_ERROR_INTERNAL);
  expect_contains(msg, "ran 200 of 1050 elements");
  JobSystem strays;
  strays.bad_range = true;
  assert_int_equal(st_set_parallel_for(job_system_run, &strays), ST_OK);
  std::atomic<int> ran{0};
  assert_int_equal(status_of([&] { parallel_for(0, 1050, 100, [&](int64_t, int64_t) { ran.fetch_add(1); }); }, &msg),
                   ST_ERROR_INTERNAL);
  expect_contains(msg, "outside [0, n)");
  assert_int_equal(ran.load(), 0);
}

// Chunks that add up to n but do not cover [0, n) exactly once: a chunk
// run twice in place of another, or two that overlap. Only the sum of the
// lengths used to be checked. A chunk that overlaps one already claimed
// never runs.
static void job_systems_that_repeat_or_overlap_chunks_are_reported(void**) {
  st::set_num_threads(2);
  std::string msg;
  for (int c = 0; c < 3; ++c) {
    JobSystem broken;
    broken.threads = 1;  // the order of the chunks is the plan's
    if (c == 0) broken.twice = true;                           // [0, 100) twice, [900, 1000) never
    if (c == 1) broken.fixed = {{0, 600}, {500, 900}};          // 1000 in all, overlapping
    if (c == 2) broken.fixed = {{400, 1000}, {0, 500}};         // the same, the other way round
    assert_int_equal(st_set_parallel_for(job_system_run, &broken), ST_OK);
    std::vector<std::atomic<int>> runs(1000);
    assert_int_equal(status_of([&] {
                       parallel_for(0, 1000, 100, [&](int64_t b, int64_t e) {
                         for (int64_t i = b; i < e; ++i) runs[static_cast<size_t>(i)]++;
                       });
                     },
                                &msg),
                     ST_ERROR_INTERNAL);
    expect_contains(msg, "overlapping");
    for (const std::atomic<int>& r : runs) assert_true(r.load() <= 1);
  }
  // The same chunks in any order are fine.
  JobSystem shuffled;
  shuffled.threads = 1;
  shuffled.fixed = {{700, 1000}, {0, 300}, {300, 700}};
  assert_int_equal(st_set_parallel_for(job_system_run, &shuffled), ST_OK);
  Recorder rec;
  parallel_for(0, 1000, 100, rec);
  expect_exact_cover(rec.chunks, 0, 1000);
}

static void null_restores_openmp(void**) {
  st::set_num_threads(2);
  JobSystem js;
  assert_int_equal(st_set_parallel_for(job_system_run, &js), ST_OK);
  Recorder rec;
  parallel_for(0, 100000, 100, rec);
  assert_int_equal(js.calls.load(), 1);
  assert_int_equal(st_set_parallel_for(nullptr, nullptr), ST_OK);
  rec.chunks.clear();
  parallel_for(0, 100000, 1000, rec);
  assert_int_equal(js.calls.load(), 1);
  expect_exact_cover(rec.chunks, 0, 100000);
  assert_int_equal(st_set_parallel_for(nullptr, &js), ST_ERROR_INVALID_ARGUMENT);
}

static void host_and_openmp_copies_are_identical(void**) {
  st::set_num_threads(2);
  std::mt19937_64 rng(7);
  Tensor base = contiguous_tensor({8, 40, 64}, ScalarType::Float32);
  fill_random_bytes(base, rng);
  Tensor in = st::flip(st::permute(base, {2, 0, 1}), 1);  // (64, 8, 40)
  Tensor out = contiguous_tensor({64, 8, 40}, ScalarType::Float32);
  const std::vector<unsigned char> expected = expected_after_copy(out, in, snapshot(out));
  const st::TensorIterator it = st::TensorIterator::copy(out, in);
  it.for_each(ByteCopyLoop{4}, 1000);
  assert_true(snapshot(out) == expected);

  Tensor out2 = contiguous_tensor({64, 8, 40}, ScalarType::Float32);
  JobSystem js;
  js.uneven = true;
  assert_int_equal(st_set_parallel_for(job_system_run, &js), ST_OK);
  const st::TensorIterator it2 = st::TensorIterator::copy(out2, in);
  it2.for_each(ByteCopyLoop{4}, 1000);
  assert_int_equal(js.calls.load(), 1);
  assert_true(js.chunks.size() > 1);
  expect_exact_cover(js.chunks, 0, out.numel());
  assert_true(snapshot(out2) == expected);
}

static void hook_swaps_race_with_running_work(void**) {
  st::set_num_threads(2);
  JobSystem a, b;
  b.uneven = true;
  std::atomic<bool> stop{false}, wrong{false};
  std::thread swapper([&] {
    for (int i = 0; !stop.load(); ++i) {
      st_set_parallel_for(i % 3 == 0 ? job_system_run : nullptr, i % 3 == 0 ? (i % 2 ? &a : &b) : nullptr);
      std::this_thread::yield();
    }
  });
  std::vector<std::atomic<int>> hits(5000);
  for (int round = 0; round < 100; ++round) {
    for (auto& h : hits) h.store(0);
    parallel_for(0, 5000, 100, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) hits[i].fetch_add(1);
    });
    for (auto& h : hits) wrong = wrong || h.load() != 1;
  }
  stop = true;
  swapper.join();
  assert_false(wrong.load());
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(openmp_chunks_cover_the_range_once, teardown),
      cmocka_unit_test_teardown(small_or_single_threaded_work_is_serial, teardown),
      cmocka_unit_test_teardown(nested_parallel_for_is_serial, teardown),
      cmocka_unit_test_teardown(first_exception_is_rethrown_after_every_chunk, teardown),
      cmocka_unit_test_teardown(host_job_system_runs_every_chunk, teardown),
      cmocka_unit_test_teardown(host_job_system_is_skipped_for_small_or_nested_work, teardown),
      cmocka_unit_test_teardown(host_exceptions_stay_inside_each_chunk, teardown),
      cmocka_unit_test_teardown(broken_job_systems_are_reported, teardown),
      cmocka_unit_test_teardown(job_systems_that_repeat_or_overlap_chunks_are_reported, teardown),
      cmocka_unit_test_teardown(null_restores_openmp, teardown),
      cmocka_unit_test_teardown(host_and_openmp_copies_are_identical, teardown),
      cmocka_unit_test_teardown(hook_swaps_race_with_running_work, teardown),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
