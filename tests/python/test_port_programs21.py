"""Whole programs as PyTorch users write them (issue 37, twenty-first programs round), focused on
kinds of training not stressed before and the tensor idioms of real code: GAN training (two
optimizers, detach, BCEWithLogits, gradient penalty, WGAN clipping), VAEs (reparameterization,
KL, annealing), policy gradient (REINFORCE, actor-critic, PPO, GAE, SAC's squashed Gaussian,
masked actions) with torch.distributions, contrastive learning (SimCLR, CLIP, SupCon, MoCo),
seq2seq with nn.Transformer / TransformerDecoder and causal masks, scaled_dot_product_attention
and MultiheadAttention masks, U-Net, ViT patches, EmbeddingBag, gradient accumulation, custom
autograd.Functions, autograd.functional, tensor hooks, the scatter / gather / index / unique /
bucketize / cumulative / split families, type promotion, finfo, seeded generators, and the
state_dict / optimizer / scheduler / checkpoint surface. Each program in port_programs21/ is
torch's spelling, run unchanged but for its imports, and must agree with what PyTorch 2
printed for it (expected.json), as test_port_programs9's."""
import os

import numpy as np
import pytest

import meshflow as mf
from test_port_programs9 import program_tests, restore_settings  # noqa: F401  (a fixture)

test_every_program_has_torch_s_values, test_program_agrees_with_torch = program_tests(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "port_programs21"), "y")


def test_topk_picks_among_ties_as_torch_s_cpu_topk():
    a = mf.from_numpy(np.random.RandomState(4).randint(0, 4, size=(3, 70)).astype(np.float32))
    assert a.topk(1).indices.tolist() == [[2], [2], [5]]  # k * 64 <= n: torch's partial sort
    assert a.topk(4).indices.tolist() == [[12, 16, 15, 47], [31, 17, 26, 36], [36, 24, 61, 65]]
    assert a.topk(4, largest=False).indices.tolist() == [[25, 18, 19, 27], [43, 41, 35, 46], [33, 27, 26, 34]]
    assert a.topk(5, sorted=False).indices.tolist() == [[12, 16, 15, 47, 55], [31, 17, 26, 36, 14],
                                                        [36, 24, 61, 65, 59]]
    b = mf.tensor([5.0, 1, 4, 2, 3, 0, 6, 8, 7])
    assert b.topk(5, sorted=False).values.tolist() == [7.0, 8.0, 5.0, 6.0, 4.0]  # nth_element's order
    assert b.topk(5).values.tolist() == [8.0, 7.0, 6.0, 5.0, 4.0]


def test_a_write_through_an_expanded_view_raises_before_writing():
    writes = [lambda e: e.add_(1), lambda e: e.__setitem__((0, 0), 5.0), lambda e: e.copy_(mf.ones(2, 3)),
              lambda e: e.zero_(), lambda e: e[0].mul_(2), lambda e: e.unsqueeze(0).clamp_(0, 1.5)]
    for write in writes:
        b = mf.tensor([[1.0], [2.0]])
        e = b.expand(2, 3)
        with pytest.raises(RuntimeError, match="single memory location"):
            write(e)
        assert e.tolist() == [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]] and b.tolist() == [[1.0], [2.0]]
    b = mf.tensor([[1.0, 2.0], [3.0, 4.0]])
    same = b.expand(1, 2, 2)  # repeats no element: writable, as torch's
    same.add_(1)
    assert b.tolist() == [[2.0, 3.0], [4.0, 5.0]]
    b.expand(2, 2)[0, 1] = 7.0
    assert b.tolist() == [[2.0, 7.0], [4.0, 5.0]]


def test_tanh_is_within_half_an_ulp_where_it_nears_one():
    x = np.concatenate([np.linspace(2, 9, 20001), -np.linspace(2, 9, 20001)]).astype(np.float32)
    got = mf.tanh(mf.from_numpy(x)).numpy()
    exact = np.tanh(x.astype(np.float64))
    ulps = np.abs(got - exact) / np.spacing(np.abs(exact).astype(np.float32))
    assert ulps.max() <= 0.6
    x = np.linspace(-2, 2, 40001).astype(np.float32)
    exact = np.tanh(x.astype(np.float64))
    ulps = np.abs(mf.tanh(mf.from_numpy(x)).numpy() - exact) / np.spacing(np.abs(exact).astype(np.float32))
    assert ulps.max() <= 2.5
    assert mf.tanh(mf.tensor([float("inf"), -float("inf"), 20.0])).tolist() == [1.0, -1.0, 1.0]
    assert mf.tanh(mf.tensor(1e-5)).item() == mf.tensor(1e-5).item()  # rounds to x
    assert np.isnan(mf.tanh(mf.tensor([float("nan")])).item())
