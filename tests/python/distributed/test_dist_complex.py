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


@pytest.mark.parametrize("name", ["2", "4", "2x2"])
def test_complex_views_and_math_on_global_tensors_equal_one_device(name, world):
    """.real/.imag/view_as_real write through on every layout (each rank its part), and the
    complex math, selection and scans equal one device."""
    ranks = mesh(name, world)
    nd = np.array(ranks).ndim
    a = value((6, 8)).astype(np.complex128) * 0.25 + (0.5 + 0.1j)  # no zero: 1 / z and log z are finite
    for sa in (S(0), S(1), B):
        x = global_from_parts(a, ranks, (sa,) * nd)
        y = x * 1
        y.real.mul_(2)
        y.imag[1:3] = 0
        mf.view_as_real(y)[..., 1] += 1
        expected = 2 * a.real + 1j * a.imag
        expected.imag[1:3] = 0
        expected = expected + 1j
        check(y, expected)
        assert y.sbp == x.sbp
        check(mf.view_as_real(y)[..., 0], expected.real)
        for op, f in (("log", np.log), ("sqrt", np.sqrt), ("sin", np.sin), ("tanh", np.tanh),
                      ("sigmoid", lambda z: 1 / (1 + np.exp(-z))), ("reciprocal", lambda z: 1 / z)):
            np.testing.assert_allclose(getattr(x, op)().numpy(), f(a), rtol=1e-12)
        np.testing.assert_allclose((x ** 0.5).numpy(), a ** 0.5, rtol=1e-12)
        np.testing.assert_allclose((x ** x).numpy(), a ** a, rtol=1e-12)
        check(mf.where(x.real > 0, x, 0), np.where(a.real > 0, a, 0))
        check(x.index_select(1, mf.tensor([7, 0, 3])), a[:, [7, 0, 3]])
        check(x.flip(0), a[::-1])
        np.testing.assert_allclose(x.cumsum(1).numpy(), np.cumsum(a, 1), rtol=1e-12)
