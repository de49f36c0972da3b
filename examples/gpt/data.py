"""Training data for the GPT example: the English fortune cookies of Debian's `fortunes` and
`fortunes-min` packages (BSD licence; see README.md), as bytes.

Vocabulary: bytes, 256 symbols. A byte vocabulary needs no table to build or share between
ranks, covers the few UTF-8 fortunes without special cases, and 256 divides evenly by any
tensor-parallel degree up to 256 (a character vocabulary here would have an odd size, ~100).

Corpus: every fortune file in FORTUNE_DIR except `ascii-art` (pictures, not prose), in file
name order; fortunes are joined with a blank line in place of their `%` separator lines.
Fortune i (counting over all files) goes to the validation split when i % VAL_EVERY ==
VAL_EVERY - 1, the rest to the training split: both splits sample every topic, and the split
is the same on every machine.

Batches: get_batch draws the global batch's window starts from a PCG64 generator seeded with
(seed, step, split), then hands each data-parallel rank its contiguous slice of rows, so the
dp ranks' batches concatenated in rank order are the global batch of a 1-rank run.

Needs only NumPy; `python3 data.py` prints the corpus statistics quoted in README.md.
"""
import functools
import os
import re
from pathlib import Path
from typing import NamedTuple

import numpy as np

# MESHFLOW_FORTUNE_DIR: elsewhere (a machine where the package is unpacked, not installed).
FORTUNE_DIR = Path(os.environ.get("MESHFLOW_FORTUNE_DIR", "/usr/share/games/fortunes"))
EXCLUDED_FILES = frozenset({"ascii-art"})
VAL_EVERY = 10
VOCAB_SIZE = 256
SPLITS = ("train", "val")

_SEPARATOR_LINE = re.compile(rb"^%\n", re.MULTILINE)


class Corpus(NamedTuple):
    files: list      # names of the fortune files read, in order
    fortunes: int    # how many fortunes they hold
    train: np.ndarray  # uint8 bytes
    val: np.ndarray    # uint8 bytes


def fortune_files(directory=FORTUNE_DIR):
    """The fortune text files of `directory`, sorted by name; skips the `.dat` indexes and the
    `.u8` links that point back at the text files."""
    paths = sorted(p for p in Path(directory).iterdir()
                   if p.is_file() and not p.is_symlink() and p.suffix != ".dat"
                   and p.name not in EXCLUDED_FILES)
    if not paths:
        raise FileNotFoundError(f"[gpt data] no fortune files in {directory}; expected the Debian "
                                f"package `fortunes` installed (scripts/build installs it)")
    return paths


@functools.lru_cache(maxsize=None)
def load(directory=FORTUNE_DIR):
    """The corpus of `directory`, split into train and val (read once per process)."""
    paths = fortune_files(directory)
    fortunes = [f for p in paths for f in _SEPARATOR_LINE.split(p.read_bytes()) if f.strip()]
    parts = {split: [] for split in SPLITS}
    for i, fortune in enumerate(fortunes):
        parts["val" if i % VAL_EVERY == VAL_EVERY - 1 else "train"].append(fortune)
    train, val = (np.frombuffer(b"\n".join(parts[split]), dtype=np.uint8) for split in SPLITS)
    return Corpus([p.name for p in paths], len(fortunes), train, val)


def unigram_entropy(tokens):
    """The entropy in nats of the byte frequencies of `tokens`: the loss per token of a model
    that ignores context and predicts the corpus's byte distribution."""
    counts = np.bincount(np.asarray(tokens, dtype=np.int64).ravel(), minlength=VOCAB_SIZE)
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log(p)).sum())


def get_batch(step, global_batch, block, seed, dp_rank=0, dp_size=1, split="train"):
    """Inputs x and next-byte targets y, int64 [global_batch / dp_size, block], for data-parallel
    rank `dp_rank` of `dp_size`: rows dp_rank * n .. (dp_rank + 1) * n - 1 of the global batch of
    `step`. Each row is a window of `split` at a start drawn uniformly by the (seed, step, split)
    generator."""
    if split not in SPLITS:
        raise ValueError(f"[get_batch] split {split!r} is unknown; expected one of {SPLITS}")
    if dp_size < 1 or not 0 <= dp_rank < dp_size:
        raise ValueError(f"[get_batch] dp_rank {dp_rank} of dp_size {dp_size} is out of range; "
                         f"expected 0 <= dp_rank < dp_size")
    if global_batch % dp_size:
        raise ValueError(f"[get_batch] global_batch {global_batch} does not divide by dp_size "
                         f"{dp_size}; expected a multiple of it")
    tokens = getattr(load(), split)
    if not 0 < block < len(tokens):
        raise ValueError(f"[get_batch] block {block} does not fit the {len(tokens)} tokens of "
                         f"{split!r}; expected 0 < block < {len(tokens)}")
    generator = np.random.Generator(np.random.PCG64([seed, step, SPLITS.index(split)]))
    starts = generator.integers(0, len(tokens) - block, size=global_batch)
    rows = global_batch // dp_size
    mine = starts[dp_rank * rows:(dp_rank + 1) * rows]
    windows = tokens[mine[:, None] + np.arange(block + 1)].astype(np.int64)
    return np.ascontiguousarray(windows[:, :-1]), np.ascontiguousarray(windows[:, 1:])


def decode(tokens):
    """Bytes as text, with undecodable bytes (a window may cut a UTF-8 sequence) shown as U+FFFD."""
    return bytes(np.asarray(tokens, dtype=np.uint8)).decode("utf-8", errors="replace")


if __name__ == "__main__":
    corpus = load()
    total = len(corpus.train) + len(corpus.val)
    print(f"source: {FORTUNE_DIR} ({len(corpus.files)} files, {corpus.fortunes} fortunes)")
    print(f"bytes: {total} (train {len(corpus.train)}, val {len(corpus.val)})")
    print(f"distinct bytes: {np.count_nonzero(np.bincount(corpus.train, minlength=VOCAB_SIZE))}")
    print(f"unigram entropy (nats): train {unigram_entropy(corpus.train):.4f}, "
          f"val {unigram_entropy(corpus.val):.4f}; uniform over {VOCAB_SIZE}: "
          f"{np.log(VOCAB_SIZE):.4f}")
