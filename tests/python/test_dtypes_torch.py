"""Result dtypes (and values) that PyTorch gives, for ops whose dtype was once silently
different: the expectations are torch 2's, written out by hand (no torch here). A wrong
dtype is worse than an error: a bool triangle that came out int64 indexed as integers
where torch indexes as a mask."""
import numpy as np
import pytest

import meshflow as mf


def check(result, dtype, values):
    assert result.dtype == dtype, (result.dtype, dtype)
    np.testing.assert_array_equal(result.numpy(), np.asarray(values))


def test_tril_and_triu_keep_the_dtype():
    mask = mf.ones(3, 3, dtype=mf.bool)
    check(mask.tril(), mf.bool, np.tril(np.ones((3, 3), bool)))
    check(mf.triu(mask, 1), mf.bool, np.triu(np.ones((3, 3), bool), 1))
    check(mf.tril(mf.ones(2, 3, dtype=mf.int32), -1), mf.int32, [[0, 0, 0], [1, 0, 0]])
    x = mf.tensor([[1.0, float("inf")], [float("-inf"), 2.0]])
    check(x.triu(), mf.float32, [[1.0, float("inf")], [0.0, 2.0]])  # zeros, no NaN from inf * 0


def test_a_bool_triangle_indexes_as_a_mask():
    x = mf.arange(9).reshape(3, 3)
    upper = ~mf.ones(3, 3, dtype=mf.bool).tril()
    check(x[upper], mf.int64, [1, 2, 5])
    x[upper] = 0
    check(x, mf.int64, [[0, 0, 0], [3, 4, 0], [6, 7, 8]])


def test_full_of_a_bool_is_bool():
    check(mf.full((2,), True), mf.bool, [True, True])
    check(mf.full((2,), 3), mf.int64, [3, 3])
    check(mf.full((2,), 1.5), mf.float32, [1.5, 1.5])


def test_linspace_gives_the_dtype_asked_for():
    check(mf.linspace(0, 10, 4, dtype=mf.int64), mf.int64, [0, 3, 6, 10])  # truncated, as torch's
    check(mf.linspace(10, 0, 7, dtype=mf.int64), mf.int64, [10, 8, 6, 5, 3, 1, 0])
    check(mf.linspace(-5, 5, 4, dtype=mf.int32), mf.int32, [-5, -1, 1, 5])
    check(mf.linspace(2, 3, 1), mf.float32, [2.0])
    check(mf.linspace(0, 1, 5), mf.float32, [0.0, 0.25, 0.5, 0.75, 1.0])
    check(mf.linspace(0, 1, 3, dtype=mf.float64), mf.float64, [0.0, 0.5, 1.0])


def test_sum_and_prod_with_a_dtype_give_that_dtype():
    big = mf.tensor([2 ** 31 - 1, 5])
    check(big.sum(dtype=mf.int32), mf.int32, -2147483644)  # wraps, as torch's int32 accumulator
    check(mf.tensor([True, True, False]).sum(dtype=mf.int32), mf.int32, 2)
    check(mf.tensor([[1.5, 2.5]]).sum(1, dtype=mf.int32), mf.int32, [3])  # cast first: 1 + 2
    check(mf.tensor([3, 4], dtype=mf.int32).prod(dtype=mf.int32), mf.int32, 12)
    check(mf.tensor([3, 4], dtype=mf.int32).sum(), mf.int64, 7)


def test_square_sign_diff_isclose_logsumexp_of_bools():
    b = mf.tensor([True, False, False, True])
    check(mf.square(b), mf.int64, [1, 0, 0, 1])
    check(mf.sign(b), mf.bool, [True, False, False, True])
    check(mf.diff(b), mf.bool, [True, False, True])
    check(mf.isclose(b, ~b), mf.bool, [False] * 4)
    out = mf.logsumexp(mf.tensor([[True, False]]), 1)
    assert out.dtype == mf.float32
    np.testing.assert_allclose(out.numpy(), [np.log(np.e + 1)], rtol=1e-6)


def test_subtraction_refuses_any_bool_operand():
    b, i = mf.tensor([True, False]), mf.tensor([1, 2])
    for f in (lambda: b - 1, lambda: 1 - b, lambda: i - b, lambda: b - i, lambda: i - True, lambda: b - b):
        with pytest.raises(NotImplementedError, match="bool"):
            f()
    check(mf.remainder(b, mf.tensor([2, 2])), mf.int64, [1, 0])  # % promotes first, as torch's


def test_element_movers_keep_bool_and_halves():
    m = mf.tensor([[True, False, False], [False, True, True]])
    check(m.flip(1), mf.bool, [[False, False, True], [True, True, False]])
    check(mf.rot90(m), mf.bool, [[False, True], [False, True], [True, False]])
    check(mf.gather(m, 1, mf.tensor([[2, 0], [1, 1]])), mf.bool, [[False, True], [True, True]])
    check(m.masked_select(m), mf.bool, [True, True, True])
    check(mf.take_along_dim(m, mf.tensor([[1], [0]]), 1), mf.bool, [[False], [False]])
    h = mf.tensor([1.5, -2.0, 3.25], dtype=mf.float16)
    check(h.flip(0), mf.float16, np.array([3.25, -2.0, 1.5], np.float16))
    check(h.masked_select(mf.tensor([True, False, True])), mf.float16, np.array([1.5, 3.25], np.float16))


@pytest.mark.parametrize("dtype", [mf.bfloat16, mf.float16])
def test_halves_are_floats_not_integers(dtype):
    assert dtype.is_floating_point and mf.float32.is_floating_point
    assert not mf.int64.is_floating_point and not mf.bool.is_floating_point
    x = mf.tensor([0.5, -1.5], dtype=dtype)
    # floor and ceil once returned a half unchanged and cumsum made it int64, as for integers.
    for f, want in ((mf.floor, [0, -2]), (mf.ceil, [1, -1]), (lambda t: t.cumsum(0), [0.5, -1.0]),
                    (lambda t: t.cumprod(0), [0.5, -0.75])):
        check(f(x), dtype, np.array(want, np.float32))
