// The choice of how long copies stream (cpu/stream_tuning.h): each vendor's
// default, the environment's overrides and what is refused of them, and
// the setter's clamping. The expected values are the ones docs/tuning.md
// states.
#include <cstdint>
#include <initializer_list>

#include "cmocka_cxx.h"
#include "cpu/stream_tuning.h"

using st::cpu::CpuVendor;
using st::cpu::StreamTuning;
using st::cpu::choose_stream_tuning;

namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

void each_vendor_has_its_default(void**) {
  const StreamTuning intel = choose_stream_tuning(CpuVendor::Intel, nullptr, nullptr);
  assert_int_equal(intel.threshold_bytes, 4 * kMiB);
  assert_int_equal(intel.pages, 4);
  const StreamTuning amd = choose_stream_tuning(CpuVendor::Amd, nullptr, nullptr);
  assert_int_equal(amd.threshold_bytes, 16 * kMiB);
  assert_int_equal(amd.pages, 1);
  const StreamTuning other = choose_stream_tuning(CpuVendor::Other, nullptr, nullptr);
  assert_int_equal(other.pages, 1);
}

void valid_overrides_replace_each_part(void**) {
  StreamTuning t = choose_stream_tuning(CpuVendor::Amd, "1048576", "2");
  assert_int_equal(t.threshold_bytes, kMiB);
  assert_int_equal(t.pages, 2);
  t = choose_stream_tuning(CpuVendor::Intel, "0", "1");
  assert_int_equal(t.threshold_bytes, 0);
  assert_int_equal(t.pages, 1);
  t = choose_stream_tuning(CpuVendor::Intel, nullptr, "4");
  assert_int_equal(t.threshold_bytes, 4 * kMiB);
  assert_int_equal(t.pages, 4);
}

void invalid_overrides_leave_the_default(void**) {
  for (const char* bad : {"", "abc", "-1", "12x", "4 KiB"}) {
    const StreamTuning t = choose_stream_tuning(CpuVendor::Intel, bad, bad);
    assert_int_equal(t.threshold_bytes, 4 * kMiB);
    assert_int_equal(t.pages, 4);
  }
  for (const char* pages : {"0", "3", "5", "8"}) {
    assert_int_equal(choose_stream_tuning(CpuVendor::Amd, nullptr, pages).pages, 1);
  }
}

void the_setter_clamps_and_the_process_reads_it(void**) {
  const StreamTuning chosen = st::cpu::stream_tuning();
  st::cpu::set_stream_tuning({-5, 3});
  assert_int_equal(st::cpu::stream_threshold_bytes(), 0);
  assert_int_equal(st::cpu::stream_pages(), 2);
  st::cpu::set_stream_tuning({kMiB, 9});
  assert_int_equal(st::cpu::stream_threshold_bytes(), kMiB);
  assert_int_equal(st::cpu::stream_pages(), 4);
  st::cpu::set_stream_tuning({kMiB, 0});
  assert_int_equal(st::cpu::stream_pages(), 1);
  st::cpu::set_stream_tuning(chosen);
  assert_int_equal(st::cpu::stream_pages(), chosen.pages);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(each_vendor_has_its_default),
      cmocka_unit_test(valid_overrides_replace_each_part),
      cmocka_unit_test(invalid_overrides_leave_the_default),
      cmocka_unit_test(the_setter_clamps_and_the_process_reads_it),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
