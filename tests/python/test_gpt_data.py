"""examples/gpt/data.py: the dp ranks' batches concatenate to the 1-rank global batch, batches are
windows of the corpus with next-byte targets, reproducible from (seed, step), and the unigram
entropy matches its closed form on distributions we know.
"""
import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

_PATH = Path(__file__).resolve().parents[2] / "examples" / "gpt" / "data.py"
_SPEC = importlib.util.spec_from_file_location("gpt_data", _PATH)
data = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(data)

BLOCK = 16


@pytest.mark.parametrize("dp_size", [2, 4, 8])
@pytest.mark.parametrize("split", data.SPLITS)
def test_dp_slices_concatenate_to_the_global_batch(dp_size, split):
    x, y = data.get_batch(step=3, global_batch=8, block=BLOCK, seed=7, split=split)
    parts = [data.get_batch(3, 8, BLOCK, 7, dp_rank=r, dp_size=dp_size, split=split)
             for r in range(dp_size)]
    assert all(px.shape == (8 // dp_size, BLOCK) and px.dtype == np.int64 for px, _ in parts)
    np.testing.assert_array_equal(np.concatenate([px for px, _ in parts]), x)
    np.testing.assert_array_equal(np.concatenate([py for _, py in parts]), y)


def test_rows_are_corpus_windows_with_next_byte_targets():
    x, y = data.get_batch(step=0, global_batch=4, block=BLOCK, seed=1)
    np.testing.assert_array_equal(x[:, 1:], y[:, :-1])
    train = data.load().train.tobytes()
    for row_x, row_y in zip(x, y):
        window = bytes(np.append(row_x, row_y[-1]).astype(np.uint8))
        assert train.find(window) >= 0


def test_batches_depend_on_seed_step_and_split_only():
    first = data.get_batch(5, 4, BLOCK, seed=2)[0]
    np.testing.assert_array_equal(first, data.get_batch(5, 4, BLOCK, seed=2)[0])
    for other in (data.get_batch(6, 4, BLOCK, seed=2)[0], data.get_batch(5, 4, BLOCK, seed=3)[0],
                  data.get_batch(5, 4, BLOCK, seed=2, split="val")[0]):
        assert not np.array_equal(first, other)


def test_separators_become_blank_lines_and_val_holds_a_tenth():
    corpus = data.load()
    for tokens in (corpus.train, corpus.val):
        text = tokens.tobytes()
        assert b"\n%\n" not in text and not text.startswith(b"%\n")
    assert 0.08 < len(corpus.val) / (len(corpus.train) + len(corpus.val)) < 0.12


def test_unigram_entropy_matches_closed_forms():
    assert data.unigram_entropy(np.zeros(10, np.uint8)) == 0.0
    assert math.isclose(data.unigram_entropy(np.array([0, 1, 1, 0])), math.log(2))
    assert math.isclose(data.unigram_entropy(np.arange(256).repeat(3)), math.log(256))


@pytest.mark.parametrize("kwargs", [dict(global_batch=6, dp_size=4), dict(dp_rank=2, dp_size=2),
                                    dict(split="test"), dict(block=0)])
def test_bad_arguments_raise_naming_the_problem(kwargs):
    args = dict(step=0, global_batch=8, block=BLOCK, seed=0) | kwargs
    with pytest.raises(ValueError, match=r"\[get_batch\]"):
        data.get_batch(**args)
