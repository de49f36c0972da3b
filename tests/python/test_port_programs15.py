"""Whole programs as PyTorch users write them (issue 37, fifteenth programs round: 134
written blind, 124 agreeing with torch on their first run): vision (MobileNet, U-Net, VGG
hooks, conv-BN fusion, augmentation, detection losses and NMS, STN, PixelCNN), text (packed
LSTM taggers, GRU seq2seq with attention, Transformer encoders and nn.Transformer,
MultiheadAttention masks, scaled_dot_product_attention, GPT generation, BERT masking, beam
search, CRF), generative models (VAE, GAN, WGAN-GP, DDPM schedules, RealNVP, WaveNet), RL
(REINFORCE, DQN, PPO, SAC), metrics, schedulers, optimizers (a program's own too),
checkpoints, state-dict surgery and hooks, custom Functions, torch.func, distributions,
linalg, FFT and complex, dtypes, printing, grad_fn names and exception types. Each program in
port_programs15/ is torch's spelling, run unchanged but for its imports, and must agree with
what PyTorch 2 printed for it (expected.json), as test_port_programs9's. The focused tests
below pin each class of defect the round found."""
import os

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn as nn
from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs15"), "u")


def _close(got, want, tol=1e-6):
    return np.allclose(np.asarray(got.tolist() if hasattr(got, "tolist") else got, dtype=np.float64), want, atol=tol)


def test_lu_factor_solve_and_unpack_are_torch_s():
    A = mf.tensor([[[1., 2., 0.], [4., -1., 3.], [2., 5., -2.]], [[0., 1., 1.], [1., 0., 2.], [3., 1., 0.]]],
                  dtype=mf.float64)
    LU, pivots = mf.linalg.lu_factor(A)  # torch 2's values
    assert _close(LU, [[[4.0, -1.0, 3.0], [0.5, 5.5, -3.5], [0.25, 0.4090909090909091, 0.6818181818181819]],
                       [[3.0, 1.0, 0.0], [0.0, 1.0, 1.0], [1 / 3, -1 / 3, 2.3333333333333335]]])
    assert pivots.dtype == mf.int32 and pivots.tolist() == [[2, 3, 3], [3, 3, 3]]
    B = mf.tensor([[1., 0.], [2., 1.], [0., 3.]], dtype=mf.float64)
    assert _close(mf.linalg.lu_solve(LU, pivots, B),
                  [[[-1 / 3, 1.4666666666666666], [2 / 3, -0.7333333333333332], [4 / 3, -1.8666666666666665]],
                   [[0.0, 1.0], [0.0, 0.0], [1.0, 0.0]]])
    assert _close(mf.linalg.lu_solve(LU, pivots, B, adjoint=True),
                  [[[1.0, 5.333333333333333], [0.0, -1 / 3], [0.0, -2.0]],
                   [[1.4285714285714286, 1.2857142857142856], [-0.7142857142857143, 0.8571428571428571],
                    [0.5714285714285714, -0.2857142857142857]]])
    assert _close(mf.linalg.lu_solve(LU, pivots, B.T, left=False), mf.linalg.solve(A, B.T, left=False))
    P, L, U = mf.linalg.lu(mf.tensor([[1., 2.], [3., 4.], [5., 6.]]))  # a tall matrix: L [3, 2], U [2, 2]
    assert P.tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    assert _close(L, [[1.0, 0.0], [0.2, 1.0], [0.6, 0.5]], 1e-6) and _close(U, [[5.0, 6.0], [0.0, 0.8]], 1e-6)
    assert mf.lu_unpack(LU, pivots).P.shape == (2, 3, 3)
    assert mf.linalg.lu_factor_ex(mf.tensor([[1., 2.], [2., 4.]])).info.item() == 2  # U[1, 1] is zero
    B.requires_grad_()
    mf.linalg.lu_solve(LU, pivots, B).sum().backward()  # through the triangular solves
    assert _close(B.grad, mf.linalg.solve(A.transpose(-2, -1), mf.ones(2, 3, 2, dtype=mf.float64)).sum(0), 1e-9)


def test_fake_quantize_rounds_halves_to_even_with_a_straight_through_gradient_as_torch_s():
    x = mf.tensor([-1.0, 0.26, 0.5, 0.75, 0.625, 3.0, 100.0, -0.25], requires_grad=True)
    y = mf.fake_quantize_per_tensor_affine(x, 0.5, 2, 0, 10)
    y.sum().backward()
    assert y.tolist() == [-1.0, 0.5, 0.5, 1.0, 0.5, 3.0, 4.0, 0.0]  # torch 2's
    assert x.grad.tolist() == [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0]
    w = mf.tensor([[0.26, -0.9, 0.3], [0.05, 1.0, -2.0]], requires_grad=True)
    yc = mf.fake_quantize_per_channel_affine(w, mf.tensor([0.1, 0.25]), mf.tensor([0, 1], dtype=mf.int32), 0, -4, 3)
    yc.sum().backward()
    assert _close(yc, [[0.3, -0.4, 0.3], [0.0, 0.5, -1.25]]) and w.grad.tolist() == [[1.0, 0.0, 1.0], [1.0, 0.0, 0.0]]


def test_resize_keeps_the_leading_elements_as_torch_s():
    t = mf.arange(6.0)
    assert t.resize_(2, 2) is t and t.tolist() == [[0.0, 1.0], [2.0, 3.0]]
    assert mf.arange(4).resize_(3).tolist() == [0, 1, 2]
    grown = mf.ones(2).resize_(2, 2)
    assert grown.shape == (2, 2) and grown[0].tolist() == [1.0, 1.0]  # the rest is torch's uninitialized memory
    base = mf.arange(6.0)
    view = base.view(2, 3).resize_(3, 2)  # a contiguous view of the same size: viewed anew, still sharing
    view[0, 1] = 50
    assert base.tolist() == [0.0, 50.0, 2.0, 3.0, 4.0, 5.0]
    assert mf.ones(2, 3).resize_as_(mf.zeros(3, 2)).shape == (3, 2)
    with pytest.raises(RuntimeError, match="require grad"):
        mf.ones(2, requires_grad=True).resize_(3)


def test_dtype_names_are_meshflow_s_alone_and_strings_raise_torch_s_type_error():
    with pytest.raises(TypeError) as raised:  # NumPy's "float" is float64; torch takes no strings
        mf.zeros(2, dtype="float")
    assert isinstance(raised.value, ValueError)  # as meshflow raised for an unknown name before
    with pytest.raises(TypeError):
        mf.ones(2, dtype="int")
    assert mf.zeros(1, dtype="int64").dtype == mf.int64 and mf.zeros(1, dtype=np.float16).dtype == mf.float16


def test_clone_and_the_like_functions_keep_the_memory_format_as_torch_s_preserve_format():
    x = mf.arange(96.0).view(2, 3, 4, 4).to(memory_format=mf.channels_last)
    # torch 2's strides: channels-last kept by default (preserve_format), or the format asked for
    assert x.clone().stride() == (48, 1, 12, 3) and not x.clone().is_contiguous() and mf.equal(x.clone(), x)
    assert x.clone(memory_format=mf.contiguous_format).stride() == (48, 16, 4, 1)
    for made in (mf.zeros_like(x), mf.ones_like(x), mf.empty_like(x, memory_format=mf.preserve_format),
                 mf.full_like(x, 2.0), mf.rand_like(x), mf.randn_like(x), mf.randint_like(x, 3)):
        assert made.stride() == (48, 1, 12, 3)
    assert mf.full_like(x, 2, memory_format=mf.contiguous_format).stride() == (48, 16, 4, 1)
    assert mf.zeros_like(mf.ones(2, 3, 2, 2), memory_format=mf.channels_last).stride() == (12, 1, 6, 3)
    assert mf.zeros_like(mf.ones(2), memory_format=mf.preserve_format).stride() == (1,)
    y = x.clone().requires_grad_()
    assert y.clone().grad_fn.name() == "CloneBackward0"


def test_optimizer_step_hooks_run_around_every_step_as_torch_s():
    from meshflow.optim.optimizer import Optimizer, register_optimizer_step_pre_hook, required

    class Plain(Optimizer):
        def __init__(self, params, lr=required):
            super().__init__(params, dict(lr=lr))

        @mf.no_grad()
        def step(self, closure=None):
            for group in self.param_groups:
                for p in group["params"]:
                    p.add_(p.grad, alpha=-group["lr"])
                    self.state[p]["step"] = self.state[p].get("step", 0) + 1

    calls = []
    w = nn.Parameter(mf.ones(2))
    for opt in (Plain([w], lr=0.5), mf.optim.SGD([w], lr=0.5), mf.optim.RMSprop([w])):
        handles = [opt.register_step_pre_hook(lambda o, a, k: calls.append(("pre", type(o).__name__))),
                   opt.register_step_post_hook(lambda o, a, k: calls.append(("post", type(o).__name__))),
                   register_optimizer_step_pre_hook(lambda o, a, k: calls.append(("global", type(o).__name__)))]
        w.grad = mf.ones(2)
        opt.step()
        for h in handles:
            h.remove()
        opt.step()  # the hooks removed
    assert calls == [(kind, name) for name in ("Plain", "SGD", "RMSprop") for kind in ("global", "pre", "post")]
    assert repr(required) == "<required parameter>"
    opt = Plain([w], lr=0.1)
    opt.step()
    saved = opt.state_dict()
    opt.step()  # each parameter's state dict itself, as torch's: the later step shows
    assert saved["state"][0]["step"] == 2



def test_a_reshape_that_copies_is_named_as_torch_s_unsafe_view():
    x = mf.ones(2, 3, requires_grad=True)
    # torch 2's nodes: a reshape that must copy is the view of a copy; one that views is a view
    copies = [x.t().reshape(6), x.t().flatten(), x[:, 1:].reshape(4), x.permute(1, 0).reshape(-1)]
    assert [y.grad_fn.name() for y in copies] == ["UnsafeViewBackward0"] * 4
    assert x.reshape(3, 2).grad_fn.name() == "ViewBackward0"
    assert x.t().contiguous().view(6).grad_fn.name() == "ViewBackward0"
    (copies[0] * mf.arange(6.0)).sum().backward()
    assert x.grad.tolist() == [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]
