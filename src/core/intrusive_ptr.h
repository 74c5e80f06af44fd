// A minimal intrusive reference-counted pointer (as c10::intrusive_ptr):
// one allocation per object and one atomic per copy. T derives from
// RefCounted and is deleted through its own type.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace st {

class RefCounted {
 public:
  RefCounted() = default;
  RefCounted(const RefCounted&) = delete;
  RefCounted& operator=(const RefCounted&) = delete;
  int64_t use_count() const { return refcount_.load(std::memory_order_acquire); }

 private:
  template <typename T>
  friend class IntrusivePtr;
  mutable std::atomic<int64_t> refcount_{0};
};

template <typename T>
class IntrusivePtr {
 public:
  IntrusivePtr() = default;
  explicit IntrusivePtr(T* p) : p_(p) { retain(); }
  IntrusivePtr(const IntrusivePtr& o) : p_(o.p_) { retain(); }
  IntrusivePtr(IntrusivePtr&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  ~IntrusivePtr() { release(); }
  IntrusivePtr& operator=(IntrusivePtr o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }

  template <typename... Args>
  static IntrusivePtr make(Args&&... args) {
    return IntrusivePtr(new T(std::forward<Args>(args)...));
  }

  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  void reset() { IntrusivePtr().swap(*this); }
  void swap(IntrusivePtr& o) noexcept { std::swap(p_, o.p_); }

  // Hands the reference to the caller, who later rebuilds it with adopt().
  T* release_to_raw() {
    T* p = p_;
    p_ = nullptr;
    return p;
  }
  static IntrusivePtr adopt(T* p) {
    IntrusivePtr r;
    r.p_ = p;
    return r;
  }

 private:
  void retain() {
    if (p_) p_->refcount_.fetch_add(1, std::memory_order_relaxed);
  }
  void release() {
    if (p_ && p_->refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete p_;
    p_ = nullptr;
  }
  T* p_ = nullptr;
};

}  // namespace st
