// Copyright 2026 The meshflow Authors.
#include "meshflow/comm/group.h"

#include "meshflow/comm/comm.h"
#ifdef MESHFLOW_NCCL
#include "meshflow/comm/nccl/nccl_comm.h"
#endif

#include <algorithm>
#include <memory>
#include <mutex>
#include <numeric>
#include <stdexcept>

namespace mf::comm {

namespace {

// This process's figures, held under their lock while a Counted lives (the comm thread
// and graph mode's pipeline lanes both count).
class Counted {
 public:
  Counted() : lock_(mu()) {}
  CommStats* operator->() { return &stats(); }
  CommStats& operator*() { return stats(); }

 private:
  static std::mutex& mu() {
    static auto* m = new std::mutex;
    return *m;
  }
  static CommStats& stats() {
    static CommStats s;
    return s;
  }
  std::lock_guard<std::mutex> lock_;
};

}  // namespace

CommStats stats() {
  CommStats copy;
  on_comm_thread([&] { copy = *Counted(); });
  return copy;
}

Chunks Chunks::consecutive(std::vector<int64_t> counts) {
  Chunks c{std::move(counts), {}};
  int64_t offset = 0;
  for (int64_t n : c.counts) {
    c.offsets.push_back(offset);
    offset += n;
  }
  return c;
}

void Group::check_counts(const char* op, const std::vector<int64_t>& counts) const {
  if (static_cast<int>(counts.size()) != size()) {
    throw std::invalid_argument(std::string(op) + ": " + std::to_string(counts.size()) +
                                " counts for a group of " + std::to_string(size()));
  }
}

namespace {

// bfloat16 and float16 are reduced in float32 (no library reduces bfloat16, and one rounding
// at the end keeps the sum as exact as float32's): the values widened, reduced, then rounded.
std::vector<float> widened(const void* data, int64_t count, DType dtype) {
  std::vector<float> out(static_cast<size_t>(count));
  visit_half(dtype, [&](auto h) {
    const auto* b = static_cast<const decltype(h)*>(data);
    for (int64_t i = 0; i < count; ++i) out[i] = to_float(b[i]);
  });
  return out;
}

void narrow_into(const std::vector<float>& values, void* data, DType dtype) {
  visit_half(dtype, [&](auto h) {
    using H = decltype(h);
    auto* b = static_cast<H*>(data);
    for (size_t i = 0; i < values.size(); ++i) b[i] = from_float<H>(values[i]);
  });
}

// Host copies of buffers in a memory the backend does not take (group.h): read() copies a
// buffer in, write() gives the host buffer a result goes to (the read copy of the same
// buffer, for collectives in place), finish() copies the results out: the whole buffer, or
// only the chunks the collective writes (a receive buffer may hold other data between them).
class Staging {
 public:
  explicit Staging(const Memory& memory) : memory_(memory) {}

  const void* read(const void* data, size_t bytes) {
    void* host = hold(bytes);
    memory_.copy_to_host(host, data, bytes);
    read_.push_back({data, host, bytes});
    return host;
  }
  void* write(void* data, size_t bytes, const Chunks* written = nullptr, DType dtype = DType::kFloat32) {
    void* host = nullptr;
    for (const Read& r : read_) {
      if (r.device == data && r.bytes == bytes) host = r.host;  // in place
    }
    if (!host) host = hold(bytes);
    if (!written) {
      writes_.push_back({data, host, 0, bytes});
      return host;
    }
    for (size_t i = 0; i < written->counts.size(); ++i) {
      const size_t elem = dtype_size(dtype);
      writes_.push_back({data, host, static_cast<size_t>(written->offsets[i]) * elem,
                         static_cast<size_t>(written->counts[i]) * elem});
    }
    return host;
  }
  void finish() const {
    for (const Write& w : writes_) {
      if (w.bytes) memory_.copy_from_host(static_cast<char*>(w.device) + w.offset, static_cast<char*>(w.host) + w.offset, w.bytes);
    }
  }

 private:
  void* hold(size_t bytes) {
    held_.push_back(memory_.allocate_staging(bytes));
    return held_.back().get();
  }
  struct Read {
    const void* device;
    void* host;
    size_t bytes;
  };
  struct Write {
    void* device;
    void* host;
    size_t offset;
    size_t bytes;
  };
  const Memory& memory_;
  std::vector<std::shared_ptr<void>> held_;
  std::vector<Read> read_;
  std::vector<Write> writes_;
};

// The bytes a buffer laid out in `chunks` spans.
size_t extent_bytes(const Chunks& chunks, DType dtype) {
  int64_t end = 0;
  for (size_t i = 0; i < chunks.counts.size(); ++i) {
    if (chunks.counts[i] > 0) end = std::max(end, chunks.offsets[i] + chunks.counts[i]);
  }
  return static_cast<size_t>(end) * dtype_size(dtype);
}

size_t bytes_of(int64_t count, DType dtype) { return static_cast<size_t>(count) * dtype_size(dtype); }

}  // namespace

DeviceComm* Group::device_comm(const Memory& memory) {
  auto it = device_comms_.find(&memory);
  if (it == device_comms_.end()) {
    std::unique_ptr<DeviceComm> made;  // none: staged
#ifdef MESHFLOW_NCCL
    made = nccl::create(*this, memory);
#endif
    it = device_comms_.emplace(&memory, std::move(made)).first;
  }
  return it->second.get();
}

template <typename Tally, typename Call>
bool Group::on_device(const Memory& memory, const char* collective, const Tally& tally, const Call& call) {
  if (takes(memory)) return false;  // the host's memory, for MPI: no look-up on the common path
  bool ran = false;
  on_comm_thread([&] {
    DeviceComm* device = device_comm(memory);
    if (!device) return;
    CollectiveWatch watch(collective, world_ranks());
    tally(*Counted());
    call(*device);
    ran = true;
  });
  return ran;
}

std::string Group::path_for(const Memory& memory) {
  if (takes(memory)) return "own";
  std::string path;
  on_comm_thread([&] {
    const DeviceComm* device = device_comm(memory);
    path = device ? device->name() : "staged";
  });
  return path;
}

std::vector<std::string> Group::device_backends() const {
  std::vector<std::string> names;
  for (const auto& [memory, device] : device_comms_) {
    if (device) names.push_back(device->name());
  }
  return names;
}

void Group::all_reduce(const void* send, void* recv, int64_t count, DType dtype, ReduceOp op, const Memory& memory) {
  if (dtype == DType::kBool && op == ReduceOp::kSum) op = ReduceOp::kMax;  // a sum cast to bool: an or
  const auto tally = [&](CommStats& s) {
    ++s.all_reduce;
    s.bytes_sent += count * dtype_size(dtype);
  };
  if (on_device(memory, "all_reduce", tally, [&](DeviceComm& d) { d.all_reduce(send, recv, count, dtype, op); })) {
    return;
  }
  if (!takes(memory) || (is_half(dtype) && !memory.host_accessible())) {  // halves widen on the host
    Staging staged(memory);
    const void* host_send = staged.read(send, bytes_of(count, dtype));
    all_reduce(host_send, staged.write(recv, bytes_of(count, dtype)), count, dtype, op);
    return staged.finish();
  }
  if (is_half(dtype)) {
    std::vector<float> wide = widened(send, count, dtype), out(static_cast<size_t>(count));
    all_reduce(wide.data(), out.data(), count, DType::kFloat32, op);
    return narrow_into(out, recv, dtype);
  }
  on_comm_thread([&] {
    CollectiveWatch watch("all_reduce", world_ranks());
    tally(*Counted());
    do_all_reduce(send, recv, count, dtype, op);
  });
}

void Group::all_gather(const void* send, void* recv, const Chunks& recv_chunks, DType dtype, const Memory& memory) {
  check_counts("all_gather", recv_chunks.counts);
  check_counts("all_gather", recv_chunks.offsets);
  const auto tally = [&](CommStats& s) {
    ++s.all_gather;
    s.bytes_sent += recv_chunks.counts[rank()] * dtype_size(dtype);
  };
  if (on_device(memory, "all_gather", tally, [&](DeviceComm& d) { d.all_gather(send, recv, recv_chunks, dtype); })) {
    return;
  }
  if (!takes(memory)) {
    Staging staged(memory);
    const void* host_send = staged.read(send, bytes_of(recv_chunks.counts[rank()], dtype));
    all_gather(host_send, staged.write(recv, extent_bytes(recv_chunks, dtype), &recv_chunks, dtype), recv_chunks, dtype);
    return staged.finish();
  }
  on_comm_thread([&] {
    CollectiveWatch watch("all_gather", world_ranks());
    tally(*Counted());
    do_all_gather(send, recv, recv_chunks, dtype);
  });
}

void Group::reduce_scatter(const void* send, void* recv, const std::vector<int64_t>& counts, DType dtype,
                           ReduceOp op, const Memory& memory) {
  if (dtype == DType::kBool && op == ReduceOp::kSum) op = ReduceOp::kMax;  // a sum cast to bool: an or
  check_counts("reduce_scatter", counts);
  const auto tally = [&](CommStats& s) {
    ++s.reduce_scatter;
    s.bytes_sent += std::accumulate(counts.begin(), counts.end(), int64_t{0}) * dtype_size(dtype);
  };
  if (on_device(memory, "reduce_scatter", tally,
                [&](DeviceComm& d) { d.reduce_scatter(send, recv, counts, dtype, op); })) {
    return;
  }
  if (!takes(memory) || (is_half(dtype) && !memory.host_accessible())) {  // halves widen on the host
    Staging staged(memory);
    const int64_t total = std::accumulate(counts.begin(), counts.end(), int64_t{0});
    const void* host_send = staged.read(send, bytes_of(total, dtype));
    reduce_scatter(host_send, staged.write(recv, bytes_of(counts[rank()], dtype)), counts, dtype, op);
    return staged.finish();
  }
  if (is_half(dtype)) {
    const int64_t total = std::accumulate(counts.begin(), counts.end(), int64_t{0});
    std::vector<float> wide = widened(send, total, dtype), out(static_cast<size_t>(counts.at(rank())));
    reduce_scatter(wide.data(), out.data(), counts, DType::kFloat32, op);
    return narrow_into(out, recv, dtype);
  }
  on_comm_thread([&] {
    CollectiveWatch watch("reduce_scatter", world_ranks());
    tally(*Counted());
    do_reduce_scatter(send, recv, counts, dtype, op);
  });
}

void Group::all_to_all(const void* send, const Chunks& send_chunks, void* recv, const Chunks& recv_chunks,
                       DType dtype, const Memory& memory) {
  for (const auto* v : {&send_chunks.counts, &send_chunks.offsets, &recv_chunks.counts, &recv_chunks.offsets}) {
    check_counts("all_to_all", *v);
  }
  const auto tally = [&](CommStats& s) {
    ++s.all_to_all;
    const auto& sc = send_chunks.counts;
    s.bytes_sent += std::accumulate(sc.begin(), sc.end(), int64_t{0}) * dtype_size(dtype);
  };
  if (on_device(memory, "all_to_all", tally,
                [&](DeviceComm& d) { d.all_to_all(send, send_chunks, recv, recv_chunks, dtype); })) {
    return;
  }
  if (!takes(memory)) {
    Staging staged(memory);
    const void* host_send = staged.read(send, extent_bytes(send_chunks, dtype));
    all_to_all(host_send, send_chunks, staged.write(recv, extent_bytes(recv_chunks, dtype), &recv_chunks, dtype),
               recv_chunks, dtype);
    return staged.finish();
  }
  on_comm_thread([&] {
    CollectiveWatch watch("all_to_all", world_ranks());
    tally(*Counted());
    do_all_to_all(send, send_chunks, recv, recv_chunks, dtype);
  });
}

bool Group::all_to_all_direct(const std::vector<Runs>& send, const std::vector<Runs>& recv) {
  if (static_cast<int>(send.size()) != size() || static_cast<int>(recv.size()) != size()) {
    throw std::invalid_argument("all_to_all_direct: " + std::to_string(send.size()) + " send and " +
                                std::to_string(recv.size()) + " receive pieces for a group of " +
                                std::to_string(size()) + "; expected one of each per member");
  }
  Direct how = Direct::kNo;
  on_comm_thread([&] {
    CollectiveWatch watch("all_to_all", world_ranks());
    how = do_all_to_all_direct(send, recv);
    if (how == Direct::kNo) return;
    Counted c;
    ++c->all_to_all;
    ++c->direct_all_to_all;
    c->mapped_all_to_all += how == Direct::kMapped;
    for (int p = 0; p < size(); ++p) {
      if (p == rank()) continue;  // as all_to_all, which never sends a rank's own piece
      for (const Run& r : send[p]) c->bytes_sent += r.bytes;
    }
  });
  return how != Direct::kNo;
}

void Group::broadcast(void* data, int64_t count, DType dtype, int root, const Memory& memory) {
  const auto tally = [&](CommStats& s) {
    ++s.broadcast;
    if (root == rank()) s.bytes_sent += count * dtype_size(dtype);
  };
  if (on_device(memory, "broadcast", tally, [&](DeviceComm& d) { d.broadcast(data, count, dtype, root); })) return;
  if (!takes(memory)) {
    Staging staged(memory);
    staged.read(data, bytes_of(count, dtype));
    broadcast(staged.write(data, bytes_of(count, dtype)), count, dtype, root);
    return staged.finish();
  }
  on_comm_thread([&] {
    CollectiveWatch watch("broadcast", world_ranks());
    tally(*Counted());
    do_broadcast(data, count, dtype, root);
  });
}

void Group::exchange(const std::vector<Message>& sends, const std::vector<Message>& recvs, DType dtype, int lane) {
  auto staged = [&](const Message& m) { return m.memory && !takes(*m.memory); };
  if (std::any_of(sends.begin(), sends.end(), staged) || std::any_of(recvs.begin(), recvs.end(), staged)) {
    // Each message of a memory not taken goes through a host copy of its own.
    std::vector<std::unique_ptr<Staging>> staging;
    auto host_message = [&](const Message& m, bool received) {
      if (!staged(m)) return m;
      staging.push_back(std::make_unique<Staging>(*m.memory));
      const size_t bytes = bytes_of(m.count, dtype);
      void* host = received ? staging.back()->write(m.data, bytes)
                            : const_cast<void*>(staging.back()->read(m.data, bytes));
      return Message{host, m.count, m.peer};
    };
    std::vector<Message> host_sends, host_recvs;
    for (const Message& m : sends) host_sends.push_back(host_message(m, false));
    for (const Message& m : recvs) host_recvs.push_back(host_message(m, true));
    exchange(host_sends, host_recvs, dtype, lane);
    for (const auto& s : staging) s->finish();
    return;
  }
  auto call = [&] {
    CollectiveWatch watch("exchange (point to point)", world_ranks(), lane);
    {
      Counted c;
      c->send += static_cast<int64_t>(sends.size());
      c->recv += static_cast<int64_t>(recvs.size());
      for (const Message& m : sends) c->bytes_sent += m.count * dtype_size(dtype);
    }
    do_exchange(sends, recvs, dtype, lane);
  };
  if (lane > 0) {
    call();  // on the lane's own thread
  } else {
    on_comm_thread(call);
  }
}

void Group::gather_metadata(const void* send, void* recv, int64_t bytes) {
  on_comm_thread([&] {
    ++Counted()->metadata;
    CollectiveWatch watch("all_gather (metadata)", world_ranks());
    do_gather_bytes(send, recv, bytes);
  });
}

void Group::agree_bytes(const void* send, void* recv, int64_t bytes) {
  ++Counted()->metadata;
  CollectiveWatch watch("all_gather (metadata)", world_ranks(), kAgreementsChannel);
  do_agree_bytes(send, recv, bytes);
}

}  // namespace mf::comm
