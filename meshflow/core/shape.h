// Copyright 2026 The meshflow Authors.
// Shapes and boxes (axis-aligned regions of an N-d index space). Value types.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace mf {

// A shape (or any short list of dims or coordinates): std::vector<int64_t>'s interface, but
// up to kInline dims live inside the object. Dispatching one op copies shapes a few dozen
// times (metadata, boxes, plans, pending outputs); a heap allocation for each was most of
// the cost of a call on a small tensor. Longer shapes spill to the heap.
class Shape {
 public:
  static constexpr size_t kInline = 6;
  using value_type = int64_t;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = int64_t&;
  using const_reference = const int64_t&;
  using pointer = int64_t*;
  using const_pointer = const int64_t*;
  using iterator = int64_t*;
  using const_iterator = const int64_t*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  Shape() = default;
  explicit Shape(size_t n) { resize(n, 0); }
  Shape(size_t n, int64_t value) { resize(n, value); }
  Shape(std::initializer_list<int64_t> values) { assign(values.begin(), values.end()); }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  Shape(It first, It last) {
    assign(first, last);
  }
  Shape(const std::vector<int64_t>& values) { assign(values.begin(), values.end()); }  // NOLINT: implicit
  Shape(const Shape& o) { assign(o.begin(), o.end()); }
  Shape(Shape&& o) noexcept { take(o); }
  Shape& operator=(const Shape& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  Shape& operator=(Shape&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  Shape& operator=(std::initializer_list<int64_t> values) {
    assign(values.begin(), values.end());
    return *this;
  }
  ~Shape() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return cap_; }
  int64_t* data() { return ptr_; }
  const int64_t* data() const { return ptr_; }
  int64_t& operator[](size_t i) { return ptr_[i]; }
  const int64_t& operator[](size_t i) const { return ptr_[i]; }
  int64_t& at(size_t i) { return ptr_[checked(i)]; }
  const int64_t& at(size_t i) const { return ptr_[checked(i)]; }
  int64_t& front() { return ptr_[0]; }
  const int64_t& front() const { return ptr_[0]; }
  int64_t& back() { return ptr_[size_ - 1]; }
  const int64_t& back() const { return ptr_[size_ - 1]; }
  iterator begin() { return ptr_; }
  iterator end() { return ptr_ + size_; }
  const_iterator begin() const { return ptr_; }
  const_iterator end() const { return ptr_ + size_; }
  const_iterator cbegin() const { return ptr_; }
  const_iterator cend() const { return ptr_ + size_; }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

  void reserve(size_t n) {
    if (n <= cap_) return;
    auto* grown = new int64_t[n];
    if (size_) std::memcpy(grown, ptr_, size_ * sizeof(int64_t));
    release();
    ptr_ = grown;
    cap_ = n;
  }
  void resize(size_t n, int64_t value = 0) {
    reserve(n);
    for (size_t i = size_; i < n; ++i) ptr_[i] = value;
    size_ = n;
  }
  void clear() { size_ = 0; }
  void push_back(int64_t v) {
    if (size_ == cap_) reserve(cap_ * 2);
    ptr_[size_++] = v;
  }
  int64_t& emplace_back(int64_t v) {
    push_back(v);
    return back();
  }
  void pop_back() { --size_; }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  void assign(It first, It last) {
    const auto n = static_cast<size_t>(std::distance(first, last));
    size_ = 0;
    reserve(n);
    std::copy(first, last, ptr_);
    size_ = n;
  }
  void assign(size_t n, int64_t value) {
    size_ = 0;
    resize(n, value);
  }
  iterator insert(const_iterator pos, int64_t v) { return insert(pos, size_t{1}, v); }
  iterator insert(const_iterator pos, size_t n, int64_t v) {
    const size_t at = static_cast<size_t>(pos - ptr_);
    make_gap(at, n);
    std::fill(ptr_ + at, ptr_ + at + n, v);
    return ptr_ + at;
  }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  iterator insert(const_iterator pos, It first, It last) {
    const Shape values(first, last);  // `first` may point into this shape
    const size_t at = static_cast<size_t>(pos - ptr_);
    make_gap(at, values.size());
    std::copy(values.begin(), values.end(), ptr_ + at);
    return ptr_ + at;
  }
  iterator insert(const_iterator pos, std::initializer_list<int64_t> values) {
    return insert(pos, values.begin(), values.end());
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const size_t at = static_cast<size_t>(first - ptr_);
    const size_t n = static_cast<size_t>(last - first);
    std::copy(ptr_ + at + n, ptr_ + size_, ptr_ + at);
    size_ -= n;
    return ptr_ + at;
  }
  void swap(Shape& o) noexcept {
    Shape t(std::move(o));
    o = std::move(*this);
    *this = std::move(t);
  }

  std::vector<int64_t> vec() const { return {begin(), end()}; }
  operator std::vector<int64_t>() const { return vec(); }  // NOLINT: implicit, as the vector it replaces

  friend bool operator==(const Shape& a, const Shape& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }
  friend bool operator<(const Shape& a, const Shape& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  size_t checked(size_t i) const;
  void release() {
    if (ptr_ != inline_) delete[] ptr_;
    ptr_ = inline_;
    cap_ = kInline;
  }
  // Steals o's heap block, or copies its inline dims; leaves o empty.
  void take(Shape& o) {
    if (o.ptr_ == o.inline_) {
      std::memcpy(inline_, o.inline_, o.size_ * sizeof(int64_t));
    } else {
      ptr_ = o.ptr_;
      cap_ = o.cap_;
      o.ptr_ = o.inline_;
      o.cap_ = kInline;
    }
    size_ = o.size_;
    o.size_ = 0;
  }
  void make_gap(size_t at, size_t n) {
    if (size_ + n > cap_) reserve(std::max(size_ + n, cap_ * 2));
    std::copy_backward(ptr_ + at, ptr_ + size_, ptr_ + size_ + n);
    size_ += n;
  }

  int64_t* ptr_ = inline_;
  size_t size_ = 0;
  size_t cap_ = kInline;
  int64_t inline_[kInline];
};

// The product of the dims. Throws std::invalid_argument naming the shape when it overflows
// int64, so no size computed from a shape wraps (a wrapped count would allocate too little).
int64_t numel(const Shape& shape);
// numel(shape) * element_size, checked the same way.
int64_t checked_nbytes(const Shape& shape, size_t element_size);
// Elements between consecutive indices of each dim in row-major order.
Shape row_major_strides(const Shape& shape);
std::string to_string(const Shape& shape);  // "[2, 3]"

// A region [start, start + extent) of an N-d index space. Invariant: start.size() ==
// extent.size() and every extent >= 0.
struct Box {
  Shape start;
  Shape extent;

  static Box whole(const Shape& shape) { return {Shape(shape.size(), 0), shape}; }
  int64_t numel() const { return mf::numel(extent); }
  bool empty() const { return numel() == 0; }
  bool operator==(const Box& o) const { return start == o.start && extent == o.extent; }
  bool operator!=(const Box& o) const { return !(*this == o); }
  std::string str() const;
};

// The common region of a and b (extent 0 somewhere when they do not overlap).
Box intersect(const Box& a, const Box& b);
// `inner` expressed in the coordinates of `outer`'s start. Requires inner inside outer.
Box relative_to(const Box& inner, const Box& outer);
// When `box` (inside a row-major tensor of `shape`) is one contiguous run of memory,
// returns its first element's offset; otherwise -1. Empty boxes count as contiguous.
int64_t contiguous_offset(const Box& box, const Shape& shape);
// `box` (inside a row-major tensor of `shape`) as contiguous runs of memory, in memory
// order: (offset of the first element, elements) each; none for an empty box.
std::vector<std::pair<int64_t, int64_t>> contiguous_runs(const Box& box, const Shape& shape);

}  // namespace mf
