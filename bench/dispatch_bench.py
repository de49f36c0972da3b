"""Dispatch overhead per op from Python: add on 1-element float32 tensors, so the time is what
a call costs around a kernel that does nothing, beside PyTorch's torch.add when PyTorch is
installed (it is only a yardstick, never a dependency of meshflow). Run on one rank:

    OMP_NUM_THREADS=1 PYTHONPATH=build/python python3 bench/dispatch_bench.py

Each row is the best of 5 rounds of `--iterations` calls timed with time.perf_counter.
Rows: mf.add on local tensors; mf.add on global tensors on placement [0] (B + B: a plan
cache hit, no boxing); the op handle that mf.add calls (_C.op("add").binary: looked up
once, no attribute dict), to split the time between the Python layer and C++; the generic
binding _C.apply (op by name, attributes in a dict) that other ops go through; torch.add. Ops are issued to the VM and run on its
compute stream; these rows time the issuing thread (the work runs beside it).

Then a burst: 10,000 chained small adds and one mf.synchronize(), asynchronous against
blocking mode (each op run before its call returns, as MESHFLOW_LAUNCH_BLOCKING=1).
"""
import argparse
import time

import numpy as np

import meshflow as mf
from meshflow import _C


def per_call_us(f, iterations, rounds=5):
    """The best round's mean time per call of f(), in microseconds."""
    for _ in range(min(1000, iterations)):
        f()
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(iterations):
            f()
        best = min(best, (time.perf_counter() - start) / iterations)
    return best * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=100_000)
    n = parser.parse_args().iterations

    one = np.ones(1, np.float32)
    a, b = mf.tensor(one), mf.tensor(one)
    p = mf.placement("cpu", ranks=[0])
    ga, gb = mf.tensor(one, placement=p, sbp=mf.sbp.broadcast), mf.tensor(one, placement=p, sbp=mf.sbp.broadcast)
    handle = _C.op("add")
    rows = [
        ("meshflow", "mf.add, local", per_call_us(lambda: mf.add(a, b), n)),
        ("meshflow", "mf.add, global [0] B", per_call_us(lambda: mf.add(ga, gb), n)),
        ("meshflow", "_C.op('add').binary, local", per_call_us(lambda: handle.binary(a._impl, b._impl), n)),
        ("meshflow", "_C.op('add').binary, global", per_call_us(lambda: handle.binary(ga._impl, gb._impl), n)),
        ("meshflow", "_C.apply('add'), local", per_call_us(lambda: _C.apply("add", [a._impl, b._impl], {}, None, None), n)),
        ("meshflow", "_C.apply('add'), global", per_call_us(lambda: _C.apply("add", [ga._impl, gb._impl], {}, None, None), n)),
    ]
    try:
        import torch
    except ImportError:
        print("torch not installed: no PyTorch rows")
    else:
        torch.set_num_threads(1)
        ta, tb = torch.ones(1), torch.ones(1)
        rows.append((f"torch {torch.__version__}", "torch.add", per_call_us(lambda: torch.add(ta, tb), n)))

    print(f"add of two 1-element float32 tensors, {n} calls per round, best of 5 rounds")
    print(f"{'library':<16} {'call':<26} {'us/op':>8}")
    for library, call, us in rows:
        print(f"{library:<16} {call:<26} {us:>8.2f}")

    def burst(length=10_000):
        start = time.perf_counter()
        x = a
        for _ in range(length):
            x = mf.add(x, b)
        issued = time.perf_counter() - start
        mf.synchronize()
        assert x.item() == length + 1
        return issued, time.perf_counter() - start

    results = {}
    for mode, blocking in (("async", False), ("blocking", True)):
        _C.set_launch_blocking(blocking)
        runs = [burst() for _ in range(5)]
        results[mode] = min(runs, key=lambda r: r[1])
    _C.set_launch_blocking(False)
    print("\n10,000 chained adds of 1-element tensors, then mf.synchronize() (best of 5)")
    print(f"{'mode':<10} {'issue (ms)':>11} {'total (ms)':>11}")
    for mode, (issued, total) in results.items():
        print(f"{mode:<10} {issued * 1e3:>11.1f} {total * 1e3:>11.1f}")
    print(f"blocking / async total: {results['blocking'][1] / results['async'][1]:.2f}x")


if __name__ == "__main__":
    main()
