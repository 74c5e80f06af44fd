// Helpers for the dispatcher tests: tensors on any device (no memory), and
// checking the st::Error a call throws.
#pragma once

#include <string>

// The library's headers come before cmocka's, whose fail() macro would
// rename st::fail.
#include "core/error.h"
#include "core/tensor.h"
#include "cmocka_cxx.h"

namespace test {

// A tensor without elements whose storage claims `type`: enough to
// dispatch on, on machines without that device.
inline st::Tensor tensor_on(st::DeviceType type) {
  st::Storage storage = st::Storage::make(nullptr, 0, st::Device{type, 0}, st::MemoryRelease{});
  return st::Tensor::make(storage, st::DimVector{0}, st::DimVector{1}, 0, st::ScalarType::Float32);
}

// Runs `body`, which must throw st::Error with `code`; returns its message.
template <typename Body>
std::string expect_error(st_status code, Body&& body) {
  try {
    body();
  } catch (const st::Error& e) {
    if (e.code() != code) {
      print_error("threw %s (\"%s\"), expected %s\n", st_status_name(e.code()), e.what(), st_status_name(code));
      fail();
    }
    return e.what();
  }
  print_error("did not throw, expected %s\n", st_status_name(code));
  fail();
  return "";
}

inline void expect_contains(const std::string& text, const char* needle) {
  if (text.find(needle) == std::string::npos) {
    print_error("\"%s\" does not contain \"%s\"\n", text.c_str(), needle);
    fail();
  }
}

}  // namespace test
