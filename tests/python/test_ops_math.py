"""The math ops (python/meshflow/_ops_math.py) on local tensors against NumPy and the math
module: values, result dtypes (torch's), gradients against finite differences, errors.
Unary and binary elementwise math; cumsum, cumprod, prod; sort, argsort, topk, kthvalue,
median; flip, fliplr, flipud, roll."""
import math

import numpy as np
import pytest

import meshflow as mf
from gradcheck import check_gradients
from gpu_check import needs_gpu

RNG = np.random.default_rng(11)
NAN = float("nan")


def close(got, want, dtype=np.float64):
    tol = 2e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)


_erf = np.vectorize(math.erf)
_erfc = np.vectorize(math.erfc)

# name, NumPy reference, domain sampler
UNARY = [
    ("sin", np.sin, lambda s: RNG.uniform(-4, 4, s)),
    ("cos", np.cos, lambda s: RNG.uniform(-4, 4, s)),
    ("tan", np.tan, lambda s: RNG.uniform(-1.4, 1.4, s)),
    ("asin", np.arcsin, lambda s: RNG.uniform(-0.95, 0.95, s)),
    ("acos", np.arccos, lambda s: RNG.uniform(-0.95, 0.95, s)),
    ("atan", np.arctan, lambda s: RNG.uniform(-4, 4, s)),
    ("sinh", np.sinh, lambda s: RNG.uniform(-4, 4, s)),
    ("cosh", np.cosh, lambda s: RNG.uniform(-4, 4, s)),
    ("asinh", np.arcsinh, lambda s: RNG.uniform(-4, 4, s)),
    ("acosh", np.arccosh, lambda s: RNG.uniform(1.1, 5, s)),
    ("atanh", np.arctanh, lambda s: RNG.uniform(-0.95, 0.95, s)),
    ("erf", _erf, lambda s: RNG.uniform(-3, 3, s)),
    ("erfc", _erfc, lambda s: RNG.uniform(-3, 3, s)),
    ("log1p", np.log1p, lambda s: RNG.uniform(-0.9, 4, s)),
    ("expm1", np.expm1, lambda s: RNG.uniform(-3, 3, s)),
    ("log2", np.log2, lambda s: RNG.uniform(0.1, 9, s)),
    ("log10", np.log10, lambda s: RNG.uniform(0.1, 9, s)),
    ("exp2", np.exp2, lambda s: RNG.uniform(-3, 3, s)),
    ("reciprocal", np.reciprocal, lambda s: RNG.uniform(0.5, 3, s) * RNG.choice([-1, 1], s)),
    ("frac", lambda a: a - np.trunc(a), lambda s: RNG.uniform(-4, 4, s)),
]


@pytest.mark.parametrize("name, reference, sample", UNARY, ids=[u[0] for u in UNARY])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unary_values_and_methods(name, reference, sample, dtype):
    a = sample((3, 4)).astype(dtype)
    out = getattr(mf, name)(mf.tensor(a))
    assert out.dtype == mf.tensor(a).dtype
    close(out, reference(a.astype(np.float64)).astype(dtype), dtype)
    close(getattr(mf.tensor(a), name)(), reference(a.astype(np.float64)).astype(dtype), dtype)


@pytest.mark.parametrize("name, reference, sample", UNARY, ids=[u[0] for u in UNARY])
def test_unary_gradients(name, reference, sample):
    check_gradients(getattr(mf, name), [sample((2, 3))])


def test_integers_become_float32_or_keep_their_dtype():
    a = np.array([-3, 0, 2, 5], np.int32)
    x = mf.tensor(a)
    for name in ("sin", "cos", "atan", "sinh", "erf", "expm1", "exp2", "log1p"):
        out = getattr(mf, name)(mf.tensor(np.abs(a)) if name == "log1p" else x)
        assert out.dtype == mf.float32, name
    close(mf.reciprocal(mf.tensor(np.array([1, 2, 4]))), [1, 0.5, 0.25], np.float32)
    assert mf.reciprocal(mf.tensor(np.array([1, 2]))).dtype == mf.float32
    for name in ("sign", "sgn", "round", "square"):
        assert getattr(mf, name)(x).dtype == mf.int32, name
    assert mf.sign(x).numpy().tolist() == [-1, 0, 1, 1]
    assert mf.square(x).numpy().tolist() == [9, 0, 4, 25]
    assert mf.round(x).numpy().tolist() == a.tolist()
    assert mf.atan2(x, x).dtype == mf.float32 and mf.copysign(x, -x).dtype == mf.float32
    close(mf.copysign(x, -x), [3, 0, -2, -5], np.float32)
    assert mf.fmod(x, 2).dtype == mf.int32
    with pytest.raises(ValueError, match="float32 and float64"):
        mf.frac(x)
    with pytest.raises(ValueError, match="float32 and float64"):
        mf.hypot(x, x)


def test_erfinv_inverts_erf():
    xs = np.array([-2.5, -0.7, -1e-3, 0.0, 0.3, 1.2, 3.0])
    back = mf.erfinv(mf.tensor(_erf(xs))).numpy()
    np.testing.assert_allclose(back, xs, rtol=1e-9, atol=1e-12)
    edges = mf.erfinv(mf.tensor(np.array([1.0, -1.0, 1.5]))).numpy()
    assert edges[0] == np.inf and edges[1] == -np.inf and np.isnan(edges[2])
    assert mf.erfinv(mf.tensor(np.array([0.5], np.float32))).dtype == mf.float32
    check_gradients(mf.erfinv, [RNG.uniform(-0.9, 0.9, (2, 3))])


def test_sign_round_frac():
    a = np.array([NAN, -0.0, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.7, -np.inf])
    x = mf.tensor(a)
    np.testing.assert_array_equal(mf.sign(x).numpy(), [0, 0, -1, -1, -1, 1, 1, 1, 1, -1])
    np.testing.assert_array_equal(mf.sgn(x).numpy(), mf.sign(x).numpy())
    np.testing.assert_array_equal(mf.round(x).numpy(), np.round(a))  # half to even, as NumPy
    b = np.array([1.2345, -1.2355, 125.0, 135.0, -0.05])
    for decimals in (1, 2, -1):
        np.testing.assert_allclose(mf.round(mf.tensor(b), decimals=decimals).numpy(), np.round(b, decimals), atol=1e-12)
    np.testing.assert_allclose(mf.tensor(b).round(decimals=2).numpy(), np.round(b, 2))
    np.testing.assert_array_equal(mf.frac(mf.tensor(np.array([-1.5, 2.25, 3.0]))).numpy(), [-0.5, 0.25, 0.0])
    # Piecewise constant: zero gradients; frac's is 1.
    check_gradients(lambda t: mf.round(t) + mf.sign(t) + mf.frac(t), [np.array([0.3, -1.2, 2.6])])


BINARY = [
    ("atan2", np.arctan2, lambda s: RNG.uniform(-3, 3, s)),
    ("hypot", np.hypot, lambda s: RNG.uniform(-3, 3, s)),
    ("copysign", np.copysign, lambda s: RNG.uniform(-3, 3, s)),
    ("fmod", np.fmod, lambda s: RNG.uniform(0.5, 3, s) * RNG.choice([-1, 1], s)),
]


@pytest.mark.parametrize("name, reference, sample", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_binary_values_broadcasting(name, reference, sample, dtype):
    a, b = (RNG.uniform(-5, 5, (4, 3)).astype(dtype), sample((3,)).astype(dtype))
    f = getattr(mf, name)
    close(f(mf.tensor(a), mf.tensor(b)), reference(a, b), dtype)
    close(getattr(mf.tensor(a), name)(mf.tensor(b)), reference(a, b), dtype)
    close(f(mf.tensor(a), 1.5), reference(a, np.asarray(1.5, dtype)), dtype)


@pytest.mark.parametrize("name, reference, sample", BINARY, ids=[b[0] for b in BINARY])
def test_binary_gradients(name, reference, sample):
    a = RNG.uniform(-5, 5, (4, 3))
    if name == "fmod":  # away from the jumps
        a = np.round(a) + 0.3
    check_gradients(getattr(mf, name), [a, sample((3,))])


def test_fmod_integers():
    a = np.array([-7, 7, -7, 7, np.iinfo(np.int64).min], np.int64)
    b = np.array([3, -3, -3, 3, -1], np.int64)
    assert mf.fmod(mf.tensor(a), mf.tensor(b)).numpy().tolist() == [-1, 1, -1, 1, 0]
    with pytest.raises(ValueError, match="division by zero"):
        mf.fmod(mf.tensor(a), mf.tensor(np.array([1, 1, 0, 1, 1]))).numpy()


def test_aliases():
    x = mf.tensor(np.array([-2.0, 0.5, 3.0]))
    assert mf.absolute(x).numpy().tolist() == [2.0, 0.5, 3.0]
    assert mf.negative(x).numpy().tolist() == [2.0, -0.5, -3.0]
    assert mf.clamp_min(x, 0.0).numpy().tolist() == [0.0, 0.5, 3.0]
    assert x.clamp_max(1.0).numpy().tolist() == [-2.0, 0.5, 1.0]
    assert mf.fix(x).numpy().tolist() == [-2.0, 0.0, 3.0]
    np.testing.assert_allclose(mf.arctan2(x, x).numpy(), np.arctan2([-2.0, 0.5, 3.0], [-2.0, 0.5, 3.0]))
    np.testing.assert_allclose(x.arcsinh().numpy(), np.arcsinh([-2.0, 0.5, 3.0]))


# ---------------------------------------------------------------------------------------------
# Scans and products.

def test_cumsum_cumprod_values_and_dtypes():
    a = RNG.uniform(-2, 2, (3, 4, 2))
    x = mf.tensor(a)
    for dim in (0, 1, 2, -1):
        close(mf.cumsum(x, dim), np.cumsum(a, dim))
        close(x.cumprod(dim), np.cumprod(a, dim))
    i = np.array([[1, -2, 3], [4, 5, -6]], np.int32)
    for f, ref in ((mf.cumsum, np.cumsum), (mf.cumprod, np.cumprod)):
        out = f(mf.tensor(i), 1)
        assert out.dtype == mf.int64 and out.numpy().tolist() == ref(i, 1).tolist()
        assert f(mf.tensor(i), 0, dtype=mf.float64).dtype == mf.float64
        assert f(mf.tensor(a.astype(np.float32)), 0).dtype == mf.float32
    assert mf.cumsum(mf.tensor(np.float64(2.5)), 0).numpy() == 2.5
    with pytest.raises(ValueError, match="out of range"):
        mf.cumsum(x, 3)


def test_logcumsumexp():
    a = RNG.uniform(-3, 3, (3, 5))
    for dim in (0, 1, -1):
        close(mf.logcumsumexp(mf.tensor(a), dim), np.log(np.cumsum(np.exp(a), dim)))
    # No overflow, and -inf and +inf as torch has them.
    big = np.array([1000.0, 1000.0, -1000.0, -np.inf, np.inf])
    np.testing.assert_allclose(mf.tensor(big).logcumsumexp(0).numpy(),
                               [1000.0, 1000.0 + np.log(2), 1000.0 + np.log(2), 1000.0 + np.log(2), np.inf])
    np.testing.assert_array_equal(mf.logcumsumexp(mf.tensor(np.array([-np.inf, -np.inf, 0.0])), 0).numpy(),
                                  [-np.inf, -np.inf, 0.0])
    assert mf.logcumsumexp(mf.tensor(a.astype(np.float32)), 0).dtype == mf.float32
    with pytest.raises(ValueError, match="float32 and float64"):
        mf.logcumsumexp(mf.tensor(np.arange(3)), 0)
    check_gradients(lambda t: mf.logcumsumexp(t, 1), [a])
    check_gradients(lambda t: mf.logcumsumexp(t, 0), [a * 100])


def test_prod():
    a = RNG.uniform(0.5, 1.5, (3, 4))
    x = mf.tensor(a)
    close(mf.prod(x), np.prod(a))
    assert mf.prod(x).shape == ()
    for dim in (0, 1, -1):
        close(mf.prod(x, dim), np.prod(a, dim))
        close(x.prod(dim, keepdim=True), np.prod(a, dim, keepdims=True))
    i = np.array([[1, -2, 3], [4, 5, -6]], np.int32)
    assert mf.prod(mf.tensor(i)).dtype == mf.int64 and mf.prod(mf.tensor(i)).numpy() == np.prod(i)
    assert mf.prod(mf.tensor(i), 1).numpy().tolist() == [-6, -120]
    assert mf.prod(mf.tensor(i), 1, dtype=mf.float64).dtype == mf.float64
    assert mf.prod(mf.tensor(np.zeros((0, 3)))).numpy() == 1.0
    np.testing.assert_array_equal(mf.prod(mf.tensor(np.zeros((0, 3))), 0).numpy(), [1, 1, 1])


def test_scan_and_product_gradients_with_zeros():
    a = RNG.uniform(-2, 2, (3, 4))
    a[1, 2] = 0.0
    a[2, 0] = a[2, 3] = 0.0
    check_gradients(lambda t: mf.cumsum(t, 1), [a])
    check_gradients(lambda t: mf.cumsum(t, 0), [a])
    check_gradients(lambda t: mf.cumprod(t, 1), [a])
    check_gradients(lambda t: mf.cumprod(t, 0), [a])
    check_gradients(lambda t: mf.prod(t, 1), [a])
    check_gradients(lambda t: mf.prod(t).reshape(1), [a[:2]])


# ---------------------------------------------------------------------------------------------
# Sorting.

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_sort_argsort_match_stable_numpy(dtype):
    a = RNG.integers(-3, 4, (4, 5, 6)).astype(dtype)  # many ties
    x = mf.tensor(a)
    for dim in (0, 1, 2, -1):
        for descending in (False, True):
            values, indices = mf.sort(x, dim, descending=descending)
            order = np.argsort(-a if descending else a, axis=dim, kind="stable")
            assert indices.dtype == mf.int64
            np.testing.assert_array_equal(indices.numpy(), order)
            np.testing.assert_array_equal(values.numpy(), np.take_along_axis(a, order, dim))
            np.testing.assert_array_equal(mf.argsort(x, dim, descending).numpy(), order)
    s = x.sort()
    np.testing.assert_array_equal(s.values.numpy(), np.sort(a, -1))
    np.testing.assert_array_equal(x.argsort(dim=0).numpy(), np.argsort(a, 0, kind="stable"))


def test_nan_is_largest():
    a = np.array([2.0, NAN, 1.0, 2.0, NAN, -1.0])
    v, i = mf.sort(mf.tensor(a))
    assert i.numpy().tolist() == [5, 2, 0, 3, 1, 4]
    v, i = mf.sort(mf.tensor(a), descending=True)
    assert i.numpy().tolist() == [1, 4, 0, 3, 2, 5]
    v, i = mf.topk(mf.tensor(a), 2)
    assert i.numpy().tolist() == [1, 4] and np.isnan(v.numpy()).all()
    # among the 2.0s, the one torch's selection leaves third (torch 2's [5, 2, 3])
    assert mf.topk(mf.tensor(a), 3, largest=False).indices.numpy().tolist() == [5, 2, 3]


def test_topk_kthvalue_median():
    a = RNG.permutation(30).reshape(5, 6).astype(np.float64)
    x = mf.tensor(a)
    values, indices = mf.topk(x, 3)
    np.testing.assert_array_equal(values.numpy(), -np.sort(-a, 1)[:, :3])
    np.testing.assert_array_equal(np.take_along_axis(a, indices.numpy(), 1), values.numpy())
    np.testing.assert_array_equal(x.topk(2, dim=0, largest=False).values.numpy(), np.sort(a, 0)[:2])
    v, i = mf.kthvalue(x, 2, 1)
    np.testing.assert_array_equal(v.numpy(), np.sort(a, 1)[:, 1])
    np.testing.assert_array_equal(i.numpy(), np.argsort(a, 1)[:, 1])
    assert x.kthvalue(4, 0, keepdim=True).values.shape == (1, 6)
    # Lower median.
    assert mf.median(x).numpy() == np.sort(a.ravel())[(a.size - 1) // 2]
    m = mf.median(x, 1)
    np.testing.assert_array_equal(m.values.numpy(), np.sort(a, 1)[:, 2])
    np.testing.assert_array_equal(m.indices.numpy(), np.argsort(a, 1)[:, 2])
    assert x.median(0, keepdim=True).values.shape == (1, 6)
    i = np.array([[3, 1, 2, 4], [9, 7, 8, 6]], np.int64)
    assert mf.median(mf.tensor(i), 1).values.numpy().tolist() == [2, 7]
    assert mf.median(mf.tensor(i)).dtype == mf.int64
    with pytest.raises(ValueError, match="out of range"):
        mf.topk(x, 7)
    with pytest.raises(ValueError, match="out of range"):
        mf.kthvalue(x, 0)


def test_median_nan_is_the_first_nan():
    a = np.array([[1.0, NAN, 2.0, NAN, 0.0], [NAN, NAN, 1.0, 2.0, 3.0], [4.0, 1.0, 3.0, 2.0, 0.0]])
    v, i = mf.median(mf.tensor(a), 1)
    assert np.isnan(v.numpy()[:2]).all() and v.numpy()[2] == 2.0
    assert i.numpy().tolist() == [1, 0, 3]
    assert np.isnan(mf.median(mf.tensor(a)).numpy())


def test_return_types_unpack():
    x = mf.tensor(np.array([[3.0, 1.0, 2.0]]))
    for result in (mf.sort(x), mf.topk(x, 2), mf.kthvalue(x, 1), mf.median(x, 1)):
        values, indices = result
        assert result.values is values and result.indices is indices and result[0] is values


def test_sorting_gradients():
    a = RNG.permutation(24).reshape(4, 6) + RNG.uniform(0, 0.5, (4, 6))
    check_gradients(lambda t: mf.sort(t, 1).values, [a])
    check_gradients(lambda t: mf.sort(t, 0, descending=True).values, [a])
    check_gradients(lambda t: mf.topk(t, 2, dim=1).values, [a])
    check_gradients(lambda t: mf.kthvalue(t, 2, 0).values, [a])
    check_gradients(lambda t: mf.median(t, 1).values, [a])
    check_gradients(lambda t: mf.median(t).reshape(1), [a])


# ---------------------------------------------------------------------------------------------
# Flips and rolls.

def test_flip_and_roll_match_numpy():
    a = np.arange(24).reshape(2, 3, 4)
    x = mf.tensor(a)
    for dims in ([0], [2], [0, 2], (1, -1), 1):
        np.testing.assert_array_equal(mf.flip(x, dims).numpy(), np.flip(a, dims))
    np.testing.assert_array_equal(x.flip([1]).numpy(), np.flip(a, 1))
    np.testing.assert_array_equal(x.flip(0, 2).numpy(), np.flip(a, (0, 2)))
    np.testing.assert_array_equal(mf.fliplr(x).numpy(), np.fliplr(a))
    np.testing.assert_array_equal(x.flipud().numpy(), np.flipud(a))
    for shifts, dims in ((1, 0), (-2, 2), (5, 1), ((1, 2), (0, 2)), (7, None), (-3, None), (0, 1)):
        np.testing.assert_array_equal(mf.roll(x, shifts, dims).numpy(), np.roll(a, shifts, dims))
    np.testing.assert_array_equal(x.roll(1, 1).numpy(), np.roll(a, 1, 1))
    with pytest.raises(ValueError, match="twice"):
        mf.flip(x, [1, -2])
    with pytest.raises(ValueError, match="at least 2 dims"):
        mf.fliplr(mf.tensor(np.arange(3)))
    with pytest.raises(ValueError, match="one shift per dim"):
        mf.roll(x, (1, 2), 0)


def test_flip_and_roll_gradients():
    a = RNG.standard_normal((3, 4))
    check_gradients(lambda t: mf.flip(t, [0, 1]), [a])
    check_gradients(lambda t: mf.roll(t, (1, -1), (0, 1)), [a])
    check_gradients(lambda t: mf.roll(t, 5), [a])


def test_graph_mode_equals_eager():
    """Compiled (the elementwise ones fused into chains) as run eagerly."""
    placement = mf.placement("cpu", ranks=[0])
    a = RNG.uniform(-0.9, 0.9, (6, 5))
    x = mf.tensor(a, placement=placement, sbp=mf.sbp.broadcast)

    def f(t):
        y = mf.erfinv(mf.sin(t) * 0.5) + mf.atan2(t, mf.cos(t)).round(decimals=1)
        values, indices = mf.sort(mf.cumsum(y, 1), 0, descending=True)
        return mf.flip(values, [1]) + mf.logcumsumexp(t, 0) + mf.topk(t, 2).values.sum() + indices.double()

    class G(mf.nn.Graph):
        def build(self, t):
            return f(t)

    np.testing.assert_allclose(G()(x).numpy(), f(x).numpy(), rtol=1e-12, atol=1e-12)


@needs_gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_gpu_equals_the_cpu(dtype):
    """Every op's CUDA kernel (values, and gradients through them) against the CPU's."""
    tol = dict(rtol=1e-4, atol=1e-5) if dtype == np.float32 else dict(rtol=1e-10, atol=1e-12)
    a = RNG.uniform(-0.9, 0.9, (37, 300)).astype(dtype)
    a[3, 7] = a[5, 0] = NAN
    a[4, :40] = 0.25  # ties
    i = RNG.integers(-50, 50, (33, 65)).astype(np.int64)

    def run(device):
        x, k = mf.tensor(a, device=device), mf.tensor(i, device=device)
        outs = [getattr(mf, name)(x) for name, _, _ in UNARY if name not in ("acosh",)]
        outs += [mf.acosh(x.abs() + 1), mf.sign(x), mf.round(x, decimals=1), mf.sign(k), mf.round(k)]
        outs += [mf.atan2(x, x[0]), mf.hypot(x, 0.5), mf.copysign(x, -x), mf.fmod(x, 0.3), mf.fmod(k, 7)]
        outs += [mf.lgamma(x), mf.lgamma(k), mf.digamma(x), mf.polygamma(1, x.abs() + 0.1), mf.polygamma(3, x + 1)]
        outs += [mf.i0(x * 12), mf.special.i0e(x * 12), mf.special.i1(x * 12), mf.special.i1e(k)]
        for dim in (0, 1):
            outs += [mf.cumsum(x, dim), mf.cumprod(x, dim), mf.logcumsumexp(x, dim), mf.cumsum(k, dim),
                     mf.cumprod(k, dim), mf.flip(x, dim), mf.flip(k, [0, 1])]
            for descending in (False, True):
                outs += list(mf.sort(x, dim, descending)) + list(mf.sort(k, dim, descending))
        outs += list(mf.topk(x, 5)) + list(mf.median(x, 0)) + [mf.prod(x[:, :8], 1), mf.roll(x, 3, 1)]
        big = mf.tensor(np.tile(a[:, :200], (1, 500)), device=device)  # lines of 100000
        outs += list(mf.sort(big, 1)) + [mf.cumsum(big, 1)]
        return [o.cpu().numpy() for o in outs]

    for got, want in zip(run("cuda"), run("cpu")):
        np.testing.assert_allclose(got, want, **tol)

    def grads(device):
        x = mf.tensor(np.nan_to_num(a[:, :20]), device=device, requires_grad=True)
        y = (mf.sort(x, 1).values * 2 + mf.cumprod(x, 0) + mf.logcumsumexp(x, 1) + mf.flip(x, [0])).sum()
        y.backward()
        return x.grad.cpu().numpy()

    np.testing.assert_allclose(grads("cuda"), grads("cpu"), **tol)


# torch 2.x's CPU results among equal values (sha256 of the bytes, first 16 hex digits) for
# _TIES's data: unstable sort's and argsort's indices (std::sort's order; a 1-d integer tensor
# of 32768 or more ascending sorts by radix, stably), mode's, cummax's and cummin's.
def _ties():
    import hashlib
    rs = np.random.RandomState(3)
    ints = rs.randint(0, 6, (4, 50))
    floats = np.round(rs.randn(3, 70) * 2) / 2
    floats[1, ::7] = np.nan
    big = rs.randint(0, 100, 40000)
    digest = lambda t: hashlib.sha256(np.ascontiguousarray(t.numpy()).tobytes()).hexdigest()[:16]
    return {"ints": mf.tensor(ints), "floats": mf.tensor(floats, dtype=mf.float32), "big": mf.tensor(big)}, digest


@pytest.mark.parametrize("name,dim,descending,digest", [
    ("ints", 0, False, "a6abe6012c5365aa"), ("ints", 0, True, "010a0feb53a5c69e"),
    ("ints", 1, False, "571fb06e140a8b9c"), ("ints", 1, True, "4d967c907423e401"),
    ("floats", 0, False, "1b3f9aca9836b67d"), ("floats", 0, True, "f702ebcc7246e627"),
    ("floats", 1, False, "3af5b3e9acf66613"), ("floats", 1, True, "60ff91db1dc057a8"),
    ("big", 0, False, "483e0cb3cacf71fb"), ("big", 0, True, "3446a594cfcd1825")])
def test_unstable_sort_leaves_ties_as_torch(name, dim, descending, digest):
    data, hashed = _ties()
    x = data[name]
    assert hashed(mf.sort(x, dim=dim, descending=descending).indices) == digest
    assert hashed(mf.argsort(x, dim=dim, descending=descending)) == digest
    stable = mf.sort(x, dim=dim, descending=descending, stable=True).indices.numpy()
    order = np.argsort(-x.numpy() if descending else x.numpy(), axis=dim, kind="stable")
    if name != "floats":  # NumPy puts NaN last either way
        np.testing.assert_array_equal(stable, order)


@pytest.mark.parametrize("op,name,dim,values,indices", [
    ("mode", "ints", 0, "9c6ec5a16c5c8699", "f546e150b3ca6b2c"), ("mode", "ints", 1, "dce21d3195a4b65b", "d1033cd4a59a1c69"),
    ("mode", "floats", 0, "222226aa876696b5", "0ac78c0fd2a2b355"),
    ("mode", "floats", 1, "0d5f6d63f6c673ae", "c2489ef30ec9cb7d"),
    ("cummax", "ints", 0, "de0cf762bafea922", "3ab7edf98857e21f"),
    ("cummax", "ints", 1, "de9e14c91a022c4b", "ac52e272ac974e45"),
    ("cummax", "floats", 0, "a7ab6b86b024042b", "4cc10ff34cea4ddf"),
    ("cummax", "floats", 1, "edb9f32893588aa6", "9ac5cca03ea32df3"),
    ("cummin", "ints", 0, "2fe1cb61fb3e9dca", "1e8a16bbad867ca3"),
    ("cummin", "ints", 1, "8cf1ffde6181d0ab", "76a0288ad4b4a5e0"),
    ("cummin", "floats", 0, "99ffcf9ac0093241", "22b0adeba8500b48"),
    ("cummin", "floats", 1, "5f5e3bab53bd3ac9", "41a2dbc495b14639")])
def test_mode_cummax_cummin_pick_torchs_indices(op, name, dim, values, indices):
    data, hashed = _ties()
    got = getattr(mf, op)(data[name], dim)
    assert (hashed(got.values), hashed(got.indices)) == (values, indices)


def test_cummax_holds_a_nan_and_takes_later_ties():
    got = mf.cummax(mf.tensor([1.0, float("nan"), 3.0, float("nan"), 2.0]), 0)
    np.testing.assert_array_equal(got.values.numpy(), [1, np.nan, np.nan, np.nan, np.nan])
    assert got.indices.tolist() == [0, 1, 1, 3, 3]
    got = mf.cummin(mf.tensor([3, 1, 1, 2, 0, 0]), 0)
    assert got.values.tolist() == [3, 1, 1, 1, 0, 0] and got.indices.tolist() == [0, 1, 2, 2, 4, 5]
    x = mf.tensor([[2.0, 5.0, 5.0, 1.0]], requires_grad=True)
    mf.cummax(x, 1).values.sum().backward()
    assert x.grad.tolist() == [[1.0, 1.0, 2.0, 0.0]]  # each running value's gradient to its index
