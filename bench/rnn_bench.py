"""Training steps of recurrent models at the shapes users run, meshflow beside PyTorch eager
(and torch.compile with --compile) in the same run, at 2 and 1 threads. Each step as
PyTorch's word_language_model example trains: zero the gradients, forward to the loss,
backward, clip_grad_norm_ and plain SGD written as `p.data.add_(p.grad, alpha=-lr)`.

    PYTHONPATH=build/python:$(echo /root/tv/lib/python3*/site-packages) /usr/bin/python3 bench/rnn_bench.py
    ... bench/rnn_bench.py --only wlm_650,cls_bi_lstm --threads 2 --compile --repeat 5
    ... bench/rnn_bench.py --list

The cases (names say rnn, width, layers, batch, vocabulary, tied, dropout):
  wlm_*: word_language_model (embedding, nn.LSTM / nn.GRU with dropout, a linear decoder
    over the vocabulary, cross-entropy), bptt 35, its hidden state carried across steps
    detached as the example's repackage_hidden; the default (200, 2 layers, batch 20) on
    wikitext-2's 33278 words and a 10k one, the medium (650, dropout 0.5) and large (1500,
    tied) flags, 1 and 3 layers, batch 64, GRU;
  cls_*: text classifiers, batch_first nn.LSTM / nn.GRU over embeddings (bidirectional,
    packed with pack_padded_sequence, enforce_sorted False, or True on a batch sorted by
    length: _sorted, proj_size), a linear head on the last states (or on the output's last
    step, out[:, -1]);
  tag_*: a tagger, a packed bidirectional nn.LSTM, pad_packed_sequence back to [B, L] and a
    linear head on every token, cross-entropy over the real tokens (padding ignored);
  cell_*: nn.LSTMCell / nn.GRUCell looped in Python over 35 steps.
Each library in a process of its own, taking turns for --rounds rounds, best of all
(bench/thread_runs.py); per case the best of --repeat steps after warmup ones. ratio = the
best of torch's times / meshflow's (> 1: meshflow faster). The machine is shared: compare
only within one run.
"""
import argparse

import numpy as np

from thread_runs import child_threads, compiled_or_none, import_torch, run_parent, time_sides

torch = import_torch()

import meshflow as mf  # noqa: E402

BPTT = 35


def word_lm(nn, rnn="LSTM", width=200, layers=2, vocab=33278, dropout=0.2, tied=False):
    """word_language_model's RNNModel: forward(tokens [T, B], targets [T B]) -> loss, the
    hidden state kept on the module and detached between steps."""

    class RNNModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.drop = nn.Dropout(dropout)
            self.encoder = nn.Embedding(vocab, width)
            self.rnn = getattr(nn, rnn)(width, width, layers, dropout=dropout)
            self.decoder = nn.Linear(width, vocab)
            if tied:
                self.decoder.weight = self.encoder.weight
            self.hidden = None

        def forward(self, tokens, targets):
            emb = self.drop(self.encoder(tokens))
            output, hidden = self.rnn(emb, self.hidden)
            self.hidden = tuple(h.detach() for h in hidden) if isinstance(hidden, tuple) else hidden.detach()
            decoded = self.decoder(self.drop(output)).view(-1, vocab)
            return nn.functional.nll_loss(nn.functional.log_softmax(decoded, dim=1), targets)

    return RNNModel()


def classifier(lib, rnn="LSTM", embed=128, hidden=256, classes=4, vocab=20000, bidirectional=False, packed=False,
               proj_size=0, last_step=False, enforce_sorted=False):
    """A text classifier: embedding, a batch_first recurrent layer (packed by the lengths when
    `packed`), a linear head on the last layer's final states (on the output's last step,
    `out[:, -1]`, when `last_step`); forward(tokens [B, L], lengths [B], labels [B]) -> loss."""
    nn = lib.nn
    kwargs = {"proj_size": proj_size} if proj_size else {}

    class Classifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, embed)
            self.rnn = getattr(nn, rnn)(embed, hidden, batch_first=True, bidirectional=bidirectional, **kwargs)
            out = (proj_size or hidden) * (2 if bidirectional else 1)
            self.head = nn.Linear(out, classes)

        def forward(self, tokens, lengths, labels):
            x = self.embed(tokens)
            if packed:
                x = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=enforce_sorted)
            out, state = self.rnn(x)
            h = state[0] if isinstance(state, tuple) else state
            if last_step:
                last = out[:, -1]
            else:
                last = lib.cat([h[-2], h[-1]], 1) if bidirectional else h[-1]
            return nn.functional.cross_entropy(self.head(last), labels)

    return Classifier()


def tagger(lib, embed=128, hidden=256, tags=17, vocab=20000):
    """A sequence tagger: embedding, a packed batch_first bidirectional nn.LSTM, its output
    padded back to [B, L] (pad_packed_sequence), a linear head on every token;
    forward(tokens [B, L], lengths [B], labels [B, L], -100 past a sequence's end) -> loss."""
    nn = lib.nn

    class Tagger(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, embed)
            self.rnn = nn.LSTM(embed, hidden, batch_first=True, bidirectional=True)
            self.head = nn.Linear(2 * hidden, tags)

        def forward(self, tokens, lengths, labels):
            x = nn.utils.rnn.pack_padded_sequence(self.embed(tokens), lengths, batch_first=True, enforce_sorted=False)
            out, _ = nn.utils.rnn.pad_packed_sequence(self.rnn(x)[0], batch_first=True, total_length=tokens.shape[1])
            return nn.functional.cross_entropy(self.head(out).reshape(-1, tags), labels.reshape(-1), ignore_index=-100)

    return Tagger()


def cell_loop(lib, rnn="LSTMCell", width=200, vocab=10000):
    """A decoder stepping nn.LSTMCell / nn.GRUCell in Python over the steps; forward(tokens
    [T, B], targets [T B]) -> loss of a linear head on every step's h."""
    nn = lib.nn

    class CellLoop(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, width)
            self.cell = getattr(nn, rnn)(width, width)
            self.head = nn.Linear(width, vocab)

        def forward(self, tokens, targets):
            x = self.embed(tokens)
            state, outputs = None, []
            for t in range(x.shape[0]):
                state = self.cell(x[t], state)
                outputs.append(state[0] if isinstance(state, tuple) else state)
            logits = self.head(lib.stack(outputs, 0)).view(-1, vocab)
            return nn.functional.cross_entropy(logits, targets)

    return CellLoop()


def lm_inputs(rng, batch, vocab):
    tokens = rng.integers(0, vocab, (BPTT, batch))
    return tokens, rng.integers(0, vocab, BPTT * batch)


def cls_inputs(rng, batch=64, length=50, vocab=20000, sort=False):
    lengths = rng.integers(length // 4, length + 1, batch)
    if sort:
        lengths = np.sort(lengths)[::-1].copy()
    return rng.integers(0, vocab, (batch, length)), lengths, rng.integers(0, 4, batch)


def tag_inputs(rng, batch=64, length=50, vocab=20000, tags=17):
    lengths = rng.integers(length // 4, length + 1, batch)
    labels = np.where(np.arange(length)[None, :] < lengths[:, None], rng.integers(0, tags, (batch, length)), -100)
    return rng.integers(0, vocab, (batch, length)), lengths, labels


def cases():
    """name -> (build(lib) -> module, inputs as NumPy arrays, clip)."""
    rng = np.random.default_rng(0)
    wiki, ptb = 33278, 10000
    def lm(batch, vocab, **kw):
        return lambda lib: word_lm(lib.nn, vocab=vocab, **kw), lm_inputs(rng, batch, vocab), 0.25

    def cls(**kw):
        return lambda lib: classifier(lib, **kw), cls_inputs(rng, sort=kw.get("enforce_sorted", False)), 5.0

    return {
        "wlm_200_2l_b20_wiki": lm(20, wiki),
        "wlm_200_2l_b20_10k": lm(20, ptb),
        "wlm_200_1l_b64_10k": lm(64, ptb, layers=1),
        "wlm_200_3l_b20_10k_d5": lm(20, ptb, layers=3, dropout=0.5),
        "wlm_650_2l_b20_wiki_d5": lm(20, wiki, width=650, dropout=0.5),
        "wlm_650_2l_b64_10k_tied": lm(64, ptb, width=650, dropout=0.5, tied=True),
        "wlm_1500_2l_b20_wiki_tied": lm(20, wiki, width=1500, dropout=0.65, tied=True),
        "wlm_gru_200_2l_b20_wiki": lm(20, wiki, rnn="GRU"),
        "wlm_gru_650_2l_b20_10k": lm(20, ptb, rnn="GRU", width=650, dropout=0.5),
        "cls_lstm": cls(),
        "cls_bi_lstm": cls(bidirectional=True),
        "cls_bi_lstm_packed": cls(bidirectional=True, packed=True),
        "cls_lstm_proj": cls(hidden=512, proj_size=128),
        "cls_bi_gru_packed": cls(rnn="GRU", bidirectional=True, packed=True),
        "cls_gru": cls(rnn="GRU"),
        "cls_bi_gru": cls(rnn="GRU", bidirectional=True),
        "cls_lstm_last_step": cls(last_step=True),
        "cell_lstm": (lambda lib: cell_loop(lib), lm_inputs(rng, 32, 10000), 0.25),
        "cell_gru": (lambda lib: cell_loop(lib, "GRUCell"), lm_inputs(rng, 32, 10000), 0.25),
        # Drawn last, so that the cases above keep their inputs.
        "cls_lstm_packed": cls(packed=True),
        "cls_lstm_packed_sorted": cls(packed=True, enforce_sorted=True),
        "cls_gru_packed": cls(rnn="GRU", packed=True),
        "tag_bi_lstm_packed": (lambda lib: tagger(lib), tag_inputs(rng), 5.0),
    }


# Cases too slow for a default run on a shared machine (a step takes seconds): --only names them.
LARGE = {"wlm_1500_2l_b20_wiki_tied"}


def training_step(lib, module, inputs, clip, compiled=False, lr=20.0):
    """word_language_model's step: zero_grad, loss, backward, clip_grad_norm_, then
    p.data.add_(p.grad, alpha=-lr); meshflow's waits for its queued work."""
    tensors = [lib.tensor(a) for a in inputs]
    run = torch.compile(module) if compiled else module
    params = list(module.parameters())

    def step():
        module.zero_grad()
        run(*tensors).backward()
        lib.nn.utils.clip_grad_norm_(params, clip)
        for p in params:
            p.data.add_(p.grad, alpha=-lr)
        if lib is mf:
            mf.synchronize()
    return step


def child(args):
    threads = child_threads(args, mf, torch)
    wanted = args.only.split(",") if args.only else None
    for name, (build, inputs, clip) in cases().items():
        if (wanted and not any(name.startswith(w) for w in wanted)) or (not wanted and name in LARGE):
            continue
        def make_step(label):
            lib = mf if label == "meshflow" else torch
            lib.manual_seed(0)
            if label == "compile":
                return compiled_or_none(name, lambda: training_step(torch, build(torch), inputs, clip, compiled=True))
            return training_step(lib, build(lib), inputs, clip)

        time_sides(name, threads, make_step, torch is not None, args.compile, args.repeat)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, nargs="+", default=[2, 1])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", default="", help="comma-separated case names or prefixes")
    parser.add_argument("--compile", action="store_true", help="also time torch.compile; ratio against torch's best")
    parser.add_argument("--together", action="store_true", help="time both libraries in one process")
    parser.add_argument("--rounds", type=int, default=2, help="turns of each library's process, apart")
    parser.add_argument("--list", action="store_true", help="print the case names")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.list:
        print("\n".join(f"{name}{' (large)' if name in LARGE else ''}" for name in cases()))
        return
    if args.child:
        child(args)
        return
    print(f"rnn_bench: best of {args.repeat}, torch {torch.__version__ if torch is not None else 'not installed'}, "
          f"{'in one process' if args.together else 'each library in its own process'}", flush=True)
    child_args = ["--repeat", str(args.repeat), "--only", args.only, *(["--compile"] if args.compile else [])]
    run_parent(__file__, args, child_args, torch is not None)


if __name__ == "__main__":
    main()
