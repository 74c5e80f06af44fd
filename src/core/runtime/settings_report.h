// What st_runtime_settings() (include/stride.h) reports: each backend adds a
// reporter of its lines at static initialization, as its kernels register
// themselves; the environment's ignored values follow.
#pragma once

#include <string>

namespace st {

// Lines "name: value\n", made when asked (a reporter may make the choices it
// reports, as the first copy would).
using SettingsReporter = std::string (*)();

// At most kMaxSettingsReporters, at static initialization.
constexpr int kMaxSettingsReporters = 8;
void add_settings_reporter(SettingsReporter reporter);

// "threads: N", the large block cache's cap, every reporter's lines, then
// "ignored: NAME='value' ignored: why"
// for each ST_* value the library ignored (core/runtime/environment.h).
std::string runtime_settings();

}  // namespace st
