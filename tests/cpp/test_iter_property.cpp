// Property tests of TensorIterator: thousands of random (out, in) layouts —
// 1 to 6 dims, sizes 0 to 7, permutations, stepped slices, flips, expands,
// broadcasts, channels-last — copied with for_each and a plain byte-copy
// loop, then compared byte for byte with a reference multi-index walk, on
// one thread and on two. Set ST_TEST_SEED to replay; a failure prints it.
#include <algorithm>
#include <cstdlib>

#include "core/dims.h"
#include "core/runtime/thread_count.h"
#include "iter_testing.h"

using namespace testing;
using st::TensorIterator;

namespace {

constexpr int kCases = 3000;

uint64_t base_seed() {
  const char* env = std::getenv("ST_TEST_SEED");
  return env ? std::strtoull(env, nullptr, 10) : 20240611ull;
}

int pick(std::mt19937_64& rng, int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); }

// Two dtypes of one itemsize, so a byte copy is an element copy.
void pick_dtypes(std::mt19937_64& rng, ScalarType* out, ScalarType* in) {
  static const ScalarType groups[][2] = {{ScalarType::UInt8, ScalarType::Int8},
                                         {ScalarType::Int16, ScalarType::Float16},
                                         {ScalarType::Int32, ScalarType::Float32},
                                         {ScalarType::Int64, ScalarType::Float64},
                                         {ScalarType::Complex128, ScalarType::Complex128}};
  const auto& g = groups[pick(rng, 5)];
  *out = g[pick(rng, 2)];
  *in = g[pick(rng, 2)];
}

// A view with the given sizes over a fresh storage, in a random layout:
// dims stored in a random (or channels-last) order, sliced with steps and
// offsets, some flipped; with allow_expand, some dims are stride-0 expands.
Tensor random_layout(std::mt19937_64& rng, const DimVector& sizes, ScalarType dtype, bool allow_expand) {
  const int nd = sizes.size();
  st::InlineVector<int> perm(nd, 0);  // base dim i holds view dim perm[i]
  for (int i = 0; i < nd; ++i) perm[i] = i;
  const int kind = pick(rng, 10);
  if (kind >= 8 && (nd == 4 || nd == 5)) {
    for (int i = 1; i < nd - 1; ++i) perm[i] = i + 1;  // N, spatial..., C
    perm[nd - 1] = 1;
  } else if (kind >= 4) {
    std::shuffle(perm.begin(), perm.end(), rng);
  }
  DimVector step(nd, 1), pad(nd, 0), base_sizes(nd, 0);
  bool expanded[st::kMaxDims] = {};
  for (int j = 0; j < nd; ++j) {
    if (pick(rng, 4) == 0) step[j] = 1 + pick(rng, 3);
    if (pick(rng, 4) == 0) pad[j] = pick(rng, 3);
    expanded[j] = allow_expand && sizes[j] > 1 && pick(rng, 5) == 0;
  }
  for (int i = 0; i < nd; ++i) {
    const int j = perm[i];
    base_sizes[i] = expanded[j] ? 1 : (sizes[j] > 0 ? (sizes[j] - 1) * step[j] + 1 : 0) + pad[j];
  }
  Tensor base = contiguous_tensor(base_sizes, dtype);
  fill_random_bytes(base, rng);
  st::InlineVector<int32_t> inverse(nd, 0);
  for (int i = 0; i < nd; ++i) inverse[perm[i]] = i;
  Tensor v = st::permute(base, inverse);
  for (int j = 0; j < nd; ++j) {
    if (expanded[j]) continue;
    const int64_t start = pad[j] > 0 ? pick(rng, static_cast<int>(pad[j]) + 1) : 0;
    const int64_t stop = sizes[j] > 0 ? start + (sizes[j] - 1) * step[j] + 1 : start;
    v = st::slice(v, j, start, stop, step[j]);
  }
  for (int j = 0; j < nd; ++j) {
    if (pick(rng, 4) == 0) v = st::flip(v, j);
  }
  bool any_expanded = false;
  for (int j = 0; j < nd; ++j) any_expanded = any_expanded || expanded[j];
  if (any_expanded) v = st::expand(v, sizes);
  return v;
}

DimVector random_sizes(std::mt19937_64& rng) {
  const int nd = 1 + pick(rng, 6);
  DimVector sizes(nd, 1);
  for (int d = 0; d < nd; ++d) {
    int64_t s = pick(rng, 8);
    if (s == 0 && pick(rng, 4) != 0) s = 1 + pick(rng, 7);  // empty tensors now and then
    sizes[d] = s;
  }
  // Keep each case small: shrink the largest dim until under 3000 elements.
  for (;;) {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    if (n <= 3000) break;
    *std::max_element(sizes.begin(), sizes.end()) -= 1;
  }
  return sizes;
}

struct Case {
  Tensor out;
  Tensor in;
  int64_t grain;
};

Case make_case(uint64_t seed) {
  std::mt19937_64 rng(seed);
  ScalarType out_dtype, in_dtype;
  pick_dtypes(rng, &out_dtype, &in_dtype);
  const DimVector out_sizes = random_sizes(rng);
  const int nd = out_sizes.size();
  const int lead = pick(rng, 3) == 0 ? pick(rng, nd + 1) : 0;
  DimVector in_sizes(nd - lead, 1);
  for (int j = 0; j < in_sizes.size(); ++j) in_sizes[j] = pick(rng, 5) == 0 ? 1 : out_sizes[j + lead];
  Case c;
  c.out = random_layout(rng, out_sizes, out_dtype, false);
  c.in = random_layout(rng, in_sizes, in_dtype, true);
  static const int64_t grains[] = {1, 5, 64, 32768};
  c.grain = grains[pick(rng, 4)];
  return c;
}

void run_case(uint64_t seed, int threads) {
  Case c = make_case(seed);
  st::set_num_threads(threads);
  const Tensor& out = c.out;
  const TensorIterator iter = TensorIterator::copy(out, c.in);
  const std::vector<unsigned char> expected = expected_after_copy(out, c.in, snapshot(out));
  iter.for_each(ByteCopyLoop{out.itemsize()}, c.grain);
  const std::vector<unsigned char> got = snapshot(out);
  if (got != expected || iter.numel() != out.numel() || iter.ndim() > (out.ndim() > 0 ? out.ndim() : 1)) {
    size_t at = 0;
    while (at < got.size() && got[at] == expected[at]) ++at;
    print_error(
        "seed %llu (%d threads, grain %lld): out %s, in %s; iterator shape %s, strides %s / %s; first wrong byte "
        "%zu of %zu\n",
        static_cast<unsigned long long>(seed), threads, static_cast<long long>(c.grain), describe(out).c_str(),
        describe(c.in).c_str(), st::format_dims(iter.shape()).c_str(), st::format_dims(iter.strides(0)).c_str(),
        st::format_dims(iter.strides(1)).c_str(), at, got.size());
    fail();
  }
}

void random_copies(int threads) {
  const int saved = st::num_threads();
  const uint64_t seed = base_seed();
  for (int i = 0; i < kCases; ++i) run_case(seed + static_cast<uint64_t>(i), threads);
  st::set_num_threads(saved);
}

}  // namespace

static void random_copies_on_one_thread(void**) { random_copies(1); }
static void random_copies_on_two_threads(void**) { random_copies(2); }

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(random_copies_on_one_thread),
      cmocka_unit_test(random_copies_on_two_threads),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
