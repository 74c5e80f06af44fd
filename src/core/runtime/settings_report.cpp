#include "core/runtime/settings_report.h"

#include <atomic>

#include "core/runtime/environment.h"
#include "core/runtime/large_blocks.h"
#include "core/runtime/thread_count.h"

namespace st {
namespace {

// Constant-initialized, so that registrations from other files' static
// initializers find it ready whatever the order.
SettingsReporter g_reporters[kMaxSettingsReporters] = {};
std::atomic<int> g_count{0};

}  // namespace

void add_settings_reporter(SettingsReporter reporter) {
  const int slot = g_count.fetch_add(1);
  if (slot < kMaxSettingsReporters) g_reporters[slot] = reporter;
}

std::string runtime_settings() {
  std::string text = "threads: " + std::to_string(num_threads()) + "\n" +
                     "large block cache: at most " + std::to_string(large_block_cache_limit()) + " B\n";
  const int n = g_count.load();
  for (int i = 0; i < n && i < kMaxSettingsReporters; ++i) text += g_reporters[i]();
  const std::string ignored = env::ignored_notes();
  size_t at = 0;
  while (at < ignored.size()) {
    const size_t end = ignored.find('\n', at);
    text += "ignored: " + ignored.substr(at, end - at) + "\n";
    at = end + 1;
  }
  return text;
}

}  // namespace st
