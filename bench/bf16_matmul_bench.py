"""matmul in bfloat16 against float32, in one run: 1024 x 1024 x 1024 and 4096 x 1024 x 1024
(m x n x k), through mf.matmul on local tensors (its output allocated as a user's call
does). bfloat16 rows: a bfloat16 result, and a float32 one (float32_out, what mf.autocast
asks for). Best of --repeats timings of --iterations calls each.

    OMP_NUM_THREADS=2 PYTHONPATH=build/python /usr/bin/python3 bench/bf16_matmul_bench.py
"""
import argparse
import time

import numpy as np

import meshflow as mf
from meshflow._tensor import apply


def seconds(f, iterations, repeats):
    f()
    mf.synchronize()
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(iterations):
            f()
        mf.synchronize()
        best = min(best, (time.perf_counter() - start) / iterations)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iterations", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    flags = [line for line in open("/proc/cpuinfo") if line.startswith("flags")][0].split()
    print(f"CPU: avx512_bf16 {'avx512_bf16' in flags}, amx_bf16 {'amx_bf16' in flags}")
    rng = np.random.default_rng(0)
    for m, n, k in ((1024, 1024, 1024), (4096, 1024, 1024)):
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        A, B = mf.tensor(a), mf.tensor(b)
        Ab, Bb = A.to(mf.bfloat16), B.to(mf.bfloat16)
        flop = 2.0 * m * n * k
        rows = {
            "float32": seconds(lambda: mf.matmul(A, B), args.iterations, args.repeats),
            "bfloat16": seconds(lambda: mf.matmul(Ab, Bb), args.iterations, args.repeats),
            "bfloat16 -> float32": seconds(lambda: apply("matmul", [Ab, Bb], {"float32_out": True}),
                                           args.iterations, args.repeats),
        }
        for name, s in rows.items():
            print(f"{m}x{n}x{k} {name:20s} {s * 1e3:8.2f} ms {flop / s / 1e9:7.0f} GFLOP/s  "
                  f"{rows['float32'] / s:5.2f}x float32")


if __name__ == "__main__":
    main()
