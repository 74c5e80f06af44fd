// DimVector: sizes or strides of one tensor, stored inline. ndim is capped at
// ST_MAX_DIMS, so a fixed capacity serves every tensor and no metadata ever
// touches the heap. Copies move only the elements in use: a 2-d tensor's
// sizes are 16 bytes of a 200-byte array.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>

#include "stride.h"

namespace st {

constexpr int kMaxDims = ST_MAX_DIMS;

template <typename T, int N = kMaxDims>
class InlineVector {
 public:
  InlineVector() = default;
  InlineVector(int n, T value) : size_(n) {
    for (int i = 0; i < n; ++i) data_[i] = value;
  }
  InlineVector(const T* src, int n) : size_(n) {
    if (n > 0) std::memcpy(data_, src, sizeof(T) * static_cast<size_t>(n));
  }
  InlineVector(std::initializer_list<T> init) : size_(static_cast<int>(init.size())) {
    int i = 0;
    for (const T& v : init) data_[i++] = v;
  }
  InlineVector(const InlineVector& o) : size_(o.size_) { copy_elements(o); }
  InlineVector& operator=(const InlineVector& o) {
    if (this != &o) {
      size_ = o.size_;
      copy_elements(o);
    }
    return *this;
  }

  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  static constexpr int capacity() { return N; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](int i) { return data_[i]; }
  const T& operator[](int i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  void resize(int n, T value = T()) {
    for (int i = size_; i < n; ++i) data_[i] = value;
    size_ = n;
  }
  // n elements whose values the caller writes next (no fill, which for a
  // few dims costs more than the writes).
  void resize_for_overwrite(int n) { size_ = n; }
  // The n values at src, whatever was there.
  void assign_from(const T* src, int n) {
    for (int i = 0; i < n; ++i) data_[i] = src[i];
    size_ = n;
  }
  // n copies of value, whatever was there.
  void assign(int n, T value) {
    for (int i = 0; i < n; ++i) data_[i] = value;
    size_ = n;
  }
  void push_back(T v) { data_[size_++] = v; }
  void insert(int pos, T v) {
    for (int i = size_; i > pos; --i) data_[i] = data_[i - 1];
    data_[pos] = v;
    ++size_;
  }
  void erase(int pos) {
    for (int i = pos; i + 1 < size_; ++i) data_[i] = data_[i + 1];
    --size_;
  }

  friend bool operator==(const InlineVector& a, const InlineVector& b) {
    if (a.size_ != b.size_) return false;
    for (int i = 0; i < a.size_; ++i)
      if (!(a.data_[i] == b.data_[i])) return false;
    return true;
  }
  friend bool operator!=(const InlineVector& a, const InlineVector& b) { return !(a == b); }

 private:
  // In pairs: a plain element loop becomes a call to memmove, which costs
  // more than the copy for the usual 1 to 5 dims.
  void copy_elements(const InlineVector& o) {
    const int n = size_;
    int i = 0;
    for (; i + 2 <= n; i += 2) {
      const T a = o.data_[i], b = o.data_[i + 1];
      data_[i] = a;
      data_[i + 1] = b;
    }
    if (i < n) data_[i] = o.data_[i];
  }

  int size_ = 0;
  T data_[N];
};

using DimVector = InlineVector<int64_t>;

}  // namespace st
