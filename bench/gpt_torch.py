"""The GPT of examples/gpt in PyTorch: the yardstick for meshflow's training speed, and a reference
for its losses. PyTorch is only a yardstick, never a dependency of meshflow (Debian's
python3-torch, 1.13).

    /usr/bin/python3 bench/gpt_torch.py                       # tokens/s per thread setting
    /usr/bin/python3 bench/gpt_torch.py --reference ref.npz   # initial weights + losses

Timing: the median training step (forward, backward, AdamW step, on batches of
examples/gpt/data.py) after WARMUP_STEPS, over at least --seconds, for each setting of torch's
intra-op threads x OPENBLAS_NUM_THREADS in {1, 2} x {1, 2}. OpenBLAS reads its variable when it
is loaded, with torch, so each setting runs in its own subprocess.

Model (CONFIG; dropout 0): the GPT of examples/gpt/model.py, parameter for parameter, so that
weights can be copied by name. Matrices are stored [out, in] and applied as x @ weight^T + bias
(torch's nn.Linear, and meshflow's). C = n_embd, H = n_head, D = C / H, V = vocab, T = block:
    wte.weight                    [V, C]    token embedding
    wpe.weight                    [T, C]    position embedding; h = wte[x] + wpe[0..T-1]
    blocks.{l}.ln_1.weight, .bias [C]       pre-LN of attention (eps 1e-5, biased variance)
    blocks.{l}.attn.qkv.weight    [3C, C]   fused q, k, v; row (h * 3 + j) * D + d is
                                            component j (0 q, 1 k, 2 v) of head h, dim d
    blocks.{l}.attn.qkv.bias      [3C]      same row order
    blocks.{l}.attn.proj.weight   [C, C]    column h * D + d takes head h's output dim d
    blocks.{l}.attn.proj.bias     [C]
    blocks.{l}.ln_2.weight, .bias [C]       pre-LN of the MLP
    blocks.{l}.mlp.fc.weight      [4C, C]   then GELU, exact erf form
    blocks.{l}.mlp.fc.bias        [4C]
    blocks.{l}.mlp.proj.weight    [C, 4C]
    blocks.{l}.mlp.proj.bias      [C]
    ln_f.weight, ln_f.bias        [C]       final LayerNorm
    lm_head.weight                [V, C]    untied from wte, no bias
The qkv rows are grouped by head so that a tensor-parallel split of qkv.weight's rows (and of
proj.weight's columns) into n parts gives each part whole heads when H % n == 0 (Megatron).
Attention per head: softmax(q k^T / sqrt(D) + mask) v, mask 0 on and below the diagonal and
-inf above. Loss: mean cross-entropy of the logits [B*T, V] against the next bytes.
Initialization (GPT-2's): matrices and embeddings N(0, 0.02), the two proj.weight of each
block N(0, 0.02 / sqrt(2 n_layer)), biases 0, LayerNorm weights 1.
Optimizer as bench/gpt_bench.py's: AdamW on every parameter, lr 1e-3, betas (0.9, 0.95), eps
1e-8, weight decay 0.1, no clipping. Batches: data.get_batch(step, batch, block, seed 0).
"""
import argparse
import itertools
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "gpt"))
import data  # noqa: E402: examples/gpt/data.py, found through the path above

CONFIG = dict(n_layer=4, n_head=4, n_embd=256, block=128, batch=8, vocab=data.VOCAB_SIZE)
ADAMW = dict(lr=1e-3, betas=(0.9, 0.95), eps=1e-8, weight_decay=0.1)
WARMUP_STEPS = 3
SEED = 0


def build_model(config):
    """The GPT of the module docstring, initialized from torch's current random state."""
    import torch
    from torch import nn
    from torch.nn import functional as F

    class CausalSelfAttention(nn.Module):
        def __init__(self, n_embd, n_head, block):
            super().__init__()
            self.n_head = n_head
            self.qkv = nn.Linear(n_embd, 3 * n_embd)
            self.proj = nn.Linear(n_embd, n_embd)
            above_diagonal = torch.ones(block, block, dtype=torch.bool).triu(1)
            self.register_buffer("mask", torch.zeros(block, block).masked_fill(above_diagonal, -math.inf))

        def forward(self, x):
            b, t, c = x.shape
            head_dim = c // self.n_head
            q, k, v = self.qkv(x).view(b, t, self.n_head, 3, head_dim).permute(3, 0, 2, 1, 4)
            scores = q @ k.transpose(-2, -1) * (1.0 / math.sqrt(head_dim)) + self.mask[:t, :t]
            y = F.softmax(scores, dim=-1) @ v
            return self.proj(y.transpose(1, 2).reshape(b, t, c))

    class MLP(nn.Module):
        def __init__(self, n_embd):
            super().__init__()
            self.fc = nn.Linear(n_embd, 4 * n_embd)
            self.proj = nn.Linear(4 * n_embd, n_embd)

        def forward(self, x):
            return self.proj(F.gelu(self.fc(x)))

    class Block(nn.Module):
        def __init__(self, n_embd, n_head, block):
            super().__init__()
            self.ln_1 = nn.LayerNorm(n_embd)
            self.attn = CausalSelfAttention(n_embd, n_head, block)
            self.ln_2 = nn.LayerNorm(n_embd)
            self.mlp = MLP(n_embd)

        def forward(self, x):
            x = x + self.attn(self.ln_1(x))
            return x + self.mlp(self.ln_2(x))

    class GPT(nn.Module):
        def __init__(self, n_layer, n_head, n_embd, block, vocab, **_):
            super().__init__()
            self.wte = nn.Embedding(vocab, n_embd)
            self.wpe = nn.Embedding(block, n_embd)
            self.blocks = nn.ModuleList(Block(n_embd, n_head, block) for _ in range(n_layer))
            self.ln_f = nn.LayerNorm(n_embd)
            self.lm_head = nn.Linear(n_embd, vocab, bias=False)
            with torch.no_grad():
                for name, p in self.named_parameters():
                    if name.endswith("bias"):
                        p.zero_()
                    elif ".ln_" in name or name.startswith("ln_"):
                        p.fill_(1.0)
                    else:
                        residual = name.endswith("proj.weight")
                        p.normal_(0.0, 0.02 / math.sqrt(2 * n_layer) if residual else 0.02)

        def forward(self, x, y):
            h = self.wte(x) + self.wpe(torch.arange(x.shape[1], device=x.device))
            for block in self.blocks:
                h = block(h)
            logits = self.lm_head(self.ln_f(h))
            return F.cross_entropy(logits.view(-1, logits.shape[-1]), y.view(-1))

    return GPT(**config)


def trainer(autocast=False):
    """The CONFIG model seeded with SEED, its AdamW, and step(x, y) -> the loss before the update;
    with `autocast`, the forward pass under torch.autocast("cpu", dtype=torch.bfloat16)."""
    import torch
    torch.manual_seed(SEED)
    model = build_model(CONFIG)
    optimizer = torch.optim.AdamW(model.parameters(), **ADAMW)

    def step(x, y):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
            loss = model(torch.from_numpy(x), torch.from_numpy(y))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        return loss.item()

    return model, step


def gpu_tokens_per_s(config, steps, autocast, compiled):
    """PyTorch's training speed of `config` on the GPU (bench/gpt_bench.py --torch): the median
    step after WARMUP_STEPS (torch.compile's compilation in them), AdamW as above."""
    import torch
    torch.manual_seed(SEED)
    model = build_model(config).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), **ADAMW)
    forward = torch.compile(model) if compiled else model
    times = []
    for i in range(WARMUP_STEPS + steps):
        x, y = (torch.from_numpy(a).cuda() for a in data.get_batch(i, config["batch"], config["block"], SEED))
        torch.cuda.synchronize()
        start = time.perf_counter()
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=autocast):
            loss = forward(x, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        loss.item()
        if i >= WARMUP_STEPS:
            times.append(time.perf_counter() - start)
    return config["batch"] * config["block"] / float(np.median(times))


def batch(step):
    """Global batch `step` of the training split, as bench/gpt_bench.py draws it."""
    return data.get_batch(step, CONFIG["batch"], CONFIG["block"], SEED)


def time_training(intra_threads, seconds, autocast=False):
    """Tokens per second of the median training step after the warmup, over at least `seconds`
    (the median, so that a burst of other work on a shared machine moves it little)."""
    import torch
    torch.set_num_threads(intra_threads)
    _, step = trainer(autocast)
    for i in range(WARMUP_STEPS):
        step(*batch(i))
    step_seconds = []
    while len(step_seconds) < 5 or sum(step_seconds) < seconds:
        x, y = batch(WARMUP_STEPS + len(step_seconds))
        start = time.perf_counter()
        step(x, y)
        step_seconds.append(time.perf_counter() - start)
    return CONFIG["batch"] * CONFIG["block"] / float(np.median(step_seconds))


def sweep(seconds, autocast=False):
    """Runs time_training in a subprocess per thread setting; prints a row each and the best."""
    results = {}
    for intra, blas in itertools.product((1, 2), (1, 2)):
        env = dict(os.environ, OPENBLAS_NUM_THREADS=str(blas))
        env.pop("OMP_NUM_THREADS", None)
        out = subprocess.run([sys.executable, __file__, "--worker", str(intra), "--seconds", str(seconds)]
                             + (["--autocast"] if autocast else []),
                             env=env, check=True, capture_output=True, text=True).stdout
        results[intra, blas] = json.loads(out.splitlines()[-1])["tokens_per_s"]
        print(f"torch threads {intra}, OPENBLAS_NUM_THREADS {blas}: {results[intra, blas]:8.0f} tokens/s",
              flush=True)
    (intra, blas), best = max(results.items(), key=lambda item: item[1])
    print(f"best: {best:.0f} tokens/s (torch threads {intra}, OPENBLAS_NUM_THREADS {blas})")


def write_reference(path, steps):
    """Saves the initial parameters (by the names above) and the losses of `steps` steps."""
    model, step = trainer()
    initial = {name: p.detach().numpy().copy() for name, p in model.named_parameters()}
    losses = np.array([step(*batch(i)) for i in range(steps)])
    np.savez(path, losses=losses, **initial)
    print(f"{path}: {len(initial)} parameters, losses {losses[0]:.4f} .. {losses[-1]:.4f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="timed seconds per setting")
    parser.add_argument("--reference", metavar="NPZ", help="write initial weights and losses here")
    parser.add_argument("--steps", type=int, default=20, help="training steps for --reference")
    parser.add_argument("--autocast", action="store_true",
                        help='the forward pass under torch.autocast("cpu", dtype=torch.bfloat16)')
    parser.add_argument("--worker", type=int, metavar="THREADS", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps({"tokens_per_s": time_training(args.worker, args.seconds, args.autocast)}))
    elif args.reference:
        write_reference(args.reference, args.steps)
    else:
        import torch
        n_params = sum(p.numel() for p in build_model(CONFIG).parameters())
        print(f"PyTorch {torch.__version__} GPT {CONFIG}, {n_params} parameters; "
              f"{WARMUP_STEPS} warmup steps, then the median step over >= {args.seconds:g} s per setting"
              + (", forward under torch.autocast(bfloat16)" if args.autocast else ""))
        sweep(args.seconds, args.autocast)


if __name__ == "__main__":
    main()
