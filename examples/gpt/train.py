"""Trains the GPT of model.py on the fortunes corpus, on any mesh, with one layout argument.

    python3 -m meshflow.launch --nproc 4 examples/gpt/train.py --layout 2x2x1_8_128x2 --steps 200

The layout `dxmxp_B_hxl` is data-parallel size x tensor-parallel size x pipeline size,
global batch, hidden size x layers. --graph runs each step as a compiled graph
(mf.nn.Graph) instead of eagerly. The ranks form p stages of a [d, m] mesh each (stage i:
ranks i*d*m ..); the model is the same code for every layout (model.py says which SBP each
parameter gets and which stage holds which layers). With p > 1 in graph mode each step is
split into --micro-batches (default 2p) that flow through the stages, one forward one
backward; eagerly, the stages take turns on the whole batch.
Prints a progress line per log interval, a generated sample and a summary; with --json,
rank 0 also writes the per-step losses for comparing layouts. The summary's peak_memory_bytes
is each rank's peak memory in use on the device over the training steps; with --graph,
steady_peak_memory_bytes is that over the steps after the first (which traces and compiles
the step).

--checkpoint-activations keeps only each block's input for backward, which runs the block
again: eagerly through mf.utils.checkpoint, with --graph through the compiler's recompute pass
(graph.config.activation_checkpointing on each block; `--checkpoint-activations selective`
recomputes only the cheap ops, as Megatron's selective mode, graph mode only); --memory-limit BYTES (K, M, G suffixes) caps each rank's
memory on the device (mf.set_memory_limit): a step that needs more raises
mf.OutOfMemoryError on every rank.

--zero N (1, 2 or 3) shards the AdamW state (1), also the gradients (2) and also the
parameters (3) along the data axis (mf.optim's zero_stage; see docs/memory.md), eagerly and
with --graph (where the compiler schedules the gathers and reductions), which lowers
peak_memory_bytes as the stage says, with the losses of plain data parallelism.

--save PATH writes the training state at the end, and every --save-every N steps: model,
optimizers, the step (which is also the data position, since step k's batch is drawn from
(seed, k), and the learning rate's), and the random generator's state. --resume PATH
continues from it, on any layout of the same model: the same layout repeats the
uninterrupted run's losses bitwise, another one to rounding.
"""
import argparse
import json
import os
import re
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import meshflow as mf  # noqa: E402
import data  # noqa: E402
from model import GPT, Config, input_sbp, parameter_sbp, place  # noqa: E402

LAYOUT = re.compile(r"^(\d+)x(\d+)x(\d+)_(\d+)_(\d+)x(\d+)$")


def parse_layout(text):
    m = LAYOUT.match(text)
    if not m:
        raise ValueError(f"layout {text!r} is not of the form dxmxp_B_hxl, e.g. 2x2x1_8_128x2")
    d, tp, pp, batch, hidden, layers = map(int, m.groups())
    if pp < 1:
        raise ValueError(f"layout {text!r}: pipeline size {pp}; expected at least 1")
    if batch % d:
        raise ValueError(f"layout {text!r}: global batch {batch} does not divide by data-parallel size {d}")
    return d, tp, batch, hidden, layers


def pipeline_size(text):
    """The p of a layout dxmxp_B_hxl."""
    parse_layout(text)
    return int(LAYOUT.match(text).group(3))


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layout", default="1x1x1_8_128x2")
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--block", type=int, default=64, help="context length")
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--min-lr", type=float, default=3e-4)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--weight-decay", type=float, default=0.1)
    ap.add_argument("--clip", type=float, default=1.0, help="gradient clipping by global norm (0: off)")
    ap.add_argument("--dropout", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--device", default="cpu", help="the device type of the meshes (mf.device_types())")
    ap.add_argument("--dtype", choices=("float32", "float64", "bf16"), default="float32",
                    help="bf16: mixed precision (mf.autocast: matmuls and attention in bfloat16, as torch's; the weights float32)")
    ap.add_argument("--log-every", type=int, default=10)
    ap.add_argument("--eval-every", type=int, default=0, help="validation loss every N steps (0: at the end only)")
    ap.add_argument("--sample", type=int, default=200, help="bytes to generate at the end (0: none)")
    ap.add_argument("--json", help="rank 0 writes {layout, losses, ...} here")
    ap.add_argument("--save", help="save the training state here at the end (and every --save-every steps)")
    ap.add_argument("--save-every", type=int, default=0, help="with --save: also save every N steps (0: at the end)")
    ap.add_argument("--resume", help="continue from the training state saved here (any layout of the same model)")
    ap.add_argument("--graph", action="store_true",
                    help="graph mode: the training step traced once, compiled and run by actors (mf.nn.Graph)")
    ap.add_argument("--dot", help="with --graph: write the compiled step's graph here for Graphviz (rank 0)")
    ap.add_argument("--micro-batches", type=int, default=0,
                    help="with --graph: micro-batches per step (gradient accumulation; default 2p with p > 1 "
                         "pipeline stages, else 1)")
    ap.add_argument("--checkpoint-activations", nargs="?", const="full", choices=["full", "selective"],
                    help="each block keeps only its input for backward and runs again there (eager: "
                         "mf.utils.checkpoint; --graph: the compiler's recompute pass); 'selective' (graph mode) "
                         "recomputes only the cheap ops; less activation memory, more compute")
    ap.add_argument("--memory-limit", help="each rank's memory limit on the device, in bytes or with K, M, G "
                                           "(mf.set_memory_limit); beyond it a step raises mf.OutOfMemoryError")
    ap.add_argument("--zero", type=int, default=0, choices=(0, 1, 2, 3),
                    help="ZeRO stage (mf.optim's zero_stage, eager and --graph): 1 shards the optimizer state "
                         "along the data axis, 2 also the gradients, 3 also the parameters")
    args = ap.parse_args(argv)
    if args.save_every and not args.save:
        ap.error("--save-every needs --save PATH")
    if args.checkpoint_activations == "selective" and not args.graph:
        ap.error("--checkpoint-activations selective needs --graph (eager checkpointing recomputes whole blocks)")
    return args


# What a resumed run must share with the run that saved: the model and the schedule. The
# layout's parallel sizes, graph mode and micro-batches may change.
RUN_CONFIG = ("block", "heads", "lr", "min_lr", "warmup", "weight_decay", "clip", "dropout", "seed", "dtype", "steps")


def run_config(args):
    _, _, batch, hidden, layers = parse_layout(args.layout)
    config = {name: getattr(args, name) for name in RUN_CONFIG}
    config.update(batch=batch, hidden=hidden, layers=layers)
    return config


def resume(path, args, model, optimizers):
    """Loads the training state at `path` into the model, the optimizers and the random
    generator; returns the step to continue from."""
    state = mf.load(path, placement="local")  # full values: any layout takes them
    saved, wanted = state["config"], run_config(args)
    differ = [f"{k} {saved.get(k)!r} -> {wanted[k]!r}" for k in wanted if saved.get(k) != wanted[k]]
    if differ:
        raise ValueError(f"--resume {path}: saved by a run of another model or schedule ({', '.join(differ)}); "
                         "only the layout's parallel sizes, --graph and --micro-batches may change")
    if state["step"] >= args.steps:
        raise ValueError(f"--resume {path}: saved at step {state['step']}; --steps {args.steps} leaves nothing to do")
    model.load_state_dict(state["model"])
    for name, opt in optimizers.items():
        opt.load_state_dict(state[name])
    mf.set_rng_state(state["rng"])
    return state["step"]


def mesh(d, tp, first_rank=0, device="cpu"):
    """Ranks first_rank .. first_rank + d * tp - 1 as a [d, tp] mesh of `device` type."""
    world = mf.env.get_world_size()
    if first_rank + d * tp > world:
        raise ValueError(f"the layout needs {d} x {tp} = {d * tp} ranks; the job has {world} "
                         f"(launch with --nproc {d * tp})")
    return mf.placement(device, ranks=(first_rank + np.arange(d * tp)).reshape(d, tp).tolist())


def batch_tensor(array, placement):
    """This data-parallel rank's rows as its part of the global batch."""
    return mf.from_numpy(np.ascontiguousarray(array)).to_global(placement=placement, sbp=input_sbp())


def stage_meshes(d, tp, pp, device="cpu"):
    """The pipeline's stages: stage i is ranks i*d*tp .. as a [d, tp] mesh."""
    return [mesh(d, tp, first_rank=i * d * tp, device=device) for i in range(pp)]


def evaluate(model, stages, args, d, batch, dp_rank, batches=4):
    model.eval()
    total = 0.0
    with mf.no_grad():
        for i in range(batches):
            x, y = data.get_batch(i, batch, args.block, args.seed, dp_rank, d, split="val")
            total += model(batch_tensor(x, stages[0]), batch_tensor(y, stages[-1])).item()
    model.train()
    return total / batches


def generate(model, stages, prompt, n, seed):
    """n bytes sampled after `prompt`; every rank draws the same ones (same logits, same seed)."""
    model.eval()
    rng = np.random.default_rng(seed)
    tokens = list(prompt)
    whole = [mf.sbp.broadcast] * 2
    with mf.no_grad():
        for _ in range(n):
            context = np.array([tokens[-model.cfg.block_size:]], dtype=np.int64)
            logits = model(mf.tensor(context, placement=stages[0], sbp=whole))
            last = logits[0, -1].numpy().astype(np.float64)
            p = np.exp(last - last.max())
            tokens.append(int(rng.choice(len(p), p=p / p.sum())))
    model.train()
    return bytes(tokens[len(prompt):])


class TrainStep(mf.nn.Graph):
    """The eager loop's step as a graph: forward, backward, clipping, both optimizers."""

    def __init__(self, model, optimizers, clip, micro_batches=1, checkpoint=None):
        super().__init__()
        self.model = model
        self.clip = clip
        for opt in optimizers:
            self.add_optimizer(opt)
        self.config.set_gradient_accumulation_steps(micro_batches)
        for block in model.blocks if checkpoint else []:
            self.config.activation_checkpointing(block, selective=checkpoint == "selective")

    def build(self, x, y):
        loss = self.model(x, y)
        loss.backward()
        if self.clip > 0:
            mf.optim.clip_grad_norm_(self.model.parameters(), self.clip)
        return loss


def main(argv=None):
    args = parse_args(argv)
    d, tp, _, _, _ = parse_layout(args.layout)
    pp = pipeline_size(args.layout)
    if d * tp * pp != mf.env.get_world_size():
        raise ValueError(f"layout {args.layout} needs {d * tp * pp} ranks; the job has {mf.env.get_world_size()} "
                         f"(launch with --nproc {d * tp * pp})")
    return train(args)


def train(args, placement=None):
    """Trains on the layout's stages (or on `placement`, one [d, tp] mesh; ranks outside
    take part in the collective calls but hold nothing); returns the summary, with the
    per-step losses."""
    d, tp, batch, hidden, layers = parse_layout(args.layout)
    pp = pipeline_size(args.layout)
    stages = [placement] if placement is not None else stage_meshes(d, tp, pp, args.device)
    if len(stages) != pp:
        raise ValueError(f"layout {args.layout} has {pp} pipeline stages; train() was given one placement")
    rank = mf.env.get_rank()
    mine = [np.array(s.ranks) for s in stages if rank in np.array(s.ranks)]
    dp_rank = int(np.argwhere(mine[0] == rank)[0][0]) if mine else 0
    say = print if rank == np.array(stages[0].ranks).flat[0] else (lambda *a, **k: None)
    micro_batches = args.micro_batches or (2 * pp if pp > 1 else 1)

    if args.memory_limit is not None:
        mf.set_memory_limit(args.memory_limit, device=args.device)
    mf.manual_seed(args.seed)
    cfg = Config(vocab_size=data.VOCAB_SIZE, block_size=args.block, n_layer=layers, n_head=args.heads,
                 n_embd=hidden, dropout=args.dropout)
    model = GPT(cfg)
    if args.dtype == "float64":
        for p in model.parameters():
            p.data = p.double()
    model.checkpoint_activations = bool(args.checkpoint_activations) and not args.graph
    place(model, stages, parameter_sbp)
    params = list(model.parameters())
    n_params = sum(p.numel() for p in params)
    decay = [p for n, p in model.named_parameters() if n.endswith("weight") and p.ndim == 2]
    no_decay = [p for n, p in model.named_parameters() if not (n.endswith("weight") and p.ndim == 2)]
    opt_decay = mf.optim.AdamW(decay, lr=args.lr, betas=(0.9, 0.95), weight_decay=args.weight_decay,
                               zero_stage=args.zero)
    opt_plain = mf.optim.AdamW(no_decay, lr=args.lr, betas=(0.9, 0.95), weight_decay=0.0, zero_stage=args.zero)

    corpus = data.load()
    say(f"gpt: layout {args.layout} on {pp} stage(s) of a {d}x{tp} mesh ({d} data x {tp} tensor parallel x {pp} "
        f"pipeline{f', {micro_batches} micro-batches' if args.graph and micro_batches > 1 else ''}), {layers} layers, "
        f"hidden {hidden}, {args.heads} heads, block {args.block}, batch {batch}, {n_params:,} parameters, "
        f"{args.dtype}; text {len(corpus.train):,} bytes (unigram entropy {data.unigram_entropy(corpus.train):.3f} "
        "nats)")
    optimizers = {"opt_decay": opt_decay, "opt_plain": opt_plain}

    def precision():
        """The forward pass's precision: autocast to bfloat16 with --dtype bf16."""
        return mf.autocast("cpu", dtype=mf.bfloat16, enabled=args.dtype == "bf16")

    def save(step):
        """Saves the state after `step` steps (collective)."""
        mf.save({"step": step, "model": model.state_dict(), "rng": mf.get_rng_state(), "config": run_config(args),
                 **{name: opt.state_dict() for name, opt in optimizers.items()}}, args.save)
        say(f"checkpoint: step {step} saved to {args.save}", flush=True)

    first = resume(args.resume, args, model, optimizers) if args.resume else 0
    if first:
        say(f"resumed from {args.resume} at step {first}", flush=True)
    losses, times, comm = [], [], []
    tokens_per_step = batch * args.block
    step_graph = (TrainStep(model, [opt_decay, opt_plain], args.clip, micro_batches, args.checkpoint_activations)
                  if args.graph else None)
    # The peak over the steps alone: the setup's queued work (making and sharding the model)
    # runs first. (An out of memory in it, on several ranks, is raised at the first loss
    # read, on every rank: synchronize() leaves it to a read the ranks agree on.)
    mf.synchronize()
    mf.reset_peak_memory_stats(args.device)
    compile_peak = 0  # with --graph, the peak of the first step, which traces and compiles it
    for step in range(first, args.steps):
        if step == first + 1 and step_graph is not None:
            compile_peak = mf.memory_stats(args.device)["peak_bytes"]
            mf.reset_peak_memory_stats(args.device)
        start, before = time.perf_counter(), mf.comm_stats()["bytes_sent"]
        lr = mf.optim.warmup_cosine_lr(step, args.warmup, args.steps, args.lr, args.min_lr)
        opt_decay.lr = opt_plain.lr = lr
        x, y = data.get_batch(step, batch, args.block, args.seed, dp_rank, d)
        if step_graph is not None:
            with precision():
                loss = step_graph(batch_tensor(x, stages[0]), batch_tensor(y, stages[-1]))
            if step == first and args.dot and rank == 0:
                step_graph.to_dot(args.dot)
        else:
            with precision():
                loss = model(batch_tensor(x, stages[0]), batch_tensor(y, stages[-1]))
            loss.backward()
            if args.clip > 0:
                mf.optim.clip_grad_norm_(params, args.clip)
            opt_decay.step()
            opt_plain.step()
            opt_decay.zero_grad()
            opt_plain.zero_grad()
        value = loss.item()
        # The loss is ready once the forward has run; the step's time covers all of its work.
        mf.synchronize()
        times.append(time.perf_counter() - start)
        comm.append(mf.comm_stats()["bytes_sent"] - before)
        losses.append(value)
        if step % args.log_every == 0 or step == args.steps - 1:
            recent = times[-args.log_every:]
            say(f"step {step:5d} | loss {value:.4f} | lr {lr:.2e} | "
                f"{tokens_per_step * len(recent) / sum(recent):9,.0f} tokens/s | "
                f"comm {comm[-1] / 1e6:8.3f} MB/step (rank 0)", flush=True)
        if args.eval_every and step and step % args.eval_every == 0:
            say(f"      val loss {evaluate(model, stages, args, d, batch, dp_rank):.4f}", flush=True)
        if args.save and args.save_every and (step + 1) % args.save_every == 0 and step + 1 < args.steps:
            save(step + 1)

    # Each rank's peak over the training steps (evaluation after them not counted).
    steady = mf.memory_stats(args.device)["peak_bytes"]
    world = mf.placement("cpu", ranks=list(range(mf.env.get_world_size())))
    peaks, steady_peaks = ([int(v) for v in mf.tensor([value], dtype=mf.int64).to_global(
        placement=world, sbp=mf.sbp.split(0)).numpy()] for value in (max(compile_peak, steady), steady))
    val = evaluate(model, stages, args, d, batch, dp_rank)
    timed = times[1:] or times
    summary = {
        "layout": args.layout + (" graph" if args.graph else ""), "ranks": d * tp * pp, "steps": args.steps,
        "first_step": first, "parameters": n_params,
        "first_loss": losses[0], "final_loss": losses[-1], "val_loss": val,
        "unigram_entropy": data.unigram_entropy(corpus.train),
        "tokens_per_s": tokens_per_step * len(timed) / sum(timed),
        "comm_bytes_per_step": float(np.mean(comm[1:] or comm)),
        "peak_memory_bytes": peaks,
    }
    if step_graph is not None:  # this rank's memory plan: the arena of the step's temporaries
        summary["graph_arena_bytes"] = step_graph.memory_plan()["arena_bytes"]
        if args.steps > first + 1:
            summary["steady_peak_memory_bytes"] = steady_peaks
    if args.sample:
        text = generate(model, stages, b"The ", args.sample, args.seed)
        say("sample: " + (b"The " + text).decode("utf-8", errors="replace"))
    say("summary:")
    for key, value in summary.items():
        say(f"  {key:20s} {value:,.4f}" if isinstance(value, float) else f"  {key:20s} {value}")
    if args.save:
        save(args.steps)
    summary["losses"] = losses
    if args.json and rank == 0:
        with open(args.json, "w") as f:
            json.dump(summary, f)
    return summary


if __name__ == "__main__":
    main()
