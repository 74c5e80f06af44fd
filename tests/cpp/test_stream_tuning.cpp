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
using st::cpu::StreamTuningEnv;
using st::cpu::choose_stream_tuning;

namespace {

constexpr int64_t kMiB = int64_t{1} << 20;
constexpr StreamTuningEnv kNoEnv = {nullptr, nullptr, nullptr, nullptr, nullptr};

void each_vendor_has_its_default(void**) {
  const StreamTuning intel = choose_stream_tuning(CpuVendor::Intel, kNoEnv);
  assert_int_equal(intel.threshold_bytes, 4 * kMiB);
  assert_int_equal(intel.pages, 4);
  assert_int_equal(intel.prefetch_bytes, 4096);
  assert_int_equal(intel.transpose_src_bytes, 4096);
  assert_int_equal(intel.transpose_prefetch_bytes, 0);
  const StreamTuning amd = choose_stream_tuning(CpuVendor::Amd, kNoEnv);
  assert_int_equal(amd.threshold_bytes, 16 * kMiB);
  assert_int_equal(amd.pages, 1);
  assert_int_equal(amd.prefetch_bytes, 0);
  assert_int_equal(amd.transpose_src_bytes, 1024);
  assert_int_equal(amd.transpose_prefetch_bytes, 16 * 1024);
  const StreamTuning other = choose_stream_tuning(CpuVendor::Other, kNoEnv);
  assert_int_equal(other.pages, 1);
  assert_int_equal(other.prefetch_bytes, 0);
  assert_int_equal(other.transpose_src_bytes, 1024);
  assert_int_equal(other.transpose_prefetch_bytes, 16 * 1024);
}

void valid_overrides_replace_each_part(void**) {
  StreamTuning t = choose_stream_tuning(CpuVendor::Amd, {"1048576", "2", "512", "4096", "0"});
  assert_int_equal(t.threshold_bytes, kMiB);
  assert_int_equal(t.pages, 2);
  assert_int_equal(t.prefetch_bytes, 512);
  assert_int_equal(t.transpose_src_bytes, 4096);
  assert_int_equal(t.transpose_prefetch_bytes, 0);
  t = choose_stream_tuning(CpuVendor::Intel, {"0", "1", "0", "64", "8192"});
  assert_int_equal(t.threshold_bytes, 0);
  assert_int_equal(t.pages, 1);
  assert_int_equal(t.prefetch_bytes, 0);
  assert_int_equal(t.transpose_src_bytes, 64);
  assert_int_equal(t.transpose_prefetch_bytes, 8192);
  t = choose_stream_tuning(CpuVendor::Intel, {nullptr, "4", "65536", "65536", "65536"});
  assert_int_equal(t.threshold_bytes, 4 * kMiB);
  assert_int_equal(t.pages, 4);
  assert_int_equal(t.prefetch_bytes, 65536);
  assert_int_equal(t.transpose_src_bytes, 65536);
  assert_int_equal(t.transpose_prefetch_bytes, 65536);
}

void invalid_overrides_leave_the_default(void**) {
  for (const char* bad : {"", "abc", "-1", "12x", "4 KiB"}) {
    const StreamTuning t = choose_stream_tuning(CpuVendor::Intel, {bad, bad, bad, bad, bad});
    assert_int_equal(t.threshold_bytes, 4 * kMiB);
    assert_int_equal(t.pages, 4);
    assert_int_equal(t.prefetch_bytes, 4096);
    assert_int_equal(t.transpose_src_bytes, 4096);
    assert_int_equal(t.transpose_prefetch_bytes, 0);
  }
  for (const char* pages : {"0", "3", "5", "8"}) {
    assert_int_equal(choose_stream_tuning(CpuVendor::Amd, {nullptr, pages, nullptr, nullptr, nullptr}).pages, 1);
  }
  for (const char* prefetch : {"65537", "1048576"}) {
    const StreamTuning t = choose_stream_tuning(CpuVendor::Intel, {nullptr, nullptr, prefetch, nullptr, prefetch});
    assert_int_equal(t.prefetch_bytes, 4096);
    assert_int_equal(t.transpose_prefetch_bytes, 0);
  }
  // Block widths: powers of two from 64 B to 64 KiB only.
  for (const char* src_bytes : {"0", "32", "100", "1000", "4095", "131072"}) {
    const StreamTuning t = choose_stream_tuning(CpuVendor::Amd, {nullptr, nullptr, nullptr, src_bytes, nullptr});
    assert_int_equal(t.transpose_src_bytes, 1024);
  }
}

void the_setter_clamps_and_the_process_reads_it(void**) {
  const StreamTuning chosen = st::cpu::stream_tuning();
  st::cpu::set_stream_tuning({-5, 3, -64, -1, -64});
  assert_int_equal(st::cpu::stream_threshold_bytes(), 0);
  assert_int_equal(st::cpu::stream_pages(), 2);
  assert_int_equal(st::cpu::stream_prefetch_bytes(), 0);
  assert_int_equal(st::cpu::transpose_src_bytes(), 64);
  assert_int_equal(st::cpu::transpose_prefetch_bytes(), 0);
  st::cpu::set_stream_tuning({kMiB, 9, 2048, 3000, 4096});
  assert_int_equal(st::cpu::stream_threshold_bytes(), kMiB);
  assert_int_equal(st::cpu::stream_pages(), 4);
  assert_int_equal(st::cpu::stream_prefetch_bytes(), 2048);
  assert_int_equal(st::cpu::transpose_src_bytes(), 2048);
  assert_int_equal(st::cpu::transpose_prefetch_bytes(), 4096);
  st::cpu::set_stream_tuning({kMiB, 0, kMiB, kMiB, kMiB});
  assert_int_equal(st::cpu::stream_pages(), 1);
  assert_int_equal(st::cpu::stream_prefetch_bytes(), 64 * 1024);
  assert_int_equal(st::cpu::transpose_src_bytes(), 64 * 1024);
  assert_int_equal(st::cpu::transpose_prefetch_bytes(), 64 * 1024);
  st::cpu::set_stream_tuning(chosen);
  assert_int_equal(st::cpu::stream_pages(), chosen.pages);
  assert_int_equal(st::cpu::stream_prefetch_bytes(), chosen.prefetch_bytes);
  assert_int_equal(st::cpu::transpose_src_bytes(), chosen.transpose_src_bytes);
  assert_int_equal(st::cpu::transpose_prefetch_bytes(), chosen.transpose_prefetch_bytes);
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
