// Copyright 2026 The meshflow Authors.
// The memory plan (passes.h: memory): plan_arena and its lower bound, and the pass.
#include <algorithm>
#include <cstdint>
#include <functional>
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

}  // namespace

int64_t plan_arena(const std::vector<RegisterUse>& registers, const std::function<bool(int, int)>& ordered,
                   std::vector<int64_t>& offsets) {
  offsets.assign(registers.size(), 0);
  // Whether every reader of q finishes before r's writer starts.
  auto dead_before = [&](const RegisterUse& q, const RegisterUse& r) {
    if (q.consumers.empty()) return ordered(q.producer, r.producer);
    for (int c : q.consumers) {
      if (!ordered(c, r.producer)) return false;
    }
    return true;
  };
  std::vector<int> order(registers.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return registers[a].bytes > registers[b].bytes; });
  auto span = [&](int q) { return std::make_pair(offsets[q], offsets[q] + aligned(registers[q].bytes)); };
  std::vector<int> placed;  // by [begin, end), so the first gap that fits is found in one pass
  int64_t arena = 0;
  for (int r : order) {
    const int64_t size = aligned(registers[r].bytes);
    if (size == 0) continue;
    // The lowest offset where r overlaps no register whose lifetime it overlaps; those past
    // the gap found are never asked about.
    int64_t offset = 0;
    for (int q : placed) {
      const auto [begin, end] = span(q);
      if (begin - offset >= size) break;
      if (end <= offset || dead_before(registers[q], registers[r]) || dead_before(registers[r], registers[q])) continue;
      offset = std::max(offset, end);
    }
    offsets[r] = offset;
    arena = std::max(arena, offset + size);
    placed.insert(std::upper_bound(placed.begin(), placed.end(), r, [&](int a, int b) { return span(a) < span(b); }), r);
  }
  return arena;
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
  for (size_t r = 0; r < m.registers.size(); ++r) {
    RankPlan::Register& reg = m.registers[r];
    const int64_t bytes = static_cast<int64_t>(numel(reg.meta.shape) * dtype_size(reg.meta.dtype));
    if (reg.persistent) {
      c.memory.persistent_bytes += bytes;
      continue;
    }
    if (m.pipelined && c.made_in[r] == Phase::kMicro) {
      for (int k = 0; k < static_cast<int>(c.stages.size()) - reg.stage; ++k) {
        reg.slots.push_back(Tensor::empty(reg.meta.shape, reg.meta.dtype, m.memory()));
        c.memory.buffer_bytes += bytes;
      }
      continue;
    }
    uses.push_back({bytes, c.producer_task[r], c.readers[r]});
    planned.push_back(static_cast<int>(r));
    c.memory.no_reuse_bytes += aligned(bytes);
  }
  std::vector<int64_t> offsets;
  c.memory.arena_bytes = plan_arena(uses, std::cref(ordered), offsets);
  c.memory.max_live_bytes = max_live_bytes(uses, static_cast<int>(m.tasks.size()));
  c.memory.registers = static_cast<int>(m.registers.size());
  m.arena_bytes = c.memory.arena_bytes;
  m.arena = m.memory().allocate(static_cast<size_t>(c.memory.arena_bytes));
  for (size_t i = 0; i < planned.size(); ++i) {
    RankPlan::Register& reg = m.registers[planned[i]];
    reg.slots = {Tensor::wrap(static_cast<char*>(m.arena.get()) + offsets[i], reg.meta.shape, reg.meta.dtype, m.arena,
                              m.memory())};
  }
}

}  // namespace mf::graph
