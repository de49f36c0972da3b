"""Whole programs as PyTorch users write them (issue 37, eighteenth programs round), focused on
model code and training loops: HF-style generation (top-k/top-p filtering, KV caches, beam
search, tied and resized embeddings, padding and position ids), vision (uint8 pipelines,
ResNet, U-Net, ViT, channels_last, interpolate, grid_sample, pixel shuffle, FPN, NMS), training
loops (accumulation, clipping, every scheduler, EMA, swa_utils, parameter groups, resuming
with optimizer, scheduler and RNG state), data loading (collate_fn, samplers, iterable and
concatenated datasets), hooks, activation checkpointing, module surgery, state_dict loading
with missing and unexpected keys, and logging. Each program in port_programs18/ is torch's
spelling, run unchanged but for its imports, and must agree with what PyTorch 2 printed for it
(expected.json), as test_port_programs9's."""
import os

import numpy as np
import pytest

import meshflow as mf
from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs18"), "x")


def test_a_number_beyond_a_float_dtype_s_range_is_refused_where_torch_s_fill_refuses_it():
    # full, fill_, masked_fill, index_fill, new_full and full_like convert as torch's fill_ does
    # (c10::checked_convert): past the largest finite value raises, inf and NaN pass
    h = mf.zeros(2, dtype=mf.float16)
    mask = mf.tensor([True, False])
    for write in (lambda: mf.full((2,), 7e4, dtype=mf.float16), lambda: h.clone().fill_(1e5),
                  lambda: h.masked_fill(mask, mf.finfo(mf.float32).min), lambda: h.new_full((2,), -65520.0),
                  lambda: h.index_fill(0, mf.tensor([0]), 1e5), lambda: mf.full_like(h, 1e9),
                  lambda: mf.full((2,), 1e39, dtype=mf.bfloat16), lambda: mf.full((2,), 1e39)):
        with pytest.raises(RuntimeError, match="cannot be converted to type .* without overflow"):
            write()
    assert mf.full((2,), 65504.0, dtype=mf.float16).tolist() == [65504.0] * 2
    assert mf.full((1,), 65519.0, dtype=mf.bfloat16).tolist() == [65536.0]
    assert h.masked_fill(mask, float("-inf")).tolist() == [float("-inf"), 0.0]
    assert mf.full((1,), 3e38).tolist() == [np.float32(3e38)]
    # arithmetic and comparisons with such a number make infinities, and so does a write of
    # one element, which torch's fill_ converts unchecked (torch's); a write of more refuses it
    assert (mf.ones(1, dtype=mf.float16) * 1e5).tolist() == [float("inf")]
    with pytest.raises(RuntimeError, match="without overflow"):
        h[:] = 1e5
    h[0] = 1e5
    h[1:] = -1e9
    assert h.tolist() == [float("inf"), float("-inf")] and (h == 1e5).tolist() == [True, False]


def test_an_int_fills_uint8_down_to_minus_255_and_a_float_truncates_as_torch_s():
    assert mf.full((2,), -1, dtype=mf.uint8).tolist() == [255, 255]
    assert mf.zeros(2, dtype=mf.uint8).masked_fill(mf.tensor([True, False]), -255).tolist() == [1, 0]
    assert mf.full((1,), 3.7, dtype=mf.uint8).tolist() == [3] and mf.full((1,), 127.5, dtype=mf.int8).tolist() == [127]
    for dtype, value in ((mf.uint8, 256), (mf.uint8, -256), (mf.uint8, -1.0), (mf.int8, 255), (mf.int8, -128.5),
                         (mf.int16, 40000), (mf.uint8, float("inf"))):
        with pytest.raises(RuntimeError, match="does not fit|overflow"):
            mf.full((2,), value, dtype=dtype)
