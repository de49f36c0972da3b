"""Elementwise ops on local tensors against NumPy: every op, operator and Tensor method, every
dtype it takes, broadcasting, PyTorch's promotion of Python numbers, integer division and
powers, and bad input."""
import math

import numpy as np
import pytest

import meshflow as mf
import meshflow.nn.functional as F
from fma_reference import fused_multiply_add

DTYPES = [np.float32, np.float64, np.int32, np.int64]
FLOATS = [np.float32, np.float64]
SHAPE_PAIRS = [((5, 3), (5, 3)), ((4, 6), (4, 6)), ((5, 3), (3,)), ((1, 3), (5, 1)), ((2, 5, 3), (5, 1)),
               ((0, 3), (3,)), ((7,), ())]


def values(shape, dtype, low=-9, high=9, seed=0):
    """Integers in [low, high] (exact in every dtype), with a fractional part for floats."""
    rng = np.random.default_rng(seed)
    out = rng.integers(low, high + 1, shape).astype(dtype)
    if np.dtype(dtype).kind == "f":
        out = out + rng.choice([0, 0.25, 0.5], shape).astype(dtype)
    return np.asarray(out, dtype)  # 0-d arrays stay arrays (NumPy scalars would become int64/float32)


def small(shape, dtype, seed=1):
    """Few distinct values, so that comparisons meet equal pairs."""
    return values(shape, dtype, -2, 2, seed)


def nonzero(shape, dtype, seed=1):
    out = values(shape, dtype, -4, 4, seed)
    return np.where(out == 0, 3, out).astype(dtype)


def check(result, expected):
    """result (a meshflow tensor) equals the NumPy array `expected`, dtype included."""
    expected = np.asarray(expected)
    assert result.dtype == mf.dtype(expected.dtype.name), (result.dtype, expected.dtype)
    assert result.shape == expected.shape
    if expected.dtype == np.bool_:
        np.testing.assert_array_equal(result.numpy(), expected)
        return
    rtol = 1e-5 if expected.dtype == np.float32 else 1e-12
    np.testing.assert_allclose(result.numpy(), expected, rtol=rtol, atol=rtol)


def as_float(array):
    return array if array.dtype.kind == "f" else array.astype(np.float32)


# ---------------------------------------------------------------------------------------------
# Binary ops: functions, operators and methods.

BINARY = {
    # name: (function, operator or None, NumPy reference, operands)
    "add": (mf.add, lambda a, b: a + b, np.add, values),
    "sub": (mf.sub, lambda a, b: a - b, np.subtract, values),
    "mul": (mf.mul, lambda a, b: a * b, np.multiply, values),
    "div": (mf.div, lambda a, b: a / b, lambda a, b: as_float(a) / as_float(b), nonzero),
    "floor_divide": (mf.floor_divide, lambda a, b: a // b, np.floor_divide, nonzero),
    "maximum": (mf.maximum, None, np.maximum, small),
    "minimum": (mf.minimum, None, np.minimum, small),
    "eq": (mf.eq, lambda a, b: a == b, lambda a, b: a == b, small),
    "ne": (mf.ne, lambda a, b: a != b, lambda a, b: a != b, small),
    "lt": (mf.lt, lambda a, b: a < b, lambda a, b: a < b, small),
    "le": (mf.le, lambda a, b: a <= b, lambda a, b: a <= b, small),
    "gt": (mf.gt, lambda a, b: a > b, lambda a, b: a > b, small),
    "ge": (mf.ge, lambda a, b: a >= b, lambda a, b: a >= b, small),
}


@pytest.mark.parametrize("shapes", SHAPE_PAIRS, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(BINARY))
def test_binary(name, dtype, shapes):
    function, operator, reference, operand = BINARY[name]
    a, b = operand(shapes[0], dtype, seed=4), operand(shapes[1], dtype)
    expected = reference(a, b)
    ta, tb = mf.tensor(a), mf.tensor(b)
    check(function(ta, tb), expected)
    check(getattr(ta, name)(tb), expected)
    if operator is not None:
        check(operator(ta, tb), expected)
    # Swapped operands (broadcasting the other way).
    b2 = operand(shapes[0], dtype, seed=5)
    check(function(mf.tensor(b), mf.tensor(b2)), reference(b, b2))


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_maximum_minimum_propagate_nan(dtype):
    a, b = np.array([np.nan, 1, 2], dtype), np.array([0, np.nan, 1], dtype)
    check(mf.maximum(mf.tensor(a), mf.tensor(b)), np.maximum(a, b))
    check(mf.minimum(mf.tensor(a), mf.tensor(b)), np.minimum(a, b))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_pow(dtype):
    a = values((5, 3), dtype, 1, 9) if np.dtype(dtype).kind == "f" else values((5, 3), dtype, -9, 9)
    b = values((5, 3), dtype, 0, 3, seed=2)
    if np.dtype(dtype).kind == "f":
        b = b + np.array(0.5, dtype)  # fractional exponents of positive bases
    expected = np.power(a, b)
    check(mf.pow(mf.tensor(a), mf.tensor(b)), expected)
    check(mf.tensor(a) ** mf.tensor(b), expected)
    check(mf.tensor(a).pow(mf.tensor(b[0])), np.power(a, b[0]))


def test_integer_pow_with_negative_exponents_follows_torch():
    base = np.array([2, 1, -1, -1, 3, 0, 0], np.int64)
    exponent = np.array([10, -5, -3, -4, -1, 0, -2], np.int64)
    check(mf.tensor(base) ** mf.tensor(exponent), np.array([1024, 1, -1, 1, 0, 1, 0], np.int64))


# x ** s as torch's kernels compute it: their own loops for these exponents (the products
# round at each step; 0.5 is sqrt, so sqrt(-0) = -0 and sqrt(-inf) = NaN), pow for the rest.
POW_SCALAR_LOOPS = {
    0: lambda x: np.ones_like(x), 1: lambda x: x, 2: lambda x: x * x, 3: lambda x: x * x * x,
    -1: lambda x: 1 / x, -2: lambda x: 1 / (x * x), 0.5: np.sqrt, -0.5: lambda x: 1 / np.sqrt(x),
}


@pytest.mark.parametrize("device", ["cpu", "testdev"])
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("exponent", [*POW_SCALAR_LOOPS, 4, -3, 1.5], ids=repr)
def test_pow_scalar_takes_torchs_loops(exponent, dtype, device):
    special = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 1e-30, -3e20, 1e30, np.inf, -np.inf, np.nan]
    x = np.concatenate([np.array(special, dtype), values((97,), dtype, -9, 9)]).astype(dtype)
    result = (mf.tensor(x, device=device) ** exponent).to("cpu")
    assert result.dtype == mf.dtype(np.dtype(dtype).name)
    with np.errstate(all="ignore"):
        if exponent in POW_SCALAR_LOOPS:
            expected = POW_SCALAR_LOOPS[exponent](x).astype(dtype)
            np.testing.assert_array_equal(result.numpy(), expected)  # the same bits: NaN where NaN
            np.testing.assert_array_equal(np.signbit(result.numpy()), np.signbit(expected))
        else:
            np.testing.assert_allclose(result.numpy(), np.power(x, exponent), rtol=1e-6 if dtype == np.float32 else 1e-14)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.int32, np.int64], ids=lambda d: np.dtype(d).name)
def test_integer_pow_scalar_wraps(dtype):
    x = np.array([0, 1, -1, 2, -3, 7, 100, 127, -128, 55, 255, 181], np.int64).astype(dtype)
    bits = 8 * np.dtype(dtype).itemsize
    for exponent in range(6):
        exact = [(int(v) ** exponent) % (1 << bits) for v in x]  # wrapped to the dtype's bits
        expected = np.array(exact, np.uint64).astype(dtype)
        np.testing.assert_array_equal((mf.tensor(x) ** exponent).numpy(), expected)


def test_integer_division():
    a, b = np.array([7, -7, 7, -7, 0], np.int32), np.array([2, 2, -2, -2, 5], np.int32)
    ta, tb = mf.tensor(a), mf.tensor(b)
    check(ta // tb, np.array([3, -4, -4, 3, 0], np.int32))
    check(mf.div(ta, tb, rounding_mode="floor"), np.array([3, -4, -4, 3, 0], np.int32))
    check(mf.div(ta, tb, rounding_mode="trunc"), np.array([3, -3, -3, 3, 0], np.int32))
    check(ta / tb, a.astype(np.float32) / b.astype(np.float32))  # true division, as torch
    lowest = np.array([np.iinfo(np.int64).min], np.int64)
    check(mf.tensor(lowest) // mf.tensor(np.array([-1], np.int64)), lowest)  # wraps, no trap


@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_float_division_rounding(dtype):
    a, b = values((5, 3), dtype), nonzero((5, 3), dtype)
    a[0, 0], b[0, 0] = 1, 0.1  # where floor(a / b) would round up to 10: Python gives 9
    ta, tb = mf.tensor(a), mf.tensor(b)
    check(ta // tb, np.floor_divide(a, b))
    check(mf.div(ta, tb, rounding_mode="trunc"), np.trunc(a / b))
    check(mf.div(ta, tb), a / b)


@pytest.mark.parametrize("dtype", [np.int32, np.int64], ids=lambda d: np.dtype(d).name)
def test_integer_division_by_zero_raises(dtype):
    # The kernel finds the zero when it runs, after the call has returned: the error comes
    # with the next read of the value (or mf.synchronize()), with the op's name.
    a, zero = mf.tensor(values((4, 3), dtype)), mf.tensor(np.array([1, 0, 2], dtype))
    for f in (lambda: a // zero, lambda: a // 0, lambda: mf.div(a, zero, rounding_mode="trunc"),
              lambda: mf.floor_divide(a, 0)):
        with pytest.raises(ValueError, match=r"\[(floor_divide|div)\] integer division by zero"):
            f().numpy()
    quotient = a // zero
    with pytest.raises(ValueError, match="integer division by zero"):
        mf.synchronize()
    with pytest.raises(ValueError, match="integer division by zero"):  # reading it raises again
        (quotient + 1).numpy()
    mf.synchronize()  # raised once: nothing pending
    # True division promotes to float32 first, so x / 0 is inf as in torch.
    check(mf.tensor(np.array([1, -1], dtype)) / 0, np.array([np.inf, -np.inf], np.float32))
    # An empty result divides nothing.
    check(mf.tensor(np.zeros((0, 3), dtype)) // zero, np.zeros((0, 3), dtype))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", [name for name, entry in BINARY.items() if entry[1] is not None])
def test_operator_with_a_numpy_array(name, dtype):
    # The choice: an array beside a local tensor in an operator becomes a tensor of the
    # array's dtype, on either side, and the result is a tensor (torch's operators take arrays
    # too; without this NumPy made an object array of tensors). Dtypes promote, as between
    # two tensors: a float64 array beside an int32 or float32 tensor gives float64.
    _, operator, reference, operand = BINARY[name]
    a, b = operand((5, 3), dtype, seed=4), operand((3,), dtype)
    check(operator(mf.tensor(a), b), reference(a, b))
    check(operator(a, mf.tensor(b)), reference(a, b))
    wide = b.astype(np.float64)
    check(operator(mf.tensor(a), wide), reference(a.astype(np.float64), wide))


def test_numpy_arrays_meet_tensors_only_through_operators():
    x, a = mf.tensor(np.ones(3, np.float32)), np.arange(3, dtype=np.float32)
    with pytest.raises(TypeError, match="does not support ufuncs"):
        np.add(a, x)
    with pytest.raises(TypeError, match=r"expected a meshflow.Tensor or a number, got numpy.ndarray"):
        mf.add(x, a)
    with pytest.raises(TypeError, match=r"^\[exp\] expected a meshflow Tensor, got numpy.ndarray$"):
        mf.exp(a)
    with pytest.raises(TypeError, match=r"^\[matmul\] expected a meshflow Tensor, got numpy.ndarray$"):
        x @ a
    # A global tensor's array operand would be a guess (the full value or this rank's part?).
    g = mf.tensor(np.ones(3, np.float32), placement=mf.placement("cpu", ranks=[0]), sbp=mf.sbp.split(0))
    for operation in (lambda: g + a, lambda: a * g, lambda: g < a):
        with pytest.raises(TypeError, match=r"a numpy.ndarray of shape \(3,\) cannot meet a global tensor"):
            operation()
    # NumPy reads a tensor's value (np.asarray was a 0-d object array).
    np.testing.assert_array_equal(np.asarray(x + a), [1, 2, 3])
    assert np.asarray(g, np.float64).dtype == np.float64 and np.array(g).tolist() == [1, 1, 1]


# ---------------------------------------------------------------------------------------------
# Python numbers.

SCALAR_OPERATORS = {
    "+": (lambda x, c: x + c, lambda x, c: c + x),
    "-": (lambda x, c: x - c, lambda x, c: c - x),
    "*": (lambda x, c: x * c, lambda x, c: c * x),
    "/": (lambda x, c: x / c, lambda x, c: c / x),
    "//": (lambda x, c: x // c, lambda x, c: c // x),
    "**": (lambda x, c: x ** c, lambda x, c: c ** x),
    "==": (lambda x, c: x == c, lambda x, c: c == x),
    "!=": (lambda x, c: x != c, lambda x, c: c != x),
    "<": (lambda x, c: x < c, lambda x, c: c < x),
    "<=": (lambda x, c: x <= c, lambda x, c: c <= x),
    ">": (lambda x, c: x > c, lambda x, c: c > x),
    ">=": (lambda x, c: x >= c, lambda x, c: c >= x),
}


def promoted_dtype(dtype, scalar):
    """PyTorch: an integer tensor meeting a Python float becomes float32; else the tensor's dtype."""
    return np.dtype(np.float32) if isinstance(scalar, float) and np.dtype(dtype).kind == "i" else np.dtype(dtype)


def numpy_reference(symbol, x, c, reflected):
    """The operator on a NumPy array of the result's operand dtype and a 0-d array of c."""
    c = np.array(c, x.dtype)
    a, b = (c, x) if reflected else (x, c)
    if symbol == "/":
        return as_float(a) / as_float(b)
    if symbol in ("==", "!=", "<", "<=", ">", ">="):
        return SCALAR_OPERATORS[symbol][0](a, b)
    with np.errstate(invalid="ignore"):  # a negative base to a fractional power is NaN
        return SCALAR_OPERATORS[symbol][0](a, b)


@pytest.mark.parametrize("scalar", [3, -2, 2.5, -0.5], ids=repr)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("symbol", list(SCALAR_OPERATORS))
def test_operator_with_python_number(symbol, dtype, scalar):
    x = values((4, 3), dtype, 1, 9)  # positive: no zero divisor, real powers
    operand = x.astype(promoted_dtype(dtype, scalar))
    for reflected, f in enumerate(SCALAR_OPERATORS[symbol]):
        if symbol == "**" and not reflected and np.dtype(dtype).kind == "i" and scalar == -2:
            continue  # an error, checked below
        expected = numpy_reference(symbol, operand, scalar, bool(reflected))
        check(f(mf.tensor(x), scalar), expected)


def test_python_numbers_follow_torch_promotion():
    i32, i64, f64 = (mf.tensor(np.array([1, 2], d)) for d in (np.int32, np.int64, np.float64))
    assert (i32 + 1).dtype == mf.int32 and (i32 + 1.5).dtype == mf.float32 and (i64 * 0.5).dtype == mf.float32
    assert (f64 + 1).dtype == mf.float64 and (f64 * 0.5).dtype == mf.float64
    assert (i64 / 2).dtype == mf.float32 and (i64 // 2).dtype == mf.int64 and (i64 // 2.0).dtype == mf.float32
    assert mf.add(2.5, i32).dtype == mf.float32 and mf.maximum(i32, 1.5).dtype == mf.float32
    assert (True + i32).dtype == mf.int32
    # Ints stay exact beyond 2 ** 53.
    big = mf.tensor(np.array([2 ** 60 + 1], np.int64))
    assert (big + 2).numpy()[0] == 2 ** 60 + 3 and (big * 1).numpy()[0] == 2 ** 60 + 1
    assert (big - 1).numpy()[0] == 2 ** 60 and (2 ** 61 - big).numpy()[0] == 2 ** 60 - 1


def test_division_by_a_number_is_exact():
    x = values((6, 5), np.float32)
    for c in (3, 7.0, 0.1, -11):
        np.testing.assert_array_equal((mf.tensor(x) / c).numpy(), x / np.float32(c))


# ---------------------------------------------------------------------------------------------
# where.

@pytest.mark.parametrize("dtype", DTYPES + [np.bool_], ids=lambda d: np.dtype(d).name)
def test_where(dtype):
    cond = values((5, 3), np.int32, -1, 1, seed=3) != 0
    a, b = values((5, 3), dtype), values((5, 3), dtype, seed=4)
    expected = np.where(cond, a, b)
    check(mf.where(mf.tensor(cond), mf.tensor(a), mf.tensor(b)), expected)
    check(mf.tensor(a).where(mf.tensor(cond), mf.tensor(b)), expected)


@pytest.mark.parametrize("cond_dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_where_takes_bool_conditions_only(cond_dtype):
    x = mf.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match=f"where expected condition to be a boolean tensor, but got a tensor "
                                           f"with dtype {np.dtype(cond_dtype).name}"):
        mf.where(mf.tensor(np.array([1, 0], cond_dtype)), x, x)


@pytest.mark.parametrize("shapes", [((5, 1), (3,), (5, 3)), ((2, 1, 3), (5, 1), ()), ((0, 3), (1, 3), (3,)),
                                    ((), (4,), (2, 1))], ids=str)
def test_where_broadcasts_three_ways(shapes):
    cond = values(shapes[0], np.int32, -1, 1, seed=3) != 0
    a, b = values(shapes[1], np.float32), values(shapes[2], np.float32)
    check(mf.where(mf.tensor(cond), mf.tensor(a), mf.tensor(b)), np.where(cond, a, b))


def test_where_with_numbers():
    cond = np.array([True, False, True])
    x = mf.tensor(np.array([5, 6, 7], np.int64))
    check(mf.where(mf.tensor(cond), x, 0), np.array([5, 0, 7], np.int64))
    check(mf.where(mf.tensor(cond), x, 0.5), np.array([5, 0.5, 7], np.float32))
    check(mf.where(mf.tensor(cond), -1, x), np.array([-1, 6, -1], np.int64))
    check(mf.where(mf.tensor(cond), 1, 0), np.array([1, 0, 1], np.int64))
    check(mf.where(mf.tensor(cond), 1.5, 0), np.array([1.5, 0, 1.5], np.float32))
    check(mf.where(mf.tensor(cond), True, False), cond)
    check(mf.where(mf.tensor(cond), mf.tensor(np.array([1, 2, 3], np.int32)), 0.5),
          np.array([1, 0.5, 3], np.float32))


# ---------------------------------------------------------------------------------------------
# Unary ops.

def gelu_reference(x):
    erf = np.vectorize(math.erf, otypes=[np.float64])
    return (x.astype(np.float64) * 0.5 * (1 + erf(x.astype(np.float64) / math.sqrt(2)))).astype(x.dtype)


UNARY = {
    # name: (NumPy reference on the promoted input, positive inputs only, keeps integers)
    "neg": (np.negative, False, True),
    "abs": (np.abs, False, True),
    "relu": (lambda x: np.maximum(x, 0).astype(x.dtype), False, True),
    "trunc": (lambda x: np.trunc(x).astype(x.dtype), False, True),
    "exp": (np.exp, False, False),
    "log": (np.log, True, False),
    "sqrt": (np.sqrt, True, False),
    "rsqrt": (lambda x: (1 / np.sqrt(x)).astype(x.dtype), True, False),
    "tanh": (np.tanh, False, False),
    "sigmoid": (lambda x: (1 / (1 + np.exp(-x))).astype(x.dtype), False, False),
}


@pytest.mark.parametrize("shape", [(5, 3), (4, 6), (0, 3), (7,), ()], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(UNARY))
def test_unary(name, dtype, shape):
    reference, positive, keeps_integers = UNARY[name]
    x = values(shape, dtype, 1, 9) if positive else values(shape, dtype)
    expected = reference(x if keeps_integers else as_float(x))
    t = mf.tensor(x)
    check(getattr(mf, name)(t), expected)
    check(getattr(t, name)(), expected)
    if name == "neg":
        check(-t, expected)
    if name == "abs":
        check(abs(t), expected)


@pytest.mark.parametrize("name", ["relu", "sigmoid", "tanh"])
def test_nn_functional_reexports(name):
    x = values((5, 3), np.float32)
    check(getattr(F, name)(mf.tensor(x)), UNARY[name][0](x))


@pytest.mark.parametrize("shape", [(5, 3), (0, 3), ()], ids=str)
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: np.dtype(d).name)
def test_gelu_exact(dtype, shape):
    x = values(shape, dtype, -4, 4)
    check(F.gelu(mf.tensor(x)), gelu_reference(x))
    # Values torch.nn.functional.gelu gives in float32.
    np.testing.assert_allclose(F.gelu(mf.tensor(np.array([-1.0, 0.0, 1.0, 3.0], dtype))).numpy(),
                               [-0.15865525, 0.0, 0.8413447, 2.9959502], rtol=1e-6)


def test_unary_special_values():
    x = mf.tensor(np.array([-1.0, 0.0, np.inf, np.nan, -100.0, 100.0], np.float32))
    with np.errstate(all="ignore"):
        raw = x.numpy().copy()
        check(x.relu(), np.where(np.isnan(raw), raw, np.maximum(raw, 0)))
        check(x.sigmoid(), (1 / (1 + np.exp(-raw))).astype(np.float32))
        check(x.sqrt(), np.sqrt(raw))
        check(x.log(), np.log(raw))


# ---------------------------------------------------------------------------------------------
# Casts.

@pytest.mark.parametrize("to", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("source", DTYPES, ids=lambda d: np.dtype(d).name)
def test_cast(source, to):
    x = values((5, 3), source)
    if np.dtype(source).kind == "f":
        x = x * np.array(1.5, source)  # fractions both ways of zero: truncated toward zero
    t = mf.tensor(x)
    mf_to = mf.dtype(np.dtype(to).name)
    check(mf.cast(t, mf_to), x.astype(to))
    check(t.to(mf_to), x.astype(to))
    check(t.to(np.dtype(to)), x.astype(to))
    method = {np.float32: "float", np.float64: "double", np.int32: "int", np.int64: "long"}[to]
    check(getattr(t, method)(), x.astype(to))
    if source == to:
        assert t.to(mf_to) is t  # as torch: no copy when nothing changes


# ---------------------------------------------------------------------------------------------
# Bad input.

def test_bad_input():
    f32, i64 = mf.tensor(np.ones((4, 3), np.float32)), mf.tensor(np.ones((4, 3), np.int64))
    assert mf.maximum(f32, i64).dtype == mf.float32 and (f32 + i64).dtype == mf.float32  # promoted
    with pytest.raises(ValueError, match=r"\[lt\] shapes \[4, 3\] and \[4, 5\] cannot be broadcast"):
        f32 < mf.tensor(np.ones((4, 5), np.float32))
    with pytest.raises(ValueError, match=r"\[pow_scalar\] integers to negative integer powers are not allowed"):
        i64 ** -2
    with pytest.raises(ValueError, match=r"\[gelu\] is defined for float32 and float64, got int64"):
        F.gelu(i64)
    with pytest.raises(ValueError, match="approximate='fast'; expected 'none' or 'tanh'"):
        F.gelu(f32, approximate="fast")
    with pytest.raises(RuntimeError, match=r"where expected condition to be a boolean tensor"):
        mf.where(i64, f32, i64)
    with pytest.raises(ValueError, match=r"\[where\] shapes \[2\] and \[4, 3\] cannot be broadcast"):
        mf.where(mf.tensor([True, False]), f32, f32)
    with pytest.raises(ValueError, match="rounding_mode must be None, 'trunc' or 'floor'"):
        mf.div(f32, f32, rounding_mode="round")
    with pytest.raises(ValueError, match="unsupported dtype 'uint16'"):
        f32.to(np.uint16)
    with pytest.raises(TypeError, match="condition must be a meshflow.Tensor"):
        mf.where([1, 0], 1, 0)
    with pytest.raises(TypeError, match="expected a meshflow.Tensor or a number, got str"):
        mf.add(f32, "1")
    with pytest.raises(TypeError):
        f32 + "1"
    with pytest.raises(TypeError):
        f32 < [1]
    assert (f32 == None) is False  # noqa: E711: Python's identity fallback, as torch
    assert f32 != "text"
    assert len({f32, i64}) == 2  # tensors stay hashable


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_integer_overflow_wraps_around_as_numpy(dtype):
    info = np.iinfo(dtype)
    a = np.array([info.max, info.min, info.max, info.min, 3], dtype)
    b = np.array([1, -1, 2, info.min, info.max], dtype)
    x, y = mf.tensor(a), mf.tensor(b)
    for got, expected in ((x + y, a + b), (x - y, a - b), (x * y, a * b), (x + 1, a + dtype(1)),
                          (x * 3, a * dtype(3)), (abs(x), np.abs(a)), (-x, -a)):
        assert got.dtype == x.dtype and np.array_equal(got.numpy(), expected)
    assert x.sum().item() == int(a.astype(np.int64).sum())


def test_float32_exp_is_within_3_ulps_over_the_whole_range():
    # exp's float32 kernel is fast_math::exp (vectorized, no libm call): every result within 3
    # ulps of the correctly rounded one, subnormals down to the least, the edges exact.
    x = np.linspace(-110, 95, 400001, dtype=np.float32)
    got = mf.tensor(x).exp().numpy()
    with np.errstate(over="ignore"):
        want = np.exp(x.astype(np.float64)).astype(np.float32)
    finite = np.isfinite(want)
    ulps = np.abs(got[finite].view(np.int32).astype(np.int64) - want[finite].view(np.int32).astype(np.int64))
    assert ulps.max() <= 3, x[finite][ulps.argmax()]
    np.testing.assert_array_equal(got[~finite], want[~finite])
    edges = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 88.72283, 88.7229, -103.97, -103.98, 1e-30], np.float32)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(mf.tensor(edges).exp().numpy(), np.exp(edges.astype(np.float64)).astype(np.float32))


# ---- torch's rounding of add/sub with alpha, addcmul, lerp and addcdiv (its CPU kernels fuse
# the multiply-add: one rounding, where a composition rounds twice, in a third of the elements).

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_alpha_addcmul_lerp_round_once_as_torchs_and_addcdiv_in_its_order(dtype):
    rng = np.random.default_rng(11)
    a, b, c = rng.standard_normal((3, 7, 45)).astype(dtype)
    b = b * 10
    one = lambda x: dtype(x)  # noqa: E731 (a number in the dtype, as torch takes alpha and value)
    A, B, C = mf.tensor(a), mf.tensor(b), mf.tensor(c)
    row = b[:1]  # broadcast along the rows
    checks = [
        (mf.add(A, B, alpha=0.1), fused_multiply_add(b, one(0.1), a)),
        (mf.sub(A, B, alpha=-0.37), fused_multiply_add(b, one(0.37), a)),
        (mf.add(A, mf.tensor(row), alpha=3.3), fused_multiply_add(row, one(3.3), a)),
        (A.clone().add_(B, alpha=0.1), fused_multiply_add(b, one(0.1), a)),
        (A.clone().sub_(B, alpha=0.1), fused_multiply_add(b, one(-0.1), a)),
        (mf.addcmul(A, B, C, value=0.1), fused_multiply_add(one(0.1) * b, c, a)),
        (A.clone().addcmul_(mf.tensor(row), C, value=-2.5), fused_multiply_add(one(-2.5) * row, c, a)),
        # lerp: w (end - start) + start where |w| < 0.5, else (w - 1) (end - start) + end
        (mf.lerp(A, B, 0.3), fused_multiply_add(one(0.3), b - a, a)),
        (mf.lerp(A, B, 0.7), fused_multiply_add(one(0.7) - one(1), b - a, b)),
        (A.clone().lerp_(B, -1.3), fused_multiply_add(one(-1.3) - one(1), b - a, b)),
        (mf.addcdiv(A, B, C + 3, value=0.1), a + (one(0.1) * b) / (c + 3)),
    ]
    for got, expected in checks:
        assert got.dtype.name == np.dtype(dtype).name
        np.testing.assert_array_equal(got.numpy(), expected)


def test_alpha_and_addcmul_on_integers_wrap_and_their_gradients_are_torchs():
    i, j, k = (np.arange(12, dtype=np.int32).reshape(3, 4) * s + 2 ** 30 for s in (1, 3, 5))
    np.testing.assert_array_equal(mf.add(mf.tensor(i), mf.tensor(j), alpha=3).numpy(), i + np.int32(3) * j)
    np.testing.assert_array_equal(mf.addcmul(mf.tensor(i), mf.tensor(j), mf.tensor(k), value=2).numpy(),
                                  i + np.int32(2) * j * k)
    x, y, z = (mf.tensor(np.full((2, 3), v, np.float64), requires_grad=True) for v in (1.0, 2.0, 3.0))
    (mf.sub(x, y, alpha=0.5) * 2 + mf.addcmul(x, y, z, value=0.25)).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full((2, 3), 3.0))  # 2 + 1
    np.testing.assert_array_equal(y.grad.numpy(), np.full((2, 3), -1.0 + 0.75))  # -0.5 * 2 + 3 * 0.25
    np.testing.assert_array_equal(z.grad.numpy(), np.full((2, 3), 0.5))  # 2 * 0.25
