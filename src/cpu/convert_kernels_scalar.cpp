// Portable row converters: the fallback on every machine, and the level the
// tests force to check the vector ones against.
#include <cstring>

#include "cpu/convert_kernel_table.h"
#include "cpu/convert_rules.h"

namespace st {
namespace cpu {
namespace {

template <typename To, typename From, To (*F)(From)>
void row(char* dst, const char* src, int64_t n, bool /*nt*/) {
  for (int64_t i = 0; i < n; ++i) {
    From v;
    std::memcpy(&v, src + i * static_cast<int64_t>(sizeof(From)), sizeof(From));
    const To r = F(v);
    std::memcpy(dst + i * static_cast<int64_t>(sizeof(To)), &r, sizeof(To));
  }
}

float u8_to_float(uint8_t v) { return static_cast<float>(v); }

const ConvertKernelTable kTable = {
    "scalar",
    {
        row<uint16_t, float, float_to_half_bits>,
        row<uint16_t, float, float_to_bfloat16_bits>,
        row<double, int64_t, int64_to_double>,
        row<float, uint8_t, u8_to_float>,
        row<float, uint16_t, half_bits_to_float>,
        row<float, uint16_t, bfloat16_bits_to_float>,
    },
    nullptr,
};

}  // namespace

const ConvertKernelTable& scalar_convert_kernels() { return kTable; }

}  // namespace cpu
}  // namespace st
