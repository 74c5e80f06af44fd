// Helpers for the tests of TensorIterator and parallel_for: tensors with
// random contents and layouts, an error catcher, and a reference copy that
// walks multi-indices on its own (no iterator code involved).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/contiguity.h"
#include "core/dims.h"
#include "core/views.h"
#include "core/empty.h"
#include "core/error.h"
#include "iter/tensor_iterator.h"
// cmocka last: its fail() macro would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

namespace testing {

using st::DimVector;
using st::ScalarType;
using st::Tensor;

inline Tensor contiguous_tensor(const DimVector& sizes, ScalarType dtype) {
  return st::empty_cpu(sizes, st::contiguous_strides(sizes), dtype);
}

inline unsigned char* storage_bytes(const Tensor& t) { return static_cast<unsigned char*>(t.storage()->base()); }

inline void fill_random_bytes(const Tensor& t, std::mt19937_64& rng) {
  unsigned char* p = storage_bytes(t);
  for (size_t i = 0; i < t.storage()->nbytes(); ++i) p[i] = static_cast<unsigned char>(rng());
}

// Fills the storage with 0, 1, 2, … as int32 (the tensor must be int32 or float32-sized).
inline void fill_iota_int32(const Tensor& t) {
  auto* p = reinterpret_cast<int32_t*>(storage_bytes(t));
  for (size_t i = 0; i < t.storage()->nbytes() / 4; ++i) p[i] = static_cast<int32_t>(i);
}

// Runs f; returns ST_OK or the status of the st::Error it threw, and its message.
template <typename F>
st_status status_of(F&& f, std::string* message = nullptr) {
  try {
    f();
    return ST_OK;
  } catch (const st::Error& e) {
    if (message) *message = e.what();
    return e.code();
  }
}

inline void expect_contains(const std::string& message, const char* needle) {
  if (message.find(needle) == std::string::npos) {
    print_error("message \"%s\" does not contain \"%s\"\n", message.c_str(), needle);
    fail();
  }
}

// Byte offset of the element at multi-index idx.
inline int64_t element_offset(const Tensor& t, const int64_t* idx) {
  int64_t off = 0;
  for (int d = 0; d < t.ndim(); ++d) off += idx[d] * t.stride(d);
  return off * static_cast<int64_t>(t.itemsize());
}

// What `out`'s storage must hold after out[...] = in (in broadcast to out),
// given the storage's bytes before: a row-major multi-index walk over out.
inline std::vector<unsigned char> expected_after_copy(const Tensor& out, const Tensor& in,
                                                      const std::vector<unsigned char>& out_before) {
  std::vector<unsigned char> expected = out_before;
  if (out.numel() == 0) return expected;
  const int nd = out.ndim(), lead = nd - in.ndim();
  const size_t item = out.itemsize();
  const int64_t out_base = out.storage_offset() * static_cast<int64_t>(item);
  const auto* in_data = static_cast<const unsigned char*>(in.data());
  std::vector<int64_t> idx(nd > 0 ? nd : 1, 0), in_idx(in.ndim() > 0 ? in.ndim() : 1, 0);
  for (;;) {
    for (int j = 0; j < in.ndim(); ++j) in_idx[j] = in.size(j) == 1 ? 0 : idx[j + lead];
    std::memcpy(&expected[out_base + element_offset(out, idx.data())], in_data + element_offset(in, in_idx.data()),
                item);
    int d = nd - 1;
    while (d >= 0 && ++idx[d] == out.size(d)) idx[d--] = 0;
    if (d < 0) break;
  }
  return expected;
}

inline std::vector<unsigned char> snapshot(const Tensor& t) {
  const unsigned char* p = storage_bytes(t);
  return std::vector<unsigned char>(p, p + t.storage()->nbytes());
}

// The element copy a kernel would do, written plainly: element (i, j) of
// operand k is at data[k] + i × strides[k] + j × strides[2 + k].
struct ByteCopyLoop {
  size_t item;
  void operator()(char** data, const int64_t* strides, int64_t size0, int64_t size1) const {
    for (int64_t j = 0; j < size1; ++j) {
      for (int64_t i = 0; i < size0; ++i) {
        std::memcpy(data[0] + (i * strides[0] + j * strides[2]), data[1] + (i * strides[1] + j * strides[3]), item);
      }
    }
  }
};

inline std::string describe(const Tensor& t) {
  return "sizes " + st::format_dims(t.sizes()) + " strides " + st::format_dims(t.strides()) + " offset " +
         std::to_string(t.storage_offset());
}

}  // namespace testing
