// Printing: st_tensor_format. The options are read here (their size, then
// each field, 0 meaning NumPy's default); the text is ops/format.h's.
#include <cstddef>
#include <cstring>

#include "api/args.h"
#include "api/guard.h"
#include "api/handle_table.h"
#include "ops/format.h"

using namespace st;
using namespace st::api;

namespace {

static_assert(offsetof(st_format_options, precision) == 8 && offsetof(st_format_options, edgeitems) == 12 &&
                  offsetof(st_format_options, threshold) == 16 && offsetof(st_format_options, linewidth) == 24,
              "st_format_options keeps its 0.3 layout");

// A field of the options: negative is an error, 0 is NumPy's default.
template <typename T, typename U>
void read_option(T value, U& into, const char* name) {
  ST_CHECK(value >= 0, ST_ERROR_INVALID_ARGUMENT, "opts->%s = %lld is negative", name, static_cast<long long>(value));
  if (value != 0) into = value;
}

ops::FormatOptions read_format_options(const st_format_options* opts) {
  ops::FormatOptions o;
  if (opts == nullptr) return o;
  check_struct_size(opts, sizeof(st_format_options), "opts");
  read_option(opts->precision, o.precision, "precision");
  read_option(opts->edgeitems, o.edgeitems, "edgeitems");
  read_option(opts->threshold, o.threshold, "threshold");
  read_option(opts->linewidth, o.linewidth, "linewidth");
  return o;
}

}  // namespace

extern "C" {

st_status st_tensor_format(st_tensor t, const st_format_options* opts, char* buf, size_t cap, size_t* needed) {
  return guarded("st_tensor_format", [&] {
    check_out(needed, "needed");
    ST_CHECK(buf != nullptr || cap == 0, ST_ERROR_INVALID_ARGUMENT, "buf is NULL but cap = %zu", cap);
    const ops::FormatOptions o = read_format_options(opts);
    PinnedHandle x(t, "t");
    const std::string text = ops::format_tensor(*x, o);
    const size_t size = text.size() + 1;
    if (cap < size) {
      *needed = size;
      fail(ST_ERROR_OUT_OF_BOUNDS, "the text takes %zu bytes with its NUL, cap = %zu", size, cap);
    }
    std::memcpy(buf, text.c_str(), size);
    *needed = size;
  });
}

}  // extern "C"
