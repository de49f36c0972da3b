"""Activation checkpointing's cost and saving, side by side in one run: the step time and
the activation memory of a training step with and without checkpointing every block, and
whether the two runs' losses are bitwise equal.

    python3 bench/checkpoint_bench.py                        # 1 and 2 threads, every model
    python3 bench/checkpoint_bench.py --threads 2 --models gpt gpt-graph

Models (each block checkpointed):
- gpt: examples/gpt's GPT (--dropout: train.py's 0 by default, fused attention), eager, through mf.utils.checkpoint (train.py's
  --checkpoint-activations); a step is forward, backward and AdamW, as train.py's.
- gpt-graph, gpt-selective: the same step compiled (mf.nn.Graph), the blocks under
  config.activation_checkpointing (full; selective: only the cheap ops recomputed).
- mlp: a stack of the GPT's MLP blocks (fc, GELU, proj, dropout 0.1), eager; forward and
  backward.
- encoder: the layers of an nn.TransformerEncoder run in a loop, each through
  mf.utils.checkpoint with use_reentrant=True, as torch.utils.checkpoint code does; forward
  and backward.
- mlp-graph, encoder-graph: those steps compiled, each block under
  config.activation_checkpointing.

Two models with the same weights train side by side, one with checkpointing, one without,
their steps interleaved (same batch, same seed), so that the machine's noise falls on both;
time: the best step of each, and the best of the process's CPU time over a step (every
thread's: steadier than the step's time where other jobs share the cores; with several
threads it counts OpenMP's spinning too). Memory, eager: the peak in use during forward and backward
beyond what was in use before the step, less the gradients (both runs make them): the
activations' share. Graph mode: the compiled step's arena (memory_plan), which holds the
activations and the step's other temporaries.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "gpt"))

import meshflow as mf  # noqa: E402
import meshflow.nn as nn  # noqa: E402
import meshflow.nn.functional as F  # noqa: E402
from meshflow.utils.checkpoint import checkpoint  # noqa: E402
import train  # noqa: E402
from model import GPT, MLP, Config  # noqa: E402
from thread_runs import run_children  # noqa: E402

MODELS = ("gpt", "gpt-graph", "gpt-selective", "mlp", "mlp-graph", "encoder", "encoder-graph")


class Blocks(nn.Module):
    """Runs `blocks` in turn, each through mf.utils.checkpoint when `checkpointed`."""

    def __init__(self, blocks, checkpointed, use_reentrant):
        super().__init__()
        self.blocks = nn.ModuleList(blocks)
        self.checkpointed = checkpointed
        self.use_reentrant = use_reentrant

    def forward(self, x):
        for block in self.blocks:
            x = checkpoint(block, x, use_reentrant=self.use_reentrant) if self.checkpointed else block(x)
        return x


def make_pair(name, args):
    """Two runs of the model `name` with the same weights, without and with checkpointing:
    for each, (step(batch) -> loss, parameters, graph or None)."""
    if name.startswith("gpt"):
        cfg = Config(vocab_size=256, block_size=args.block, n_layer=args.layers, n_head=4, n_embd=args.hidden,
                     dropout=args.dropout)
        runs = []
        for checkpointed in (False, True):
            mf.manual_seed(0)
            model = GPT(cfg)
            opt = mf.optim.AdamW(model.parameters(), lr=1e-3, betas=(0.9, 0.95), weight_decay=0.1)
            if name == "gpt":
                model.checkpoint_activations = checkpointed
                runs.append((eager_step(lambda x, y, m=model: m(x, y), opt), list(model.parameters()), None))
            else:
                how = ("selective" if name == "gpt-selective" else "full") if checkpointed else None
                graph = train.TrainStep(model, [opt], clip=0.0, checkpoint=how)
                runs.append((graph, list(model.parameters()), graph))
        return runs
    runs = []
    graph_mode = name.endswith("-graph")
    for checkpointed in (False, True):
        mf.manual_seed(0)
        if name.startswith("mlp"):
            blocks = [MLP(Config(n_embd=args.hidden, dropout=0.1)) for _ in range(args.layers)]
        else:
            blocks = [nn.TransformerEncoderLayer(args.hidden, 4, 4 * args.hidden, dropout=0.1, batch_first=True)
                      for _ in range(args.layers)]
        model = Blocks(blocks, checkpointed and not graph_mode, name.startswith("encoder"))
        opt = mf.optim.SGD(model.parameters(), lr=0.0)  # the same weights every step: forward and backward alone
        loss_of = lambda x, y, m=model: F.cross_entropy(m(x).reshape(-1, args.hidden), y.reshape(-1))  # noqa: E731
        if not graph_mode:
            runs.append((eager_step(loss_of, opt), list(model.parameters()), None))
            continue
        graph = GraphStep(model, loss_of, opt)
        for block in model.blocks if checkpointed else []:
            graph.config.activation_checkpointing(block)
        runs.append((graph, list(model.parameters()), graph))
    return runs


class GraphStep(mf.nn.Graph):
    def __init__(self, model, loss_of, opt):
        super().__init__()
        self.model = model
        self.loss_of = loss_of
        self.add_optimizer(opt)

    def build(self, x, y):
        loss = self.loss_of(x, y)
        loss.backward()
        return loss


def eager_step(loss_of, opt):
    def step(x, y):
        loss = loss_of(x, y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        return loss
    return step


def batch(name, args, step):
    rng = np.random.default_rng(step)
    y = mf.tensor(rng.integers(0, 256 if name.startswith("gpt") else args.hidden, (args.batch, args.block)))
    if name.startswith("gpt"):
        return mf.tensor(rng.integers(0, 256, (args.batch, args.block))), y
    return mf.tensor(rng.standard_normal((args.batch, args.block, args.hidden)).astype(np.float32)), y


def measure(name, args):
    """(best step seconds, best step CPU seconds, activation bytes) without and with
    checkpointing, and whether every loss was bitwise equal."""
    runs = make_pair(name, args)
    best = [float("inf")] * 2
    best_cpu = [float("inf")] * 2
    peak = [0] * 2
    equal = True
    for k in range(args.warmup + args.steps):
        x, y = batch(name, args, k)
        losses = []
        for i, (step, params, graph) in enumerate(runs):
            mf.manual_seed(100 + k)
            mf.synchronize()
            mf.reset_peak_memory_stats()
            before = mf.memory_allocated()
            start, start_cpu = time.perf_counter(), time.process_time()
            loss = step(x, y)
            losses.append(loss.numpy())
            mf.synchronize()
            seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
            grads = 0 if graph is not None else sum(p.numel() * p.element_size() for p in params)
            if k >= args.warmup:
                best[i] = min(best[i], seconds)
                best_cpu[i] = min(best_cpu[i], cpu)
                peak[i] = max(peak[i], mf.max_memory_allocated() - before - grads)
        equal = equal and losses[0].tobytes() == losses[1].tobytes()
    for i, (_, _, graph) in enumerate(runs):
        if graph is not None:
            peak[i] = graph.memory_plan()["arena_bytes"]
    return best, best_cpu, peak, equal


def child(args):
    for name in args.models:
        (plain, checked), (plain_cpu, checked_cpu), (plain_mem, checked_mem), equal = measure(name, args)
        what = "arena" if name == "gpt-selective" or name.endswith("-graph") else "activations"
        dropout = f" dropout={args.dropout}" if name.startswith("gpt") else ""
        print(f"checkpoint_bench {name:13s} threads={args.threads} L={args.layers} C={args.hidden} T={args.block} "
              f"B={args.batch}{dropout}: step {plain * 1e3:7.1f} -> {checked * 1e3:7.1f} ms (x{checked / plain:.2f}, CPU time "
              f"x{checked_cpu / plain_cpu:.2f})   "
              f"{what} {plain_mem / 1e6:7.1f} -> {checked_mem / 1e6:7.1f} MB "
              f"(-{100 * (1 - checked_mem / plain_mem):.0f}%)   losses bitwise equal: {equal}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", nargs="+", choices=MODELS, default=list(MODELS))
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--block", type=int, default=128)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--dropout", type=float, default=0.0, help="the GPT's (the other models': 0.1)")
    ap.add_argument("--steps", type=int, default=10, help="timed steps of each run (after --warmup)")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        args.threads = args.threads[0]
        child(args)
    else:
        run_children(__file__, args.threads, strip_threads(sys.argv[1:]))


def strip_threads(argv):
    """argv without --threads and its values (each child gets its own)."""
    out, skipping = [], False
    for a in argv:
        if a == "--threads":
            skipping = True
        elif skipping and a.isdigit():
            continue
        else:
            skipping = False
            out.append(a)
    return out


if __name__ == "__main__":
    main()
