#include "core/runtime/environment.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace st {
namespace env {
namespace {

struct Notes {
  std::mutex mutex;
  std::vector<std::string> lines;
};

Notes& notes() {
  static Notes* n = new Notes();  // never destroyed: threads may note until exit
  return *n;
}

}  // namespace

bool parse_count(const char* text, int64_t min, int64_t max, int64_t* out) {
  if (!text || !*text) return false;
  uint64_t v = 0;
  for (const char* p = text; *p; ++p) {
    if (*p < '0' || *p > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(*p - '0');
    if (v > (UINT64_MAX - digit) / 10) return false;
    v = v * 10 + digit;
  }
  if (v > static_cast<uint64_t>(INT64_MAX)) return false;
  const int64_t s = static_cast<int64_t>(v);
  if (s < min || s > max) return false;
  *out = s;
  return true;
}

bool count_from(const char* name, const char* text, int64_t min, int64_t max, const char* expected, int64_t* out,
                bool (*valid)(int64_t)) {
  if (!text) return false;
  int64_t v = 0;
  if (parse_count(text, min, max, &v) && (!valid || valid(v))) {
    *out = v;
    return true;
  }
  note_ignored(name, text, std::string("expected ") + expected);
  return false;
}

bool read_count(const char* name, int64_t min, int64_t max, const char* expected, int64_t* out,
                bool (*valid)(int64_t)) {
  return count_from(name, std::getenv(name), min, max, expected, out, valid);
}

int read_word(const char* name, const char* const* words, int n, const char* expected) {
  const char* text = std::getenv(name);
  if (!text) return -1;
  for (int i = 0; i < n; ++i) {
    if (std::strcmp(text, words[i]) == 0) return i;
  }
  note_ignored(name, text, std::string("expected ") + expected);
  return -1;
}

void note_ignored(const char* name, const char* value, const std::string& reason) {
  std::string line = std::string(name) + "='" + value + "' ignored: " + reason;
  Notes& n = notes();
  std::lock_guard<std::mutex> lock(n.mutex);
  n.lines.push_back(std::move(line));
}

std::string ignored_notes() {
  Notes& n = notes();
  std::lock_guard<std::mutex> lock(n.mutex);
  std::string all;
  for (const std::string& line : n.lines) all += line + "\n";
  return all;
}

}  // namespace env
}  // namespace st
