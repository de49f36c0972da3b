"""How much of the gradient communication the VM hides behind backward: the GPT under a
data-parallel layout, step time with the asynchronous VM against blocking mode (each op run
before its call returns), beside the time of the gradient all-reduces alone. Meant to run
with the launcher's --net-rate (a rate-limited TCP loopback):

    PYTHONPATH=build/python /usr/bin/python3 -m meshflow.launch --nproc 2 --net-rate 10gbit \\
        bench/overlap_bench.py --layout 2x1x1_8_256x4 --block 128

Prints, per gradient bucket size:
- t_comm: the gradient conversions alone under the same link (as many all-reduces as one
  backward issues, of as many bytes, back to back), best of --steps;
- cpu: the CPU time this process spends in them (median). On one machine the simulated
  network is not free: TCP over loopback copies every byte in and out of the kernel on the
  same cores, and the comm worker polls MPI; whatever of it falls during backward slows
  backward, so at most (t_comm - cpu) / t_comm of the communication can hide;
- the best step time of --steps steps (after --warmup) with the VM and in blocking mode
  (the two modes alternate step by step, so both see the same machine);
- hidden: (t_blocking - t_vm) / t_comm from those best times, and paired: the median over
  neighbouring pairs of steps of (t_blocking - t_vm), over t_comm (less moved by a machine
  whose speed drifts).
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
    params = list(model.parameters())
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
        saved = []  # per pair of neighbouring steps: blocking's time less the VM's
        try:
            for i in range(args.steps):
                took = {}
                for blocking in (False, True):
                    mf._C.set_launch_blocking(blocking)
                    mf.synchronize()
                    start = time.perf_counter()
                    step(args.warmup + i)
                    mf.synchronize()
                    took[blocking] = time.perf_counter() - start
                    best[blocking] = min(best[blocking], took[blocking])
                saved.append(took[True] - took[False])
        finally:
            mf._C.set_launch_blocking(False)
        return best[False], best[True], float(np.median(saved))

    def comm_alone():
        # The gradient conversions alone: what one backward issues for them (counted by
        # comm_stats: how many all-reduces, how many bytes), then as many all-reduces of
        # flat tensors holding those bytes, back to back, with no backward around them.
        # (Timing a backward whose only work is converting gradients would count its own
        # kernels too: about 9 ms of this GPT's 28 at 10gbit.)
        leaves = [mf.zeros(*p.shape, placement=placement, sbp=p.sbp).requires_grad_() for p in params]
        before = mf.comm_stats()
        loss = leaves[0].to_local().sum()
        for q in leaves[1:]:
            loss = loss + q.to_local().sum()
        loss.backward()
        mf.synchronize()
        after = mf.comm_stats()
        count = after["all_reduce"] - before["all_reduce"]
        elems = (after["bytes_sent"] - before["bytes_sent"]) // 4 // max(count, 1)
        partial = [mf.sbp.partial_sum] + [mf.sbp.broadcast] * (len(placement.hierarchy) - 1)
        flats = [mf.zeros(elems, placement=placement, sbp=partial) for _ in range(count)]
        best = float("inf")
        cpu = []  # this process's CPU seconds per round (its threads, and the network stack's work charged to it)
        for _ in range(args.steps):
            mf.synchronize()
            start, used = time.perf_counter(), time.process_time()
            for f in flats:
                f.to_global(sbp=[mf.sbp.broadcast] * len(partial))
            mf.synchronize()
            best = min(best, time.perf_counter() - start)
            cpu.append(time.process_time() - used)
        return best, float(np.median(cpu))

    grad_bytes = sum(p.numel() for p in params) * 4
    if rank == 0:
        print(f"overlap: layout {args.layout}, block {args.block}, {grad_bytes / 2**20:.2f} MiB of gradients, "
              f"rate {os.environ.get('MESHFLOW_NET_RATE', 'unlimited (shared memory)')}")
        print(f"  {'bucket':>8} {'t_comm':>9} {'cpu':>8} {'VM':>9} {'blocking':>9} {'hidden':>7} {'paired':>7}")
    for bucket in args.buckets:
        mf.set_grad_bucket_size(int(bucket * 2**20))
        t_comm, cpu = comm_alone()
        t_vm, t_blocking, saved = best_step_times()
        if rank == 0:
            print(f"  {bucket:>5g}MiB {t_comm * 1e3:7.1f}ms {cpu * 1e3:6.1f}ms {t_vm * 1e3:7.1f}ms "
                  f"{t_blocking * 1e3:7.1f}ms {(t_blocking - t_vm) / t_comm:7.2f} {saved / t_comm:7.2f}")


if __name__ == "__main__":
    main()
