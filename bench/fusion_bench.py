"""Graph mode's fusion of elementwise chains (meshflow/graph/fusion.h) against the same graph
unfused, and against eager, on one rank:

    OMP_NUM_THREADS=2 PYTHONPATH=build/python /usr/bin/python3 bench/fusion_bench.py

Two chains over a [rows, 1024] float32 input x and a [1024] bias b, at sizes from inside the
L2 cache to beyond the L3 cache:
- "bias+gelu": gelu(x + b), a Linear's bias and its activation (gelu's arithmetic dominates);
- "5 cheap ops": ((x + b) * 2 + 1) * x - b, every op memory-bound.
Timing: best of --repeats calls, fused and unfused calls alternating (the machine is shared
and noisy). Also the arena each plan needs: fused chains keep their intermediates in
per-thread blocks instead of registers.
"""
import argparse
import time

import meshflow as mf
import meshflow.nn.functional as F

CHAINS = {
    "bias+gelu": lambda x, b: F.gelu(x + b),
    "5 cheap ops": lambda x, b: ((x + b) * 2.0 + 1.0) * x - b,
}


class Chain(mf.nn.Graph):
    def __init__(self, f, fuse):
        super().__init__()
        self.f = f
        self.config.enable_fusion(fuse)

    def build(self, x, b):
        return self.f(x, b)


def best_of(calls, repeats):
    best = [float("inf")] * len(calls)
    for _ in range(repeats):
        for i, call in enumerate(calls):
            start = time.perf_counter()
            call()
            mf.synchronize()  # eager calls return before their kernels end
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", default="256,1024,8192", help="rows of x (1024 floats each)")
    ap.add_argument("--repeats", type=int, default=20)
    args = ap.parse_args()
    p = mf.placement("cpu", ranks=[0])
    print(f"{'chain':12s} {'x MiB':>6s} {'eager ms':>9s} {'unfused ms':>11s} {'fused ms':>9s} "
          f"{'unfused/fused':>14s} {'arena MiB unfused -> fused':>27s}")
    for rows in map(int, args.rows.split(",")):
        x = mf.randn(rows, 1024).to_global(placement=p, sbp=[mf.sbp.broadcast])
        b = mf.randn(1024).to_global(placement=p, sbp=[mf.sbp.broadcast])
        for name, f in CHAINS.items():
            fused, unfused = Chain(f, True), Chain(f, False)
            assert fused(x, b).numpy().tobytes() == unfused(x, b).numpy().tobytes()
            eager_s, unfused_s, fused_s = best_of([lambda: f(x, b), lambda: unfused(x, b), lambda: fused(x, b)],
                                                  args.repeats)
            arenas = [g.memory_plan()["arena_bytes"] / 2**20 for g in (unfused, fused)]
            print(f"{name:12s} {rows * 4096 / 2**20:6.0f} {eager_s * 1e3:9.3f} {unfused_s * 1e3:11.3f} "
                  f"{fused_s * 1e3:9.3f} {unfused_s / fused_s:13.2f}x {arenas[0]:15.1f} -> {arenas[1]:.1f}")


if __name__ == "__main__":
    main()
