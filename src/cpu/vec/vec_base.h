// The vector traits the CPU kernels are written over. copy_kernels.inl,
// convert_kernels.inl and scaled_rows.inl take one level's struct as V and
// are compiled once per level (copy_kernels_<level>.cpp, ..., each built
// with its level's flags), as ATen's CPU_CAPABILITY builds are. The
// levels: vec_scalar.h (portable), vec_avx2.h, vec_avx512.h (x86-64) and
// vec_neon.h (AArch64).
//
// Every level provides
//   kName, kBytes            its name (as cpu_isa_name) and vector width
//   Vec, load, store, zero   unaligned vectors of kBytes bytes
//   stream, fence            stores past the caches, and the fence after them
//   Mask, mask(n), store_part   the first n bytes (clamped to 0..kBytes) of a vector
//   copy_small(d, s, n)      a copy of n <= 64 bytes
//   splat8(v), splat16(p)    a qword or 16 bytes repeated over a vector
//   reverse<E>, every_second<E>   element shuffles for the gathers
// and what its capability flags say it has (VecBase: none; the kernels
// test them with `if constexpr`, so a level defines nothing it lacks):
//   kStream         streaming stores pay off (else contiguous copies are memcpy)
//   kMasked         one-instruction masked loads: load_part, load_half(_part),
//                   load_quarter(_part); partial tiles and conversion tails use them
//   kGather         can_gather<E>(step), gather_index<E>(step), gather<E>(p, index)
//   kRegisterTiles  tile transposes in registers: unpack{lo,hi}{32,64} within
//                   16-byte lanes, transpose_lanes, zip2_epi16, zip4_epi8,
//                   load_half, load_quarter
//   kSmallPermute   deinterleave_permute(n), interleave_permute(n): tiny dims
//   kConvert        the conversions of convert_kernels.inl's pairs, and the
//                   float32 arithmetic of scaled_rows.inl: splat_f32, f32_fma,
//                   f32_min/max, f32_to_i32_nearest_clamped, pack_i32_i8, and
//                   Bytes16, channels16, quarter_of16 for 3-channel pixels;
//                   16-bit words: widen_u8_u16, sll16<n>, lo_half, hi_half,
//                   f16_to_f32_quieting (float16 words of a half vector to
//                   float32, a signalling NaN quieted)
//   kConvertU64ToF32  u64_to_f32 too (one rounding from 64 bits)
//   kWordTable      lookup128_u16(table, w): a 128-word table looked up by
//                   the low 7 bits of each word
//   kWordTable16    lookup16_u16(table, w): a table of 16 words (Words16)
//                   looked up by each word of w below 16 (any word for one
//                   from 16 to 127), by byte shuffles
//   kBlockScale     the block-scaled formats' steps (cpu/levels/block_vector.h):
//                   sub32, add_one32(m, v) (v + 1 in m's lanes: a count of
//                   compares), max_u32, hmax_u32 (the largest dword), hmax_u32_each
//                   (of kBytes / 4 vectors, each one's largest dword),
//                   pack_u16_u8(a, b) (the words' low bytes, a's then b's),
//                   pack_u32_u8 (of kConvert), srl64<n>,
//                   sll64<n>, lookup8_u32(table, idx) (dword idx & 7 of
//                   eight), lookup16_u32(table, idx) (dword idx & 15 of
//                   sixteen), lookup_u32(table, idx) (dword idx of any table),
//                   widen_u8_u64(p) and widen_u8_u32(p) (kBytes / 8 or
//                   kBytes / 4 bytes, one a lane), store_u8_of_u64,
//                   store_u8_of_u32, store_u16_of_u32 (each lane's low
//                   byte or word), store_half
//   kBf16Store      store_bf16(p, v): kBytes / 4 float32 lanes rounded to
//                   bfloat16, nearest even, by one instruction; the lanes
//                   must be normal, zero, infinite or the quiet NaN (it
//                   takes a subnormal as zero)
// Everything is in an unnamed namespace: each level's file has its own copy.
#pragma once

#include <cstdint>
#include <cstring>

namespace st {
namespace cpu {
namespace {

struct VecBase {
  static constexpr bool kStream = false, kMasked = false, kGather = false;
  static constexpr bool kRegisterTiles = false, kSmallPermute = false, kConvert = false;
  static constexpr bool kConvertU64ToF32 = false, kWordTable = false, kWordTable16 = false;
  static constexpr bool kBlockScale = false, kBf16Store = false;
};

// The table of lookup16_u16.
struct Words16 {
  uint16_t at[16];
};

// Parts for levels without masks: a byte count, and memcpy.
template <int64_t kBytes>
struct BytewiseParts {
  using Mask = int64_t;
  static Mask mask(int64_t n) { return n < 0 ? 0 : n > kBytes ? kBytes : n; }
  template <typename Vec>
  static void store_part(char* p, const Vec& v, Mask m) {
    std::memcpy(p, &v, static_cast<size_t>(m));
  }
  static void copy_small(char* d, const char* s, int64_t n) { std::memcpy(d, s, static_cast<size_t>(n)); }
};

}  // namespace
}  // namespace cpu
}  // namespace st
