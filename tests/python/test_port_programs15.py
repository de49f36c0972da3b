"""Whole programs as PyTorch users write them (issue 37, fifteenth programs round, written
blind): vision (MobileNet, U-Net, VGG hooks, conv-BN fusion, augmentation, detection losses
and NMS), text (packed LSTM taggers, GRU seq2seq with attention, Transformer encoders,
MultiheadAttention masks, scaled_dot_product_attention, GPT generation, BERT masking, beam
search, CRF), generative models (VAE, GAN, WGAN-GP, DDPM schedules, RealNVP), RL (REINFORCE,
DQN, PPO), metrics, schedulers, optimizers, checkpoints, state-dict surgery, hooks, custom
Functions, torch.func, distributions, linalg, FFT and complex, dtypes, printing and exception
types. Each program in port_programs15/ is torch's spelling, run unchanged but for its imports,
and must agree with what PyTorch 2 printed for it (expected.json), as test_port_programs9's.
The focused tests below pin each class of defect the round found."""
import os

import numpy as np
import pytest

import meshflow as mf
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
