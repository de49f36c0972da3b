"""Whole programs as PyTorch users write them (issue 37, twenty-second programs round), focused on
model code as Hugging Face, timm and lucidrains write it and on training-loop machinery: BERT
(extended 4-d masks with finfo.min, token types, pooler, tied MLM head), LLaMA (RMSNorm, rotary
embeddings by rotate_half and by view_as_complex/polar, SwiGLU, repeat_kv, KV caches, greedy,
top-k and top-p filtering), T5 relative position buckets, MoE routing and load-balancing
losses, DDPM / DDIM schedules, timestep embeddings and sampling loops, GroupNorm+SiLU U-Net
blocks, message-passing GNNs by index_add_ / scatter_reduce, box IoU and NMS, spatial
transformers (affine_grid, grid_sample), F.interpolate in every mode, pixel_shuffle, fold /
unfold, CTC, focal and distillation losses, label smoothing, metrics by bincount / sort /
cumsum, torch.fft, stft / istft, windows, complex tensors; clip_grad_norm_, parameters_to_vector,
AveragedModel / SWALR / update_bn, LambdaLR / SequentialLR / ChainedScheduler /
ReduceLROnPlateau state_dicts, grad modes, train / eval, torch.utils.data and checkpoints.
Each program in port_programs22/ is torch's spelling, run unchanged but for its imports, and
must agree with what PyTorch 2 printed for it (expected.json), as test_port_programs9's."""
import io
import math
import os

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs22"), "z")


def test_zero_grad_without_set_to_none_zeroes_each_gradient_in_place():
    x = mf.nn.Parameter(mf.ones(2))
    (x ** 2).sum().backward(create_graph=True)  # a gradient on the graph: detached, then zeroed
    held = x.grad
    for opt in (mf.optim.SGD([x], lr=0.1), mf.optim.Adam([x], lr=0.1), mf.optim.Adafactor([x], lr=0.1)):
        (x * 3).sum().backward()
        opt.zero_grad(set_to_none=False)
        assert x.grad is held and held.tolist() == [0.0, 0.0] and held.grad_fn is None and not held.requires_grad
    m = mf.nn.Linear(2, 1)
    m(mf.ones(1, 2)).sum().backward()
    held = m.weight.grad
    m.zero_grad(set_to_none=False)
    m(mf.ones(1, 2)).sum().backward()  # accumulates into the zeroed tensor
    assert m.weight.grad is held and held.tolist() == [[1.0, 1.0]]
    m.zero_grad()
    assert m.weight.grad is None


def test_detach_in_place_detaches_the_tensor_every_holder_sees():
    x = mf.nn.Parameter(mf.ones(2))
    (x ** 2).sum().backward(create_graph=True)
    assert x.grad.grad_fn is not None
    x.grad.detach_()
    assert x.grad.grad_fn is None and not x.grad.requires_grad and x.grad.is_leaf
    y = mf.ones(2, requires_grad=True) * 2
    y.retain_grad()
    assert y.detach_() is y and y.is_leaf and not y.requires_grad and y.tolist() == [2.0, 2.0]
    p = mf.nn.Parameter(mf.ones(1))
    p.detach_()
    assert not p.requires_grad


def test_a_tensor_saved_twice_loads_as_one_object(tmp_path):
    p = mf.nn.Parameter(mf.arange(3.0))
    t = mf.ones(2)
    state = {"p": p, "again": [p, (t, t)], "other": mf.nn.Parameter(mf.arange(3.0))}
    for target in (str(tmp_path / "s.pt"), io.BytesIO()):
        mf.save(state, target)
        if not isinstance(target, str):
            target.seek(0)
        back = mf.load(target)
        assert back["again"][0] is back["p"] and isinstance(back["p"], mf.nn.Parameter)
        assert back["again"][1][0] is back["again"][1][1] and back["other"] is not back["p"]


def test_grid_sample_of_volumes_and_its_grid_gradient_are_torch_s():
    vol = mf.arange(24.0).view(1, 1, 2, 3, 4)
    grid = mf.tensor([0.10738971, 0.4734166, 0.22607943, 0.098743, -0.16795944, 0.32096705, -0.13730814, 0.8619006,
                      1.020058, -0.25642866, 0.6417951, 0.06356882]).view(1, 1, 2, 2, 3).requires_grad_()
    want = {False: ([17.26823, 14.54133, 21.22538, 15.60074], [2, 6, 12, 2, 6, 12, 2, 0, 0, 2, 6, 12]),
            True: ([14.91123, 12.90208, 20.74164, 14.06395], [1.5, 4, 6, 1.5, 4, 6, 1.5, 4, 0, 1.5, 4, 6])}
    for align_corners, (values, grads) in want.items():
        grid.grad = None
        out = F.grid_sample(vol, grid, padding_mode="border", align_corners=align_corners)
        out.sum().backward()
        np.testing.assert_allclose(out.detach().numpy().ravel(), values, rtol=1e-5)
        np.testing.assert_allclose(grid.grad.numpy().ravel(), grads, atol=1e-4)
    with pytest.raises(ValueError, match="bicubic"):
        F.grid_sample(vol, grid.detach(), mode="bicubic")
    theta = mf.tensor([[[1.0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]])
    identity = F.affine_grid(theta, [1, 1, 2, 3, 4], align_corners=False)
    assert identity.shape == (1, 2, 3, 4, 3)
    assert F.grid_sample(vol, identity, align_corners=False).tolist() == vol.tolist()


def test_segment_reduce_is_torch_s_with_empty_segments_and_initial():
    d = mf.tensor([1.0, 5, 2, 3, 4])
    lengths = mf.tensor([2, 0, 3])
    want = {"max": ([5, -math.inf, 4], [7, 7, 7]), "min": ([1, math.inf, 2], [1, 7, 2]),
            "sum": ([6, 0, 9], [13, 7, 16]), "mean": ([3, math.nan, 3], [6.5, 7, 16 / 3]),
            "prod": ([5, 1, 24], [35, 7, 168])}
    for reduce, (plain, initial) in want.items():
        np.testing.assert_allclose(mf.segment_reduce(d, reduce, lengths=lengths).numpy(), plain, rtol=1e-6)
        with_initial = mf.segment_reduce(d, reduce, lengths=lengths, initial=7.0)
        np.testing.assert_allclose(with_initial.numpy(), initial, rtol=1e-6)
    assert mf.segment_reduce(d, "max", offsets=mf.tensor([0, 2, 2, 5])).tolist() == [5.0, -math.inf, 4.0]
    rows = mf.segment_reduce(mf.arange(12.0).view(6, 2), "sum", lengths=mf.tensor([1, 5]))
    assert rows.tolist() == [[0, 1], [30, 35]]
    with pytest.raises(RuntimeError, match="sum to"):
        mf.segment_reduce(mf.arange(6.0), "sum", lengths=mf.tensor([1, 2]))
    x = d.clone().requires_grad_()
    mf.segment_reduce(x, "max", lengths=lengths).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 0.0, 0.0, 1.0]


def test_inference_mode_records_nothing_even_with_grad_mode_on_inside():
    x = mf.ones(2, requires_grad=True)
    with mf.inference_mode():
        with mf.enable_grad():
            assert mf.is_grad_enabled() and mf.is_inference_mode_enabled()
            z = x * 2
            w = mf.nn.Linear(2, 1)(x)
    assert not z.requires_grad and z.grad_fn is None and z.is_inference() and not w.requires_grad
    with pytest.raises(RuntimeError, match="version counter"):
        z._version
    with mf.inference_mode():
        pass
    assert mf.is_grad_enabled() and (x * 2).requires_grad  # the modes come back as they were
    with mf.no_grad(), mf.inference_mode(False):
        assert mf.is_grad_enabled() and (x * 2).requires_grad  # as torch's: mode=False turns grad on


def test_kl_div_of_a_negative_target_is_nan_as_torch_s_xlogy():
    inp = mf.tensor([[-1.0, -2.0, -0.5]])
    got = F.kl_div(inp, mf.tensor([[0.0, -0.1, 0.5]]), reduction="none")
    assert got[0, 0].item() == 0.0 and math.isnan(got[0, 1].item())
    assert abs(got[0, 2].item() - 0.5 * (math.log(0.5) + 0.5)) < 1e-6


def test_a_custom_function_records_under_enable_grad_in_inference_mode_as_torch_s():
    class Square(mf.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g
    x = mf.ones(2, requires_grad=True)
    with mf.inference_mode(), mf.enable_grad():
        assert Square.apply(x).requires_grad and not (x * x).requires_grad  # torch's Python Functions record
