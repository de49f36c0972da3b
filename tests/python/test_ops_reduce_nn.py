"""Reductions (mf.sum, mean, amax, amin), softmax and the nn.functional ops (layer_norm,
embedding, gather, cross_entropy) on local tensors, against NumPy; their backward ops
(softmax_backward, layer_norm_backward, gelu_backward, silu_backward, sigmoid_backward,
tanh_backward, embedding_backward, gather_backward)
against float64 finite differences of a NumPy forward or NumPy's scatter-add; bad input
gives a ValueError naming the problem.
"""
import math

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from meshflow._tensor import apply


def values(shape, dtype=np.float32):
    """Distinct small values, exact in every dtype, not sorted along any dim."""
    n = int(np.prod(shape)) if shape else 1
    return ((np.arange(n) * 37 + 11) % 41 - 20).astype(dtype).reshape(shape)


def axes(dim, ndim):
    """NumPy's axis for a torch dim argument (None and () mean every dim)."""
    if dim is None or dim == ():
        return tuple(range(ndim))
    return (dim,) if isinstance(dim, int) else tuple(dim)


# ---------------------------------------------------------------------------------------------
# Reductions

REFERENCES = {"sum": np.sum, "mean": np.mean, "amax": np.amax, "amin": np.amin}
REDUCE_CASES = [((4, 6), None), ((4, 6), 0), ((4, 6), -1), ((4, 6), (0, 1)), ((5, 3, 7), 1), ((5, 3, 7), [2, 0]),
                ((5, 3, 7), (-1, -3)), ((5, 3, 7), ()), ((3, 0, 2), 0), ((3, 0, 2), 2), ((), None)]


# mean takes floating tensors only (see test_reduction_errors).
NAME_DTYPES = [(name, dtype) for name in sorted(REFERENCES) for dtype in (np.float32, np.float64, np.int32, np.int64)
               if name != "mean" or dtype in (np.float32, np.float64)]


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("shape, dim", REDUCE_CASES)
@pytest.mark.parametrize("name, dtype", NAME_DTYPES)
def test_reduction_matches_numpy(name, shape, dim, keepdim, dtype):
    x = values(shape, dtype)
    expected = REFERENCES[name](x, axis=axes(dim, x.ndim), keepdims=keepdim)
    if name == "sum" and x.dtype.kind == "i":
        expected = expected.astype(np.int64)  # as in PyTorch
    else:
        expected = np.asarray(expected).astype(dtype)
    out = getattr(mf, name)(mf.tensor(x), dim=dim, keepdim=keepdim)
    assert out.dtype == getattr(mf, expected.dtype.name)
    assert out.shape == expected.shape
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)
    # The tensor method is the same op.
    np.testing.assert_array_equal(getattr(mf.tensor(x), name)(dim, keepdim).numpy(), out.numpy())


def test_sum_and_mean_over_an_empty_dim():
    x = mf.tensor(np.zeros((3, 0, 2), np.float32))
    np.testing.assert_array_equal(mf.sum(x, 1).numpy(), np.zeros((3, 2), np.float32))
    assert np.isnan(x.mean(1).numpy()).all() and x.mean(1).shape == (3, 2)
    assert np.isnan(x.mean().numpy())


def test_mean_of_floats_is_accurate():
    x = np.random.default_rng(0).standard_normal((64, 333)).astype(np.float64)
    np.testing.assert_allclose(mf.tensor(x).mean(-1).numpy(), x.mean(-1), rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(mf.tensor(x).sum(0).numpy(), x.sum(0), rtol=1e-10, atol=1e-12)


def test_amax_and_amin_propagate_nan():
    x = np.array([[1, np.nan, 3], [4, 5, 6]], np.float32)
    np.testing.assert_array_equal(mf.tensor(x).amax(1).numpy(), np.array([np.nan, 6], np.float32))
    np.testing.assert_array_equal(mf.tensor(x).amin(0).numpy(), np.array([1, np.nan, 3], np.float32))


def test_reduction_errors():
    x = mf.tensor(values((4, 3)))
    with pytest.raises(ValueError, match=r"\[sum\] dim 2 is out of range for a tensor of 2 dims"):
        mf.sum(x, 2)
    with pytest.raises(ValueError, match=r"\[amax\] dim 1 appears more than once in dims"):
        x.amax((1, -1))
    with pytest.raises(RuntimeError, match=r"mean\(\): could not infer output dtype. .* Got: int64"):
        mf.tensor(values((4, 3), np.int64)).mean()
    with pytest.raises(ValueError, match=r"\[amin\] cannot reduce dim 0 of size 0 .* the min of nothing has no value"):
        mf.amin(mf.tensor(np.zeros((0, 3), np.float32)), 0)
    with pytest.raises(TypeError, match="dim must be None, an int or a list/tuple of ints"):
        mf.sum(x, 1.5)


# ---------------------------------------------------------------------------------------------
# softmax, log_softmax

def log_softmax_reference(x, dim):
    shifted = x - x.max(axis=dim, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))


@pytest.mark.parametrize("shape, dim", [((4, 6), 1), ((4, 6), 0), ((5, 3, 7), -2), ((3, 0, 2), 0), ((7,), 0)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_matches_numpy(shape, dim, dtype):
    x = values(shape, dtype) / 4
    expected = log_softmax_reference(x.astype(np.float64), dim)
    for out in (mf.softmax(mf.tensor(x), dim), F.softmax(mf.tensor(x), dim), mf.tensor(x).softmax(dim)):
        assert out.dtype == getattr(mf, np.dtype(dtype).name) and out.shape == shape
        np.testing.assert_allclose(out.numpy(), np.exp(expected), rtol=1e-5, atol=1e-7)
    for out in (mf.log_softmax(mf.tensor(x), dim), F.log_softmax(mf.tensor(x), dim), mf.tensor(x).log_softmax(dim)):
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)


def test_softmax_does_not_overflow():
    x = np.array([[1000, 999, -1000], [-1e30, 0, 1e30]], np.float32)
    out = mf.softmax(mf.tensor(x), 1).numpy()
    assert np.isfinite(out).all()
    np.testing.assert_allclose(out, np.exp(log_softmax_reference(x.astype(np.float64), 1)), rtol=1e-5, atol=1e-30)
    assert np.isfinite(mf.log_softmax(mf.tensor(x), 1).numpy()[0]).all()


def causal_mask(shape):
    """True where causal masking keeps an element of the last two dims [.., Tq, Tk]."""
    tq, tk = shape[-2:]
    return np.broadcast_to(np.arange(tk)[None, :] <= np.arange(tq)[:, None] + tk - tq, shape)


@pytest.mark.parametrize("shape", [(3, 5), (2, 4, 4), (2, 0, 3)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_causal_softmax_masks_later_positions(shape, dtype):
    x = values(shape, dtype) / 8
    expected = log_softmax_reference(np.where(causal_mask(shape), x.astype(np.float64), -np.inf), -1)
    probs = F.softmax(mf.tensor(x), -1, causal=True).numpy()
    np.testing.assert_allclose(probs, np.exp(expected), rtol=1e-5, atol=1e-7)
    assert (probs[~causal_mask(shape)] == 0).all()
    np.testing.assert_allclose(mf.log_softmax(mf.tensor(x), -1, causal=True).numpy(), expected, rtol=1e-5, atol=1e-6)


def test_softmax_errors():
    with pytest.raises(ValueError, match=r"\[softmax\] the dtype of the input is int32; expected float32 or float64"):
        mf.softmax(mf.tensor(values((2, 3), np.int32)), 0)
    with pytest.raises(ValueError, match=r"\[log_softmax\] dim 2 is out of range"):
        F.log_softmax(mf.tensor(values((2, 3))), 2)
    with pytest.raises(ValueError, match=r"\[softmax\] causal masking is over the last two dims .* expected dim -1"):
        F.softmax(mf.tensor(values((2, 3))), 0, causal=True)
    with pytest.raises(ValueError, match=r"\[softmax\] causal masking of shape \[3, 2\] would mask whole rows"):
        F.softmax(mf.tensor(values((3, 2))), 1, causal=True)


# ---------------------------------------------------------------------------------------------
# Backward ops, against finite differences of a NumPy forward

def run(name, inputs, attrs=None):
    """The op's outputs, as arrays, on local tensors."""
    return [out.numpy() for out in apply(name, [mf.tensor(x) for x in inputs], attrs)]


def vjp(forward, inputs, dy, k, eps=1e-6):
    """d sum(dy * forward(*inputs)) / d inputs[k], by float64 central differences."""
    inputs = [np.array(x, np.float64) for x in inputs]
    grad = np.zeros_like(inputs[k])
    for i in np.ndindex(grad.shape):
        saved = inputs[k][i]
        inputs[k][i] = saved + eps
        above = np.sum(dy * forward(*inputs))
        inputs[k][i] = saved - eps
        below = np.sum(dy * forward(*inputs))
        inputs[k][i] = saved
        grad[i] = (above - below) / (2 * eps)
    return grad


def tolerance(dtype):
    return {"rtol": 1e-4, "atol": 1e-4} if dtype == np.float32 else {"rtol": 1e-6, "atol": 1e-7}


@pytest.mark.parametrize("shape, dim, causal", [((4, 6), 1, False), ((3, 4, 5), 0, False), ((3, 4, 5), -2, False),
                                                ((2, 3, 5), -1, True), ((2, 4, 4), 2, True)])
@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_backward_matches_finite_differences(shape, dim, causal, log, dtype):
    x = values(shape, np.float64) / 8
    dy = values(shape, np.float64)[..., ::-1].copy() / 4
    kept = causal_mask(shape) if causal else np.ones(shape, bool)

    def forward(x):
        log_probs = log_softmax_reference(np.where(kept, x, -np.inf), dim)
        # Masked outputs are constants: they contribute nothing, whatever dy holds there.
        return np.where(kept, log_probs if log else np.exp(log_probs), 0)

    y = np.where(kept, forward(x), -np.inf if log else 0).astype(dtype)
    dx = run("softmax_backward", [y, dy.astype(dtype)], {"dim": dim, "log": log, "causal": causal})[0]
    assert dx.dtype == dtype
    np.testing.assert_allclose(dx, vjp(forward, [x], dy, 0), **tolerance(dtype))
    assert (dx[~kept] == 0).all()


@pytest.mark.parametrize("affine", ["none", "weight", "bias", "both"])
@pytest.mark.parametrize("shape, normalized", [((4, 6), (6,)), ((2, 3, 4), (3, 4)), ((0, 3), (3,)),
                                               ((37, 5), (5,))])  # batches of rows and a partial one
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_layer_norm_backward_matches_finite_differences(shape, normalized, affine, dtype):
    x = values(shape, np.float64) / 8
    w = values(normalized, np.float64)[::-1] / 16 + 1 if affine in ("weight", "both") else None
    b = values(normalized, np.float64) / 16 if affine in ("bias", "both") else None
    dy = values(shape, np.float64)[::-1].copy() / 4
    attrs = {"normalized_shape": list(normalized), "eps": 1e-3, "has_weight": w is not None, "has_bias": b is not None}
    inputs = [x] + ([w] if w is not None else []) + [dy]
    grads = run("layer_norm_backward", [t.astype(dtype) for t in inputs], attrs)
    assert len(grads) == 1 + (w is not None) + (b is not None)

    def forward(x, w, b):
        return layer_norm_reference(x, normalized, w, b, 1e-3)

    params = [x, w if w is not None else np.ones(normalized), b if b is not None else np.zeros(normalized)]
    for grad, k in zip(grads, [0] + ([1] if w is not None else []) + ([2] if b is not None else [])):
        assert grad.dtype == dtype and grad.shape == params[k].shape
        np.testing.assert_allclose(grad, vjp(forward, params, dy, k), **tolerance(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gelu_backward_matches_finite_differences(dtype):
    x = np.linspace(-4, 4, 33)
    dy = np.cos(np.arange(33.0))
    erf = np.vectorize(math.erf, otypes=[np.float64])
    dx = run("gelu_backward", [x.astype(dtype), dy.astype(dtype)])[0]
    np.testing.assert_allclose(dx, vjp(lambda x: x * 0.5 * (1 + erf(x / math.sqrt(2))), [x], dy, 0), **tolerance(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_silu_backward_matches_finite_differences(dtype):
    x = np.linspace(-12, 12, 33)
    dy = np.cos(np.arange(33.0))
    dx = run("silu_backward", [x.astype(dtype), dy.astype(dtype)])[0]
    np.testing.assert_allclose(dx, vjp(lambda x: x / (1 + np.exp(-x)), [x], dy, 0), **tolerance(dtype))


@pytest.mark.parametrize("name", ["sigmoid", "tanh"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sigmoid_and_tanh_backward_from_the_output(name, dtype):
    x = np.linspace(-6, 6, 33)
    dy = np.cos(np.arange(33.0))
    forward = (lambda x: 1 / (1 + np.exp(-x))) if name == "sigmoid" else np.tanh
    dx = run(name + "_backward", [forward(x).astype(dtype), dy.astype(dtype)])[0]
    np.testing.assert_allclose(dx, vjp(forward, [x], dy, 0), **tolerance(dtype))


# ---------------------------------------------------------------------------------------------
# The row kernels (ops/rows.cc) at the lengths their paths turn on: under one set of 16 lanes,
# a partial last set, whole sets, the long rows of reductions (512 on), several batches of 16
# rows and a partial one, lines along a dim with blocks of 256 of them.

ROW_LENGTHS = [1, 7, 16, 17, 33, 100, 511, 512, 1000]


@pytest.mark.parametrize("n", ROW_LENGTHS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_kernels_at_every_length(n, dtype):
    rng = np.random.default_rng(n)
    x = (rng.standard_normal((37, n)) * 3).astype(dtype)
    dy = rng.standard_normal((37, n)).astype(dtype)
    x64, dy64 = x.astype(np.float64), dy.astype(np.float64)
    tol = tolerance(dtype)
    logp = log_softmax_reference(x64, 1)
    np.testing.assert_allclose(F.log_softmax(mf.tensor(x), -1).numpy(), logp, **tol)
    np.testing.assert_allclose(F.softmax(mf.tensor(x), -1).numpy(), np.exp(logp), **tol)
    p = np.exp(logp)
    dx = run("softmax_backward", [p.astype(dtype), dy], {"dim": 1, "log": False})[0]
    np.testing.assert_allclose(dx, p * (dy64 - (dy64 * p).sum(1, keepdims=True)), **tol)
    dx = run("softmax_backward", [logp.astype(dtype), dy], {"dim": 1, "log": True})[0]
    np.testing.assert_allclose(dx, dy64 - p * dy64.sum(1, keepdims=True), **tol)
    w, b = rng.standard_normal(n).astype(dtype), rng.standard_normal(n).astype(dtype)
    np.testing.assert_allclose(F.layer_norm(mf.tensor(x), [n], mf.tensor(w), mf.tensor(b)).numpy(),
                               layer_norm_reference(x64, (n,), w, b, 1e-5), **tol)
    t = mf.tensor(x)
    np.testing.assert_allclose(t.sum(-1).numpy(), x64.sum(1), **tol)
    np.testing.assert_array_equal(t.amax(-1).numpy(), x.max(1))
    np.testing.assert_array_equal(t.amin(-1).numpy(), x.min(1))


def test_row_maxima_and_minima_propagate_nan_and_keep_signed_zeros():
    x = np.zeros((20, 33), np.float32)
    x[3, 17], x[4, 32], x[5, 0] = np.nan, np.nan, np.inf
    x[6] = -0.0
    t = mf.tensor(x)
    for got, want in ((t.amax(-1).numpy(), x.max(1)), (t.amin(-1).numpy(), x.min(1))):
        np.testing.assert_array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("log", [False, True])
def test_softmax_along_a_dim_with_several_blocks_of_lines(log):
    x = values((3, 5, 600), np.float32) / 8
    dy = values((3, 5, 600), np.float32)[..., ::-1].copy()
    expected = log_softmax_reference(x.astype(np.float64), 1)
    op = F.log_softmax if log else F.softmax
    y = op(mf.tensor(x), 1).numpy()
    np.testing.assert_allclose(y, expected if log else np.exp(expected), rtol=1e-5, atol=1e-6)
    dx = run("softmax_backward", [y, dy], {"dim": 1, "log": log})[0]
    p, dy64 = np.exp(expected), dy.astype(np.float64)
    want = dy64 - p * dy64.sum(1, keepdims=True) if log else p * (dy64 - (dy64 * p).sum(1, keepdims=True))
    np.testing.assert_allclose(dx, want, rtol=1e-4, atol=1e-4)


def test_causal_softmax_over_several_batches_of_rows():
    shape = (3, 20, 24)
    x = values(shape, np.float32) / 8
    expected = log_softmax_reference(np.where(causal_mask(shape), x.astype(np.float64), -np.inf), -1)
    np.testing.assert_allclose(F.log_softmax(mf.tensor(x), -1, causal=True).numpy(), expected, rtol=1e-5, atol=1e-6)


def test_row_kernels_give_the_same_bits_on_one_thread_and_two():
    """Each row's result is one task's (results do not depend on how rows spread over threads)."""
    x = mf.tensor(np.random.default_rng(0).standard_normal((512, 200)).astype(np.float32))
    ops = [lambda t: F.softmax(t, -1), lambda t: F.log_softmax(t, 0), lambda t: F.layer_norm(t, [200]),
           lambda t: t.sum(-1), lambda t: t.mean(0), lambda t: t.amax(-1)]
    previous = mf.get_num_threads()
    try:
        mf.set_num_threads(1)
        one = [f(x).numpy() for f in ops]
        mf.set_num_threads(2)
        two = [f(x).numpy() for f in ops]
    finally:
        mf.set_num_threads(previous)
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------------------------
# Backward ops: errors

def test_backward_op_errors():
    x = values((4, 3))
    with pytest.raises(ValueError, match=r"\[softmax_backward\] dy has shape \[3\]; expected \[4, 3\]"):
        run("softmax_backward", [x, values((3,))], {"dim": 1, "log": False})
    with pytest.raises(ValueError, match=r"\[softmax_backward\] missing attribute 'log'"):
        run("softmax_backward", [x, x], {"dim": 1})
    with pytest.raises(ValueError, match=r"\[layer_norm_backward\] takes 3 inputs, got 2"):
        run("layer_norm_backward", [x, x], {"normalized_shape": [3], "has_weight": True})
    with pytest.raises(ValueError, match=r"\[gelu_backward\] dtypes differ: float32 and float64"):
        run("gelu_backward", [x, x.astype(np.float64)])


# ---------------------------------------------------------------------------------------------
# layer_norm

def layer_norm_reference(x, normalized, weight, bias, eps):
    dims = tuple(range(x.ndim - len(normalized), x.ndim))
    y = (x - x.mean(axis=dims, keepdims=True)) / np.sqrt(x.var(axis=dims, keepdims=True) + eps)
    return y * (1 if weight is None else weight) + (0 if bias is None else bias)


@pytest.mark.parametrize("affine", ["none", "weight", "bias", "both"])
@pytest.mark.parametrize("shape, normalized", [((4, 6), 6), ((5, 3, 7), (3, 7)), ((5, 3, 7), [7]), ((0, 4), (4,)),
                                               ((8,), (8,))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_layer_norm_matches_numpy(shape, normalized, affine, dtype):
    normalized = (normalized,) if isinstance(normalized, int) else tuple(normalized)
    x = values(shape, dtype)
    weight = values(normalized, dtype) / 8 if affine in ("weight", "both") else None
    bias = values(normalized, dtype)[::-1].copy() if affine in ("bias", "both") else None
    out = F.layer_norm(mf.tensor(x), normalized, None if weight is None else mf.tensor(weight),
                       None if bias is None else mf.tensor(bias), eps=1e-3)
    expected = layer_norm_reference(x.astype(np.float64), normalized, weight, bias, 1e-3)
    assert out.dtype == getattr(mf, np.dtype(dtype).name) and out.shape == shape
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-5)


def test_layer_norm_errors():
    x = mf.tensor(values((4, 3)))
    with pytest.raises(ValueError, match=r"\[layer_norm\] normalized_shape \[4\] is not the trailing dims of the "
                                         r"input's shape \[4, 3\]"):
        F.layer_norm(x, 4)
    with pytest.raises(ValueError, match=r"\[layer_norm\] bias has shape \[4\]; expected normalized_shape \[3\]"):
        F.layer_norm(x, 3, bias=mf.tensor(values((4,))))
    with pytest.raises(ValueError, match=r"\[layer_norm\] dtypes differ: float32 and float64"):
        F.layer_norm(x, 3, weight=mf.tensor(values((3,), np.float64)))
    with pytest.raises(ValueError, match=r"\[layer_norm\] eps is -1.0+; expected eps >= 0"):
        F.layer_norm(x, 3, eps=-1)


# ---------------------------------------------------------------------------------------------
# embedding

# (3, 70) and (9000,): several of the kernel's blocks of 64 rows with a partial last one, the
# second one on the threads (past their grain with the wider weight).
@pytest.mark.parametrize("index_shape", [(3, 5), (6,), (), (0, 2), (3, 70), (9000,)])
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("weight_dtype", [np.float32, np.float64, np.int32, np.int64])
def test_embedding_matches_numpy(index_shape, index_dtype, weight_dtype):
    n = int(np.prod(index_shape)) if index_shape else 1
    idx = ((np.arange(n) * 5 + 3) % 7).astype(index_dtype).reshape(index_shape)
    width = 4 if n < 1000 else 5
    weight = values((7, width), weight_dtype)
    out = F.embedding(mf.tensor(idx), mf.tensor(weight))
    assert out.dtype == getattr(mf, np.dtype(weight_dtype).name)
    assert out.shape == index_shape + (width,)
    np.testing.assert_array_equal(out.numpy(), weight[idx])


def test_embedding_errors():
    weight = mf.tensor(values((7, 4)))
    with pytest.raises(ValueError, match=r"\[embedding\] index 7 is out of range; expected values in \[0, 7\)"):
        F.embedding(mf.tensor([0, 7, 2]), weight).numpy()  # data errors come when the kernel has run
    with pytest.raises(ValueError, match=r"\[embedding\] index -1 is out of range"):
        F.embedding(mf.tensor([-1]), weight).numpy()
    with pytest.raises(ValueError, match=r"\[embedding\] the dtype of indices is float32; expected int32 or int64"):
        F.embedding(mf.tensor([0.0]), weight)
    with pytest.raises(ValueError, match=r"\[embedding\] weight has shape \[7\]; expected 2 dims"):
        F.embedding(mf.tensor([0]), mf.tensor(values((7,))))


@pytest.mark.parametrize("index_shape, num_weights", [((3, 5), 7), ((6,), 9), ((), 7), ((0, 2), 7)])
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_embedding_backward_adds_the_rows_of_each_index(index_shape, num_weights, index_dtype, dtype):
    n = int(np.prod(index_shape)) if index_shape else 1
    idx = ((np.arange(n) * 5 + 3) % 7).astype(index_dtype).reshape(index_shape)
    dy = values(index_shape + (4,), dtype)
    expected = np.zeros((num_weights, 4), dtype)
    np.add.at(expected, idx.reshape(-1), dy.reshape(-1, 4))
    out = run("embedding_backward", [idx, dy], {"num_weights": num_weights})[0]
    assert out.dtype == dtype
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def test_embedding_backward_errors():
    dy = values((3, 4))
    with pytest.raises(ValueError, match=r"\[embedding_backward\] index 7 is out of range; expected values in "
                                         r"\[0, 7\)"):
        run("embedding_backward", [np.array([0, 7, 1]), dy], {"num_weights": 7})
    with pytest.raises(ValueError, match=r"\[embedding_backward\] dy has shape \[3, 4\]; expected \[2, 4\]"):
        run("embedding_backward", [np.array([0, 1]), dy], {"num_weights": 7})
    with pytest.raises(ValueError, match=r"\[embedding_backward\] num_weights is -2; expected num_weights >= 0"):
        run("embedding_backward", [np.array([0, 1, 2]), dy], {"num_weights": -2})


# ---------------------------------------------------------------------------------------------
# gather, gather_backward

GATHER_CASES = [((5, 7), (5, 1), 1), ((4, 3, 5), (4, 6, 5), 1), ((6, 3), (2, 3), 0), ((6, 3), (6, 3), -2),
                ((3, 4), (3, 0), 1),
                # tasks of several lines that begin and end within an outer's, on the team too
                ((300, 50), (300, 40), 1), ((100, 40, 10), (100, 50, 10), 1)]


def gather_index(x_shape, index_shape, dim, dtype):
    n = int(np.prod(index_shape))
    return ((np.arange(n) * 7 + 2) % x_shape[dim]).astype(dtype).reshape(index_shape)


@pytest.mark.parametrize("x_shape, index_shape, dim", GATHER_CASES)
@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_gather_matches_numpy(x_shape, index_shape, dim, index_dtype, dtype):
    x = values(x_shape, dtype)
    index = gather_index(x_shape, index_shape, dim, index_dtype)
    out = F.gather(mf.tensor(x), dim, mf.tensor(index))
    assert out.dtype == getattr(mf, np.dtype(dtype).name) and out.shape == index_shape
    np.testing.assert_array_equal(out.numpy(), np.take_along_axis(x, index, axis=dim))


@pytest.mark.parametrize("x_shape, index_shape, dim", GATHER_CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gather_backward_adds_dy_at_the_indices(x_shape, index_shape, dim, dtype):
    index = gather_index(x_shape, index_shape, dim, np.int64)
    dy = values(index_shape, dtype)
    expected = np.zeros(x_shape, dtype)
    for i in np.ndindex(index_shape):
        at = list(i)
        at[dim] = index[i]
        expected[tuple(at)] += dy[i]
    out = run("gather_backward", [index, dy], {"dim": dim, "size": x_shape[dim]})[0]
    assert out.dtype == dtype
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def test_gather_errors():
    x = mf.tensor(values((4, 3)))
    with pytest.raises(ValueError, match=r"\[gather\] index 3 is out of range; expected values in \[0, 3\)"):
        F.gather(x, 1, mf.tensor(np.array([[0], [1], [3], [2]]))).numpy()
    with pytest.raises(ValueError, match=r"\[gather\] index -1 is out of range"):
        F.gather(x, 0, mf.tensor(np.array([[-1, 0, 0]]))).numpy()
    with pytest.raises(ValueError, match=r"\[gather\] index has shape \[2, 2\]; expected \[4, 2\], the shape of x "
                                         r"except along dim 1"):
        F.gather(x, 1, mf.tensor(np.zeros((2, 2), np.int64)))
    with pytest.raises(ValueError, match=r"\[gather\] the dtype of index is float32; expected int32 or int64"):
        F.gather(x, 1, mf.tensor(np.zeros((4, 1), np.float32)))
    with pytest.raises(ValueError, match=r"\[gather_backward\] index 5 is out of range; expected values in \[0, 5\)"):
        run("gather_backward", [np.array([[5]]), values((1, 1))], {"dim": 1, "size": 5})
    with pytest.raises(ValueError, match=r"\[gather_backward\] dy has shape \[2\]; expected \[1\]"):
        run("gather_backward", [np.array([1]), values((2,))], {"dim": 0, "size": 5})


# ---------------------------------------------------------------------------------------------
# Gradients through autograd reach the leaves

def test_autograd_through_nn_ops_matches_finite_differences():
    x = values((3, 4), np.float64) / 8
    w = np.linspace(0.5, 1.5, 4)
    table = values((5, 4), np.float64) / 8
    idx = np.array([[4, 0], [4, 2]])
    dy = values((3, 4), np.float64)[::-1].copy() / 4

    xt, wt = mf.tensor(x).requires_grad_(), mf.tensor(w).requires_grad_()
    F.layer_norm(F.softmax(xt, 1), 4, weight=wt).backward(mf.tensor(dy))
    forward = lambda x, w: layer_norm_reference(np.exp(log_softmax_reference(x, 1)), (4,), w, None, 1e-5)  # noqa: E731
    np.testing.assert_allclose(xt.grad.numpy(), vjp(forward, [x, w], dy, 0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(wt.grad.numpy(), vjp(forward, [x, w], dy, 1), rtol=1e-6, atol=1e-8)

    tt = mf.tensor(table).requires_grad_()
    g = dy[:2, :2]
    F.gather(F.embedding(mf.tensor(idx), tt), 2, mf.tensor(np.array([[[1], [3]], [[0], [0]]]))).backward(
        mf.tensor(g[..., None].copy()))
    expected = np.zeros((5, 4))
    for (i, j, k) in [(0, 0, 1), (0, 1, 3), (1, 0, 0), (1, 1, 0)]:
        expected[idx[i, j], k] += g[i, j]
    np.testing.assert_allclose(tt.grad.numpy(), expected, rtol=1e-12)


# ---------------------------------------------------------------------------------------------
# cross_entropy

def cross_entropy_reference(logits, target):
    return -log_softmax_reference(logits, 1)[np.arange(len(target)), target].mean()


@pytest.mark.parametrize("n, c", [(6, 5), (1, 3), (9, 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("target_dtype", [np.int32, np.int64])
def test_cross_entropy_matches_numpy(n, c, dtype, target_dtype):
    logits = values((n, c), dtype) / 4
    target = ((np.arange(n) * 3 + 1) % c).astype(target_dtype)
    out = F.cross_entropy(mf.tensor(logits), mf.tensor(target))
    assert out.shape == () and out.dtype == getattr(mf, np.dtype(dtype).name)
    np.testing.assert_allclose(out.numpy(), cross_entropy_reference(logits.astype(np.float64), target), rtol=1e-5)


def test_cross_entropy_of_an_empty_batch_is_nan():
    assert np.isnan(F.cross_entropy(mf.tensor(np.zeros((0, 3), np.float32)), mf.tensor(np.zeros(0, np.int64))).numpy())


def test_cross_entropy_errors():
    logits = mf.tensor(values((4, 3)))
    with pytest.raises(ValueError, match=r"\[cross_entropy\] target 3 is out of range; expected values in \[0, 3\)"):
        F.cross_entropy(logits, mf.tensor([0, 1, 2, 3])).item()
    # Unbatched logits [C] take a scalar target, as torch's.
    with pytest.raises(ValueError, match=r"\[cross_entropy\] input of shape \(12,\) and target of shape \(1,\); "
                                         r"expected \[N, C, d1, \.\.\.\] and \[N, d1, \.\.\.\] \(or \[C\] and a scalar\)"):
        F.cross_entropy(mf.tensor(values((12,))), mf.tensor([0]))
    with pytest.raises(ValueError, match=r"\[cross_entropy\] target has shape \[4, 1\]; expected \[4\]"):
        F.cross_entropy(logits, mf.tensor(np.zeros((4, 1), np.int64)))
    with pytest.raises(ValueError, match=r"\[cross_entropy\] probabilities target of shape \(4,\); expected the "
                                         r"input's shape \(4, 3\)"):
        F.cross_entropy(logits, mf.tensor([0.0, 1.0, 2.0, 0.0]))  # a float target holds class probabilities
