"""Forward + backward time of each layer family (2-d and 3-d convolution, batch norm and
pooling among them), meshflow beside PyTorch eager in the same run (when torch imports), at 1
and 2 threads, and one training step of a small ResNet and of an LSTM language model. The 3-d
cases take [N / 4, C, 8, H / 2, W / 2].

    PYTHONPATH=build/python /usr/bin/python3 bench/layers_bench.py          # meshflow alone
    PYTHONPATH=build/python /root/tv/bin/python bench/layers_bench.py       # and torch
    ... bench/layers_bench.py --threads 1 --repeat 20 --only conv,bn

Each thread count runs in a child process started with OMP_NUM_THREADS set (both libraries
read it at start) and set_num_threads. Per case: a few warmup calls, then the best of
--repeat timed calls (a call: forward, a sum as the loss, backward, and for the *_step models
a cross-entropy loss and an SGD step). The recurrent layers take [steps, batch, features] =
[35, N, 4 C] (the LSTM's hidden size 4 C), the language model N sequences of 35 tokens. ratio = torch's time / meshflow's (> 1: meshflow faster). Timings on a shared machine
are noisy: compare A/B within one run, best of several.
"""
import argparse

import numpy as np

try:
    import torch  # before meshflow: torch's CUDA libraries clash with symbols meshflow loads first
except ImportError:
    torch = None

import meshflow as mf  # noqa: E402
from thread_runs import run_children, timed  # noqa: E402


def cases(shape):
    """name -> (build(lib) -> (module, input shape)) for each layer family: lib is meshflow or
    torch, whose nn namespaces match. An input shape of two dims is one of token ids."""
    n, c, h, w = shape
    sequence = (35, n, 4 * c)
    volume = (max(n // 4, 1), c, 8, max(h // 2, 2), max(w // 2, 2))  # N / 4, C, 8, H / 2, W / 2
    return {
        "conv3x3": lambda lib: (lib.nn.Conv2d(c, c, 3, padding=1, bias=False), shape),
        "conv3x3_s2": lambda lib: (lib.nn.Conv2d(c, 2 * c, 3, stride=2, padding=1, bias=False), shape),
        "conv1x1": lambda lib: (lib.nn.Conv2d(c, 2 * c, 1, bias=False), shape),
        "conv_dw": lambda lib: (lib.nn.Conv2d(c, c, 3, padding=1, groups=c, bias=False), shape),
        "bn": lambda lib: (lib.nn.BatchNorm2d(c), shape),
        "relu": lambda lib: (lib.nn.ReLU(), shape),
        "maxpool": lambda lib: (lib.nn.MaxPool2d(2), shape),
        "avgpool": lambda lib: (lib.nn.AvgPool2d(2), shape),
        "conv3d": lambda lib: (lib.nn.Conv3d(c, c, 3, padding=1, bias=False), volume),
        "bn3d": lambda lib: (lib.nn.BatchNorm3d(c), volume),
        "maxpool3d": lambda lib: (lib.nn.MaxPool3d(2), volume),
        "avgpool3d": lambda lib: (lib.nn.AvgPool3d(2), volume),
        "resnet_step": lambda lib: (small_resnet(lib.nn), shape),
        "lstm": lambda lib: (output_of(lib.nn, lib.nn.LSTM(4 * c, 4 * c)), sequence),
        "lstm_2l_bi": lambda lib: (output_of(lib.nn, lib.nn.LSTM(4 * c, 4 * c, 2, bidirectional=True)), sequence),
        "gru": lambda lib: (output_of(lib.nn, lib.nn.GRU(4 * c, 4 * c)), sequence),
        "lstm_lm_step": lambda lib: (lstm_language_model(lib.nn), (35, n)),
    }


VOCAB = 1000


def output_of(nn, rnn):
    """A recurrent layer's output alone (it returns the output and the final state)."""

    class Output(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = rnn

        def forward(self, x):
            return self.rnn(x)[0]

    return Output()


def lstm_language_model(nn, width=200):
    """PyTorch's word_language_model example at its defaults: an embedding, a two-layer LSTM
    with dropout between the layers, a linear decoder over the vocabulary."""

    class LanguageModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(VOCAB, width)
            self.rnn = nn.LSTM(width, width, num_layers=2, dropout=0.2)
            self.decoder = nn.Linear(width, VOCAB)

        def forward(self, tokens):
            return self.decoder(self.rnn(self.embed(tokens))[0]).reshape(-1, VOCAB)

    return LanguageModel()


def small_resnet(nn):
    """A ResNet-style CNN: a stem, three stages of a residual block each (two 3x3 convs with
    batch norm), global average pooling and a linear head."""

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.skip = None if stride == 1 and cin == cout else nn.Sequential(
                nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout))

        def forward(self, x):
            y = self.relu(self.bn1(self.conv1(x)))
            y = self.bn2(self.conv2(y))
            return self.relu(y + (x if self.skip is None else self.skip(x)))

    return nn.Sequential(nn.Conv2d(16, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
                         Block(16, 16, 1), Block(16, 32, 2), Block(32, 64, 2),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10))


def step_of(lib, name, module, x_np):
    """One call of the case: forward, loss, backward (and an SGD step for the ResNet)."""
    is_torch = lib is torch
    training = name.endswith("_step")
    x = lib.tensor(x_np, requires_grad=not training and x_np.dtype != np.int64)
    if training:
        classes = VOCAB if name == "lstm_lm_step" else 10
        target = lib.tensor(np.arange(x_np.size if x_np.ndim == 2 else x_np.shape[0]) % classes)
        opt = lib.optim.SGD(module.parameters(), lr=0.01, momentum=0.9)

        def step():
            opt.zero_grad()
            loss = lib.nn.functional.cross_entropy(module(x), target)
            loss.backward()
            opt.step()
            if not is_torch:
                mf.synchronize()
        return step

    def step():
        x.grad = None
        module(x).sum().backward()
        if not is_torch:
            mf.synchronize()
    return step


def child(args):
    threads = args.threads[0]
    mf.set_num_threads(threads)
    if torch is not None:
        torch.set_num_threads(threads)
    rng = np.random.default_rng(0)
    wanted = args.only.split(",") if args.only else None
    for name, build in cases(args.shape).items():
        if wanted and name not in wanted:
            continue
        mf.manual_seed(0)
        module, shape = build(mf)
        x = rng.integers(0, VOCAB, shape) if len(shape) == 2 else rng.standard_normal(shape).astype(np.float32)
        ours = timed(step_of(mf, name, module, x), args.repeat)
        line = f"{name:12s} threads={threads}  meshflow {ours * 1e3:8.2f} ms"
        if torch is not None:
            torch.manual_seed(0)
            theirs = timed(step_of(torch, name, build(torch)[0], x), args.repeat)
            line += f"  torch {theirs * 1e3:8.2f} ms  ratio {theirs / ours:5.2f}"
        print(line, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--shape", type=int, nargs=4, default=[32, 16, 32, 32], help="N C H W")
    parser.add_argument("--only", default="", help="comma-separated case names")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    print(f"layers_bench: shape {args.shape}, best of {args.repeat}, torch "
          f"{torch.__version__ if torch is not None else 'not installed'}", flush=True)
    run_children(__file__, args.threads, ["--repeat", str(args.repeat), "--shape", *map(str, args.shape),
                                          "--only", args.only])


if __name__ == "__main__":
    main()
