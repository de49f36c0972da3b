"""Whole programs as PyTorch users write them (issue 37, seventeenth programs round: 187
written blind, 170 agreeing with torch on their first run): HF-style model code (extended
attention masks, KV-cache generation with tied embeddings, top-k/top-p filtering, beam
search, rotary and ALiBi positions, RMSNorm, T5 buckets, shifted LM losses), vision (uint8
images, hand-written transforms, ResNet bottlenecks, U-Net, channels_last, grid_sample,
pixel shuffle, FPN, pooling), audio (STFT, mu-law, mel scales, resampling), tabular
(EmbeddingBag, one_hot, bucketize and histc, scatter_reduce segments, scalers, missing
values, hashing), training loops (accumulation and clipping, OneCycle, SequentialLR,
ChainedScheduler, ReduceLROnPlateau, EMA, swa_utils, weight-decay groups, resuming mid-epoch,
LBFGS, every optimizer), custom Functions, hooks, torch.func, double backward, dtype promotion
and rounding, printing, parametrizations, packed RNNs, distributions, complex, FFT, sparse,
inference modes and seeded data loading. Each program in port_programs17/ is torch's
spelling, run unchanged but for its imports, and must agree with what PyTorch 2 printed for
it (expected.json), as test_port_programs9's. The focused tests below pin each class of
defect the round found."""
import os

import numpy as np
import pytest

import meshflow as mf
from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs17"), "w")


def test_expand_s_strides_are_torch_s_for_the_dims_it_adds():
    # a leading dim of one element takes the stride it would have over the dims after it (torch 2's)
    assert mf.arange(16).expand((1, -1)).stride() == (16, 1)
    assert mf.ones(2, 3).expand(1, 1, 2, 3).stride() == (6, 6, 3, 1)
    assert mf.ones(3, 1).expand(2, 3, 4).stride() == (0, 1, 0) and mf.ones(3).expand(2, 1, 3).stride() == (0, 3, 1)
    assert mf.ones(4, 3).t().expand(1, 3, 4).stride() == (3, 1, 3)  # size * stride of the dim after it
    assert mf.ones(3).expand(1, 3).is_contiguous() and not mf.ones(3).expand(2, 3).is_contiguous()


def test_autograd_backward_takes_inputs_as_tensor_backward_does():
    x = mf.tensor([1.0, 2.0], requires_grad=True)
    w = mf.tensor([3.0], requires_grad=True)
    mf.autograd.backward([(x * w).sum(), (x * 5).sum()], inputs=[x])
    assert x.grad.tolist() == [8.0, 8.0] and w.grad is None
    mf.autograd.backward((x ** 2).sum(), grad_tensors=mf.tensor(0.5), inputs=x)
    assert x.grad.tolist() == [9.0, 10.0]
    with pytest.raises(RuntimeError, match="cannot be empty"):
        mf.autograd.backward(x.sum(), inputs=[])


def test_legacy_contiguous_format_and_to_dense_of_a_dense_tensor_are_torch_s():
    x = mf.ones(2, 3, 4, 4).to(memory_format=mf.channels_last)
    y = mf.zeros_like(x, memory_format=mf.legacy_contiguous_format)
    assert y.is_contiguous() and repr(mf.legacy_contiguous_format) == "meshflow.legacy_contiguous_format"
    assert x.contiguous(memory_format=mf.legacy_contiguous_format).is_contiguous()
    d = mf.arange(3.0)
    assert d.to_dense() is d and d.to_dense(mf.float64).dtype == mf.float64


def test_a_function_s_saved_output_is_differentiated_again_through_its_call():
    class Exp(mf.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            r = x.exp()
            ctx.save_for_backward(r, x)
            return r

        @staticmethod
        def backward(ctx, g):
            r, x = ctx.saved_tensors
            return g * r * x

    x = mf.tensor([0.5, -1.0], requires_grad=True)
    y = Exp.apply(x)
    (g,) = mf.autograd.grad(y.sum(), x, create_graph=True)
    (gg,) = mf.autograd.grad(g.sum(), x)  # d(x e^x) = (1 + x) e^x, through the saved output too (torch 2's)
    assert np.allclose(gg.tolist(), [2.0609016, 0.7357589]) and y.grad_fn.saved_tensors[1] is x
    saved = y.grad_fn.saved_tensors[0]  # the output, of the call's node, as torch's
    assert saved.requires_grad and saved.grad_fn.name() == y.grad_fn.name() and saved.tolist() == y.tolist()


def test_sum_and_mean_over_given_dims_are_torch_s_overload_1_nodes():
    x = mf.ones(2, 3, requires_grad=True)
    assert x.sum().grad_fn.name() == "SumBackward0" and x.sum(1).grad_fn.name() == "SumBackward1"
    assert x.sum((0, 1), keepdim=True).grad_fn.name() == "SumBackward1" and x.mean().grad_fn.name() == "MeanBackward0"
    assert x.mean(-1).grad_fn.name() == "MeanBackward1" and mf.sum(x, dim=0).grad_fn.name() == "SumBackward1"
    x.mean(0).sum().backward()
    assert x.grad.tolist() == [[0.5] * 3] * 2


def test_nonzero_of_a_0_d_tensor_is_one_or_no_row_of_no_indices():
    assert mf.nonzero(mf.tensor(5)).shape == (1, 0) and mf.tensor(0.0).nonzero().shape == (0, 0)
    assert mf.argwhere(mf.tensor(True)).shape == (1, 0)


def test_vmap_passes_an_argument_with_in_dims_none_whole_whatever_it_is():
    x = mf.arange(6.0).view(3, 2)
    assert mf.func.vmap(lambda a, s: a * s, in_dims=(0, None))(x, 3.0).tolist() == (x * 3).tolist()
    assert mf.func.vmap(lambda a, f: f(a), in_dims=(0, None))(x, mf.sum).tolist() == [1.0, 5.0, 9.0]


def test_grad_fn_names_of_pow_prod_and_composites_are_torch_s():
    x = mf.tensor([1.0, 2.0, 3.0], requires_grad=True)
    m = mf.ones(2, 3, requires_grad=True)
    names = [(x ** 2).grad_fn.name(), (x ** x).grad_fn.name(), (2 ** x).grad_fn.name(), x.prod().grad_fn.name(),
             m.prod(1).grad_fn.name(), x.dot(x).grad_fn.name(), m.mv(x).grad_fn.name(), m[:, :2].trace().grad_fn.name(),
             x.median().grad_fn.name(), m.unbind(0)[1].grad_fn.name(), mf.linalg.cross(m, m).grad_fn.name()]
    assert names == ["PowBackward0", "PowBackward1", "PowBackward2", "ProdBackward0", "ProdBackward1", "DotBackward0",
                     "MvBackward0", "TraceBackward0", "MedianBackward0", "UnbindBackward0", "LinalgCrossBackward0"]  # torch 2's
    i = mf.tensor([[0], [1]])
    assert [m.scatter(1, i, 0.0).grad_fn.name(), m.scatter(1, i, mf.ones(2, 1)).grad_fn.name(),
            m.scatter_add(1, i, mf.ones(2, 1)).grad_fn.name()] == ["ScatterBackward1", "ScatterBackward0", "ScatterAddBackward0"]
    (2 ** x).sum().backward()
    assert np.allclose(x.grad.tolist(), (np.log(2) * 2 ** np.array([1.0, 2.0, 3.0])).tolist())
