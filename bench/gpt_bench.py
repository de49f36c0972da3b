"""Training speed of examples/gpt: tokens/s and communication bytes per step against the
bytes each layout must move in theory.

    scripts/mpirun 1 /usr/bin/python3 bench/gpt_bench.py --layout 1x1x1
    scripts/mpirun 2 /usr/bin/python3 bench/gpt_bench.py --layout 2x1x1
    scripts/mpirun 2 /usr/bin/python3 bench/gpt_bench.py --layout 1x2x1
    python3 -m meshflow.launch --sim-hosts 2 --nproc 4 bench/gpt_bench.py --layout 2x2x1

On simulated hosts (the launcher's --sim-hosts) it also reports the bytes that crossed
between hosts per step: what the hosts' network cards sent (TCP/IP and OpenMPI's own
framing included; a ring all-reduce sends 2 (p-1)/p times its buffer) beside the payload
all ranks sent; the rest moved inside hosts through shared memory.

Model: n_layer 4, n_head 4, n_embd 256, block 128, global batch 8 (the issue's figure; PyTorch's
speed on the same model is bench/gpt_torch.py's). Timing: median step (forward, backward,
clipping off, AdamW; each step waits for all of its work) after 3 warmup steps. Threads:
one rank per core runs 1 thread; one rank alone uses both cores (set OMP_NUM_THREADS /
OPENBLAS_NUM_THREADS before starting).

With --device cuda and MESHFLOW_PROFILE=1 in the environment it also prints the GPU time of
each op's kernels per step (mf.cuda.kernel_times; the timing events slow the step a little).

Bytes are payloads, as mf.comm_stats() counts them (an all-reduce counts its buffer once;
a ring implementation sends 2 (p-1)/p times that). Theory, per step, on rank 0:
- data parallel: one all-reduce of every weight gradient this rank holds: 4 * n_params / m.
- tensor parallel (Megatron): per block, an all-reduce of [B/d, T, C] after attention and
  after the MLP in the forward pass, and of their input gradients in the backward pass (4
  per block), plus the vocabulary-parallel embedding's output and the head's input
  gradient: (4 L + 2) all-reduces of B/d T C floats; the loss adds three of [B T / d].
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "gpt"))

import meshflow as mf  # noqa: E402
import data  # noqa: E402
import train  # noqa: E402
from model import GPT, Config, input_sbp, parameter_sbp, place  # noqa: E402


def theoretical_bytes(d, tp, n_params, cfg, batch):
    data_parallel = 4 * n_params / tp if d > 1 else 0
    tensor_parallel = (4 * cfg.n_layer + 2) * (batch // d) * cfg.block_size * cfg.n_embd * 4 if tp > 1 else 0
    return data_parallel + tensor_parallel


def host_sent_bytes():
    """Bytes this host's network card has sent, read by the first rank of each simulated
    host (0 elsewhere): what crossed between hosts."""
    if "MESHFLOW_SIM_HOSTS" not in os.environ or mf.env.get_local_rank() != 0:
        return 0
    with open("/sys/class/net/eth0/statistics/tx_bytes") as f:
        return int(f.read())


def summed_over_ranks(value):
    """The sum of an int over every rank (collective)."""
    world = mf.env.get_world_size()
    if world == 1:
        return value
    everyone = mf.tensor(np.array([value], np.int64)).to_global(
        placement=mf.placement("cpu", ranks=list(range(world))), sbp=mf.sbp.split(0))
    return int(everyone.to_global(sbp=mf.sbp.broadcast).numpy().sum())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--layout", default="1x1x1", help="d x m x p (p > 1: pipeline stages, graph mode)")
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--block", type=int, default=128)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--dtype", choices=("float32", "bf16"), default="float32",
                    help="bf16: the forward pass under mf.autocast (matmuls in bfloat16)")
    ap.add_argument("--graph", action="store_true",
                    help="also time the step in graph mode (mf.nn.Graph) in the same run, beside eager, with the "
                         "compile time, the memory plan and the peak memory of each mode")
    ap.add_argument("--unfused", action="store_true",
                    help="with --graph: also time graph mode without fusing elementwise chains")
    ap.add_argument("--device", default="cpu", help="the device type of the meshes (mf.device_types())")
    ap.add_argument("--vocab", type=int, default=data.VOCAB_SIZE,
                    help="vocabulary size (GPT-2's padded one is 50304; the data's bytes fill the first 256)")
    ap.add_argument("--torch", action="store_true",
                    help="--device cuda: also time PyTorch on the same model and GPU (eager, then torch.compile), "
                         "and print each mode's model FLOP utilization against --peak-tflops")
    ap.add_argument("--no-compile", action="store_true", help="with --torch: time PyTorch eager only")
    ap.add_argument("--peak-tflops", type=float, default=989.0,
                    help="the GPU's dense bfloat16 peak for MFU (H100/H200 SXM: 989)")
    ap.add_argument("--micro-batches", type=int, default=0,
                    help="graph mode: micro-batches per step (default 2p with p > 1 stages, else 1)")
    args = ap.parse_args()
    d, tp, pp = map(int, args.layout.split("x"))
    world = mf.env.get_world_size()
    if d * tp * pp != world:
        sys.exit(f"layout {args.layout} needs {d * tp * pp} ranks; the job has {world}")
    stages = train.stage_meshes(d, tp, pp, args.device)
    micro_batches = args.micro_batches or (2 * pp if pp > 1 else 1)
    rank = mf.env.get_rank()
    cfg = Config(vocab_size=args.vocab, block_size=args.block, n_layer=args.layers, n_head=args.heads,
                 n_embd=args.hidden)
    tokens = args.batch * args.block
    # Model FLOPs per token: 6 per parameter (forward and backward) plus attention's 6 L C T.
    flops_per_token = None

    def mfu(tokens_per_s):
        if flops_per_token is None or args.device == "cpu":
            return ""
        return f" (MFU {100 * tokens_per_s * flops_per_token / (args.peak_tflops * 1e12):5.1f}%)"

    profile = args.device == "cuda" and os.environ.get("MESHFLOW_PROFILE", "0") not in ("", "0")
    modes = ["eager"] + (["graph"] if args.graph else []) + (["graph-unfused"] if args.graph and args.unfused else [])
    for mode in modes:
        mf.manual_seed(0)
        model = GPT(cfg)
        place(model, stages, parameter_sbp)
        params = list(model.parameters())
        n_params = sum(p.numel() for p in params)
        flops_per_token = 6 * n_params + 6 * cfg.n_layer * cfg.n_embd * cfg.block_size
        opt = mf.optim.AdamW(params, lr=1e-3, betas=(0.9, 0.95), weight_decay=0.1)
        step_graph = None
        if mode.startswith("graph"):
            class Step(mf.nn.Graph):
                def __init__(self):
                    super().__init__()
                    self.model = model
                    self.add_optimizer(opt)
                    self.config.set_gradient_accumulation_steps(micro_batches)
                    self.config.enable_fusion(mode == "graph")

                def build(self, x, y):
                    loss = self.model(x, y)
                    loss.backward()
                    return loss
            step_graph = Step()
        mf.synchronize()
        mf.reset_peak_memory_stats()
        times, sent = [], []
        crossed, all_sent = 0, 0
        for step in range(args.steps + 3):
            if step == 3:
                crossed, all_sent = -host_sent_bytes(), -mf.comm_stats()["bytes_sent"]
                if profile:
                    mf.cuda.kernel_times(reset=True)
            x, y = data.get_batch(step, args.batch, args.block, 0, rank % (d * tp) // tp, d)
            start, before = time.perf_counter(), mf.comm_stats()["bytes_sent"]
            xs = mf.from_numpy(x).to_global(placement=stages[0], sbp=input_sbp())
            ys = mf.from_numpy(y).to_global(placement=stages[-1], sbp=input_sbp())
            autocast = mf.autocast(args.device, dtype=mf.bfloat16, enabled=args.dtype == "bf16")
            if step_graph is not None:
                with autocast:
                    loss = step_graph(xs, ys)
            else:
                with autocast:
                    loss = model(xs, ys)
                loss.backward()
                opt.step()
                opt.zero_grad()
            loss.item()
            # The loss is ready once the forward has run: the step's time covers its backward
            # and update too (the VM runs them behind this thread, and comm_stats below would
            # wait for them outside the timed span).
            mf.synchronize()
            if step >= 3:
                times.append(time.perf_counter() - start)
                sent.append(mf.comm_stats()["bytes_sent"] - before)
        crossed = summed_over_ranks(crossed + host_sent_bytes()) / args.steps
        all_sent = summed_over_ranks(all_sent + mf.comm_stats()["bytes_sent"]) / args.steps
        step_s = statistics.median(times)
        kernels = mf.cuda.kernel_times(reset=True) if profile else []
        theory = theoretical_bytes(d, tp, n_params, cfg, args.batch) if pp == 1 else float("nan")
        peak = mf.memory_stats(args.device)["peak_bytes"]
        if rank == 0:
            threads = os.environ.get("OMP_NUM_THREADS", "unset")
            pipeline = f" micro-batches={micro_batches}" if mode.startswith("graph") and micro_batches > 1 else ""
            print(f"gpt_bench {mode} {args.dtype} layout={args.layout}{pipeline} ranks={world} threads/rank={threads} params={n_params:,} "
                  f"L={cfg.n_layer} H={cfg.n_head} C={cfg.n_embd} T={cfg.block_size} B={args.batch}")
            print(f"  step {step_s * 1e3:8.1f} ms   tokens/s {tokens / step_s:9.0f}{mfu(tokens / step_s)}   comm bytes/step (rank 0) "
                  f"{statistics.median(sent) / 1e6:8.2f} MB   theory {theory / 1e6:8.2f} MB   peak memory "
                  f"{peak / 1e6:8.1f} MB")
            if "MESHFLOW_SIM_HOSTS" in os.environ:
                print(f"  {os.environ['MESHFLOW_SIM_HOSTS']} simulated hosts: payload sent by all ranks "
                      f"{all_sent / 1e6:8.2f} MB/step, of which between hosts (network cards) {crossed / 1e6:8.2f} "
                      f"MB/step")
            if kernels:
                total = sum(ms for _, _, ms in kernels)
                print(f"  GPU time of the kernels (MESHFLOW_PROFILE): {total / args.steps:.1f} ms per step of "
                      f"{step_s * 1e3:.1f}; the most costly ops, per step:")
                for op, calls, ms in kernels[:25]:
                    print(f"    {op:40s} {calls // args.steps:6d} calls {ms / args.steps:8.2f} ms {100 * ms / total:5.1f}%")
            if step_graph is not None:
                st, mem = step_graph.compile_stats(), step_graph.memory_plan()
                print(f"  compile {st['compile_ms']:.1f} ms for {st['traced_nodes']} traced nodes "
                      f"({st['compile_ms'] * 1e3 / st['traced_nodes']:.1f} us per node) -> {st['graph_nodes']} nodes, "
                      f"{st['boxing_nodes']} boxing, {st['tasks']} tasks, {st['fused_ops']} ops fused into "
                      f"{st['fused_chains']} chains; boxing {st['graph_boxing_bytes']} B "
                      f"(eager's choices {st['eager_boxing_bytes']} B)")
                print(f"  arena {mem['arena_bytes'] / 1e6:.2f} MB, max-live bound {mem['max_live_bytes'] / 1e6:.2f} MB "
                      f"({mem['arena_bytes'] / max(1, mem['max_live_bytes']):.3f}x), no reuse "
                      f"{mem['no_reuse_bytes'] / 1e6:.2f} MB; fusion kept {mem['unstored_bytes'] / 1e6:.2f} MB of "
                      f"intermediate results out of registers")
    if args.torch and rank == 0:
        import gpt_torch
        import torch
        config = dict(n_layer=cfg.n_layer, n_head=cfg.n_head, n_embd=cfg.n_embd, block=cfg.block_size,
                      batch=args.batch, vocab=cfg.vocab_size)
        for compiled in (False,) if args.no_compile else (False, True):
            rate = gpt_torch.gpu_tokens_per_s(config, args.steps, args.dtype == "bf16", compiled)
            print(f"PyTorch {torch.__version__} {'torch.compile' if compiled else 'eager'} {args.dtype} on "
                  f"{torch.cuda.get_device_name()}: tokens/s {rate:9.0f}{mfu(rate)}", flush=True)


if __name__ == "__main__":
    main()
