"""Boxing planning time on large meshes, in one process (the planner is pure: a
_C.Placement may name any ranks). Each line: the mesh, the conversion, the plan's steps, and
the best of --repeat planning times (fresh plans: no cache).

    /usr/bin/python3 bench/plan_bench.py

The hardening issue's floor: under 10 ms and 50 MB per plan on 1-d to 4-d meshes of 4,096 to
16,384 ranks. A plan holds its steps only (transfers are symbolic), so its memory is small.
"""
import argparse
import time

import meshflow as mf
from meshflow import _C

S0, S1, B, P = mf.sbp.split(0), mf.sbp.split(1), mf.sbp.broadcast, mf.sbp.partial_sum
SHAPE = [1 << 16, 1 << 14]

SAME_PLACEMENT = {
    1: [((S0,), (S1,)), ((P,), (S0,)), ((S0,), (B,))],
    2: [((S0, S1), (S1, S0)), ((S0, S0), (S1, S1)), ((P, S0), (S1, B)), ((B, S0), (S0, S0))],
    3: [((S0, S1, S0), (S1, S0, S1)), ((S0, S0, S0), (S1, S1, S1)), ((P, S0, B), (S1, B, S0))],
    4: [((S0, S1, S0, S1), (S1, S0, S1, S0)), ((S0, S0, S0, S0), (S1, S1, S1, S1)),
        ((P, B, S0, S1), (S1, S0, B, P))],
}
MESHES = [(4096,), (16384,), (64, 64), (128, 128), (16, 16, 16), (32, 32, 16), (8, 8, 8, 8), (16, 8, 8, 16)]


def plan_ms(shape, a, sa, b, sb, repeat):
    best = float("inf")
    for i in range(repeat):
        start = time.perf_counter()
        steps, _ = _C.plan_boxing([shape[0] + i, shape[1]], "float32", a, list(sa), b, list(sb))
        best = min(best, time.perf_counter() - start)
    return best * 1e3, [s[0] for s in steps]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    worst = 0.0
    for h in MESHES:
        n = 1
        for x in h:
            n *= x
        p = _C.Placement("cpu", list(h), list(range(n)))
        for sa, sb in SAME_PLACEMENT[len(h)]:
            ms, steps = plan_ms(SHAPE, p, sa, p, sb, args.repeat)
            worst = max(worst, ms)
            print(f"{str(h):18s} {str(sa):44s} -> {str(sb):44s} {ms:8.2f} ms  {steps}")
    # Pipeline stage boundaries: two placements of 4,096 ranks each.
    first = _C.Placement("cpu", [64, 64], list(range(4096)))
    second = _C.Placement("cpu", [64, 64], list(range(4096, 8192)))
    for sa, sb in [((S0, S1), (S0, S1)), ((S0, S1), (S1, S0)), ((P, S1), (B, S0)), ((S0, S0), (B, B))]:
        ms, steps = plan_ms(SHAPE, first, sa, second, sb, args.repeat)
        worst = max(worst, ms)
        print(f"{'64x64 -> 64x64':18s} {str(sa):44s} -> {str(sb):44s} {ms:8.2f} ms  {steps}")
    print(f"slowest plan: {worst:.2f} ms (floor: 10 ms)")


if __name__ == "__main__":
    main()
