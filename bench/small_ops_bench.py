"""Single mid-size ops, 16 KB to 1 MB of float32 input: the time of `x.sum()` and `x + x`
when the caller waits on each result, and per op of a chain of ten `y * c` waited on once,
meshflow beside PyTorch eager in the same run (when torch imports). They show where running
a kernel on the issuing thread beats handing it to the VM's worker (ops/dispatch.cc,
small_kernel), whose wake-up a waiting caller pays.

    PYTHONPATH=build/python /usr/bin/python3 bench/small_ops_bench.py          # meshflow alone
    PYTHONPATH=build/python /root/tv/bin/python bench/small_ops_bench.py       # and torch
    ... bench/small_ops_bench.py --threads 1 --repeat 500 --kb 64 128

Each thread count runs in a child process started with OMP_NUM_THREADS set. Per case the
median of --repeat timed calls (the waits make the best one an outlier); ratio = torch's time /
meshflow's (> 1: meshflow faster). Timings on a shared machine are noisy: compare A/B within
one run.
"""
import argparse
import time

import numpy as np

try:
    import torch  # before meshflow: torch's CUDA libraries clash with symbols meshflow loads first
except ImportError:
    torch = None

import meshflow as mf  # noqa: E402
from thread_runs import run_children  # noqa: E402


def median_time(step, repeat, warmup=20):
    for _ in range(warmup):
        step()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def steps(lib, x_np):
    """name -> (step, ops per step)."""
    sync = mf.synchronize if lib is mf else (lambda: None)
    x = lib.tensor(x_np)

    def chain():
        y = x
        for _ in range(10):
            y = y * 1.0001
        sync()
    return {"sum": (lambda: (x.sum(), sync()), 1), "add": (lambda: (x + x, sync()), 1), "chain": (chain, 10)}


def child(args):
    threads = args.threads[0]
    mf.set_num_threads(threads)
    if torch is not None:
        torch.set_num_threads(threads)
    for kb in args.kb:
        x = np.random.default_rng(0).standard_normal(kb * 256).astype(np.float32)
        theirs_steps = steps(torch, x) if torch is not None else {}
        for name, (step, ops) in steps(mf, x).items():
            ours = median_time(step, args.repeat) / ops
            line = f"{name:6s} {kb:5d} KB threads={threads}  meshflow {ours * 1e6:8.1f} us"
            if torch is not None:
                their_step, _ = theirs_steps[name]
                theirs = median_time(their_step, args.repeat) / ops
                line += f"  torch {theirs * 1e6:8.1f} us  ratio {theirs / ours:5.2f}"
            print(line, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--kb", type=int, nargs="+", default=[16, 32, 64, 128, 256, 512, 1024])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    print(f"small_ops_bench: median of {args.repeat}, torch {torch.__version__ if torch is not None else 'not installed'}",
          flush=True)
    run_children(__file__, args.threads, ["--repeat", str(args.repeat), "--kb", *map(str, args.kb)])


if __name__ == "__main__":
    main()
