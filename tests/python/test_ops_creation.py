"""Creation ops on local tensors against NumPy: zeros, ones, full, arange; rand and randn
(range, moments, seeding); bad input. arange and linspace against torch's values (stored) and
the rule that makes them (ops/range_math.h). Global tensors: tests/python/distributed/."""
import hashlib
from fractions import Fraction

import numpy as np
import pytest

import meshflow as mf

DTYPES = [(mf.float32, np.float32), (mf.float64, np.float64), (mf.int32, np.int32), (mf.int64, np.int64)]
SHAPES = [(4, 6), (5, 3), (2, 3, 5), (0, 3), (3, 0), (7,), ()]


def check(t, expected, rtol=0):
    """t is a local tensor equal to the NumPy array `expected`, dtype included."""
    assert t.is_local
    got = t.numpy()
    assert got.dtype == expected.dtype
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=0)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype,np_dtype", DTYPES)
def test_zeros_ones_full(shape, dtype, np_dtype):
    check(mf.zeros(shape, dtype=dtype), np.zeros(shape, np_dtype))
    check(mf.ones(*shape, dtype=dtype), np.ones(shape, np_dtype))
    check(mf.full(shape, -7, dtype=dtype), np.full(shape, -7, np_dtype))
    check(mf.full(list(shape), 2.5, dtype=dtype), np.full(shape, 2.5).astype(np_dtype))


def test_default_dtypes_follow_pytorch():
    check(mf.zeros(2, 3), np.zeros((2, 3), np.float32))
    check(mf.ones([2]), np.ones(2, np.float32))
    check(mf.full((2,), 3), np.full(2, 3, np.int64))
    check(mf.full((2,), 3.5), np.full(2, 3.5, np.float32))
    assert mf.rand(2).dtype == mf.float32 and mf.randn(2).dtype == mf.float32


def test_full_keeps_large_ints_exact():
    big = (1 << 60) + 1
    check(mf.full((3,), big), np.full(3, big, np.int64))
    check(mf.arange(big, big + 7, 3), np.arange(big, big + 7, 3, dtype=np.int64))


@pytest.mark.parametrize("args", [(5,), (2, 11, 3), (0, 10, 1), (10, 0, -3), (5, 5), (0, 1), (-4, 4, 2)])
def test_arange_ints_like_numpy(args):
    check(mf.arange(*args), np.arange(*args, dtype=np.int64))
    for dtype, np_dtype in DTYPES:
        check(mf.arange(*args, dtype=dtype), np.arange(*args).astype(np_dtype))


@pytest.mark.parametrize("args", [(0.0, 1.0, 0.1), (1.0, -2.0, -0.5), (0.5, 7.25), (2.5,), (0, 3, 0.75)])
def test_arange_floats_like_numpy(args):
    check(mf.arange(*args), np.arange(*args, dtype=np.float64).astype(np.float32), rtol=1e-6)
    check(mf.arange(*args, dtype=mf.float64), np.arange(*args, dtype=np.float64), rtol=1e-12)


# torch 2.x's CPU values: (op, args, dtype, numel, sha256 of the bytes, first 16 hex digits).
TORCH_RANGES = [
    ("arange", (10, 0, -0.3), "float32", 34, "f3e36742ac91efc3"),
    ("arange", (0, 1000.0, 0.37), "float32", 2703, "4587bbca76f6ff97"),
    ("arange", (0, 1000.0, 0.37), "float64", 2703, "d0857f5b5d06f5c3"),
    ("arange", (3, 500, 1.1), "float64", 452, "280e76d580ba30db"),
    ("arange", (-7.5, 20000.25, 0.75), "float32", 26677, "4d69ca64d5ecb658"),
    ("arange", (0, 5.5, 0.5), "int64", 11, "10eef285deef7a4b"),
    ("arange", (-2.5, 3, 1.5), "int32", 4, "be46d6be1de60044"),
    ("linspace", (-3.3, 7.1, 37), "int64", 37, "ac266e4d8709df10"),
    ("linspace", (-3.3, 7.1, 37), "float64", 37, "c4fc2f5157f3a787"),
    ("linspace", (0.001, 5, 257), "float64", 257, "0cf18039561c8337"),
    ("linspace", (2, -5, 100), "float32", 100, "94726b4bfc5999c1"),
    ("linspace", (-1, 1, 4097), "float32", 4097, "3bad68183dfdde05"),
    ("linspace", (0, 255, 1000), "uint8", 1000, "c9465db6feacc30e"),
    ("linspace", (5, 5, 1), "float32", 1, "fca31f1667a6aa1b"),
    ("linspace", (7.9, -3.2, 2), "int16", 2, "7fa42ed530020def"),
    ("logspace", (-3.528, 3.327, 100, 2.718281828459045), "float32", 100, "a8c5e1548790dcd4"),
    ("logspace", (5.0, -4.08, 3, 2.718281828459045), "float64", 3, "f4afb9c07d67eb01"),
    ("logspace", (-2.5, 1.1, 100, 3.7), "float64", 100, "dc4e72e938730521"),
    ("logspace", (0, 10, 1000), "float64", 1000, "0558a07c30968fd6"),
    ("logspace", (0, 10, 1000), "float32", 1000, "b4e099aaee64aeaa"),
    ("logspace", (3.04, 0.442, 17, 10.0), "float32", 17, "76702d5b7cf6bd19"),
    ("logspace", (0, 6, 7, 2.0), "int64", 7, "369a86a41d2d4970"),
    ("logspace", (-1.5, 4.2, 33, 2.5), "int32", 33, "f2a1dfdac40d6f68"),
    ("logspace", (2.0, 2.0, 1), "float32", 1, "2238f30df488055d"),
    ("logspace", (-2, 2, 64, 0.5), "float64", 64, "862b963ae1a0cf39"),
]


@pytest.mark.parametrize("op,args,dtype,numel,digest", TORCH_RANGES)
def test_arange_linspace_logspace_are_torchs_bits(op, args, dtype, numel, digest):
    t = getattr(mf, op)(*args, dtype=getattr(mf, dtype))
    assert t.numel() == numel
    assert hashlib.sha256(t.numpy().tobytes()).hexdigest()[:16] == digest


def _fma(a, b, c):
    return float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)))


def _arange_rule(start, step, n, np_dtype):
    """range_math.h's rule, written independently: fused multiply-adds in double; in pairs of
    256-bit vectors each element counts from its vector's first value, the rest from start."""
    lanes = 32 // np.dtype(np_dtype).itemsize
    whole = n // (2 * lanes) * 2 * lanes
    out = np.empty(n, np_dtype)
    for i in range(n):
        if i < whole:
            first = i // lanes * lanes
            out[i] = _fma(i - first, step, float(np_dtype(_fma(step, first, start))))
        else:
            out[i] = _fma(step, i, start)
    return out


def _linspace_rule(start, end, steps, np_dtype):
    """The first half counted from start, the rest back from end, each a fused multiply-add in
    the dtype (double for integers, whose ends are truncated)."""
    c = np.float64 if np_dtype != np.float32 else np.float32
    if np.issubdtype(np_dtype, np.integer):
        start, end = float(int(start)), float(int(end))
    first, last = c(start), c(end)
    step = (last - first) / c(steps - 1) if steps > 1 else c(0)
    values = [first if steps == 1 else c(_fma(step, i, first)) if i < steps // 2 else c(_fma(-step, steps - i - 1, last))
              for i in range(steps)]
    return np.array(values, np.float64).astype(np_dtype) if values else np.empty(0, np_dtype)


@pytest.mark.parametrize("seed", range(6))
def test_arange_and_linspace_follow_the_rule(seed):
    rng = np.random.RandomState(seed)
    for _ in range(8):
        start, end = (float(np.round(v, rng.randint(4))) for v in rng.uniform(-50, 50, 2))
        step = float(np.round(rng.uniform(0.01, 3), 1 + rng.randint(3))) * rng.choice([-1, 1])
        n = int(rng.choice([3, 17, 40, 100, 700]))
        for dtype, np_dtype in ((mf.float32, np.float32), (mf.float64, np.float64)):
            t = mf.arange(start, start + step * n, step, dtype=dtype)
            np.testing.assert_array_equal(t.numpy(), _arange_rule(start, step, t.numel(), np_dtype))
        for dtype, np_dtype in ((mf.float32, np.float32), (mf.float64, np.float64), (mf.int64, np.int64)):
            np.testing.assert_array_equal(mf.linspace(start, end, n, dtype=dtype).numpy(),
                                          _linspace_rule(start, end, n, np_dtype))


@pytest.mark.parametrize("op", [mf.rand, mf.randn])
@pytest.mark.parametrize("dtype,np_dtype", DTYPES[:2])
def test_random_shapes_and_seeding(op, dtype, np_dtype):
    for shape in SHAPES:
        t = op(*shape, dtype=dtype)
        assert t.shape == shape and t.numpy().dtype == np_dtype
    mf.manual_seed(123)
    first, second = op(4, 5, dtype=dtype).numpy(), op(4, 5, dtype=dtype).numpy()
    assert not np.array_equal(first, second), "successive calls must differ"
    mf.manual_seed(123)
    np.testing.assert_array_equal(op((4, 5), dtype=dtype).numpy(), first)
    np.testing.assert_array_equal(op([4, 5], dtype=dtype).numpy(), second)
    mf.manual_seed(124)
    assert not np.array_equal(op(4, 5, dtype=dtype).numpy(), first), "another seed, other values"


def test_rng_state_replays_the_draws_after_it(tmp_path):
    mf.manual_seed(5)
    mf.rand(3)
    state = mf.get_rng_state()
    assert state.dtype == mf.uint8 and state.tolist() == [5] + [0] * 7 + [3] + [0] * 7  # torch's ByteTensor form
    first, second = mf.rand(4, 4).numpy(), mf.randn(7).numpy()
    mf.manual_seed(6)
    mf.save({"rng": state}, tmp_path / "ckpt")  # it goes through a checkpoint as it is
    mf.set_rng_state(mf.load(tmp_path / "ckpt")["rng"])
    np.testing.assert_array_equal(mf.rand(4, 4).numpy(), first)
    np.testing.assert_array_equal(mf.randn(7).numpy(), second)
    mf.set_rng_state({"seed": 5, "offset": 3})  # the dict meshflow's get_rng_state returned before
    np.testing.assert_array_equal(mf.rand(4, 4).numpy(), first)
    for bad in ({"seed": 1}, {"seed": 1, "offset": -1}, {"seed": "1", "offset": 0}, [1, 2], mf.zeros(16),
                mf.zeros(8, dtype=mf.uint8)):
        with pytest.raises(ValueError, match="set_rng_state: expected"):
            mf.set_rng_state(bad)


@pytest.mark.parametrize("dtype", [mf.float32, mf.float64])
def test_random_moments(dtype):
    mf.manual_seed(2026)
    u = mf.rand(100, 1000, dtype=dtype).numpy().astype(np.float64)
    assert u.min() >= 0 and u.max() < 1
    assert abs(u.mean() - 0.5) < 0.006 and abs(u.std() - np.sqrt(1 / 12)) < 0.003
    n = mf.randn(100000, dtype=dtype).numpy().astype(np.float64)
    # 1e5 samples: the mean's standard error is 0.0032; allow about 6 of them.
    assert abs(n.mean()) < 0.02 and abs(n.std() - 1) < 0.01
    assert abs(np.mean(n ** 3)) < 0.05 and abs(np.mean(n ** 4) - 3) < 0.1  # symmetric, normal tails


def test_global_on_one_rank():
    p = mf.placement("cpu", ranks=[0])
    g = mf.arange(6, placement=p, sbp=mf.sbp.split(0))
    assert g.is_global and g.sbp == (mf.sbp.split(0),)
    np.testing.assert_array_equal(g.numpy(), np.arange(6))
    assert mf.zeros(2, 2, placement=p, sbp=mf.sbp.partial_sum).sbp == (mf.sbp.partial_sum,)
    mf.manual_seed(5)
    local = mf.randn(3, 4).numpy()
    mf.manual_seed(5)
    np.testing.assert_array_equal(mf.randn(3, 4, placement=p, sbp=mf.sbp.split(1)).numpy(), local)


@pytest.mark.parametrize("call,error,text", [
    (lambda: mf.zeros(2, -1), ValueError, "zeros: size (2, -1) has a negative dim"),
    (lambda: mf.ones(2.0), TypeError, "ones: sizes must be ints"),
    (lambda: mf.full((2,), 1e10, dtype=mf.int32), ValueError, "[full] value 10000000000 does not fit in int32"),
    (lambda: mf.full((2,), "a"), TypeError, "full: fill_value must be a number"),
    (lambda: mf.arange(0, 5, 0), ValueError, "[arange] step must be nonzero"),
    (lambda: mf.arange(5, 0), ValueError, "[arange] end 0 lies on the wrong side of start 5 for step 1"),
    (lambda: mf.arange(0, float("inf")), ValueError, "[arange] start, end and step must be finite"),
    (lambda: mf.rand(2, dtype=mf.int64), ValueError, "[rand] dtype int64 is not supported; expected float32"),
    (lambda: mf.zeros(2, placement=mf.placement("cpu", ranks=[0])), ValueError,
     "zeros: a global tensor needs both placement and sbp"),
    (lambda: mf.ones(2, placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.partial_sum), ValueError,
     "[ones] no valid signature satisfies the requested output sbp"),
    (lambda: mf.manual_seed(1.5), TypeError, "manual_seed: seed must be an int"),
])
def test_bad_input(call, error, text):
    with pytest.raises(error) as info:
        call()
    assert text in str(info.value)


def test_like_takes_the_dtype_device_and_layout_of_its_input():
    x = mf.tensor(np.arange(6, dtype=np.int32).reshape(2, 3))
    for made, value in ((mf.zeros_like(x), 0), (mf.ones_like(x), 1), (mf.full_like(x, 7), 7)):
        assert made.dtype == mf.int32 and made.shape == (2, 3) and made.device == "cpu"
        assert np.all(made.numpy() == value)
    assert mf.zeros_like(x, dtype=mf.float64).dtype == mf.float64
    mf.manual_seed(1)
    a = mf.randn_like(mf.zeros(4, 5, dtype=mf.float64))
    mf.manual_seed(1)
    np.testing.assert_array_equal(a.numpy(), mf.randn(4, 5, dtype=mf.float64).numpy())
    assert mf.rand_like(mf.zeros(3, device="testdev")).device == "testdev:0"
    p = mf.placement("cpu", ranks=[0])
    g = mf.tensor(np.ones((2, 3), np.float32), placement=p, sbp=mf.sbp.partial_sum)
    ones = mf.ones_like(g)  # the value is made, not the parts: partial becomes broadcast
    assert ones.sbp == (mf.sbp.broadcast,) and ones.placement == p and np.all(ones.numpy() == 1)


def test_flat_lists_of_python_numbers_infer_as_torch():
    # the common data tensor() takes without its general inference (_as_array's first lines)
    for data, dtype in (([1.0, 2.5, -3.0], "float32"), ((1.0, 2.0), "float32"), ([1, -2, 2**63 - 1], "int64"),
                        ([-2**63], "int64"), ([1, 2.5], "float32"), ([True, 2], "int64"), ([], "float32")):
        t = mf.tensor(data)
        assert t.dtype.name == dtype, data
        np.testing.assert_array_equal(t.numpy(), np.array(data, dtype=dtype))
    with pytest.raises(ValueError, match="does not fit in int64"):
        mf.tensor([1, 2**63])
    previous = mf.get_default_dtype()
    mf.set_default_dtype(mf.float64)
    try:
        assert mf.tensor([0.1, 0.2]).dtype == mf.float64
        np.testing.assert_array_equal(mf.tensor([0.1]).numpy(), [0.1])
    finally:
        mf.set_default_dtype(previous)
