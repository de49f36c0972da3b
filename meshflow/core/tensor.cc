// Copyright 2026 The meshflow Authors.
#include "meshflow/core/tensor.h"

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <type_traits>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "meshflow/core/allocator.h"
#include "meshflow/core/error.h"
#include "meshflow/core/loops.h"

namespace mf {
namespace {

// One condition variable for every storage: waiting for a pending tensor is rare (the
// user's thread reading a value), producing one is frequent, so producers only lock when
// someone waits.
std::mutex& wait_mutex() {
  static auto* m = new std::mutex;
  return *m;
}
std::condition_variable& wait_cv() {
  static auto* cv = new std::condition_variable;
  return *cv;
}
std::atomic<int> waiters{0};
constexpr int kYieldsBeforeSleep = 64;

}  // namespace

std::shared_ptr<Storage> Storage::ready(void* data, std::shared_ptr<void> owner, Memory& memory) {
  auto s = std::make_shared<Storage>();
  s->memory_ = &memory;
  s->data_ = data;
  s->owner_ = std::move(owner);
  s->state_.store(kReady, std::memory_order_relaxed);
  return s;
}

std::shared_ptr<Storage> Storage::pending(Memory& memory) {
  auto s = std::make_shared<Storage>();
  s->memory_ = &memory;
  return s;
}

void Storage::wait_done() const {
  if (is_ready()) return;
  // Most waits are short (a small kernel on a worker): yield a few times before sleeping,
  // which saves the two thread switches of a sleep and a wake-up, the costliest part of a
  // short wait when ranks outnumber cores.
  for (int i = 0; i < kYieldsBeforeSleep; ++i) {
    std::this_thread::yield();
    if (is_ready()) return;
  }
  waiters.fetch_add(1, std::memory_order_seq_cst);
  {
    std::unique_lock<std::mutex> lock(wait_mutex());
    wait_cv().wait(lock, [this] { return state_.load(std::memory_order_seq_cst) != kPending; });
  }
  waiters.fetch_sub(1, std::memory_order_seq_cst);
}

void Storage::wait() const {
  wait_done();
  if (error_) std::rethrow_exception(error_);
}

const std::shared_ptr<void>& Storage::owner() const {
  wait_done();
  return owner_;
}

std::exception_ptr Storage::error() const {
  wait_done();
  return error_;
}

void Storage::publish(State state) {
  if (state_.load(std::memory_order_relaxed) != kPending) {
    throw std::logic_error("a storage was produced twice; each is written once");
  }
  // Store, then look for waiters (a waiter counts itself, then checks): one of the two sees
  // the other. With a waiter, lock once so it is either before its check or asleep.
  state_.store(state, std::memory_order_seq_cst);
  if (waiters.load(std::memory_order_seq_cst) == 0) return;
  { std::lock_guard<std::mutex> lock(wait_mutex()); }
  wait_cv().notify_all();
}

void Storage::fulfill(void* data, std::shared_ptr<void> owner) {
  data_ = data;
  owner_ = std::move(owner);
  publish(kReady);
}

void Storage::fail(std::exception_ptr error, void* data, std::shared_ptr<void> owner) {
  data_ = data;
  owner_ = std::move(owner);
  error_ = std::move(error);
  publish(kFailed);
}

Tensor Tensor::empty(const Shape& shape, DType dtype, Memory& memory) {
  for (int64_t d : shape) {
    if (d < 0) throw std::invalid_argument("tensor shape " + to_string(shape) + " has a negative dimension");
  }
  const int64_t bytes = checked_nbytes(shape, dtype_size(dtype));
  std::shared_ptr<void> block;
  try {
    block = memory.allocate(static_cast<size_t>(bytes));
  } catch (const std::bad_alloc& e) {
    const std::string what = "a " + std::string(dtype_name(dtype)) + " tensor of shape " + to_string(shape) + ": ";
    if (dynamic_cast<const OutOfMemoryError*>(&e)) throw OutOfMemoryError(what + e.what());
    throw OutOfMemoryError(what + memory.device_str() + " is out of memory: asked for " + std::to_string(bytes) +
                           " bytes");
  }
  void* data = block.get();
  return Tensor(Storage::ready(data, std::move(block), memory), 0, shape, dtype);
}

Tensor Tensor::zeros(const Shape& shape, DType dtype, Memory& memory) {
  Tensor t = empty(shape, dtype, memory);
  memory.zero(t.data(), t.nbytes());
  return t;
}

Tensor Tensor::identity_of(ReduceOp op, const Shape& shape, DType dtype) {
  Tensor t = empty(shape, dtype);
  t.fill_identity(op);
  return t;
}

void Tensor::fill_identity(ReduceOp op) const {
  if (op == ReduceOp::kSum) {
    memory().zero(data(), nbytes());
    return;
  }
  if (!memory().host_accessible()) {
    const Tensor host = identity_of(op, shape_, dtype_);
    memory().copy_from_host(data(), host.data(), nbytes());
    return;
  }
  if (dtype_ == DType::kBool) {
    std::fill_n(data_as<bool>(), numel(), op == ReduceOp::kMin);
    return;
  }
  if (is_half(dtype_)) {
    visit_half(dtype_, [&](auto h) {
      using H = decltype(h);
      const float inf = std::numeric_limits<float>::infinity();
      std::fill_n(data_as<H>(), numel(), from_float<H>(op == ReduceOp::kMax ? -inf : inf));
    });
    return;
  }
  visit_numbers(dtype_, [&](auto v) {
    using T = decltype(v);
    T fill = op == ReduceOp::kMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    if constexpr (std::numeric_limits<T>::has_infinity) {
      fill = op == ReduceOp::kMax ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    }
    T* p = data_as<T>();
    for (int64_t i = 0, n = numel(); i < n; ++i) p[i] = fill;
  });
}

Tensor Tensor::wrap(void* data, const Shape& shape, DType dtype, std::shared_ptr<void> owner, Memory& memory) {
  return Tensor(Storage::ready(data, std::move(owner), memory), 0, shape, dtype);
}

Tensor Tensor::pending(const Shape& shape, DType dtype, Memory& memory) {
  for (int64_t d : shape) {
    if (d < 0) throw std::invalid_argument("tensor shape " + to_string(shape) + " has a negative dimension");
  }
  return Tensor(Storage::pending(memory), 0, shape, dtype);
}

Tensor Tensor::copy_to(Memory& target) const {
  // Host tensors leave channels-last layouts behind (a device's kernels read row-major ones).
  if (channels_last(format_) && &target != &host_memory() && &memory() == &host_memory()) {
    return in_format(*this, MemoryFormat::kContiguous).copy_to(target);
  }
  Tensor out = empty(shape_, dtype_, target);
  out.format_ = format_;
  Memory& source = memory();
  const size_t n = nbytes();
  if (n == 0) return out;
  if (source.host_accessible()) {
    target.copy_from_host(out.data(), data(), n);
  } else if (target.host_accessible()) {
    source.copy_to_host(out.data(), data(), n);
  } else if (&source == &target) {
    source.copy_within(out.data(), data(), n);
  } else {  // between two devices: through the host
    Tensor staged = empty(shape_, dtype_);
    source.copy_to_host(staged.data(), data(), n);
    target.copy_from_host(out.data(), staged.data(), n);
  }
  out.format_ = format_;
  return out;
}

namespace {

class HostMemory : public Memory {
 public:
  const std::string& device_type() const override { return type_; }
  bool host_accessible() const override { return true; }
  std::shared_ptr<void> allocate(size_t nbytes) override { return allocate_host(nbytes); }
  void copy_to_host(void* host, const void* src, size_t nbytes) const override { std::memcpy(host, src, nbytes); }
  void copy_from_host(void* dst, const void* host, size_t nbytes) const override { std::memcpy(dst, host, nbytes); }
  void copy_within(void* dst, const void* src, size_t nbytes) const override { std::memcpy(dst, src, nbytes); }
  void zero(void* dst, size_t nbytes) const override { std::memset(dst, 0, nbytes); }
  void reduce_into(void* acc, const void* x, int64_t n, DType dtype, ReduceOp op) const override {
    reduce_into_host(acc, x, n, dtype, op);
  }
  std::shared_ptr<void> zeros_for_reading(size_t nbytes) override { return map_zero_pages(nbytes); }

 private:
  const std::string type_ = "cpu";
};

}  // namespace

int device_type_index(const std::string& device_type) {
  // Never destroyed: memories may be asked during exit.
  static auto* mu = new std::mutex;
  static auto* names = new std::vector<std::string>{"cpu"};  // GUARDED_BY(*mu)
  std::lock_guard<std::mutex> lock(*mu);
  for (size_t i = 0; i < names->size(); ++i) {
    if ((*names)[i] == device_type) return static_cast<int>(i);
  }
  names->push_back(device_type);
  return static_cast<int>(names->size() - 1);
}

Memory& host_memory() {
  static auto* m = new HostMemory;  // never destroyed: tensors may outlive static destruction
  return *m;
}

bool Tensor::shares_memory(const Tensor& other) const {
  return storage_ == other.storage_ || (storage_->owner() && storage_->owner() == other.storage_->owner());
}

Tensor Tensor::view(int64_t offset, const Shape& shape) const {
  if (offset < 0 || offset + mf::numel(shape) > numel()) {
    throw std::out_of_range("view of " + to_string(shape) + " at offset " + std::to_string(offset) +
                            " does not fit in a tensor of " + to_string(shape_));
  }
  return Tensor(storage_, offset_ + static_cast<size_t>(offset) * dtype_size(dtype_), shape, dtype_);
}

Tensor Tensor::clone() const {
  Tensor t = empty(shape_, dtype_, memory());
  if (nbytes()) memory().copy_within(t.data(), data(), nbytes());
  t.format_ = format_;
  return t;
}

Tensor Tensor::with_format(MemoryFormat format) const {
  if (channels_last(format) && !channels_last_rank(shape_)) {
    throw std::invalid_argument("a tensor of shape " + to_string(shape_) +
                                " cannot be channels-last; expected 4 or 5 dims");
  }
  Tensor t = *this;
  t.format_ = format;
  return t;
}

namespace {

// Moves [outer][a][b] elements of `bytes` each to [outer][b][a], in tiles that stay in cache.
template <size_t Bytes>
void transpose_planes(const void* from, void* to, int64_t outer, int64_t a, int64_t b) {
  struct Element {
    unsigned char v[Bytes];
  };
  constexpr int64_t kTile = 32;
  const int64_t tiles_a = (a + kTile - 1) / kTile, tiles_b = (b + kTile - 1) / kTile, plane = a * b;
  const int64_t tiles = outer * tiles_a * tiles_b;
  kernel::parallel_for(tiles, outer * plane > kernel::kParallelGrain, [&](int64_t t) {
    const int64_t o = t / (tiles_a * tiles_b), ta = t / tiles_b % tiles_a, tb = t % tiles_b;
    const Element* src = static_cast<const Element*>(from) + o * plane;
    Element* dst = static_cast<Element*>(to) + o * plane;
    const int64_t a_end = std::min(a, (ta + 1) * kTile), b_end = std::min(b, (tb + 1) * kTile);
    for (int64_t i = ta * kTile; i < a_end; ++i) {
      for (int64_t j = tb * kTile; j < b_end; ++j) dst[j * a + i] = src[i * b + j];
    }
  });
}

}  // namespace

Tensor in_format(const Tensor& t, MemoryFormat format) {
  if (t.format() == format) return t;
  const Shape& s = t.shape();
  const int64_t n = s[0], c = s[1], spatial = n * c == 0 ? 0 : t.numel() / (n * c);
  // One channel (a segmenter's logits, a mask) or one pixel: the elements lie alike both ways.
  if (channels_last(t.format()) == channels_last(format) || c == 1 || spatial == 1) return t.with_format(format);
  Tensor out = Tensor::empty(t.shape(), t.dtype()).with_format(format);
  // Plain is [N][C][spatial], channels-last [N][spatial][C].
  const int64_t a = channels_last(format) ? c : spatial, b = channels_last(format) ? spatial : c;
  const void* from = t.data();
  void* to = out.data();
  switch (dtype_size(t.dtype())) {
    case 1: transpose_planes<1>(from, to, n, a, b); break;
    case 2: transpose_planes<2>(from, to, n, a, b); break;
    case 4: transpose_planes<4>(from, to, n, a, b); break;
    case 8: transpose_planes<8>(from, to, n, a, b); break;
    default: transpose_planes<16>(from, to, n, a, b); break;
  }
  return out;
}

uint64_t Tensor::content_hash() const {
  uint64_t h = 1469598103934665603ull;
  const auto* p = static_cast<const unsigned char*>(data());
  for (size_t i = 0, n = nbytes(); i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

namespace {

// Copies `extent` from src (at byte pointer s) to dst, one dim at a time; `run` trailing
// dims have been folded into one copy of `run_bytes` (copy(d, s, bytes)).
template <typename Copy>
void copy_rec(const char* s, char* d, const Shape& extent, const Shape& ss, const Shape& ds, size_t dim,
              size_t last_dim, size_t run_bytes, size_t elem, const Copy& copy) {
  if (dim == last_dim) {
    copy(d, s, run_bytes);
    return;
  }
  for (int64_t i = 0; i < extent[dim]; ++i) {
    copy_rec(s + i * ss[dim] * elem, d + i * ds[dim] * elem, extent, ss, ds, dim + 1, last_dim, run_bytes, elem, copy);
  }
}

}  // namespace

void copy_box(const Tensor& src, const Box& src_box, const Tensor& dst, const Shape& dst_start) {
  if (src.dtype() != dst.dtype()) throw std::invalid_argument("copy_box: dtypes differ");
  if (src_box.empty()) return;
  const size_t n = src.shape().size();
  const size_t elem = dtype_size(src.dtype());
  Shape ss = row_major_strides(src.shape()), ds = row_major_strides(dst.shape());
  // Fold the longest trailing run that is whole in both tensors into one memcpy.
  size_t last_dim = n;
  int64_t run = 1;
  while (last_dim > 0) {
    size_t d = last_dim - 1;
    run *= src_box.extent[d];
    --last_dim;
    if (src_box.extent[d] != src.shape()[d] || src_box.extent[d] != dst.shape()[d]) break;
  }
  int64_t s_off = 0, d_off = 0;
  for (size_t i = 0; i < n; ++i) {
    s_off += src_box.start[i] * ss[i];
    d_off += dst_start[i] * ds[i];
  }
  const char* s = static_cast<const char*>(src.data()) + s_off * elem;
  char* d = static_cast<char*>(dst.data()) + d_off * elem;
  auto rec = [&](const auto& copy) {
    copy_rec(s, d, src_box.extent, ss, ds, 0, last_dim, static_cast<size_t>(run) * elem, elem, copy);
  };
  // Each run moves with the copy between the two memories (devices: one call per run).
  const Memory& from = src.memory();
  const Memory& to = dst.memory();
  if (from.host_accessible() && to.host_accessible()) {
    rec([](char* dd, const char* sd, size_t bytes) { std::memcpy(dd, sd, bytes); });
  } else if (&from == &to) {
    rec([&](char* dd, const char* sd, size_t bytes) { to.copy_within(dd, sd, bytes); });
  } else if (from.host_accessible()) {
    rec([&](char* dd, const char* sd, size_t bytes) { to.copy_from_host(dd, sd, bytes); });
  } else if (to.host_accessible()) {
    rec([&](char* dd, const char* sd, size_t bytes) { from.copy_to_host(dd, sd, bytes); });
  } else {
    std::shared_ptr<void> staging = from.allocate_staging(static_cast<size_t>(run) * elem);
    rec([&](char* dd, const char* sd, size_t bytes) {
      from.copy_to_host(staging.get(), sd, bytes);
      to.copy_from_host(dd, staging.get(), bytes);
    });
  }
}

Tensor slice(const Tensor& src, const Box& box) {
  int64_t offset = contiguous_offset(box, src.shape());
  if (offset >= 0) return src.view(box.empty() ? 0 : offset, box.extent);
  Tensor out = Tensor::empty(box.extent, src.dtype(), src.memory());
  copy_box(src, box, out, Shape(box.extent.size(), 0));
  return out;
}

namespace {

void check_reducible(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape() || a.dtype() != b.dtype() || a.format() != b.format()) {
    throw std::invalid_argument("reduce_into: shapes or dtypes differ: " + to_string(a.shape()) + " vs " +
                                to_string(b.shape()));
  }
}

// out[i] = op(a[i], b[i]) (out may be a), halves in float32 rounded once; by `loop`
// (kernel::simd_for or simd_loop) with the op chosen outside it, so that it vectorizes.
template <typename Loop>
void reduce_elements(void* out, const void* a, const void* b, int64_t n, DType dtype, ReduceOp op, Loop loop) {
  visit_storage(dtype, [&](auto v) {
    using S = decltype(v);
    using T = std::conditional_t<is_half_v<S>, float, S>;
    const S* pa = static_cast<const S*>(a);
    const S* pb = static_cast<const S*>(b);
    S* po = static_cast<S*>(out);
    auto widen = [](S x) -> T {
      if constexpr (is_half_v<S>) return to_float(x); else return x;
    };
    auto narrow = [](T x) -> S {
      if constexpr (is_half_v<S>) return from_float<S>(x); else return x;
    };
    if constexpr (is_complex_v<S>) {  // complex values have no order: only sums (partial max is never made of them)
      if (op != ReduceOp::kSum) throw std::invalid_argument("reduce_into: complex values have no max or min");
      loop(n, [&](int64_t i) { po[i] = pa[i] + pb[i]; });
    } else {
      switch (op) {
        case ReduceOp::kSum:
          loop(n, [&](int64_t i) { po[i] = narrow(wrapping(widen(pa[i]), widen(pb[i]), std::plus<>())); });
          break;
        case ReduceOp::kMax:
          loop(n, [&](int64_t i) {
            const T x = widen(pa[i]), y = widen(pb[i]);
            po[i] = narrow(x < y ? y : x);
          });
          break;
        case ReduceOp::kMin:
          loop(n, [&](int64_t i) {
            const T x = widen(pa[i]), y = widen(pb[i]);
            po[i] = narrow(y < x ? y : x);
          });
          break;
      }
    }
  });
}

}  // namespace

void reduce_into_host(void* acc, const void* x, int64_t n, DType dtype, ReduceOp op) {
  reduce_elements(acc, acc, x, n, dtype, op, [](int64_t count, auto body) { kernel::simd_loop(count, body); });
}

void Memory::reduce_into(void* acc, const void* x, int64_t n, DType dtype, ReduceOp op) const {
  const size_t bytes = static_cast<size_t>(n) * dtype_size(dtype);
  std::shared_ptr<void> a = allocate_staging(bytes), b = allocate_staging(bytes);
  copy_to_host(a.get(), acc, bytes);
  copy_to_host(b.get(), x, bytes);
  reduce_into_host(a.get(), b.get(), n, dtype, op);
  copy_from_host(acc, a.get(), bytes);
}

std::shared_ptr<void> Memory::allocate_staging(size_t nbytes) const { return allocate_host(nbytes); }

std::shared_ptr<void> Memory::zeros_for_reading(size_t nbytes) {
  LimitOverdraft pass;
  std::shared_ptr<void> block = allocate(nbytes);
  zero(block.get(), nbytes);
  return block;
}

void reduce_into(const Tensor& acc, const Tensor& x, ReduceOp op) {
  check_reducible(acc, x);
  if (&acc.memory() != &x.memory()) {
    throw std::invalid_argument("reduce_into: operands on " + acc.memory().device_str() + " and " +
                                x.memory().device_str() + "; expected one memory");
  }
  acc.memory().reduce_into(acc.data(), x.data(), acc.numel(), acc.dtype(), op);
}

Tensor reduced(const Tensor& a, const Tensor& b_any, ReduceOp op) {
  const Tensor b = a.shape() == b_any.shape() ? in_format(b_any, a.format()) : b_any;
  check_reducible(a, b);
  Tensor out = Tensor::empty(a.shape(), a.dtype()).with_format(a.format());
  reduce_elements(out.data(), a.data(), b.data(), a.numel(), a.dtype(), op,
                  [](int64_t n, auto body) { kernel::simd_for(n, body); });
  return out;
}

bool equal(const Tensor& a, const Tensor& b_any) {
  if (a.dtype() != b_any.dtype() || a.shape() != b_any.shape()) return false;
  const Tensor b = in_format(b_any, a.format());
  return std::memcmp(a.data(), b.data(), a.nbytes()) == 0;
}

}  // namespace mf
