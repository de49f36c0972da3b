"""Graph compile time per traced node: examples/gpt's training step (forward, backward,
clipping, AdamW) with --layers blocks on a tiny model, traced and compiled by mf.nn.Graph,
on the ranks of the job (one stage of a [d, m] mesh: --layout d x m x 1).

    /usr/bin/python3 bench/compile_bench.py --layers 4      # about 500 traced nodes
    /usr/bin/python3 bench/compile_bench.py --layers 32     # about 3,500

Wall-clock time on a shared machine is noise; instruction counts are not. To count the
compiler's instructions alone (the traced step given, as CompiledGraph's constructor):

    valgrind --tool=callgrind --toggle-collect='mf::graph::CompiledGraph::CompiledGraph*' \\
        --callgrind-out-file=/tmp/cg.out /usr/bin/python3 bench/compile_bench.py --layers 4 --repeat 1
    callgrind_annotate /tmp/cg.out | head -30
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "gpt"))

import meshflow as mf  # noqa: E402
import data  # noqa: E402
import train  # noqa: E402
from model import GPT, Config, input_sbp, parameter_sbp, place  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layout", default="1x1x1", help="d x m x 1 (the job's ranks)")
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3, help="compiles (a fresh graph each); the best is printed")
    args = ap.parse_args()
    d, tp, pp = map(int, args.layout.split("x"))
    if pp != 1 or d * tp != mf.env.get_world_size():
        sys.exit(f"layout {args.layout}: expected d x m x 1 with d m = {mf.env.get_world_size()} ranks")
    stages = train.stage_meshes(d, tp, 1)
    cfg = Config(block_size=8, n_layer=args.layers, n_head=2, n_embd=16)
    best, stats = float("inf"), None
    for _ in range(args.repeat):
        mf.manual_seed(0)
        model = GPT(cfg)
        place(model, stages, parameter_sbp)
        step = train.TrainStep(model, [mf.optim.AdamW(list(model.parameters()), lr=1e-3)], clip=0.0)
        x, y = data.get_batch(0, 2 * d, cfg.block_size, 0, mf.env.get_rank() // tp, d)
        step(mf.from_numpy(x).to_global(placement=stages[0], sbp=input_sbp()),
             mf.from_numpy(y).to_global(placement=stages[0], sbp=input_sbp())).item()
        stats = step.compile_stats()
        best = min(best, stats["compile_ms"])
    if mf.env.get_rank() == 0:
        passes = ", ".join(f"{name} {ms:.1f}" for name, ms in stats.get("passes", []))
        print(f"compile_bench layout={args.layout} layers={args.layers}: {stats['traced_nodes']} traced nodes -> "
              f"{stats['graph_nodes']} nodes; best compile {best:.1f} ms ({best * 1e3 / stats['traced_nodes']:.1f} us "
              f"per node)\n  passes (ms): {passes}")


if __name__ == "__main__":
    main()
