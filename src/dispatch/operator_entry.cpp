#include "dispatch/operator_entry.h"

#include <algorithm>
#include <cstring>

#include "core/error.h"
#include "dispatch/local_dispatch_key_set.h"

namespace st {
namespace dispatch {

std::atomic<uint64_t> g_dispatch_epoch{0};

OperatorEntry::OperatorEntry(std::string name) : name_(std::move(name)) {
  for (auto& entry : table_) entry.store(nullptr, std::memory_order_relaxed);
}

const char* OperatorEntry::schema() const {
  const char* s = schema_.load(std::memory_order_acquire);
  return s ? s : "";
}

std::vector<DispatchKey> OperatorEntry::registered_keys() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<DispatchKey> keys;
  for (int k = 0; k < kNumDispatchKeys; ++k) {
    if (!kernels_[k].empty()) keys.push_back(static_cast<DispatchKey>(k));
  }
  return keys;
}

void OperatorEntry::define(const char* schema, KernelFunction tracing) {
  std::lock_guard<std::mutex> lock(mutex_);
  ST_CHECK(!defined(), ST_ERROR_INVALID_ARGUMENT, "operator %s is defined twice: \"%s\" and \"%s\"", name_.c_str(),
           schema_.load(std::memory_order_relaxed), schema);
  const size_t n = name_.size();
  ST_CHECK(std::strncmp(schema, name_.c_str(), n) == 0 && schema[n] == '(', ST_ERROR_INVALID_ARGUMENT,
           "the schema \"%s\" of operator %s must start with \"%s(\"", schema, name_.c_str(), name_.c_str());
  ST_CHECK(tracing.valid(), ST_ERROR_INVALID_ARGUMENT, "operator %s needs a tracing kernel", name_.c_str());
  for (int k = 0; k < kNumDispatchKeys; ++k) {
    for (const Registration& r : kernels_[k]) {
      ST_CHECK(r.kernel.signature() == tracing.signature(), ST_ERROR_INVALID_ARGUMENT,
               "operator %s is defined as %s, but its %s kernel is %s", name_.c_str(),
               tracing.signature_text().c_str(), dispatch_key_name(static_cast<DispatchKey>(k)),
               r.kernel.signature_text().c_str());
    }
  }
  tracing_kernel_ = tracing;
  signature_.store(tracing.signature(), std::memory_order_release);
  schema_.store(schema, std::memory_order_release);
  update_dispatch_table();
}

void OperatorEntry::check_signature(DispatchKey key, const KernelFunction& kernel) const {
  ST_CHECK(kernel.valid(), ST_ERROR_INVALID_ARGUMENT, "the %s kernel of operator %s is null",
           dispatch_key_name(key), name_.c_str());
  // Before the definition, the kernels registered so far stand for it.
  KernelFunction expected = tracing_kernel_;
  for (int k = 0; !expected.valid() && k < kNumDispatchKeys; ++k) {
    if (!kernels_[k].empty()) expected = kernels_[k].front().kernel;
  }
  ST_CHECK(!expected.valid() || expected.signature() == kernel.signature(), ST_ERROR_INVALID_ARGUMENT,
           "the %s kernel of operator %s has signature %s, but the operator's is %s", dispatch_key_name(key),
           name_.c_str(), kernel.signature_text().c_str(), expected.signature_text().c_str());
}

uint64_t OperatorEntry::add_kernel(DispatchKey key, KernelFunction kernel) {
  ST_CHECK(is_registrable_key(key), ST_ERROR_INVALID_ARGUMENT,
           "cannot register a kernel of operator %s for dispatch key %s: use a backend (CPU, CUDA, PrivateUse1), "
           "Tracing or CompositeImplicit",
           name_.c_str(), dispatch_key_name(key));
  std::lock_guard<std::mutex> lock(mutex_);
  check_signature(key, kernel);
  const uint64_t id = next_id_++;
  kernels_[static_cast<int>(key)].push_back(Registration{id, kernel});
  update_dispatch_table();
  return id;
}

void OperatorEntry::remove_kernel(DispatchKey key, uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Registration>& list = kernels_[static_cast<int>(key)];
  auto it = std::find_if(list.begin(), list.end(), [id](const Registration& r) { return r.id == id; });
  if (it == list.end()) return;  // removed already
  list.erase(it);
  update_dispatch_table();
}

KernelFunction OperatorEntry::compute_table_entry(int index) const {
  const DispatchKey key = runtime_key_of_table_index(index);
  const std::vector<Registration>& own = kernels_[static_cast<int>(key)];
  if (key != DispatchKey::Undefined && !own.empty()) return own.back().kernel;
  if (key == DispatchKey::Undefined || is_runtime_backend_key(key)) {
    const std::vector<Registration>& composite = kernels_[static_cast<int>(DispatchKey::CompositeImplicit)];
    return composite.empty() ? KernelFunction() : composite.back().kernel;
  }
  return tracing_kernel_;  // the Tracing entry: none until the operator is defined
}

void OperatorEntry::update_dispatch_table() {
  for (int i = 0; i < kDispatchTableSize; ++i) {
    table_[i].store(compute_table_entry(i).erased(), std::memory_order_release);
  }
  bump_dispatch_epoch();
}

ErasedKernelFn OperatorEntry::fill_call_cache(DispatchKeySet arg_keys, uint64_t epoch, DispatchKeySet* keys) const {
  // The cache is indexed by the backend bits alone: tensor arguments must
  // contribute nothing but Dense with their backends.
  const uint64_t backends = arg_keys.raw_repr() & kFullBackendMask;
  ST_CHECK(arg_keys == (backends ? DispatchKeySet(DispatchKey::Dense) | DispatchKeySet(DispatchKeySet::RAW, backends)
                                 : DispatchKeySet()),
           ST_ERROR_INTERNAL, "operator %s: arguments with keys %s cannot be cached", name_.c_str(),
           to_string(arg_keys).c_str());
  *keys = compute_dispatch_key_set(arg_keys);
  const ErasedKernelFn fn = lookup(*keys);
  CachedCall& entry = call_cache_[backends];
  entry.kernel.store(fn, std::memory_order_relaxed);
  entry.keys.store(keys->raw_repr(), std::memory_order_relaxed);
  entry.epoch.store(epoch, std::memory_order_release);
  return fn;
}

void OperatorEntry::report_missing_kernel(DispatchKeySet keys) const {
  std::string have;
  for (DispatchKey k : registered_keys()) {
    have += have.empty() ? "" : ", ";
    have += dispatch_key_name(k);
  }
  const DispatchKey key = keys.highest_priority_key();
  fail(ST_ERROR_NOT_IMPLEMENTED, "operator %s has no kernel for dispatch key %s (call keys %s); %s%s", name_.c_str(),
       dispatch_key_name(key), to_string(keys).c_str(), have.empty() ? "it has no kernels" : "it has kernels for ",
       have.c_str());
}

}  // namespace dispatch
}  // namespace st
