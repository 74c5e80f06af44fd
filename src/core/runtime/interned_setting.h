// A process-wide setting that threads read without a lock while another
// thread may replace it (the CPU allocator, the host's job system).
//
// Each installed value is interned in a list that is never freed: a reader
// that loaded the pointer may still be using the record when a new one is
// installed, so no record may die. Installing an equal value again reuses
// its record, so there are as many records as distinct values ever
// installed.
#pragma once

#include <atomic>
#include <deque>
#include <mutex>

namespace st {

template <typename T>
class InternedSetting {
 public:
  // The current value, or NULL when none is installed.
  const T* get() const { return current_.load(std::memory_order_acquire); }

  // Installs a copy of `value`; NULL uninstalls. `same(a, b)` says whether
  // two values are one.
  template <typename Same>
  void set(const T* value, Same same) {
    if (!value) {
      current_.store(nullptr, std::memory_order_release);
      return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (!records_) records_ = new std::deque<T>();  // never freed: see above
    const T* found = nullptr;
    for (const T& r : *records_) {
      if (same(r, *value)) found = &r;
    }
    if (!found) {
      records_->push_back(*value);
      found = &records_->back();
    }
    current_.store(found, std::memory_order_release);
  }

 private:
  std::atomic<const T*> current_{nullptr};
  std::mutex mutex_;
  std::deque<T>* records_ = nullptr;
};

}  // namespace st
