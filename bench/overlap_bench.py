"""How much of the gradient communication the VM hides behind backward: the GPT under a
data-parallel layout, step time with the asynchronous VM against blocking mode (each op run
before its call returns), beside the time of the gradient all-reduces alone. Meant to run
with the launcher's --net-rate, where waiting on the link takes no CPU:

    PYTHONPATH=build/python /usr/bin/python3 -m meshflow.launch --nproc 2 --net-rate 2gbit \\
        bench/overlap_bench.py --layout 2x1x1_8_128x2

Prints, per gradient bucket size, t_comm (a backward whose only work is converting every
parameter's partial gradient, bucketed alike: what the gradient conversions cost alone
under the same link), the best step time of --steps steps (after --warmup) with the VM and
in blocking mode (the two modes alternate step by step, so both see the same machine), and the fraction of communication hidden, (t_blocking - t_vm) / t_comm.
"""
import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "gpt"))

import meshflow as mf  # noqa: E402
import train  # noqa: E402
import data  # noqa: E402
from model import GPT, Config, parameter_sbp  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--layout", default="2x1x1_8_128x2")
    ap.add_argument("--block", type=int, default=64)
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--buckets", type=lambda v: [float(x) for x in v.split(",")], default=[0, 0.25, 1, 4],
                    help="gradient bucket sizes to measure, in MiB, comma-separated (0: no buckets)")
    args = ap.parse_args()
    d, tp, batch, hidden, layers = train.parse_layout(args.layout)
    placement = train.mesh(d, tp)
    rank = mf.env.get_rank()
    dp_rank = rank // tp

    mf.manual_seed(0)
    model = GPT(Config(vocab_size=data.VOCAB_SIZE, block_size=args.block, n_layer=layers, n_head=4, n_embd=hidden))
    model.to_global(placement, parameter_sbp)
    params = model.parameters()
    opt = mf.optim.AdamW(params, lr=1e-3)

    def step(i):
        x, y = data.get_batch(i, batch, args.block, 0, dp_rank, d)
        loss = model(train.batch_tensor(x, placement), train.batch_tensor(y, placement))
        loss.backward()
        opt.step()
        opt.zero_grad()
        return loss.item()

    def best_step_times():
        # VM and blocking steps alternate, so both see the same machine (it is shared and
        # noisy); each mode's best step counts.
        for i in range(args.warmup):
            step(i)
        best = {False: float("inf"), True: float("inf")}
        try:
            for i in range(args.steps):
                for blocking in (False, True):
                    mf._C.set_launch_blocking(blocking)
                    mf.synchronize()
                    start = time.perf_counter()
                    step(args.warmup + i)
                    mf.synchronize()
                    best[blocking] = min(best[blocking], time.perf_counter() - start)
        finally:
            mf._C.set_launch_blocking(False)
        return best[False], best[True]

    def comm_alone():
        # The gradient conversions alone, bucketed as in a step: leaves in the parameters'
        # layouts whose gradients arrive as partial sums (to_local's gradient), with no
        # other work in backward than summing ones.
        leaves = [mf.zeros(*p.shape, placement=placement, sbp=p.sbp).requires_grad_() for p in params]
        best = float("inf")
        for _ in range(args.steps):
            mf.synchronize()
            start = time.perf_counter()
            loss = leaves[0].to_local().sum()
            for q in leaves[1:]:
                loss = loss + q.to_local().sum()
            loss.backward()
            mf.synchronize()
            best = min(best, time.perf_counter() - start)
            for q in leaves:
                q.grad = None
        return best

    grad_bytes = sum(p.numel() for p in params) * 4
    if rank == 0:
        print(f"overlap: layout {args.layout}, block {args.block}, {grad_bytes / 2**20:.2f} MiB of gradients, "
              f"rate {os.environ.get('MESHFLOW_NET_RATE', 'unlimited (shared memory)')}")
        print(f"  {'bucket':>8} {'t_comm':>9} {'VM':>9} {'blocking':>9} {'hidden':>7}")
    for bucket in args.buckets:
        mf.set_grad_bucket_size(int(bucket * 2**20))
        t_comm = comm_alone()
        t_vm, t_blocking = best_step_times()
        if rank == 0:
            print(f"  {bucket:>5g}MiB {t_comm * 1e3:7.1f}ms {t_vm * 1e3:7.1f}ms {t_blocking * 1e3:7.1f}ms "
                  f"{(t_blocking - t_vm) / t_comm:7.2f}")


if __name__ == "__main__":
    main()
