// Copyright 2026 The meshflow Authors.
#include "meshflow/boxing/execute.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "meshflow/comm/comm.h"
#include "meshflow/core/allocator.h"
#include "meshflow/core/error.h"

namespace mf::boxing {
namespace {

// Where `pieces` of a row-major tensor of `shape` lie in its memory, when each is one
// contiguous run (and, if `in_order`, they follow one another in order); else nullopt.
std::optional<comm::Chunks> chunks_in(const std::vector<Box>& pieces, const Shape& shape, bool in_order) {
  comm::Chunks chunks;
  int64_t next = 0;
  for (const Box& b : pieces) {
    int64_t offset = b.empty() ? next : contiguous_offset(b, shape);
    if (offset < 0 || (in_order && offset != next)) return std::nullopt;
    chunks.counts.push_back(b.numel());
    chunks.offsets.push_back(offset);
    next = offset + b.numel();
  }
  return chunks;
}

std::vector<int64_t> counts_of(const std::vector<Box>& pieces) {
  std::vector<int64_t> counts;
  for (const Box& b : pieces) counts.push_back(b.numel());
  return counts;
}

// A buffer holding `pieces` of `t` for a collective to read, and where they are in it: `t`
// itself when it can be read in place, else the pieces packed one after another.
std::pair<Tensor, comm::Chunks> readable(const Tensor& t, const std::vector<Box>& pieces, bool in_order) {
  if (auto chunks = chunks_in(pieces, t.shape(), in_order)) return {t, *chunks};
  comm::Chunks chunks = comm::Chunks::consecutive(counts_of(pieces));
  int64_t total = chunks.offsets.back() + chunks.counts.back();
  Tensor buf = Tensor::empty({total}, t.dtype(), t.memory());
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (pieces[i].empty()) continue;
    copy_box(t, pieces[i], buf.view(chunks.offsets[i], pieces[i].extent), Shape(pieces[i].extent.size(), 0));
  }
  return {buf, chunks};
}

// Where a collective should write `pieces` of `out`: `out` itself when each piece is one
// contiguous run there, else a staging buffer that unpack() copies from.
std::pair<Tensor, comm::Chunks> writable(const Tensor& out, const std::vector<Box>& pieces) {
  if (auto chunks = chunks_in(pieces, out.shape(), /*in_order=*/false)) return {out, *chunks};
  comm::Chunks chunks = comm::Chunks::consecutive(counts_of(pieces));
  return {Tensor::empty({chunks.offsets.back() + chunks.counts.back()}, out.dtype(), out.memory()), chunks};
}

void unpack(const Tensor& buf, const comm::Chunks& chunks, const std::vector<Box>& pieces, const Tensor& out) {
  if (buf.data() == out.data()) return;
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (pieces[i].empty()) continue;
    copy_box(buf.view(chunks.offsets[i], pieces[i].extent), Box::whole(pieces[i].extent), out, pieces[i].start);
  }
}

// All-to-alls of at least this many logical bytes copy directly between ranks where they
// can (comm::Group::all_to_all_direct): below it, the direct path's three small collectives
// cost more than the packing they save (bench/boxing_bench.cc).
constexpr int64_t kDirectAllToAllBytes = int64_t{1} << 20;

// An uninitialized tensor that peers of this host can write into (core/allocator.h).
Tensor shared_empty(const Shape& shape, DType dtype) {
  std::shared_ptr<void> memory = allocate_host_shared(static_cast<size_t>(numel(shape)) * dtype_size(dtype));
  void* data = memory.get();
  return Tensor::wrap(data, shape, dtype, std::move(memory));
}

// The memory of `box` of `t` as runs of bytes.
comm::Runs runs_of(const Tensor& t, const Box& box) {
  comm::Runs runs;
  const int64_t size = dtype_size(t.dtype());
  const std::vector<std::pair<int64_t, int64_t>> offsets = contiguous_runs(box, t.shape());
  runs.reserve(offsets.size());
  for (const auto& [offset, count] : offsets) {
    runs.push_back({static_cast<char*>(t.data()) + offset * size, count * size});
  }
  return runs;
}

// out[box] = op(out[box], x) (x moved to out's memory first where it lives elsewhere)
void reduce_into_box(const Tensor& out, const Box& box, const Tensor& x, ReduceOp op) {
  const Tensor there = &x.memory() == &out.memory() ? x : x.copy_to(out.memory());
  int64_t offset = contiguous_offset(box, out.shape());
  if (offset >= 0) return reduce_into(out.view(offset, box.extent), there, op);
  Tensor region = slice(out, box);
  reduce_into(region, there, op);
  copy_box(region, Box::whole(box.extent), out, box.start);
}

// A step's result of `shape` in `memory`: `into` where it is such a tensor (the last step of
// a conversion whose caller gave memory for the result), else new memory.
bool fits(const Tensor* into, const Shape& shape, DType dtype, const Memory& memory) {
  return into && into->nbytes() > 0 && into->shape() == shape && into->dtype() == dtype && &into->memory() == &memory;
}
Tensor output_of(const Tensor* into, const Shape& shape, DType dtype, Memory& memory) {
  return fits(into, shape, dtype, memory) ? *into : Tensor::empty(shape, dtype, memory);
}

// A conversion's status while its steps run (PartStatus): the failures this rank knows of,
// its buffers refused by a limit included.
struct Fault {
  PartStatus& status;
  const LimitOverdraft& pass;
  bool here() const { return status.own || status.learned || !pass.refused().empty(); }
  // This rank's error, as the comm instruction will fail its outputs with it.
  std::exception_ptr error() const {
    if (status.own) return status.own;
    if (status.learned) return status.learned;
    if (!pass.refused().empty()) return std::make_exception_ptr(OutOfMemoryError("[" + status.call + "] " + pass.refused()));
    return nullptr;
  }
};

// A member's status word where it failed: a value no reduction by `op` with the identity keeps
// as the identity (the other members' words in its slot).
ReduceOp failed_word(ReduceOp op) { return op == ReduceOp::kMin ? ReduceOp::kMax : ReduceOp::kMin; }

// A good member's status word (PartStatus): its fingerprint, an integer from 2 to 2^bits - 3
// (bits the dtype's integers held exactly, at most 24), which any reduction with the other
// members' identities keeps, and which is neither an identity nor a failure's word; the
// identity of `op` for a dtype without such integers (bool, complex), which tells failures alone.
struct Word {
  unsigned char bytes[16];  // the widest dtype's element (complex128)
  size_t size;
};
Word good_word(const Fault& fault, ReduceOp op, DType dtype) {
  Word word{{}, dtype_size(dtype)};
  int bits = 0;
  switch (dtype) {
    case DType::kFloat32: case DType::kFloat64: case DType::kInt32: case DType::kInt64: bits = 24; break;
    case DType::kInt16: bits = 15; break;
    case DType::kFloat16: bits = 11; break;
    case DType::kBFloat16: case DType::kUInt8: bits = 8; break;
    case DType::kInt8: bits = 7; break;
    default: {
      const Tensor identity = Tensor::identity_of(op, {1}, dtype);
      std::memcpy(word.bytes, identity.data(), word.size);
      return word;
    }
  }
  const uint64_t hash = fault.status.trail.hash ^ (std::hash<std::string>()(fault.status.call) * 0x9e3779b97f4a7c15ull);
  const int64_t fingerprint = 2 + static_cast<int64_t>((hash ^ (hash >> 32)) % ((uint64_t{1} << bits) - 4));
  if (is_half(dtype)) {
    visit_half(dtype, [&](auto h) {
      const auto value = from_float<decltype(h)>(static_cast<float>(fingerprint));
      std::memcpy(word.bytes, &value, sizeof value);
    });
  } else {
    visit_numbers(dtype, [&](auto v) {
      const auto value = static_cast<decltype(v)>(fingerprint);
      std::memcpy(word.bytes, &value, sizeof value);
    });
  }
  return word;
}

// Writes this member's status word into its slot of `words` (good_word, or a failure's).
void fill_word(const Tensor& words, int64_t slot_at, ReduceOp op, const Fault& fault) {
  const Tensor slot = words.view(slot_at, {1});
  if (fault.here()) return slot.fill_identity(failed_word(op));
  const Word word = good_word(fault, op, words.dtype());
  slot.memory().copy_from_host(slot.data(), word.bytes, word.size);
}

// After a `collective` whose status words (`words`, in any memory) are each member's (fill_word):
// whether all are this member's good word. Where none failed, the members are in different
// calls (PartStatus): the job ends. Else every member exchanges its message, and one whose
// part is good learns the first failed member's error.
void learn(comm::Group& g, const char* collective, const Tensor& words, ReduceOp op, Fault& fault) {
  const Tensor here = words.copy_to(host_memory());
  const Word good = good_word(fault, op, words.dtype());
  const size_t size = good.size;
  auto word = [&](int64_t i) { return static_cast<const char*>(here.data()) + i * size; };
  bool all_good = true;
  for (int64_t i = 0; i < here.numel(); ++i) all_good = all_good && std::memcmp(word(i), good.bytes, size) == 0;
  if (all_good) return;
  const Tensor failed = Tensor::identity_of(failed_word(op), {1}, words.dtype());
  bool any_failed = false;
  for (int64_t i = 0; i < here.numel(); ++i) any_failed = any_failed || std::memcmp(word(i), failed.data(), size) == 0;
  if (!any_failed) {
    comm::end_for_different_trails(g, std::string(collective) + " of " + fault.status.call + "'s value",
                                   fault.status.trail);
  }
  const std::exception_ptr mine = fault.error();
  try {
    comm::agree(mine, 0, fault.status.call, g.world_ranks());
  } catch (const std::invalid_argument&) {
    if (!mine) fault.status.learned = std::current_exception();
  }
}

// All-reduces the first `count` elements of `buffer` in place, with a status word per member
// after them (the buffer has room for them).
void all_reduce_telling(comm::Group& g, const Tensor& buffer, int64_t count, ReduceOp op, Fault& fault) {
  const Tensor words = buffer.view(count, {g.size()});
  words.fill_identity(op);
  fill_word(words, g.rank(), op, fault);
  g.all_reduce(buffer.data(), buffer.data(), count + g.size(), buffer.dtype(), op, buffer.memory());
  learn(g, "all_reduce", words, op, fault);
}

// Payloads of up to this many bytes carry their status words. A larger one's would cost a copy
// of the payload into a buffer with room for them and, past a power of two, the allocator's
// next size class (core/allocator.cc: twice the bytes below its granule): its words follow in
// an all-reduce of their own (tell_apart), small beside the payload's, which tells of its
// buffers refused inside the collective too (host staging).
constexpr int64_t kWordsInPayloadBytes = int64_t{64} << 10;
bool in_payload(int64_t count, DType dtype) {
  return count * static_cast<int64_t>(dtype_size(dtype)) <= kWordsInPayloadBytes;
}

// The status words alone, after a collective of `memory`'s buffers.
void tell_apart(comm::Group& g, Memory& memory, Fault& fault) {
  all_reduce_telling(g, Tensor::empty({g.size()}, DType::kInt32, memory), 0, ReduceOp::kSum, fault);
}

// The all-reduce of `local`, telling as above.
Tensor all_reduce_telling(comm::Group& g, const Tensor& local, ReduceOp op, Fault& fault) {
  const int64_t count = local.numel();
  if (!in_payload(count, local.dtype())) {
    const Tensor out = Tensor::empty(local.shape(), local.dtype(), local.memory());
    g.all_reduce(local.data(), out.data(), count, local.dtype(), op, local.memory());
    tell_apart(g, local.memory(), fault);
    return out;
  }
  const Tensor buffer = Tensor::empty({count + g.size()}, local.dtype(), local.memory());
  if (count > 0) copy_box(local, Box::whole(local.shape()), buffer.view(0, local.shape()), Shape(local.shape().size(), 0));
  all_reduce_telling(g, buffer, count, op, fault);
  return buffer.view(0, local.shape());
}

// Runs `steps(Fault*)`, given a status, under a LimitOverdraft of its own, whose refusal
// becomes this rank's failure (the next status word tells it) and is passed on to the caller's
// overdraft (the comm instruction's) once every step has run.
template <typename Steps>
auto telling(PartStatus* status, const Steps& steps) {
  if (!status) return steps(nullptr);
  std::optional<LimitOverdraft> pass;
  Fault fault{*status, pass.emplace()};
  auto result = steps(&fault);
  if (!pass->refused().empty()) {
    const std::string refused = pass->refused();
    pass.reset();
    refuse_over_limit(refused);
  }
  return result;
}

// The all-gather of `local` into `pieces` of `out`, each member's chunk followed by its status
// word (0 where its part is good), through staging buffers.
void all_gather_telling(comm::Group& g, const Tensor& local, const Tensor& out, const std::vector<Box>& pieces,
                        Fault& fault) {
  Memory& memory = local.memory();
  const DType dtype = local.dtype();
  const Tensor send = Tensor::empty({local.numel() + 1}, dtype, memory);
  if (local.numel() > 0) copy_box(local, Box::whole(local.shape()), send.view(0, local.shape()), Shape(local.shape().size(), 0));
  fill_word(send, local.numel(), ReduceOp::kSum, fault);
  std::vector<int64_t> counts = counts_of(pieces);
  for (int64_t& c : counts) ++c;
  comm::Chunks chunks = comm::Chunks::consecutive(counts);
  const Tensor recv = Tensor::empty({chunks.offsets.back() + chunks.counts.back()}, dtype, memory);
  g.all_gather(send.data(), recv.data(), chunks, dtype, memory);
  const Tensor words = Tensor::empty({g.size()}, dtype, memory);
  for (int i = 0; i < g.size(); ++i) {
    --chunks.counts[i];  // the member's elements, for unpack; its word after them
    copy_box(recv.view(chunks.offsets[i] + chunks.counts[i], {1}), Box::whole({1}), words, {i});
  }
  unpack(recv, chunks, pieces, out);
  learn(g, "all_gather", words, ReduceOp::kSum, fault);
}

Tensor run_axis_step(const Step& step, const Shape& logical, const Tensor& local, const Tensor* into, Fault* fault) {
  const Placement& p = step.from.placement;
  const int me = comm::world_rank();
  if (!p.contains(me)) return local;
  const int axis = step.axis;
  Shape coord = p.coordinate(p.parallel_id(me));
  const int64_t n = p.hierarchy()[axis];
  const int my_index = static_cast<int>(coord[axis]);
  std::vector<Box> src(n), dst(n);
  for (int64_t m = 0; m < n; ++m) {
    Shape c = coord;
    c[axis] = m;
    src[m] = local_box(logical, p.hierarchy(), step.from.nd_sbp, c);
    dst[m] = local_box(logical, p.hierarchy(), step.to.nd_sbp, c);
  }
  const Box& my_src = src[my_index];
  const Box& my_dst = dst[my_index];
  const Sbp& x = step.from.nd_sbp[axis];
  const Sbp& y = step.to.nd_sbp[axis];
  const DType dtype = local.dtype();
  Memory& memory = local.memory();  // the placement's, which the collectives read and write
  auto group = [&]() -> comm::Group& { return comm::group_of(p.axis_group(me, axis)); };

  switch (step.kind) {
    case StepKind::kSlice: {
      const Box part = relative_to(my_dst, my_src);
      if (!fits(into, part.extent, dtype, memory)) return slice(local, part);
      copy_box(local, part, *into, Shape(part.extent.size(), 0));
      return *into;
    }
    case StepKind::kKeepOrZero:
      if (y.reduce_op() == ReduceOp::kSum && my_index != 0) {
        Tensor out = output_of(into, local.shape(), dtype, memory);
        out.fill_identity(ReduceOp::kSum);
        return out;
      }
      return local;
    case StepKind::kScatterIntoPartial: {
      Tensor out = output_of(into, my_dst.extent, dtype, memory);
      out.fill_identity(y.reduce_op());
      copy_box(local, Box::whole(local.shape()), out, relative_to(my_src, my_dst).start);
      return out;
    }
    case StepKind::kAllReduce: {
      if (fault) return all_reduce_telling(group(), local, x.reduce_op(), *fault);
      Tensor out = output_of(into, local.shape(), dtype, memory);
      group().all_reduce(local.data(), out.data(), local.numel(), dtype, x.reduce_op(), memory);
      return out;
    }
    case StepKind::kAllGather: {
      Tensor out = output_of(into, my_dst.extent, dtype, memory);
      std::vector<Box> pieces;
      for (const Box& b : src) pieces.push_back(relative_to(b, my_dst));
      if (fault && in_payload(out.numel(), dtype)) {
        all_gather_telling(group(), local, out, pieces, *fault);
        return out;
      }
      auto [recv, chunks] = writable(out, pieces);
      group().all_gather(local.data(), recv.data(), chunks, dtype, memory);
      unpack(recv, chunks, pieces, out);
      if (fault) tell_apart(group(), memory, *fault);
      return out;
    }
    case StepKind::kReduceScatter: {
      Tensor out = output_of(into, my_dst.extent, dtype, memory);
      std::vector<Box> pieces;
      for (const Box& b : dst) pieces.push_back(relative_to(b, my_src));
      auto [send, chunks] = readable(local, pieces, /*in_order=*/true);
      group().reduce_scatter(send.data(), out.data(), chunks.counts, dtype, x.reduce_op(), memory);
      return out;
    }
    case StepKind::kAllToAll: {
      // Large pieces go straight from the sender's memory into the receiver's where the
      // group allows it (a strided piece would otherwise be packed, then copied again by
      // MPI); peers then write into `out` through a mapping. Every rank decides alike: on
      // the logical size. (Memory the caller gave is not a shared block: peers reach it by
      // attaching to this process where they may, else the pieces are packed.)
      // Host memory only: other memories' pieces are moved by the group's copies.
      const bool direct = numel(logical) * dtype_size(dtype) >= kDirectAllToAllBytes && memory.host_accessible();
      Tensor out = fits(into, my_dst.extent, dtype, memory) ? *into
                   : direct                                 ? shared_empty(my_dst.extent, dtype)
                                                            : Tensor::empty(my_dst.extent, dtype, memory);
      std::vector<Box> send_pieces, recv_pieces;
      for (int64_t m = 0; m < n; ++m) {
        send_pieces.push_back(relative_to(intersect(my_src, dst[m]), my_src));
        recv_pieces.push_back(relative_to(intersect(src[m], my_dst), my_dst));
      }
      if (direct) {
        std::vector<comm::Runs> send_runs, recv_runs;
        for (int64_t m = 0; m < n; ++m) {
          send_runs.push_back(runs_of(local, send_pieces[m]));
          recv_runs.push_back(runs_of(out, recv_pieces[m]));
        }
        if (group().all_to_all_direct(send_runs, recv_runs)) return out;
      }
      // This rank's own piece is copied straight across, not through the library.
      copy_box(local, send_pieces[my_index], out, recv_pieces[my_index].start);
      const Box none{Shape(logical.size(), 0), Shape(logical.size(), 0)};
      send_pieces[my_index] = recv_pieces[my_index] = none;
      auto [send, send_chunks] = readable(local, send_pieces, /*in_order=*/false);
      auto [recv, recv_chunks] = writable(out, recv_pieces);
      group().all_to_all(send.data(), send_chunks, recv.data(), recv_chunks, dtype, memory);
      unpack(recv, recv_chunks, recv_pieces, out);
      return out;
    }
    case StepKind::kTransfer: break;
  }
  throw std::logic_error("boxing: not an axis step");
}

// `src_boxes`: what each source rank holds, when not the balanced split (see rebalance).
Tensor run_transfer(const Layout& from, const Layout& to, const Shape& logical, const Tensor& local,
                    const std::vector<Box>* src_boxes = nullptr, int lane = 0, const Tensor* into = nullptr) {
  const int me = comm::world_rank();
  const DType dtype = local.dtype();
  std::optional<ReduceOp> partial;
  for (const Sbp& s : from.nd_sbp) {
    if (s.is_partial()) partial = s.reduce_op();
  }
  const int dst_id = to.placement.parallel_id(me);
  Box my_dst;
  Tensor out = empty_local(logical, dtype, to.placement.memory());
  if (dst_id >= 0) {
    Shape cd = to.placement.coordinate(dst_id);
    my_dst = local_box(logical, to.placement.hierarchy(), to.nd_sbp, cd);
    out = output_of(into, my_dst.extent, dtype, to.placement.memory());
    if (!holds_partial_sum_value(to.nd_sbp, cd)) {
      out.fill_identity(ReduceOp::kSum);
    } else if (partial) {
      out.fill_identity(*partial);
    }
  }
  Box my_src;
  const int src_id = from.placement.parallel_id(me);
  if (src_id >= 0) {
    my_src = src_boxes ? (*src_boxes)[src_id]
                       : local_box(logical, from.placement.hierarchy(), from.nd_sbp, from.placement.coordinate(src_id));
  }

  std::vector<comm::Message> sends, recvs;
  std::vector<Tensor> keep_alive;
  std::vector<std::pair<Tensor, Box>> arrivals;  // staged pieces and where they go in `out`
  for (const TransferMessage& m : transfer_messages(logical, from, to, me, src_boxes)) {
    if (m.src_rank == me && m.dst_rank == me) {
      Tensor piece = slice(local, relative_to(m.box, my_src));
      Box where = relative_to(m.box, my_dst);
      if (partial) {
        reduce_into_box(out, where, piece, *partial);
      } else {
        copy_box(piece, Box::whole(piece.shape()), out, where.start);
      }
    } else if (m.src_rank == me) {
      Tensor piece = slice(local, relative_to(m.box, my_src));
      keep_alive.push_back(piece);
      sends.push_back({piece.data(), piece.numel(), m.dst_rank, &piece.memory()});
    } else {
      Box where = relative_to(m.box, my_dst);
      int64_t offset = partial ? -1 : contiguous_offset(where, out.shape());
      Tensor landing = offset >= 0 ? out.view(offset, where.extent) : Tensor::empty(where.extent, dtype, out.memory());
      if (offset < 0) arrivals.push_back({landing, where});
      recvs.push_back({landing.data(), landing.numel(), m.src_rank, &landing.memory()});
    }
  }
  comm::world().exchange(sends, recvs, dtype, lane);
  for (auto& [piece, where] : arrivals) {
    if (partial) {
      reduce_into_box(out, where, piece, *partial);
    } else {
      copy_box(piece, Box::whole(piece.shape()), out, where.start);
    }
  }
  return out;
}

}  // namespace

Tensor empty_local(const Shape& logical, DType dtype, Memory& memory) {
  return Tensor::empty(logical.empty() ? Shape{0} : Shape(logical.size(), 0), dtype, memory);
}

bool transfers_only(const Plan& plan) {
  return std::all_of(plan.steps.begin(), plan.steps.end(), [](const Step& s) { return s.kind == StepKind::kTransfer; });
}

Tensor execute(const Plan& plan, const Shape& logical, const Tensor& local, int lane, const Tensor* into,
               PartStatus* status) {
  if (lane > 0 && !transfers_only(plan)) throw std::logic_error("boxing: a plan with collectives cannot run on a lane");
  if (status && (lane > 0 || into)) throw std::logic_error("boxing: a status is carried by eager conversions only");
  return telling(status, [&](Fault* fault) {
    Tensor t = local;
    for (size_t i = 0; i < plan.steps.size(); ++i) {
      const Step& step = plan.steps[i];
      const Tensor* last = i + 1 == plan.steps.size() ? into : nullptr;
      t = step.kind == StepKind::kTransfer ? run_transfer(step.from, step.to, logical, t, nullptr, lane, last)
                                           : run_axis_step(step, logical, t, last, fault);
    }
    return t;
  });
}

std::optional<std::string> fusion_key(const Plan& plan) {
  if (plan.steps.empty()) return std::nullopt;
  std::string key;
  for (const Step& step : plan.steps) {
    if (step.kind != StepKind::kAllReduce) return std::nullopt;
    key += step.from.placement.str() + " axis " + std::to_string(step.axis) + " " +
           step.from.nd_sbp[step.axis].str() + "; ";
  }
  return key;
}

std::vector<Tensor> execute_fused(const Plan& plan, const std::vector<Tensor>& locals, PartStatus* status) {
  if (!fusion_key(plan)) throw std::logic_error("execute_fused: the plan has a step other than an all-reduce");
  if (locals.empty()) return {};
  const DType dtype = locals[0].dtype();
  int64_t total = 0;
  for (const Tensor& t : locals) {
    if (t.dtype() != dtype) throw std::logic_error("execute_fused: tensors of different dtypes");
    total += t.numel();
  }
  return telling(status, [&](Fault* fault) {
    Memory& memory = locals[0].memory();
    // Room after the elements for a status word per member of the largest group.
    const bool words = fault && in_payload(total, dtype);
    const Tensor buffer = Tensor::empty({total + (words ? comm::world_size() : 0)}, dtype, memory);
    int64_t offset = 0;
    for (const Tensor& t : locals) {
      if (t.numel() > 0) copy_box(t, Box::whole(t.shape()), buffer.view(offset, t.shape()), Shape(t.shape().size(), 0));
      offset += t.numel();
    }
    const int me = comm::world_rank();
    for (const Step& step : plan.steps) {
      const Placement& p = step.from.placement;
      if (!p.contains(me)) continue;
      comm::Group& g = comm::group_of(p.axis_group(me, step.axis));
      const ReduceOp op = step.from.nd_sbp[step.axis].reduce_op();
      if (words) {
        all_reduce_telling(g, buffer, total, op, *fault);
      } else {
        g.all_reduce(buffer.data(), buffer.data(), total, dtype, op, memory);
        if (fault) tell_apart(g, memory, *fault);
      }
    }
    std::vector<Tensor> out;
    offset = 0;
    for (const Tensor& t : locals) {
      out.push_back(buffer.view(offset, t.shape()));
      offset += t.numel();
    }
    return out;
  });
}

Tensor rebalance(const Tensor& local, const Shape& logical, const Layout& layout, const std::vector<Box>& held_boxes) {
  return run_transfer(layout, layout, logical, local, &held_boxes);
}

Tensor box(const Tensor& local, const Shape& logical, const Layout& from, const Layout& to) {
  return execute(*cached_plan(logical, local.dtype(), from, to), logical, local);
}

}  // namespace mf::boxing
