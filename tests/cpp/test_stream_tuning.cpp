// The choice of how long copies stream (cpu/stream_tuning.h): the default
// every CPU starts from, the environment's overrides and what is refused of
// them (Note [Reading the environment]), and the setter's clamping. The
// expected values are the ones docs/tuning.md states.
#include <cstdint>
#include <initializer_list>
#include <string>

#include "core/runtime/environment.h"
#include "cpu/stream_tuning.h"
#include "cmocka_cxx.h"

using st::cpu::StreamTuning;
using st::cpu::StreamTuningEnv;
using st::cpu::choose_stream_tuning;

namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

void without_overrides_every_cpu_starts_from_the_default(void**) {
  const StreamTuning t = choose_stream_tuning({nullptr, nullptr, nullptr});
  assert_int_equal(t.threshold_bytes, 16 * kMiB);
  assert_int_equal(t.pages, 1);
  assert_int_equal(t.prefetch_bytes, 0);
}

void valid_overrides_replace_each_part(void**) {
  StreamTuning t = choose_stream_tuning({"1048576", "2", "512"});
  assert_int_equal(t.threshold_bytes, kMiB);
  assert_int_equal(t.pages, 2);
  assert_int_equal(t.prefetch_bytes, 512);
  t = choose_stream_tuning({"0", "4", "65536"});
  assert_int_equal(t.threshold_bytes, 0);
  assert_int_equal(t.pages, 4);
  assert_int_equal(t.prefetch_bytes, 65536);
}

void invalid_overrides_leave_the_default_and_are_noted(void**) {
  for (const char* bad : {"", "abc", "-1", "+4", " 4", "12x", "4 KiB", "18446744073709551616"}) {
    const StreamTuning t = choose_stream_tuning({bad, bad, bad});
    assert_int_equal(t.threshold_bytes, 16 * kMiB);
    assert_int_equal(t.pages, 1);
    assert_int_equal(t.prefetch_bytes, 0);
  }
  for (const char* pages : {"0", "3", "5", "8"}) assert_int_equal(choose_stream_tuning({nullptr, pages, nullptr}).pages, 1);
  for (const char* prefetch : {"65537", "1048576"}) {
    assert_int_equal(choose_stream_tuning({nullptr, nullptr, prefetch}).prefetch_bytes, 0);
  }
  const std::string notes = st::env::ignored_notes();
  assert_true(notes.find("ST_STREAM_PAGES='3' ignored: expected 1, 2 or 4") != std::string::npos);
  assert_true(notes.find("ST_STREAM_PREFETCH_BYTES='65537' ignored") != std::string::npos);
  assert_true(notes.find("ST_STREAM_THRESHOLD_BYTES='-1' ignored") != std::string::npos);
}

void the_setter_clamps_and_the_process_reads_it(void**) {
  const StreamTuning chosen = st::cpu::stream_tuning();
  st::cpu::set_stream_tuning({-5, 3, -64});
  assert_int_equal(st::cpu::stream_threshold_bytes(), 0);
  assert_int_equal(st::cpu::stream_pages(), 2);
  assert_int_equal(st::cpu::stream_prefetch_bytes(), 0);
  st::cpu::set_stream_tuning({kMiB, 9, 2048});
  assert_int_equal(st::cpu::stream_threshold_bytes(), kMiB);
  assert_int_equal(st::cpu::stream_pages(), 4);
  assert_int_equal(st::cpu::stream_prefetch_bytes(), 2048);
  st::cpu::set_stream_tuning({kMiB, 0, kMiB});
  assert_int_equal(st::cpu::stream_pages(), 1);
  assert_int_equal(st::cpu::stream_prefetch_bytes(), 64 * 1024);
  st::cpu::set_stream_tuning(chosen);
  assert_int_equal(st::cpu::stream_threshold_bytes(), chosen.threshold_bytes);
  assert_int_equal(st::cpu::stream_pages(), chosen.pages);
  assert_int_equal(st::cpu::stream_prefetch_bytes(), chosen.prefetch_bytes);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(without_overrides_every_cpu_starts_from_the_default),
      cmocka_unit_test(valid_overrides_replace_each_part),
      cmocka_unit_test(invalid_overrides_leave_the_default_and_are_noted),
      cmocka_unit_test(the_setter_clamps_and_the_process_reads_it),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
