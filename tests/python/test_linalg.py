"""meshflow.linalg's solvers and decompositions (python/meshflow/linalg.py, ops/linalg.cc)
against NumPy's linalg, float32 and float64 with batch dims; gradients by finite
differences; torch's errors (LinAlgError, a RuntimeError) and top-level spellings."""
import os
import sys

import numpy as np
import pytest

import meshflow as mf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gradcheck import check_gradients  # noqa: E402

RNG = np.random.default_rng(37)
DTYPES = [(np.float32, 1e-4), (np.float64, 1e-10)]


def matrices(*shape):
    """Well-conditioned square matrices: random plus n on the diagonal."""
    return RNG.standard_normal(shape) + shape[-1] * np.eye(shape[-1])


def spd(*shape):
    a = RNG.standard_normal(shape)
    return a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])


def close(got, expected, tol):
    np.testing.assert_allclose(got.numpy(), expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype, tol", DTYPES)
def test_solve_inv_det_match_numpy(dtype, tol):
    a, b = matrices(2, 3, 4, 4).astype(dtype), RNG.standard_normal((2, 3, 4, 2)).astype(dtype)
    A, B = mf.tensor(a), mf.tensor(b)
    close(mf.linalg.solve(A, B), np.linalg.solve(a, b), tol)
    close(mf.linalg.solve(A, B[..., 0]), np.linalg.solve(a, b[..., :1])[..., 0], tol)  # a batch of vectors
    close(mf.linalg.solve(A, mf.tensor(b[0, 0])), np.linalg.solve(a, b[0, 0]), tol)  # B broadcast
    close(mf.linalg.inv(A), np.linalg.inv(a), tol)
    close(mf.inverse(A), np.linalg.inv(a), tol)
    close(A.inverse(), np.linalg.inv(a), tol)
    close(mf.linalg.det(A), np.linalg.det(a), tol * 100)
    close(A.det(), np.linalg.det(a), tol * 100)
    sign, logabsdet = mf.linalg.slogdet(A)
    close(sign, np.linalg.slogdet(a)[0], 0)
    close(logabsdet, np.linalg.slogdet(a)[1], tol)
    assert mf.linalg.inv(A).dtype == A.dtype and sign.dtype == A.dtype


def test_det_of_singular_and_negative():
    a = np.array([[[1.0, 2.0], [2.0, 4.0]], [[0.0, 1.0], [1.0, 0.0]]])
    sign, logabsdet = mf.linalg.slogdet(mf.tensor(a))
    np.testing.assert_array_equal(sign.numpy(), [0.0, -1.0])
    assert logabsdet.numpy()[0] == -np.inf
    np.testing.assert_allclose(mf.det(mf.tensor(a)).numpy(), [0.0, -1.0])
    assert np.isnan(mf.logdet(mf.tensor(a)).numpy()[1])


@pytest.mark.parametrize("dtype, tol", DTYPES)
def test_cholesky_eigh_match_numpy(dtype, tol):
    a = spd(3, 5, 5).astype(dtype)
    A = mf.tensor(a)
    close(mf.linalg.cholesky(A), np.linalg.cholesky(a), tol)
    close(mf.linalg.cholesky(A, upper=True), np.swapaxes(np.linalg.cholesky(a), -1, -2), tol)
    close(mf.cholesky(A), np.linalg.cholesky(a), tol)
    w, v = mf.linalg.eigh(A)
    close(w, np.linalg.eigvalsh(a), tol * 10)
    # Eigenvectors are unique up to sign: compare A V = V diag(w).
    close(A @ v, (v * w.unsqueeze(-2)).numpy(), tol * 100)
    close(mf.linalg.eigvalsh(A, UPLO="U"), np.linalg.eigvalsh(a, UPLO="U"), tol * 10)


@pytest.mark.parametrize("dtype, tol", DTYPES)
@pytest.mark.parametrize("shape", [(2, 5, 3), (2, 3, 5), (4, 4)])
def test_qr_svd_lstsq_match_numpy(dtype, tol, shape):
    a = RNG.standard_normal(shape).astype(dtype)
    A = mf.tensor(a)
    for mode in ("reduced", "complete"):
        q, r = mf.linalg.qr(A, mode)
        nq, nr = np.linalg.qr(a, mode)
        assert q.shape == nq.shape and r.shape == nr.shape
        close(q @ r, a, tol * 10)
        close(abs(q), np.abs(nq), tol * 10)  # unique up to the signs of the columns
        np.testing.assert_allclose(np.triu(r.numpy()), r.numpy())
    for full in (False, True):
        u, s, vh = mf.linalg.svd(A, full_matrices=full)
        nu, ns, nvh = np.linalg.svd(a, full_matrices=full)
        assert (u.shape, s.shape, vh.shape) == (nu.shape, ns.shape, nvh.shape)
        close(s, ns, tol * 10)
        k = s.shape[-1]
        close((u[..., :k] * s.unsqueeze(-2)) @ vh[..., :k, :], a, tol * 10)
    close(mf.linalg.svdvals(A), np.linalg.svd(a, compute_uv=False), tol * 10)
    b = RNG.standard_normal(shape[:-1] + (2,)).astype(dtype)
    got = mf.linalg.lstsq(A, mf.tensor(b), driver="gelsd")
    default = mf.linalg.lstsq(A, mf.tensor(b))  # torch's CPU default, gelsy: no residuals or singular values
    assert default.residuals.numel() == 0 and default.singular_values.numel() == 0
    assert mf.equal(default.solution, got.solution) and mf.linalg.lstsq(A, mf.tensor(b), driver="gels").rank.numel() == 0
    expected = np.stack([np.linalg.lstsq(x, y, rcond=None)[0] for x, y in zip(a.reshape((-1,) + shape[-2:]),
                                                                             b.reshape((-1,) + b.shape[-2:]))])
    close(got.solution, expected.reshape(got.solution.shape), tol * 100)
    assert (got.rank.numpy() == min(shape[-2:])).all()
    if shape[-2] > shape[-1]:
        residual = ((a @ got.solution.numpy() - b) ** 2).sum(-2)
        close(got.residuals, residual, tol * 100)


GRADS = [
    ("solve", lambda a, b: mf.linalg.solve(a, b), [matrices(2, 3, 3), RNG.standard_normal((2, 3, 2))]),
    ("inv", lambda a: mf.linalg.inv(a), [matrices(2, 3, 3)]),
    ("det", lambda a: mf.linalg.det(a), [matrices(2, 3, 3)]),
    ("logabsdet", lambda a: mf.linalg.slogdet(a).logabsdet, [matrices(3, 3)]),
    # The decompositions of symmetric matrices see symmetric perturbations of x.
    ("cholesky", lambda x: mf.linalg.cholesky(x @ x.transpose(-2, -1)), [matrices(2, 3, 3)]),
    ("cholesky upper", lambda x: mf.linalg.cholesky(x @ x.transpose(-2, -1), upper=True), [matrices(3, 3)]),
    ("eigvalsh", lambda x: mf.linalg.eigvalsh(x + x.transpose(-2, -1)), [RNG.standard_normal((2, 4, 4))]),
    # The eigenvectors' signs are fixed by LAPACK but the loss must not depend on them.
    ("eigh vectors", lambda x: mf.linalg.eigh(x + x.transpose(-2, -1)).eigenvectors ** 2,
     [RNG.standard_normal((2, 4, 4))]),
    ("svdvals tall", lambda x: mf.linalg.svdvals(x), [RNG.standard_normal((2, 5, 3))]),
    ("svdvals wide", lambda x: mf.linalg.svdvals(x), [RNG.standard_normal((3, 5))]),
    ("svd U V tall", lambda x: _sign_free_svd(x), [RNG.standard_normal((5, 3))]),
    ("svd U V wide", lambda x: _sign_free_svd(x), [RNG.standard_normal((2, 3, 5))]),
]


def _sign_free_svd(x):
    """U, S and Vh in one value that LAPACK's choice of the vectors' signs does not change."""
    u, s, vh = mf.linalg.svd(x, full_matrices=False)
    return ((u ** 2) * s.unsqueeze(-2)) @ (vh ** 2)


@pytest.mark.parametrize("name, f, arrays", GRADS, ids=[g[0] for g in GRADS])
def test_gradients_match_finite_differences(name, f, arrays):
    check_gradients(f, arrays, tol=1e-5)


def test_errors_as_torch():
    with pytest.raises(mf.linalg.LinAlgError, match=r"\[linalg_inv\] batch element 1: the matrix is singular"):
        mf.linalg.inv(mf.tensor(np.stack([np.eye(3), np.zeros((3, 3))]))).numpy()
    with pytest.raises(RuntimeError, match=r"\[linalg_solve\] .*singular"):
        mf.linalg.solve(mf.zeros(2, 2), mf.ones(2)).numpy()
    with pytest.raises(mf.linalg.LinAlgError, match=r"\[linalg_cholesky\] .*not positive-definite"):
        mf.linalg.cholesky(-mf.eye(3)).numpy()
    assert issubclass(mf.linalg.LinAlgError, RuntimeError)
    with pytest.raises(RuntimeError, match=r"\[linalg_inv\] A has shape \[3, 2\]; expected a square matrix"):
        mf.linalg.inv(mf.zeros(3, 2))
    with pytest.raises(RuntimeError, match=r"\[linalg_det|\[linalg_slogdet\] takes float32 and float64"):
        mf.linalg.det(mf.ones(2, 2, dtype=mf.int64))
    with pytest.raises(RuntimeError, match=r"\[linalg_solve\] B has shape"):
        mf.linalg.solve(mf.eye(3), mf.ones(2, 1))
    with pytest.raises(NotImplementedError, match=r"\[linalg_qr\] has no gradient"):
        mf.linalg.qr(mf.ones(3, 2, requires_grad=True))


@pytest.mark.skipif(not mf.cuda.is_available(), reason="needs a GPU")
def test_cuda_tensor_says_no_kernel():
    with pytest.raises(RuntimeError, match=r"\[linalg_inv\] has no kernel for device type 'cuda'"):
        mf.linalg.inv(mf.eye(3, device="cuda")).cpu().numpy()
