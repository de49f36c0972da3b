"""complex64 and complex128 global tensors on meshes of several ranks ([2], [4], [2, 2]; uneven
shapes): boxing moves their elements between every layout (partial sums add as complex
numbers), and complex arithmetic, sums and the fft ops (over split, broadcast and partial
inputs: a split of an untransformed dim and partial sums pass through them) equal one
device (NumPy)."""
import itertools

import numpy as np
import pytest

import meshflow as mf
from conftest import check_global as check
from conftest import mesh_ranks as mesh
from sbp_reference import B, P, S, global_from_parts


def value(shape, dtype=np.complex64, seed=0):
    rng = np.random.default_rng(seed)  # small integers: every sum of parts is exact
    return (rng.integers(-9, 10, shape) + 1j * rng.integers(-9, 10, shape)).astype(dtype)


def close(result, expected):
    """NumPy's transforms compute in double: the single-precision result is compared by value."""
    expected = np.asarray(expected)
    assert result.is_global and result.dtype.name == {"complex128": "complex64", "float64": "float32"}.get(
        expected.dtype.name, expected.dtype.name)
    np.testing.assert_allclose(result.numpy(), expected, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", ["2", "4", "2x2"])
def test_boxing_moves_complex_between_every_layout(name, dtype, world):
    ranks = mesh(name, world)
    z = value((5, 7), dtype)
    nd = np.array(ranks).ndim
    for src in itertools.product([S(0), S(1), B, P], repeat=nd):
        x = global_from_parts(z, ranks, src, seed=3)
        for dst in itertools.product([S(0), S(1), B], repeat=nd):
            check(x.to_global(sbp=dst), z, dst)


@pytest.mark.parametrize("name", ["2", "4", "2x2"])
def test_ops_on_global_complex_equal_one_device(name, world):
    ranks = mesh(name, world)
    nd = np.array(ranks).ndim
    a, b = value((6, 8)), value((6, 8), seed=1)
    for sa, sb in [(S(0), S(0)), (S(1), B), (B, S(0)), (P, B)]:
        x = global_from_parts(a, ranks, (sa,) * nd)
        y = global_from_parts(b, ranks, (sb,) * nd)
        check(x + y, a + b)
        check(x * y, a * b)
        check(x.conj(), np.conj(a))
        check(x.real, a.real)
        close(x.abs(), np.abs(a))
        for dim in (None, 0, 1):
            check(x.sum(dim), np.sum(a, axis=dim))
        close(mf.fft.fft(x, dim=1), np.fft.fft(a, axis=1))
        close(mf.fft.ifft(x, dim=0), np.fft.ifft(a, axis=0))
        close(mf.fft.fft2(x), np.fft.fft2(a))
        close(mf.fft.irfft(x, dim=1), np.fft.irfft(a, axis=1))
        r = global_from_parts(a.real.copy(), ranks, (sa,) * nd)
        close(mf.fft.rfft(r, dim=0), np.fft.rfft(a.real, axis=0))
