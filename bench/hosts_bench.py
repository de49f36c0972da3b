"""The GPT on one host against the same ranks on simulated hosts over TCP, in one run.

    /usr/bin/python3 bench/hosts_bench.py [--layouts 2x2x1,4x1x1,1x4x1] [--net-rate 1gbit] [--runs 3]

For each layout, runs bench/gpt_bench.py on 4 ranks of this machine (shared memory) and on 2
simulated hosts of 2 ranks each (python3 -m meshflow.launch --sim-hosts 2: network
namespaces, TCP between hosts, shared memory within one), alternately, and prints the best
tokens/s of each with the bytes per step that crossed between hosts. Root only (ip netns).
With 2-d layouts ([data, tensor] = [[0, 1], [2, 3]]) the tensor-parallel groups {0, 1} and
{2, 3} lie inside a host and only data-parallel gradients cross.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(layout, options, steps):
    cmd = [sys.executable, "-m", "meshflow.launch", *options, "--nproc", "4", os.path.join(HERE, "gpt_bench.py"),
           "--layout", layout, "--steps", str(steps)]
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if out.returncode:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stdout}{out.stderr}")
    tokens = float(re.search(r"tokens/s\s+(\d+)", out.stdout).group(1))
    crossed = re.search(r"between hosts \(network cards\)\s+([\d.]+)", out.stdout)
    payload = re.search(r"payload sent by all ranks\s+([\d.]+)", out.stdout)
    return tokens, float(crossed.group(1)) if crossed else None, float(payload.group(1)) if payload else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layouts", default="2x2x1,4x1x1,1x4x1")
    ap.add_argument("--net-rate", help="limit each simulated host's link (e.g. 1gbit)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--steps", type=int, default=8)
    args = ap.parse_args()
    sim = ["--sim-hosts", "2"] + (["--net-rate", args.net_rate] if args.net_rate else [])
    print(f"{'layout':8s} {'one host':>16s} {'2 sim. hosts':>16s} {'ratio':>6s} {'payload MB/step':>16s} "
          f"{'between hosts MB/step':>22s}")
    for layout in args.layouts.split(","):
        one, two = [], []
        for _ in range(args.runs):
            one.append(run(layout, [], args.steps))
            two.append(run(layout, sim, args.steps))
        best_one = max(t for t, _, _ in one)
        best_two, crossed, payload = max(two)
        print(f"{layout:8s} {best_one:12.0f} t/s {best_two:12.0f} t/s {best_two / best_one:6.2f} {payload:16.2f} "
              f"{crossed:22.2f}", flush=True)


if __name__ == "__main__":
    main()
