// How the contiguous copy kernels split their range into 16-byte accesses:
// a few single elements (or bytes) at the head until both sides are
// aligned, whole vectors, then a short tail. Host code; the kernels take the
// plan as an argument, so these decisions are tested on the host.
//
// Note [Vectorized contiguous copies]
// A copy moves fastest when every thread issues 128-bit loads and stores
// (PyTorch's vectorized elementwise kernels do the same with aligned_vector).
// Both addresses of an access must then be 16-byte aligned, and the two
// sides advance in step, so a head of h elements can align both only when
// dst + h × dst_size and src + h × src_size are multiples of 16 for the same
// h. Memory from the allocator is 256-byte aligned, so contiguous tensors
// and most slices vectorize; memory a user wrapped at an odd address falls
// back to narrower words (same dtype) or the strided kernel (conversions).
#pragma once

#include <cstdint>

namespace st {
namespace cuda {

// A same-dtype contiguous copy moved as raw bytes: `head` single bytes,
// then `words` words of `word` bytes (dst and src both aligned to `word`
// there), then `tail` single bytes. head < word and tail < word.
struct BytesPlan {
  int word;
  int64_t head;
  int64_t words;
  int64_t tail;
};

// The widest word (16, 8, 4, 2 or 1 bytes) at which dst and src sit at the
// same offset, so that one head brings both to a word boundary.
inline BytesPlan plan_copy_bytes(uintptr_t dst, uintptr_t src, int64_t nbytes) {
  int word = 16;
  while (word > 1 && (dst - src) % static_cast<uintptr_t>(word) != 0) word /= 2;
  const uintptr_t misalign = dst % static_cast<uintptr_t>(word);
  int64_t head = misalign == 0 ? 0 : static_cast<int64_t>(static_cast<uintptr_t>(word) - misalign);
  if (head > nbytes) head = nbytes;
  const int64_t words = (nbytes - head) / word;
  return BytesPlan{word, head, words, nbytes - head - words * word};
}

// A converting contiguous copy: `head` elements one by one, `vectors`
// groups of `vec` elements moved in 16-byte chunks on both sides, then
// `tail` elements. vec == 0 when no head aligns both sides (then nothing
// is vectorized and the caller uses the strided kernel).
struct VectorPlan {
  int vec;
  int64_t head;
  int64_t vectors;
  int64_t tail;
};

// Elements per vector for a (dst, src) pair of element sizes: 16 bytes of
// the narrower side, so that side is one 128-bit access and the wider side
// a whole number of them.
constexpr int vector_elements(int dst_size, int src_size) { return 16 / (dst_size < src_size ? dst_size : src_size); }

inline VectorPlan plan_vectorized(uintptr_t dst, uintptr_t src, int dst_size, int src_size, int64_t numel) {
  const int vec = vector_elements(dst_size, src_size);
  for (int h = 0; h < vec; ++h) {
    const uintptr_t d = dst + static_cast<uintptr_t>(h) * static_cast<uintptr_t>(dst_size);
    const uintptr_t s = src + static_cast<uintptr_t>(h) * static_cast<uintptr_t>(src_size);
    if (d % 16 != 0 || s % 16 != 0) continue;
    const int64_t head = h < numel ? h : numel;
    const int64_t vectors = (numel - head) / vec;
    return VectorPlan{vec, head, vectors, numel - head - vectors * vec};
  }
  return VectorPlan{0, 0, 0, numel};
}

}  // namespace cuda
}  // namespace st
