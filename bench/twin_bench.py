"""What read twins cost a data-parallel step (global/global_tensor.h, with_read_twin): a small
MLP (32 -> 64 -> 64 -> 10, ReLU) on 2 ranks, broadcast parameters, a batch of --batch rows per
rank split on dim 0, cross-entropy, backward, SGD, and the loss read on every rank (item(), as
a loop that logs each step). Step time with twins (the default), under NoReadTwins (no twin:
the read converts the loss then), and with the build at --base (its default), alternating
round by round, each the best of --steps steps; ratios against this build's twins. Also the
collectives and metadata exchanges (agreements) each step issues, per mode.

    PYTHONPATH=build/python /usr/bin/python3 bench/twin_bench.py [--base /work/wt/base/build]

Each round is one mpirun of 2 ranks per build (the base's in its own job); the machine is
shared and noisy: compare within one run.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
COUNTED = ("all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "send", "recv")


def child(args):
    import numpy as np

    import meshflow as mf
    import meshflow.nn as nn
    import meshflow.nn.functional as F

    world = mf.env.get_world_size()
    placement = mf.placement("cpu", ranks=list(range(world)))
    mf.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))
    model.to_global(placement, mf.sbp.broadcast)
    opt = mf.optim.SGD(model.parameters(), lr=1e-2)
    rng = np.random.default_rng(0)
    x = mf.tensor(rng.standard_normal((args.batch * world, 32)).astype(np.float32), placement=placement,
                  sbp=mf.sbp.split(0))
    y = mf.tensor(rng.integers(0, 10, args.batch * world), placement=placement, sbp=mf.sbp.split(0))

    def step():
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.item()

    modes = {"twins": step}
    if hasattr(mf._C, "NoReadTwins"):
        def untwinned():
            with mf._C.NoReadTwins():
                return step()
        modes["no_twins"] = untwinned
    best = {m: float("inf") for m in modes}
    counts = {}
    for name, run in modes.items():
        for _ in range(args.warmup):
            run()
        exchanges = getattr(mf._C, "metadata_exchanges", None)  # None: a build that does not count them
        before, before_metadata = mf.comm_stats(), exchanges and exchanges()
        run()
        after = mf.comm_stats()
        counts[name] = {k: after[k] - before[k] for k in COUNTED if after[k] != before[k]}
        counts[name]["metadata"] = exchanges and exchanges() - before_metadata
    for _ in range(args.steps):
        for name, run in modes.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    if mf.env.get_rank() == 0:
        print("RESULT " + json.dumps({"best": best, "counts": counts}), flush=True)


def run_job(build, args):
    env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"))
    cmd = [os.path.join(ROOT, "scripts", "mpirun"), "2", "-x", "PYTHONPATH", sys.executable, os.path.abspath(__file__),
           "--child", "--steps", str(args.steps), "--warmup", str(args.warmup), "--batch", str(args.batch)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    for line in out.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise SystemExit(f"{build}: no result\n{out.stdout}\n{out.stderr}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="/work/wt/base/build", help="a build to compare with ('' for none)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--batch", type=int, default=32, help="rows per rank")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args)
    here = os.path.join(ROOT, "build")
    best, counts = {}, {}
    for _ in range(args.rounds):
        for label, build in [("this", here)] + ([("base", args.base)] if args.base else []):
            r = run_job(build, args)
            for mode, t in r["best"].items():
                key = mode if label == "this" else "base " + mode
                best[key] = min(best.get(key, float("inf")), t)
                counts[key] = r["counts"][mode]
    ref = best["twins"]
    for key, t in best.items():
        print(f"{key:16s} {t * 1e3:8.3f} ms  ratio {t / ref:5.3f}  per step: {counts[key]}")


if __name__ == "__main__":
    main()
