"""The integer matmul wraps modulo 2^bits as every integer kernel (issue 38): products whose
sums overflow, for every integer dtype, each operand transposed or not, large enough to run
on several threads; against Python's exact integers reduced modulo 2^bits."""
import numpy as np
import pytest

import meshflow as mf
from meshflow._tensor import apply

DTYPES = [("uint8", np.uint8), ("int8", np.int8), ("int16", np.int16), ("int32", np.int32), ("int64", np.int64)]


def _wrapped(a, b, np_dtype):
    """a @ b in exact integers, reduced into np_dtype's range as two's complement."""
    exact = a.astype(object) @ b.astype(object)
    bits = np.iinfo(np_dtype).bits
    mod = exact % (1 << bits)
    if np.iinfo(np_dtype).min < 0:
        mod = np.where(mod >= (1 << (bits - 1)), mod - (1 << bits), mod)
    return mod.astype(np_dtype)


@pytest.mark.parametrize("name, np_dtype", DTYPES)
@pytest.mark.parametrize("ta, tb", [(False, False), (False, True), (True, False), (True, True)])
@pytest.mark.parametrize("m, k, n", [(3, 5, 4), (64, 96, 80)])
def test_integer_matmul_wraps(name, np_dtype, ta, tb, m, k, n):
    info = np.iinfo(np_dtype)
    rng = np.random.default_rng(m + k + n)
    a = rng.integers(info.min, info.max, (m, k), dtype=np_dtype, endpoint=True)
    b = rng.integers(info.min, info.max, (k, n), dtype=np_dtype, endpoint=True)
    a[0, :] = info.max  # a row of largest values: its sums overflow
    b[:, 0] = info.max
    sa = np.ascontiguousarray(a.T) if ta else a
    sb = np.ascontiguousarray(b.T) if tb else b
    dtype = getattr(mf, name)
    got = apply("matmul", [mf.tensor(sa, dtype=dtype), mf.tensor(sb, dtype=dtype)],
                {"transpose_a": ta, "transpose_b": tb})[0]
    assert got.dtype == dtype
    np.testing.assert_array_equal(got.numpy(), _wrapped(a, b, np_dtype))
