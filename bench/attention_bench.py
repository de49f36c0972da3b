"""Fused causal attention (F.scaled_dot_product_attention) against the unfused ops it replaces
(matmul, causal softmax, matmul), forward and backward, at the GPT's shape [B, H, T, D] =
[8, 4, 128, 64] by default, alternately, best of --repeats timings of --iterations each.

    OMP_NUM_THREADS=2 PYTHONPATH=build/python /usr/bin/python3 bench/attention_bench.py [--shape 8,4,512,64]
"""
import argparse
import math
import time

import numpy as np

import meshflow as mf
import meshflow.nn.functional as F


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shape", default="8,4,128,64", help="B,H,T,D")
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    b, h, t, d = map(int, args.shape.split(","))
    rng = np.random.default_rng(0)
    q, k, v = (mf.tensor(rng.standard_normal((b, h, t, d)).astype(np.float32), requires_grad=True) for _ in range(3))
    dy = mf.tensor(rng.standard_normal((b, h, t, d)).astype(np.float32))

    def fused():
        (F.scaled_dot_product_attention(q, k, v, is_causal=True) * dy).sum().backward()

    def unfused():
        scores = mf.matmul(q, k, transpose_b=True) * (1 / math.sqrt(d))
        ((F.softmax(scores, dim=-1, causal=True) @ v) * dy).sum().backward()

    best = {"fused": float("inf"), "unfused": float("inf")}
    for _ in range(args.repeats):
        for name, f in (("fused", fused), ("unfused", unfused)):
            f()
            mf.synchronize()
            start = time.perf_counter()
            for _ in range(args.iterations):
                f()
            mf.synchronize()
            best[name] = min(best[name], (time.perf_counter() - start) / args.iterations)
    print(f"attention forward + backward, [B, H, T, D] = [{b}, {h}, {t}, {d}], causal, float32")
    for name, s in best.items():
        print(f"  {name:8s} {s * 1e3:7.2f} ms")
    print(f"  unfused / fused: {best['unfused'] / best['fused']:.2f}x")


if __name__ == "__main__":
    main()
