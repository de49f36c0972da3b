"""F.scaled_dot_product_attention, the fused op: equal to the composition it replaces
(matmul, softmax, matmul) forward and backward, its gradients against finite differences,
causal and not, queries and keys of different lengths and blocks that do not divide them,
and its errors. F.packed_qkv_attention: bitwise equal to slicing q, k, v out of the packed
tensor and calling the fused op. Split layouts: distributed/test_dist_attention.py."""
import math

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from gradcheck import check_gradients

RNG = np.random.default_rng(11)


def composed(q, k, v, causal, scale=None):
    scores = mf.matmul(q, k, transpose_b=True) * (scale or 1 / math.sqrt(q.shape[-1]))
    if causal:  # key j > query i masked out
        tq, tk = scores.shape[-2:]
        scores = scores + mf.tensor(np.where(np.tril(np.ones((tq, tk))), 0.0, -np.inf)).to(scores.dtype)
    return F.softmax(scores, dim=-1) @ v


SHAPES = [((2, 3, 70, 8), (2, 3, 70, 8), (2, 3, 70, 8)),      # two query blocks, the second partial
          ((1, 2, 130, 16), (1, 2, 130, 16), (1, 2, 130, 4)),  # three blocks, Dv != D
          ((2, 5, 4), (2, 9, 4), (2, 9, 3)),                   # Tq != Tk, one leading dim
          ((3, 1, 1), (3, 1, 1), (3, 1, 2))]


@pytest.mark.parametrize("dtype, tol", [(np.float32, 2e-6), (np.float64, 1e-13)])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("shapes", SHAPES, ids=[str(s[0]) for s in SHAPES])
def test_equals_the_composition(shapes, causal, dtype, tol):
    arrays = [RNG.standard_normal(s).astype(dtype) for s in shapes]
    dy = mf.tensor(RNG.standard_normal(shapes[0][:-1] + (shapes[2][-1],)).astype(dtype))
    results = []
    for f in (lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=causal),
              lambda q, k, v: composed(q, k, v, causal)):
        q, k, v = (mf.tensor(a, requires_grad=True) for a in arrays)
        y = f(q, k, v)
        (y * dy).sum().backward()
        results.append([y.numpy()] + [t.grad.numpy() for t in (q, k, v)])
    for fused, reference in zip(*results):
        np.testing.assert_allclose(fused, reference, rtol=tol, atol=tol)


@pytest.mark.parametrize("causal", [False, True])
def test_gradients_match_finite_differences(causal):
    q, k, v = (RNG.standard_normal((2, 6, 3)) for _ in range(3))
    check_gradients(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=0.7), [q, k, v])


def test_scale():
    q, k, v = (mf.tensor(RNG.standard_normal((2, 4, 3)).astype(np.float64)) for _ in range(3))
    np.testing.assert_allclose(F.scaled_dot_product_attention(q, k, v, scale=0.3).numpy(),
                               composed(q, k, v, False, scale=0.3).numpy(), rtol=1e-13)


def test_bad_inputs_raise():
    q = mf.tensor(np.zeros((2, 4, 3), np.float32))
    with pytest.raises(ValueError, match=r"\[scaled_dot_product_attention\] q \[2, 4, 3\], k \[2, 4, 5\]"):
        F.scaled_dot_product_attention(q, mf.tensor(np.zeros((2, 4, 5), np.float32)), q)
    with pytest.raises(ValueError, match="takes float32, float64 or bfloat16 inputs, got int64"):
        i = mf.tensor(np.zeros((2, 4, 3), np.int64))
        F.scaled_dot_product_attention(i, i, i)
    with pytest.raises(ValueError, match="scale must be a positive number"):
        F.scaled_dot_product_attention(q, q, q, scale=0)


def unpacked(qkv, causal):
    """packed_qkv_attention by slices, permutes and scaled_dot_product_attention."""
    n, d = len(qkv.shape), qkv.shape[-1] // 3
    heads_first = list(range(n - 3)) + [n - 2, n - 3, n - 1]  # [..., T, H, D] <-> [..., H, T, D]
    q, k, v = (qkv[(slice(None),) * (n - 1) + (slice(i * d, (i + 1) * d),)].permute(*heads_first) for i in range(3))
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal).permute(*heads_first)


# [..., T, H, 3D]: two query blocks with a partial one, three heads; one token; two leading dims.
PACKED = [(2, 70, 3, 24), (1, 130, 2, 12), (3, 1, 1, 3), (2, 2, 67, 2, 6)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("shape", PACKED, ids=str)
def test_packed_equals_the_separate_op_bitwise(shape, causal, dtype):
    a = RNG.standard_normal(shape).astype(dtype)
    dy = mf.tensor(RNG.standard_normal(shape[:-1] + (shape[-1] // 3,)).astype(dtype))
    results = []
    for f in (lambda qkv: F.packed_qkv_attention(qkv, is_causal=causal), lambda qkv: unpacked(qkv, causal)):
        qkv = mf.tensor(a, requires_grad=True)
        y = f(qkv)
        (y * dy).sum().backward()
        results.append((y.numpy(), qkv.grad.numpy()))
    for packed, separate in zip(*results):
        np.testing.assert_array_equal(packed, separate)


def test_packed_gradients_match_finite_differences():
    check_gradients(lambda qkv: F.packed_qkv_attention(qkv, is_causal=True, scale=0.7),
                    [RNG.standard_normal((2, 5, 2, 9))])


def test_packed_bad_inputs_raise():
    with pytest.raises(ValueError, match=r"\[packed_qkv_attention\] qkv is \[2, 4, 3, 5\]; expected \[\.\.\., T, H, 3 D\]"):
        F.packed_qkv_attention(mf.tensor(np.zeros((2, 4, 3, 5), np.float32)))
    with pytest.raises(ValueError, match=r"qkv is \[4, 6\]"):
        F.packed_qkv_attention(mf.tensor(np.zeros((4, 6), np.float32)))
    with pytest.raises(ValueError, match="takes a float32, float64 or bfloat16 qkv, got int64"):
        F.packed_qkv_attention(mf.tensor(np.zeros((2, 4, 3, 6), np.int64)))
    with pytest.raises(ValueError, match="packed_qkv_attention: scale must be a positive number"):
        F.packed_qkv_attention(mf.tensor(np.zeros((2, 4, 3, 6), np.float32)), scale=-1.0)


@pytest.mark.parametrize("causal", [False, True])
def test_bfloat16_inputs_compute_in_float32(causal):
    """bfloat16 q, k, v: out in bfloat16, the float32 attention of the inputs' values rounded
    once; gradients in bfloat16, within its rounding of float32's (the backward pass reads
    the rounded out)."""
    arrays = [RNG.standard_normal(s).astype(np.float32) for s in SHAPES[1]]
    low = [mf.tensor(a).to(mf.bfloat16).requires_grad_() for a in arrays]
    wide = [t.detach().float().requires_grad_() for t in low]
    out = F.scaled_dot_product_attention(*low, is_causal=causal)
    expected = F.scaled_dot_product_attention(*wide, is_causal=causal)
    assert out.dtype == mf.bfloat16
    np.testing.assert_array_equal(out.float().numpy(), expected.to(mf.bfloat16).float().numpy())
    out.float().sum().backward()
    expected.sum().backward()
    for t, w in zip(low, wide):
        assert t.grad.dtype == mf.bfloat16
        expected = w.grad.numpy()
        np.testing.assert_allclose(t.grad.float().numpy(), expected, rtol=2e-2, atol=2e-2 * np.abs(expected).max())


@pytest.mark.parametrize("device", ["cpu", "testdev"])
def test_autocast_runs_attention_in_bfloat16(device):
    """Under mf.autocast a float32 qkv is rounded to bfloat16 once and out is bfloat16, as
    torch's autocast does: the float32 attention of the rounded qkv, rounded once. qkv's
    gradient reaches it in float32 (its product never rounded to bfloat16)."""
    qkv = RNG.standard_normal((2, 70, 3, 3 * 16)).astype(np.float32)
    weights = RNG.standard_normal((2, 70, 3, 16)).astype(np.float32)
    x = mf.tensor(qkv, device=device, requires_grad=True)
    with mf.autocast(device, dtype=mf.bfloat16):
        out = F.packed_qkv_attention(x, is_causal=True)
    assert out.dtype == mf.bfloat16
    (out * mf.tensor(weights, device=device)).sum().backward()
    rounded = mf.tensor(qkv, device=device).to(mf.bfloat16).float().requires_grad_()
    expected = F.packed_qkv_attention(rounded, is_causal=True)
    (expected * mf.tensor(weights, device=device)).sum().backward()
    np.testing.assert_array_equal(out.numpy(), expected.to(mf.bfloat16).numpy())
    assert x.grad.dtype == mf.float32
    # The backward reads the rounded out and dout: within bfloat16's rounding of float32's.
    want = rounded.grad.numpy()
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=2e-2, atol=2e-2 * np.abs(want).max())
