// Dispatch keys and key sets: bit layout, table indices and priority
// against hand-written expectations (Note [Dispatch key set layout]).
#include "cmocka_cxx.h"
#include "core/tensor.h"
#include "dispatch/dispatch_key_extractor.h"
#include "dispatch/dispatch_key_set.h"

using namespace st;
using namespace st::dispatch;

static DispatchKeySet keys(std::initializer_list<DispatchKey> list) {
  DispatchKeySet ks;
  for (DispatchKey k : list) ks = ks | DispatchKeySet(k);
  return ks;
}

static void backend_bits_lie_below_functionality_bits(void**) {
  assert_int_equal(kNumBackends, 3);
  assert_int_equal(DispatchKeySet(BackendComponent::CPUBit).raw_repr(), 0x1);
  assert_int_equal(DispatchKeySet(BackendComponent::CUDABit).raw_repr(), 0x2);
  assert_int_equal(DispatchKeySet(BackendComponent::PrivateUse1Bit).raw_repr(), 0x4);
  assert_int_equal(DispatchKeySet(BackendComponent::InvalidBit).raw_repr(), 0);
  assert_int_equal(DispatchKeySet(DispatchKey::Dense).raw_repr(), 0x8);
  assert_int_equal(DispatchKeySet(DispatchKey::Tracing).raw_repr(), 0x10);
  // A runtime backend key is its functionality bit and its backend bit.
  assert_int_equal(DispatchKeySet(DispatchKey::CPU).raw_repr(), 0x8 | 0x1);
  assert_int_equal(DispatchKeySet(DispatchKey::CUDA).raw_repr(), 0x8 | 0x2);
  assert_int_equal(DispatchKeySet(DispatchKey::PrivateUse1).raw_repr(), 0x8 | 0x4);
  // Undefined and alias keys have no bits.
  assert_int_equal(DispatchKeySet(DispatchKey::Undefined).raw_repr(), 0);
  assert_int_equal(DispatchKeySet(DispatchKey::CompositeImplicit).raw_repr(), 0);
}

static void offsets_and_masks_match_the_hand_written_table(void**) {
  // functionality: Undefined, Dense (one entry per backend), Tracing
  const uint16_t offsets[] = {0, 1, 4};
  const uint64_t masks[] = {0, 0x7, 0};
  assert_int_equal(kNumFunctionalityKeys, 3);
  for (int f = 0; f < kNumFunctionalityKeys; ++f) {
    assert_int_equal(kFunctionalityOffsetsAndMasks[f].offset, offsets[f]);
    assert_int_equal(kFunctionalityOffsetsAndMasks[f].mask, masks[f]);
  }
  assert_int_equal(kDispatchTableSize, 5);
}

static void table_indices_match_the_hand_written_table(void**) {
  struct {
    DispatchKeySet ks;
    int index;
  } cases[] = {
      {DispatchKeySet(), 0},
      {keys({DispatchKey::CPU}), 1},
      {keys({DispatchKey::CUDA}), 2},
      {keys({DispatchKey::PrivateUse1}), 3},
      {keys({DispatchKey::CPU, DispatchKey::CUDA}), 2},
      {keys({DispatchKey::CPU, DispatchKey::PrivateUse1}), 3},
      {keys({DispatchKey::CPU, DispatchKey::CUDA, DispatchKey::PrivateUse1}), 3},
      {keys({DispatchKey::Tracing}), 4},
      {keys({DispatchKey::Tracing, DispatchKey::CPU}), 4},
      {keys({DispatchKey::Tracing, DispatchKey::CUDA, DispatchKey::PrivateUse1}), 4},
      // Backend bits without a functionality select nothing.
      {DispatchKeySet(BackendComponent::CUDABit), 0},
  };
  for (const auto& c : cases) {
    if (c.ks.table_index() != c.index) {
      print_error("%s: index %d, expected %d\n", to_string(c.ks).c_str(), c.ks.table_index(), c.index);
      fail();
    }
  }
  const DispatchKey runtime_keys[] = {DispatchKey::Undefined, DispatchKey::CPU, DispatchKey::CUDA,
                                      DispatchKey::PrivateUse1, DispatchKey::Tracing};
  for (int i = 0; i < kDispatchTableSize; ++i) assert_int_equal(runtime_key_of_table_index(i), runtime_keys[i]);
}

static void highest_priority_key_orders_functionality_then_backend(void**) {
  assert_int_equal(DispatchKeySet().highest_priority_key(), DispatchKey::Undefined);
  assert_int_equal(keys({DispatchKey::CPU}).highest_priority_key(), DispatchKey::CPU);
  assert_int_equal(keys({DispatchKey::CPU, DispatchKey::CUDA}).highest_priority_key(), DispatchKey::CUDA);
  assert_int_equal(keys({DispatchKey::PrivateUse1, DispatchKey::CUDA}).highest_priority_key(),
                   DispatchKey::PrivateUse1);
  assert_int_equal(keys({DispatchKey::Tracing, DispatchKey::CUDA}).highest_priority_key(), DispatchKey::Tracing);
  assert_int_equal(keys({DispatchKey::Dense}).highest_priority_key(), DispatchKey::Dense);
  assert_int_equal(keys({DispatchKey::Tracing, DispatchKey::CPU}).highest_functionality_key(), DispatchKey::Tracing);
  assert_int_equal(keys({DispatchKey::CPU, DispatchKey::CUDA}).highest_backend(), BackendComponent::CUDABit);
}

static void removal_keeps_backend_bits(void**) {
  const DispatchKeySet ks = keys({DispatchKey::Tracing, DispatchKey::CPU});
  assert_int_equal(ks.remove(DispatchKey::Tracing).raw_repr(), 0x8 | 0x1);
  // Removing CPU removes Dense; the CPU bit stays for other functionalities.
  assert_int_equal(ks.remove(DispatchKey::CPU).raw_repr(), 0x10 | 0x1);
  // Excluding CUDA excludes Dense, as in PyTorch; the CPU bit stays.
  assert_int_equal((ks - keys({DispatchKey::Tracing, DispatchKey::CUDA})).raw_repr(), 0x1);
  assert_true(ks.has(DispatchKey::CPU));
  assert_false(ks.has(DispatchKey::CUDA));
  assert_true(ks.has_backend(BackendComponent::CPUBit));
  assert_false(ks.has_backend(BackendComponent::CUDABit));
}

static void key_names(void**) {
  assert_string_equal(dispatch_key_name(DispatchKey::CPU), "CPU");
  assert_string_equal(dispatch_key_name(DispatchKey::CompositeImplicit), "CompositeImplicit");
  assert_string_equal(dispatch_key_name(static_cast<DispatchKey>(200)), "Unknown");
  assert_string_equal(to_string(keys({DispatchKey::Tracing, DispatchKey::CUDA})).c_str(),
                      "{Tracing, Dense, CUDABit}");
  assert_string_equal(to_string(DispatchKeySet()).c_str(), "{}");
}

static void registrable_keys(void**) {
  assert_true(is_registrable_key(DispatchKey::CPU));
  assert_true(is_registrable_key(DispatchKey::PrivateUse1));
  assert_true(is_registrable_key(DispatchKey::Tracing));
  assert_true(is_registrable_key(DispatchKey::CompositeImplicit));
  assert_false(is_registrable_key(DispatchKey::Undefined));
  assert_false(is_registrable_key(DispatchKey::Dense));
  assert_false(is_registrable_key(DispatchKey::StartOfDenseBackends));
  assert_false(is_registrable_key(DispatchKey::EndOfFunctionalityKeys));
}

static Tensor tensor_on(DeviceType type) {
  Storage storage = Storage::make(nullptr, 0, Device{type, 0}, MemoryRelease{});
  return Tensor::make(storage, DimVector{0}, DimVector{1}, 0, ScalarType::Float32);
}

static void tensor_keys_follow_the_device(void**) {
  assert_int_equal(keys_of_device(Device{DeviceType::CPU, 0}).raw_repr(), 0x9);
  assert_int_equal(keys_of_device(Device{DeviceType::CUDAHost, 0}).raw_repr(), 0x9);  // pinned host memory
  assert_int_equal(keys_of_device(Device{DeviceType::CUDA, 1}).raw_repr(), 0xA);
  const Tensor cpu = tensor_on(DeviceType::CPU), cuda = tensor_on(DeviceType::CUDA);
  // Tensor arguments count, and their keys are united; a Device argument
  // beside them does not count.
  assert_int_equal(keys_of_arguments(cpu, int64_t{7}, 2.5).raw_repr(), 0x9);
  assert_int_equal(keys_of_arguments(cpu, cuda).raw_repr(), 0xB);
  assert_int_equal(keys_of_arguments(cpu, Device{DeviceType::CUDA, 0}).raw_repr(), 0x9);
  assert_int_equal(keys_of_arguments(Tensor()).raw_repr(), 0);
  assert_int_equal(keys_of_arguments(Tensor(), Device{DeviceType::CUDA, 0}).raw_repr(), 0);
  // Without a tensor argument, the Device arguments count (a factory).
  assert_int_equal(keys_of_arguments(int64_t{1}, Device{DeviceType::CUDA, 0}).raw_repr(), 0xA);
  assert_int_equal(keys_of_arguments(Device{DeviceType::CUDAHost, 1}).raw_repr(), 0x9);
  assert_int_equal(keys_of_arguments(int64_t{1}, 2.5).raw_repr(), 0);
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(backend_bits_lie_below_functionality_bits),
      cmocka_unit_test(offsets_and_masks_match_the_hand_written_table),
      cmocka_unit_test(table_indices_match_the_hand_written_table),
      cmocka_unit_test(highest_priority_key_orders_functionality_then_backend),
      cmocka_unit_test(removal_keeps_backend_bits),
      cmocka_unit_test(key_names),
      cmocka_unit_test(registrable_keys),
      cmocka_unit_test(tensor_keys_follow_the_device),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
