"""Ops composed of meshflow's ops (so every device, layout and gradient is theirs), against
NumPy and torch's definitions: clamp, floor, ceil, remainder (%), softplus, lerp; var,
std, logsumexp, norm; matmul's 1-d forms, mm, bmm, mv, dot."""
import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from gradcheck import check_gradients
from meshflow._tensor import apply

RNG = np.random.default_rng(5)
A = RNG.standard_normal((4, 5)) * 3


def close(got, want, dtype=np.float64):
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6 if dtype == np.float32 else 1e-12, atol=1e-7)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_elementwise_compositions(dtype):
    a = A.astype(dtype)
    x = mf.tensor(a)
    close(mf.clamp(x, -1.0, 2.0), np.clip(a, -1, 2), dtype)
    close(x.clamp(min=0.5), np.maximum(a, 0.5), dtype)
    close(mf.clip(x, max=-0.5), np.minimum(a, -0.5), dtype)
    close(mf.floor(x), np.floor(a), dtype)
    close(x.ceil(), np.ceil(a), dtype)
    close(x % 1.5, np.mod(a, 1.5), dtype)
    close(mf.remainder(x, -2.0), np.mod(a, -2.0), dtype)
    close(F.silu(x), a / (1 + np.exp(-a)), dtype)  # one op now, checked here beside the others
    close(F.softplus(x), np.logaddexp(0, a), dtype)
    close(F.softplus(x, beta=2.0, threshold=3.0), np.where(2 * a > 3, a, np.logaddexp(0, 2 * a) / 2), dtype)
    close(mf.lerp(x, x * 2, 0.25), a + 0.25 * a, dtype)
    with pytest.raises(ValueError, match="at least one of min and max"):
        mf.clamp(x)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softplus_is_accurate_far_below_zero_and_its_gradient_is_the_sigmoid(dtype):
    """float32 runs a vectorized log1p(exp(s)): exact to a few ulps also where exp(s) is tiny
    (log(1 + e) would round to 0 there); past the threshold, x itself and dy."""
    a = np.concatenate([np.linspace(-100, 30, 2001), [-1e-3, 0.0, 1e-3]]).astype(dtype)
    x = mf.tensor(a, requires_grad=True)
    y = F.softplus(x, beta=1.5, threshold=20.0)
    s = (a * dtype(1.5)).astype(np.float64)  # beta x rounded in x's dtype, as torch's kernel does too
    want = np.where(s > 20, a, np.logaddexp(0, s) / 1.5)
    # float32: a few ulps, and results below the least normal float flushed to 0
    rtol, atol = (1e-6, 1.2e-38) if dtype == np.float32 else (1e-14, 0)
    np.testing.assert_allclose(y.detach().numpy(), want, rtol=rtol, atol=atol)
    y.backward(mf.ones_like(y))
    np.testing.assert_allclose(x.grad.numpy(), np.where(s > 20, 1.0, 1 / (1 + np.exp(-s))), rtol=rtol, atol=atol)


def test_integer_remainder_and_floor():
    a = np.array([-7, -1, 0, 5, 9], np.int64)
    x = mf.tensor(a)
    assert (x % 4).numpy().tolist() == np.mod(a, 4).tolist() and (x % 4).dtype == mf.int64
    # integers are their own floor and ceil: in a new tensor, as torch's (a write to it leaves x)
    assert all(f(x) is not x and f(x).tolist() == x.tolist() and f(x).dtype == mf.int64 for f in (mf.floor, mf.ceil))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_reduction_compositions(dtype):
    a = A.astype(dtype)
    x = mf.tensor(a)
    close(x.var(), np.var(a, ddof=1), dtype)
    close(mf.var(x, 1, unbiased=False), np.var(a, 1), dtype)
    close(x.std(0, keepdim=True), np.std(a, 0, ddof=1, keepdims=True), dtype)
    close(mf.std(x, [0, 1], correction=0), np.std(a), dtype)
    close(mf.logsumexp(x, 1), np.log(np.exp(a).sum(1)), dtype)
    close(x.logsumexp(0, keepdim=True), np.log(np.exp(a).sum(0, keepdims=True)), dtype)
    close(mf.logsumexp(mf.tensor(np.array([[1000.0, 1000.0], [-np.inf, -np.inf]], dtype)), -1),
          [1000.0 + np.log(2), -np.inf], dtype)
    close(x.norm(), np.linalg.norm(a), dtype)
    close(mf.norm(x, 1, dim=1), np.abs(a).sum(1), dtype)
    close(mf.norm(x, float("inf"), dim=0), np.abs(a).max(0), dtype)
    close(mf.norm(x, 3, dim=1), (np.abs(a) ** 3).sum(1) ** (1 / 3), dtype)


def test_matmul_forms():
    m, v, b = RNG.standard_normal((4, 5)), RNG.standard_normal(5), RNG.standard_normal((3, 4, 5))
    w = RNG.standard_normal(4)
    close(mf.tensor(m) @ mf.tensor(v), m @ v)
    close(mf.tensor(w) @ mf.tensor(m), w @ m)
    got = mf.tensor(v) @ mf.tensor(v)
    assert got.shape == () and got.item() == pytest.approx(v @ v)
    close(mf.tensor(b) @ mf.tensor(v), b @ v)
    close(mf.tensor(w) @ mf.tensor(b), w @ b)
    close(mf.mm(mf.tensor(m), mf.tensor(m.T)), m @ m.T)
    close(mf.bmm(mf.tensor(b), mf.tensor(b.transpose(0, 2, 1))), b @ b.transpose(0, 2, 1))
    close(mf.tensor(m).mv(mf.tensor(v)), m @ v)
    close(mf.dot(mf.tensor(v), mf.tensor(v)), v @ v)
    with pytest.raises(ValueError, match=r"\[bmm\] expected a 3-d tensor, got shape \(4, 5\)"):
        mf.bmm(mf.tensor(m), mf.tensor(m))


@pytest.mark.parametrize("a_shape, b_shape", [
    ((5, 3, 4), (5, 4, 2)), ((7, 1, 8), (7, 8, 6)), ((4, 6, 1), (4, 1, 3)), ((3, 2, 5), (3, 5, 1)),
    ((6, 1, 5), (6, 5, 1)), ((2, 3, 4, 5), (2, 3, 5, 6)), ((64, 32, 32), (64, 32, 32)), ((1, 3, 4), (1, 4, 2)),
    ((3, 4, 5), (1, 5, 2)), ((4, 0, 3), (4, 3, 2)), ((4, 3, 0), (4, 0, 2))])
def test_batched_float32_products(a_shape, b_shape):
    """Batches of float32 products (one batched call where small and not broadcast; a dot,
    m = n = 1, and broadcast batches per product), with each operand read transposed too,
    against float64; the same bits on one thread and two."""
    a = RNG.standard_normal(a_shape).astype(np.float32)
    b = RNG.standard_normal(b_shape).astype(np.float32)
    want = a.astype(np.float64) @ b.astype(np.float64)
    at, bt = (mf.tensor(np.ascontiguousarray(np.swapaxes(t, -1, -2))) for t in (a, b))
    previous = mf.get_num_threads()
    try:
        got = []
        for threads in (1, 2):
            mf.set_num_threads(threads)
            got.append([(mf.tensor(a) @ mf.tensor(b)).numpy(),
                         apply("matmul", [at, mf.tensor(b)], {"transpose_a": True})[0].numpy(),
                         apply("matmul", [mf.tensor(a), bt], {"transpose_b": True})[0].numpy(),
                         apply("matmul", [at, bt], {"transpose_a": True, "transpose_b": True})[0].numpy()])
    finally:
        mf.set_num_threads(previous)
    for one, two in zip(*got):
        np.testing.assert_allclose(one, want, rtol=1e-5, atol=1e-5)
        np.testing.assert_array_equal(one, two)


@pytest.mark.parametrize("name, f", [
    ("clamp", lambda x: mf.clamp(x, -1.0, 2.0)), ("silu", F.silu), ("softplus", F.softplus),
    ("remainder", lambda x: x % 1.7), ("var", lambda x: x.var(1)), ("std", lambda x: x.std(0)),
    ("logsumexp", lambda x: mf.logsumexp(x, 1)), ("norm", lambda x: x.norm(dim=1)),
    ("matvec", lambda x: x @ mf.tensor(np.arange(5.0))),
])
def test_gradients(name, f):
    check_gradients(f, [A + 0.05])  # away from the kinks of clamp and %


def test_norm_and_std_gradients_are_zero_where_they_are_zero():
    # torch's subgradient at a zero norm (cdist of a set with itself, a zero row, a constant row's
    # std): 0, where the chain rule through the square root gives inf * 0 = nan.
    a = np.array([[0.0, 0.0, 0.0], [3.0, 0.0, -4.0]])
    for f in (lambda x: x.norm(dim=1), lambda x: mf.linalg.vector_norm(x, 3, dim=1), lambda x: mf.norm(x, 2),
              lambda x: mf.cdist(x, x), lambda x: mf.linalg.norm(x, dim=1), lambda x: x.std(dim=1) * x[:1].std()):
        x = mf.tensor(a, requires_grad=True)
        f(x).sum().backward()
        assert np.isfinite(x.grad.numpy()).all()
    x = mf.tensor(a, requires_grad=True)
    x.norm(dim=1).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [[0, 0, 0], [0.6, 0, -0.8]])
    x = mf.tensor(a, requires_grad=True)
    mf.cdist(x, x).sum().backward()  # d|x_i - x_j| summed over both orders, 0 on the diagonal
    np.testing.assert_allclose(x.grad.numpy(), [[-1.2, 0, 1.6], [1.2, 0, -1.6]])
    x = mf.tensor(np.ones((2, 3)), requires_grad=True)
    x.std(dim=1).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.zeros((2, 3)))
    assert mf.norm(mf.tensor(a), 0, dim=1).tolist() == [0.0, 2.0]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_argmax_argmin_max_min(dtype):
    a = np.array([[3, 7, 7, -1], [2, 2, 0, 5], [9, -4, 9, 9]], dtype)
    x = mf.tensor(a)
    for dim in (0, 1, -1):
        got = mf.argmax(x, dim)
        assert got.dtype == mf.int64
        np.testing.assert_array_equal(got.numpy(), np.argmax(a, dim))  # the first of ties, as NumPy and torch
        np.testing.assert_array_equal(x.argmin(dim, keepdim=True).numpy(), np.expand_dims(np.argmin(a, dim), dim))
        values, indices = x.max(dim)
        np.testing.assert_array_equal(values.numpy(), a.max(dim))
        np.testing.assert_array_equal(indices.numpy(), np.argmax(a, dim))
        result = mf.min(x, dim=dim, keepdim=True)
        np.testing.assert_array_equal(result.values.numpy(), a.min(dim, keepdims=True))
        np.testing.assert_array_equal(result.indices.numpy(), np.expand_dims(np.argmin(a, dim), dim))
    assert x.argmax().item() == np.argmax(a) and x.argmin().shape == ()
    assert x.max().item() == a.max() and mf.min(x).item() == a.min()
    np.testing.assert_array_equal(mf.max(x, mf.tensor(np.full_like(a, 4))).numpy(), np.maximum(a, 4))


@pytest.mark.parametrize("shape,dim", [((3, 70), 1), ((2, 70, 5), 1), ((40, 3), 0), ((4, 33), -1)])
def test_max_min_along_a_dim_in_one_pass_pick_the_first_extreme(shape, dim):
    # Long lines (the CPU's lanes), lines apart (inner > 1), ties and NaN at lane boundaries:
    # the first extreme's index, the first NaN where one is, all of dy to the picked element.
    a = RNG.integers(-3, 4, shape).astype(np.float32)
    line = [slice(None)] * len(shape)
    line[0] = 0
    a[tuple(line)] = 3.0
    if a.ndim == 2 and dim in (1, -1):
        a[1, 17] = a[1, 31] = np.nan
    x = mf.tensor(a, requires_grad=True)
    for name, numpy_arg in (("max", np.argmax), ("min", np.argmin)):
        masked = np.where(np.isnan(a), np.inf if name == "max" else -np.inf, a)
        want = numpy_arg(masked, dim)
        for keepdim in (False, True):
            values, indices = getattr(x, name)(dim, keepdim)
            assert values.grad_fn.name() == f"{name.capitalize()}Backward0"
            got = indices.numpy() if keepdim else np.expand_dims(indices.numpy(), dim)
            np.testing.assert_array_equal(got, np.expand_dims(want, dim))
            np.testing.assert_array_equal(values.numpy(), np.take_along_axis(a, got, dim).reshape(values.shape))
        dy = RNG.standard_normal(values.shape)
        x.grad = None
        (values * mf.tensor(dy.astype(np.float32))).sum().backward()
        expected = np.zeros_like(a)
        np.put_along_axis(expected, np.expand_dims(want, dim), dy.astype(np.float32), dim)
        np.testing.assert_array_equal(x.grad.numpy(), expected)
    # Non-contiguous input, bool, bfloat16 (through float32: exact), 0-d.
    t = mf.tensor(a).transpose(0, 1)
    np.testing.assert_array_equal(t.max(0).indices.numpy(), np.argmax(np.where(np.isnan(a), np.inf, a).swapaxes(0, 1), 0))
    b = a > 0
    np.testing.assert_array_equal(mf.tensor(b).max(dim).indices.numpy(), np.argmax(b, dim))
    h = mf.tensor(a).to(mf.bfloat16).min(dim)
    assert h.values.dtype == mf.bfloat16
    want = mf.tensor(a).min(dim)  # a's small integers are exact in bfloat16
    np.testing.assert_array_equal(h.values.float().numpy(), want.values.numpy())
    np.testing.assert_array_equal(h.indices.numpy(), want.indices.numpy())
    assert mf.tensor(2.5).max(0).indices.item() == 0 and mf.tensor(2.5).max(-1, True).values.item() == 2.5
    with pytest.raises(IndexError, match="is empty"):
        mf.empty(2, 0).max(1)


def test_max_values_carry_gradients():
    x = mf.tensor(A, requires_grad=True)
    values, _ = x.max(1)
    values.sum().backward()
    expected = np.zeros_like(A)
    expected[np.arange(4), A.argmax(1)] = 1
    np.testing.assert_array_equal(x.grad.numpy(), expected)


def test_tril_triu_eye_linspace_repeat():
    a = RNG.standard_normal((2, 4, 5))
    a[0, 0, 4] = np.inf  # zeroed, not NaN
    x = mf.tensor(a)
    for k in (-1, 0, 2):
        np.testing.assert_array_equal(mf.tril(x, k).numpy(), np.tril(a, k))
        np.testing.assert_array_equal(x.triu(k).numpy(), np.triu(a, k))
    np.testing.assert_array_equal(mf.eye(3).numpy(), np.eye(3, dtype=np.float32))
    assert mf.eye(2, 4, dtype=mf.int64).numpy().tolist() == np.eye(2, 4, dtype=np.int64).tolist()
    np.testing.assert_allclose(mf.linspace(-1, 2, 7).numpy(), np.linspace(-1, 2, 7, dtype=np.float32), rtol=1e-6)
    assert mf.linspace(0, 1, 1).numpy().tolist() == [0.0] and mf.linspace(0, 1, 0).shape == (0,)
    b = RNG.standard_normal((2, 3))
    np.testing.assert_array_equal(mf.tensor(b).repeat(2, 3).numpy(), np.tile(b, (2, 3)))
    np.testing.assert_array_equal(mf.tensor(b).repeat(4, 1, 2).numpy(), np.tile(b, (4, 1, 2)))
    with pytest.raises(ValueError, match=r"\[repeat\] 1 repeat counts for a tensor of 2 dims"):
        mf.tensor(b).repeat(2)
    check_gradients(lambda t: t.repeat(2, 2), [b])
    check_gradients(lambda t: mf.tril(t, 1), [b])


def test_argmax_argmin_and_max_take_nan_as_the_extreme_as_torch():
    a = np.array([[1.0, np.nan, 3.0, np.nan], [1.0, 2.0, 0.0, 2.0]], np.float32)
    x = mf.tensor(a)
    assert mf.argmax(x, 1).numpy().tolist() == [1, 1] and mf.argmin(x, 1).numpy().tolist() == [1, 2]
    values, indices = x.max(1)
    assert np.isnan(values.numpy()[0]) and values.numpy()[1] == 2.0 and indices.numpy().tolist() == [1, 1]
    assert mf.argmax(x).item() == 1 and mf.argmin(mf.tensor([2.0, np.nan])).item() == 1
