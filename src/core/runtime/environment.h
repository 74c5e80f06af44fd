// The ST_* environment variables, read by one rule (Note [Reading the
// environment]); the list and what each one sets are in docs/tuning.md.
#pragma once

#include <cstdint>
#include <string>

namespace st {
namespace env {

// Note [Reading the environment]
// Each ST_* variable is read once per process, by the part of the library
// it tunes, before that part's first use. Its value is either a count
// (decimal digits only: no sign, no space, no suffix, no leading '+',
// within the variable's range) or one of a list of words (exactly as
// listed). Anything else, the empty string included, is ignored: the
// library keeps the choice it would have made without it, and the value
// is noted with the reason, for st_runtime_settings() (include/stride.h)
// to report. A value is never clamped into range: 2^64, -1 or 300 threads
// are as wrong as "abc", and silently reading them as something else would
// hide the mistake. The library writes nothing to stderr.

// Parses `text` by the count rule: true with *out set when it is a count in
// [min, max].
bool parse_count(const char* text, int64_t min, int64_t max, int64_t* out);

// The count `name` holds, when it is set and valid by parse_count and
// `valid` (when given); when it is set and not valid, notes it as ignored,
// with `expected` (such as "a whole number from 1 to 256") as the reason.
// Returns whether *out was set.
bool read_count(const char* name, int64_t min, int64_t max, const char* expected, int64_t* out,
                bool (*valid)(int64_t) = nullptr);

// As read_count for the count rule applied to a value the caller got
// otherwise (tests pass values by hand): notes `name`=`text` as ignored when
// text is set and wrong.
bool count_from(const char* name, const char* text, int64_t min, int64_t max, const char* expected, int64_t* out,
                bool (*valid)(int64_t) = nullptr);

// The index in `words` (n of them) of the word `name` holds, or -1 when it
// is unset or none of them (noted as ignored, with `expected`).
int read_word(const char* name, const char* const* words, int n, const char* expected);

// Notes `name`=`value` as ignored because of `reason`.
void note_ignored(const char* name, const char* value, const std::string& reason);

// Every note so far, a line each ("ST_NUM_THREADS=' 3' ignored: expected
// ..."), in the order they were made.
std::string ignored_notes();

}  // namespace env
}  // namespace st
