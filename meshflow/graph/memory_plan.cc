// Copyright 2026 The meshflow Authors.
// The memory plan (passes.h: memory): plan_arena and its lower bound, a pipeline's micro-batch
// slots (MicroSlots), and the pass.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "meshflow/graph/passes.h"

namespace mf::graph {
namespace {

constexpr int64_t kAlign = 64;

int64_t aligned(int64_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// Which tasks finish before which start in every run, as bit rows: task a is ordered
// before b when b depends on a (reads what it made, or waits for it: Task::after), or both
// run on one stream and a comes first (each stream's actors act in plan order), or a's phase
// runs before b's.
class TaskOrder {
 public:
  explicit TaskOrder(const Compilation& c) : words_((c.plan.tasks.size() + 63) / 64) {
    const RankPlan& m = c.plan;
    const size_t T = m.tasks.size();
    ancestors_.assign(T * words_, 0);
    std::vector<uint64_t> earlier_phases(words_, 0);
    int last_of_stream[2] = {-1, -1};  // compute, comm: each acts in plan order
    for (size_t t = 0; t < T; ++t) {
      uint64_t* mine = &ancestors_[t * words_];
      if (t > 0 && m.tasks[t].phase != m.tasks[t - 1].phase) {
        for (size_t a = 0; a < t; ++a) earlier_phases[a / 64] |= uint64_t{1} << (a % 64);
      }
      for (size_t w = 0; w < words_; ++w) mine[w] |= earlier_phases[w];
      auto inherit = [&](int a) {
        const uint64_t* theirs = &ancestors_[static_cast<size_t>(a) * words_];
        for (size_t w = 0; w < words_; ++w) mine[w] |= theirs[w];
        mine[a / 64] |= uint64_t{1} << (a % 64);
      };
      for (const RankPlan::Ref& r : m.tasks[t].inputs) {
        if (r.kind == RankPlan::Ref::kRegister) inherit(c.producer_task[r.index]);
      }
      for (int a : m.tasks[t].after) inherit(a);
      int& last = last_of_stream[c.graph.nodes[m.tasks[t].node].kind == NodeKind::kBoxing && m.tasks[t].accumulator < 0];
      if (last >= 0) inherit(last);
      last = static_cast<int>(t);
    }
  }
  bool operator()(int a, int b) const { return (ancestors_[static_cast<size_t>(b) * words_ + a / 64] >> (a % 64)) & 1; }

 private:
  size_t words_;
  std::vector<uint64_t> ancestors_;
};

// Whether the bound input value `old` is read by task t `reads` times and otherwise only by
// tasks that finish before t starts, and is neither returned nor written to a variable.
bool read_only_before(const Compilation& c, const TaskOrder& ordered, int old, int t, int reads) {
  const RankPlan& m = c.plan;
  auto is_old = [&](const RankPlan::Ref& r) { return r.kind == RankPlan::Ref::kBound && r.index == old; };
  for (const RankPlan::Ref& r : m.output_refs) {
    if (is_old(r)) return false;
  }
  for (const auto& [var, v] : c.graph.writes) {
    if (is_old(m.refs[v])) return false;
  }
  int reads_in_t = 0;
  for (size_t u = 0; u < m.tasks.size(); ++u) {
    for (const RankPlan::Ref& r : m.tasks[u].inputs) {
      if (!is_old(r)) continue;
      if (static_cast<int>(u) == t) {
        reads_in_t += 1;
      } else if (!ordered(static_cast<int>(u), t)) {
        return false;
      }
    }
  }
  return reads_in_t == reads;
}

// Whether task t may write output register r over the bound value `old` (a variable's old
// value, of r's layout): an in-place update of it (Node::overwrite) reading it once, or a
// conversion into it that does not read it (ZeRO's gather of an updated shard), with every
// other reader of `old` finished before t starts.
bool may_write_over(const Compilation& c, const TaskOrder& ordered, int t, int r, int old) {
  const RankPlan::Task& task = c.plan.tasks[t];
  const Node& node = c.graph.nodes[task.node];
  if (node.kind == NodeKind::kBoxing) return task.accumulator < 0 && read_only_before(c, ordered, old, t, 0);
  if (!task.call) return false;
  const size_t k = static_cast<size_t>(std::find(task.outputs.begin(), task.outputs.end(), r) - task.outputs.begin());
  if (k >= node.overwrite.size() || node.overwrite[k] < 0) return false;
  const RankPlan::Ref& in = task.inputs.at(static_cast<size_t>(node.overwrite[k]));
  return in.kind == RankPlan::Ref::kBound && in.index == old && !in.view && read_only_before(c, ordered, old, t, 1);
}

// Buffer donation: a variable's new value takes its old value's memory where the task
// making it may write it there (may_write_over); the run gives the task that memory
// (RankPlan::bind_donations).
void donate_variables(Compilation& c, const TaskOrder& ordered) {
  RankPlan& m = c.plan;
  for (const auto& [var, v] : c.graph.writes) {
    const RankPlan::Ref& made = m.refs[v];
    if (made.kind != RankPlan::Ref::kRegister || made.view || !m.registers[made.index].persistent) continue;
    const int t = c.producer_task[made.index];
    const int old = c.graph.variable_values[var];
    if (t < 0 || !may_write_over(c, ordered, t, made.index, old)) continue;
    RankPlan::Register& reg = m.registers[made.index];
    reg.donor = old;
    c.memory.donated_bytes += static_cast<int64_t>(numel(reg.meta.shape) * dtype_size(reg.meta.dtype));
  }
}

// A pipeline's micro-batch registers. Micro-batches are in flight at once, so such a
// register is written once per micro-batch, into its slots in turn (slot k % n for
// micro-batch k): n = lead + 1 for what the forward pass makes for the backward pass
// (stage_parts: part 0 read in a later part), the micro-batches the stage holds in flight;
// 1 for the rest, whose readers finish within the pass that made it. The stage's compute
// acts in one fixed order (build_actors: part 0 of micro-batch k + lead, then parts 1 and 2
// of micro-batch k, each in plan order), and so do its collectives: act i of the compute order
// runs over [2i, 2i + 1] of a timeline, and each use of a slot (one micro-batch's value)
// spans from its writer's start to its last reader's end. Where the writer or a reader is
// not a compute act (a collective, a transfer between stages), the use is widened to what
// the acts' order guarantees: it begins after the last compute act that must finish before
// the writer starts, and ends before the first compute act that must wait for the reader.
// What must finish before what: a value's writer before its readers, an actor's
// micro-batches in order, the collectives' fixed order, and back pressure (a register's
// writer waits for the readers of the value its slot held). Two slots share memory when
// none of their uses overlap.
class MicroSlots {
 public:
  struct Slot {
    int reg;
    int64_t bytes;
    std::vector<std::pair<int64_t, int64_t>> uses;  // [begin, end], disjoint, in order
  };

  MicroSlots(const Compilation& c, const std::vector<int>& micro) : c_(c), m_(c.plan), pieces_(m_.micro_batches) {
    lead_ = stage_parts(c, part_);
    for (size_t t = 0; t < m_.tasks.size(); ++t) {
      if (m_.tasks[t].phase == Phase::kMicro) local_.emplace(static_cast<int>(t), static_cast<int>(local_.size()));
    }
    slot_count_.assign(m_.registers.size(), 1);
    for (int r : micro) {
      for (int reader : c.readers[r]) {
        if (part_[c.producer_task[r]] == 0 && part_[reader] > 0) slot_count_[r] = lead_ + 1;
      }
    }
    order_acts();
    bound_acts();
    for (int r : micro) make_slots(r);
  }
  const std::vector<Slot>& slots() const { return slots_; }

  // The most bytes of slots in use at once on the timeline: a lower bound of their memory.
  int64_t max_live() const {
    std::map<int64_t, int64_t> delta;
    for (const Slot& s : slots_) {
      for (const auto& [begin, end] : s.uses) {
        delta[begin] += aligned(s.bytes);
        if (end != kNever) delta[end + 1] -= aligned(s.bytes);
      }
    }
    int64_t live = 0, peak = 0;
    for (const auto& [time, d] : delta) peak = std::max(peak, live += d);
    return peak;
  }

  static bool overlap(const Slot& a, const Slot& b) {
    size_t i = 0, j = 0;
    while (i < a.uses.size() && j < b.uses.size()) {
      if (a.uses[i].first <= b.uses[j].second && b.uses[j].first <= a.uses[i].second) return true;
      a.uses[i].second < b.uses[j].second ? ++i : ++j;
    }
    return false;
  }

 private:
  static constexpr int64_t kNever = std::numeric_limits<int64_t>::max();

  int act(int t, int piece) const { return act_[static_cast<size_t>(local_.at(t)) * pieces_ + piece]; }
  bool computes(int t) const {
    const RankPlan::Task& task = m_.tasks[t];
    return !task.lane && !(c_.graph.nodes[task.node].kind == NodeKind::kBoxing && task.accumulator < 0);
  }
  bool collective(int t) const { return !m_.tasks[t].lane && !computes(t); }

  // The acts (task, micro-batch) in an order every run keeps (the actor system's turns),
  // the compute acts numbered along it, and what must finish before each act starts.
  void order_acts() {
    act_.assign(local_.size() * pieces_, -1);
    auto add = [&](int part, int piece) {
      for (const auto& [t, index] : local_) {
        if (part_[t] != part) continue;
        act_[static_cast<size_t>(index) * pieces_ + piece] = static_cast<int>(acts_.size());
        acts_.push_back({t, piece, computes(t) ? compute_acts_++ : -1});
      }
    };
    for (int k = 0; k < std::min(lead_, pieces_); ++k) add(0, k);
    for (int k = 0; k < pieces_; ++k) {
      if (k + lead_ < pieces_) add(0, k + lead_);
      add(1, k);
      add(2, k);
    }
    before_.assign(acts_.size(), {});
    int last_collective = -1;
    for (size_t a = 0; a < acts_.size(); ++a) {
      const auto [t, piece, position] = acts_[a];
      std::vector<int>& before = before_[a];
      for (const RankPlan::Ref& in : m_.tasks[t].inputs) {
        if (in.kind == RankPlan::Ref::kRegister && local_.count(c_.producer_task[in.index])) {
          before.push_back(act(c_.producer_task[in.index], piece));
        }
      }
      if (piece > 0) before.push_back(act(t, piece - 1));
      if (collective(t)) {
        if (last_collective >= 0) before.push_back(last_collective);
        last_collective = static_cast<int>(a);
      }
      for (int r : m_.tasks[t].outputs) {
        if (piece < slot_count_[r]) continue;
        for (int reader : c_.readers[r]) before.push_back(act(reader, piece - slot_count_[r]));
      }
    }
  }

  // Per act, the earliest time it may start and the latest it may end.
  void bound_acts() {
    start_.assign(acts_.size(), -1);
    end_.assign(acts_.size(), kNever);
    for (size_t a = 0; a < acts_.size(); ++a) {
      const int position = std::get<2>(acts_[a]);
      if (position >= 0) {
        start_[a] = 2 * int64_t{position};
        end_[a] = 2 * int64_t{position} + 1;
        continue;
      }
      for (int b : before_[a]) start_[a] = std::max(start_[a], std::get<2>(acts_[b]) >= 0 ? end_[b] + 1 : start_[b]);
    }
    for (size_t a = acts_.size(); a-- > 0;) {
      for (int b : before_[a]) {
        if (std::get<2>(acts_[b]) < 0) end_[b] = std::min(end_[b], std::get<2>(acts_[a]) >= 0 ? start_[a] - 1 : end_[a]);
      }
    }
  }

  void make_slots(int r) {
    const RankPlan::Register& reg = m_.registers[r];
    const int n = slot_count_[r];
    for (int j = 0; j < n; ++j) {
      Slot slot{r, static_cast<int64_t>(numel(reg.meta.shape) * dtype_size(reg.meta.dtype)), {}};
      for (int k = j; k < pieces_; k += n) {
        const int writer = act(c_.producer_task[r], k);
        int64_t end = end_[writer];
        for (int reader : c_.readers[r]) end = std::max(end, end_[act(reader, k)]);
        slot.uses.emplace_back(start_[writer], end);
      }
      std::sort(slot.uses.begin(), slot.uses.end());
      std::vector<std::pair<int64_t, int64_t>> merged;
      for (const auto& use : slot.uses) {
        if (!merged.empty() && use.first <= merged.back().second) {
          merged.back().second = std::max(merged.back().second, use.second);
        } else {
          merged.push_back(use);
        }
      }
      slot.uses = std::move(merged);
      slots_.push_back(std::move(slot));
    }
  }

  const Compilation& c_;
  const RankPlan& m_;
  const int pieces_;
  int lead_ = 0;
  std::vector<int> part_;
  std::map<int, int> local_;  // micro task -> its index among them
  std::vector<int> slot_count_;
  std::vector<std::tuple<int, int, int>> acts_;  // (task, micro-batch, position in the compute order or -1)
  std::vector<int> act_;                          // per (micro task, micro-batch): its act
  int compute_acts_ = 0;
  std::vector<std::vector<int>> before_;  // per act: acts that finish before it starts
  std::vector<int64_t> start_, end_;
  std::vector<Slot> slots_;
};

// Whether q and r may be in use at once: neither's readers (its writer, when it has none)
// all finish before the other's writer starts, by `ordered`.
bool lifetimes_overlap(const RegisterUse& q, const RegisterUse& r, const std::function<bool(int, int)>& ordered) {
  auto dead_before = [&](const RegisterUse& a, const RegisterUse& b) {
    if (a.consumers.empty()) return ordered(a.producer, b.producer);
    for (int c : a.consumers) {
      if (!ordered(c, b.producer)) return false;
    }
    return true;
  };
  return !dead_before(q, r) && !dead_before(r, q);
}

// Offsets for blocks of `bytes` such that blocks that `conflict` (a symmetric relation)
// never overlap: the largest first, each at the lowest offset where it overlaps no placed
// block it conflicts with. Returns the arena's size.
int64_t place_blocks(const std::vector<int64_t>& bytes, const std::function<bool(int, int)>& conflict,
                     std::vector<int64_t>& offsets) {
  offsets.assign(bytes.size(), 0);
  std::vector<int> order(bytes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return bytes[a] > bytes[b]; });
  auto span = [&](int q) { return std::make_pair(offsets[q], offsets[q] + aligned(bytes[q])); };
  std::vector<int> placed;  // by [begin, end), so the first gap that fits is found in one pass
  int64_t arena = 0;
  for (int r : order) {
    const int64_t size = aligned(bytes[r]);
    if (size == 0) continue;
    // The lowest offset where r overlaps no block it conflicts with; those past the gap
    // found are never asked about.
    int64_t offset = 0;
    for (int q : placed) {
      const auto [begin, end] = span(q);
      if (begin - offset >= size) break;
      if (end <= offset || !conflict(q, r)) continue;
      offset = std::max(offset, end);
    }
    offsets[r] = offset;
    arena = std::max(arena, offset + size);
    placed.insert(std::upper_bound(placed.begin(), placed.end(), r, [&](int a, int b) { return span(a) < span(b); }), r);
  }
  return arena;
}

}  // namespace

int64_t plan_arena(const std::vector<RegisterUse>& registers, const std::function<bool(int, int)>& ordered,
                   std::vector<int64_t>& offsets) {
  std::vector<int64_t> bytes;
  for (const RegisterUse& r : registers) bytes.push_back(r.bytes);
  return place_blocks(
      bytes, [&](int q, int r) { return lifetimes_overlap(registers[q], registers[r], ordered); }, offsets);
}

int64_t max_live_bytes(const std::vector<RegisterUse>& registers, int tasks) {
  std::vector<int64_t> delta(static_cast<size_t>(tasks) + 1, 0);
  for (const RegisterUse& r : registers) {
    int last = r.producer;
    for (int c : r.consumers) last = std::max(last, c);
    delta[r.producer] += aligned(r.bytes);
    delta[last + 1] -= aligned(r.bytes);
  }
  int64_t live = 0, peak = 0;
  for (int t = 0; t < tasks; ++t) peak = std::max(peak, live += delta[t]);
  return peak;
}

void plan_memory(Compilation& c) {
  RankPlan& m = c.plan;
  const TaskOrder ordered(c);
  donate_variables(c, ordered);
  std::vector<RegisterUse> uses;
  std::vector<int> planned;  // register index of each planned use
  std::vector<int> micro;    // a pipeline's micro-batch registers
  for (size_t r = 0; r < m.registers.size(); ++r) {
    RankPlan::Register& reg = m.registers[r];
    const int64_t bytes = static_cast<int64_t>(numel(reg.meta.shape) * dtype_size(reg.meta.dtype));
    if (reg.persistent) {
      c.memory.persistent_bytes += bytes;
    } else if (m.pipelined && c.made_in[r] == Phase::kMicro) {
      micro.push_back(static_cast<int>(r));
    } else {
      uses.push_back({bytes, c.producer_task[r], c.readers[r]});
      planned.push_back(static_cast<int>(r));
      c.memory.no_reuse_bytes += aligned(bytes);
    }
  }
  const MicroSlots micro_slots(c, micro);
  const std::vector<MicroSlots::Slot>& slots = micro_slots.slots();
  // One arena for both: the phases run one after another, so no register of the others
  // is in use while a micro-batch's is.
  std::vector<int64_t> bytes;
  for (const RegisterUse& u : uses) bytes.push_back(u.bytes);
  for (const MicroSlots::Slot& s : slots) {
    bytes.push_back(s.bytes);
    c.memory.buffer_bytes += aligned(s.bytes);
    c.memory.no_reuse_bytes += aligned(s.bytes);
  }
  const int n = static_cast<int>(uses.size());
  std::vector<int64_t> offsets;
  c.memory.arena_bytes = place_blocks(
      bytes,
      [&](int a, int b) {
        if ((a < n) != (b < n)) return false;
        if (a >= n) return MicroSlots::overlap(slots[a - n], slots[b - n]);
        return lifetimes_overlap(uses[a], uses[b], std::cref(ordered));
      },
      offsets);
  c.memory.max_live_bytes = std::max(max_live_bytes(uses, static_cast<int>(m.tasks.size())), micro_slots.max_live());
  c.memory.registers = static_cast<int>(m.registers.size());
  m.arena_bytes = c.memory.arena_bytes;
  m.arena = m.memory().allocate(static_cast<size_t>(c.memory.arena_bytes));
  auto at = [&](int block, const TensorMeta& meta) {
    return Tensor::wrap(static_cast<char*>(m.arena.get()) + offsets[block], meta.shape, meta.dtype, m.arena,
                        m.memory());
  };
  for (int i = 0; i < n; ++i) m.registers[planned[i]].slots = {at(i, m.registers[planned[i]].meta)};
  for (size_t i = 0; i < slots.size(); ++i) {
    RankPlan::Register& reg = m.registers[slots[i].reg];
    reg.slots.push_back(at(n + static_cast<int>(i), reg.meta));
  }
}

}  // namespace mf::graph
