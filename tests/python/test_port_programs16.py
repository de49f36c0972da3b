"""Whole programs as PyTorch users write them (issue 37, sixteenth programs round: 128
written blind, 113 agreeing with torch on their first run): vision blocks (EfficientNet SE,
ShuffleNet, DenseNet, Inception, attention gates, keypoints, CenterNet, GIoU), text (char
LSTMs, Transformer-XL shifts, Linformer, CBOW, gated convolutions, pointer-generator, BPE,
CTC), tabular (sparsemax, target encoding, quantile transforms, CORAL, Cox models), RL (n-step
returns and GAE, C51, Gumbel-softmax, PPO), graphs (GIN, edge softmax, Laplacian encodings),
audio (mel filterbanks, framing), diffusion (cosine schedules, DDIM, guidance), metric
learning, data utilities, everyday tensor manipulation (indexing, scatter and gather, einsum,
sorting, unique, masks, promotion, integer division, views written in place, broadcasting,
empty and 0-d tensors), functional corners, init, hooks, state dicts, grad modes, autograd
functional, custom Functions, checkpointing, bfloat16 autocast, printing and exception
types. Each program in port_programs16/ is torch's spelling, run unchanged but for its
imports, and must agree with what PyTorch 2 printed for it (expected.json), as
test_port_programs9's. The focused tests below pin each class of defect the round found."""
import os

import numpy as np
import pytest

import meshflow as mf
from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs16"), "v")


def test_kthvalue_picks_among_equal_values_the_index_torch_s_quickselect_picks():
    x = mf.tensor([[2., 2., 9.], [4., 1., 3.], [5., 5., 5.]])
    assert x.kthvalue(2, 1).indices.tolist() == [0, 2, 0]  # torch 2's (a stable order gives [1, 2, 1])
    y = mf.tensor([3., 1., 3., 2., 3., 1., 2., 3., 1., float("nan"), 0.])
    assert [y.kthvalue(k).indices.item() for k in range(1, 12)] == [10, 1, 8, 5, 6, 3, 7, 4, 2, 0, 9]
    z = mf.tensor([[1, 1, 1, 1, 1, 1, 1], [7, 7, 7, 2, 2, 2, 2]])
    assert z.kthvalue(4, dim=1).indices.tolist() == [0, 6] and z.t().kthvalue(1, dim=0).indices.tolist() == [3, 3]
    w = mf.tensor([3., 1., 2.], requires_grad=True)
    v = w.kthvalue(2, keepdim=True).values
    v.sum().backward()
    assert v.grad_fn.name() == "KthvalueBackward0" and w.grad.tolist() == [0.0, 0.0, 1.0]
    with pytest.raises(RuntimeError, match="out of range"):  # torch's class
        w.kthvalue(4)


def test_unfold_and_as_strided_are_views_whose_writes_reach_their_base():
    x = mf.arange(8.0).view(2, 4)
    u = x.unfold(1, 2, 2)
    u[..., 0].clamp_(min=3)
    assert x.tolist() == [[3.0, 1.0, 3.0, 3.0], [4.0, 5.0, 6.0, 7.0]] and u.stride() == (4, 2, 1)  # torch 2's
    assert mf.arange(7.0).unfold(0, 3, 2).stride() == (2, 1)
    y = mf.arange(6.0).view(2, 3)
    e = y.expand(2, 2, 3)
    s = y.as_strided((2, 2), (1, 3))
    s.mul_(2)
    assert y.tolist() == [[0.0, 2.0, 2.0], [6.0, 8.0, 5.0]] and e[1].tolist() == y.tolist() and s.stride() == (1, 3)
    z = mf.arange(6.0)
    mf.as_strided(z, (2, 2), (2, 1), 1)[0, 0] = -5
    assert z.tolist() == [0.0, -5.0, 2.0, 3.0, 4.0, 5.0]
    g = mf.ones(6, requires_grad=True)
    (g * 1).unfold(0, 2, 2).sum().backward()
    assert g.grad.tolist() == [1.0] * 6


def test_base_is_the_tensor_a_view_was_made_from():
    x = mf.zeros(3, 4)
    assert x[:, 3]._base is x and x[0][1:]._base is x and x.t()._is_view() and x.view(12)._base is x
    assert x._base is None and x.clone()._base is None and not x._is_view()
    assert x.detach()._base is None and x.detach()[0]._base is not x  # torch's: detach starts anew


def test_a_0_d_tensor_takes_dim_0_and_minus_1_as_torch_s():
    s = mf.tensor(3.5)
    assert s.sum(0).item() == 3.5 and s.mean(-1).item() == 3.5 and s.amax(0).item() == 3.5
    assert s.softmax(0).item() == 1.0 and s.log_softmax(-1).item() == 0.0
    assert s.argmax(0).item() == 0 and s.max(0).values.item() == 3.5 and s.min(-1).indices.item() == 0
    assert bool(s.any(0)) and bool(s.all(-1)) and np.isnan(s.var(0).item())
    r = mf.tensor(2.0, requires_grad=True)
    (r.max(0).values * 3).backward()
    assert r.grad.item() == 3.0
    for bad in (lambda: s.sum(1), lambda: s.argmax(1), lambda: s.softmax(1)):
        with pytest.raises(IndexError):
            bad()


def test_empty_argmax_and_median_raise_torch_s_index_error_and_median_of_nothing_is_nan():
    with pytest.raises(IndexError):
        mf.empty(0).argmax()
    with pytest.raises(IndexError):
        mf.empty(0, 3).median(0)
    assert np.isnan(mf.empty(0).median().item()) and np.isnan(mf.empty(0).nanmedian().item())
    assert mf.empty(0, 2).argmax(1).shape == (0,)


def test_matrix_power_of_a_negative_power_is_the_inverse_s():
    a = mf.tensor([[2., 1.], [1., 3.]], dtype=mf.float64)
    assert np.allclose(mf.linalg.matrix_power(a, -2).tolist(), [[0.4, -0.2], [-0.2, 0.2]])  # torch 2's


def test_hfft_and_ihfft_are_torch_s():
    x = mf.tensor([1.0, 2.0, -3.0, 0.5]).to(mf.complex64) + 1j * mf.tensor([0.0, 1.0, 2.0, -1.0]).to(mf.complex64)
    assert np.allclose(mf.fft.hfft(x).tolist(), [-0.5, 10.696152, 0.767949, -9.5, 4.232051, 0.303848], atol=1e-5)  # torch 2's
    assert np.allclose(mf.fft.hfft(x, n=5, norm="ortho").tolist(),
                       [-0.447214, 5.072933, -3.004750, -0.653609, 1.268707], atol=1e-5)
    r = mf.fft.ihfft(mf.tensor([1.0, 2.0, 3.0, 4.0, 0.5]), norm="forward")
    assert np.allclose([[v.real, v.imag] for v in r.tolist()], [[10.5, 0.0], [-3.89058, 0.8388], [1.14058, 1.83273]], atol=1e-4)
    t = mf.tensor([1.0, 2.0, 3.0], requires_grad=True)
    mf.fft.hfft(t, n=4).pow(2).sum().backward()
    assert t.grad.tolist() == [8.0, 32.0, 24.0]


def test_view_dtype_reads_the_same_bytes_as_torch_s():
    x = mf.tensor([1.0, -2.0, 0.5])
    bits = x.view(mf.int32)
    assert bits.tolist() == [1065353216, -1073741824, 1056964608] and not x.requires_grad_().view(mf.int32).requires_grad
    assert mf.tensor([[1.0, 2.0]]).view(mf.float16).shape == (1, 4) and mf.ones(2, 4, dtype=mf.int8).view(mf.int32).shape == (2, 1)
    assert mf.tensor([1.5, 2.5], dtype=mf.bfloat16).view(mf.int16).tolist() == [16320, 16416]  # torch 2's
    assert mf.tensor(1.0).view(mf.int32).item() == 1065353216
    base = mf.zeros(2)
    base.view(mf.int32)[1] = 1065353216  # a view: the write reaches its base
    assert base.tolist() == [0.0, 1.0]
    with pytest.raises(RuntimeError):
        mf.ones(3, dtype=mf.int8).view(mf.int16)
    with pytest.raises(RuntimeError, match="stride"):  # torch reads a last dim side by side
        mf.ones(2, 3).t().view(mf.float16)
    assert mf.arange(6.0).view(2, 3).t().view(mf.int32)[2, 1].item() == 1084227584  # 5.0's bits


def test_a_function_s_grad_fn_reads_its_ctx_as_torch_s():
    class Scaled(mf.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.flags, ctx.scale = tuple(ctx.needs_input_grad), 3.0
            ctx.save_for_backward(a)
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g * ctx.scale, None

    a = mf.ones(2, requires_grad=True)
    y = Scaled.apply(a, mf.ones(2))
    assert y.grad_fn.flags == (True, False) and y.grad_fn.scale == 3.0 and y.grad_fn.saved_tensors[0] is a
    with pytest.raises(AttributeError, match="ScaledBackward"):
        y.grad_fn.missing
    assert not hasattr((a * 2).grad_fn, "flags")
