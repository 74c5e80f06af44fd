// Choosing between candidate settings by timing them on samples of real
// work (Note [Tuning from the machine] in cpu/calibration.h), and its use
// by the streamed transposes (cpu/transpose_tuning.h).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/runtime/clock.h"
#include "cpu/calibration.h"
#include "cpu/stream_tuning.h"
#include "cpu/transpose_tuning.h"
#include "stride.h"
#include "cmocka_cxx.h"

namespace {

using st::cpu::calibrate;
using st::cpu::fastest;

void fastest_is_the_least_time_and_the_first_of_equals(void**) {
  const double a[] = {3.0, 1.5, 2.0};
  assert_int_equal(fastest(a, 3), 1);
  const double b[] = {1.0, 1.0, 0.5, 0.5};
  assert_int_equal(fastest(b, 4), 2);
  const double c[] = {7.0};
  assert_int_equal(fastest(c, 1), 0);
}

// Spins for `us` microseconds: a sample whose time the test decides.
void spin(int64_t us) {
  const int64_t until = st::monotonic_ns() + us * 1000;
  while (st::monotonic_ns() < until) {
  }
}

void each_candidate_runs_once_a_round_on_fresh_samples_and_the_fastest_wins(void**) {
  const int64_t cost_us[] = {3000, 300, 3000};  // candidate 1 is ten times faster
  std::vector<int> candidate_of_sample;
  const int winner = calibrate(3, 2, [&](int sample, int candidate) -> int64_t {
    assert_int_equal(sample, static_cast<int>(candidate_of_sample.size()));  // each sample once, in order
    candidate_of_sample.push_back(candidate);
    spin(cost_us[candidate]);
    return 1000;
  });
  assert_int_equal(winner, 1);
  assert_int_equal(candidate_of_sample.size(), 7u);  // a warm-up and 2 rounds of 3
  assert_int_equal(candidate_of_sample[0], 0);
  int runs[3] = {0, 0, 0};
  for (size_t s = 1; s < candidate_of_sample.size(); ++s) ++runs[candidate_of_sample[s]];
  assert_int_equal(runs[0], 2);
  assert_int_equal(runs[1], 2);
  assert_int_equal(runs[2], 2);
  assert_int_not_equal(candidate_of_sample[1], candidate_of_sample[4]);  // rounds start apart
}

void time_is_compared_per_byte(void**) {
  // Candidate 0 takes longer but moves ten times the bytes.
  const int winner = calibrate(2, 1, [&](int, int candidate) -> int64_t {
    spin(candidate == 0 ? 2000 : 1000);
    return candidate == 0 ? 10000 : 1000;
  });
  assert_int_equal(winner, 0);
}

void work_too_small_to_sample_gives_no_winner(void**) {
  assert_int_equal(calibrate(3, 2, [](int sample, int) -> int64_t { return sample < 3 ? 64 : 0; }), -1);
  assert_int_equal(calibrate(3, 2, [](int, int) -> int64_t { return 0; }), -1);
  assert_int_equal(calibrate(0, 2, [](int, int) -> int64_t { return 64; }), -1);
}

void a_guard_forbids_calibrating_on_its_thread(void**) {
  assert_true(st::cpu::may_calibrate());
  {
    st::cpu::NoCalibration outer;
    assert_false(st::cpu::may_calibrate());
    {
      st::cpu::NoCalibration inner;
      assert_false(st::cpu::may_calibrate());
    }
    assert_false(st::cpu::may_calibrate());
  }
  assert_true(st::cpu::may_calibrate());
}

// A transposed float32 view of rows x cols copied to a contiguous tensor,
// checked element by element against its index.
bool transposed_copy_is_right(int64_t rows, int64_t cols) {
  st_tensor src, view, dst;
  const int64_t sizes[2] = {rows, cols};
  const st_device cpu = {ST_DEVICE_CPU, 0};
  assert_int_equal(st_tensor_create(sizes, 2, ST_FLOAT32, cpu, &src), ST_OK);
  float* s = nullptr;
  st_tensor_data_ptr(src, reinterpret_cast<void**>(&s));
  for (int64_t i = 0; i < rows * cols; ++i) s[i] = static_cast<float>(i % 16777216);
  assert_int_equal(st_transpose(src, 0, 1, &view), ST_OK);
  assert_int_equal(st_contiguous(view, ST_MEMORY_FORMAT_CONTIGUOUS, &dst), ST_OK);
  const float* d = nullptr;
  st_tensor_data_ptr(dst, (void**)&d);
  bool right = true;
  for (int64_t j = 0; j < cols && right; ++j) {
    for (int64_t i = 0; i < rows; ++i) {
      if (d[j * rows + i] != static_cast<float>((i * cols + j) % 16777216)) {
        right = false;
        break;
      }
    }
  }
  st_tensor_release(dst);
  st_tensor_release(view);
  st_tensor_release(src);
  return right;
}

void a_large_streamed_transpose_calibrates_once_per_shape_and_copies_right(void**) {
  const st::cpu::StreamTuning chosen = st::cpu::stream_tuning();
  st::cpu::set_stream_tuning({0, chosen.pages, chosen.prefetch_bytes});  // every copy streams
  st::cpu::forget_transpose_winners();
  // 64 MiB moved: the smallest a calibration samples.
  assert_true(transposed_copy_is_right(8192, 1024));
  std::string report = st::cpu::transpose_tuning_report();
  assert_true(report.find("1 shape(s) calibrated") != std::string::npos);
  assert_true(transposed_copy_is_right(8192, 1024));  // the same shape: recorded, not measured again
  assert_true(st::cpu::transpose_tuning_report().find("1 shape(s) calibrated") != std::string::npos);
  {
    // Under the guard another shape takes the most recent winner.
    st::cpu::NoCalibration guard;
    assert_true(transposed_copy_is_right(1024, 8192));
  }
  assert_true(st::cpu::transpose_tuning_report().find("1 shape(s) calibrated") != std::string::npos);
  {
    // A copy plan's execution never calibrates (its time must not jump).
    st_tensor src, view, dst;
    const int64_t sizes[2] = {4096, 2048}, t_sizes[2] = {2048, 4096};
    const st_device cpu = {ST_DEVICE_CPU, 0};
    assert_int_equal(st_tensor_create(sizes, 2, ST_FLOAT32, cpu, &src), ST_OK);
    assert_int_equal(st_transpose(src, 0, 1, &view), ST_OK);
    assert_int_equal(st_tensor_create(t_sizes, 2, ST_FLOAT32, cpu, &dst), ST_OK);
    st_copy_plan plan;
    assert_int_equal(st_copy_plan_create(dst, view, nullptr, ST_PLAN_ESTIMATE, &plan), ST_OK);
    assert_int_equal(st_copy_plan_execute(plan, dst, view, 0), ST_OK);
    assert_int_equal(st_copy_plan_release(plan), ST_OK);
    st_tensor_release(dst);
    st_tensor_release(view);
    st_tensor_release(src);
  }
  assert_true(st::cpu::transpose_tuning_report().find("1 shape(s) calibrated") != std::string::npos);
  assert_true(transposed_copy_is_right(1000, 1000));  // too small to sample: not calibrated
  assert_true(st::cpu::transpose_tuning_report().find("1 shape(s) calibrated") != std::string::npos);
  assert_true(transposed_copy_is_right(1024, 8192));
  assert_true(st::cpu::transpose_tuning_report().find("2 shape(s) calibrated") != std::string::npos);
  st::cpu::set_stream_tuning(chosen);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fastest_is_the_least_time_and_the_first_of_equals),
      cmocka_unit_test(each_candidate_runs_once_a_round_on_fresh_samples_and_the_fastest_wins),
      cmocka_unit_test(time_is_compared_per_byte),
      cmocka_unit_test(work_too_small_to_sample_gives_no_winner),
      cmocka_unit_test(a_guard_forbids_calibrating_on_its_thread),
      cmocka_unit_test(a_large_streamed_transpose_calibrates_once_per_shape_and_copies_right),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
