// A minimal intrusive reference-counted pointer (as c10::intrusive_ptr):
// one allocation per object and one atomic per copy. T derives from
// RefCounted and is deleted through its own type, or through a static
// T::destroy(T*) when T has one (objects that share one allocation with
// others).
//
// Note [Sole owner skips the atomic]
// A count can only grow through a copy of a reference someone holds. So
// the holder of a reference that reads the count as 1 (with acquire, which
// orders every earlier release by other holders before it) is the last
// one, no other thread can touch the count any more, and it destroys the
// object without the read-modify-write. make() likewise starts the count
// at 1 with a plain store: nobody else can see the object yet. Both save
// one locked instruction (tens of cycles) on every short-lived object.
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

 private:
  template <typename T>
  friend class IntrusivePtr;
  mutable std::atomic<int64_t> refcount_{0};
};

template <typename T>
class IntrusivePtr {
 public:
  IntrusivePtr() = default;
  IntrusivePtr(const IntrusivePtr& o) : p_(o.p_) { retain(); }
  IntrusivePtr(IntrusivePtr&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  ~IntrusivePtr() { release(); }
  IntrusivePtr& operator=(IntrusivePtr o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }

  template <typename... Args>
  static IntrusivePtr make(Args&&... args) {
    return adopt_new(new T(std::forward<Args>(args)...));
  }
  // Takes the first reference to a freshly built object that nobody else
  // can see yet (see Note [Sole owner skips the atomic]).
  static IntrusivePtr adopt_new(T* p) {
    p->refcount_.store(1, std::memory_order_relaxed);
    IntrusivePtr r;
    r.p_ = p;
    return r;
  }

  T* get() const { return p_; }
  T* operator->() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }
  void reset() { IntrusivePtr().swap(*this); }
  void swap(IntrusivePtr& o) noexcept { std::swap(p_, o.p_); }

 private:
  void retain() {
    if (p_) p_->refcount_.fetch_add(1, std::memory_order_relaxed);
  }
  template <typename U>
  static auto destroy(U* p, int) -> decltype(U::destroy(p)) {
    return U::destroy(p);
  }
  template <typename U>
  static void destroy(U* p, long) {
    delete p;
  }
  void release() {
    if (p_ && (p_->refcount_.load(std::memory_order_acquire) == 1 ||
               p_->refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1)) {
      destroy(p_, 0);
    }
    p_ = nullptr;
  }
  T* p_ = nullptr;
};

}  // namespace st
