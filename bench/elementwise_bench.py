"""Elementwise, broadcast, reduction and normalization ops, copies (cat, index_select,
embedding) and bmm, forward and forward+backward, in GB/s beside a STREAM-like copy bandwidth
measured in the same run (numpy's copy of a large array, one slice per thread), with PyTorch
eager in the same run when torch imports.

    PYTHONPATH=build/python /usr/bin/python3 bench/elementwise_bench.py          # meshflow alone
    PYTHONPATH=build/python /root/tv/bin/python bench/elementwise_bench.py       # and torch
    ... bench/elementwise_bench.py --threads 1 --repeat 20 --only relu,add --shape 32 16 32 32

GB/s counts the bytes a kernel must move once (each input read, each output written: relu's
forward 2 tensors, its forward+backward 5: x read, y written, y and dy read, dx written (clamp's
and hardtanh's read x rather than y);
a full reduction 1; cat 4 (x and a tensor of its shape read, twice x written); index_select
and embedding 2 (x's rows of its last dim picked in a shuffled order); bmm 3 (x as a batch of
[last, last] matrices times itself; where the shape allows); the small weights of the affine
norms not counted), over the best of --repeat calls. "_fb" cases run forward and backward;
"_1" ones work along dim 1. Each thread count runs in a child process started with
OMP_NUM_THREADS set; ratio = torch's time / meshflow's (> 1: meshflow faster). Timings on a
shared machine are noisy: compare A/B within one run, best of several.
"""
import argparse
import threading

import numpy as np

try:
    import torch  # before meshflow: torch's CUDA libraries clash with symbols meshflow loads first
except ImportError:
    torch = None

import meshflow as mf  # noqa: E402
from thread_runs import run_children, timed, timed_together  # noqa: E402


def cases(lib, shape):
    """name -> (tensors moved per call, forward function of x, whether to run backward too)."""
    F = lib.nn.functional
    channels = shape[1]
    bias = lib.zeros([channels] + [1] * (len(shape) - 2))
    other = lib.ones(shape)
    groups = 4 if channels % 4 == 0 else 1
    last = shape[-1]
    weight, shift = lib.ones([last], requires_grad=True), lib.zeros([last], requires_grad=True)
    gn_weight, gn_bias = lib.ones([channels], requires_grad=True), lib.zeros([channels], requires_grad=True)
    spatial = list(range(2, len(shape)))
    count = 1
    for n in shape[:-1]:
        count *= n
    order = lib.tensor(np.random.default_rng(1).permutation(count))  # x's rows of `last`, shuffled

    def rows(x):
        return x.reshape(count, last)
    table = {
        "relu": (2, F.relu, False),
        "relu_fb": (5, F.relu, True),
        "gelu": (2, F.gelu, False),
        "gelu_fb": (5, F.gelu, True),
        "silu": (2, F.silu, False),
        "silu_fb": (5, F.silu, True),
        "sigmoid": (2, lib.sigmoid, False),
        "sigmoid_fb": (5, lib.sigmoid, True),
        "tanh": (2, lib.tanh, False),
        "tanh_fb": (5, lib.tanh, True),
        "clamp": (2, lambda x: x.clamp(-0.5, 0.5), False),
        "clamp_fb": (5, lambda x: x.clamp(-0.5, 0.5), True),
        "hardtanh_fb": (5, F.hardtanh, True),
        "add": (3, lambda x: x + other, False),
        "mul": (3, lambda x: x * other, False),
        "mul_scalar": (2, lambda x: x * 2.0, False),
        "add_bias": (2, lambda x: x + bias, False),
        "sum": (1, lambda x: x.sum(), False),
        "sum_fb": (2, lambda x: x.sum(), True),
        "sum_last": (1, lambda x: x.sum(-1), False),
        "mean_0": (1, lambda x: x.mean(0), False),
        "mean_spatial": (1, lambda x: x.mean(spatial), False),
        "softmax": (2, lambda x: F.softmax(x, -1), False),
        "softmax_fb": (5, lambda x: F.softmax(x, -1), True),
        "log_softmax": (2, lambda x: F.log_softmax(x, -1), False),
        "log_softmax_fb": (5, lambda x: F.log_softmax(x, -1), True),
        "softmax_1": (2, lambda x: F.softmax(x, 1), False),
        "softmax_1_fb": (5, lambda x: F.softmax(x, 1), True),
        "log_softmax_1_fb": (5, lambda x: F.log_softmax(x, 1), True),
        "layer_norm": (2, lambda x: F.layer_norm(x, x.shape[-1:]), False),
        "layer_norm_fb": (5, lambda x: F.layer_norm(x, x.shape[-1:]), True),
        "layer_norm_affine_fb": (5, lambda x: F.layer_norm(x, x.shape[-1:], weight, shift), True),
        "group_norm": (2, lambda x: F.group_norm(x, groups), False),
        "group_norm_fb": (5, lambda x: F.group_norm(x, groups), True),
        "group_norm_affine_fb": (5, lambda x: F.group_norm(x, groups, gn_weight, gn_bias), True),
        "dropout": (2, lambda x: F.dropout(x, 0.1), False),
        "cat": (4, lambda x: lib.cat([x, other], 0), False),
        "cat_1": (4, lambda x: lib.cat([x, other], 1), False),
        "index_select": (2, lambda x: rows(x).index_select(0, order), False),
        "embedding": (2, lambda x: F.embedding(order, rows(x)), False),
        "sum_0": (1, lambda x: x.sum(0), False),
    }
    if count % last == 0:  # x as a batch of [last, last] matrices, times itself
        table["bmm"] = (3, lambda x: lib.bmm(*[x.reshape(-1, last, last)] * 2), False)
    return table


def copy_bandwidth(threads, nbytes=1 << 28, repeat=5):
    """GB/s of copying nbytes (read + write counted), split over `threads` Python threads
    (numpy releases the GIL while it copies)."""
    src = np.ones(nbytes // 4, np.float32)
    dst = np.empty_like(src)
    parts = np.array_split(np.arange(src.size), threads)
    bounds = [(p[0], p[-1] + 1) for p in parts]

    def copy():
        workers = [threading.Thread(target=np.copyto, args=(dst[a:b], src[a:b])) for a, b in bounds]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    return 2 * nbytes / timed(copy, repeat) / 1e9


def step_of(lib, fn, backward, x_np):
    sync = mf.synchronize if lib is mf else (lambda: None)
    x = lib.tensor(x_np, requires_grad=backward)
    if not backward:
        return lambda: (fn(x), sync())

    def step():
        x.grad = None
        y = fn(x)
        y.backward(lib.ones_like(y) if y.ndim else None)
        sync()
    return step


def child(args):
    threads = args.threads[0]
    mf.set_num_threads(threads)
    if torch is not None:
        torch.set_num_threads(threads)
    x = np.random.default_rng(0).standard_normal(args.shape).astype(np.float32)
    print(f"threads={threads}  copy bandwidth {copy_bandwidth(threads):6.1f} GB/s", flush=True)
    wanted = args.only.split(",") if args.only else None
    ours_cases = cases(mf, args.shape)
    theirs_cases = cases(torch, args.shape) if torch is not None else {}
    for name, (tensors, fn, backward) in ours_cases.items():
        if wanted and name not in wanted:
            continue
        gb = tensors * x.nbytes / 1e9
        steps = [step_of(mf, fn, backward, x)]
        if torch is not None:
            steps.append(step_of(torch, theirs_cases[name][1], backward, x))
        ours, *theirs = timed_together(steps, args.repeat)
        line = f"{name:15s} threads={threads}  meshflow {ours * 1e3:8.3f} ms {gb / ours:6.1f} GB/s"
        if theirs:
            theirs = theirs[0]
            line += f"  torch {theirs * 1e3:8.3f} ms {gb / theirs:6.1f} GB/s  ratio {theirs / ours:5.2f}"
        print(line, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--shape", type=int, nargs="+", default=[32, 16, 32, 32])
    parser.add_argument("--only", default="", help="comma-separated case names")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    print(f"elementwise_bench: shape {args.shape}, best of {args.repeat}, torch "
          f"{torch.__version__ if torch is not None else 'not installed'}", flush=True)
    run_children(__file__, args.threads, ["--repeat", str(args.repeat), "--shape", *map(str, args.shape),
                                          "--only", args.only])


if __name__ == "__main__":
    main()
