"""Prints the loss curves of several runs of train.py (--json files) side by side with each
one's largest relative difference from the first, and fails when one exceeds --tol.

    python3 examples/gpt/compare.py --tol 1e-4 run_1x1x1.json run_4x1x1.json ...
"""
import argparse
import json
import sys


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="JSON files written by train.py --json; the first is the reference")
    ap.add_argument("--tol", type=float, default=1e-4, help="largest relative difference allowed")
    ap.add_argument("--every", type=int, default=5, help="print every N-th step")
    args = ap.parse_args(argv)
    runs = []
    for path in args.runs:
        with open(path) as f:
            runs.append(json.load(f))
    reference = runs[0]["losses"]
    for run in runs[1:]:
        if len(run["losses"]) != len(reference):
            sys.exit(f"{run['layout']} has {len(run['losses'])} steps, the reference {len(reference)}")
    names = [r["layout"] for r in runs]
    print(f"{'step':<14s}" + "".join(f"{n:>20s}" for n in names))
    for step in range(len(reference)):
        if step % args.every == 0 or step == len(reference) - 1:
            print(f"{step:<14d}" + "".join(f"{r['losses'][step]:20.6f}" for r in runs))
    worst = []
    for run in runs:
        diff = max(abs(a - b) / abs(b) for a, b in zip(run["losses"], reference))
        worst.append(diff)
    print(f"{'max rel diff':<14s}" + "".join(f"{w:20.2e}" for w in worst) + f"   (against {names[0]})")
    if all("tokens_per_s" in r for r in runs):
        print(f"{'tokens/s':<14s}" + "".join(f"{r['tokens_per_s']:20,.0f}" for r in runs))
    failed = [n for n, w in zip(names, worst) if w > args.tol]
    if failed:
        sys.exit(f"FAILED: {', '.join(failed)} differ from {names[0]} by more than {args.tol:g}")
    print(f"all layouts within {args.tol:g} of {names[0]}")


if __name__ == "__main__":
    main()
