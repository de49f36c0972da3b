"""Random sampling (python/meshflow/_ops_random.py: randint, randint_like, randperm,
bernoulli, multinomial, normal): ranges, dtypes, reproducibility under manual_seed and
statistics within bounds that hold with overwhelming probability; and einsum against
np.einsum, with gradients against finite differences."""
import numpy as np
import pytest

import meshflow as mf
from gradcheck import check_gradients

RNG = np.random.default_rng(3)


def test_randint():
    mf.manual_seed(1)
    a = mf.randint(3, 10, (200, 50))
    assert a.dtype == mf.int64 and a.shape == (200, 50)
    v = a.numpy()
    assert v.min() == 3 and v.max() == 9
    counts = np.bincount(v.reshape(-1) - 3, minlength=7)
    assert np.all(np.abs(counts - 10000 / 7) < 250)
    assert set(np.unique(mf.randint(2, high=4, size=(100,)).numpy())) == {2, 3}
    assert set(np.unique(mf.randint(low=-1, high=1, size=[100]).numpy())) == {-1, 0}
    b = mf.randint(5, size=(4,), dtype=mf.int32)
    assert b.dtype == mf.int32 and b.numpy().min() >= 0 and b.numpy().max() < 5
    mf.manual_seed(1)
    np.testing.assert_array_equal(mf.randint(3, 10, (200, 50)).numpy(), v)
    big = mf.randint(-2**40, 2**40, (1000,)).numpy()
    assert big.min() >= -2**40 and big.max() < 2**40 and len(np.unique(big)) == 1000
    with pytest.raises(RuntimeError, match="from=4 >= to=4"):
        mf.randint(4, 4, (2,))


def test_randint_like():
    x = mf.zeros(30, 40, dtype=mf.float64)
    r = mf.randint_like(x, 4)
    assert r.dtype == mf.float64 and r.shape == (30, 40)
    assert set(np.unique(r.numpy())) == {0.0, 1.0, 2.0, 3.0}
    s = mf.randint_like(x, -3, -1, dtype=mf.int64)
    assert s.dtype == mf.int64 and set(np.unique(s.numpy())) == {-3, -2}


def test_randperm():
    mf.manual_seed(5)
    p = mf.randperm(1000)
    assert p.dtype == mf.int64
    v = p.numpy()
    np.testing.assert_array_equal(np.sort(v), np.arange(1000))
    assert not np.array_equal(v, np.arange(1000))
    mf.manual_seed(5)
    np.testing.assert_array_equal(mf.randperm(1000).numpy(), v)
    assert not np.array_equal(mf.randperm(1000).numpy(), v)  # the generator moved on
    assert mf.randperm(7, dtype=mf.int32).dtype == mf.int32
    assert mf.randperm(0).shape == (0,)
    # Every value lands everywhere about equally often.
    first = np.array([mf.randperm(4).numpy()[0] for _ in range(800)])
    assert np.all(np.abs(np.bincount(first, minlength=4) - 200) < 60)


def test_bernoulli():
    p = mf.tensor(np.linspace(0, 1, 5).repeat(4000).reshape(5, 4000))
    b = mf.bernoulli(p)
    assert b.dtype == mf.float64
    v = b.numpy()
    assert set(np.unique(v)) <= {0.0, 1.0}
    np.testing.assert_allclose(v.mean(1), np.linspace(0, 1, 5), atol=0.03)
    assert v[0].sum() == 0 and v[-1].sum() == 4000
    np.testing.assert_allclose(mf.bernoulli(mf.zeros(10000), 0.25).numpy().mean(), 0.25, atol=0.02)
    assert p.bernoulli().shape == (5, 4000)


def test_multinomial():
    probs = np.array([[0.1, 0.0, 0.6, 0.3], [1.0, 1.0, 0.0, 2.0]])
    mf.manual_seed(2)
    s = mf.multinomial(mf.tensor(probs), 6000, replacement=True)
    assert s.dtype == mf.int64 and s.shape == (2, 6000)
    for row, p in zip(s.numpy(), probs):
        np.testing.assert_allclose(np.bincount(row, minlength=4) / 6000, p / p.sum(), atol=0.03)
    w = mf.multinomial(mf.tensor(probs), 3)  # without replacement: distinct, never a zero weight
    for row, p in zip(w.numpy(), probs):
        assert len(set(row)) == 3 and all(p[row] > 0)
    one = mf.tensor(np.array([0.0, 0.0, 5.0])).multinomial(1)
    np.testing.assert_array_equal(one.numpy(), [2])
    with pytest.raises(RuntimeError, match="not enough non-negative category"):
        mf.multinomial(mf.tensor(probs), 4)
    with pytest.raises(RuntimeError, match="element < 0"):
        mf.multinomial(mf.tensor(np.array([0.5, -0.1])), 1)


def test_normal():
    n = mf.normal(2.0, 3.0, (200, 100))
    assert n.dtype == mf.float32
    v = n.numpy()
    assert abs(v.mean() - 2) < 0.1 and abs(v.std() - 3) < 0.1
    mean = mf.tensor(np.array([[-5.0], [5.0]]))
    m = mf.normal(mean, 0.5 * mf.ones(2, 5000, dtype=mf.float64)).numpy()
    assert m.shape == (2, 5000)
    np.testing.assert_allclose(m.mean(1), [-5, 5], atol=0.05)
    np.testing.assert_allclose(m.std(1), [0.5, 0.5], atol=0.05)
    assert mf.normal(mf.zeros(3), 1.0).shape == (3,)
    with pytest.raises(RuntimeError, match="std >= 0.0"):
        mf.normal(0.0, -1.0, (2,))


# ---------------------------------------------------------------------------------------------
# einsum

EINSUM = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),
    ("ii->i", [(4, 4)]),
    ("ij->ji", [(3, 4)]),
    ("i,i->", [(5,), (5,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ii", [(3, 3)]),
    ("ij->", [(3, 4)]),
    ("iij->ji", [(3, 3, 2)]),
    ("iji->j", [(3, 2, 3)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("bi,bi->b", [(3, 4), (3, 4)]),
    ("...i,...i->...", [(2, 1, 4), (3, 4)]),
    ("ijk,ik->j", [(2, 3, 4), (2, 4)]),
    ("b i d, b j d -> b i j", [(2, 3, 4), (2, 5, 4)]),
]


@pytest.mark.parametrize("equation,shapes", EINSUM, ids=[e for e, _ in EINSUM])
def test_einsum_matches_numpy(equation, shapes):
    arrays = [RNG.standard_normal(s) for s in shapes]
    got = mf.einsum(equation, *[mf.tensor(a) for a in arrays])
    want = np.einsum(equation.replace(" ", ""), *arrays)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    f32 = mf.einsum(equation, [mf.tensor(a.astype(np.float32)) for a in arrays])
    assert f32.dtype == mf.float32
    np.testing.assert_allclose(f32.numpy(), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("equation,shapes", [EINSUM[i] for i in (0, 2, 3, 5, 7, 11, 13, 14)],
                         ids=[EINSUM[i][0] for i in (0, 2, 3, 5, 7, 11, 13, 14)])
def test_einsum_gradients(equation, shapes):
    check_gradients(lambda *ts: mf.einsum(equation, *ts), [RNG.standard_normal(s) for s in shapes])


def test_einsum_errors():
    a = mf.ones(2, 3)
    with pytest.raises(ValueError, match="number of subscripts"):
        mf.einsum("ijk->i", a)
    with pytest.raises(ValueError, match="fewer operands"):
        mf.einsum("ij,jk->ik", a)
    with pytest.raises(ValueError, match="output subscript z"):
        mf.einsum("ij->z", a)
    with pytest.raises(ValueError, match="subscript j has sizes"):
        mf.einsum("ij,jk->ik", a, mf.ones(4, 2))
