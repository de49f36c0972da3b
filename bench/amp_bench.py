"""GPT training speed at 1x1x1 in float32 and in bfloat16 mixed precision, meshflow beside
PyTorch 1.13 (Debian's python3-torch, a yardstick only), in one run:

    /usr/bin/python3 bench/amp_bench.py [--runs 2] [--seconds 6]

meshflow: bench/gpt_bench.py --dtype float32 / bf16 (mf.autocast) on one rank with 2 threads,
the median step of --steps. PyTorch: bench/gpt_torch.py's best thread setting, float32 and
under torch.autocast("cpu", dtype=torch.bfloat16). The same model (4 layers, C 256, T 128,
B 8). Best of --runs for each; the ratios are taken within the run.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def meshflow(dtype, steps):
    env = dict(os.environ, OMP_NUM_THREADS="2", OPENBLAS_NUM_THREADS="2")
    out = subprocess.run([sys.executable, os.path.join(HERE, "gpt_bench.py"), "--dtype", dtype, "--steps", str(steps)],
                         env=env, capture_output=True, text=True, check=True).stdout
    return float(re.search(r"tokens/s\s+(\d+)", out).group(1))


def torch(autocast, seconds):
    out = subprocess.run([sys.executable, os.path.join(HERE, "gpt_torch.py"), "--seconds", str(seconds)]
                         + (["--autocast"] if autocast else []), capture_output=True, text=True, check=True).stdout
    return float(re.search(r"best: (\d+)", out).group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--seconds", type=float, default=4.0)
    args = ap.parse_args()
    flags = [line for line in open("/proc/cpuinfo") if line.startswith("flags")][0].split()
    print(f"CPU: avx512_bf16 {'avx512_bf16' in flags}, amx_bf16 {'amx_bf16' in flags}")
    best = {}
    for _ in range(args.runs):
        for name, run in (("meshflow float32", lambda: meshflow("float32", args.steps)),
                          ("meshflow bf16 autocast", lambda: meshflow("bf16", args.steps)),
                          ("torch float32", lambda: torch(False, args.seconds)),
                          ("torch bf16 autocast", lambda: torch(True, args.seconds))):
            best[name] = max(best.get(name, 0.0), run())
    for name, value in best.items():
        print(f"{name:24s} {value:9.0f} tokens/s")
    print(f"meshflow float32 / torch float32: {best['meshflow float32'] / best['torch float32']:.2f}x")
    print(f"meshflow bf16 / meshflow float32: {best['meshflow bf16 autocast'] / best['meshflow float32']:.2f}x")
    print(f"meshflow bf16 / torch bf16:       {best['meshflow bf16 autocast'] / best['torch bf16 autocast']:.2f}x")


if __name__ == "__main__":
    main()
