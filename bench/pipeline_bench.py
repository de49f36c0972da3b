"""Pipeline bubble: how long each stage's compute thread idles while micro-batches flow
through p stages, beside Megatron's (p-1)/(m+p-1) for one-forward-one-backward. Run with p
ranks (one stage each), with the trace on:

    MESHFLOW_TRACE=/tmp/pipe PYTHONPATH=build/python /usr/bin/python3 -m meshflow.launch \\
        --nproc 2 bench/pipeline_bench.py --micro-batches 4,8,16

With --tensor-parallel t, the ranks form p = ranks / t stages of a [t] mesh each, and
each stage's layers alternate column parallel and row parallel (Megatron's: an all-reduce
after each pair forward, one before it backward), so a stage's collectives of one
micro-batch's forward pass interleave with those of another's backward pass:

    MESHFLOW_TRACE=/tmp/pipe PYTHONPATH=build/python /usr/bin/python3 -m meshflow.launch \\
        --nproc 4 bench/pipeline_bench.py --tensor-parallel 2 --micro-batches 8

With fewer cores than ranks, --device testdev and MESHFLOW_TESTDEV_LATENCY_US=1000 with a
small --width give every act a millisecond of its stream without a core (the test device's
latency, as a GPU kernel's), so the schedule shows undistorted by ranks sharing cores; each
act then costs about the same, so the last stage's loss weighs more than with real compute.

The model: p stages of --layers Linear(--width, --width) + GELU each (balanced, as the
formula assumes), cross-entropy at the end, SGD; a call of mf.nn.Graph with m micro-batches of
--rows rows. For each m, after --warmup calls, the best of --steps calls: the pipelined
part of the call (from the first rank starting its micro-batches to the last one ending
them), each stage's compute busy time inside it (its actors' spans), and the idle
fraction 1 - busy / window, which is the bubble when the stages take equal time (the step
returns the input's gradient, so that the first stage's backward is not one matmul
shorter than the others'; the last stage still adds the loss). The default stages (2 x
Linear(2048) on 64 rows, about 20 ms per micro-batch and stage) keep the last stage's loss
and the transfers between stages small beside a stage's work; with Linear(1024) the loss
makes the last stage about 3% slower, and the first stage's idle share grows by that
difference on top of the bubble (no schedule can remove it); the column `slowest` is the
busiest rank's idle share, the bubble with that imbalance left out. Also the
peak slots each stage's registers held (p - s at most: the buffers that bound 1F1B), and
the most micro-batch memory each stage held at once, in units of one micro-batch's.
"""
import argparse
import os

import numpy as np

import meshflow as mf
import meshflow.nn as nn
import meshflow.nn.functional as F


def megatron_sbp(name, param):
    """Within a stage's mesh, even layers column parallel (weight rows, bias split), odd
    layers row parallel (weight columns split, bias whole): one all-reduce per pair each way."""
    index = int(name.split(".")[0]) // 2
    if index % 2 == 0:
        return mf.sbp.split(0)
    return mf.sbp.split(1) if name.endswith("weight") else mf.sbp.broadcast


class Stages(nn.Module):
    def __init__(self, placements, width, layers, tensor_parallel=False):
        super().__init__()
        self.placements = placements
        self.stages = nn.ModuleList()
        for placement in placements:
            seq = nn.Sequential(*[m for _ in range(layers) for m in (nn.Linear(width, width), nn.GELU())])
            seq.to_global(placement, megatron_sbp if tensor_parallel else mf.sbp.broadcast)
            self.stages.append(seq)

    def forward(self, x):
        for placement, seq in zip(self.placements, self.stages):
            x = seq(x.to_global(placement=placement, sbp=mf.sbp.broadcast))
        return x


class Step(nn.Graph):
    def __init__(self, model, m):
        super().__init__()
        self.model = model
        self.add_optimizer(mf.optim.SGD(model.parameters(), lr=1e-3))
        self.config.set_gradient_accumulation_steps(m)

    def build(self, x, y):
        # The input's gradient too (returned, so it is computed): the first stage's backward
        # then costs what the others' do, as the formula assumes.
        x.requires_grad = True
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        return loss, x.grad.sum()


def gather(value, placement):
    """Every rank's float `value`, on every rank."""
    local = mf.tensor(np.array([value], np.float64))
    return local.to_global(placement=placement, sbp=mf.sbp.split(0)).numpy()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--micro-batches", default="4,8,16")
    ap.add_argument("--rows", type=int, default=64, help="rows per micro-batch")
    ap.add_argument("--width", type=int, default=2048)
    ap.add_argument("--layers", type=int, default=2, help="layers per stage")
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--device", default="cpu",
                    help="cpu, or testdev with MESHFLOW_TESTDEV_LATENCY_US set: each kernel then holds its "
                         "stream that long without a core, so 4 ranks on fewer cores still show the schedule")
    ap.add_argument("--tensor-parallel", type=int, default=1,
                    help="ranks per stage: each stage a [t] mesh, its layers column then row parallel (even --layers)")
    args = ap.parse_args()
    if not os.environ.get("MESHFLOW_TRACE"):
        raise SystemExit("pipeline_bench measures from the actors' spans: set MESHFLOW_TRACE=<prefix>")
    world, tp = mf.env.get_world_size(), args.tensor_parallel
    if world % tp or (tp > 1 and args.layers % 2):
        raise SystemExit(f"--tensor-parallel {tp}: expected it to divide the {world} ranks and an even --layers")
    p = world // tp
    rank = mf.env.get_rank()
    stage = rank // tp
    everyone = mf.placement("cpu", ranks=list(range(world)))
    placements = [mf.placement(args.device, ranks=list(range(s * tp, (s + 1) * tp))) for s in range(p)]
    latency = int(os.environ.get("MESHFLOW_TESTDEV_LATENCY_US", "0")) if args.device == "testdev" else 0
    mf.manual_seed(0)
    model = Stages(placements, args.width, args.layers, tp > 1)
    rng = np.random.default_rng(0)
    if rank == 0:
        print(f"pipeline: {p} stages of [{tp}] x {args.layers} x Linear({args.width}, {args.width})"
              f"{' (column then row parallel)' if tp > 1 else ''}, {args.rows} rows per "
              f"micro-batch; bubble = idle share of each rank's compute inside the pipelined part of a call")
        print(f"  {'m':>3} {'theory':>7} {'window':>9} {'slowest':>8} " + "".join(f"{'rank ' + str(r):>9}" for r in range(world)) +
              "   peak slots per rank; micro-batch memory held per rank (x one micro-batch)")
    for m in [int(v) for v in args.micro_batches.split(",")]:
        step = Step(model, m)
        rows = m * args.rows
        x = mf.tensor(rng.standard_normal((rows, args.width)).astype(np.float32), placement=placements[0],
                      sbp=mf.sbp.broadcast)
        y = mf.tensor(rng.integers(0, args.width, rows).astype(np.int64), placement=placements[-1],
                      sbp=mf.sbp.broadcast)
        best = None
        for i in range(args.warmup + args.steps):
            mf.synchronize()
            step(x, y)[0].numpy()
            start, end = step._compiled_last().last_pipeline_us()
            # A test device's act holds its stream for the latency at least (the span is the
            # host's part of it).
            busy = sum(min(max(e, s + latency), end) - max(s, start) for _, stream, s, e in mf._C.trace_spans()
                       if stream == "compute" and e > start and s < end)
            starts, ends, busies = gather(start, everyone), gather(end, everyone), gather(busy, everyone)
            window = ends.max() - starts.min()
            bubbles = 1 - busies / window
            if i >= args.warmup and (best is None or window < best[0]):
                best = (window, bubbles)
        mine = [r for r in step.registers() if r["bytes"] > 0 and r["stage"] == stage and r["slots"] == p - stage]
        peaks = gather(max((r["peak"] for r in mine), default=0), everyone).astype(int)
        # Micro-batch memory: the most bytes this stage's buffers held at once (each register's
        # peak slots), in units of one micro-batch's registers.
        held = gather(sum(r["bytes"] * r["peak"] for r in mine) / 1e6, everyone)
        one = gather(sum(r["bytes"] for r in mine) / 1e6, everyone)
        if rank == 0:
            theory = (p - 1) / (m + p - 1)
            print(f"  {m:>3} {theory:7.3f} {best[0] / 1e3:7.1f}ms {best[1].min():8.3f} " + "".join(f"{b:9.3f}" for b in best[1]) +
                  "   " + " ".join(str(v) for v in peaks) + "   held " +
                  ", ".join(f"{h:.1f} MB = {h / o:.1f} x {o:.1f} MB" for h, o in zip(held, one)))


if __name__ == "__main__":
    main()
