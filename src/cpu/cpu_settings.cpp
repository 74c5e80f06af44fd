// The CPU backend's lines of st_runtime_settings(): the kernel level, and
// how long copies stream and transposes block (each made now if no copy
// has made it yet).
#include <string>

#include "core/runtime/settings_report.h"
#include "cpu/cpu_isa.h"
#include "cpu/stream_tuning.h"
#include "cpu/transpose_tuning.h"

namespace st {
namespace cpu {
namespace {

std::string cpu_settings() {
  const CpuIsa level = cpu_isa(), detected = detected_cpu_isa();
  std::string text = std::string("cpu level: ") + cpu_isa_name(level);
  if (level != detected) text += std::string(" (this CPU's highest: ") + cpu_isa_name(detected) + ")";
  return text + "\n" + stream_tuning_report() + transpose_tuning_report();
}

struct Registration {
  Registration() { add_settings_reporter(cpu_settings); }
} const kRegistration;

}  // namespace
}  // namespace cpu
}  // namespace st
