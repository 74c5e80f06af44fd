// NumPy's array2string for a tensor (numpy/core/arrayprint.py, NumPy 1.x
// without legacy printing): which values are shown, their texts
// (ops/format_elements.h) and the nested brackets, rows wrapped at the line
// width, with "..." where a summarized dim leaves items out.
#include "ops/format.h"

#include <vector>

#include "core/error.h"
#include "core/numeric/dtype.h"
#include "core/numeric/float_env.h"
#include "core/views.h"
#include "ops/copy.h"
#include "ops/empty.h"
#include "ops/format_elements.h"

namespace st {
namespace ops {
namespace {

// The dtype the shown values are copied into, which holds each exactly and
// which the element formatters read: NumPy prints float16, float32 and
// float64 as themselves, and stride's other floats as float32 arrays.
ScalarType carrier_of(ScalarType t) {
  switch (kind_of(t)) {
    case DTypeKind::Bool:
      return ScalarType::Bool;
    case DTypeKind::Signed:
      return ScalarType::Int64;
    case DTypeKind::Unsigned:
      return ScalarType::UInt64;
    case DTypeKind::Complex:
      return t;
    case DTypeKind::Float:
      return t == ScalarType::Float16 || t == ScalarType::Float64 ? t : ScalarType::Float32;
    default:
      fail(ST_ERROR_UNSUPPORTED_DTYPE, "dtype %s is not printed",
           dtype_name(static_cast<int32_t>(t)));
  }
}

// Copies the items of src that NumPy shows into dst (the shown shape): along
// each dim of cut[first..], the first `edge` items and the last `edge`. Such
// a dim of size n and stride s becomes two dims of a view, 2 items of
// stride (n - edge) s by `edge` of stride s, so that one copy moves every
// block; where that would take more dims than a tensor may have, the first
// cut dims go one half at a time.
void copy_shown(const Tensor& dst, const Tensor& src, const std::vector<int>& cut, size_t first, int64_t edge) {
  const int ndim = src.ndim();
  if (ndim + static_cast<int>(cut.size() - first) > kMaxDims) {
    const int d = cut[first];
    copy_shown(slice(dst, d, 0, edge, 1), slice(src, d, 0, edge, 1), cut, first + 1, edge);
    const int64_t n = src.size(d);
    copy_shown(slice(dst, d, edge, 2 * edge, 1), slice(src, d, n - edge, n, 1), cut, first + 1, edge);
    return;
  }
  DimVector dst_sizes, dst_strides, src_sizes, src_strides;
  size_t next = first;
  for (int d = 0; d < ndim; ++d) {
    if (next < cut.size() && cut[next] == d) {
      ++next;
      const int64_t skip = src.size(d) - edge;
      for (int64_t step : {skip * src.stride(d), src.stride(d)}) src_strides.push_back(step);
      for (int64_t step : {edge * dst.stride(d), dst.stride(d)}) dst_strides.push_back(step);
      for (DimVector* sizes : {&dst_sizes, &src_sizes}) {
        sizes->push_back(2);
        sizes->push_back(edge);
      }
    } else {
      src_sizes.push_back(src.size(d));
      src_strides.push_back(src.stride(d));
      dst_sizes.push_back(dst.size(d));
      dst_strides.push_back(dst.stride(d));
    }
  }
  copy_(as_strided(dst, dst_sizes, dst_strides, dst.storage_offset()),
        as_strided(src, src_sizes, src_strides, src.storage_offset()), false);
}

// _formatArray: the nested brackets of the texts, in row-major order of
// the shown shape. A block's lines after its first start with `indent`
// spaces (one per bracket open to their left); a row breaks before a word
// that would pass width - 1 (room for its "]"), each level in one
// character narrower; a summarized dim prints its first `edge` items,
// "...", and its last `edge` ones.
class Layout {
 public:
  Layout(const std::vector<std::string>& words, const DimVector& shown, const std::vector<bool>& cut, int64_t edge)
      : words_(words), shown_(shown), cut_(cut), edge_(edge), step_(static_cast<size_t>(shown.size()) + 1, 1) {
    for (int d = shown.size() - 1; d >= 0; --d) step_[d] = step_[d + 1] * shown[d];
  }

  std::string block(int dim, int64_t offset, int64_t indent, int64_t width) const {
    if (dim == shown_.size()) return words_[static_cast<size_t>(offset)];
    const int64_t n = shown_[dim];
    const int64_t summary_at = cut_[dim] ? edge_ : -1;
    const bool rows = dim + 1 == shown_.size();
    std::string text, line(static_cast<size_t>(indent), ' ');
    const std::string breaks(static_cast<size_t>(shown_.size() - dim - 1), '\n');
    for (int64_t i = 0; i < n; ++i) {
      if (i == summary_at) {
        if (rows) {
          extend(text, line, "...", width - 1, indent);
          line += ' ';
        } else {
          text += std::string(static_cast<size_t>(indent), ' ') + "..." + breaks;
        }
      }
      const std::string item = block(dim + 1, offset + i * step_[dim + 1], indent + 1, width - 1);
      if (rows) {
        extend(text, line, item, width - 1, indent);
        if (i + 1 < n) line += ' ';
      } else {
        text += std::string(static_cast<size_t>(indent), ' ') + item;
        if (i + 1 < n) text += breaks;
      }
    }
    if (rows) text += line;
    return "[" + text.substr(static_cast<size_t>(indent)) + "]";
  }

 private:
  // _extendLine: `word` onto `line`, which first goes into `text` when the
  // word would make it wider than `width` (unless it holds only its indent).
  static void extend(std::string& text, std::string& line, const std::string& word, int64_t width, int64_t indent) {
    const int64_t length = static_cast<int64_t>(line.size());
    if (length + static_cast<int64_t>(word.size()) > width && length > indent) {
      text += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
      line.assign(static_cast<size_t>(indent), ' ');
    }
    line += word;
  }

  const std::vector<std::string>& words_;
  const DimVector& shown_;
  const std::vector<bool>& cut_;
  int64_t edge_;
  std::vector<int64_t> step_;
};

}  // namespace

std::string format_tensor(const Tensor& t, const FormatOptions& o) {
  if (t.numel() == 0) return "[]";
  const ScalarType carrier = carrier_of(t.dtype());
  const bool summarize = t.numel() > o.threshold;
  DimVector shown = t.sizes();
  std::vector<bool> cut(static_cast<size_t>(t.ndim()), false);
  std::vector<int> cut_dims;
  for (int d = 0; d < t.ndim(); ++d) {
    if (summarize && t.size(d) > 2 * o.edgeitems) {
      cut[static_cast<size_t>(d)] = true;
      cut_dims.push_back(d);
      shown[d] = 2 * o.edgeitems;
    }
  }
  const Tensor values = empty(shown, carrier, Device{});
  copy_shown(values, t, cut_dims, 0, o.edgeitems);
  // NumPy's choice of notation divides and compares in the dtype's own
  // arithmetic (Note [The caller's floating-point environment]).
  const DefaultFloatEnvironment float_env;
  const std::vector<std::string> words = element_texts(values, o.precision);
  return Layout(words, shown, cut, o.edgeitems).block(0, 0, 1, o.linewidth);
}

}  // namespace ops
}  // namespace st
