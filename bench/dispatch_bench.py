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

Then the per-op path as a user writes it: `a + b`, `x * 2.0` and `x.sum()` on float32 tensors of
1 and 256 elements (a 16x16 tensor's), meshflow beside PyTorch (when installed) in the same run, timed
in CPU time as the surface table below (ranks that share cores with other work wait in wall
time for a core, which is not the call's cost), with meshflow's ratio to PyTorch. Under mpirun
(e.g. `scripts/mpirun 2 python3 bench/dispatch_bench.py`) the rows are global ops on every
rank (broadcast tensors on the world's placement: no communication per op), beside the local
ones of the same process, the rounds of the three interleaved; rank 0 prints. `--per-op-only` prints only this table (`--ops`, `--sizes` select its rows).

Then basic indexing as users write it (x[0], x[:, -1], x[..., :4], x[None], a[0].item(), ...),
meshflow beside PyTorch, in CPU time, the rounds interleaved; `--indexing-only` prints only this
table.

Then composed ops (F.linear, nn.Linear, conv2d, cross_entropy, mse_loss, transpose) on small
tensors, with parameters that require grad (a recorded node, named as torch's) and without,
meshflow beside PyTorch; `--composed-only` prints only this table.

Then the small-op surface users hit in loops (indexing and setitem, views, .item(), .shape,
mf.tensor([...]), comparisons, clone, cat, .to(dtype), in-place ops, nn.Linear(8, 8) with and
without grad and with a forward hook, arithmetic, reductions, relu, zeros / empty / ones(3),
where, a 4x4 matmul, a tiny MLP's forward and backward), meshflow beside PyTorch, timed in CPU time
(time.process_time: every thread of the process, so work handed to the VM's threads counts),
the two libraries' rounds interleaved, best of 7; `--surface-only` prints only this table.

Then a burst: 10,000 chained small adds and one mf.synchronize(), asynchronous against
blocking mode (each op run before its call returns, as MESHFLOW_LAUNCH_BLOCKING=1).
"""
import argparse
import time

import numpy as np

try:  # before meshflow: imported after it, a CUDA build of PyTorch can bind another library's NCCL symbols
    import torch
except ImportError:
    torch = None

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


PER_OP = {"a + b": lambda a, b: a + b, "x * 2.0": lambda a, b: a * 2.0, "x.sum()": lambda a, b: a.sum()}


# Indexing as users write it, on an [8, 16] tensor x (a on 256 elements, l [2, 8, 16]);
# "x[0] (grad)" on an x that requires grad (a recorded, named select).
INDEXING = {
    "a[0].item()": lambda t: t["a"][0].item(), "x[0]": lambda t: t["x"][0], "x[:, -1]": lambda t: t["x"][:, -1],
    "x[..., :4]": lambda t: t["x"][..., :4], "x[None]": lambda t: t["x"][None], "x[1:7:2]": lambda t: t["x"][1:7:2],
    "l[:, -1, :]": lambda t: t["l"][:, -1, :], "x[0] (grad)": lambda t: t["g"][0],
}


# Composed ops on small tensors; `t` holds a library's module (lib), F, and the tensors.
COMPOSED = {
    "F.linear": lambda t: t["F"].linear(t["x"], t["w"], t["b"]), "nn.Linear": lambda t: t["linear"](t["x"]),
    "F.conv2d": lambda t: t["F"].conv2d(t["img"], t["k"], t["kb"]),
    "cross_entropy": lambda t: t["F"].cross_entropy(t["x"], t["target"]),
    "F.mse_loss": lambda t: t["F"].mse_loss(t["x"], t["y"]), "x.transpose": lambda t: t["x"].transpose(0, 1),
}


# The small-op surface on `t`: a library's module (lib), x [8, 16], y [8, 16], xt ([16, 8].t()), s [1], idx
# (int64 [3]), lin (Linear(8, 8)), h (the same with a forward hook), i8 [4, 8], v [8], a and b [3], c (x < y),
# m [4, 4], u [8, 1, 16], g [8, 48] (a GRU cell's gates), k [4, 10, 8] and q [4, 8, 1] (seq2seq's attention),
# mlp1 and mlp2 (Linear(8, 16) and Linear(16, 4): a tiny MLP whose parameters require grad).
SURFACE = {
    "x[0]": lambda t: t["x"][0], "x[:, 1]": lambda t: t["x"][:, 1], "x[..., None]": lambda t: t["x"][..., None],
    "x[idx]": lambda t: t["x"][t["idx"]], "x[0] = 1.0": lambda t: t["x"].__setitem__(0, 1.0),
    "x[0] = row": lambda t: t["x"].__setitem__(0, t["row"]),
    "x.view(16, 8)": lambda t: t["x"].view(16, 8), "x.reshape(-1)": lambda t: t["x"].reshape(-1),
    "x.transpose(0, 1)": lambda t: t["x"].transpose(0, 1), "x.unsqueeze(0)": lambda t: t["x"].unsqueeze(0),
    "x.t().reshape(-1)": lambda t: t["xt"].reshape(-1), "x[:, 1:].contiguous()": lambda t: t["x"][:, 1:].contiguous(),
    "s.item()": lambda t: t["s"].item(), "x.shape": lambda t: t["x"].shape, "x.size()": lambda t: t["x"].size(),
    "x.size(1)": lambda t: t["x"].size(1), "tensor([1., 2., 3.])": lambda t: t["lib"].tensor([1.0, 2.0, 3.0]),
    "x < y": lambda t: t["x"] < t["y"], "x == 0.5": lambda t: t["x"] == 0.5, "x.clone()": lambda t: t["x"].clone(),
    "cat([s, s, s])": lambda t: t["lib"].cat([t["s"], t["s"], t["s"]]),
    "x.to(float64)": lambda t: t["x"].to(t["lib"].float64), "x.add_(y)": lambda t: t["x"].add_(t["y"]),
    "x.mul_(1.0)": lambda t: t["x"].mul_(1.0), "Linear(8,8) grad": lambda t: t["lin"](t["i8"]),
    "Linear(8,8) no_grad": lambda t: t["nolin"](t["i8"]), "Linear+hook": lambda t: t["h"](t["i8"]),
    "x + y": lambda t: t["x"] + t["y"], "x * 2.0": lambda t: t["x"] * 2.0, "x.sum()": lambda t: t["x"].sum(),
    "x - y": lambda t: t["x"] - t["y"], "x - 1.0": lambda t: t["x"] - 1.0, "1.0 - x": lambda t: 1.0 - t["x"],
    "x / y": lambda t: t["x"] / t["y"], "x / 2.0": lambda t: t["x"] / 2.0, "x ** 2": lambda t: t["x"] ** 2,
    "u.squeeze(1)": lambda t: t["u"].squeeze(1), "g.chunk(3, -1)": lambda t: t["g"].chunk(3, -1),
    "bmm(k, q)": lambda t: t["lib"].bmm(t["k"], t["q"]),
    "x.t()": lambda t: t["x"].t(), "x.permute(1, 0)": lambda t: t["x"].permute(1, 0),
    "x[:, 1] = v": lambda t: t["x"].__setitem__((slice(None), 1), t["v"]), "x.add_(1)": lambda t: t["x"].add_(1),
    "cat([a, b])": lambda t: t["lib"].cat([t["a"], t["b"]]), "x.mean(1)": lambda t: t["x"].mean(1),
    "relu(x)": lambda t: t["lib"].relu(t["x"]), "sigmoid(x)": lambda t: t["lib"].sigmoid(t["x"]),
    "zeros(3)": lambda t: t["lib"].zeros(3),
    "empty(3)": lambda t: t["lib"].empty(3), "ones(3)": lambda t: t["lib"].ones(3),
    "where(c, x, y)": lambda t: t["lib"].where(t["c"], t["x"], t["y"]), "m @ m (4x4)": lambda t: t["m"] @ t["m"],
    "MLP step fwd+bwd": lambda t: t["mlp2"](t["lib"].relu(t["mlp1"](t["i8"]))).sum().backward(),
}


def surface_tensors(lib):
    rng = np.random.default_rng(0)
    t = {"lib": lib, "idx": lib.tensor(np.array([0, 3, 5]))}
    for k, shape in {"x": (8, 16), "y": (8, 16), "s": (1,), "row": (16,), "i8": (4, 8), "v": (8,), "a": (3,),
                     "b": (3,), "m": (4, 4), "u": (8, 1, 16), "g": (8, 48), "k": (4, 10, 8), "q": (4, 8, 1)}.items():
        t[k] = lib.tensor(rng.random(shape, np.float32))
    t["c"] = t["x"] < t["y"]
    t["mlp1"], t["mlp2"] = lib.nn.Linear(8, 16), lib.nn.Linear(16, 4)
    t["xt"] = lib.tensor(rng.random((16, 8), np.float32)).t()  # not x's: a live view makes x's writes follow it
    t["lin"], t["nolin"], t["h"] = lib.nn.Linear(8, 8), lib.nn.Linear(8, 8), lib.nn.Linear(8, 8)
    t["nolin"].requires_grad_(False)
    t["h"].register_forward_hook(lambda module, args, out: None)
    return t


def cpu_us_together(fs, iterations, rounds=7):
    """Per f in fs, the best round's CPU time per call (time.process_time), in microseconds,
    the fs taking turns round by round."""
    for f in fs:
        for _ in range(min(1000, iterations)):
            f()
    best = [float("inf")] * len(fs)
    for _ in range(rounds):
        for i, f in enumerate(fs):
            start = time.process_time()
            for _ in range(iterations):
                f()
            best[i] = min(best[i], (time.process_time() - start) / iterations)
    return [b * 1e6 for b in best]


def print_surface(n, torch, cases=None):
    if mf.env.get_rank() != 0:
        return
    libs = [mf] + ([torch] if torch is not None else [])
    print(f"\nsmall-op surface, float32, {n} calls per round, best of 7 interleaved rounds (CPU us/op)")
    head = f"{'call':<22} {'meshflow':>9}"
    if torch is not None:
        head += f" {'torch ' + torch.__version__.split('+')[0]:>12} {'mf/torch':>9}"
    print(head)
    for call, f in SURFACE.items():
        if cases and call not in cases:
            continue
        tensors = [surface_tensors(lib) for lib in libs]  # each case's own: no views or writes of another's
        times = cpu_us_together([(lambda t=t: f(t)) for t in tensors], n)
        line = f"{call:<22} {times[0]:>9.2f}"
        if torch is not None:
            line += f" {times[1]:>12.2f} {times[0] / times[1]:>8.2f}x"
        print(line, flush=True)


def composed_rows(lib, n, grad):
    """(call, us) per COMPOSED case on `lib`'s tensors; with `grad`, the parameters (and x)
    require grad, so each call records its node."""
    rng = np.random.default_rng(0)
    t = {"F": lib.nn.functional, "target": lib.tensor(rng.integers(0, 16, 4))}
    for k, shape in {"x": (4, 16), "y": (4, 16), "w": (8, 16), "b": (8,), "img": (1, 2, 6, 6),
                     "k": (3, 2, 3, 3), "kb": (3,)}.items():
        t[k] = lib.tensor(rng.random(shape, np.float32), requires_grad=grad and k != "y")
    t["linear"] = lib.nn.Linear(16, 8)
    t["linear"].requires_grad_(grad)
    return [(call, per_call_us(lambda: f(t), n)) for call, f in COMPOSED.items()]


def print_composed(n, torch):
    if mf.env.get_rank() != 0:
        return
    rows = {grad: (composed_rows(mf, n, grad), composed_rows(torch, n, grad) if torch is not None else None)
            for grad in (True, False)}
    print(f"\ncomposed ops, float32, {n} calls per round, best of 5 rounds (us/op)")
    head = f"{'call':<14} {'grad':>5} {'meshflow':>9}"
    if torch is not None:
        head += f" {'torch ' + torch.__version__.split('+')[0]:>12} {'mf/torch':>9}"
    print(head)
    for grad, (ours, theirs) in rows.items():
        for i, (call, mine) in enumerate(ours):
            line = f"{call:<14} {str(grad):>5} {mine:>9.2f}"
            if theirs is not None:
                line += f" {theirs[i][1]:>12.2f} {mine / theirs[i][1]:>8.2f}x"
            print(line)


def indexing_tensors(lib):
    """INDEXING's tensors on `lib` (meshflow or torch)."""
    rng = np.random.default_rng(0)
    arrays = {"a": rng.random(256, np.float32), "x": rng.random((8, 16), np.float32),
              "l": rng.random((2, 8, 16), np.float32)}
    tensors = {k: lib.tensor(v) for k, v in arrays.items()}
    tensors["g"] = lib.tensor(arrays["x"], requires_grad=True)
    return tensors


def print_indexing(n, torch):
    if mf.env.get_rank() != 0:
        return
    tensors = [indexing_tensors(lib) for lib in [mf] + ([torch] if torch is not None else [])]
    print(f"\nbasic indexing, float32, {n} calls per round, best of 7 interleaved rounds (CPU us/op)")
    head = f"{'call':<13} {'meshflow':>9}"
    if torch is not None:
        head += f" {'torch ' + torch.__version__.split('+')[0]:>12} {'mf/torch':>9}"
    print(head)
    for call, f in INDEXING.items():
        times = cpu_us_together([(lambda t=t: f(t)) for t in tensors], n)
        print(f"{call:<13} {times[0]:>9.2f}" + (f" {times[1]:>12.2f} {times[0] / times[1]:>8.2f}x" if torch else ""))


def per_op_rows(ops, sizes, n, torch):
    """(call, size, local us, global us or None, torch us or None) per op and size."""
    world = mf.env.get_world_size()
    p = mf.placement("cpu", ranks=list(range(world))) if world > 1 else None
    rows = []
    for size in sizes:
        one = np.ones(size, np.float32)
        a, b = mf.tensor(one), mf.tensor(one)
        if p is not None:
            ga, gb = (mf.tensor(one, placement=p, sbp=mf.sbp.broadcast) for _ in range(2))
        if torch is not None:
            ta, tb = torch.ones(size), torch.ones(size)
        for call in ops:
            f = PER_OP[call]
            fs = [lambda: f(a, b)] + ([lambda: f(ga, gb)] if p is not None else []) + \
                 ([lambda: f(ta, tb)] if torch is not None else [])
            times = cpu_us_together(fs, n)
            rows.append((call, size, times[0], times[1] if p is not None else None,
                         times[-1] if torch is not None else None))
    return rows


def print_per_op(rows, n, torch):
    world = mf.env.get_world_size()
    if mf.env.get_rank() != 0:
        return
    print(f"\nper-op path, float32, {n} calls per round, best of 7 interleaved rounds (CPU us/op)")
    head = f"{'call':<9} {'numel':>5} {'meshflow':>9}"
    if world > 1:
        head += f" {f'global x{world}':>10} {'/local':>7}"
    if torch is not None:
        head += f" {'torch ' + torch.__version__.split('+')[0]:>12} {'mf/torch':>9}"
    print(head)
    for call, size, local, glob, theirs in rows:
        line = f"{call:<9} {size:>5} {local:>9.2f}"
        if glob is not None:
            line += f" {glob:>10.2f} {glob / local:>6.2f}x"
        if theirs is not None:
            line += f" {theirs:>12.2f} {local / theirs:>8.2f}x"
        print(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=100_000)
    parser.add_argument("--per-op-only", action="store_true", help="only the per-op table")
    parser.add_argument("--indexing-only", action="store_true", help="only the indexing table")
    parser.add_argument("--composed-only", action="store_true", help="only the composed-ops table")
    parser.add_argument("--surface-only", action="store_true", help="only the small-op surface table")
    parser.add_argument("--cases", nargs="+", help="the surface table's rows to run (default: all)")
    parser.add_argument("--ops", nargs="+", default=list(PER_OP), choices=list(PER_OP))
    parser.add_argument("--sizes", nargs="+", type=int, default=[1, 256])  # 256: a 16x16 tensor's elements
    args = parser.parse_args()
    n = args.iterations
    if torch is not None:
        torch.set_num_threads(1)
    if args.indexing_only:
        print_indexing(n, torch)
        return
    if args.composed_only:
        print_composed(n, torch)
        return
    if args.surface_only:
        print_surface(n, torch, args.cases)
        return
    if args.per_op_only or mf.env.get_world_size() > 1:
        print_per_op(per_op_rows(args.ops, args.sizes, n, torch), n, torch)
        return

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
    if torch is None:
        print("torch not installed: no PyTorch rows")
    else:
        ta, tb = torch.ones(1), torch.ones(1)
        rows.append((f"torch {torch.__version__}", "torch.add", per_call_us(lambda: torch.add(ta, tb), n)))

    print(f"add of two 1-element float32 tensors, {n} calls per round, best of 5 rounds")
    print(f"{'library':<16} {'call':<26} {'us/op':>8}")
    for library, call, us in rows:
        print(f"{library:<16} {call:<26} {us:>8.2f}")
    print_per_op(per_op_rows(args.ops, args.sizes, n, torch), n, torch)
    print_indexing(n, torch)
    print_composed(n, torch)
    print_surface(n, torch)

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
