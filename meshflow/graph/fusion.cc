// Copyright 2026 The meshflow Authors.
#include "meshflow/graph/fusion.h"

#include <algorithm>
#include <cstring>
#include <omp.h>

#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "meshflow/ops/chain_program.h"
#include "meshflow/ops/op.h"

namespace mf::graph {
namespace {

// Elements in one op's result for a block: a chain's blocks stay in the core's L2 cache
// while the kernel calls are still long enough to amortize their set-up.
constexpr int64_t kBlockElements = int64_t{1} << 16;

Shape leading(const Shape& s) { return s.empty() ? Shape{} : Shape(s.begin(), s.end() - 1); }

// `rows` rows of a tensor of local shape s, in s's rank: [1, .., 1, rows, s.back()].
Shape block_shape(const Shape& s, int64_t rows) {
  Shape b(s.size(), 1);
  b[b.size() - 2] = rows;
  b.back() = s.back();
  return b;
}

// Where an op of a chain reads input j.
struct Source {
  int member = -1;  // -1: the fused node's input `index`; else that member's output `index`
  int index = 0;
  bool rows = true;  // a block of rows of it, or all of it (broadcast to every block)
};

struct Member {
  const OpDef* op = nullptr;
  std::vector<Source> inputs;
  std::vector<int> stored_as;  // per output: the fused node's output index, or -1 (block buffers only)
  KernelCall calls[2];         // on a full block, and on the last, shorter one
};

// Rows in a block of a chain whose results have local shape s.
int64_t block_rows_of(const Shape& s) {
  return std::max<int64_t>(1, std::min(numel(leading(s)), kBlockElements / std::max<int64_t>(1, s.back())));
}

// A fused chain's kernel.
class Chain {
 public:
  Chain(std::vector<Member> members, const Shape& shape, std::vector<TensorMeta> outputs)
      : members_(std::move(members)),
        outputs_(std::move(outputs)),
        rows_(numel(leading(shape))),
        block_rows_(block_rows_of(shape)) {}

  std::vector<Tensor> run(const std::vector<Tensor>& in, const KernelContext& ctx) const {
    std::vector<Tensor> outs;
    for (size_t k = 0; k < outputs_.size(); ++k) outs.push_back(ctx.output(k, outputs_[k].shape, outputs_[k].dtype));
    const int64_t blocks = (rows_ + block_rows_ - 1) / block_rows_;
    std::exception_ptr error;
    // Blocks first, stride apart, on this thread, with its own buffers for the results no
    // register stores and each member's results on the block at hand.
    // Nothing may leave an OpenMP region by an exception: errors are kept for after it.
    auto run_blocks = [&](int64_t first, int64_t stride) {
      try {
        std::vector<std::vector<Tensor>> buffers(members_.size()), results(members_.size());
        for (size_t i = 0; i < members_.size(); ++i) {
          for (size_t k = 0; k < members_[i].stored_as.size(); ++k) {
            const TensorMeta& meta = members_[i].calls[0].outputs[k];
            buffers[i].push_back(members_[i].stored_as[k] < 0 ? Tensor::empty(meta.shape, meta.dtype) : Tensor());
          }
        }
        for (int64_t b = first; b < blocks; b += stride) run_block(b, in, outs, buffers, results);
      } catch (...) {
#pragma omp critical(mf_fusion_error)
        if (!error) error = std::current_exception();
      }
    };
    // The team takes the blocks; members' kernels inside then stay on their thread
    // (kernel::use_team). One block runs here, its kernels free to use the team.
    if (blocks > 1 && !omp_in_parallel()) {
#pragma omp parallel
      run_blocks(omp_get_thread_num(), omp_get_num_threads());
    } else {
      run_blocks(0, 1);
    }
    if (error) std::rethrow_exception(error);
    return outs;
  }

 private:
  void run_block(int64_t b, const std::vector<Tensor>& in, const std::vector<Tensor>& outs,
                 const std::vector<std::vector<Tensor>>& buffers, std::vector<std::vector<Tensor>>& results) const {
    const int64_t first = b * block_rows_;
    const bool short_block = rows_ - first < block_rows_;
    for (size_t i = 0; i < members_.size(); ++i) {
      const Member& m = members_[i];
      const KernelCall& call = m.calls[short_block];
      std::vector<Tensor> args;
      for (size_t j = 0; j < m.inputs.size(); ++j) {
        const Source& s = m.inputs[j];
        if (s.member >= 0) {
          args.push_back(results[s.member][s.index]);
        } else if (s.rows) {
          args.push_back(in[s.index].view(first * in[s.index].shape().back(), call.inputs[j].shape));
        } else {
          args.push_back(in[s.index]);
        }
      }
      // Results go straight where they belong: the fused output's rows, or the buffer.
      std::vector<Tensor>& dest = results[i];
      dest.clear();
      for (size_t k = 0; k < m.stored_as.size(); ++k) {
        const Shape& shape = call.outputs[k].shape;
        dest.push_back(m.stored_as[k] >= 0 ? outs[m.stored_as[k]].view(first * shape.back(), shape)
                                           : buffers[i][k].view(0, shape));
      }
      KernelContext ctx = call.context();
      ctx.given = &dest;
      const std::vector<Tensor> got = m.op->kernel(args, ctx);
      for (size_t k = 0; k < dest.size(); ++k) {
        if (got[k].data() != dest[k].data()) std::memcpy(dest[k].data(), got[k].data(), dest[k].nbytes());
      }
    }
  }

  std::vector<Member> members_;
  std::vector<TensorMeta> outputs_;
  int64_t rows_;  // of every member's results (all of one local shape)
  int64_t block_rows_;
};

// What the pass knows of an op node it may fuse, on this rank.
struct Candidate {
  bool ok = false;
  Shape shape;                // local shape of every output
  std::vector<Shape> inputs;  // local shapes
  std::vector<bool> rows;     // input j read by rows (else whole)
  DType compute = DType::kBool;  // with programs: its compute class (chain_compute_class; kBool: either)
};

// With programs: whether a program expresses `node` (one output), and its compute class.
bool expressible(const LogicalGraph& g, const Node& node, Candidate& c) {
  if (node.outputs.size() != 1) return false;
  std::vector<DType> in;
  for (int v : node.inputs) in.push_back(g.values[v].dtype);
  const DType out = g.values[node.outputs[0]].dtype;
  for (DType d : in) {
    const std::optional<DType> k = chain_compute_class(d);
    if (k && *k != DType::kBool) c.compute = *k;
  }
  const std::optional<DType> k = chain_compute_class(out);
  if (k && *k != DType::kBool) c.compute = *k;
  const DType compute = c.compute == DType::kBool ? DType::kFloat32 : c.compute;
  return chain_instruction(node.op->name, node.attrs, in, out, compute).has_value();
}

Candidate candidate(const LogicalGraph& g, const Node& node, int rank, bool programs) {
  Candidate c;
  if (node.kind != NodeKind::kOp || !node.op->elementwise || node.op->draws_random || node.op->kernel_checks_data ||
      node.run_time_attrs || (programs && !expressible(g, node, c))) {
    return c;
  }
  const Placement& placement = g.values[node.outputs[0]].layout.placement;
  const int pid = placement.parallel_id(rank);
  if (pid < 0) return c;
  const Shape coord = placement.coordinate(pid);
  auto local = [&](int v, const NdSbp& nd_sbp) {
    return local_box(g.values[v].shape, placement.hierarchy(), nd_sbp, coord).extent;
  };
  c.shape = local(node.outputs[0], node.signature.outputs[0]);
  if (c.shape.size() < 2 || numel(c.shape) == 0) return c;
  for (size_t k = 0; k < node.outputs.size(); ++k) {
    if (local(node.outputs[k], node.signature.outputs[k]) != c.shape) return c;
  }
  for (size_t j = 0; j < node.inputs.size(); ++j) {
    const Shape x = local(node.inputs[j], node.signature.inputs[j]);
    const bool rows = x.size() == c.shape.size() && leading(x) == leading(c.shape);
    if (!rows && (x.size() > c.shape.size() || numel(leading(x)) != 1)) return c;
    c.inputs.push_back(x);
    c.rows.push_back(rows);
  }
  c.ok = true;
  return c;
}

KernelCall block_call(const LogicalGraph& g, const Node& node, const Candidate& c, int64_t rows) {
  KernelCall call;
  call.attrs = node.attrs;
  for (size_t j = 0; j < node.inputs.size(); ++j) {
    const Shape shape = c.rows[j] ? block_shape(c.inputs[j], rows) : c.inputs[j];
    call.inputs.push_back({shape, g.values[node.inputs[j]].dtype});
    call.input_boxes.push_back(Box::whole(shape));
  }
  for (int v : node.outputs) {
    const Shape shape = block_shape(c.shape, rows);
    call.outputs.push_back({shape, g.values[v].dtype});
    call.output_boxes.push_back(Box::whole(shape));
  }
  return call;
}

// Chains, in program order: a node joins the chain of an input's producer when it may.
// chain_of[n]: node n's chain (-1: none).
// With programs, chains also keep to one compute class and to a program's limits
// (ChainProgram: instructions, inputs).
std::vector<std::vector<int>> find_chains(const LogicalGraph& g, const std::vector<Candidate>& cands,
                                          const std::vector<int>& node_class, bool programs,
                                          std::vector<int>& chain_of) {
  const size_t count = g.nodes.size();
  chain_of.assign(count, -1);
  std::vector<std::vector<int>> chains;
  std::vector<DType> compute;                // per chain: its class (kBool: either, so far)
  std::vector<std::vector<int>> externals;   // per chain: the values it reads from outside
  // The values node `n` reads from outside chain `c` that the chain does not read yet.
  auto new_externals = [&](const Node& node, int c) {
    std::vector<int> fresh;
    for (int v : node.inputs) {
      const bool known = (c >= 0 && (chain_of[g.values[v].producer] == c ||
                                     std::count(externals[c].begin(), externals[c].end(), v))) ||
                         std::count(fresh.begin(), fresh.end(), v);
      if (!known) fresh.push_back(v);
    }
    return fresh;
  };
  auto fits = [&](const Candidate& cand, const Node& node, int c) {
    if (!programs) return true;
    if (cand.compute != DType::kBool && compute[c] != DType::kBool && cand.compute != compute[c]) return false;
    return chains[c].size() < static_cast<size_t>(ChainProgram::kMaxInstructions) &&
           externals[c].size() + new_externals(node, c).size() <= static_cast<size_t>(ChainProgram::kMaxInputs);
  };
  for (size_t n = 0; n < count; ++n) {
    if (!cands[n].ok) continue;
    const Node& node = g.nodes[n];
    int joined = -1;
    for (size_t j = 0; j < node.inputs.size() && joined < 0; ++j) {
      const int u = g.values[node.inputs[j]].producer;
      if (chain_of[u] < 0 || cands[u].shape != cands[n].shape) continue;
      const int c = chain_of[u];
      const int first = chains[c].front();
      if (node_class[first] != node_class[n] || !fits(cands[n], node, c)) continue;
      bool ordered = true;
      for (int v : node.inputs) {
        const int p = g.values[v].producer;
        ordered = ordered && (g.nodes[p].kind == NodeKind::kInput || chain_of[p] == c || p < first);
      }
      if (ordered) joined = c;
    }
    if (joined < 0) {
      joined = static_cast<int>(chains.size());
      chains.emplace_back();
      compute.push_back(DType::kBool);
      externals.emplace_back();
    }
    if (programs) {
      for (int v : new_externals(node, joined)) externals[joined].push_back(v);
      if (cands[n].compute != DType::kBool) compute[joined] = cands[n].compute;
    }
    chains[joined].push_back(static_cast<int>(n));
    chain_of[n] = joined;
  }
  return chains;
}

// How input j (local shape x) of a chain of local shape s is read at its elements.
ChainRead read_of(const Shape& x, bool rows, const Shape& s) {
  const bool columns = !x.empty() && x.back() == s.back();
  if (rows) return columns ? ChainRead::kElement : ChainRead::kRow;
  return columns && s.back() != 1 ? ChainRead::kColumn : ChainRead::kScalar;
}

// The program of `chain` (its members' sources and stored outputs as fused_node made them,
// over the fused node's inputs and output metas): input k is register k, member i's result
// register inputs.size() + i.
std::shared_ptr<const ChainProgram> program_of(const LogicalGraph& g, const std::vector<int>& chain,
                                               const std::vector<Candidate>& cands, const std::vector<Member>& members,
                                               const std::vector<int>& inputs, const std::vector<TensorMeta>& outputs) {
  auto p = std::make_shared<ChainProgram>();
  const Candidate& head = cands[chain.front()];
  for (int n : chain) {
    if (cands[n].compute != DType::kBool) p->compute = cands[n].compute;
  }
  p->rows = numel(leading(head.shape));
  p->cols = head.shape.back();
  p->inputs = static_cast<int>(inputs.size());
  p->size = static_cast<int>(chain.size());
  for (size_t k = 0; k < inputs.size(); ++k) p->input_dtype[k] = g.values[inputs[k]].dtype;
  for (size_t i = 0; i < chain.size(); ++i) {
    const Node& node = g.nodes[chain[i]];
    std::vector<DType> in;
    for (int v : node.inputs) in.push_back(g.values[v].dtype);
    ChainInstruction s = *chain_instruction(node.op->name, node.attrs, in, g.values[node.outputs[0]].dtype, p->compute);
    for (size_t j = 0; j < members[i].inputs.size(); ++j) {
      const Source& src = members[i].inputs[j];
      s.in[j] = static_cast<uint8_t>(src.member >= 0 ? p->inputs + src.member : src.index);
      if (src.member < 0) p->read[src.index] = read_of(cands[chain[i]].inputs[j], src.rows, head.shape);
    }
    p->code[i] = s;
    if (members[i].stored_as[0] >= 0) {
      const int k = members[i].stored_as[0];
      p->output_dtype[k] = outputs[k].dtype;
      p->output_register[k] = static_cast<uint8_t>(p->inputs + i);
    }
  }
  p->outputs = static_cast<int>(outputs.size());
  return p;
}

}  // namespace

FusionStats fuse_elementwise(LogicalGraph& g, const std::vector<int>& node_class, const std::vector<bool>& keep,
                             int rank, FusedChains how) {
  FusionStats stats;
  const bool programs = how == FusedChains::kPrograms;
  const size_t count = g.nodes.size();
  std::vector<Candidate> cands(count);
  for (size_t n = 0; n < count; ++n) cands[n] = candidate(g, g.nodes[n], rank, programs);
  std::vector<std::vector<int>> readers(g.values.size());
  for (size_t n = 0; n < count; ++n) {
    for (int v : g.nodes[n].inputs) readers[v].push_back(static_cast<int>(n));
  }

  std::vector<int> chain_of;
  const std::vector<std::vector<int>> chains = find_chains(g, cands, node_class, programs, chain_of);

  // Each chain of two or more ops becomes one node, in its first op's place.
  auto fused_node = [&](const std::vector<int>& chain) {
    std::vector<int> member_of(count, -1);
    for (size_t i = 0; i < chain.size(); ++i) member_of[chain[i]] = static_cast<int>(i);
    const Candidate& head = cands[chain.front()];
    std::string name = "fused(";
    Node fused(NodeKind::kOp, "", {}, {});
    std::vector<Member> members;
    std::vector<TensorMeta> outputs;
    for (size_t i = 0; i < chain.size(); ++i) {
      const Node& node = g.nodes[chain[i]];
      const Candidate& c = cands[chain[i]];
      name += (i ? ", " : "") + node.name;
      Member m;
      m.op = node.op;
      for (size_t j = 0; j < node.inputs.size(); ++j) {
        const int v = node.inputs[j];
        const int from = member_of[g.values[v].producer];
        if (from >= 0) {
          m.inputs.push_back({from, g.values[v].index, true});
          continue;
        }
        auto at = std::find(fused.inputs.begin(), fused.inputs.end(), v);
        if (at == fused.inputs.end()) {
          fused.inputs.push_back(v);
          fused.signature.inputs.push_back(g.values[v].layout.nd_sbp);
          at = fused.inputs.end() - 1;
        }
        m.inputs.push_back({-1, static_cast<int>(at - fused.inputs.begin()), c.rows[j]});
      }
      for (int v : node.outputs) {
        bool stored = keep[v];
        for (int r : readers[v]) stored = stored || member_of[r] < 0;
        if (stored) {
          m.stored_as.push_back(static_cast<int>(fused.outputs.size()));
          fused.outputs.push_back(v);
          fused.signature.outputs.push_back(g.values[v].layout.nd_sbp);
          outputs.push_back({c.shape, g.values[v].dtype});
        } else {
          m.stored_as.push_back(-1);
          stats.unstored_bytes += numel(c.shape) * static_cast<int64_t>(dtype_size(g.values[v].dtype));
        }
      }
      members.push_back(std::move(m));
    }
    fused.name = name + ")";
    fused.no_grad = std::all_of(chain.begin(), chain.end(), [&](int n) { return g.nodes[n].no_grad; });
    auto op = std::make_shared<OpDef>();
    op->name = fused.name;
    if (programs) {
      op->program = program_of(g, chain, cands, members, fused.inputs, outputs);
      // The program rounds its halves itself: the registry widens nothing.
      op->bfloat16 = op->float16 = true;
    } else {
      const int64_t full = block_rows_of(head.shape), last = numel(leading(head.shape)) % full;
      for (size_t i = 0; i < chain.size(); ++i) {
        members[i].calls[0] = block_call(g, g.nodes[chain[i]], cands[chain[i]], full);
        members[i].calls[1] = block_call(g, g.nodes[chain[i]], cands[chain[i]], last ? last : full);
      }
      auto kernel = std::make_shared<const Chain>(std::move(members), head.shape, std::move(outputs));
      op->kernel = [kernel](const std::vector<Tensor>& in, const KernelContext& ctx) { return kernel->run(in, ctx); };
    }
    fused.op = op.get();
    g.fused_ops.push_back(std::move(op));
    stats.chains += 1;
    stats.fused_ops += static_cast<int>(chain.size());
    return fused;
  };

  std::vector<Node> nodes;
  nodes.reserve(count);
  for (size_t n = 0; n < count; ++n) {
    const int c = chain_of[n];
    if (c < 0 || chains[c].size() < 2) {
      nodes.push_back(std::move(g.nodes[n]));
    } else if (chains[c].front() == static_cast<int>(n)) {
      Node fused = fused_node(chains[c]);
      for (int member : chains[c]) {
        for (int v : g.nodes[member].outputs)
          g.values[v] = {g.values[v].shape, g.values[v].dtype, g.values[v].layout, static_cast<int>(nodes.size()), -1};
      }
      nodes.push_back(std::move(fused));
    }
  }
  g.nodes = std::move(nodes);
  g.renumber_producers();
  return stats;
}

}  // namespace mf::graph
